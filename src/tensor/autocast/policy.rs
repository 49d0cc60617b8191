//! PyTorch 2.15's autocast op lists, per device type, as data, and the table the engine reads:
//! each `AmpOp`'s policy per device, looked up by the enum (`of`).
//!
//! CUDA's lists are ATen's `AT_FORALL_LOWER_PRECISION_FP`, `AT_FORALL_FP32`,
//! `AT_FORALL_FP32_SET_OPT_DTYPE`, `AT_FORALL_PROMOTE` (aten/src/ATen/autocast_mode.h); the CPU
//! lists are the `KERNEL_CPU` registrations of aten/src/ATen/autocast_mode.cpp. Both were checked
//! against the `Autocast`/`AutocastCPU` kernels registered in a real torch 2.15 build. Names are
//! ATen operator names without overload suffixes; ops not listed run in their inputs' dtypes.

use super::AmpOp;

/// What autocast does with the floating-point inputs of an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Cast to the region's dtype (float16 on CUDA, bfloat16 on the CPU by default).
    LowerPrecision,
    /// Cast to float32.
    Fp32,
    /// Ops with a `dtype=` argument (sum, softmax, ...): run with `dtype=torch.float32` unless
    /// the caller gave one. The inputs themselves are not cast.
    Fp32SetOptDtype,
    /// Run in the widest floating dtype among the inputs (float32 beats the lower dtype).
    Promote,
    /// Refused under autocast with this message.
    Banned(&'static str),
}

/// The device types autocast knows in cudalearn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AmpDevice {
    Cpu,
    Cuda,
}

impl AmpDevice {
    pub fn name(self) -> &'static str {
        match self {
            AmpDevice::Cpu => "cpu",
            AmpDevice::Cuda => "cuda",
        }
    }
    pub fn of(d: crate::tensor::Device) -> AmpDevice {
        match d {
            crate::tensor::Device::Cpu => AmpDevice::Cpu,
            crate::tensor::Device::Cuda(_) => AmpDevice::Cuda,
        }
    }
}

pub const BCE_BANNED: &str = "torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to autocast.\nMany models use a sigmoid layer right before the binary cross entropy layer.\nIn this case, combine the two layers using torch.nn.functional.binary_cross_entropy_with_logits\nor torch.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\nsafe to autocast.";

const CUDA_LOWER: &[&str] = &[
    "_convolution",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_tbc",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "convolution",
    "cudnn_convolution",
    "cudnn_convolution_transpose",
    "prelu",
    "addmm",
    "addmv",
    "addr",
    "matmul",
    "einsum",
    "mm",
    "mv",
    "linalg_vecdot",
    "linear",
    "addbmm",
    "baddbmm",
    "bmm",
    "chain_matmul",
    "linalg_multi_dot",
    "_thnn_fused_lstm_cell",
    "_thnn_fused_gru_cell",
    "lstm_cell",
    "gru_cell",
    "rnn_tanh_cell",
    "rnn_relu_cell",
    "_scaled_dot_product_flash_attention",
    "scaled_dot_product_attention",
];

const CUDA_FP32: &[&str] = &[
    "acos",
    "asin",
    "cosh",
    "erfinv",
    "exp",
    "expm1",
    "log",
    "log10",
    "log2",
    "log1p",
    "reciprocal",
    "rsqrt",
    "sinh",
    "tan",
    "pow",
    "softplus",
    "layer_norm",
    "native_layer_norm",
    "rms_norm",
    "group_norm",
    "frobenius_norm",
    "nuclear_norm",
    "cosine_similarity",
    "poisson_nll_loss",
    "cosine_embedding_loss",
    "nll_loss",
    "nll_loss2d",
    "hinge_embedding_loss",
    "kl_div",
    "l1_loss",
    "smooth_l1_loss",
    "huber_loss",
    "mse_loss",
    "margin_ranking_loss",
    "multilabel_margin_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
    "multi_margin_loss",
    "binary_cross_entropy_with_logits",
    "dist",
    "pdist",
    "cdist",
    "renorm",
    "logsumexp",
    "linalg_matrix_sqrth",
    "upsample_nearest1d",
    "_upsample_nearest_exact1d",
    "upsample_nearest2d",
    "_upsample_nearest_exact2d",
    "upsample_nearest3d",
    "_upsample_nearest_exact3d",
    "upsample_linear1d",
    "upsample_bilinear2d",
    "_upsample_bilinear2d_aa",
    "upsample_trilinear3d",
    "upsample_bicubic2d",
    "_upsample_bicubic2d_aa",
    // fp32_append_dtype in ATen: norm runs in float32 too
    "norm",
];

