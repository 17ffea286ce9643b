use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    sync_threads();
    x
}

fn main() {}
