use xp_macros::raw_kernel;

#[raw_kernel]
pub fn f(x: f32) {
    let s = shared::<f32, 0>();
}

fn main() {}
