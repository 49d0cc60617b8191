//! cudalearn's CUDA kernels: `kernels/*.cu`, embedded in the binary, compiled by NVRTC for the
//! GPU's own architecture on first use and cached on disk, keyed by the source hash, the
//! architecture and the NVRTC version, so the second start loads PTX instead of compiling.
use std::path::PathBuf;

/// The kernel sources, in the order they are concatenated (`common.cuh` first: the others use
/// its types and macros; NVRTC gets one self-contained program, no include paths).
pub const SOURCES: &[(&str, &str)] = &[
    ("common.cuh", include_str!("../../../kernels/common.cuh")),
    (
        "elementwise.cu",
        include_str!("../../../kernels/elementwise.cu"),
    ),
    ("reduce.cu", include_str!("../../../kernels/reduce.cu")),
    ("softmax.cu", include_str!("../../../kernels/softmax.cu")),
    ("cast.cu", include_str!("../../../kernels/cast.cu")),
    ("index.cu", include_str!("../../../kernels/index.cu")),
];

/// The whole program NVRTC compiles.
pub fn program() -> String {
    let mut s = String::new();
    for (name, src) in SOURCES {
        s += &format!("// ---- {name} ----\n{src}\n");
    }
    s
}

/// FNV-1a over the program: a stable content hash (std's hasher may change between releases).
pub fn source_hash(src: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in src.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The cache file for this program on a GPU of compute capability `major.minor` with NVRTC
/// `nvrtc`: `<user cache dir>/cudalearn/kernels/<hash>-sm_<arch>-nvrtc<ver>.ptx`.
pub fn cache_path(src: &str, major: u32, minor: u32, nvrtc: (i32, i32)) -> Option<PathBuf> {
    let dir = dirs::cache_dir()?.join("cudalearn").join("kernels");
    Some(dir.join(format!(
        "{:016x}-sm_{major}{minor}-nvrtc{}.{}.ptx",
        source_hash(src),
        nvrtc.0,
        nvrtc.1
    )))
}

/// The NVRTC options: the device's own architecture, fast compile, no fast-math (results must
/// match the CPU backend within the parity tolerance).
pub fn options(major: u32, minor: u32) -> Vec<String> {
    vec![
        format!("--gpu-architecture=compute_{major}{minor}"),
        "--std=c++17".to_string(),
        "-default-device".to_string(),
    ]
}

/// PTX for this GPU: read from the disk cache, or compiled by NVRTC and written there
/// (atomically: a temporary file renamed into place). Only called after `probe()` succeeded.
pub fn ptx(major: u32, minor: u32) -> Result<String, String> {
    let src = program();
    let probe = super::probe().map_err(|e| e.reason())?;
    let path = cache_path(&src, major, minor, probe.nvrtc_version);
    if let Some(p) = &path {
        if let Ok(text) = std::fs::read_to_string(p) {
            return Ok(text);
        }
    }
    let opts = options(major, minor);
    let compiled = cudarc::nvrtc::compile_ptx_with_opts(
        &src,
        cudarc::nvrtc::CompileOptions {
            options: opts,
            ..Default::default()
        },
    )
    .map_err(|e| format!("NVRTC could not compile cudalearn's kernels: {e:?}"))?;
    let text = compiled.to_src();
    if let Some(p) = &path {
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
            let tmp = p.with_extension(format!("tmp{}", std::process::id()));
            if std::fs::write(&tmp, &text).is_ok() {
                let _ = std::fs::rename(&tmp, p);
            }
        }
    }
    Ok(text)
}

/// Kernel names from the sources without NVRTC (tests only: the shipped binary never needs it).
#[cfg(test)]
pub(crate) mod macro_names {
    /// The names of the `__global__` functions the program defines, found by expanding its
    /// kernel-defining macros (`DEFINE_*`, `CASTS_FROM`) the way the preprocessor would: so the
    /// backend's kernel names are checked against the sources without NVRTC.
    pub fn expanded_names(src: &str) -> Vec<String> {
        let macros = macros(src);
        let mut top = String::new();
        let mut lines = src.lines();
        while let Some(l) = lines.next() {
            if l.trim_start().starts_with("#define") {
                let mut cur = l;
                while cur.trim_end().ends_with('\\') {
                    match lines.next() {
                        Some(n) => cur = n,
                        None => break,
                    }
                }
            } else {
                top += l;
                top.push('\n');
            }
        }
        let text = expand(&top, &macros, 0);
        let mut names = Vec::new();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("__global__ void ") {
            rest = &rest[i + 16..];
            let end = rest.find('(').unwrap_or(rest.len());
            names.push(rest[..end].trim().to_string());
        }
        names.sort();
        names
    }

