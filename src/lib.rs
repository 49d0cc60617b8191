//! cudalearn: a teaching REPL and lesson runner for PyTorch on the GPU.
//!
//! `lang` is the Python-subset interpreter, `tensor` the tensor engine (with its autograd),
//! `backend` the CPU/CUDA/simulated devices over storages and layouts, `core` the dtypes,
//! layouts, op enums and errors they share, `repl` the interactive prompt, `run` the script
//! runner. The engine's layers depend one way, `tensor` → `backend` → `core`
//! (`tests/layering.rs`).
pub mod amp;
pub mod backend;
pub mod bench;
pub mod core;
pub mod dist;
pub mod host_alloc;
pub mod info;
pub mod lang;
pub mod launch;
pub mod lesson;
pub mod nn;
pub mod repl;
pub mod run;
pub mod signals;
pub mod style;
pub mod tensor;

#[global_allocator]
static ALLOC: host_alloc::Aligned64 = host_alloc::Aligned64;
