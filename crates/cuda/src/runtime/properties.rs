//! What the driver reports about a device: CuPy's `runtime.getDeviceProperties`,
//! `Device.compute_capability`, `Device.mem_info` and `Device.attributes`.
use crate::runtime::device::{driver_err, get};
use cudarc::driver::sys::CUdevice_attribute as A;
use xp_core::{DeviceProperties, Result};

macro_rules! attributes {
    ($($name:ident),* $(,)?) => {
        /// The driver attributes [`DeviceProperties::attributes`] lists.
        const ATTRIBUTES: &[(&str, A)] = &[$((stringify!($name), A::$name)),*];
    };
}

attributes!(
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE,
    CU_DEVICE_ATTRIBUTE_MAX_PITCH,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
    CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
    CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT,
    CU_DEVICE_ATTRIBUTE_INTEGRATED,
    CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY,
    CU_DEVICE_ATTRIBUTE_COMPUTE_MODE,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID,
    CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID,
    CU_DEVICE_ATTRIBUTE_TCC_DRIVER,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT,
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING,
    CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
    CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY,
    CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD,
    CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID,
    CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO,
    CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS,
    CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS,
    CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
    CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
    CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE,
    CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE,
    CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK,
    CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED,
);

/// The properties of device `ordinal` (a typed error without a driver or such a device).
pub fn properties(ordinal: usize) -> Result<DeviceProperties> {
    crate::CudaDevice::new(ordinal)?;
    let d = get(ordinal)?;
    let mut attributes = Vec::with_capacity(ATTRIBUTES.len());
    for &(name, a) in ATTRIBUTES {
        // An attribute this driver does not know is left out.
        if let Ok(v) = d.ctx.attribute(a) {
            attributes.push((name.trim_start_matches("CU_DEVICE_ATTRIBUTE_"), v));
        }
    }
    let at = |a: A| d.ctx.attribute(a).map_err(driver_err);
    Ok(DeviceProperties {
        ordinal,
        name: d.ctx.name().map_err(driver_err)?,
        compute_capability: d.ctx.compute_capability().map_err(driver_err)?,
        multiprocessor_count: at(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        total_memory: d.ctx.total_mem().map_err(driver_err)?,
        max_threads_per_block: at(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
        max_threads_per_multiprocessor: at(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
        max_block_dim: [
            at(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?,
            at(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?,
            at(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?,
        ],
        max_grid_dim: [
            at(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
            at(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
            at(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
        ],
        warp_size: at(A::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
        shared_memory_per_block: at(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
        shared_memory_per_block_optin: at(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
        shared_memory_per_multiprocessor: at(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
        registers_per_block: at(A::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)?,
        l2_cache_size: at(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
        memory_bus_width: at(A::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)?,
        pci: (
            at(A::CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)?,
            at(A::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
            at(A::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)?,
        ),
        attributes,
    })
}

/// (free, total) bytes of device memory, as the driver sees them (CuPy's `Device.mem_info`).
pub fn mem_info(ordinal: usize) -> Result<(usize, usize)> {
    crate::CudaDevice::new(ordinal)?;
    get(ordinal)?.ctx.mem_get_info().map_err(driver_err)
}
