use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let _v = vec![x, x];
    x
}

fn main() {}
