// softmax / log_softmax over the last axis of a contiguous [rows, cols] tensor, one block per
// row: max, then the sum of exp(x - max) (in float for 16-bit types), then the outputs.
#define DEFINE_SOFTMAX(NAME, T, ACC, LOAD, STORE)                                            \
    extern "C" __global__ void softmax_##NAME(i64 rows, i64 cols, const T* x, T* out,       \
                                              int log_) {                                   \
        __shared__ ACC buf[256];                                                            \
        for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {                                \
            const T* row = x + r * cols;                                                    \
            ACC m = (ACC)NEG_INF;                                                              \
            for (i64 c = threadIdx.x; c < cols; c += blockDim.x) {                          \
                ACC v = LOAD(row, c);                                                       \
                if (v > m || v != v) m = v;                                                 \
            }                                                                               \
            buf[threadIdx.x] = m;                                                           \
            __syncthreads();                                                                \
            for (int s = blockDim.x / 2; s > 0; s >>= 1) {                                  \
                if (threadIdx.x < s && (buf[threadIdx.x + s] > buf[threadIdx.x]))           \
                    buf[threadIdx.x] = buf[threadIdx.x + s];                                \
                __syncthreads();                                                            \
            }                                                                               \
            m = buf[0];                                                                     \
            __syncthreads();                                                                \
            ACC sum = 0;                                                                    \
            for (i64 c = threadIdx.x; c < cols; c += blockDim.x) sum += exp(LOAD(row, c) - m); \
            buf[threadIdx.x] = sum;                                                         \
            __syncthreads();                                                                \
            for (int s = blockDim.x / 2; s > 0; s >>= 1) {                                  \
                if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];              \
                __syncthreads();                                                            \
            }                                                                               \
            sum = buf[0];                                                                   \
            __syncthreads();                                                                \
            for (i64 c = threadIdx.x; c < cols; c += blockDim.x) {                          \
                ACC v = LOAD(row, c) - m;                                                   \
                out[r * cols + c] = STORE(log_ ? v - log(sum) : exp(v) / sum);              \
            }                                                                               \
        }                                                                                   \
    }

DEFINE_SOFTMAX(f32, float, float, LOAD_PLAIN, STORE_PLAIN)
DEFINE_SOFTMAX(f64, double, double, LOAD_PLAIN, STORE_PLAIN)
DEFINE_SOFTMAX(f16, f16_t, float, LOAD_F16, STORE_F16)
DEFINE_SOFTMAX(bf16, bf16_t, float, LOAD_BF16, STORE_BF16)
