//! `os`, reduced to what a distributed script reads: `os.environ` and `os.getenv`, holding only
//! the variables the launcher sets (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE,
//! MASTER_ADDR, MASTER_PORT). The rest of the environment stays out of the language: lessons
//! and snippets must not depend on the machine they run on.
use super::make_module;
use crate::lang::interp::dict_insert_pub;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

/// The variables `cudalearn run --nproc-per-node` sets, as torchrun does.
pub const LAUNCHER_VARS: &[&str] = &[
    "RANK",
    "LOCAL_RANK",
    "WORLD_SIZE",
    "LOCAL_WORLD_SIZE",
    "MASTER_ADDR",
    "MASTER_PORT",
];

fn environ() -> Value {
    let mut m = DictMap::default();
    for name in LAUNCHER_VARS {
        if let Ok(v) = std::env::var(name) {
            dict_insert_pub(&mut m, Key(Value::str(name)), Value::str(&v));
        }
    }
    Value::Dict(Rc::new(RefCell::new(m)))
}

pub fn module() -> Value {
    let env = environ();
    make_module(
        "os",
        &[("getenv", |i, _, a| {
            let key = a.pos.first().cloned().unwrap_or(Value::None);
            let default = a.pos.get(1).cloned().unwrap_or(Value::None);
            let Value::Str(k) = &key else {
                return Err(crate::lang::error::type_error(format!(
                    "str expected, not {}",
                    key.type_name()
                )));
            };
            let os = i.import("os")?;
            let env = i.get_attr(&os, crate::lang::symbol::Sym::new("environ"))?;
            if let Value::Dict(d) = env {
                if let Some(v) = d.borrow().get(&Key(Value::Str(k.clone()))) {
                    return Ok(v.clone());
                }
            }
            Ok(default)
        })],
        &[("environ", env), ("sep", Value::str("/"))],
    )
}
