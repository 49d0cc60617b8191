// Shared by every cudalearn kernel. Self-contained (no cuda_fp16.h): NVRTC compiles these
// without the CUDA toolkit's headers. Half and bfloat16 travel as raw 16-bit patterns and are
// converted with bit manipulation (bf16) or the cvt PTX instruction (f16).
typedef unsigned short f16_t;
typedef unsigned short bf16_t;
typedef long long i64;
typedef unsigned long long u64;

#define MAX_DIMS 8

// Shape and strides (in elements) of one operand over the output's shape (broadcast dims have
// stride 0), and its storage offset. The backend merges dims that are contiguous in every
// operand first, so a plain elementwise op arrives here with ndim == 1.
struct Layout {
    int ndim;
    i64 offset;
    i64 shape[MAX_DIMS];
    i64 strides[MAX_DIMS];
};

// The storage offsets of element i (row-major over the shape) of N operands laid over one
// shape: the host's `layouts` gives every operand of a kernel the same merged dims, so one
// division per dim serves them all. It divides in 32 bits below 2^31 elements (64-bit division
// is emulated on a GPU; a dim of 2^32 or more is clamped, which changes nothing: it is above j,
// like the true size). The loop is unrolled over MAX_DIMS so the layouts' arrays are read with
// constant indices from the kernel's parameters: indexing them with a run-time dim would copy
// each Layout to local memory in every thread.
template <int N>
struct Offsets {
    i64 at[N];
};

template <int N, typename I>
__device__ __forceinline__ void add_dim_offsets(const Layout* const (&ls)[N], I j, Offsets<N>& o) {
#pragma unroll
    for (int d = MAX_DIMS - 1; d >= 0; --d) {
        if (d < ls[0]->ndim) {
            i64 size = ls[0]->shape[d];
            I n = (sizeof(I) == 4 && size > 0xffffffffLL) ? (I)0xffffffffu : (I)size;
            I q = j / n;
            I r = j - q * n;
#pragma unroll
            for (int k = 0; k < N; ++k) o.at[k] += (i64)r * ls[k]->strides[d];
            j = q;
        }
    }
}

template <int N>
__device__ __forceinline__ Offsets<N> strided_offsets(const Layout* const (&ls)[N], i64 i) {
    Offsets<N> o;
#pragma unroll
    for (int k = 0; k < N; ++k) o.at[k] = ls[k]->offset;
    if (ls[0]->ndim == 1) {
#pragma unroll
        for (int k = 0; k < N; ++k) o.at[k] += i * ls[k]->strides[0];
    } else if (i <= 0x7fffffffLL) {
        add_dim_offsets<N, unsigned int>(ls, (unsigned int)i, o);
    } else {
        add_dim_offsets<N, i64>(ls, i, o);
    }
    return o;
}

__device__ __forceinline__ i64 strided_offset(const Layout& l, i64 i) {
    return strided_offsets<1>({&l}, i).at[0];
}

// (The CPU build of the kernels, tests/vgpu/src/shim.cpp, brings its own two.)
#ifndef CUDALEARN_CPU_EMULATION
__device__ __forceinline__ float f16_to_f32(f16_t h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
__device__ __forceinline__ f16_t f32_to_f16(float f) {
    f16_t h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
#endif
__device__ __forceinline__ float bf16_to_f32(bf16_t b) {
    return __uint_as_float(((unsigned int)b) << 16);
}
// Round to nearest even, NaN kept quiet (as PyTorch's c10::BFloat16 does).
__device__ __forceinline__ bf16_t f32_to_bf16(float f) {
    unsigned int u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (bf16_t)0x7fc0;
    unsigned int rounding = 0x7fffu + ((u >> 16) & 1u);
    return (bf16_t)((u + rounding) >> 16);
}

// Loading an element into the compute type and storing a result back.
#define LOAD_PLAIN(p, i) (p)[i]
#define STORE_PLAIN(v) (v)
#define LOAD_F16(p, i) f16_to_f32((p)[i])
#define STORE_F16(v) f32_to_f16(v)
#define LOAD_BF16(p, i) bf16_to_f32((p)[i])
#define STORE_BF16(v) f32_to_bf16(v)

// -infinity without math.h
#define NEG_INF (-__longlong_as_double(0x7ff0000000000000LL))

// Elementwise kernels over operands that are each one dense run (one dim of stride 1: the
// backend merges every dim a dense operand allows) take DENSE_LOOP: each thread handles UNROLL
// elements a block's width apart, so a warp's loads stay coalesced and each thread has UNROLL
// loads in flight before its first store (ATen's unrolled elementwise loop). The host launches
// 1/UNROLL of the blocks then (`launch::elementwise_grid`). LOADS reads element i into slot k
// of the thread's registers, STORES writes slot k to element i.
#define UNROLL 4
__device__ __forceinline__ bool dense_run(const Layout& l) {
    return l.ndim == 1 && l.strides[0] == 1;
}
#define DENSE_LOOP(n, LOADS, STORES)                                                         \
    for (i64 tile_ = (i64)blockIdx.x * blockDim.x * UNROLL; tile_ < (n);                     \
         tile_ += (i64)gridDim.x * blockDim.x * UNROLL) {                                    \
        _Pragma("unroll") for (int k = 0; k < UNROLL; ++k) {                                 \
            i64 i = tile_ + threadIdx.x + (i64)k * blockDim.x;                               \
            if (i < (n)) { LOADS; }                                                          \
        }                                                                                    \
        _Pragma("unroll") for (int k = 0; k < UNROLL; ++k) {                                 \
            i64 i = tile_ + threadIdx.x + (i64)k * blockDim.x;                               \
            if (i < (n)) { STORES; }                                                         \
        }                                                                                    \
    }

#define GRID_STRIDE(i, n) \
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)blockDim.x * gridDim.x)
