// The CPU side of the virtual GPU: what makes CUDA kernel sources valid C++, and a block
// scheduler that runs a launch as the card would, block by block. Kernels without a barrier run
// their threads one after another; kernels with `__syncthreads()` run each thread of a block as a
// fiber (its own stack, switched by hand) that yields at the barrier, so every thread reaches a
// barrier before any passes it. The virtual NVRTC prepends this to the program and appends the
// entry table (`VGPU_ENTRIES`).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <sys/mman.h>
#define CUDALEARN_CPU_EMULATION 1
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
using namespace std;

struct Dim3 { unsigned x, y, z; };
static Dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0};
static Dim3 blockDim = {1, 1, 1}, gridDim = {1, 1, 1};

static inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static inline unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static inline double __longlong_as_double(long long x) { double d; memcpy(&d, &x, 8); return d; }
static inline long long __double_as_longlong(double d) { long long x; memcpy(&x, &d, 8); return x; }
// Explicitly rounded arithmetic (kernels/optim.cu): plain IEEE operations in C++, which the
// build (-ffp-contract=off) never fuses, and the C library's correctly rounded fma.
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __dsqrt_rn(double a) { return sqrt(a); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline float f16_to_f32(unsigned short h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static inline unsigned short f32_to_f16(float f) { _Float16 x = (_Float16)f; unsigned short h; memcpy(&h, &x, 2); return h; }

// ---- fibers (x86-64: callee-saved registers, MXCSR and the x87 control word) ----
extern "C" void vgpu_switch(void** save_sp, void* to_sp);
asm(R"(
.text
.globl vgpu_switch
.type vgpu_switch,@function
vgpu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
.size vgpu_switch, .-vgpu_switch
)");

static const size_t STACK = 256 * 1024;
static char* stacks = nullptr;        // 1024 stacks, mapped once
static void* sched_sp;                // the scheduler's saved stack pointer
static void* fiber_sp[1024];
static int state[1024];               // 0 runnable, 1 waiting at the barrier, 2 finished
static Dim3 tid_of[1024];
static int current = -1;              // the running fiber, -1 outside fiber mode
static bool stray_barrier = false;    // a barrier in a kernel run without fibers
static void (*run_fn)(void**);
static void** run_args;

static void __syncthreads() {
    if (current < 0) { stray_barrier = true; return; }
    state[current] = 1;
    vgpu_switch(&fiber_sp[current], sched_sp);
}

static void fiber_main() {
    run_fn(run_args);
    state[current] = 2;
    vgpu_switch(&fiber_sp[current], sched_sp);
    abort();  // a finished fiber is never resumed
}

// A fresh fiber's stack: the registers `vgpu_switch` pops, then `fiber_main` as the return
// address, placed so that `fiber_main` starts with the stack aligned as after a call.
static void* fiber_stack(int i) {
    uintptr_t top = ((uintptr_t)(stacks + (size_t)(i + 1) * STACK)) & ~(uintptr_t)15;
    uint64_t* sp = (uint64_t*)(top - 16);
    sp[0] = (uint64_t)(uintptr_t)&fiber_main;
    sp -= 6;
    memset(sp, 0, 48);
    sp -= 1;
    uint32_t control[2] = {0x1F80, 0x037F};
    memcpy(sp, control, 8);
    return sp;
}

// Run one block as fibers; 0, or 3 when threads left the kernel while others wait at a barrier.
static int run_block_fibers(unsigned n) {
    for (unsigned i = 0; i < n; ++i) { fiber_sp[i] = fiber_stack(i); state[i] = 0; }
    for (;;) {
        for (unsigned i = 0; i < n; ++i) {
            if (state[i] != 0) continue;
            current = (int)i;
            threadIdx = tid_of[i];
            vgpu_switch(&sched_sp, fiber_sp[i]);
        }
        current = -1;
        unsigned waiting = 0, done = 0;
        for (unsigned i = 0; i < n; ++i) { waiting += state[i] == 1; done += state[i] == 2; }
        if (waiting == 0) return 0;
        if (done > 0) return 3;
        for (unsigned i = 0; i < n; ++i) state[i] = 0;
    }
}

template <typename... A, size_t... I>
static void call_impl(void (*f)(A...), void** args, std::index_sequence<I...>) {
    f(*static_cast<A*>(args[I])...);
}
template <typename... A>
static void call(void (*f)(A...), void** args) { call_impl(f, args, std::index_sequence_for<A...>{}); }
struct Entry { const char* name; void (*fn)(void**); bool barrier; };

// ---- the program (kernels) follows, then VGPU_ENTRIES and vgpu_launch ----
