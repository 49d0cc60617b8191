//! The optimizer updates of `torch.optim` as fused in-place kernels over host slices: one pass
//! per step instead of one per op, with the arithmetic of PyTorch's `_single_tensor_sgd` /
//! `_single_tensor_adam` op for op: the same order, the same rounding to the parameter's
//! dtype after every op, and FMA where PyTorch's vectorised CPU kernels use `fmadd` (add with
//! alpha, lerp), so trained weights match PyTorch's bit for bit.
use super::iter::PAR_THRESHOLD;
use super::team;
use crate::backend::storage::Arith;
use std::sync::Mutex;

/// The float types updates run in: the engine's arithmetic (`Arith`), plus a conversion from
/// the f64 hyperparameters and the fused multiply-add PyTorch's vectorised kernels use.
pub trait Fl: Arith {
    fn of(x: f64) -> Self;
    fn fma(self, b: Self, c: Self) -> Self;
}

macro_rules! fl {
    ($t:ty) => {
        impl Fl for $t {
            #[inline(always)]
            fn of(x: f64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn fma(self, b: Self, c: Self) -> Self {
                self.mul_add(b, c)
            }
        }
    };
}
fl!(f32);
fl!(f64);

/// SGD's hyperparameters.
#[derive(Clone, Copy, Debug)]
pub struct Sgd {
    pub lr: f64,
    pub momentum: f64,
    pub dampening: f64,
    pub weight_decay: f64,
    pub nesterov: bool,
    pub maximize: bool,
}

/// Adam's and AdamW's hyperparameters, with the step's bias corrections worked out.
#[derive(Clone, Copy, Debug)]
pub struct Adam {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    pub weight_decay: f64,
    pub maximize: bool,
    /// AdamW: weight decay applied to the parameter, not added to the gradient.
    pub decoupled: bool,
    /// The step number (1 on the first step).
    pub step: f64,
}

/// One SGD step of one element: `p` and the momentum buffer `buf` (`None` without momentum;
/// `fresh` when this is the buffer's first step, i.e. it is set to the gradient).
#[inline(always)]
fn sgd_one<T: Fl>(h: &Sgd, p: &mut T, g: T, buf: Option<&mut T>, fresh: bool) {
    let mut g = if h.maximize { g.neg() } else { g };
    if h.weight_decay != 0.0 {
        // grad.add(param, alpha=weight_decay)
        g = p.fma(T::of(h.weight_decay), g);
    }
    if let Some(b) = buf {
        let m = T::of(h.momentum);
        *b = if fresh {
            g
        } else {
            // buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            g.fma(T::of(1.0 - h.dampening), b.mul(m))
        };
        g = if h.nesterov {
            // grad.add(buf, alpha=momentum)
            b.fma(m, g)
        } else {
            *b
        };
    }
    // param.add_(grad, alpha=-lr)
    *p = g.fma(T::of(-h.lr), *p);
}

/// Adam's per-step constants, in the parameter's type as PyTorch rounds them.
pub(crate) struct AdamConsts<T> {
    pub(crate) w: T,
    pub(crate) small: bool,
    pub(crate) b2: T,
    pub(crate) one_minus_b2: T,
    pub(crate) neg_step_size: T,
    pub(crate) bc2_sqrt: T,
    pub(crate) eps: T,
    pub(crate) decay: T,
}

impl<T: Fl> AdamConsts<T> {
    pub(crate) fn new(h: &Adam) -> Self {
        let w = T::of(1.0 - h.beta1);
        let bias_correction1 = 1.0 - h.beta1.powf(h.step);
        let bias_correction2 = 1.0 - h.beta2.powf(h.step);
        AdamConsts {
            w,
            small: w.abs() < T::of(0.5),
            b2: T::of(h.beta2),
            one_minus_b2: T::of(1.0 - h.beta2),
            neg_step_size: T::of(-(h.lr / bias_correction1)),
            bc2_sqrt: T::of(bias_correction2.powf(0.5)),
            eps: T::of(h.eps),
            decay: if h.decoupled {
                T::of(1.0 - h.lr * h.weight_decay)
            } else {
                T::of(h.weight_decay)
            },
        }
    }
}

/// One Adam step of one element (`vmax`: AMSGrad's running maximum).
#[inline(always)]
fn adam_one<T: Fl>(
    h: &Adam,
    c: &AdamConsts<T>,
    p: &mut T,
    g: T,
    m: &mut T,
    v: &mut T,
    vmax: Option<&mut T>,
) {
    let mut g = if h.maximize { g.neg() } else { g };
    if h.weight_decay != 0.0 {
        if h.decoupled {
            // param.mul_(1 - lr * weight_decay)
            *p = p.mul(c.decay);
        } else {
            // grad = grad.add(param, alpha=weight_decay)
            g = p.fma(c.decay, g);
        }
    }
    // exp_avg.lerp_(grad, 1 - beta1): the vectorised lerp, fmadd(coeff, end - start, base)
    let (coeff, base) = if c.small {
        (c.w, *m)
    } else {
        (c.w.sub(T::of(1.0)), g)
    };
    *m = coeff.fma(g.sub(*m), base);
    // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    *v = c.one_minus_b2.mul(g).fma(g, v.mul(c.b2));
    let d = match vmax {
        Some(x) => {
            if *v > *x || v.is_nan() {
                *x = *v;
            }
            *x
        }
        None => *v,
    };
    // param.addcdiv_(exp_avg, denom, value=-step_size), denom = sqrt(v) / bc2_sqrt + eps
    let denom = d.sqrt().div(c.bc2_sqrt).add(c.eps);
    *p = p.add(c.neg_step_size.mul(*m).div(denom));
}

/// Runs `body(start, pieces)` over equal pieces of every slice in `slices` (all of one
/// length; `start` is the pieces' first index), on the team when there is enough work.
fn split_run<T: Send>(slices: Vec<&mut [T]>, body: &(dyn Fn(usize, &mut [&mut [T]]) + Sync)) {
    let n = slices.first().map_or(0, |s| s.len());
    let parts = team::parts_for(n, PAR_THRESHOLD / 4);
    let per = n.div_ceil(parts.max(1)).max(1);
    let k = slices.len();
    let mut columns: Vec<std::slice::ChunksMut<'_, T>> =
        slices.into_iter().map(|s| s.chunks_mut(per)).collect();
    let mut pieces = Vec::new();
    while let Some(first) = columns[0].next() {
        let mut piece = Vec::with_capacity(k);
        piece.push(first);
        for c in columns[1..].iter_mut() {
            piece.extend(c.next());
        }
        pieces.push(Mutex::new(Some(piece)));
    }
    team::run(pieces.len(), &|i| {
        if let Some(mut piece) = pieces[i].lock().ok().and_then(|mut g| g.take()) {
            body(i * per, &mut piece);
        }
    });
}

/// Builds the function `$name(args)` twice, the body `$body` for the baseline CPU and for
/// AVX2+FMA chosen at run time: `mul_add` is then one instruction, not a libm call, and the
/// loops vectorise (the bits are the same: a fused multiply-add rounds once either way, and
/// LLVM forms no FMA of its own).
macro_rules! fma_build {
    (fn $name:ident<$T:ident>($($a:ident: $t:ty),*) $body:block) => {
        fn $name<$T: Fl>($($a: $t),*) {
            #[inline(always)]
            fn body<$T: Fl>($($a: $t),*) $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2,fma")]
                fn fast<$T: Fl>($($a: $t),*) {
                    body($($a),*)
                }
                if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                    // SAFETY: the CPU has AVX2 and FMA (detected just above), the only
                    // requirement of a `target_feature` function.
                    unsafe { fast($($a),*) };
                    return;
                }
            }
            body($($a),*)
        }
    };
}

