use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let g = |y: f32| y * 2.0;
    g(x)
}

fn main() {}
