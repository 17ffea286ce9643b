use xp_macros::kernel;

const SCALE: f32 = 2.0;

#[kernel]
pub fn f(x: f32) -> f32 {
    x * SCALE
}

fn main() {}
