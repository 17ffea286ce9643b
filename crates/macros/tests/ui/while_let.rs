use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let mut k = 0;
    while let 0 = k {
        k = 1;
    }
    x
}

fn main() {}
