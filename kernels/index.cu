// Advanced-indexing gather and scatter: for each base offset, the sub-tensor laid out by `sub`
// (shape and strides relative to the base) is copied out of (gather) or into (scatter) `data`.
// Only element sizes matter, so one kernel per size serves every dtype.
#define DEFINE_INDEX(NAME, T)                                                                \
    extern "C" __global__ void gather_##NAME(i64 nbases, const i64* bases, Layout sub,      \
                                             i64 subn, const T* data, T* out) {             \
        GRID_STRIDE(i, nbases * subn) {                                                     \
            i64 b = i / subn, k = i % subn;                                                 \
            out[i] = data[bases[b] + strided_offset(sub, k)];                               \
        }                                                                                   \
    }                                                                                       \
    extern "C" __global__ void scatter_##NAME(i64 nbases, const i64* bases, Layout sub,     \
                                              i64 subn, T* data, const T* values) {         \
        GRID_STRIDE(i, nbases * subn) {                                                     \
            i64 b = i / subn, k = i % subn;                                                 \
            data[bases[b] + strided_offset(sub, k)] = values[i];                            \
        }                                                                                   \
    }

DEFINE_INDEX(b1, unsigned char)
DEFINE_INDEX(b2, unsigned short)
DEFINE_INDEX(b4, unsigned int)
DEFINE_INDEX(b8, u64)
