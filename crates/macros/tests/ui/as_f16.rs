use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let _h = x as f16;
    x
}

fn main() {}
