// Fused optimizer steps (torch.optim.SGD, Adam, AdamW) on device memory: one pass per
// parameter, updating it and its state in place. The arithmetic is the CPU kernel's
// (src/backend/cpu/optim.rs), which is PyTorch's _single_tensor_sgd / _single_tensor_adam op
// for op, so a CUDA step gives the CPU's bits:
// - every add, sub, mul, div and sqrt is an explicitly rounded intrinsic (__fadd_rn, ...),
//   which the compiler never contracts into an FMA whatever -fmad says (NVRTC's default
//   contracts `a * b + c`; the CPU kernel never does);
// - the CPU kernel's fused multiply-adds (add with alpha, lerp, addcmul) are explicit fma();
// - the hyperparameters arrive already rounded to the parameter's type where PyTorch rounds
//   them (the host computes the bias corrections in double, as Python does).
// Parameters and state are contiguous and unshared (the caller checks), one thread per element.

// Correctly rounded arithmetic in the parameter's type, never fused.
template <typename T>
struct Rn;
template <>
struct Rn<float> {
    static __device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
    static __device__ __forceinline__ float sub(float a, float b) { return __fsub_rn(a, b); }
    static __device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
    static __device__ __forceinline__ float div(float a, float b) { return __fdiv_rn(a, b); }
    static __device__ __forceinline__ float sqrt(float a) { return __fsqrt_rn(a); }
    static __device__ __forceinline__ float fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
};
template <>
struct Rn<double> {
    static __device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
    static __device__ __forceinline__ double sub(double a, double b) { return __dsub_rn(a, b); }
    static __device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
    static __device__ __forceinline__ double div(double a, double b) { return __ddiv_rn(a, b); }
    static __device__ __forceinline__ double sqrt(double a) { return __dsqrt_rn(a); }
    static __device__ __forceinline__ double fma(double a, double b, double c) { return __fma_rn(a, b, c); }
};

// SGD's hyperparameters (struct SgdArgs of src/backend/cuda/optim.rs). Each double is rounded
// to the parameter's type in the kernel, as the CPU kernel's `T::of` rounds it.
struct SgdArgs {
    double neg_lr;               // -lr
    double weight_decay;
    double momentum;
    double one_minus_dampening;  // 1 - dampening, computed in double
    int maximize;
    int nesterov;
    int decay;                   // weight_decay != 0
    int fresh;                   // the momentum buffer's first step: it becomes the gradient
};

// One SGD step of element i; `buf` is null without momentum.
template <typename T>
__device__ __forceinline__ void sgd_one(i64 i, T* p, const T* g, T* buf, const SgdArgs& a) {
    typedef Rn<T> R;
    T gi = a.maximize ? -g[i] : g[i];
    T pi = p[i];
    if (a.decay) gi = R::fma(pi, (T)a.weight_decay, gi);  // grad.add(param, alpha=wd)
    if (buf) {
        T m = (T)a.momentum;
        // buf.mul_(momentum).add_(grad, alpha=1 - dampening)
        T b = a.fresh ? gi : R::fma(gi, (T)a.one_minus_dampening, R::mul(buf[i], m));
        buf[i] = b;
        gi = a.nesterov ? R::fma(b, m, gi) : b;  // grad.add(buf, alpha=momentum)
    }
    p[i] = R::fma(gi, (T)a.neg_lr, pi);  // param.add_(grad, alpha=-lr)
}

#define DEFINE_SGD(NAME, T)                                                                 \
    extern "C" __global__ void sgd_##NAME(i64 n, T* p, const T* g, T* buf, SgdArgs a) {     \
        GRID_STRIDE(i, n) sgd_one<T>(i, p, g, buf, a);                                      \
    }

