use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    match x {
        1.0 => 0.0,
        _ => x,
    }
}

fn main() {}
