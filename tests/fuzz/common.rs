//! Shared by `tests/fuzz.rs` (a short deterministic run in CI) and `examples/fuzz.rs` (the long
//! driver): random program generators and the harness that runs one program text through the
//! lexer, parser, resolver and evaluator with a step bound, catching panics.
//!
//! Three generators, all deterministic functions of `(seed, index)` so any input can be
//! regenerated from its number alone:
//! - token soup: random Python tokens, keywords, brackets, indentation, strings, numbers, f-strings;
//! - grammar: random but mostly well-formed programs (blocks, defs, classes, comprehensions,
//!   try/with, f-strings with specs, builtins with random arguments, huge values, deep recursion);
//! - mutation: byte flips, splices, truncations and line edits of the conformance corpus.
#![allow(dead_code)]

use std::cell::RefCell;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

// ---------------------------------------------------------------------------------------------
// Random numbers

/// SplitMix64: tiny, fast, and good enough to drive generators.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The generator for input number `index` of a run seeded with `seed`.
    pub fn for_input(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        r.next();
        r
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    pub fn s(&mut self, xs: &[&'static str]) -> &'static str {
        xs[self.below(xs.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Inputs

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Soup,
    Grammar,
    Mutation,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Soup, Kind::Grammar, Kind::Mutation];
    pub fn name(self) -> &'static str {
        match self {
            Kind::Soup => "soup",
            Kind::Grammar => "grammar",
            Kind::Mutation => "mutation",
        }
    }
}

/// How far the generators may go. CI keeps allocations small; the long run allows values up to
/// the interpreter's own limits (a 1 GiB string, a list of 10**8 items).
#[derive(Clone, Copy)]
pub struct Config {
    pub big_allocations: bool,
    /// Leave out programs that hit known, not yet fixed aborts (the `open_*` sections of
    /// `tests/fuzz_regressions.txt`), so that CI stays green while they are open.
    pub skip_open_bugs: bool,
}

/// Corpus snippets: every `# %% name` section of `tests/conformance/*.py` and of
/// `tests/fuzz_regressions.txt`.
pub fn load_corpus() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("tests/conformance"))
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "py"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files.push(root.join("tests/fuzz_regressions.txt"));
    let mut out = Vec::new();
    for f in files {
        if let Ok(text) = std::fs::read_to_string(&f) {
            out.extend(split_sections(&text).into_iter().map(|(_, mut body)| {
                if !body.ends_with('\n') {
                    body.push('\n');
                }
                body
            }));
        }
    }
    if out.is_empty() {
        out.push("x = 1\nprint(x)\n".to_string());
    }
    out
}

/// Splits a file on lines starting `# %% ` into `(name, body)` pairs.
pub fn split_sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("# %% ") {
            out.push((name.trim().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
        }
    }
    out
}

/// Input number `index` of the run seeded with `seed`.
pub fn generate(seed: u64, index: u64, corpus: &[String], cfg: Config) -> (Kind, String) {
    let mut rng = Rng::for_input(seed, index);
    let roll = rng.below(100);
    if roll < 30 {
        (Kind::Soup, soup(&mut rng))
    } else if roll < 70 {
        (Kind::Grammar, Grammar::program(&mut rng, cfg))
    } else {
        (Kind::Mutation, mutate(&mut rng, corpus))
    }
}

// ---------------------------------------------------------------------------------------------
// Generator 1: token soup

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield", "match", "case", "print", "len", "range", "self", "super", "type",
];

const OPS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "...", "->", "+=", "-=", "*=", "/=", "%=", "@=", "&=", "|=", "^=",
    "**", "//", "<<", ">>", "<=", ">=", "==", "!=", ":=", "+", "-", "*", "/", "%", "@", "&", "|",
    "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=", "!", "$", "?", "`",
    "\\", "\\\n", "(", "[", "{", ")", "]", "}",
];

const NAMES: &[&str] = &[
    "x", "y", "a", "b", "f", "g", "C", "e", "i", "n", "s", "d", "lst", "_", "__init__", "__repr__",
    "append", "format", "math", "time", "random", "torch", "é", "π", "Ünï", "x1", "_x_",
];

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "00",
    "007",
    "0x",
    "0xff",
    "0XFF",
    "0o17",
    "0o8",
    "0b101",
    "0b2",
    "1_000",
    "1__0",
    "1_",
    "_1",
    "1e5",
    "1e",
    "1e+",
    "1E-5",
    "1.5",
    ".5",
    "5.",
    "1.2.3",
    "1j",
    "1.5J",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "99999999999999999999999999999",
    "1e308",
    "1e309",
    "1e-400",
    "4.9e-324",
    "0.1",
    "1_0.0_1",
    "0x_f",
    "0b",
    "0o",
    "1e1_0",
    "10**9",
    "10**18",
    "2**63",
    "2**64",
    "10**10**10",
    "0e0",
    "1.e5",
];

const STRINGS: &[&str] = &[
    "''",
    "\"\"",
    "'a'",
    "\"b\"",
    "'''t'''",
    "\"\"\"tt\"\"\"",
    "r'\\d'",
    "b'x'",
    "rb'x'",
    "u'x'",
    "'\\n'",
    "'\\x41'",
    "'\\x4'",
    "'\\u00e9'",
    "'\\u12'",
    "'\\U0001F600'",
    "'\\U99999999'",
    "'\\N{BULLET}'",
    "'\\N{'",
    "'\\777'",
    "'\\0'",
    "'\\'",
    "'abc",
    "\"abc",
    "'''abc",
    "'\\\n'",
    "'é'",
    "'日本'",
    "'😀'",
    "'\\q'",
    "R'x'",
    "Rb''",
    "br''",
    "'a' 'b'",
    "\"'\"",
    "'\"'",
    "'''\n'''",
    "\"\"\"\"\"\"",
];