fma_build! {
    fn sgd_piece<T>(h: &Sgd, p: &mut [T], g: &[T], buf: Option<&mut [T]>, fresh: bool) {
        match buf {
            Some(b) => {
                for ((p, &g), b) in p.iter_mut().zip(g).zip(b.iter_mut()) {
                    sgd_one(h, p, g, Some(b), fresh);
                }
            }
            None => {
                for (p, &g) in p.iter_mut().zip(g) {
                    sgd_one(h, p, g, None, fresh);
                }
            }
        }
    }
}

/// `adam_one` without maximize, weight decay or AMSGrad (the default `Adam()`), its branches
/// taken out of the loop so that it vectorises: the same operations in the same order.
#[inline(always)]
fn adam_plain<T: Fl, const SMALL: bool>(
    c: &AdamConsts<T>,
    p: &mut [T],
    g: &[T],
    m: &mut [T],
    v: &mut [T],
) {
    let n = p.len().min(g.len()).min(m.len()).min(v.len());
    let (p, g, m, v) = (&mut p[..n], &g[..n], &mut m[..n], &mut v[..n]);
    for i in 0..n {
        let (gi, mi) = (g[i], m[i]);
        let (coeff, base) = if SMALL {
            (c.w, mi)
        } else {
            (c.w.sub(T::of(1.0)), gi)
        };
        let mi = coeff.fma(gi.sub(mi), base);
        m[i] = mi;
        let vi = c.one_minus_b2.mul(gi).fma(gi, v[i].mul(c.b2));
        v[i] = vi;
        let denom = vi.sqrt().div(c.bc2_sqrt).add(c.eps);
        p[i] = p[i].add(c.neg_step_size.mul(mi).div(denom));
    }
}

