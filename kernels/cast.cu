// dtype casts of a strided source into a contiguous destination, through float/double as
// PyTorch's static_cast chains do (float -> integer truncates toward zero).
#define DEFINE_CAST(SRC_NAME, S, DST_NAME, D, LOAD, STORE)                                   \
    extern "C" __global__ void cast_##SRC_NAME##_##DST_NAME(i64 n, const S* src, Layout ls, \
                                                            D* dst) {                       \
        GRID_STRIDE(i, n) { dst[i] = STORE(LOAD(src, strided_offset(ls, i))); }             \
    }

#define LOAD_D(p, i) (double)(p)[i]
#define LOAD_D_F16(p, i) (double)f16_to_f32((p)[i])
#define LOAD_D_BF16(p, i) (double)bf16_to_f32((p)[i])
#define STORE_F32(v) (float)(v)
#define STORE_F64(v) (double)(v)
#define STORE_I64(v) (i64)(v)
#define STORE_I32(v) (int)(v)
#define STORE_H(v) f32_to_f16((float)(v))
#define STORE_B(v) f32_to_bf16((float)(v))

#define CASTS_FROM(SN, S, LOAD)                          \
    DEFINE_CAST(SN, S, f32, float, LOAD, STORE_F32)      \
    DEFINE_CAST(SN, S, f64, double, LOAD, STORE_F64)     \
    DEFINE_CAST(SN, S, f16, f16_t, LOAD, STORE_H)        \
    DEFINE_CAST(SN, S, bf16, bf16_t, LOAD, STORE_B)      \
    DEFINE_CAST(SN, S, i64, i64, LOAD, STORE_I64)        \
    DEFINE_CAST(SN, S, i32, int, LOAD, STORE_I32)

CASTS_FROM(f32, float, LOAD_D)
CASTS_FROM(f64, double, LOAD_D)
CASTS_FROM(f16, f16_t, LOAD_D_F16)
CASTS_FROM(bf16, bf16_t, LOAD_D_BF16)
CASTS_FROM(i64, i64, LOAD_D)
CASTS_FROM(i32, int, LOAD_D)