const FSTRINGS: &[&str] = &[
    "f''",
    "f'{x}'",
    "f'{x!r}'",
    "f'{x!s:>10}'",
    "f'{x:.3f}'",
    "f'{x:{w}.{p}}'",
    "f'{{'",
    "f'}}'",
    "f'{'",
    "f'}'",
    "f'{}'",
    "f'{x!}'",
    "f'{x!z}'",
    "f'{x:'",
    "f'{x=}'",
    "f'{x = }'",
    "f'{\"a\"}'",
    "f'{f\"{x}\"}'",
    "f'{x:{y:{z}}}'",
    "rf'{x}\\n'",
    "fr'{x}'",
    "f'''{\nx\n}'''",
    "f'{lambda x: x}'",
    "f'{x:,}'",
    "f'{x:_b}'",
    "f'{x:#x}'",
    "f'{x:=^30}'",
    "f'{x:%}'",
    "f'{3.5:e}'",
    "f'{[1,2][0]}'",
    "f'{x:99999999999}'",
    "f'{x:.99999999999f}'",
    "f'{x:\\n}'",
    "f'{#}'",
    "f'{x!r:}'",
    "f'{ }'",
    "f'{x}}'",
    "f'{{x}'",
    "f'{x:{{}}}'",
    "f'{*x}'",
    "f'{yield}'",
    "f'{x:{\"<\"}10}'",
    "f\"{'a' 'b'}\"",
    "f'{1:{2:{3:{4}}}}'",
    "f'\\{x}'",
    "f'{x:.{}}'",
    "f'{x:c}'",
    "f'{-1:c}'",
    "f'{x:n}'",
    "f'{\"\\n\"}'",
];

const ODD: &[&str] = &[
    "\u{0}",
    "\t",
    "\r",
    "\r\n",
    "\x0c",
    "\u{feff}",
    "\u{200b}",
    "\u{301}",
    "é",
    "😀",
    "€",
    "\u{2028}",
    "\u{ff08}",
    "ℌ",
    "ﬁ",
    "\u{7f}",
    "#",
    "# comment\n",
    "\"\"\"",
    "'''",
    "@",
];

fn soup_token(rng: &mut Rng, out: &mut String) {
    match rng.below(100) {
        0..=17 => out.push_str(rng.s(KEYWORDS)),
        18..=37 => out.push_str(rng.s(OPS)),
        38..=49 => out.push_str(rng.s(NAMES)),
        50..=59 => out.push_str(rng.s(NUMBERS)),
        60..=67 => out.push_str(rng.s(STRINGS)),
        68..=74 => out.push_str(rng.s(FSTRINGS)),
        75..=84 => {
            out.push('\n');
            let n = rng.below(9);
            for _ in 0..n {
                out.push(if rng.chance(85) { ' ' } else { '\t' });
            }
        }
        85..=89 => out.push_str(rng.s(ODD)),
        90..=94 => out.push(char::from(32 + rng.below(95) as u8)),
        _ => {
            // A random scalar value from anywhere in Unicode.
            let c = loop {
                if let Some(c) = char::from_u32(rng.below(0x11_0000) as u32) {
                    break c;
                }
            };
            out.push(c);
        }
    }
}

