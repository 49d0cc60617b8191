//! `torch.nn` (with `torch.nn.parallel`), `torch.optim`, `torch.autograd.Function` (with
//! `gradcheck`), `torch.utils.data` (with its
//! `DistributedSampler`) and `cudalearn.datasets`: written in Python
//! (PyTorch's own classes are Python, and learners subclass them), embedded here and run into
//! a module namespace of their own on first import. Their frames stay out of tracebacks
//! (`Source::prelude`). Natives they need are in `lang/modules/torch/nn.rs`.

/// Module name → the sources run, in order, into its namespace.
const PRELUDES: &[(&str, &[&str])] = &[
    (
        "torch.nn",
        &[
            include_str!("module.py"),
            include_str!("layers.py"),
            include_str!("loss.py"),
            include_str!("conv.py"),
            include_str!("norm.py"),
            include_str!("rnn.py"),
        ],
    ),
    ("torch.nn.utils", &[include_str!("clip.py")]),
    ("torch.nn.init", &[include_str!("init.py")]),
    ("torch.nn.parallel", &[include_str!("parallel.py")]),
    ("torch.optim", &[include_str!("optim.py")]),
    (
        "torch.autograd.function",
        &[include_str!("autograd_function.py")],
    ),
    (
        "torch.optim.lr_scheduler",
        &[include_str!("lr_scheduler.py")],
    ),
    ("torch.utils", &[""]),
    (
        "torch.utils.data",
        &[
            include_str!("data.py"),
            include_str!("distributed_sampler.py"),
        ],
    ),
    (
        "torch.utils.data.distributed",
        &["from torch.utils.data import DistributedSampler\n"],
    ),
    ("cudalearn", &[""]),
    ("cudalearn.datasets", &[include_str!("datasets.py")]),
];

/// The embedded sources of module `name`, if it is one of these or an embedded
/// standard-library module (`lang/modules/stdlib`).
pub fn prelude(name: &str) -> Option<&'static [&'static str]> {
    PRELUDES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .or_else(|| crate::lang::modules::stdlib::prelude(name))
}

/// Every embedded module's name.
pub fn module_names() -> impl Iterator<Item = &'static str> {
    PRELUDES
        .iter()
        .map(|(n, _)| *n)
        .chain(crate::lang::modules::stdlib::module_names())
}
