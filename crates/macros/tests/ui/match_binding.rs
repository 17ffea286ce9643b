use xp_macros::kernel;

#[kernel]
pub fn f(x: i32) -> i32 {
    match x {
        0 => 1,
        n => n * 2,
    }
}

fn main() {}