fma_build! {
    fn adam_piece<T>(
        h: &Adam,
        c: &AdamConsts<T>,
        p: &mut [T],
        g: &[T],
        m: &mut [T],
        v: &mut [T],
        vmax: Option<&mut [T]>
    ) {
        match vmax {
            Some(x) => {
                for i in 0..g.len() {
                    adam_one(h, c, &mut p[i], g[i], &mut m[i], &mut v[i], Some(&mut x[i]));
                }
            }
            None if !h.maximize && h.weight_decay == 0.0 => {
                if c.small {
                    adam_plain::<T, true>(c, p, g, m, v)
                } else {
                    adam_plain::<T, false>(c, p, g, m, v)
                }
            }
            None => {
                for i in 0..g.len() {
                    adam_one(h, c, &mut p[i], g[i], &mut m[i], &mut v[i], None);
                }
            }
        }
    }
}

/// SGD on slices of one length: `p` and `g`, and the momentum buffer when there is one
/// (`fresh`: its first step, when it is set to the gradient).
pub fn sgd<T: Fl>(h: &Sgd, p: &mut [T], g: &[T], buf: Option<&mut [T]>, fresh: bool) {
    let mut slices = vec![p];
    slices.extend(buf);
    split_run(slices, &|start, s| {
        let g = &g[start..start + s[0].len()];
        let (p, rest) = s.split_at_mut(1);
        sgd_piece(h, p[0], g, rest.first_mut().map(|b| &mut **b), fresh);
    });
}

/// Adam/AdamW on slices of one length: `p`, `m` (exp_avg), `v` (exp_avg_sq) and AMSGrad's
/// `vmax` when given, from the gradient `g`.
pub fn adam<T: Fl>(
    h: &Adam,
    p: &mut [T],
    g: &[T],
    m: &mut [T],
    v: &mut [T],
    vmax: Option<&mut [T]>,
) {
    let c = AdamConsts::<T>::new(h);
    let mut slices = vec![p, m, v];
    slices.extend(vmax);
    split_run(slices, &|start, s| {
        let g = &g[start..start + s[0].len()];
        let [p, m, v, rest @ ..] = s else { return };
        adam_piece(h, &c, p, g, m, v, rest.first_mut().map(|x| &mut **x));
    });
}