const CUDA_SET_OPT_DTYPE: &[&str] = &[
    "prod",
    "softmax",
    "log_softmax",
    "cumprod",
    "cumsum",
    "linalg_vector_norm",
    "linalg_matrix_norm",
    "sum",
];

const CUDA_PROMOTE: &[&str] = &[
    "addcdiv",
    "addcmul",
    "atan2",
    "bilinear",
    "cross",
    "dot",
    "vdot",
    "grid_sampler",
    "index_put",
    "tensordot",
    "scatter_add",
];

const CPU_LOWER: &[&str] = &[
    "conv1d",
    "conv2d",
    "conv3d",
    "bmm",
    "mm",
    "linalg_vecdot",
    "baddbmm",
    "addmm",
    "_addmm_activation",
    "addbmm",
    "linear",
    "_convolution",
    "matmul",
    "conv_tbc",
    "mkldnn_rnn_layer",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "prelu",
    "scaled_dot_product_attention",
    "_native_multi_head_attention",
];

const CPU_FP32: &[&str] = &[
    "avg_pool3d",
    "binary_cross_entropy",
    "grid_sampler",
    "polar",
    "prod",
    "quantile",
    "nanquantile",
    "stft",
    "cdist",
    "grid_sampler_2d",
    "_grid_sampler_2d_cpu_fallback",
    "grid_sampler_3d",
    "trace",
    "view_as_complex",
    "cholesky",
    "cholesky_inverse",
    "cholesky_solve",
    "inverse",
    "lu_solve",
    "orgqr",
    "ormqr",
    "pinverse",
    "max_pool3d",
    "max_unpool2d",
    "max_unpool3d",
    "adaptive_avg_pool3d",
    "reflection_pad1d",
    "reflection_pad2d",
    "replication_pad1d",
    "replication_pad2d",
    "replication_pad3d",
    "mse_loss",
    "cosine_embedding_loss",
    "nll_loss",
    "nll_loss2d",
    "hinge_embedding_loss",
    "poisson_nll_loss",
    "smooth_l1_loss",
    "cross_entropy_loss",
    "l1_loss",
    "huber_loss",
    "margin_ranking_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
    "multi_margin_loss",
    "ctc_loss",
    "kl_div",
    "multilabel_margin_loss",
    "binary_cross_entropy_with_logits",
    "fft_fft",
    "fft_ifft",
    "fft_fft2",
    "fft_ifft2",
    "fft_fftn",
    "fft_ifftn",
    "fft_rfft",
    "fft_irfft",
    "fft_rfft2",
    "fft_irfft2",
    "fft_rfftn",
    "fft_irfftn",
    "fft_hfft",
    "fft_ihfft",
    "linalg_cond",
    "linalg_matrix_rank",
    "linalg_solve",
    "linalg_cholesky",
    "linalg_svdvals",
    "linalg_eigvals",
    "linalg_eigvalsh",
    "linalg_inv",
    "linalg_householder_product",
    "linalg_tensorinv",
    "linalg_tensorsolve",
    "linalg_matrix_sqrth",
    "fake_quantize_per_tensor_affine",
    "geqrf",
    "_lu_with_info",
    "qr",
    "svd",
    "triangular_solve",
    "fractional_max_pool2d",
    "fractional_max_pool3d",
    "adaptive_max_pool3d",
    "multilabel_margin_loss_forward",
    "linalg_qr",
    "linalg_cholesky_ex",
    "linalg_svd",
    "linalg_eig",
    "linalg_eigh",
    "linalg_lstsq",
    "linalg_inv_ex",
];

