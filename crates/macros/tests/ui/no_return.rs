use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) {
    let _y = x;
}

fn main() {}
