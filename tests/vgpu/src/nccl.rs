//! NCCL's version query, so cudalearn's run-time probe for libnccl (`src/dist/nccl.rs`) finds
//! a library under the virtual driver. Nothing else of NCCL is here: cudalearn's "nccl" groups
//! move CUDA tensors through host memory over its TCP ring, and do not call NCCL's
//! communicators or collectives (those remain unverified without a card).
//! `VGPU_NCCL=broken` makes the query fail, as a damaged installation would.

/// NCCL 2.27.3, encoded as NCCL encodes versions since 2.9 (major×10000 + minor×100 + patch).
const VERSION: i32 = 22703;
/// `ncclSystemError`.
const SYSTEM_ERROR: i32 = 2;

#[no_mangle]
pub unsafe extern "C" fn ncclGetVersion(version: *mut i32) -> i32 {
    if std::env::var("VGPU_NCCL").is_ok_and(|v| v == "broken") || version.is_null() {
        return SYSTEM_ERROR;
    }
    *version = VERSION;
    0
}
