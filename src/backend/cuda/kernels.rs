//! cudalearn's CUDA kernels: `kernels/*.cu`, embedded in the binary, compiled by NVRTC on first
//! use to machine code (a cubin) for the GPU's own architecture — PTX only where no cubin can
//! serve and the driver is new enough for it (`target`) — and cached on disk, keyed by the
//! source hash, the architecture and the NVRTC version, so the second start compiles nothing.
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
    ("optim.cu", include_str!("../../../kernels/optim.cu")),
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

/// What to ask NVRTC for: machine code (a cubin) for one real architecture, or PTX for the
/// driver to compile when it loads the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// `(major, minor)` of the architecture compiled for.
    pub arch: (u32, u32),
    pub cubin: bool,
}

impl Target {
    /// The NVRTC option naming it: `sm_90` (cubin) or `compute_90` (PTX).
    pub fn option(&self) -> String {
        let kind = if self.cubin { "sm" } else { "compute" };
        format!("--gpu-architecture={kind}_{}{}", self.arch.0, self.arch.1)
    }
    fn extension(&self) -> &'static str {
        if self.cubin {
            "cubin"
        } else {
            "ptx"
        }
    }
}

/// The target for a GPU of compute capability `device`, given the architectures this NVRTC
/// supports (`nvrtcGetSupportedArchs`, e.g. 90 for sm_90), NVRTC's version and the driver's
/// CUDA version (`cuDriverGetVersion`, e.g. 13000).
///
/// A cubin for the device's own architecture loads on any driver new enough for the device, so
/// that comes first. A device newer than this NVRTC gets a cubin of the newest supported
/// architecture of the same major version (machine code runs on later minor revisions), or
/// else PTX — which a driver only loads when it is at least as new as the NVRTC that wrote it
/// (PTX from NVRTC 13.2 is ISA 9.2, refused by a 13.0 driver).
pub fn target(
    device: (u32, u32),
    archs: &[i32],
    nvrtc: (i32, i32),
    driver: i32,
) -> std::result::Result<Target, String> {
    let want = (device.0 * 10 + device.1) as i32;
    let split = |a: i32| (a as u32 / 10, a as u32 % 10);
    if archs.contains(&want) {
        return Ok(Target {
            arch: device,
            cubin: true,
        });
    }
    let Some(best) = archs.iter().copied().filter(|&a| a <= want).max() else {
        return Err(format!(
            "NVRTC {}.{} cannot compile for sm_{want} (its oldest architecture is sm_{})",
            nvrtc.0,
            nvrtc.1,
            archs.iter().min().copied().unwrap_or(0)
        ));
    };
    if best / 10 == want / 10 {
        return Ok(Target {
            arch: split(best),
            cubin: true,
        });
    }
    if driver >= nvrtc.0 * 1000 + nvrtc.1 * 10 {
        return Ok(Target {
            arch: split(best),
            cubin: false,
        });
    }
    Err(format!(
        "NVRTC {}.{} has no machine code for sm_{want}, and its PTX is too new for this driver (CUDA {}); update the NVIDIA driver, or use an NVRTC no newer than the driver",
        nvrtc.0,
        nvrtc.1,
        super::probe::version(driver)
    ))
}

/// The cache file for this program and target with NVRTC `nvrtc`:
/// `<user cache dir>/cudalearn/kernels/<hash>-sm_<arch>-nvrtc<ver>.<cubin|ptx>`.
pub fn cache_path(src: &str, t: Target, nvrtc: (i32, i32)) -> Option<PathBuf> {
    let dir = dirs::cache_dir()?.join("cudalearn").join("kernels");
    Some(dir.join(format!(
        "{:016x}-sm_{}{}-nvrtc{}.{}.{}",
        source_hash(src),
        t.arch.0,
        t.arch.1,
        nvrtc.0,
        nvrtc.1,
        t.extension()
    )))
}

/// The NVRTC options: the target, C++17, and no fast-math (results must match the CPU backend
/// within the parity tolerance).
pub fn options(t: Target) -> Vec<String> {
    vec![
        t.option(),
        "--std=c++17".to_string(),
        "-default-device".to_string(),
    ]
}

/// The architectures NVRTC can compile for (e.g. 75, 80, 90, 100).
pub fn supported_archs() -> Vec<i32> {
    use cudarc::nvrtc::sys;
    // SAFETY: NVRTC is loaded (the probe found it); both calls write into buffers of the size
    // the first reports. A missing symbol (an NVRTC older than 11.2) panics inside cudarc.
    std::panic::catch_unwind(|| unsafe {
        let mut n = 0;
        if sys::nvrtcGetNumSupportedArchs(&mut n) != sys::nvrtcResult::NVRTC_SUCCESS || n <= 0 {
            return Vec::new();
        }
        let mut v = vec![0; n as usize];
        if sys::nvrtcGetSupportedArchs(v.as_mut_ptr()) != sys::nvrtcResult::NVRTC_SUCCESS {
            return Vec::new();
        }
        v
    })
    .unwrap_or_default()
}

