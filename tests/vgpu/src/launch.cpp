// ---- after the program and the entry table: the launcher the virtual driver calls ----
#include <utility>

// The kernels' names, one per line, with a '*' before those that use a barrier.
extern "C" const char* vgpu_entries() {
    static char* text = nullptr;
    if (!text) {
        size_t n = 1;
        for (const Entry& e : VGPU_ENTRIES) n += strlen(e.name) + 2;
        text = (char*)calloc(n, 1);
        for (const Entry& e : VGPU_ENTRIES) {
            if (e.barrier) strcat(text, "*");
            strcat(text, e.name);
            strcat(text, "\n");
        }
    }
    return text;
}

// Run kernel `name` over the whole grid. 0 on success, 1 for an unknown kernel, 2 for a
// barrier in a kernel the table says has none, 3 for threads that skipped a barrier.
extern "C" int vgpu_launch(const char* name, void** args, const unsigned* grid, const unsigned* block) {
    const Entry* e = nullptr;
    for (const Entry& x : VGPU_ENTRIES) if (!strcmp(x.name, name)) e = &x;
    if (!e) return 1;
    gridDim = {grid[0], grid[1], grid[2]};
    blockDim = {block[0], block[1], block[2]};
    unsigned threads = block[0] * block[1] * block[2];
    if (e->barrier && !stacks) {
        stacks = (char*)mmap(nullptr, STACK * 1024, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (stacks == MAP_FAILED) { stacks = nullptr; return 4; }
    }
    unsigned i = 0;
    for (unsigned z = 0; z < block[2]; ++z)
        for (unsigned y = 0; y < block[1]; ++y)
            for (unsigned x = 0; x < block[0]; ++x) tid_of[i++] = {x, y, z};
    run_fn = e->fn;
    run_args = args;
    stray_barrier = false;
    for (unsigned bz = 0; bz < grid[2]; ++bz)
        for (unsigned by = 0; by < grid[1]; ++by)
            for (unsigned bx = 0; bx < grid[0]; ++bx) {
                blockIdx = {bx, by, bz};
                if (e->barrier) {
                    int r = run_block_fibers(threads);
                    if (r) return r;
                    continue;
                }
                for (unsigned t = 0; t < threads; ++t) {
                    threadIdx = tid_of[t];
                    e->fn(args);
                }
                if (stray_barrier) return 2;
            }
    return 0;
}
