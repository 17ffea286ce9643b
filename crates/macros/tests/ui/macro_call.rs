use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    println!("{}", x);
    x
}

fn main() {}
