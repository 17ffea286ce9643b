use xp_macros::raw_kernel;

#[raw_kernel]
pub fn f(x: f32) {
    let i = thread_idx().w;
}

fn main() {}
