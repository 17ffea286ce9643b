use xp_macros::raw_kernel;

#[raw_kernel]
pub fn f(x: f32, i: Index) {
    if x > 0.0 {
        return;
    }
}

fn main() {}
