// Copies (same dtype, any element size) and dtype casts between strided tensors. Casts go
// through double as the CPU backend's do; float -> integer follows the CPU backend's rules (NaN
// and out-of-range values give the type's minimum for int32/int64, 8-bit types wrap an int64).
#define DEFINE_COPY(NAME, T)                                                                 \
    extern "C" __global__ void copy_##NAME(i64 n, const T* src, Layout ls, T* dst,          \
                                           Layout ld) {                                     \
        if (dense_run(ls) && dense_run(ld)) {                                               \
            T x[UNROLL];                                                                    \
            DENSE_LOOP(n, x[k] = src[ls.offset + i], dst[ld.offset + i] = x[k]);            \
            return;                                                                         \
        }                                                                                   \
        GRID_STRIDE(i, n) {                                                                 \
            Offsets<2> o = strided_offsets<2>({&ls, &ld}, i);                               \
            dst[o.at[1]] = src[o.at[0]];                                                    \
        }                                                                                   \
    }

DEFINE_COPY(b1, unsigned char)
DEFINE_COPY(b2, unsigned short)
DEFINE_COPY(b4, unsigned int)
DEFINE_COPY(b8, u64)

__device__ __forceinline__ i64 d_to_i64(double v) {
    if (v != v || v >= 9223372036854775808.0 || v < -9223372036854775808.0)
        return (i64)0x8000000000000000ULL;
    return (i64)v;
}
__device__ __forceinline__ int d_to_i32(double v) {
    if (v != v || v >= 2147483648.0 || v < -2147483648.0) return (int)0x80000000u;
    return (int)v;
}

#define LOAD_D(p, i) (double)(p)[i]
#define LOAD_D_F16(p, i) (double)f16_to_f32((p)[i])
#define LOAD_D_BF16(p, i) (double)bf16_to_f32((p)[i])
#define STORE_F32(v) (float)(v)
#define STORE_F64(v) (double)(v)
#define STORE_I64(v) d_to_i64(v)
#define STORE_I32(v) d_to_i32(v)
#define STORE_I8(v) (signed char)d_to_i64(v)
#define STORE_U8(v) (unsigned char)d_to_i64(v)
#define STORE_BOOL(v) ((v) != 0.0)
#define STORE_H(v) f32_to_f16((float)(v))
#define STORE_B(v) f32_to_bf16((float)(v))

#define DEFINE_CAST(SRC_NAME, S, DST_NAME, D, LOAD, STORE)                                   \
    extern "C" __global__ void cast_##SRC_NAME##_##DST_NAME(i64 n, const S* src, Layout ls, \
                                                            D* dst, Layout ld) {            \
        if (dense_run(ls) && dense_run(ld)) {                                               \
            double x[UNROLL];                                                               \
            DENSE_LOOP(n, x[k] = LOAD(src, ls.offset + i), dst[ld.offset + i] = STORE(x[k])); \
            return;                                                                         \
        }                                                                                   \
        GRID_STRIDE(i, n) {                                                                 \
            Offsets<2> o = strided_offsets<2>({&ls, &ld}, i);                               \
            dst[o.at[1]] = STORE(LOAD(src, o.at[0]));                                       \
        }                                                                                   \
    }

#define CASTS_FROM(SN, S, LOAD)                          \
    DEFINE_CAST(SN, S, f32, float, LOAD, STORE_F32)      \
    DEFINE_CAST(SN, S, f64, double, LOAD, STORE_F64)     \
    DEFINE_CAST(SN, S, f16, f16_t, LOAD, STORE_H)        \
    DEFINE_CAST(SN, S, bf16, bf16_t, LOAD, STORE_B)      \
    DEFINE_CAST(SN, S, i64, i64, LOAD, STORE_I64)        \
    DEFINE_CAST(SN, S, i32, int, LOAD, STORE_I32)        \
    DEFINE_CAST(SN, S, i8, signed char, LOAD, STORE_I8)  \
    DEFINE_CAST(SN, S, u8, unsigned char, LOAD, STORE_U8) \
    DEFINE_CAST(SN, S, bool, bool, LOAD, STORE_BOOL)

CASTS_FROM(f32, float, LOAD_D)
CASTS_FROM(f64, double, LOAD_D)
CASTS_FROM(f16, f16_t, LOAD_D_F16)
CASTS_FROM(bf16, bf16_t, LOAD_D_BF16)
CASTS_FROM(i64, i64, LOAD_D)
CASTS_FROM(i32, int, LOAD_D)
CASTS_FROM(i8, signed char, LOAD_D)
CASTS_FROM(u8, unsigned char, LOAD_D)
CASTS_FROM(bool, bool, LOAD_D)
