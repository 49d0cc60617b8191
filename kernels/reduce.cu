// Reductions over the last (contiguous) axis of a [rows, cols] tensor, one block of 256
// threads per row with a shared-memory tree; floating types accumulate in float (f16/bf16/f32)
// or double. The backend permutes the reduced dims last and makes the input contiguous first.
// Few long rows (x.sum() over 100M elements) would leave all but a few SMs idle, so they are
// reduced in two passes: `reduce_chunks_*` cuts each row into `chunks` pieces, one block each,
// writing partial results in the accumulation type; `reduce_rows_*` of that type finishes.
// Reductions over the leading axes of a contiguous tensor (a bias gradient's `g.sum(0)`) use
// `reduce_cols_*` instead, without the transposed copy: one thread per column walks down `len`
// rows of it, so neighbouring threads read neighbouring elements, and blockIdx.y picks which
// `len` rows; partial results per slice (in the accumulation type) are reduced again the same way.
#define RED_SUM 0
#define RED_PROD 1
#define RED_MAX 2
#define RED_MIN 3

template <typename A>
__device__ __forceinline__ A combine(int op, A a, A b) {
    switch (op) {
        case RED_SUM: return a + b;
        case RED_PROD: return a * b;
        // NaN propagates (a != a is true only for NaN)
        case RED_MAX: return (a != a || a > b) ? a : b;
        default: return (a != a || a < b) ? a : b;
    }
}

// Is (v, i) a better arg-max (or arg-min) than (b, bi)? NaN counts as the extreme, and ties go
// to the first index, as in PyTorch.
template <typename A>
__device__ __forceinline__ bool better(int max, A v, i64 i, A b, i64 bi) {
    bool vn = v != v, bn = b != b;
    if (vn || bn) return vn && (!bn || i < bi);
    if (v == b) return i < bi;
    return max ? v > b : v < b;
}

// The combined value of row[start, end) over one block of threads, in every thread (the caller
// must pass a barrier before `buf` is written again). `L` loads an element as `ACC`.
template <typename T, typename ACC, typename L>
__device__ __forceinline__ ACC block_reduce(int op, const T* row, i64 start, i64 end, ACC* buf) {
    L load;
    ACC acc = op == RED_SUM ? (ACC)0 : op == RED_PROD ? (ACC)1 : load(row, 0);
    for (i64 c = start + threadIdx.x; c < end; c += blockDim.x) acc = combine<ACC>(op, acc, load(row, c));
    buf[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] = combine<ACC>(op, buf[threadIdx.x], buf[threadIdx.x + s]);
        __syncthreads();
    }
    return buf[0];
}

#define DEFINE_REDUCE(NAME, T, ACC, LOAD, STORE)                                             \
    struct Load_##NAME {                                                                    \
        __device__ __forceinline__ ACC operator()(const T* p, i64 i) const { return LOAD(p, i); } \
    };                                                                                      \
    extern "C" __global__ void reduce_rows_##NAME(int op, i64 rows, i64 cols, const T* x,   \
                                                  T* out) {                                 \
        __shared__ ACC buf[256];                                                            \
        for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {                                \
            ACC v = block_reduce<T, ACC, Load_##NAME>(op, x + r * cols, 0, cols, buf);      \
            if (threadIdx.x == 0) out[r] = STORE(v);                                        \
            __syncthreads();                                                                \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void reduce_chunks_##NAME(int op, i64 rows, i64 cols, i64 chunks, \
                                                    const T* x, ACC* partial) {             \
        __shared__ ACC buf[256];                                                            \
        i64 len = (cols + chunks - 1) / chunks;                                             \
        for (i64 b = blockIdx.x; b < rows * chunks; b += gridDim.x) {                       \
            i64 start = (b % chunks) * len, end = start + len < cols ? start + len : cols;  \
            ACC v = block_reduce<T, ACC, Load_##NAME>(op, x + (b / chunks) * cols, start, end, buf); \
            if (threadIdx.x == 0) partial[b] = v;                                           \
            __syncthreads();                                                                \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void reduce_cols_##NAME(int op, i64 rows, i64 cols, i64 len,     \
                                                  const T* x, ACC* partial) {               \
        i64 start = blockIdx.y * len, end = start + len < rows ? start + len : rows;        \
        for (i64 c = blockIdx.x * (i64)blockDim.x + threadIdx.x; c < cols;                  \
             c += (i64)gridDim.x * blockDim.x) {                                            \
            ACC acc = op == RED_SUM ? (ACC)0 : op == RED_PROD ? (ACC)1 : LOAD(x, start * cols + c); \
            for (i64 r = start; r < end; ++r) acc = combine<ACC>(op, acc, LOAD(x, r * cols + c)); \
            partial[blockIdx.y * cols + c] = acc;                                           \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void arg_rows_##NAME(int max, i64 rows, i64 cols, const T* x,     \
                                               T* vals, i64* idx) {                         \
        __shared__ ACC bv[256];                                                             \
        __shared__ i64 bi[256];                                                             \
        for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {                                \
            const T* row = x + r * cols;                                                    \
            ACC best = LOAD(row, 0);                                                        \
            i64 at = 0;                                                                     \
            for (i64 c = threadIdx.x; c < cols; c += blockDim.x) {                          \
                ACC v = LOAD(row, c);                                                       \
                if (better<ACC>(max, v, c, best, at)) { best = v; at = c; }                 \
            }                                                                               \
            bv[threadIdx.x] = best;                                                         \
            bi[threadIdx.x] = at;                                                           \
            __syncthreads();                                                                \
            for (int s = blockDim.x / 2; s > 0; s >>= 1) {                                  \
                if (threadIdx.x < s &&                                                      \
                    better<ACC>(max, bv[threadIdx.x + s], bi[threadIdx.x + s], bv[threadIdx.x], bi[threadIdx.x])) { \
                    bv[threadIdx.x] = bv[threadIdx.x + s];                                  \
                    bi[threadIdx.x] = bi[threadIdx.x + s];                                  \
                }                                                                           \
                __syncthreads();                                                            \
            }                                                                               \
            if (threadIdx.x == 0) { vals[r] = STORE(bv[0]); idx[r] = bi[0]; }               \
            __syncthreads();                                                                \
        }                                                                                   \
    }

DEFINE_REDUCE(f32, float, float, LOAD_PLAIN, STORE_PLAIN)
DEFINE_REDUCE(f64, double, double, LOAD_PLAIN, STORE_PLAIN)
DEFINE_REDUCE(f16, f16_t, float, LOAD_F16, STORE_F16)
DEFINE_REDUCE(bf16, bf16_t, float, LOAD_BF16, STORE_BF16)
DEFINE_REDUCE(i64, i64, i64, LOAD_PLAIN, STORE_PLAIN)
DEFINE_REDUCE(i32, int, int, LOAD_PLAIN, STORE_PLAIN)
