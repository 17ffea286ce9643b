use xp_macros::kernel;

#[kernel]
pub fn f(x: u8) -> u8 {
    let _c = x as char;
    x
}

fn main() {}
