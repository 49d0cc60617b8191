//! Argument parsing and dispatch only.
use clap::{Parser, Subcommand};
use std::io::Read;

#[derive(Parser)]
#[command(
    name = "cudalearn",
    version,
    about = "Learn how PyTorch uses the GPU by doing it: a course of runnable lessons and a Python + PyTorch prompt",
    long_about = "cudalearn teaches how PyTorch uses a GPU by letting you do it: a course of \
                  lessons that run and check every snippet, and a Python + PyTorch prompt that \
                  runs a faithful subset of both on its own tensor engine and explains errors as \
                  it goes. Tensors run on the CPU, on an NVIDIA GPU when there is one, or on a \
                  clearly labelled simulated GPU (--sim-gpu).\n\n\
                  Start with the course: `cudalearn lesson` opens lesson 1, and later resumes \
                  where you stopped. `cudalearn lessons` lists the course, `cudalearn repl` is \
                  the prompt, `cudalearn run FILE.py` runs a script, and `cudalearn info` tells \
                  what GPU was found, or why none."
)]
struct Cli {
    /// Do not print cudalearn's `hint:` lines after errors.
    #[arg(long, global = true)]
    no_hints: bool,
    /// Simulate N GPUs (default 1) in host memory, clearly labelled as simulated.
    #[arg(long, global = true, value_name = "N", num_args = 0..=1, default_missing_value = "1", require_equals = true)]
    sim_gpu: Option<u32>,
    /// Memory of each simulated GPU, e.g. 8GiB (default 16GiB).
    #[arg(long, global = true, value_name = "SIZE")]
    sim_gpu_memory: Option<String>,
    /// The card the simulated GPU's modelled clock imitates: t4, a100 (default), h100, rtx4090
    /// (implies --sim-gpu). Also CUDALEARN_SIM_GPU_MODEL.
    #[arg(long, global = true, value_name = "MODEL")]
    sim_gpu_model: Option<String>,
    /// Where `cuda` tensors go: a real GPU (cuda), the simulated one (sim), or nowhere (cpu).
    /// For a lesson, the default is the CPU, or a GPU (real, else simulated) when it needs one.
    #[arg(long, global = true, value_enum)]
    device: Option<DeviceChoice>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum DeviceChoice {
    Cpu,
    Cuda,
    Sim,
}

#[derive(Subcommand)]
enum Command {
    /// What hardware, driver and CUDA libraries were found (or why not), and the simulated GPU.
    Info,
    /// Start the interactive Python prompt (also what `cudalearn` alone does).
    Repl(ReplArgs),
    /// Run a Python script (use `-` to read it from standard input); exits 1 on an uncaught error.
    /// With --nproc-per-node N, runs N processes of it for torch.distributed, as torchrun does.
    Run {
        /// The script to run, or `-` for standard input.
        file: String,
        #[command(flatten)]
        launch: LaunchArgs,
    },
    /// List the lessons, with your progress in each.
    Lessons,
    /// Take a lesson of the course, the main job: its number or name (`cudalearn lesson`
    /// alone resumes where you stopped, or starts lesson 1); --check verifies one.
    Lesson(LessonArgs),
    /// Measure the engine: matmul, elementwise and per-op speed (CPU; the GPU when present).
    Bench {
        /// Only the CPU measurements.
        #[arg(long)]
        cpu: bool,
        /// The interpreter instead: benches/lang/*.py (compare: benches/lang_side_by_side.sh).
        #[arg(long)]
        lang: bool,
    },
}

/// The launcher's options (torchrun's names; `_` spellings accepted too).
#[derive(clap::Args)]
struct LaunchArgs {
    /// Start N processes of the script (ranks) with RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR
    /// and MASTER_PORT set; their output lines are prefixed [default<local rank>]:.
    #[arg(long, alias = "nproc_per_node", value_name = "N")]
    nproc_per_node: Option<u32>,
    /// How many machines run the job (each runs this launcher).
    #[arg(long, default_value_t = 1, value_name = "M")]
    nnodes: u32,
    /// This machine's number, 0..nnodes (0 runs rank 0, the master).
    #[arg(long, alias = "node_rank", default_value_t = 0, value_name = "K")]
    node_rank: u32,
    /// The address of the machine of rank 0.
    #[arg(
        long,
        alias = "master_addr",
        default_value = "127.0.0.1",
        value_name = "ADDR"
    )]
    master_addr: String,
    /// The port rank 0 listens on for the others (0: a free one, on one machine).
    #[arg(
        long,
        alias = "master_port",
        default_value_t = 29500,
        value_name = "PORT"
    )]
    master_port: u16,
}