/// The compiled program for `t`: a cubin or PTX (NUL-terminated), as NVRTC returns it. A
/// compile error carries NVRTC's log as text.
pub fn compile(t: Target) -> std::result::Result<Vec<u8>, String> {
    use cudarc::nvrtc::{result, sys};
    let src = std::ffi::CString::new(program()).map_err(|e| e.to_string())?;
    let prog = result::create_program(&src, None)
        .map_err(|e| format!("NVRTC could not take the program ({:?})", e.0))?;
    // SAFETY: `prog` was just created and is destroyed once, below; each buffer is sized by the
    // size query before it.
    unsafe {
        let compiled = result::compile_program(prog, &options(t));
        let out = match compiled {
            Err(_) => {
                let log = result::get_program_log(prog).unwrap_or_default();
                let log: Vec<u8> = log
                    .iter()
                    .map(|&c| c as u8)
                    .take_while(|&c| c != 0)
                    .collect();
                Err(format!(
                    "NVRTC could not compile cudalearn's kernels for {}:\n{}",
                    t.option().trim_start_matches("--gpu-architecture="),
                    String::from_utf8_lossy(&log).trim_end()
                ))
            }
            Ok(()) if t.cubin => {
                let mut n = 0usize;
                let mut buf = Vec::new();
                let mut r = sys::nvrtcGetCUBINSize(prog, &mut n);
                if r == sys::nvrtcResult::NVRTC_SUCCESS {
                    buf = vec![0u8; n];
                    r = sys::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut std::ffi::c_char);
                }
                match r {
                    sys::nvrtcResult::NVRTC_SUCCESS => Ok(buf),
                    e => Err(format!("NVRTC returned no cubin ({e:?})")),
                }
            }
            Ok(()) => result::get_ptx(prog)
                .map(|p| p.iter().map(|&c| c as u8).collect())
                .map_err(|e| format!("NVRTC returned no PTX ({:?})", e.0)),
        };
        let _ = result::destroy_program(prog);
        out
    }
}

/// The kernels for `t`: from the disk cache, or compiled (saying so once on stderr: it takes
/// seconds) and written there atomically (a temporary file renamed into place). `fresh` skips
/// the cache, for an entry that failed to load.
pub fn image(t: Target, nvrtc: (i32, i32), fresh: bool) -> std::result::Result<Vec<u8>, String> {
    let src = program();
    let path = cache_path(&src, t, nvrtc);
    if let Some(p) = &path {
        if fresh {
            let _ = std::fs::remove_file(p);
        } else if let Ok(bytes) = std::fs::read(p) {
            return Ok(bytes);
        }
    }
    eprintln!(
        "cudalearn: compiling CUDA kernels for sm_{}{}, once (cached for next time); about 5 s",
        t.arch.0, t.arch.1
    );
    let bytes = compile(t)?;
    if let Some(p) = &path {
        if let Some(dir) = p.parent() {
            let _ = std::fs::create_dir_all(dir);
            let tmp = p.with_extension(format!("tmp{}", std::process::id()));
            if std::fs::write(&tmp, &bytes).is_ok() {
                let _ = std::fs::rename(&tmp, p);
            }
        }
    }
    Ok(bytes)
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
    fn cache_key_changes_with_source_arch_nvrtc_and_format() {
        let t = Target {
            arch: (9, 0),
            cubin: true,
        };
        let Some(a) = cache_path("x", t, (13, 0)) else {
            return;
        };
        assert_ne!(Some(a.clone()), cache_path("y", t, (13, 0)));
        assert_ne!(
            Some(a.clone()),
            cache_path(
                "x",
                Target {
                    arch: (8, 0),
                    cubin: true
                },
                (13, 0)
            )
        );
        assert_ne!(Some(a.clone()), cache_path("x", t, (12, 8)));
        assert_ne!(
            Some(a.clone()),
            cache_path(
                "x",
                Target {
                    arch: (9, 0),
                    cubin: false
                },
                (13, 0)
            )
        );
        assert_eq!(Some(a.clone()), cache_path("x", t, (13, 0)));
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.ends_with("-sm_90-nvrtc13.0.cubin"), "{name}");
        assert_eq!(options(t)[0], "--gpu-architecture=sm_90");
    }

    #[test]
    fn targets_prefer_a_cubin_and_use_ptx_only_on_a_new_enough_driver() {
        let cu13 = [75, 80, 86, 89, 90, 100, 120];
        let cubin = |a| {
            Ok(Target {
                arch: a,
                cubin: true,
            })
        };
        // an H100 with NVRTC 13.2 on a 13.0 driver: the cubin needs no PTX JIT
        assert_eq!(target((9, 0), &cu13, (13, 2), 13000), cubin((9, 0)));
        // an sm_87 device: machine code for sm_86 runs on it
        assert_eq!(target((8, 7), &cu13, (13, 0), 13000), cubin((8, 6)));
        // a device newer than NVRTC: PTX for the newest architecture, if the driver reads it
        let ptx = Ok(Target {
            arch: (12, 0),
            cubin: false,
        });
        assert_eq!(target((13, 0), &cu13, (13, 0), 13000), ptx);
        assert!(target((13, 0), &cu13, (13, 2), 13000)
            .unwrap_err()
            .contains("too new"));
        // a device older than every architecture NVRTC knows
        assert!(target((6, 1), &cu13, (13, 0), 13000)
            .unwrap_err()
            .contains("sm_61"));
    }
}
