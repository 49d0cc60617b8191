//! cudalearn: a teaching REPL and lesson runner for PyTorch on the GPU.
//!
//! `lang` is the Python-subset interpreter, `tensor` the tensor engine, `backend` the
//! CPU/CUDA/simulated devices, `repl` the interactive prompt, `run` the script runner.
pub mod amp;
pub mod autograd;
pub mod backend;
pub mod bench;
pub mod core;
pub mod dist;
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
