use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f16 {
    x as f16
}

fn main() {}
