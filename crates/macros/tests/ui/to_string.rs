use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let _s = x.to_string();
    x
}

fn main() {}
