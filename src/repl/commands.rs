//! The REPL's own `:` commands, kept apart from Python.
use super::session::{Flow, Session};
use crate::lang::value::Value;
use std::time::{Duration, Instant};

pub const HELP: &str = "\
cudalearn runs Python and PyTorch code as you type it.

  :help        this help
  :vars        your variables, with their types and values
  :time STMT   run STMT and print how long it took (wall time)
  :profile STMT  run STMT and show each op's device, kernels, bytes, copies, syncs and time
  :reset       forget every variable and import
  :device      which GPU cudalearn uses (a real one, the simulated one, or none)
  :smi         the GPU table (also !nvidia-smi; built in, runs no shell)
  :quit        leave (also Ctrl-D, exit() or quit())

Keys:
  Tab          complete names, keywords and attributes (`xs.app` + Tab)
  Up / Down    earlier entries (kept between sessions)
  Ctrl-C       clear the line, or stop a running program (variables are kept)
  Ctrl-D       leave

A line ending in ':' (def, for, if, ...) starts a block: type its indented lines,
then an empty line to run it. Expression values are printed with repr(), as in Python.
";

/// Runs a line that starts with `:`.
pub fn run(session: &Session, line: &str) -> Flow {
    let line = line.trim();
    let (name, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    match name {
        ":help" | ":h" | ":?" => {
            print!("{HELP}");
            if session.lesson {
                println!("\n  :next        back to the lesson (also Ctrl-D); your variables stay");
            }
        }
        ":vars" | ":v" => vars(session),
        ":time" | ":t" => {
            if rest.is_empty() {
                eprintln!("usage: :time STATEMENT   (for example  :time sum(range(10**6)))");
            } else {
                let start = Instant::now();
                let flow = session.run_code(&format!("{rest}\n"), true);
                let took = start.elapsed();
                if flow != Flow::Continue {
                    return flow;
                }
                println!("wall time: {}", format_duration(took));
            }
        }
        ":profile" | ":prof" => return super::profile::run(session, rest),
        ":reset" => {
            if let Ok(mut interp) = session.interp.try_borrow_mut() {
                interp.reset();
            }
            println!("All variables and imports forgotten.");
        }
        ":quit" | ":q" | ":exit" => return Flow::Exit(0),
        ":device" => println!("{}", crate::info::device_line()),
        ":smi" | "!nvidia-smi" => print!("{}", crate::info::smi()),
        ":next" | ":n" if session.lesson => return Flow::Next,
        ":next" | ":n" => {
            eprintln!(":next goes back to a lesson from its REPL; no lesson is running")
        }
        _ if name.starts_with('!') => eprintln!(
            "cudalearn runs no shell commands; the one built in is !nvidia-smi (also :smi)"
        ),
        _ => {
            let known = [
                "help", "vars", "time", "profile", "reset", "device", "smi", "quit",
            ];
            let typed = name.trim_start_matches(':');
            let close = known
                .iter()
                .find(|k| !typed.is_empty() && (k.starts_with(typed) || typed.starts_with(*k)));
            match close {
                Some(k) => {
                    eprintln!("unknown command '{name}': did you mean ':{k}'? (:help lists them)")
                }
                None => eprintln!("unknown command '{name}' (:help lists the commands)"),
            }
        }
    }
    Flow::Continue
}

/// `:vars`: each user variable with its type and a one-line, shortened repr.
fn vars(session: &Session) {
    let Ok(mut interp) = session.interp.try_borrow_mut() else {
        return;
    };
    crate::signals::clear();
    let mut rows = Vec::new();
    for sym in interp.global_names() {
        let name = sym.as_str();
        if name.starts_with("__") || &*name == "_" {
            continue;
        }
        let Some(value) = interp.get_global(sym).cloned() else {
            continue;
        };
        if matches!(value, Value::Module(_)) {
            continue;
        }
        let ty = value.type_name().to_string();
        let repr = match interp.repr(&value) {
            Ok(r) => one_line(&r, 60),
            Err(_) => "<repr() failed>".to_string(),
        };
        rows.push((name.to_string(), ty, repr));
    }
    if rows.is_empty() {
        println!("(no variables yet)");
        return;
    }
    let w_name = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let w_ty = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    for (name, ty, repr) in rows {
        println!("{name:<w_name$}  {ty:<w_ty$}  {repr}");
    }
}

/// Collapses a (possibly multi-line) repr to one line of at most `max` characters.
pub fn one_line(s: &str, max: usize) -> String {
    let joined: Vec<&str> = s.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let joined = joined.join(" ");
    if joined.chars().count() <= max {
        return joined;
    }
    let cut: String = joined.chars().take(max.saturating_sub(3)).collect();
    format!("{cut}...")
}

pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_collapses_and_cuts() {
        assert_eq!(
            one_line("tensor([[1., 2.],\n        [3., 4.]])", 60),
            "tensor([[1., 2.], [3., 4.]])"
        );
        assert_eq!(one_line(&"x".repeat(100), 10), "xxxxxxx...");
    }

    #[test]
    fn durations_pick_a_unit() {
        assert_eq!(format_duration(Duration::from_micros(12)), "12.0 µs");
        assert_eq!(format_duration(Duration::from_millis(12)), "12.00 ms");
        assert_eq!(format_duration(Duration::from_millis(1500)), "1.500 s");
    }
}
