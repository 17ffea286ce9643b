use xp_macros::kernel;

#[kernel]
#[allow(unused_unsafe)]
pub fn f(x: f32) -> f32 {
    unsafe { x }
}

fn main() {}
