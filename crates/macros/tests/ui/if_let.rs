use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    if let 1 = 2 {
        return 0.0;
    }
    x
}

fn main() {}