// Adam's per-step constants (struct AdamArgs of src/backend/cuda/optim.rs): each already a
// value of the parameter's type, as the CPU kernel's `AdamConsts` holds them.
struct AdamArgs {
    double w;              // 1 - beta1
    double b2;             // beta2
    double one_minus_b2;   // 1 - beta2
    double neg_step_size;  // -(lr / bias_correction1)
    double bc2_sqrt;       // sqrt(bias_correction2)
    double eps;
    double decay;          // AdamW: 1 - lr * weight_decay; Adam: weight_decay
    int small;             // |w| < 0.5: which end the vectorised lerp starts from
    int maximize;
    int has_decay;         // weight_decay != 0
    int decoupled;         // AdamW
};

// One Adam/AdamW step of element i; `vmax` (AMSGrad's running maximum) may be null.
template <typename T>
__device__ __forceinline__ void adam_one(i64 i, T* p, const T* g, T* m, T* v, T* vmax,
                                         const AdamArgs& a) {
    typedef Rn<T> R;
    T gi = a.maximize ? -g[i] : g[i];
    T pi = p[i];
    if (a.has_decay) {
        if (a.decoupled) pi = R::mul(pi, (T)a.decay);  // param.mul_(1 - lr * wd)
        else gi = R::fma(pi, (T)a.decay, gi);          // grad.add(param, alpha=wd)
    }
    // exp_avg.lerp_(grad, 1 - beta1): fmadd(coeff, end - start, base), as the CPU's lerp
    T w = (T)a.w, mi = m[i];
    T coeff = a.small ? w : R::sub(w, (T)1);
    T base = a.small ? mi : gi;
    mi = R::fma(coeff, R::sub(gi, mi), base);
    m[i] = mi;
    // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    T vi = R::fma(R::mul((T)a.one_minus_b2, gi), gi, R::mul(v[i], (T)a.b2));
    v[i] = vi;
    T d = vi;
    if (vmax) {
        T x = vmax[i];
        if (vi > x || vi != vi) x = vi;  // torch.maximum: NaN propagates
        vmax[i] = x;
        d = x;
    }
    // param.addcdiv_(exp_avg, denom, value=-step_size), denom = sqrt(v) / bc2_sqrt + eps
    T denom = R::add(R::div(R::sqrt(d), (T)a.bc2_sqrt), (T)a.eps);
    p[i] = R::add(pi, R::div(R::mul((T)a.neg_step_size, mi), denom));
}

#define DEFINE_ADAM(NAME, T)                                                                \
    extern "C" __global__ void adam_##NAME(i64 n, T* p, const T* g, T* m, T* v, T* vmax,    \
                                           AdamArgs a) {                                    \
        GRID_STRIDE(i, n) adam_one<T>(i, p, g, m, v, vmax, a);                              \
    }

DEFINE_SGD(f32, float)
DEFINE_SGD(f64, double)
DEFINE_ADAM(f32, float)
DEFINE_ADAM(f64, double)

// GradScaler's unscale (torch._amp_foreach_non_finite_check_and_unscale_): each gradient
// element is multiplied by inv_scale (stored even when it is inf or NaN, as ATen's kernel
// does) and *found becomes 1 when any element was inf or NaN. Exponent bits are tested, so no
// math header is needed.
__device__ __forceinline__ bool non_finite(float x) {
    return (__float_as_uint(x) & 0x7f800000u) == 0x7f800000u;
}
__device__ __forceinline__ bool non_finite(double x) {
    return (__double_as_longlong(x) & 0x7ff0000000000000LL) == 0x7ff0000000000000LL;
}

#define DEFINE_UNSCALE(NAME, T)                                                             \
    extern "C" __global__ void unscale_##NAME(i64 n, T* g, double inv_scale, int* found) { \
        GRID_STRIDE(i, n) {                                                                 \
            T x = g[i];                                                                     \
            if (non_finite(x)) *found = 1;                                                  \
            g[i] = Rn<T>::mul(x, (T)inv_scale);                                             \
        }                                                                                   \
    }

DEFINE_UNSCALE(f32, float)
DEFINE_UNSCALE(f64, double)
