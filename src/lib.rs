//! cudalearn: a teaching REPL and lesson runner for PyTorch on the GPU.
//!
//! `lang` is the Python-subset interpreter, `tensor` the tensor engine, `backend` the
//! CPU/CUDA/simulated devices, `repl` the interactive prompt.
pub mod backend;
pub mod lang;
pub mod tensor;
