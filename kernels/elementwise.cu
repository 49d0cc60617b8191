// Elementwise unary and binary ops, comparisons, fill and where, with broadcasting and strided
// operands and a strided output (the backend lays results out as PyTorch's TensorIterator
// does). Floating types compute in `ACC` (float for f16/bf16, as PyTorch's opmath_type).

// Op codes, shared with src/backend/cuda/codes.rs.
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
#define OP_FLOORDIV 13
#define OP_TRUNCDIV 14
#define OP_REM 15
#define OP_FMOD 16
#define OP_BITAND 17
#define OP_BITOR 18
#define OP_BITXOR 19

// ATen's div_floor_floating.
template <typename T>
__device__ __forceinline__ T floor_div_f(T a, T b) {
    if (b == (T)0) return a / b;
    T m = fmod(a, b);
    T div = (a - m) / b;
    if (m != (T)0 && ((b < (T)0) != (m < (T)0))) div -= (T)1;
    if (div != (T)0) {
        T fd = floor(div);
        if (div - fd > (T)0.5) fd += (T)1;
        return fd;
    }
    return copysign((T)0, a / b);
}

template <typename T>
__device__ __forceinline__ T fbinop(int op, T a, T b) {
    switch (op) {
        case OP_ADD: return a + b;
        case OP_SUB: return a - b;
        case OP_MUL: return a * b;
        case OP_DIV: return a / b;
        case OP_MAX: return (a != a || a > b) ? a : b;
        case OP_MIN: return (a != a || a < b) ? a : b;
        case OP_POW: return pow(a, b);
        case OP_FLOORDIV: return floor_div_f(a, b);
        case OP_TRUNCDIV: return trunc(a / b);
        case OP_REM: {
            T m = fmod(a, b);
            if (m != (T)0 && ((b < (T)0) != (m < (T)0))) m += b;
            return m;
        }
        case OP_FMOD: return fmod(a, b);
        default: return a;
    }
}

