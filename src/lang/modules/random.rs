//! Python's `random` module: CPython's Mersenne Twister, seeded the way CPython seeds it, so
//! `random.seed(0); random.random()` gives CPython's numbers.
use crate::lang::error::{index_error, type_error, value_error, PyResult};
use crate::lang::interp::Interp;
use crate::lang::symbol::Sym;
use crate::lang::value::*;
use std::cell::RefCell;
use std::rc::Rc;

const N: usize = 624;
const M: usize = 397;

pub struct PyRandom {
    mt: Box<[u32; N]>,
    idx: usize,
    /// `gauss()` makes two normal numbers at a time and keeps the second for the next call.
    gauss_next: Option<f64>,
}

impl Default for PyRandom {
    fn default() -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        let mut r = PyRandom {
            mt: Box::new([0; N]),
            idx: N,
            gauss_next: None,
        };
        r.seed(seed);
        r
    }
}

impl PyRandom {
    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            self.mt[i] = 1812433253u32
                .wrapping_mul(self.mt[i - 1] ^ (self.mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        self.idx = N;
    }

    /// CPython's `init_by_array` over the 32-bit words of |seed|.
    pub fn seed(&mut self, seed: u64) {
        self.gauss_next = None;
        let mut key = vec![seed as u32];
        if seed >> 32 != 0 {
            key.push((seed >> 32) as u32);
        }
        self.init_genrand(19650218);
        let (mut i, mut j) = (1usize, 0usize);
        let mt = &mut self.mt;
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1664525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1566083941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        self.idx = N;
    }

    fn genrand(&mut self) -> u32 {
        if self.idx >= N {
            for k in 0..N {
                let y = (self.mt[k] & 0x8000_0000) | (self.mt[(k + 1) % N] & 0x7fff_ffff);
                let mut v = self.mt[(k + M) % N] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.mt[k] = v;
            }
            self.idx = 0;
        }
        let mut y = self.mt[self.idx];
        self.idx += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// CPython's `Random.gauss`: Box–Muller over two `random()` draws, the sine half kept.
    pub fn gauss(&mut self, mu: f64, sigma: f64) -> f64 {
        let z = match self.gauss_next.take() {
            Some(z) => z,
            None => {
                let x2pi = self.random() * std::f64::consts::TAU;
                let g2rad = (-2.0 * (1.0 - self.random()).ln()).sqrt();
                self.gauss_next = Some(x2pi.sin() * g2rad);
                x2pi.cos() * g2rad
            }
        };
        mu + z * sigma
    }

    pub fn random(&mut self) -> f64 {
        let a = (self.genrand() >> 5) as f64;
        let b = (self.genrand() >> 6) as f64;
        (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
    }

    fn getrandbits(&mut self, k: u32) -> u64 {
        if k <= 32 {
            return (self.genrand() >> (32 - k)) as u64;
        }
        let lo = self.genrand() as u64;
        let hi = (self.genrand() >> (64 - k.min(64))) as u64;
        lo | (hi << 32)
    }

    /// A uniform integer in [0, n), by rejection as CPython's `_randbelow`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }
}

fn rng(i: &mut Interp) -> &mut PyRandom {
    &mut i.random
}

fn int_arg(v: &Value, what: &str) -> PyResult<i64> {
    v.as_int().ok_or_else(|| {
        type_error(format!(
            "'{}' object cannot be interpreted as an integer{what}",
            v.type_name()
        ))
    })
}

pub fn module(interp: &mut Interp) -> Value {
    let _ = interp;
    let m = Module {
        name: PyStr::from("random"),
        attrs: RefCell::new(AttrMap::default()),
    };
    let fns: &[(&'static str, NativeFn)] = &[
        ("seed", |i, _, a| {
            match a.pos.first() {
                Some(Value::Int(s)) => rng(i).seed(s.unsigned_abs()),
                Some(Value::Bool(b)) => rng(i).seed(*b as u64),
                None | Some(Value::None) => *rng(i) = PyRandom::default(),
                Some(other) => {
                    return Err(type_error(format!(
                        "cudalearn's random.seed takes an int, not {}",
                        other.type_name()
                    )))
                }
            }
            Ok(Value::None)
        }),
        ("random", |i, _, _| Ok(Value::float(rng(i).random()))),
        ("gauss", |i, _, a| {
            let arg = |k: usize, default: f64| match a.pos.get(k) {
                None => Ok(default),
                Some(v) => num_of(v)
                    .map(|n| n.to_f64())
                    .ok_or_else(|| type_error("gauss() needs numbers")),
            };
            let (mu, sigma) = (arg(0, 0.0)?, arg(1, 1.0)?);
            Ok(Value::float(rng(i).gauss(mu, sigma)))
        }),
        ("uniform", |i, _, a| {
            let x = num_of(a.pos.first().unwrap_or(&Value::None))
                .ok_or_else(|| type_error("uniform() needs numbers"))?
                .to_f64();
            let y = num_of(a.pos.get(1).unwrap_or(&Value::None))
                .ok_or_else(|| type_error("uniform() needs numbers"))?
                .to_f64();
            Ok(Value::float(x + (y - x) * rng(i).random()))
        }),
        ("randint", |i, _, a| {
            if a.pos.len() != 2 {
                return Err(type_error(format!(
                    "Random.randint() missing {} required positional argument{}",
                    2 - a.pos.len().min(2),
                    if a.pos.len() == 1 {
                        ": 'b'"
                    } else {
                        "s: 'a' and 'b'"
                    }
                )));
            }
            let lo = int_arg(&a.pos[0], "")?;
            let hi = int_arg(&a.pos[1], "")?;
            if hi < lo {
                return Err(value_error(format!(
                    "empty range in randrange({lo}, {})",
                    hi + 1
                )));
            }
            let n = (hi - lo) as u64 + 1;
            Ok(Value::Int(lo + rng(i).below(n) as i64))
        }),
        ("randrange", |i, _, a| {
            let (lo, hi) = match a.pos.as_slice() {
                [h] => (0, int_arg(h, "")?),
                [l, h, ..] => (int_arg(l, "")?, int_arg(h, "")?),
                _ => return Err(type_error("randrange expected at least 1 argument, got 0")),
            };
            if hi <= lo {
                return Err(value_error(format!("empty range in randrange({lo}, {hi})")));
            }
            Ok(Value::Int(lo + rng(i).below((hi - lo) as u64) as i64))
        }),
        ("choice", |i, _, a| {
            let seq = i.collect(a.pos.first().unwrap_or(&Value::None))?;
            if seq.is_empty() {
                return Err(index_error("Cannot choose from an empty sequence"));
            }
            let k = rng(i).below(seq.len() as u64) as usize;
            Ok(seq[k].clone())
        }),
        ("shuffle", |i, _, a| {
            let Some(Value::List(l)) = a.pos.first() else {
                return Err(type_error("cudalearn's random.shuffle takes a list"));
            };
            let n = l.borrow().len();
            for k in (1..n).rev() {
                let j = rng(i).below(k as u64 + 1) as usize;
                l.borrow_mut().swap(k, j);
            }
            Ok(Value::None)
        }),
        ("sample", |i, _, a| {
            let pop = i.collect(a.pos.first().unwrap_or(&Value::None))?;
            let k = int_arg(a.pos.get(1).unwrap_or(&Value::None), "")?;
            let n = pop.len();
            if k < 0 || k as usize > n {
                return Err(value_error("Sample larger than population or is negative"));
            }
            let k = k as usize;
            // CPython picks the set-based method for large populations, the pool otherwise.
            let mut setsize = 21usize;
            if k > 5 {
                setsize += 4usize.pow(((k * 3) as f64).log(4.0).ceil() as u32);
            }
            let mut out = Vec::with_capacity(k);
            if n <= setsize {
                let mut pool = pop.clone();
                for j in 0..k {
                    let r = rng(i).below((n - j) as u64) as usize;
                    out.push(pool[r].clone());
                    pool[r] = pool[n - j - 1].clone();
                }
            } else {
                let mut selected = std::collections::HashSet::new();
                for _ in 0..k {
                    let mut r = rng(i).below(n as u64) as usize;
                    while selected.contains(&r) {
                        r = rng(i).below(n as u64) as usize;
                    }
                    selected.insert(r);
                    out.push(pop[r].clone());
                }
            }
            Ok(Value::list(out))
        }),
    ];
    for (name, f) in fns {
        m.attrs.borrow_mut().insert(
            Sym::new(name),
            Value::Builtin(Rc::new(Builtin {
                name,
                f: *f,
                this: None,
            })),
        );
    }
    Value::Module(Rc::new(m))
}
