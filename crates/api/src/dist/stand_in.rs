//! In a build without the CUDA backend no communicator can be made: this uninhabited stand-in
//! for NCCL's communicator lets the front end be written once.
use crate::backend::CudaStorage;
use std::ffi::c_int;
use std::time::Duration;
use xp_core::Result;

/// No value exists.
pub(crate) enum Nccl {}

#[allow(clippy::too_many_arguments)]
impl Nccl {
    pub(crate) fn rank(&self) -> usize {
        match *self {}
    }
    pub(crate) fn size(&self) -> usize {
        match *self {}
    }
    pub(crate) fn all_reduce(&self, _: &CudaStorage, _: &CudaStorage, _: usize, _: c_int, _: c_int) -> Result<()> {
        match *self {}
    }
    pub(crate) fn broadcast(&self, _: &CudaStorage, _: &CudaStorage, _: usize, _: c_int, _: usize) -> Result<()> {
        match *self {}
    }
    pub(crate) fn reduce(
        &self,
        _: &CudaStorage,
        _: &CudaStorage,
        _: usize,
        _: c_int,
        _: c_int,
        _: usize,
    ) -> Result<()> {
        match *self {}
    }
    pub(crate) fn all_gather(&self, _: &CudaStorage, _: &CudaStorage, _: usize, _: c_int) -> Result<()> {
        match *self {}
    }
    pub(crate) fn reduce_scatter(&self, _: &CudaStorage, _: &CudaStorage, _: usize, _: c_int, _: c_int) -> Result<()> {
        match *self {}
    }
    pub(crate) fn send(&self, _: &CudaStorage, _: usize, _: usize, _: c_int, _: usize) -> Result<()> {
        match *self {}
    }
    pub(crate) fn recv(&self, _: &CudaStorage, _: usize, _: usize, _: c_int, _: usize) -> Result<()> {
        match *self {}
    }
    pub(crate) fn wait(&self, _: Duration) -> Result<()> {
        match *self {}
    }
    pub(crate) fn abort(&self) {
        match *self {}
    }
    pub(crate) fn split(&self, _: Option<u32>, _: usize) -> Result<Option<Nccl>> {
        match *self {}
    }
}
