//! Argument parsing and dispatch only.
use clap::{Parser, Subcommand};
use std::io::Read;

#[derive(Parser)]
#[command(
    name = "cudalearn",
    version,
    about = "Learn how PyTorch uses the GPU by doing it: a Python + PyTorch REPL and lesson runner",
    long_about = "cudalearn runs a faithful subset of Python and PyTorch on its own tensor engine \
                  and explains errors as it goes. This version computes on the CPU; the CUDA \
                  backend and the simulated GPU are the next part of the engine.\n\n\
                  Start with `cudalearn repl`, or run a script with `cudalearn run FILE.py`."
)]
struct Cli {
    /// Do not print cudalearn's `hint:` lines after errors.
    #[arg(long, global = true)]
    no_hints: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Start the interactive Python prompt (the default).
    Repl(ReplArgs),
    /// Run a Python script (use `-` to read it from standard input); exits 1 on an uncaught error.
    Run {
        /// The script to run, or `-` for standard input.
        file: String,
    },
    /// List the lessons, with your progress in each.
    Lessons,
    /// Step through a lesson (its number, name or a path to a .md file), or check it.
    Lesson(LessonArgs),
    /// Measure the engine: matmul, elementwise and per-op speed (CPU; the GPU when present).
    Bench {
        /// Only the CPU measurements.
        #[arg(long)]
        cpu: bool,
    },
}

#[derive(clap::Args)]
struct LessonArgs {
    /// The lesson: its number (`3`), name (`devices`) or a path to a lesson file.
    #[arg(required_unless_present = "check_all")]
    lesson: Option<String>,
    /// Run every block and exercise without stopping, print the transcript, and exit 1 if
    /// anything differs from what the lesson expects.
    #[arg(long)]
    check: bool,
    /// For lesson authors: check every lesson on cpu and on the simulated GPU.
    #[arg(long, conflicts_with_all = ["lesson", "check"])]
    check_all: bool,
    /// The device to run on (default: the CPU, or a GPU, real or simulated, for lessons that
    /// need one).
    #[arg(long, value_enum)]
    device: Option<DeviceArg>,
}

#[derive(clap::ValueEnum, Clone, Copy)]
enum DeviceArg {
    Cpu,
    Cuda,
    Sim,
}

impl From<DeviceArg> for cudalearn::lesson::check::DeviceKind {
    fn from(d: DeviceArg) -> Self {
        match d {
            DeviceArg::Cpu => Self::Cpu,
            DeviceArg::Cuda => Self::Cuda,
            DeviceArg::Sim => Self::Sim,
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

fn main() {
    let cli = Cli::parse();
    let hints = !cli.no_hints;
    let code = match cli.command.unwrap_or(Command::Repl(ReplArgs::default())) {
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
            let device = args.device.map(Into::into);
            cudalearn::run::with_big_stack(move || match (args.check_all, args.lesson) {
                (true, _) => cudalearn::lesson::check_all(device),
                (false, Some(arg)) => cudalearn::lesson::lesson(&arg, args.check, device, hints),
                (false, None) => 2,
            })
        }
        Command::Bench { cpu: _ } => cudalearn::run::with_big_stack(|| {
            println!("cudalearn bench (CPU engine; compare: torch-golden benches/pytorch_cpu.py)");
            cudalearn::bench::print_rows(&cudalearn::bench::cpu_suite());
            0
        }),
        Command::Run { file } => {
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