/// cudalearn's flags as given, for the processes the launcher starts (each simulates at
/// least one GPU per local rank when the simulated GPU is on, so rank k has cuda:k).
fn child_flags(cli: &Cli, nproc: u32) -> Vec<String> {
    let mut f = Vec::new();
    if cli.no_hints {
        f.push("--no-hints".to_string());
    }
    if let Some(n) = cli.sim_gpu {
        f.push(format!("--sim-gpu={}", n.max(nproc)));
    } else if let Some(n) = cudalearn::backend::sim::env_request() {
        if !matches!(cli.device, Some(DeviceChoice::Cuda | DeviceChoice::Cpu)) {
            f.push(format!("--sim-gpu={}", n.max(nproc)));
        }
    }
    if let Some(m) = &cli.sim_gpu_memory {
        f.push(format!("--sim-gpu-memory={m}"));
    }
    if let Some(m) = &cli.sim_gpu_model {
        f.push(format!("--sim-gpu-model={m}"));
    }
    if let Some(d) = cli.device {
        let name = match d {
            DeviceChoice::Cpu => "cpu",
            DeviceChoice::Cuda => "cuda",
            DeviceChoice::Sim => "sim",
        };
        f.push(format!("--device={name}"));
    }
    f
}

#[derive(clap::Args)]
struct LessonArgs {
    /// The lesson: its number (`3`), its name or a unique start of it (`mismatch`), a word of
    /// its title (`devices`), or a path to a lesson file. Without it, resumes where you
    /// stopped (or starts lesson 1).
    lesson: Option<String>,
    /// Run every block and exercise without stopping, print the transcript, and exit 1 if
    /// anything differs from what the lesson expects.
    #[arg(long)]
    check: bool,
    /// For lesson authors: check every lesson on cpu and on the simulated GPU.
    #[arg(long, conflicts_with_all = ["lesson", "check"])]
    check_all: bool,
}

impl From<DeviceChoice> for cudalearn::lesson::check::DeviceKind {
    fn from(d: DeviceChoice) -> Self {
        match d {
            DeviceChoice::Cpu => Self::Cpu,
            DeviceChoice::Cuda => Self::Cuda,
            DeviceChoice::Sim => Self::Sim,
        }
    }
}

#[derive(clap::Args, Default)]
struct ReplArgs {
    /// Do not print the banner at start.
    #[arg(short, long)]
    quiet: bool,
    /// Neither read nor write the history file.
    #[arg(long)]
    no_history: bool,
}

/// Apply `--device`, `--sim-gpu` and `--sim-gpu-memory` before anything looks for a GPU.
fn choose_device(cli: &Cli) -> Result<(), String> {
    use cudalearn::backend::{cuda, gpu, sim, sim_model};
    if let Some(m) = &cli.sim_gpu_model {
        let p = sim_model::profile_named(m).ok_or_else(|| {
            format!(
                "--sim-gpu-model: '{m}' is not a modelled GPU (choose one of: {})",
                sim_model::profile_names()
            )
        })?;
        sim_model::choose(p);
    }
    let capacity = match &cli.sim_gpu_memory {
        None => None,
        Some(s) => Some(sim::parse_size(s).ok_or_else(|| {
            format!("--sim-gpu-memory: '{s}' is not a memory size (try 8GiB or 512MiB)")
        })?),
    };
    match (cli.device, cli.sim_gpu) {
        (Some(DeviceChoice::Cpu), _) => gpu::hide_gpus(true),
        (Some(DeviceChoice::Cuda), _) => {
            if let Err(e) = cuda::probe() {
                return Err(format!(
                    "--device cuda: no usable GPU: {}\n  fix: {}",
                    e.reason(),
                    e.fix()
                ));
            }
            sim::disable();
        }
        (Some(DeviceChoice::Sim), n) => sim::enable(n.unwrap_or(1), capacity),
        (None, Some(n)) => sim::enable(n, capacity),
        (None, None) => {
            // choosing the simulated GPU's memory or card asks for the simulated GPU
            if capacity.is_some() || cli.sim_gpu_model.is_some() {
                sim::enable(sim::env_request().unwrap_or(1), capacity);
            }
        }
    }
    Ok(())
}

