use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let mut s = x;
    for v in [1.0f32, 2.0] {
        s += v;
    }
    s
}

fn main() {}
