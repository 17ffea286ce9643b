use xp_macros::raw_kernel;

#[raw_kernel]
pub fn f(x: f32) -> f32 {
    x
}

fn main() {}
