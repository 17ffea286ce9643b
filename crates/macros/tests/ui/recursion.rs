use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    if x > 1.0 {
        f(x - 1.0)
    } else {
        x
    }
}

fn main() {}
