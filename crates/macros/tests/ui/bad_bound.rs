use xp_macros::kernel;

pub trait Float {}

#[kernel]
pub fn f<T: Copy, U: Float>(x: T, _y: U) -> T {
    x
}

fn main() {}