    /// Function-like macros that define kernels: name, parameters, body.
    fn macros(src: &str) -> Vec<(String, Vec<String>, String)> {
        let mut out = Vec::new();
        let mut lines = src.lines();
        while let Some(l) = lines.next() {
            let Some(def) = l.trim_start().strip_prefix("#define ") else {
                continue;
            };
            let mut text = def.to_string();
            while text.trim_end().ends_with('\\') {
                text = text.trim_end().trim_end_matches('\\').to_string();
                match lines.next() {
                    Some(n) => text += n,
                    None => break,
                }
            }
            let Some(open) = text.find('(') else { continue };
            let name = text[..open].to_string();
            if !(name.starts_with("DEFINE_") || name.starts_with("CASTS_")) || name.contains(' ') {
                continue;
            }
            let close = text.find(')').unwrap_or(text.len());
            let params = text[open + 1..close]
                .split(',')
                .map(|p| p.trim().to_string())
                .collect();
            out.push((name, params, text[close + 1..].to_string()));
        }
        out
    }

    /// `text` with every invocation of `macros` replaced by its body, recursively.
    fn expand(text: &str, macros: &[(String, Vec<String>, String)], depth: usize) -> String {
        if depth > 8 {
            return text.to_string();
        }
        let mut out = String::new();
        let mut rest = text;
        'scan: while !rest.is_empty() {
            for (name, params, body) in macros {
                let Some(after) = rest
                    .strip_prefix(name.as_str())
                    .and_then(|r| r.strip_prefix('('))
                else {
                    continue;
                };
                let Some(close) = after.find(')') else {
                    continue;
                };
                let args: Vec<&str> = after[..close].split(',').map(str::trim).collect();
                let mut b = substitute(body, params, &args);
                b = b
                    .replace(" ## ", "")
                    .replace("## ", "")
                    .replace(" ##", "")
                    .replace("##", "");
                out += &expand(&b, macros, depth + 1);
                rest = &after[close + 1..];
                continue 'scan;
            }
            let c = rest.chars().next().unwrap_or(' ');
            // skip a whole identifier so a macro name is only matched at its start
            let len = if c.is_alphanumeric() || c == '_' {
                rest.find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                    .unwrap_or(rest.len())
            } else {
                c.len_utf8()
            };
            out += &rest[..len];
            rest = &rest[len..];
        }
        out
    }

    /// `body` with each identifier equal to a parameter replaced by its argument.
    fn substitute(body: &str, params: &[String], args: &[&str]) -> String {
        let mut out = String::new();
        let mut ident = String::new();
        let flush = |ident: &mut String, out: &mut String| {
            match params.iter().position(|p| p == ident) {
                Some(i) => *out += args.get(i).copied().unwrap_or(""),
                None => *out += ident,
            }
            ident.clear();
        };
        for ch in body.chars() {
            if ch.is_alphanumeric() || ch == '_' {
                ident.push(ch);
            } else {
                flush(&mut ident, &mut out);
                out.push(ch);
            }
        }
        flush(&mut ident, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_is_self_contained() {
        let p = program();
        assert!(
            !p.lines().any(|l| l.trim_start().starts_with("#include")),
            "NVRTC gets no include paths, and 16-bit types are converted by hand"
        );
        assert!(p.starts_with("// ---- common.cuh ----"));
    }

    #[test]
    fn cache_key_changes_with_source_arch_and_nvrtc() {
        let a = cache_path("x", 9, 0, (13, 0));
        let Some(a) = a else { return };
        assert_ne!(Some(a.clone()), cache_path("y", 9, 0, (13, 0)));
        assert_ne!(Some(a.clone()), cache_path("x", 8, 0, (13, 0)));
        assert_ne!(Some(a.clone()), cache_path("x", 9, 0, (12, 8)));
        assert_eq!(Some(a.clone()), cache_path("x", 9, 0, (13, 0)));
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.ends_with("-sm_90-nvrtc13.0.ptx"), "{name}");
        assert_eq!(options(9, 0)[0], "--gpu-architecture=compute_90");
    }
}
