use xp_macros::kernel;

pub struct P {
    pub v: f32,
}

#[kernel]
pub fn f(x: f32) -> f32 {
    let _p = P { v: x };
    x
}

fn main() {}
