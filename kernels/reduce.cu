// Reductions over the last (contiguous) axis of a [rows, cols] view: sum and max, accumulated
// in float (f16/bf16/f32) or double, one block per row with a shared-memory tree. The engine
// permutes the reduced dims last and makes the input contiguous first.
#define DEFINE_REDUCE(NAME, T, ACC, LOAD, STORE)                                             \
    extern "C" __global__ void sum_rows_##NAME(i64 rows, i64 cols, const T* x, T* out) {    \
        __shared__ ACC buf[256];                                                            \
        for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {                                \
            ACC acc = 0;                                                                    \
            for (i64 c = threadIdx.x; c < cols; c += blockDim.x) acc += LOAD(x, r * cols + c); \
            buf[threadIdx.x] = acc;                                                         \
            __syncthreads();                                                                \
            for (int s = blockDim.x / 2; s > 0; s >>= 1) {                                  \
                if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];              \
                __syncthreads();                                                            \
            }                                                                               \
            if (threadIdx.x == 0) out[r] = STORE(buf[0]);                                   \
            __syncthreads();                                                                \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void max_rows_##NAME(i64 rows, i64 cols, const T* x, T* out) {    \
        __shared__ ACC buf[256];                                                            \
        for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {                                \
            ACC acc = LOAD(x, r * cols);                                                    \
            for (i64 c = threadIdx.x; c < cols; c += blockDim.x) {                          \
                ACC v = LOAD(x, r * cols + c);                                              \
                if (v != v || v > acc) acc = v;                                             \
            }                                                                               \
            buf[threadIdx.x] = acc;                                                         \
            __syncthreads();                                                                \
            for (int s = blockDim.x / 2; s > 0; s >>= 1) {                                  \
                if (threadIdx.x < s) {                                                      \
                    ACC o = buf[threadIdx.x + s];                                           \
                    if (o != o || o > buf[threadIdx.x]) buf[threadIdx.x] = o;               \
                }                                                                           \
                __syncthreads();                                                            \
            }                                                                               \
            if (threadIdx.x == 0) out[r] = STORE(buf[0]);                                   \
            __syncthreads();                                                                \
        }                                                                                   \
    }

DEFINE_REDUCE(f32, float, float, LOAD_PLAIN, STORE_PLAIN)
DEFINE_REDUCE(f64, double, double, LOAD_PLAIN, STORE_PLAIN)
DEFINE_REDUCE(f16, f16_t, float, LOAD_F16, STORE_F16)
DEFINE_REDUCE(bf16, bf16_t, float, LOAD_BF16, STORE_BF16)
