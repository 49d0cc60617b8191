//! `Layout`: how a tensor's elements sit in its storage — shape, strides (in elements) and the
//! offset of element 0. Views share a storage and differ only in their layouts, so a layout is
//! all a backend needs besides the storage to read or write a tensor.
use super::shape::{contiguous_strides, is_contiguous, numel, Dims};

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    shape: Dims,
    strides: Dims,
    offset: usize,
}

impl Layout {
    /// A layout the caller has checked stays inside its storage.
    #[inline]
    pub fn new(shape: Dims, strides: Dims, offset: usize) -> Layout {
        Layout {
            shape,
            strides,
            offset,
        }
    }
    /// Row-major from offset 0: what a fresh dense result has.
    #[inline(always)]
    pub fn contiguous(shape: &[usize]) -> Layout {
        Layout::new(Dims::from_slice(shape), contiguous_strides(shape), 0)
    }
    #[inline]
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    #[inline]
    pub fn dims(&self) -> &Dims {
        &self.shape
    }
    #[inline]
    pub fn strides(&self) -> &[usize] {
        &self.strides
    }
    #[inline]
    pub fn stride_dims(&self) -> &Dims {
        &self.strides
    }
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }
    #[inline]
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    #[inline]
    pub fn numel(&self) -> usize {
        numel(&self.shape)
    }
    #[inline]
    pub fn is_contiguous(&self) -> bool {
        is_contiguous(&self.shape, &self.strides)
    }
}
