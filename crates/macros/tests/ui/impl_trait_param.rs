use xp_macros::kernel;

#[kernel]
pub fn f(x: f32, _y: impl Copy) -> f32 {
    x
}

fn main() {}
