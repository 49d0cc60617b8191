// Elementwise unary and binary ops with broadcasting and strided (non-contiguous) operands.
// Every kernel computes in `acc_t` (float for f16/bf16, as PyTorch's opmath_type) and writes a
// contiguous output. Instantiated per dtype by the DEFINE_* macros at the end.

// op codes shared with src/backend/cuda/kernels.rs
#define OP_ADD 0
#define OP_SUB 1
#define OP_MUL 2
#define OP_DIV 3
#define OP_MAX 4
#define OP_MIN 5
#define OP_POW 6
#define OP_EQ 7
#define OP_NE 8
#define OP_LT 9
#define OP_LE 10
#define OP_GT 11
#define OP_GE 12

template <typename T>
__device__ __forceinline__ T binop(int op, T a, T b) {
    switch (op) {
        case OP_ADD: return a + b;
        case OP_SUB: return a - b;
        case OP_MUL: return a * b;
        case OP_DIV: return a / b;
        case OP_MAX: return (a != a || a > b) ? a : b;
        case OP_MIN: return (a != a || a < b) ? a : b;
        case OP_POW: return (T)pow((double)a, (double)b);
        default: return a;
    }
}

template <typename T>
__device__ __forceinline__ bool cmpop(int op, T a, T b) {
    switch (op) {
        case OP_EQ: return a == b;
        case OP_NE: return a != b;
        case OP_LT: return a < b;
        case OP_LE: return a <= b;
        case OP_GT: return a > b;
        default: return a >= b;
    }
}

#define UN_NEG 0
#define UN_ABS 1
#define UN_EXP 2
#define UN_LOG 3
#define UN_SQRT 4
#define UN_RELU 5
#define UN_SIGMOID 6
#define UN_TANH 7
#define UN_SIN 8
#define UN_COS 9

template <typename T>
__device__ __forceinline__ T unop(int op, T x) {
    switch (op) {
        case UN_NEG: return -x;
        case UN_ABS: return x < (T)0 ? -x : x;
        case UN_EXP: return exp(x);
        case UN_LOG: return log(x);
        case UN_SQRT: return sqrt(x);
        case UN_RELU: return x > (T)0 ? x : (x != x ? x : (T)0);
        case UN_SIGMOID: return (T)1 / ((T)1 + exp(-x));
        case UN_TANH: return tanh(x);
        case UN_SIN: return sin(x);
        default: return cos(x);
    }
}


#define DEFINE_BINARY(NAME, T, ACC, LOAD, STORE)                                             \
    extern "C" __global__ void binary_##NAME(int op, i64 n, const T* a, Layout la,          \
                                             const T* b, Layout lb, T* out) {               \
        GRID_STRIDE(i, n) {                                                                 \
            ACC x = LOAD(a, strided_offset(la, i));                                         \
            ACC y = LOAD(b, strided_offset(lb, i));                                         \
            out[i] = STORE(binop<ACC>(op, x, y));                                           \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void compare_##NAME(int op, i64 n, const T* a, Layout la,         \
                                              const T* b, Layout lb, bool* out) {           \
        GRID_STRIDE(i, n) {                                                                 \
            ACC x = LOAD(a, strided_offset(la, i));                                         \
            ACC y = LOAD(b, strided_offset(lb, i));                                         \
            out[i] = cmpop<ACC>(op, x, y);                                                  \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void fill_##NAME(i64 n, T* out, Layout lo, double v) {            \
        GRID_STRIDE(i, n) { out[strided_offset(lo, i)] = STORE((ACC)v); }                   \
    }                                                                                       \
    extern "C" __global__ void copy_##NAME(i64 n, const T* src, Layout ls, T* dst,          \
                                           Layout ld) {                                     \
        GRID_STRIDE(i, n) { dst[strided_offset(ld, i)] = src[strided_offset(ls, i)]; }      \
    }

// Unary math in MATH precision (integers go through double, as `torch.exp(int_tensor)` has
// already been promoted to float by the engine; this covers neg/abs/relu of ints).
#define DEFINE_UNARY(NAME, T, MATH, LOAD, STORE)                                             \
    extern "C" __global__ void unary_##NAME(int op, i64 n, const T* a, Layout la, T* out) { \
        GRID_STRIDE(i, n) {                                                                 \
            MATH x = LOAD(a, strided_offset(la, i));                                        \
            out[i] = STORE(unop<MATH>(op, x));                                              \
        }                                                                                   \
    }

#define LOAD_INT(p, i) (double)(p)[i]

DEFINE_BINARY(f32, float, float, LOAD_PLAIN, STORE_PLAIN)
DEFINE_BINARY(f64, double, double, LOAD_PLAIN, STORE_PLAIN)
DEFINE_BINARY(f16, f16_t, float, LOAD_F16, STORE_F16)
DEFINE_BINARY(bf16, bf16_t, float, LOAD_BF16, STORE_BF16)
DEFINE_BINARY(i64, i64, i64, LOAD_PLAIN, STORE_PLAIN)
DEFINE_BINARY(i32, int, int, LOAD_PLAIN, STORE_PLAIN)
DEFINE_UNARY(f32, float, float, LOAD_PLAIN, STORE_PLAIN)
DEFINE_UNARY(f64, double, double, LOAD_PLAIN, STORE_PLAIN)
DEFINE_UNARY(f16, f16_t, float, LOAD_F16, STORE_F16)
DEFINE_UNARY(bf16, bf16_t, float, LOAD_BF16, STORE_BF16)
DEFINE_UNARY(i64, i64, double, LOAD_INT, (i64))
DEFINE_UNARY(i32, int, double, LOAD_INT, (int))