pub fn soup(rng: &mut Rng) -> String {
    let mut out = String::new();
    let n = match rng.below(10) {
        0 => rng.below(4),
        1..=6 => 1 + rng.below(25),
        7 | 8 => 1 + rng.below(120),
        _ => 1 + rng.below(600),
    };
    for _ in 0..n {
        soup_token(rng, &mut out);
        if rng.chance(60) {
            out.push(' ');
        }
    }
    if rng.chance(50) {
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Generator 2: grammar-based programs

pub struct Grammar<'r> {
    rng: &'r mut Rng,
    out: String,
    indent: usize,
    depth: usize,
    /// Statement budget for the whole program.
    budget: usize,
    in_func: bool,
    in_loop: bool,
    in_class: bool,
    cfg: Config,
}

const VARS: &[&str] = &[
    "x",
    "y",
    "z",
    "a",
    "b",
    "s",
    "n",
    "lst",
    "d",
    "t",
    "st",
    "f",
    "g",
    "C",
    "D",
    "obj",
    "e",
    "i",
    "k",
    "v",
    "it",
    "self",
    "undefined_name",
    "math",
    "random",
    "time",
];

const BUILTINS: &[&str] = &[
    "print",
    "len",
    "range",
    "enumerate",
    "zip",
    "isinstance",
    "type",
    "str",
    "repr",
    "int",
    "float",
    "bool",
    "list",
    "tuple",
    "dict",
    "set",
    "min",
    "max",
    "sum",
    "abs",
    "round",
    "sorted",
    "reversed",
    "any",
    "all",
    "hasattr",
    "getattr",
    "setattr",
    "iter",
    "next",
    "id",
    "help",
    "dir",
    "issubclass",
    "chr",
    "ord",
    "hash",
    "divmod",
    "pow",
    "map",
    "filter",
    "format",
    "vars",
    "callable",
    "hex",
    "bin",
    "oct",
    "super",
    "object",
    "input",
    "open",
    "exec",
    "eval",
    "Exception",
    "ValueError",
    "TypeError",
    "KeyError",
    "IndexError",
    "RuntimeError",
    "StopIteration",
    "ZeroDivisionError",
    "AssertionError",
    "NotImplementedError",
    "NameError",
    "AttributeError",
    "KeyboardInterrupt",
    "BaseException",
    "SystemExit",
    "MemoryError",
    "RecursionError",
    "OverflowError",
    "ArithmeticError",
    "LookupError",
    "frozenset",
    "slice",
    "NotImplemented",
    "Ellipsis",
    "globals",
    "locals",
    "staticmethod",
    "classmethod",
    "property",
];

const METHODS: &[&str] = &[
    "upper",
    "lower",
    "strip",
    "lstrip",
    "rstrip",
    "split",
    "rsplit",
    "splitlines",
    "join",
    "replace",
    "count",
    "format",
    "rjust",
    "ljust",
    "center",
    "zfill",
    "isnumeric",
    "isalpha",
    "isdigit",
    "title",
    "capitalize",
    "swapcase",
    "partition",
    "rpartition",
    "index",
    "rindex",
    "find",
    "rfind",
    "startswith",
    "endswith",
    "encode",
    "append",
    "extend",
    "insert",
    "pop",
    "remove",
    "sort",
    "reverse",
    "copy",
    "clear",
    "get",
    "keys",
    "values",
    "items",
    "popitem",
    "setdefault",
    "update",
    "add",
    "discard",
    "intersection",
    "union",
    "difference",
    "symmetric_difference",
    "issubset",
    "issuperset",
    "bit_length",
    "conjugate",
    "is_integer",
    "real",
    "imag",
    "__class__",
    "__name__",
    "__dict__",
    "__init__",
    "__repr__",
    "__len__",
    "args",
    "sqrt",
    "floor",
    "ceil",
    "log",
    "exp",
    "pi",
    "inf",
    "nan",
    "isnan",
    "isclose",
    "factorial",
    "gcd",
    "comb",
    "perm",
    "prod",
    "fsum",
    "hypot",
    "atan2",
    "trunc",
    "pow",
    "fmod",
    "seed",
    "randint",
    "random",
    "choice",
    "shuffle",
    "uniform",
    "gauss",
    "sample",
    "randrange",
    "perf_counter",
    "time",
    "sleep",
    "monotonic",
];

const SPECS: &[&str] = &[
    "",
    ">5",
    "<5",
    "^9",
    "*^7",
    "05",
    "+",
    "-",
    " ",
    ",",
    "_",
    ".2f",
    ".0f",
    ".3e",
    ".2%",
    "g",
    ".10g",
    "x",
    "#x",
    "#o",
    "b",
    "#b",
    "X",
    "c",
    "d",
    "n",
    "s",
    "r",
    ">+10.3f",
    "=+010",
    ",.2f",
    "_x",
    "e",
    "E",
    "%",
    "#",
    ".1000f",
    "99999",
    ".99999999999",
    "1000000000",
    "#.0f",
    "0=30",
    ".0e",
    ".17g",
    "-^#30,.3%",
    "zz",
    ".",
    "10.",
    "<",
    "=",
    "0.-1f",
];

const PERCENT: &[&str] = &[
    "%s",
    "%d",
    "%i",
    "%r",
    "%5.2f",
    "%-8s",
    "%05d",
    "%x",
    "%X",
    "%o",
    "%e",
    "%g",
    "%%",
    "%c",
    "%(a)s",
    "%*d",
    "%.*f",
    "%+d",
    "% d",
    "%#x",
    "%",
    "%z",
    "%10000000000d",
    "%.3s",
    "%a",
];

/// Definitions for the names the grammar uses, so programs get past their first line.
const PRELUDE: &[&str] = &[
    "import math, random, time",
    "x = 5",
    "y = 2.5",
    "z = -3",
    "a = [3, 1, 2]",
    "b = (1, 'two', 3.0)",
    "s = 'hello'",
    "n = 0",
    "lst = [1, [2, 3], 'x']",
    "d = {'a': 1, 'b': [2]}",
    "t = (1, 2)",
    "st = {1, 2, 3}",
    "k, v = 'k', 'v'",
    "e = ValueError('bad')",
    "it = iter([1, 2, 3])",
    "def f(*args, **kw): return args",
    "def g(p=1, *a, q=2, **k): return p",
    "class C:\n    def __init__(self, *a): self.attr = a\n    def m(self): return self.attr",
    "class D(C):\n    def __repr__(self): return 'D!'\n    def __enter__(self): return self\n    def __exit__(self, *a): return False",
    "class A(Exception): pass",
    "obj = D(1)",
];

impl<'r> Grammar<'r> {
    pub fn program(rng: &'r mut Rng, cfg: Config) -> String {
        let budget = match rng.below(10) {
            0..=5 => 1 + rng.below(8),
            6..=8 => 5 + rng.below(30),
            _ => 20 + rng.below(120),
        };
        let mut g = Grammar {
            rng,
            out: String::new(),
            indent: 0,
            depth: 0,
            budget,
            in_func: false,
            in_loop: false,
            in_class: false,
            cfg,
        };
        if g.rng.chance(60) {
            for l in PRELUDE {
                if g.rng.chance(70) {
                    g.line(l);
                }
            }
        }
        if g.rng.chance(15) {
            g.special();
        }
        // Wrapping each top-level statement lets a program go on past its first error.
        let wrap = g.rng.chance(50);
        while g.budget > 0 {
            if wrap {
                g.line("try:");
                g.indent += 1;
                g.stmt();
                g.indent -= 1;
                let handler = g.rng.s(&[
                    "except BaseException:",
                    "except Exception as _e:",
                    "finally:",
                ]);
                g.line(handler);
                g.line("    pass");
            } else {
                g.stmt();
            }
        }
        if g.rng.chance(20) {
            g.special();
        }
        g.out
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn var(&mut self) -> String {
        self.rng.pick(VARS).to_string()
    }

    fn block(&mut self) {
        self.indent += 1;
        self.depth += 1;
        let n = 1 + self.rng.below(3);
        for _ in 0..n {
            self.stmt();
        }
        self.depth -= 1;
        self.indent -= 1;
    }

    /// Programs aimed at the known-hard corners: recursion, self-reference, huge values.
    fn special(&mut self) {
        let big = self.cfg.big_allocations;
        let huge_n = self.huge_count();
        let mut case = self.rng.below(22);
        if self.cfg.skip_open_bugs && (5..=8).contains(&case) {
            case = 0;
        }
        let lines: Vec<String> = match case {
            0 => vec!["def f(): return f()".into(), "f()".into()],
            1 => vec!["def f(n): return f(n + 1) + 1".into(), "print(f(0))".into()],
            2 => vec![
                "def a(n): return b(n)".into(),
                "def b(n): return a(n)".into(),
                "a(1)".into(),
            ],
            3 => vec![
                "class A:".into(),
                "    def __repr__(self): return repr(self)".into(),
                "print(A())".into(),
            ],
            4 => vec![
                "class A:".into(),
                "    def __eq__(self, o): return self == o".into(),
                "A() == A()".into(),
            ],
            5 => vec![
                "x = []".into(),
                "x.append(x)".into(),
                format!(
                    "print({})",
                    self.pick_of(&[
                        "x",
                        "str(x)",
                        "x == x",
                        "x in x",
                        "len(x)",
                        "repr(x)",
                        "sorted(x)",
                        "x + x",
                        "x * 3",
                        "set(x)",
                        "hash(x)",
                        "f'{x}'",
                        "x < x"
                    ])
                ),
            ],
            6 => vec![
                "d = {}".into(),
                "d['k'] = d".into(),
                format!(
                    "print({})",
                    self.pick_of(&[
                        "d",
                        "str(d)",
                        "d == d",
                        "list(d.items())",
                        "d.copy()",
                        "repr(d)",
                        "{**d}"
                    ])
                ),
            ],
            7 => vec![
                "x = []".into(),
                "y = []".into(),
                "x.append(y)".into(),
                "y.append(x)".into(),
                format!(
                    "print({})",
                    self.pick_of(&["x == y", "x", "x < y", "x in y", "[x] == [y]"])
                ),
            ],
            8 => vec![
                "x = 0".into(),
                format!(
                    "for i in range({}):",
                    self.rng.pick(&[10, 1000, 5000, 100000])
                ),
                format!(
                    "    x = {}",
                    self.pick_of(&["[x]", "(x,)", "{'k': x}", "[x, x]", "lambda: x"])
                ),
                format!(
                    "print({})",
                    self.pick_of(&[
                        "len(str(x))",
                        "x == x",
                        "x",
                        "repr(x)[:10]",
                        "type(x)",
                        "hash(x)"
                    ])
                ),
            ],
            9 => {
                if big {
                    vec![
                        format!(
                            "s = 'a' * {}",
                            self.pick_of(&[
                                "10**9", "10**8", "2**30", "2**31", "2**40", "-1", "10**18"
                            ])
                        ),
                        "print(len(s))".into(),
                    ]
                } else {
                    vec![
                        format!(
                            "s = 'a' * {}",
                            self.pick_of(&["2**31", "2**40", "-1", "10**18", "10**12"])
                        ),
                        "print(len(s))".into(),
                    ]
                }
            }
            10 => vec![format!("x = [0] * {huge_n}"), "print(len(x))".into()],
            11 => vec![format!("x = (1, 2) * {huge_n}"), "print(len(x))".into()],
            12 => vec![format!(
                "print({})",
                self.pick_of(&[
                    "2**63",
                    "-2**63",
                    "2**63 - 1 + 1",
                    "-(-2**63)",
                    "abs(-2**63)",
                    "-2**63 // -1",
                    "-2**63 % -1",
                    "(-2**63) * -1",
                    "9223372036854775807 + 1",
                    "10**19",
                    "2**-1074",
                    "2.0**10000",
                    "10.0**400",
                    "int(1e308)",
                    "int(float('inf'))",
                    "int(float('nan'))",
                    "round(1e308, -400)",
                    "round(2**62, -18)",
                    "divmod(-2**63, -1)",
                    "pow(2, 63)",
                    "pow(3, -1, 7)",
                    "pow(2, 10**18, 10**9)",
                    "1 << 63",
                    "1 << 64",
                    "1 << -1",
                    "-1 >> 100",
                    "~(2**63-1)",
                    "abs(-9223372036854775807 - 1)",
                    "hash(-1)",
                    "int('9' * 30)",
                    "float('9' * 400)",
                    "str(10**18)",
                    "-9223372036854775807 - 1 // 1"
                ])
            )],
            13 => vec![format!(
                "print({})",
                self.pick_of(&[
                    "range(10**18)[-1]",
                    "len(range(-2**63, 2**63-1))",
                    "range(0, 2**62, -1)",
                    "list(range(10**12))",
                    "sum(range(10**12))",
                    "range(-2**63, 2**63 - 1)[10]",
                    "range(2**63-1)[::-1]",
                    "range(5)[::0]",
                    "range(0)[0]",
                    "range(1,10,3)[-2**63]",
                    "range(-2**63, 0)[::-1][0]",
                    "sorted(range(10**9))",
                    "set(range(10**9))",
                    "'x'.join(str(i) for i in range(10**9))",
                    "list(zip(range(10**12), 'ab'))",
                    "tuple(range(10**10))",
                    "dict.fromkeys(range(10**12))",
                    "bytes(10**12)",
                    "[x for x in range(10**12)]",
                    "max(range(10**12))",
                    "sum([[1]] * 10**3, [])",
                    "list(range(10**12))[5]",
                    "reversed(range(-2**63, 2**63-1))",
                    "range(-2**63, 2**63-1, 2**62)[3]",
                    "len(range(0, 10**18, 3))",
                    "range(10)[2**63-1:]",
                    "range(3)[-2**63:2**63-1:-2**63]"
                ])
            )],
            14 => vec![format!(
                "print({})",
                self.pick_of(&[
                    "'%d' % 2**63",
                    "'%*d' % (2**40, 1)",
                    "'%.*f' % (2**40, 1.0)",
                    "'{:{}}'.format(1, 2**40)",
                    "'{0:{1}.{2}f}'.format(1.5, 10**10, 5)",
                    "format(1.5, '.2147483648f')",
                    "format(10**18, ',')",
                    "format(-2**63, 'x')",
                    "format(-2**63, '#b')",
                    "f'{-2**63:,}'",
                    "'{:c}'.format(0x110000)",
                    "chr(0x110000)",
                    "chr(-1)",
                    "'%c' % 55296",
                    "chr(0xD800)",
                    "'{}'.format(*range(10**6))",
                    "'{0[999999999999]}'.format([])",
                    "'{0.__class__}'.format(1)",
                    "'{:0>{}}'.format(1, -5)",
                    "'x'.center(10**12)",
                    "'x'.zfill(2**62)",
                    "'x'.ljust(2**63-1)",
                    "'ab'.expandtabs(10**12)",
                    "' '.join(['a'] * 10**6)",
                    "'a'.replace('', 'b' * 10**5)",
                    "'ab' * (2**62)",
                    "'%s' * 10**9 % ()",
                    "str(-0.0)",
                    "repr(1e-320)",
                    "repr(float('nan'))",
                    "round(0.5), round(-0.5), round(2.675, 2)",
                    "round(1e300, 2)",
                    "round(123.456, -400)",
                    "round(123.456, 400)",
                    "round(5, -2**63)",
                    "int('  -0x1f  ', 0)",
                    "int('1_2', 0)",
                    "int('z', 37)",
                    "int('10', 1)",
                    "int('10', 2**63-1)",
                    "float('1e500')"
                ])
            )],
            15 => vec![
                "def g(n):".into(),
                "    try:".into(),
                "        return g(n + 1)".into(),
                format!(
                    "    {}:",
                    self.pick_of(&[
                        "except RecursionError",
                        "except Exception",
                        "except BaseException",
                        "finally"
                    ])
                ),
                format!(
                    "        {}",
                    self.pick_of(&[
                        "return g(n + 2)",
                        "raise",
                        "return n",
                        "pass",
                        "return str(g)"
                    ])
                ),
                "print(g(0))".into(),
            ],
            16 => vec![
                "def gen():".into(),
                "    yield 1".into(),
                "print(list(gen()))".into(),
            ],
            17 => vec![
                "class E(Exception):".into(),
                format!(
                    "    def __str__(self): return {}",
                    self.pick_of(&[
                        "str(self)",
                        "1",
                        "None",
                        "self.args",
                        "'%s' % self",
                        "f'{self}'",
                        "repr(self)",
                        "1/0"
                    ])
                ),
                format!(
                    "{}",
                    self.pick_of(&[
                        "raise E()",
                        "print(E())",
                        "raise E(1, 2)",
                        "raise E from E()",
                        "raise E() from 1",
                        "str(E())"
                    ])
                ),
            ],
            18 => vec![
                "class M(type): pass".into(),
                "class A(metaclass=M): pass".into(),
                "print(A)".into(),
            ],
            19 => vec![
                "try:".into(),
                "    raise ValueError('a')".into(),
                "except ValueError as e:".into(),
                "    try:".into(),
                "        raise TypeError('b') from e".into(),
                "    except TypeError as e2:".into(),
                format!(
                    "        {}",
                    self.pick_of(&[
                        "raise e2",
                        "raise e",
                        "raise",
                        "e2.__context__ = e2; raise e2",
                        "e.__cause__ = e2; raise e2",
                        "raise e2 from e2"
                    ])
                ),
            ],
            20 => vec![
                "class A:".into(),
                format!(
                    "    def {}(self, *a): return {}",
                    self.pick_of(&[
                        "__len__",
                        "__hash__",
                        "__bool__",
                        "__index__",
                        "__int__",
                        "__float__",
                        "__iter__",
                        "__next__",
                        "__getitem__",
                        "__contains__",
                        "__lt__",
                        "__eq__",
                        "__add__",
                        "__radd__",
                        "__str__",
                        "__repr__",
                        "__format__",
                        "__enter__",
                        "__exit__",
                        "__call__",
                        "__getattr__",
                        "__setattr__",
                        "__init__",
                        "__new__",
                        "__del__"
                    ]),
                    self.pick_of(&[
                        "-1",
                        "2**63-1",
                        "None",
                        "self",
                        "'x'",
                        "1.5",
                        "[]",
                        "A()",
                        "NotImplemented",
                        "True",
                        "10**18",
                        "iter([])",
                        "a",
                        "a[0]",
                        "1/0",
                        "self(*a)"
                    ])
                ),
                format!(
                    "{}",
                    self.pick_of(&[
                        "print(len(A()))",
                        "print(hash(A()))",
                        "print(bool(A()))",
                        "print([0, 1][A()])",
                        "print(int(A()))",
                        "print(list(A()))",
                        "print(A()[0])",
                        "print(1 in A())",
                        "print(sorted([A(), A()]))",
                        "print(A() == A())",
                        "print(A() + 1, 1 + A())",
                        "print(str(A()))",
                        "print(f'{A():>5}')",
                        "with A() as q: print(q)",
                        "print(A()(1))",
                        "print(A().foo)",
                        "A().q = 1",
                        "print(range(A()))",
                        "print('ab' * A())",
                        "print([1] * A())",
                        "print({A(): 1})",
                        "print(format(A(), 'x'))",
                        "print(next(A()))",
                        "print(max(A(), A()))"
                    ])
                ),
            ],
            _ => {
                // A long expression: left-nested chains the parser builds without recursion.
                let n = *self.rng.pick(&[100usize, 1000, 10000, 50000]);
                let piece = self.pick_of(&[
                    "1 + ",
                    "x.",
                    "f()",
                    "[0]",
                    "- ",
                    "not ",
                    "x if x else ",
                    "(",
                    "lambda: ",
                    "x, ",
                    "x or ",
                    "1 < ",
                    "[",
                    "await ",
                    "'a' ",
                ]);
                let mut s = String::from("x = ");
                for _ in 0..n {
                    s.push_str(&piece);
                }
                s.push('1');
                vec![s]
            }
        };
        for l in lines {
            self.line(&l);
        }
    }

    fn pick_of(&mut self, xs: &[&str]) -> String {
        self.rng.pick(xs).to_string()
    }

    fn huge_count(&mut self) -> String {
        if self.cfg.big_allocations {
            self.pick_of(&[
                "10**12",
                "10**8",
                "2**28",
                "2**27",
                "2**31",
                "2**62",
                "-5",
                "10**6",
                "2**63 - 1",
            ])
        } else {
            self.pick_of(&["10**12", "2**31", "2**62", "-5", "2**63 - 1", "10**15"])
        }
    }

    fn stmt(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let nested = self.depth < 6 && self.budget > 0;
        let roll = self.rng.below(if nested { 100 } else { 45 });
        match roll {
            0..=14 => {
                let t = self.target();
                let e = self.expr(0);
                self.line(&format!("{t} = {e}"));
            }
            15..=19 => {
                let t = self.target();
                let op = self.pick_of(&[
                    "+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", ">>=",
                    "<<=",
                ]);
                let e = self.expr(0);
                self.line(&format!("{t} {op} {e}"));
            }
            20..=29 => {
                let e = self.expr(0);
                if self.rng.chance(50) {
                    let extra = self.pick_of(&[
                        "",
                        ", sep=''",
                        ", end=''",
                        ", sep=None",
                        ", end=5",
                        ", file=None",
                        ", flush=True",
                        ", sep='\\n'",
                    ]);
                    self.line(&format!("print({e}{extra})"));
                } else {
                    self.line(&e);
                }
            }
            30..=33 => {
                let kw = if self.in_loop {
                    self.pick_of(&["break", "continue", "pass"])
                } else if self.in_func {
                    let e = self.expr(0);
                    format!("return {e}")
                } else {
                    self.pick_of(&[
                        "pass",
                        "break",
                        "continue",
                        "return",
                        "global x",
                        "nonlocal x",
                        "yield 1",
                    ])
                };
                self.line(&kw);
            }
            34..=36 => {
                let e = self.expr(0);
                let what = self.pick_of(&["raise", "assert", "del", "import", "from"]);
                let s = match what.as_str() {
                    "raise" => format!("raise {e}"),
                    "assert" => format!("assert {e}, {}", self.expr(1)),
                    "del" => format!("del {}", self.target()),
                    "import" => format!(
                        "import {}",
                        self.pick_of(&[
                            "math",
                            "time",
                            "random",
                            "torch",
                            "numpy",
                            "math as m",
                            "os",
                            "torch.nn as nn",
                            "math.sqrt"
                        ])
                    ),
                    _ => format!(
                        "from {} import {}",
                        self.pick_of(&["math", "time", "random", "torch", "nosuch", "math.x"]),
                        self.pick_of(&["*", "sqrt", "pi, e", "(sqrt as s)", "nothing", "x as y"])
                    ),
                };
                self.line(&s);
            }
            37..=44 => {
                let v = self.var();
                let e = self.expr(1);
                let w = self.pick_of(&["f'{", "f\"{"]);
                let close = if w.ends_with("\"{") { "\"" } else { "'" };
                let spec = self.spec();
                let conv = self.pick_of(&["", "", "!r", "!s", "!a"]);
                self.line(&format!("{v} = {w}{e}{conv}:{spec}}}{close}"));
            }
            45..=54 => {
                let c = self.expr(1);
                self.line(&format!("if {c}:"));
                self.block();
                if self.rng.chance(40) {
                    let c = self.expr(1);
                    self.line(&format!("elif {c}:"));
                    self.block();
                }
                if self.rng.chance(40) {
                    self.line("else:");
                    self.block();
                }
            }
            55..=62 => {
                let saved = self.in_loop;
                if self.rng.chance(50) {
                    let t = self.pick_of(&["i", "k, v", "(a, b)", "x[0]", "x.attr", "*a, b", "i,"]);
                    let it = self.iterable();
                    self.line(&format!("for {t} in {it}:"));
                } else {
                    let c = self.expr(1);
                    self.line(&format!("while {c}:"));
                }
                self.in_loop = true;
                self.block();
                self.in_loop = saved;
                if self.rng.chance(15) {
                    self.line("else:");
                    self.block();
                }
            }
            63..=72 => {
                let name = self.pick_of(&[
                    "f",
                    "g",
                    "h",
                    "__init__",
                    "__repr__",
                    "__eq__",
                    "__iter__",
                    "__getitem__",
                    "__len__",
                    "__add__",
                    "__enter__",
                    "__exit__",
                    "__hash__",
                    "__str__",
                    "__bool__",
                    "__call__",
                    "__next__",
                    "__lt__",
                    "__contains__",
                ]);
                let params = self.params();
                if self.rng.chance(15) {
                    let d = self.pick_of(&[
                        "staticmethod",
                        "classmethod",
                        "property",
                        "f",
                        "g",
                        "lambda f: f",
                        "print",
                    ]);
                    self.line(&format!("@{d}"));
                }
                self.line(&format!("def {name}({params}):"));
                let (sf, sl) = (self.in_func, self.in_loop);
                self.in_func = true;
                self.in_loop = false;
                self.block();
                if self.rng.chance(60) {
                    self.indent += 1;
                    let e = self.expr(0);
                    self.line(&format!("return {e}"));
                    self.indent -= 1;
                }
                self.in_func = sf;
                self.in_loop = sl;
                if self.rng.chance(50) {
                    let args = self.call_args();
                    self.line(&format!("{name}({args})"));
                }
            }
            73..=79 => {
                let name = self.pick_of(&["C", "D", "E", "A"]);
                let base = self.pick_of(&[
                    "",
                    "(C)",
                    "(Exception)",
                    "(ValueError)",
                    "(object)",
                    "(int)",
                    "(str)",
                    "(list)",
                    "(dict)",
                    "(C, D)",
                    "(1)",
                    "(x)",
                    "(nn.Module)",
                    "(type)",
                    "(BaseException)",
                    "(StopIteration)",
                    "(KeyboardInterrupt)",
                ]);
                self.line(&format!("class {name}{base}:"));
                let sc = self.in_class;
                self.in_class = true;
                self.block();
                self.in_class = sc;
                if self.rng.chance(60) {
                    let args = self.call_args();
                    let v = self.var();
                    self.line(&format!("{v} = {name}({args})"));
                }
            }
            80..=89 => {
                self.line("try:");
                self.block();
                let n = self.rng.below(3);
                for _ in 0..n {
                    let exc = self.pick_of(&[
                        "",
                        " Exception",
                        " ValueError as e",
                        " (TypeError, KeyError) as e",
                        " BaseException",
                        " e",
                        " 1",
                        " StopIteration",
                        " ZeroDivisionError as x",
                        " C",
                        " RecursionError",
                        " MemoryError",
                    ]);
                    self.line(&format!("except{exc}:"));
                    self.block();
                }
                if n > 0 && self.rng.chance(30) {
                    self.line("else:");
                    self.block();
                }
                if n == 0 || self.rng.chance(30) {
                    self.line("finally:");
                    self.block();
                }
            }
            _ => {
                let cm = self.pick_of(&["C()", "open('x')", "x", "torch.no_grad()", "A()", "1"]);
                let target = self.pick_of(&["", " as y", " as (a, b)", " as x[0]"]);
                let more = if self.rng.chance(20) { ", D()" } else { "" };
                self.line(&format!("with {cm}{target}{more}:"));
                self.block();
            }
        }
    }

    fn spec(&mut self) -> String {
        if self.rng.chance(80) {
            self.pick_of(SPECS)
        } else {
            let mut s = String::new();
            if self.rng.chance(30) {
                s.push(*self.rng.pick(&['*', '0', ' ', '{', '}', 'é', '\'']));
            }
            if self.rng.chance(50) {
                s.push(*self.rng.pick(&['<', '>', '^', '=']));
            }
            if self.rng.chance(30) {
                s.push(*self.rng.pick(&['+', '-', ' ']));
            }
            if self.rng.chance(20) {
                s.push('#');
            }
            if self.rng.chance(20) {
                s.push('0');
            }
            if self.rng.chance(50) {
                let _ = write!(
                    s,
                    "{}",
                    self.pick_of(&[
                        "1",
                        "10",
                        "0",
                        "99",
                        "4294967296",
                        "18446744073709551616",
                        "67108864"
                    ])
                );
            }
            if self.rng.chance(20) {
                s.push(*self.rng.pick(&[',', '_']));
            }
            if self.rng.chance(40) {
                let _ = write!(
                    s,
                    ".{}",
                    self.pick_of(&["0", "1", "5", "20", "100", "2147483648", ""])
                );
            }
            if self.rng.chance(60) {
                s.push(*self.rng.pick(&[
                    'f', 'e', 'g', '%', 'd', 's', 'x', 'b', 'c', 'n', 'o', 'E', 'G', 'F', 'X', 'r',
                    'z',
                ]));
            }
            if self.rng.chance(10) {
                s = format!("{{{}}}", self.var());
            }
            s
        }
    }

    fn params(&mut self) -> String {
        let mut ps: Vec<String> = Vec::new();
        if self.in_class || self.rng.chance(20) {
            ps.push("self".into());
        }
        let n = self.rng.below(4);
        for i in 0..n {
            ps.push(match self.rng.below(6) {
                0 => format!("p{i}={}", self.atom()),
                1 => "*args".into(),
                2 => "**kw".into(),
                3 => "*".into(),
                _ => format!("p{i}"),
            });
        }
        ps.join(", ")
    }

    fn call_args(&mut self) -> String {
        let n = self.rng.below(4);
        let mut a = Vec::new();
        for _ in 0..n {
            let e = self.expr(2);
            a.push(match self.rng.below(10) {
                0 => format!("*{e}"),
                1 => format!("**{e}"),
                2 | 3 => format!(
                    "{}={e}",
                    self.pick_of(&[
                        "key", "reverse", "sep", "end", "default", "start", "p0", "p1", "x",
                        "base", "ndigits", "strict"
                    ])
                ),
                _ => e,
            });
        }
        a.join(", ")
    }

    fn target(&mut self) -> String {
        match self.rng.below(10) {
            0 => format!("{}, {}", self.var(), self.var()),
            1 => format!("{}[{}]", self.var(), self.expr(2)),
            2 => format!(
                "{}.{}",
                self.var(),
                self.pick_of(&[
                    "attr",
                    "x",
                    "__class__",
                    "__dict__",
                    "args",
                    "real",
                    "append"
                ])
            ),
            3 => format!("*{}, {}", self.var(), self.var()),
            4 => format!("{}[{}:{}]", self.var(), self.small_int(), self.small_int()),
            5 => format!("[{}, ({}, {})]", self.var(), self.var(), self.var()),
            _ => self.var(),
        }
    }

    fn small_int(&mut self) -> String {
        self.pick_of(&[
            "0", "1", "-1", "2", "3", "10", "-2", "100", "", "2**63-1", "-2**63",
        ])
    }

    fn iterable(&mut self) -> String {
        match self.rng.below(8) {
            0 => format!(
                "range({})",
                self.pick_of(&[
                    "3",
                    "10",
                    "100",
                    "0",
                    "-1",
                    "1, 10, 2",
                    "10, 0, -3",
                    "10**12",
                    "2**63-1",
                    "x",
                    "1, 2, 0"
                ])
            ),
            1 => self.pick_of(&[
                "'abc'",
                "[1, 2, 3]",
                "{'a': 1}",
                "(1,)",
                "{1, 2}",
                "''",
                "[]",
                "x",
                "lst",
                "d.items()",
                "enumerate('ab')",
                "zip([1], [2])",
                "reversed([1, 2])",
                "iter([1])",
                "None",
                "1",
                "sorted('cba')",
            ]),
            _ => self.expr(1),
        }
    }

    fn atom(&mut self) -> String {
        match self.rng.below(16) {
            0 => self.pick_of(&[
                "0",
                "1",
                "-1",
                "2",
                "3",
                "7",
                "255",
                "1000",
                "10**9",
                "2**62",
                "9223372036854775807",
                "-9223372036854775808",
                "2**63-1",
                "0x7fffffffffffffff",
                "1_000_000",
            ]),
            1 => self.pick_of(&[
                "0.0",
                "-0.0",
                "1.5",
                "0.1",
                "1e308",
                "1e-320",
                "float('inf')",
                "float('nan')",
                "-float('inf')",
                "2.5",
                "1e16",
                "3.141592653589793",
                "5e-324",
            ]),
            2 => self.pick_of(&[
                "''",
                "'a'",
                "'abc'",
                "'hello world'",
                "'\\n'",
                "'é'",
                "'😀'",
                "'1,2,3'",
                "' x '",
                "'%s'",
                "'{}'",
                "'{0}{1}'",
                "'{x}'",
                "\"a'b\"",
                "'\\t\\x00'",
                "'123'",
                "'-5'",
                "'1e5'",
                "'{:>{}}'",
            ]),
            3 => self.pick_of(&["None", "True", "False", "...", "NotImplemented"]),
            4 => self.pick_of(&[
                "[]",
                "[1, 2, 3]",
                "[[1], [2]]",
                "['a', 'b']",
                "[None]",
                "[1, 'a', 2.5]",
            ]),
            5 => self.pick_of(&["()", "(1,)", "(1, 2)", "((1, 2), (3, 4))", "('a', 1)"]),
            6 => self.pick_of(&[
                "{}",
                "{'a': 1}",
                "{1: 'x', 2: 'y'}",
                "{(1, 2): 3}",
                "{'k': [1]}",
                "{1, 2}",
                "{0.0, 0, False}",
                "set()",
                "{**{}}",
                "{*[]}",
            ]),
            _ => self.var(),
        }
    }

    fn expr(&mut self, level: usize) -> String {
        if level > 5 || self.rng.chance(25 + level * 10) {
            return self.atom();
        }
        let l = level + 1;
        match self.rng.below(22) {
            0..=3 => {
                let op = self.pick_of(&[
                    "+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<", ">>", "and",
                    "or", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not",
                ]);
                format!("{} {op} {}", self.expr(l), self.expr(l))
            }
            4 => format!(
                "{}{}",
                self.pick_of(&["-", "+", "~", "not ", "- -"]),
                self.expr(l)
            ),
            5 => format!("({})", self.expr(l)),
            6 | 7 => {
                let f = self.pick_of(BUILTINS);
                format!("{f}({})", self.call_args())
            }
            8 | 9 => {
                let m = self.pick_of(METHODS);
                let recv = self.expr(l);
                if self.rng.chance(20) {
                    format!("{recv}.{m}")
                } else {
                    format!("{recv}.{m}({})", self.call_args())
                }
            }
            10 => format!("{}({})", self.var(), self.call_args()),
            11 => {
                let e = self.expr(l);
                let i = self.expr(l);
                match self.rng.below(4) {
                    0 => format!("{e}[{}:{}]", self.small_int(), self.small_int()),
                    1 => format!(
                        "{e}[{}:{}:{}]",
                        self.small_int(),
                        self.small_int(),
                        self.small_int()
                    ),
                    2 => format!("{e}[{i}, {}]", self.small_int()),
                    _ => format!("{e}[{i}]"),
                }
            }
            12 => format!(
                "[{} for {} in {}{}]",
                self.expr(l),
                self.pick_of(&["x", "i", "k, v", "_"]),
                self.iterable(),
                if self.rng.chance(30) {
                    format!(" if {}", self.expr(l))
                } else {
                    String::new()
                }
            ),
            13 => format!(
                "{{{}: {} for {} in {}}}",
                self.expr(l),
                self.expr(l),
                self.pick_of(&["x", "i", "k, v"]),
                self.iterable()
            ),
            14 => format!(
                "{}({} for x in {})",
                self.pick_of(&[
                    "sum", "list", "any", "all", "max", "tuple", "sorted", "set", "min", "''.join",
                    "dict", "print"
                ]),
                self.expr(l),
                self.iterable()
            ),
            15 => format!(
                "(lambda {}: {})({})",
                self.pick_of(&["", "x", "x, y=2", "*a", "**k", "x, *a, y"]),
                self.expr(l),
                self.call_args()
            ),
            16 => format!("{} if {} else {}", self.expr(l), self.expr(l), self.expr(l)),
            17 => {
                let spec = self.spec();
                let e = self.expr(l);
                let conv = self.pick_of(&["", "!r", "!s"]);
                format!("f'{{{e}{conv}:{spec}}} and {{{}}}'", self.var())
            }
            18 => {
                let fmt = (0..1 + self.rng.below(3))
                    .map(|_| self.pick_of(PERCENT))
                    .collect::<Vec<_>>()
                    .join(" ");
                format!("'{fmt}' % {}", self.expr(l))
            }
            19 => format!("'{{}} {{:{}}}'.format({})", self.spec(), self.call_args()),
            20 => format!(
                "[{}, {}]{}",
                self.expr(l),
                self.expr(l),
                self.pick_of(&["", " * 3", " * -1", " + []", "[::-1]", " * 10**12", "[1:]"])
            ),
            _ => format!(
                "{}.{}",
                self.var(),
                self.pick_of(&[
                    "attr",
                    "x",
                    "__class__",
                    "__dict__",
                    "args",
                    "real",
                    "__name__",
                    "__bases__",
                    "__mro__",
                    "foo",
                    "__init__"
                ])
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Generator 3: mutations of the corpus

pub fn mutate(rng: &mut Rng, corpus: &[String]) -> String {
    let mut bytes = rng.pick(corpus).clone().into_bytes();
    let n = 1 + rng.below(6);
    for _ in 0..n {
        let len = bytes.len();
        match rng.below(11) {
            // Flip a bit.
            0 if len > 0 => {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
            // Replace a byte with something interesting.
            1 if len > 0 => {
                let i = rng.below(len);
                bytes[i] = *rng.pick(b"()[]{}:'\"\\\n\t #=.,*%{}fx0\x00\xff");
            }
            // Insert a soup token.
            2 | 3 => {
                let mut t = String::new();
                soup_token(rng, &mut t);
                let i = rng.below(len + 1);
                bytes.splice(i..i, t.into_bytes());
            }
            // Delete a range.
            4 if len > 0 => {
                let i = rng.below(len);
                let j = (i + 1 + rng.below(16)).min(len);
                bytes.drain(i..j);
            }
            // Truncate.
            5 if len > 0 => bytes.truncate(rng.below(len)),
            // Splice with another snippet.
            6 => {
                let other = rng.pick(corpus).as_bytes();
                let i = rng.below(len + 1);
                let j = rng.below(other.len() + 1);
                let k = (j + rng.below(200)).min(other.len());
                bytes.splice(i..i, other[j..k].iter().copied());
            }
            // Line edits: duplicate, delete, swap, re-indent.
            7..=9 => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                if !lines.is_empty() {
                    let i = rng.below(lines.len());
                    let j = rng.below(lines.len());
                    match rng.below(5) {
                        0 => {
                            let l = lines[i].clone();
                            let times = 1 + rng.below(3);
                            for _ in 0..times {
                                lines.insert(j, l.clone());
                            }
                        }
                        1 => {
                            lines.remove(i);
                        }
                        2 => lines.swap(i, j),
                        3 => {
                            lines[i] = format!(
                                "{}{}",
                                rng.pick(&["    ", "  ", "\t", " ", ""]),
                                lines[i].trim_start()
                            )
                        }
                        _ => lines[i] = format!("    {}", lines[i]),
                    }
                }
                bytes = lines.join("\n").into_bytes();
                bytes.push(b'\n');
            }
            // Replace a number with an extreme one.
            _ => {
                if let Some(i) = (0..len)
                    .map(|k| (k + rng.below(len.max(1))) % len)
                    .find(|&k| bytes[k].is_ascii_digit())
                {
                    let mut j = i;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    let repl = *rng.pick(&[
                        "0",
                        "-1",
                        "10**12",
                        "2**63-1",
                        "-2**63",
                        "10**9",
                        "2**62",
                        "99999999999999999999",
                        "1e308",
                        "-0.0",
                        "float('nan')",
                    ]);
                    bytes.splice(i..j, repl.bytes());
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

// ---------------------------------------------------------------------------------------------
// The harness

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs a panic hook that records the message and location instead of printing them.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
            s.to_string()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "<non-string panic payload>".to_string()
        };
        let loc = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg} at {loc}")));
    }));
}

pub const STEP_LIMIT: u64 = 20_000;

/// Runs one program text through the whole pipeline, formatting any error as a traceback too.
/// Returns the panic (message and location) if anything panicked. Call on a big-stack thread.
pub fn run_one(text: &str) -> Result<(), String> {
    let text = text.to_string();
    let r = catch_unwind(AssertUnwindSafe(move || {
        let mut i = cudalearn::lang::Interp::new();
        i.out = cudalearn::lang::interp::Output::Capture(String::new());
        i.step_limit = Some(STEP_LIMIT);
        let res = i.run(cudalearn::lang::Source::new("<fuzz>", text), false);
        if let Err(err) = res {
            let _ = cudalearn::lang::traceback::report(&mut i, &err, true);
            let _ = cudalearn::lang::traceback::report(&mut i, &err, false);
        }
    }));
    match r {
        Ok(()) => Ok(()),
        Err(_) => Err(LAST_PANIC
            .with(|p| p.borrow_mut().take())
            .unwrap_or_else(|| "panic".to_string())),
    }
}
