//! The C entry points: a C or C++ library hands xp a DLPack tensor and gets an opaque array
//! back, or asks for an array as a DLPack tensor. Errors return null; `xp_last_error` says why.
//!
//! ```c
//! typedef struct XpArray XpArray;
//! XpArray* xp_dlpack_import(DLManagedTensorVersioned* t);   /* takes t (its deleter runs, also on error) */
//! DLManagedTensorVersioned* xp_dlpack_export(const XpArray* a); /* the caller calls its deleter */
//! void xp_array_free(XpArray* a);
//! const char* xp_last_error(void);                           /* this thread's last error, or NULL */
//! ```
use super::{Dlpack, ToDlpack};
use crate::Array;
use dlpark::ffi::DLManagedTensorVersioned;
use std::cell::RefCell;
use std::ffi::{c_char, CString};

/// An xp array held by C code (opaque there).
pub struct XpArray(pub Array);

thread_local! {
    static LAST: RefCell<Option<CString>> = const { RefCell::new(None) };
}

fn fail<T>(e: impl std::fmt::Display) -> *mut T {
    let msg = CString::new(e.to_string().replace('\0', " ")).unwrap_or_default();
    LAST.with(|l| *l.borrow_mut() = Some(msg));
    std::ptr::null_mut()
}

/// The array `t` describes (see [`Array::from_dlpack`]), or null with the reason in
/// [`xp_last_error`]. The tensor is taken either way.
///
/// # Safety
/// `t` is null or a live versioned DLPack tensor that the caller gives up.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn xp_dlpack_import(t: *mut DLManagedTensorVersioned) -> *mut XpArray {
    // SAFETY: as the caller vouches.
    match unsafe { Dlpack::from_raw(t) }.and_then(Array::from_dlpack) {
        Ok(a) => Box::into_raw(Box::new(XpArray(a))),
        Err(e) => fail(e),
    }
}

/// `a` as a versioned DLPack tensor (see [`Array::to_dlpack`]; on a GPU the host waits for xp's
/// work on it), or null with the reason in [`xp_last_error`].
///
/// # Safety
/// `a` is null or an array from [`xp_dlpack_import`] not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn xp_dlpack_export(a: *const XpArray) -> *mut DLManagedTensorVersioned {
    // SAFETY: as the caller vouches.
    let Some(a) = (unsafe { a.as_ref() }) else { return fail("a null array") };
    match a.0.to_dlpack(&ToDlpack::default()).and_then(Dlpack::into_raw) {
        Ok(t) => t,
        Err(e) => fail(e),
    }
}

/// Frees an array from [`xp_dlpack_import`] (null is ignored).
///
/// # Safety
/// `a` is null or an array from [`xp_dlpack_import`] not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn xp_array_free(a: *mut XpArray) {
    if !a.is_null() {
        // SAFETY: made by `Box::into_raw` in `xp_dlpack_import`, freed once.
        drop(unsafe { Box::from_raw(a) });
    }
}

/// This thread's last error of the C entry points, or null (valid until the next failing call
/// on this thread).
#[unsafe(no_mangle)]
pub extern "C" fn xp_last_error() -> *const c_char {
    LAST.with(|l| l.borrow().as_ref().map_or(std::ptr::null(), |s| s.as_ptr()))
}
