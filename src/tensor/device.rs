//! `torch.device`: where a tensor lives.
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    Cpu,
    /// `cuda:N`, backed by a real GPU or by the simulated one.
    Cuda(u32),
}

impl Device {
    pub fn type_name(self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Cuda(_) => "cuda",
        }
    }
}

/// `str(device)`: `cpu`, `cuda:0`.
impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Device::Cpu => write!(f, "cpu"),
            Device::Cuda(i) => write!(f, "cuda:{i}"),
        }
    }
}

impl Device {
    /// Parse `torch.device(s)`: `"cpu"`, `"cuda"`, `"cuda:1"`, `"cpu:0"`. Returns the device
    /// (a bare `"cuda"` resolved to index 0; the caller substitutes the current device) and the
    /// index exactly as written, which `torch.device('cuda').index` reports as `None`.
    pub fn parse(s: &str) -> crate::tensor::Result<(Device, Option<u32>)> {
        let (kind, idx) = match s.split_once(':') {
            Some((k, i)) => (k, Some(i)),
            None => (s, None),
        };
        let index = match idx {
            None => None,
            Some(i) if !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()) => match i
                .parse::<u32>()
            {
                Ok(v) => Some(v),
                Err(_) => {
                    return crate::tensor::error::runtime(format!("Invalid device string: '{s}'"))
                }
            },
            Some(_) => {
                return crate::tensor::error::runtime(format!("Invalid device string: '{s}'"))
            }
        };
        match kind {
            "cpu" => Ok((Device::Cpu, index)),
            "cuda" => Ok((Device::Cuda(index.unwrap_or(0)), index)),
            _ if KNOWN.contains(&kind) => crate::tensor::error::not_impl(format!(
                "cudalearn supports only cpu and cuda devices, not {kind}"
            )),
            _ => crate::tensor::error::runtime(format!(
                "Expected one of {} device type at start of device string: {s}",
                KNOWN.join(", ")
            )),
        }
    }
}

/// The device types PyTorch names in its parse error, in its order.
const KNOWN: [&str; 20] = [
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_like_torch_device() {
        assert_eq!(Device::parse("cpu").unwrap(), (Device::Cpu, None));
        assert_eq!(Device::parse("cuda").unwrap(), (Device::Cuda(0), None));
        assert_eq!(Device::parse("cuda:1").unwrap(), (Device::Cuda(1), Some(1)));
        assert_eq!(Device::parse("cpu:0").unwrap(), (Device::Cpu, Some(0)));
        assert_eq!(
            Device::parse("cuda:x").unwrap_err().msg,
            "Invalid device string: 'cuda:x'"
        );
        assert_eq!(
            Device::parse("cuda:-1").unwrap_err().msg,
            "Invalid device string: 'cuda:-1'"
        );
        assert!(Device::parse("CPU")
            .unwrap_err()
            .msg
            .starts_with("Expected one of cpu, cuda, ipu, xpu"));
        assert!(Device::parse("foo")
            .unwrap_err()
            .msg
            .ends_with("device type at start of device string: foo"));
    }
}
