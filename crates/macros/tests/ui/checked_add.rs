use xp_macros::kernel;

#[kernel]
pub fn f(x: i32) -> i32 {
    let _c = x.checked_add(1);
    x
}

fn main() {}
