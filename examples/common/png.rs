//! The examples' pictures: arrays as 8-bit grey PNG files.
use xp::{Array, DType, Device, Result};

/// The top-left `side`² corner of each image, side by side, as an 8-bit grey PNG (each scaled
/// to its own maximum).
pub fn write_png(path: &str, images: &[&Array], side: usize) -> Result<()> {
    let mut rows = vec![0u8; side * side * images.len()];
    for (i, img) in images.iter().enumerate() {
        let v = img.to_device(Device::Cpu)?.astype(DType::F64)?;
        let n = v.shape()[1];
        let v = v.to_vec::<f64>()?;
        let max = v.iter().fold(f64::MIN_POSITIVE, |m, &x| m.max(x));
        for r in 0..side {
            for c in 0..side {
                let x = (v[r * n + c] / max).clamp(0.0, 1.0);
                rows[r * side * images.len() + i * side + c] = (x.sqrt() * 255.0).round() as u8;
            }
        }
    }
    let file = std::fs::File::create(path).map_err(|e| xp::Error::invalid("png", e.to_string()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), (side * images.len()) as u32, side as u32);
    enc.set_color(png::ColorType::Grayscale);
    let mut w = enc.write_header().map_err(|e| xp::Error::invalid("png", e.to_string()))?;
    w.write_image_data(&rows).map_err(|e| xp::Error::invalid("png", e.to_string()))
}
