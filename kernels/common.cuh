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

// The storage offset of the i-th element (row-major over `shape`) of a strided operand.
__device__ __forceinline__ i64 strided_offset(const Layout& l, i64 i) {
    if (l.ndim == 0) return l.offset;
    if (l.ndim == 1) return l.offset + i * l.strides[0];
    i64 off = l.offset;
    if (i <= 0x7fffffffLL) {
        // 32-bit division costs a fraction of the 64-bit one (emulated on a GPU). A dim of
        // 2^32 or more is clamped, which changes nothing: it is above j, like the true size.
        unsigned int j = (unsigned int)i;
        for (int d = l.ndim - 1; d >= 0; --d) {
            unsigned int n = l.shape[d] > 0xffffffffLL ? 0xffffffffu : (unsigned int)l.shape[d];
            off += (i64)(j % n) * l.strides[d];
            j /= n;
        }
        return off;
    }
    for (int d = l.ndim - 1; d >= 0; --d) {
        i64 n = l.shape[d];
        i64 idx = i % n;
        i /= n;
        off += idx * l.strides[d];
    }
    return off;
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
