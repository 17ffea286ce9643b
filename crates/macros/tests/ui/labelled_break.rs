use xp_macros::kernel;

#[kernel]
pub fn f(x: f32) -> f32 {
    let mut y = x;
    'outer: loop {
        loop {
            y += 1.0;
            if y > 10.0 {
                break 'outer;
            }
        }
    }
    y
}

fn main() {}