// Integers wrap as in C; zero divisors were refused by the op before the launch.
template <typename T>
__device__ __forceinline__ T ibinop(int op, T a, T b) {
    switch (op) {
        case OP_ADD: return (T)((u64)a + (u64)b);
        case OP_SUB: return (T)((u64)a - (u64)b);
        case OP_MUL: return (T)((u64)a * (u64)b);
        case OP_MAX: return a > b ? a : b;
        case OP_MIN: return a < b ? a : b;
        case OP_FLOORDIV: {
            if (b == 0) return 0;
            T q = a / b, r = a % b;
            return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
        }
        case OP_TRUNCDIV: return b == 0 ? 0 : a / b;
        case OP_REM: {
            if (b == 0) return 0;
            T r = a % b;
            return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
        }
        case OP_FMOD: return b == 0 ? 0 : a % b;
        case OP_BITAND: return a & b;
        case OP_BITOR: return a | b;
        case OP_BITXOR: return a ^ b;
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

// Unary op codes, in the order of `UnaryOp` (src/tensor/ops/unary.rs).
#define UN_NEG 0
#define UN_ABS 1
#define UN_SQRT 2
#define UN_RSQRT 3
#define UN_EXP 4
#define UN_EXPM1 5
#define UN_LOG 6
#define UN_LOG2 7
#define UN_LOG10 8
#define UN_LOG1P 9
#define UN_SIN 10
#define UN_COS 11
#define UN_TAN 12
#define UN_TANH 13
#define UN_SIGMOID 14
#define UN_RELU 15
#define UN_FLOOR 16
#define UN_CEIL 17
#define UN_ROUND 18
#define UN_TRUNC 19
#define UN_FRAC 20
#define UN_SIGN 21
#define UN_RECIPROCAL 22
#define UN_SQUARE 23

template <typename T>
__device__ __forceinline__ T funop(int op, T x) {
    switch (op) {
        case UN_NEG: return -x;
        case UN_ABS: return fabs(x);
        case UN_SQRT: return sqrt(x);
        case UN_RSQRT: return (T)1 / sqrt(x);
        case UN_EXP: return exp(x);
        case UN_EXPM1: return expm1(x);
        case UN_LOG: return log(x);
        case UN_LOG2: return log2(x);
        case UN_LOG10: return log10(x);
        case UN_LOG1P: return log1p(x);
        case UN_SIN: return sin(x);
        case UN_COS: return cos(x);
        case UN_TAN: return tan(x);
        case UN_TANH: return tanh(x);
        case UN_SIGMOID: return (T)1 / ((T)1 + exp(-x));
        case UN_RELU: return x != x ? x : (x > (T)0 ? x : (T)0);
        case UN_FLOOR: return floor(x);
        case UN_CEIL: return ceil(x);
        case UN_ROUND: return rint(x);
        case UN_TRUNC: return trunc(x);
        case UN_FRAC: return x - trunc(x);
        case UN_SIGN: return (T)((x > (T)0) - (x < (T)0));
        case UN_RECIPROCAL: return (T)1 / x;
        default: return x * x;
    }
}

template <typename T>
__device__ __forceinline__ T iunop(int op, T x) {
    switch (op) {
        case UN_NEG: return (T)(0 - (u64)x);
        case UN_ABS: return x < 0 ? (T)(0 - (u64)x) : x;
        case UN_RELU: return x > 0 ? x : 0;
        case UN_SIGN: return (T)((x > 0) - (x < 0));
        default: return (T)((u64)x * (u64)x);
    }
}

#define DEFINE_ELEMENTWISE(NAME, T, ACC, LOAD, STORE, BINOP, UNOP)                           \
    extern "C" __global__ void binary_##NAME(int op, i64 n, const T* a, Layout la,          \
                                             const T* b, Layout lb, T* out, Layout lo) {    \
        if (dense_run(la) && dense_run(lb) && dense_run(lo)) {                              \
            ACC x[UNROLL], y[UNROLL];                                                       \
            DENSE_LOOP(n, (x[k] = LOAD(a, la.offset + i), y[k] = LOAD(b, lb.offset + i)),   \
                       out[lo.offset + i] = STORE(BINOP<ACC>(op, x[k], y[k])));             \
            return;                                                                         \
        }                                                                                   \
        GRID_STRIDE(i, n) {                                                                 \
            Offsets<3> o = strided_offsets<3>({&la, &lb, &lo}, i);                          \
            ACC x = LOAD(a, o.at[0]);                                                       \
            ACC y = LOAD(b, o.at[1]);                                                       \
            out[o.at[2]] = STORE(BINOP<ACC>(op, x, y));                       \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void binary_scalar_##NAME(int op, i64 n, const T* a, Layout la,   \
                                                    double s, int rev, T* out, Layout lo) { \
        ACC y = (ACC)s;                                                                     \
        if (dense_run(la) && dense_run(lo)) {                                               \
            ACC x[UNROLL];                                                                  \
            DENSE_LOOP(n, x[k] = LOAD(a, la.offset + i),                                    \
                       out[lo.offset + i] = STORE(rev ? BINOP<ACC>(op, y, x[k])             \
                                                      : BINOP<ACC>(op, x[k], y)));          \
            return;                                                                         \
        }                                                                                   \
        GRID_STRIDE(i, n) {                                                                 \
            Offsets<2> o = strided_offsets<2>({&la, &lo}, i);                               \
            ACC x = LOAD(a, o.at[0]);                                                       \
            out[o.at[1]] = STORE(rev ? BINOP<ACC>(op, y, x) : BINOP<ACC>(op, x, y)); \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void compare_##NAME(int op, i64 n, const T* a, Layout la,         \
                                              const T* b, Layout lb, bool* out, Layout lo) { \
        if (dense_run(la) && dense_run(lb) && dense_run(lo)) {                              \
            ACC x[UNROLL], y[UNROLL];                                                       \
            DENSE_LOOP(n, (x[k] = LOAD(a, la.offset + i), y[k] = LOAD(b, lb.offset + i)),   \
                       out[lo.offset + i] = cmpop<ACC>(op, x[k], y[k]));                    \
            return;                                                                         \
        }                                                                                   \
        GRID_STRIDE(i, n) {                                                                 \
            Offsets<3> o = strided_offsets<3>({&la, &lb, &lo}, i);                          \
            ACC x = LOAD(a, o.at[0]);                                                       \
            ACC y = LOAD(b, o.at[1]);                                                       \
            out[o.at[2]] = cmpop<ACC>(op, x, y);                              \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void compare_scalar_##NAME(int op, i64 n, const T* a, Layout la,  \
                                                     double s, int rev, bool* out,          \
                                                     Layout lo) {                           \
        ACC y = (ACC)s;                                                                     \
        if (dense_run(la) && dense_run(lo)) {                                               \
            ACC x[UNROLL];                                                                  \
            DENSE_LOOP(n, x[k] = LOAD(a, la.offset + i),                                    \
                       out[lo.offset + i] = rev ? cmpop<ACC>(op, y, x[k])                   \
                                                : cmpop<ACC>(op, x[k], y));                 \
            return;                                                                         \
        }                                                                                   \
        GRID_STRIDE(i, n) {                                                                 \
            Offsets<2> o = strided_offsets<2>({&la, &lo}, i);                               \
            ACC x = LOAD(a, o.at[0]);                                                       \
            out[o.at[1]] = rev ? cmpop<ACC>(op, y, x) : cmpop<ACC>(op, x, y); \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void unary_##NAME(int op, i64 n, const T* a, Layout la, T* out,   \
                                            Layout lo) {                                    \
        if (dense_run(la) && dense_run(lo)) {                                               \
            ACC x[UNROLL];                                                                  \
            DENSE_LOOP(n, x[k] = LOAD(a, la.offset + i),                                    \
                       out[lo.offset + i] = STORE(UNOP<ACC>(op, x[k])));                    \
            return;                                                                         \
        }                                                                                   \
        GRID_STRIDE(i, n) {                                                                 \
            Offsets<2> o = strided_offsets<2>({&la, &lo}, i);                               \
            ACC x = LOAD(a, o.at[0]);                                                       \
            out[o.at[1]] = STORE(UNOP<ACC>(op, x));                           \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void fill_##NAME(i64 n, T* out, Layout lo, double v) {            \
        T x = STORE((ACC)v);                                                                \
        GRID_STRIDE(i, n) { out[strided_offset(lo, i)] = x; }                               \
    }                                                                                       \
    extern "C" __global__ void where_##NAME(i64 n, const bool* c, Layout lc, const T* a,    \
                                            Layout la, const T* b, Layout lb, T* out,       \
                                            Layout lo) {                                    \
        GRID_STRIDE(i, n) {                                                                 \
            Offsets<4> o = strided_offsets<4>({&lc, &la, &lb, &lo}, i);                     \
            out[o.at[3]] = c[o.at[0]] ? a[o.at[1]] : b[o.at[2]];                            \
        }                                                                                   \
    }

DEFINE_ELEMENTWISE(f32, float, float, LOAD_PLAIN, STORE_PLAIN, fbinop, funop)
DEFINE_ELEMENTWISE(f64, double, double, LOAD_PLAIN, STORE_PLAIN, fbinop, funop)
DEFINE_ELEMENTWISE(f16, f16_t, float, LOAD_F16, STORE_F16, fbinop, funop)
DEFINE_ELEMENTWISE(bf16, bf16_t, float, LOAD_BF16, STORE_BF16, fbinop, funop)
DEFINE_ELEMENTWISE(i64, i64, i64, LOAD_PLAIN, STORE_PLAIN, ibinop, iunop)
DEFINE_ELEMENTWISE(i32, int, int, LOAD_PLAIN, STORE_PLAIN, ibinop, iunop)
