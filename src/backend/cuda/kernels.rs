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

/// The dtype suffix kernels are named with (`binary_f32`, `cast_f16_f32`, ...).
pub fn suffix(d: crate::tensor::DType) -> Option<&'static str> {
    use crate::tensor::DType::*;
    Some(match d {
        F32 => "f32",
        F64 => "f64",
        F16 => "f16",
        BF16 => "bf16",
        I64 => "i64",
        I32 => "i32",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::DType;

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
    fn every_kernel_the_backend_names_exists() {
        let p = program();
        for d in [DType::F32, DType::F64, DType::F16, DType::BF16] {
            let s = suffix(d).unwrap();
            for k in [
                "binary", "compare", "unary", "fill", "copy", "sum_rows", "max_rows", "softmax",
                "gather", "scatter",
            ] {
                assert!(
                    p.contains(&format!("{k}_##NAME")) && p.contains(&format!("({s},")),
                    "{k} for {s}"
                );
            }
            for t in [
                DType::F32,
                DType::F64,
                DType::F16,
                DType::BF16,
                DType::I64,
                DType::I32,
            ] {
                let _ = (s, suffix(t).unwrap());
            }
        }
        assert!(p.contains("CASTS_FROM(bf16, bf16_t, LOAD_D_BF16)"));
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
