//! Typed launchers, one per kernel family of `kernels/*.cu`: each takes exactly the kernel's
//! parameters, in its order and with its C types, so the argument list of a launch cannot drift
//! from the kernel's signature; the one `unsafe` call in each says why it is sound.
//!
//! Device addresses are `u64` (the storage's block address, plus the element offset where a
//! kernel takes no `Layout`). Every caller derives them from live, device-resident storages
//! (`backend::resident` checks that every operand is on the card) and builds each `Layout`
//! with `layouts`, from the tensor's own shape, strides and offset, so the elements a kernel
//! reads or writes through a (pointer, layout) pair are the tensor's own elements.
use super::launch::{Kernels, Layout};
use cudarc::driver::LaunchConfig;
use std::ffi::c_void;

/// CUDA's argument convention: a pointer to each argument.
fn arg<T>(x: &T) -> *mut c_void {
    x as *const T as *mut c_void
}

/// Operands of an elementwise kernel: a device address and its layout.
pub type Operand<'a> = (u64, &'a Layout);

impl Kernels {
    /// `copy_<size>` / `cast_<src>_<dst>(i64 n, const S* src, Layout ls, D* dst, Layout ld)`.
    pub fn copy(
        &self,
        name: &str,
        cfg: LaunchConfig,
        n: i64,
        src: Operand,
        dst: Operand,
    ) -> Result<(), String> {
        let mut p = [arg(&n), arg(&src.0), arg(src.1), arg(&dst.0), arg(dst.1)];
        // SAFETY: five arguments of the kernel's types in its order (i64, pointer, Layout,
        // pointer, Layout); the n elements at each (pointer, layout) belong to the operand's
        // live device storage (module docs), and the `name` picks the kernel of the operands'
        // element types (the caller's `size_suffix`/`cast_name`).
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `fill_<T>(i64 n, T* out, Layout lo, double v)`.
    pub fn fill(
        &self,
        name: &str,
        cfg: LaunchConfig,
        n: i64,
        out: Operand,
        v: f64,
    ) -> Result<(), String> {
        let mut p = [arg(&n), arg(&out.0), arg(out.1), arg(&v)];
        // SAFETY: the kernel's four parameters in order and type; it writes the n elements of
        // the destination's layout, all inside its live storage (module docs).
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `unary_<T>(int op, i64 n, const T* a, Layout la, T* out, Layout lo)`.
    pub fn unary(
        &self,
        name: &str,
        cfg: LaunchConfig,
        op: i32,
        n: i64,
        a: Operand,
        out: Operand,
    ) -> Result<(), String> {
        let mut p = [
            arg(&op),
            arg(&n),
            arg(&a.0),
            arg(a.1),
            arg(&out.0),
            arg(out.1),
        ];
        // SAFETY: the kernel's six parameters in order and type; it reads n elements of `a` and
        // writes n of `out` through their layouts, inside their live storages (module docs);
        // `op` is a code of `codes.rs`, which the kernel's switch covers.
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `binary_<T>` / `compare_<T>(int op, i64 n, const T* a, Layout la, const T* b,
    /// Layout lb, O* out, Layout lo)`; `out` may be `a` itself (in place).
    #[allow(clippy::too_many_arguments)]
    pub fn binary(
        &self,
        name: &str,
        cfg: LaunchConfig,
        op: i32,
        n: i64,
        a: Operand,
        b: Operand,
        out: Operand,
    ) -> Result<(), String> {
        let mut p = [
            arg(&op),
            arg(&n),
            arg(&a.0),
            arg(a.1),
            arg(&b.0),
            arg(b.1),
            arg(&out.0),
            arg(out.1),
        ];
        // SAFETY: the kernel's eight parameters in order and type; each element of `out` is
        // computed from the elements of `a` and `b` at the same index only, so writing into
        // `a` in place is sound; all accesses stay in live storages (module docs).
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `binary_scalar_<T>` / `compare_scalar_<T>(int op, i64 n, const T* a, Layout la,
    /// double s, int rev, O* out, Layout lo)`.
    #[allow(clippy::too_many_arguments)]
    pub fn binary_scalar(
        &self,
        name: &str,
        cfg: LaunchConfig,
        op: i32,
        n: i64,
        a: Operand,
        s: f64,
        rev: i32,
        out: Operand,
    ) -> Result<(), String> {
        let mut p = [
            arg(&op),
            arg(&n),
            arg(&a.0),
            arg(a.1),
            arg(&s),
            arg(&rev),
            arg(&out.0),
            arg(out.1),
        ];
        // SAFETY: the kernel's eight parameters in order and type; element i of `out` depends
        // on element i of `a` only (so `out` may be `a`); accesses stay in live storages.
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `where_<T>(i64 n, const bool* c, Layout lc, const T* a, Layout la, const T* b,
    /// Layout lb, T* out, Layout lo)`.
    #[allow(clippy::too_many_arguments)]
    pub fn where_(
        &self,
        name: &str,
        cfg: LaunchConfig,
        n: i64,
        c: Operand,
        a: Operand,
        b: Operand,
        out: Operand,
    ) -> Result<(), String> {
        let mut p = [
            arg(&n),
            arg(&c.0),
            arg(c.1),
            arg(&a.0),
            arg(a.1),
            arg(&b.0),
            arg(b.1),
            arg(&out.0),
            arg(out.1),
        ];
        // SAFETY: the kernel's nine parameters in order and type (`c` is a bool tensor, the
        // caller's `typed` check); accesses stay in the operands' live storages.
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `reduce_rows_<T>(int op, i64 rows, i64 cols, const T* x, T* out)` over a contiguous
    /// `[rows, cols]` `x` into `rows` outputs.
    #[allow(clippy::too_many_arguments)]
    pub fn reduce_rows(
        &self,
        name: &str,
        cfg: LaunchConfig,
        op: i32,
        rows: i64,
        cols: i64,
        x: u64,
        out: u64,
    ) -> Result<(), String> {
        let mut p = [arg(&op), arg(&rows), arg(&cols), arg(&x), arg(&out)];
        // SAFETY: the kernel's five parameters in order and type; `x` addresses the first of
        // rows * cols contiguous elements and `out` a new block of `rows` (both made by the
        // caller for this launch).
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// The partial-result reductions, `reduce_chunks_<T>` and `reduce_cols_<T>`, both
    /// `(int op, i64 rows, i64 cols, i64 k, const T* x, ACC* partial)`: `k` is the chunks each
    /// row is cut into (`partial`: rows * chunks) or the rows each slice walks (`partial`:
    /// ceil(rows / k) * cols, the grid's y).
    #[allow(clippy::too_many_arguments)]
    pub fn reduce_partial(
        &self,
        name: &str,
        cfg: LaunchConfig,
        op: i32,
        (rows, cols, k): (i64, i64, i64),
        x: u64,
        partial: u64,
    ) -> Result<(), String> {
        let mut p = [
            arg(&op),
            arg(&rows),
            arg(&cols),
            arg(&k),
            arg(&x),
            arg(&partial),
        ];
        // SAFETY: the kernel's six parameters in order and type; `x` holds rows * cols
        // contiguous elements and `partial` the results of the accumulation type described
        // above (a block the caller made for this launch).
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `arg_rows_<T>(int max, i64 rows, i64 cols, const T* x, T* vals, i64* idx)`.
    #[allow(clippy::too_many_arguments)]
    pub fn arg_rows(
        &self,
        name: &str,
        cfg: LaunchConfig,
        max: i32,
        rows: i64,
        cols: i64,
        x: u64,
        (vals, idx): (u64, u64),
    ) -> Result<(), String> {
        let mut p = [
            arg(&max),
            arg(&rows),
            arg(&cols),
            arg(&x),
            arg(&vals),
            arg(&idx),
        ];
        // SAFETY: the kernel's six parameters in order and type; `x` holds rows * cols
        // contiguous elements, `vals` and `idx` are new blocks of `rows` elements each.
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `softmax_<T>(i64 rows, i64 cols, const T* x, T* out, int log_)`.
    #[allow(clippy::too_many_arguments)]
    pub fn softmax(
        &self,
        name: &str,
        cfg: LaunchConfig,
        rows: i64,
        cols: i64,
        x: u64,
        out: u64,
        log: i32,
    ) -> Result<(), String> {
        let mut p = [arg(&rows), arg(&cols), arg(&x), arg(&out), arg(&log)];
        // SAFETY: the kernel's five parameters in order and type; `x` and `out` each hold
        // rows * cols contiguous elements (`out` a new block made for this launch).
        unsafe { self.launch(name, cfg, &mut p) }
    }

    /// `gather_<size>(i64 nbases, const i64* bases, Layout sub, i64 subn, const T* data,
    /// T* out)`, and `scatter_<size>` with the same parameters (`data` written from `out`).
    #[allow(clippy::too_many_arguments)]
    pub fn index(
        &self,
        name: &str,
        cfg: LaunchConfig,
        nbases: i64,
        bases: u64,
        sub: &Layout,
        subn: i64,
        data: u64,
        other: u64,
    ) -> Result<(), String> {
        let mut p = [
            arg(&nbases),
            arg(&bases),
            arg(sub),
            arg(&subn),
            arg(&data),
            arg(&other),
        ];
        // SAFETY: the kernel's six parameters in order and type; `bases` is an int64 device
        // block of `nbases` offsets, each checked by the indexing code to keep the sub-tensor
        // `sub` inside `data`'s storage, and `other` holds nbases * subn contiguous elements.
        unsafe { self.launch(name, cfg, &mut p) }
    }
    /// `sgd_<T>(i64 n, T* p, const T* g, T* buf, SgdArgs a)`; `buf` is 0 without momentum.
    pub fn sgd(
        &self,
        name: &str,
        cfg: LaunchConfig,
        n: i64,
        (p, g, buf): (u64, u64, u64),
        a: &super::optim::SgdArgs,
    ) -> Result<(), String> {
        let mut ps = [arg(&n), arg(&p), arg(&g), arg(&buf), arg(a)];
        // SAFETY: the kernel's five parameters in order and type (`SgdArgs` is `repr(C)`, the
        // struct of optim.cu); `p`, `g` and `buf` (when not 0, which the kernel tests) each
        // address n contiguous elements of the kernel's type in distinct live storages
        // (`optim::fused_ok`), and element i of each is touched only by the thread for i.
        unsafe { self.launch(name, cfg, &mut ps) }
    }

    /// `adam_<T>(i64 n, T* p, const T* g, T* m, T* v, T* vmax, AdamArgs a)`; `vmax` is 0
    /// without AMSGrad.
    pub fn adam(
        &self,
        name: &str,
        cfg: LaunchConfig,
        n: i64,
        (p, g, m, v, vmax): (u64, u64, u64, u64, u64),
        a: &super::optim::AdamArgs,
    ) -> Result<(), String> {
        let mut ps = [
            arg(&n),
            arg(&p),
            arg(&g),
            arg(&m),
            arg(&v),
            arg(&vmax),
            arg(a),
        ];
        // SAFETY: the kernel's seven parameters in order and type (`AdamArgs` is `repr(C)`,
        // the struct of optim.cu); every non-zero pointer addresses n contiguous elements of
        // the kernel's type in distinct live storages (`optim::fused_ok`), and element i of
        // each is touched only by the thread for i.
        unsafe { self.launch(name, cfg, &mut ps) }
    }

    /// `unscale_<T>(i64 n, T* g, double inv_scale, int* found)`.
    pub fn unscale(
        &self,
        name: &str,
        cfg: LaunchConfig,
        n: i64,
        (g, found): (u64, u64),
        inv_scale: f64,
    ) -> Result<(), String> {
        let mut ps = [arg(&n), arg(&g), arg(&inv_scale), arg(&found)];
        // SAFETY: the kernel's four parameters in order and type; `g` addresses a dense run of
        // n elements of the kernel's type in a live storage and `found` one int of another
        // (`optim::unscale`); each thread writes only its own elements of `g`, and every
        // thread that writes `found` writes the same 1.
        unsafe { self.launch(name, cfg, &mut ps) }
    }
}
