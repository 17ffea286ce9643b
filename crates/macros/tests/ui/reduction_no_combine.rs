use xp_macros::reduction;

#[reduction]
pub mod sum {
    pub fn map(x: f32) -> f32 {
        x
    }
}

fn main() {}
