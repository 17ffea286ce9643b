//! The CUDA runtime floor under every family: devices and their contexts, streams and events,
//! the memory pool, buffers, CUDA graphs, NVRTC and the kernel cache, and the one launch path.
//! Nothing here knows about an op family: families build on this layer, never the reverse
//! (`scripts/import-graph` checks it).
//!
//! ```
//! // On a machine without a driver this prints 0 and never panics.
//! println!("{} CUDA devices", xp_cuda::device_count());
//! ```
pub(crate) mod buffer;
pub(crate) mod device;
pub mod foreign;
pub(crate) mod graph;
pub(crate) mod launch;
pub mod memory;
pub(crate) mod nvrtc;
pub(crate) mod properties;
pub(crate) mod stream;
