//! The op enums: which elementwise or reducing kernel a backend runs. They name ops, as the
//! method names PyTorch gives them; the dtype and shape rules that pick a kernel's operands live
//! with the front-end ops in `tensor::ops`.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Abs,
    Sqrt,
    Rsqrt,
    Exp,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Tanh,
    Sigmoid,
    Relu,
    Floor,
    Ceil,
    Round,
    Trunc,
    Frac,
    Sign,
    Reciprocal,
    Square,
    LogicalNot,
    BitwiseNot,
    IsNan,
    /// `signbit`: the float's sign bit (`-0.0` and negative NaNs too), `x < 0` for integers.
    Signbit,
    /// `F.silu` (`x * sigmoid(x)`, as ATen computes it `x / (1 + exp(-x))`); no method name.
    Silu,
    /// `F.gelu` (`x * Φ(x)`, through erf); no method name.
    Gelu,
    /// `F.gelu(approximate='tanh')`.
    GeluTanh,
    /// The derivative of `Gelu` at `x` (its backward multiplies it by the gradient).
    GeluGrad,
    /// The derivative of `GeluTanh` at `x`.
    GeluTanhGrad,
}

/// Every unary op, in declaration order (the CUDA kernels' op codes follow it).
#[rustfmt::skip]
pub const ALL_UNARY: [UnaryOp; 33] = {
    use UnaryOp::*;
    [
        Neg, Abs, Sqrt, Rsqrt, Exp, Expm1, Log, Log2, Log10, Log1p, Sin, Cos, Tan, Tanh, Sigmoid,
        Relu, Floor, Ceil, Round, Trunc, Frac, Sign, Reciprocal, Square, LogicalNot, BitwiseNot,
        IsNan, Signbit, Silu, Gelu, GeluTanh, GeluGrad, GeluTanhGrad,
    ]
};

impl UnaryOp {
    pub fn name(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Neg => "neg",
            Abs => "abs",
            Sqrt => "sqrt",
            Rsqrt => "rsqrt",
            Exp => "exp",
            Expm1 => "expm1",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Tanh => "tanh",
            Sigmoid => "sigmoid",
            Relu => "relu",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Trunc => "trunc",
            Frac => "frac",
            Sign => "sign",
            Reciprocal => "reciprocal",
            Square => "square",
            LogicalNot => "logical_not",
            BitwiseNot => "bitwise_not",
            IsNan => "isnan",
            Signbit => "signbit",
            Silu => "silu",
            Gelu | GeluTanh => "gelu",
            GeluGrad | GeluTanhGrad => "gelu_backward",
        }
    }

    /// Parse a method name (`x.exp()` → `Exp`); `None` for names that are not unary ops.
    pub fn from_name(name: &str) -> Option<UnaryOp> {
        use UnaryOp::*;
        match name {
            "negative" => Some(Neg),
            "absolute" => Some(Abs),
            // the activations are functions of `torch.nn.functional`, not tensor methods
            _ => ALL_UNARY
                .into_iter()
                .filter(|op| !matches!(op, Silu | Gelu | GeluTanh | GeluGrad | GeluTanhGrad))
                .find(|op| op.name() == name),
        }
    }

    /// Functions only defined on floats (integers are promoted first).
    pub fn float_only(self) -> bool {
        use UnaryOp::*;
        matches!(
            self,
            Sqrt | Rsqrt
                | Exp
                | Expm1
                | Log
                | Log2
                | Log10
                | Log1p
                | Sin
                | Cos
                | Tan
                | Tanh
                | Sigmoid
                | Silu
                | Gelu
                | GeluTanh
                | GeluGrad
                | GeluTanhGrad
                | Reciprocal
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// True division (`/`): integer inputs give the default float dtype.
    Div,
    /// `//` and `div(rounding_mode='floor')`.
    FloorDiv,
    /// `div(rounding_mode='trunc')`.
    TruncDiv,
    /// `%`: Python's remainder (sign of the divisor).
    Rem,
    /// `fmod`: C's remainder (sign of the dividend).
    Fmod,
    Pow,
    Maximum,
    Minimum,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
    pub fn is_logical(self) -> bool {
        matches!(
            self,
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr | BinaryOp::LogicalXor
        )
    }
    /// Comparisons and logical ops give bool tensors whatever their inputs.
    pub fn returns_bool(self) -> bool {
        self.is_comparison() || self.is_logical()
    }
    /// The method name (`add`, `floor_divide`, `eq`, ...).
    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            Div => "div",
            FloorDiv => "floor_divide",
            TruncDiv => "div",
            Rem => "remainder",
            Fmod => "fmod",
            Pow => "pow",
            Maximum => "maximum",
            Minimum => "minimum",
            BitAnd => "bitwise_and",
            BitOr => "bitwise_or",
            BitXor => "bitwise_xor",
            Eq => "eq",
            Ne => "ne",
            Lt => "lt",
            Le => "le",
            Gt => "gt",
            Ge => "ge",
            LogicalAnd => "logical_and",
            LogicalOr => "logical_or",
            LogicalXor => "logical_xor",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Sum,
    Prod,
    Max,
    Min,
    All,
    Any,
}