const CPU_PROMOTE: &[&str] = &["stack", "cat", "index_copy"];

/// The policy of `op` under `device`'s autocast, `None` when autocast leaves it alone.
pub fn policy(device: AmpDevice, op: &str) -> Option<Policy> {
    let has = |list: &[&str]| list.contains(&op);
    match device {
        AmpDevice::Cuda => {
            if op == "binary_cross_entropy" {
                Some(Policy::Banned(BCE_BANNED))
            } else if has(CUDA_LOWER) {
                Some(Policy::LowerPrecision)
            } else if has(CUDA_FP32) {
                Some(Policy::Fp32)
            } else if has(CUDA_SET_OPT_DTYPE) {
                Some(Policy::Fp32SetOptDtype)
            } else if has(CUDA_PROMOTE) {
                Some(Policy::Promote)
            } else {
                None
            }
        }
        AmpDevice::Cpu => {
            if has(CPU_LOWER) {
                Some(Policy::LowerPrecision)
            } else if has(CPU_FP32) {
                Some(Policy::Fp32)
            } else if has(CPU_PROMOTE) {
                Some(Policy::Promote)
            } else {
                None
            }
        }
    }
}

/// The policy of the engine op `op` under `device`'s autocast: PyTorch's lists (`policy`),
/// read once into a table indexed by the enum.
pub fn of(device: AmpDevice, op: AmpOp) -> Option<Policy> {
    static TABLE: std::sync::OnceLock<[Vec<Option<Policy>>; 2]> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        [AmpDevice::Cpu, AmpDevice::Cuda].map(|d| {
            AmpOp::ALL
                .iter()
                .map(|o| policy(d, o.aten_name()))
                .collect()
        })
    });
    t[device as usize][op as usize]
}

/// Every op with a policy on `device`, for `cudalearn`'s own listings and tests.
pub fn ops(device: AmpDevice) -> Vec<(&'static str, Policy)> {
    let lists: &[(&[&str], Policy)] = match device {
        AmpDevice::Cuda => &[
            (CUDA_LOWER, Policy::LowerPrecision),
            (CUDA_FP32, Policy::Fp32),
            (CUDA_SET_OPT_DTYPE, Policy::Fp32SetOptDtype),
            (CUDA_PROMOTE, Policy::Promote),
            (&["binary_cross_entropy"], Policy::Banned(BCE_BANNED)),
        ],
        AmpDevice::Cpu => &[
            (CPU_LOWER, Policy::LowerPrecision),
            (CPU_FP32, Policy::Fp32),
            (CPU_PROMOTE, Policy::Promote),
        ],
    };
    lists
        .iter()
        .flat_map(|(l, p)| l.iter().map(move |n| (*n, *p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed table agrees with the lists, and every unary op PyTorch lists has an `AmpOp`.
    #[test]
    fn the_table_is_the_lists() {
        for d in [AmpDevice::Cpu, AmpDevice::Cuda] {
            for &op in AmpOp::ALL {
                assert_eq!(of(d, op), policy(d, op.aten_name()), "{op:?}");
            }
            for u in crate::tensor::ops::unary::ALL_UNARY {
                if policy(d, u.name()).is_some() {
                    assert!(AmpOp::of_unary(u).is_some(), "{u:?} has no AmpOp");
                }
            }
        }
        assert_eq!(of(AmpDevice::Cuda, AmpOp::Exp), Some(Policy::Fp32));
        assert_eq!(of(AmpDevice::Cpu, AmpOp::Exp), None);
        assert_eq!(of(AmpDevice::Cpu, AmpOp::Cat), Some(Policy::Promote));
    }
}
