use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let i = thread_idx().x;
    x + i as f32
}

fn main() {}
