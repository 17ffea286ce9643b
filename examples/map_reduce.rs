//! CuPy's stream map-reduce example (`examples/stream/map_reduce.py`) ported line by line and
//! written once for every device: ten "map" streams each draw two normal vectors of 2^20
//! values and take their product, events recorded on them make a "reduce" stream wait (no host
//! wait), and the reduce stream sums the ten products. On the CPU the streams are in-order
//! no-op queues, so the same code runs and gives the same kind of answer.
//!
//! ```sh
//! cargo run --release --example map_reduce [-- N LEN]     # defaults: 10 1048576
//! ```
use xp::{Array, Device, Event, Result, Stream};

/// The map-reduce of the example on `device`: `n` products of `(1, len)` by `(len, 1)` normal
/// draws on their own streams, summed on a reduce stream after waiting on their events.
pub fn map_reduce(device: Device, n: usize, len: usize, seed: u64) -> Result<Array> {
    let mut rng = xp::on(device).default_rng(seed);
    let map_streams = (0..n).map(|_| Stream::new(device)).collect::<Result<Vec<_>>>()?;
    let reduce_stream = Stream::new(device)?;
    let mut zs = Vec::with_capacity(n);
    let mut stop_events: Vec<Event> = Vec::with_capacity(n);
    // Map
    for stream in &map_streams {
        let z = stream.scope(|| -> Result<Array> {
            let x = rng.normal(0.0, 1.0, [1, len])?;
            let y = rng.normal(0.0, 1.0, [len, 1])?;
            xp::matmul(&x, &y)
        })?;
        zs.push(z);
        stop_events.push(stream.record()?);
    }
    // Block the reduce stream until all events occur (the host does not wait).
    for e in &stop_events {
        reduce_stream.wait(e)?;
    }
    // Reduce
    reduce_stream.scope(|| {
        let mut z = zs[0].clone();
        for zi in &zs[1..] {
            z = z.add(zi)?;
        }
        Ok(z)
    })
}

#[allow(dead_code)]
fn main() -> Result<()> {
    let arg = |i: usize| std::env::args().nth(i);
    let n: usize = arg(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let len: usize = arg(2).and_then(|a| a.parse().ok()).unwrap_or(1 << 20);
    for device in xp::devices() {
        for run in 0..2 {
            let start = std::time::Instant::now();
            let z = map_reduce(device, n, len, 1)?;
            xp::synchronize(device)?;
            let secs = start.elapsed().as_secs_f64();
            let what = if run == 0 { "first run" } else { "elapsed time" };
            println!(" {device}: {what} {secs:.6} sec, z = {}", z.to_host()?.reshape([-1])?);
        }
    }
    Ok(())
}