fn main() {
    cudalearn::host_alloc::tune();
    let cli = Cli::parse();
    let hints = !cli.no_hints;
    if let Err(e) = choose_device(&cli) {
        eprintln!("cudalearn: {e}");
        std::process::exit(2);
    }
    if matches!(cli.device, Some(DeviceChoice::Cuda)) {
        // a real GPU was asked for: the environment's simulated one must not replace it (here,
        // nor in the lesson processes this one starts)
        cudalearn::backend::sim::ignore_env_request();
        std::env::remove_var("CUDALEARN_SIM_GPU");
    }
    let flags = match &cli.command {
        Some(Command::Run { launch, .. })
            if launch.nproc_per_node.is_some() || launch.nnodes > 1 =>
        {
            child_flags(&cli, launch.nproc_per_node.unwrap_or(1))
        }
        _ => Vec::new(),
    };
    let code = match cli.command.unwrap_or(Command::Repl(ReplArgs::default())) {
        Command::Info => {
            print!("{}", cudalearn::info::report());
            0
        }
        Command::Repl(args) => {
            let opts = cudalearn::repl::Options {
                hints,
                quiet: args.quiet,
                history: !args.no_history,
            };
            cudalearn::run::with_big_stack(move || cudalearn::repl::run_with(opts))
        }
        Command::Lessons => cudalearn::lesson::list(),
        Command::Lesson(args) => {
            let device = cli.device.map(Into::into);
            cudalearn::run::with_big_stack(move || match (args.check_all, args.lesson) {
                (true, _) => cudalearn::lesson::check_all(device),
                (false, arg) => {
                    cudalearn::lesson::lesson(arg.as_deref(), args.check, device, hints)
                }
            })
        }
        Command::Bench { lang: true, .. } => {
            cudalearn::run::with_big_stack(|| {
                println!("cudalearn bench --lang (median of main(); python3: benches/lang_side_by_side.sh)");
                cudalearn::bench::print_rows(&cudalearn::bench::lang_suite());
                0
            })
        }
        Command::Bench { cpu, .. } => cudalearn::run::with_big_stack(move || {
            println!("cudalearn bench (CPU engine; with PyTorch installed, python3 benches/pytorch_cpu.py measures the same in PyTorch)");
            cudalearn::bench::print_rows(&cudalearn::bench::cpu_suite());
            if cpu {
                // the per-op rows take a minute; `bench` alone stays quick
                cudalearn::bench::print_op_rows();
            } else {
                use cudalearn::backend::gpu;
                if gpu::kind() == gpu::GpuKind::Simulated {
                    print!("{}", cudalearn::bench::sim::report());
                } else {
                    print!("{}", cudalearn::bench::gpu::report());
                }
            }
            0
        }),
        Command::Run { file, launch } if launch.nproc_per_node.is_some() || launch.nnodes > 1 => {
            cudalearn::launch::launch(cudalearn::launch::Options {
                nproc_per_node: launch.nproc_per_node.unwrap_or(1),
                nnodes: launch.nnodes,
                node_rank: launch.node_rank,
                master_addr: launch.master_addr,
                master_port: launch.master_port,
                script: file,
                child_flags: flags,
            })
        }
        Command::Run { file, .. } => {
            let (name, text) = if file == "-" {
                let mut s = String::new();
                if let Err(e) = std::io::stdin().read_to_string(&mut s) {
                    eprintln!("cudalearn: cannot read standard input: {e}");
                    std::process::exit(2);
                }
                ("<stdin>".to_string(), s)
            } else {
                match std::fs::read_to_string(&file) {
                    Ok(s) => {
                        let abs = std::path::absolute(&file)
                            .map(|p| p.display().to_string())
                            .unwrap_or(file.clone());
                        (abs, s)
                    }
                    Err(e) => {
                        eprintln!("cudalearn: can't open file '{file}': {e}");
                        std::process::exit(2);
                    }
                }
            };
            cudalearn::run::with_big_stack(move || cudalearn::run::run_source(&name, text, hints))
        }
    };
    std::process::exit(code);
}
