//! Where an array's data live.
use std::fmt;

/// A device: the host CPU or one CUDA GPU by ordinal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Device {
    /// host memory, computed by the CPU backend
    #[default]
    Cpu,
    /// the CUDA GPU with this ordinal
    Cuda(usize),
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda(i) => write!(f, "cuda:{i}"),
        }
    }
}

impl std::str::FromStr for Device {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Self> {
        match s {
            "cpu" => Ok(Device::Cpu),
            "cuda" => Ok(Device::Cuda(0)),
            _ => s
                .strip_prefix("cuda:")
                .and_then(|n| n.parse().ok())
                .map(Device::Cuda)
                .ok_or_else(|| crate::Error::invalid("Device::from_str", format!("unknown device {s:?}"))),
        }
    }
}

/// What the CUDA driver reports about a GPU (`xp::cuda::properties`): the properties CuPy
/// users print, and every attribute the driver reports by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceProperties {
    /// the ordinal
    pub ordinal: usize,
    /// the product name ("NVIDIA H100 80GB HBM3")
    pub name: String,
    /// (major, minor)
    pub compute_capability: (i32, i32),
    /// streaming multiprocessors
    pub multiprocessor_count: i32,
    /// device memory in bytes
    pub total_memory: usize,
    /// the most threads a block may have
    pub max_threads_per_block: i32,
    /// the most resident threads per multiprocessor
    pub max_threads_per_multiprocessor: i32,
    /// the largest block extents (x, y, z)
    pub max_block_dim: [i32; 3],
    /// the largest grid extents (x, y, z)
    pub max_grid_dim: [i32; 3],
    /// threads per warp
    pub warp_size: i32,
    /// shared memory a block may use without opting in, in bytes
    pub shared_memory_per_block: i32,
    /// shared memory a block may use after opting in, in bytes
    pub shared_memory_per_block_optin: i32,
    /// shared memory per multiprocessor, in bytes
    pub shared_memory_per_multiprocessor: i32,
    /// 32-bit registers per block
    pub registers_per_block: i32,
    /// L2 cache in bytes
    pub l2_cache_size: i32,
    /// memory bus width in bits
    pub memory_bus_width: i32,
    /// PCI (domain, bus, device)
    pub pci: (i32, i32, i32),
    /// every attribute of the list below, by the driver's name without `CU_DEVICE_ATTRIBUTE_`
    pub attributes: Vec<(&'static str, i32)>,
}
