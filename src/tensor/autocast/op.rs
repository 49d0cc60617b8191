//! The engine ops autocast knows: each op entry of `tensor::ops` that PyTorch's autocast lists
//! name passes its `AmpOp` to `autocast`, which looks its policy up by the enum (the string
//! lists of `policy.rs` are read once, into a table indexed by it).
use crate::tensor::ops::unary::UnaryOp;

macro_rules! amp_ops {
    ($($v:ident => $name:literal),* $(,)?) => {
        /// An autocast-eligible engine op, named by its ATen operator.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum AmpOp {
            $($v),*
        }

        impl AmpOp {
            /// Every op, in declaration order (`op as usize` indexes it).
            pub const ALL: &'static [AmpOp] = &[$(AmpOp::$v),*];

            /// The ATen operator name, as PyTorch's autocast lists spell it.
            pub fn aten_name(self) -> &'static str {
                match self {
                    $(AmpOp::$v => $name),*
                }
            }
        }
    };
}

amp_ops! {
    Linear => "linear",
    Matmul => "matmul",
    Mm => "mm",
    Bmm => "bmm",
    Dot => "dot",
    Mv => "mv",
    Einsum => "einsum",
    Conv1d => "conv1d",
    Conv2d => "conv2d",
    Exp => "exp",
    Expm1 => "expm1",
    Log => "log",
    Log2 => "log2",
    Log10 => "log10",
    Log1p => "log1p",
    Reciprocal => "reciprocal",
    Rsqrt => "rsqrt",
    Tan => "tan",
    Pow => "pow",
    Softplus => "softplus",
    Sum => "sum",
    Prod => "prod",
    Softmax => "softmax",
    LogSoftmax => "log_softmax",
    Cat => "cat",
    Stack => "stack",
    MseLoss => "mse_loss",
    L1Loss => "l1_loss",
    NllLoss => "nll_loss",
    CrossEntropyLoss => "cross_entropy_loss",
    BinaryCrossEntropy => "binary_cross_entropy",
    BinaryCrossEntropyWithLogits => "binary_cross_entropy_with_logits",
    LayerNorm => "layer_norm",
}

impl AmpOp {
    /// The op named `name` (an ATen operator name), if the engine has it.
    pub fn from_name(name: &str) -> Option<AmpOp> {
        AmpOp::ALL.iter().copied().find(|o| o.aten_name() == name)
    }

    /// The autocast op of a unary op, for those PyTorch lists (run in float32 on CUDA).
    pub fn of_unary(op: UnaryOp) -> Option<AmpOp> {
        Some(match op {
            UnaryOp::Exp => AmpOp::Exp,
            UnaryOp::Expm1 => AmpOp::Expm1,
            UnaryOp::Log => AmpOp::Log,
            UnaryOp::Log2 => AmpOp::Log2,
            UnaryOp::Log10 => AmpOp::Log10,
            UnaryOp::Log1p => AmpOp::Log1p,
            UnaryOp::Reciprocal => AmpOp::Reciprocal,
            UnaryOp::Rsqrt => AmpOp::Rsqrt,
            UnaryOp::Tan => AmpOp::Tan,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unary_ops_keep_their_names() {
        for &op in AmpOp::ALL {
            assert_eq!(AmpOp::from_name(op.aten_name()), Some(op));
        }
        for u in crate::tensor::ops::unary::ALL_UNARY {
            if let Some(op) = AmpOp::of_unary(u) {
                assert_eq!(op.aten_name(), u.name());
            }
        }
        assert_eq!(AmpOp::from_name("relu"), None);
    }
}
