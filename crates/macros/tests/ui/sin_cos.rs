use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let (_s, _c) = x.sin_cos();
    x
}

fn main() {}
