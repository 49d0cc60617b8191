//! Python's `time` module: the clocks lessons use to time code.
use super::make_module;
use crate::lang::error::type_error;
use crate::lang::value::*;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

thread_local! {
    static START: Instant = Instant::now();
}

fn since_start() -> f64 {
    START.with(|s| s.elapsed().as_secs_f64())
}

pub fn module() -> Value {
    make_module(
        "time",
        &[
            ("time", |_, _, _| {
                Ok(Value::float(
                    SystemTime::now()
                        .duration_since(UNIX_EPOCH)
                        .map(|d| d.as_secs_f64())
                        .unwrap_or(0.0),
                ))
            }),
            ("perf_counter", |_, _, _| Ok(Value::float(since_start()))),
            ("monotonic", |_, _, _| Ok(Value::float(since_start()))),
            ("process_time", |_, _, _| Ok(Value::float(since_start()))),
            ("perf_counter_ns", |_, _, _| {
                Ok(Value::Int((since_start() * 1e9) as i64))
            }),
            ("time_ns", |_, _, _| {
                Ok(Value::Int(
                    SystemTime::now()
                        .duration_since(UNIX_EPOCH)
                        .map(|d| d.as_nanos() as i64)
                        .unwrap_or(0),
                ))
            }),
            ("sleep", |i, _, a| {
                let secs = a
                    .pos
                    .first()
                    .and_then(num_of)
                    .ok_or_else(|| type_error("sleep() needs a number"))?
                    .to_f64();
                if secs < 0.0 {
                    return Err(crate::lang::error::value_error(
                        "sleep length must be non-negative",
                    ));
                }
                // Sleep in small steps so Ctrl-C interrupts promptly.
                // Under a step limit (fuzzing, tests) a sleep is a no-op.
                let secs = if i.step_limit.is_some() { 0.0 } else { secs };
                let end = Instant::now() + std::time::Duration::from_secs_f64(secs.min(1e6));
                while Instant::now() < end {
                    i.tick()?;
                    std::thread::sleep(
                        (end - Instant::now()).min(std::time::Duration::from_millis(20)),
                    );
                }
                Ok(Value::None)
            }),
        ],
        &[],
    )
}
