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

/// A parsed device string: its type (any of PyTorch's, checked to be known) and its index as
/// written (`torch.device('cuda').index` is `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceSpec<'a> {
    pub kind: &'a str,
    pub index: Option<u32>,
}

impl DeviceSpec<'_> {
    /// The device it names (a bare `"cuda"` as GPU 0: callers substitute the current one);
    /// a known type other than cpu/cuda is refused as not supported.
    pub fn device(&self) -> crate::core::Result<Device> {
        match self.kind {
            "cpu" => Ok(Device::Cpu),
            "cuda" => Ok(Device::Cuda(self.index.unwrap_or(0))),
            other => crate::core::error::not_impl(format!(
                "cudalearn supports only cpu and cuda devices, not {other}"
            )),
        }
    }
}

/// The one device-string parser (`torch.device(s)`, `.to(s)`, `device=` arguments, autocast),
/// c10's `Device(const std::string&)` rule for rule: a type of letters, digits and `_`, then
/// optionally `:` and an index without leading zeros (`cuda:01` is invalid); errors in
/// PyTorch's order and words.
pub fn parse_device(s: &str) -> crate::core::Result<DeviceSpec<'_>> {
    use crate::core::error::runtime;
    if s.is_empty() {
        return runtime("Device string must not be empty");
    }
    let invalid = || runtime(format!("Invalid device string: '{s}'"));
    let (kind, index) = match s.split_once(':') {
        Some((k, i)) => (k, Some(i)),
        None => (s, None),
    };
    let name_ok = !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let index_ok = index.is_none_or(|i| {
        !i.is_empty()
            && i.bytes().all(|b| b.is_ascii_digit())
            && (i.len() == 1 || !i.starts_with('0'))
    });
    if !name_ok || !index_ok {
        return invalid();
    }
    let index = match index {
        None => None,
        Some(i) => match i.parse::<i32>() {
            Ok(v) => Some(v as u32),
            Err(_) => {
                return runtime(format!(
                    "Could not parse device index '{i}' in device string '{s}'"
                ))
            }
        },
    };
    if !KNOWN.contains(&kind) {
        return runtime(format!(
            "Expected one of {} device type at start of device string: {s}",
            KNOWN.join(", ")
        ));
    }
    Ok(DeviceSpec { kind, index })
}

impl Device {
    /// `parse_device` resolved to a device (cpu or cuda), with the index as written.
    pub fn parse(s: &str) -> crate::core::Result<(Device, Option<u32>)> {
        let spec = parse_device(s)?;
        Ok((spec.device()?, spec.index))
    }
}

/// The device types PyTorch names in its parse error, in its order.
pub const KNOWN: [&str; 20] = [
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
        // as PyTorch 2.15 says (torch-golden)
        for bad in [
            "cuda:01", "cuda:00", "cuda:", "cuda 0", " cuda", "cuda:0 ", "cuda:1:2",
        ] {
            assert_eq!(
                parse_device(bad).unwrap_err().msg,
                format!("Invalid device string: '{bad}'")
            );
        }
        assert_eq!(
            parse_device("").unwrap_err().msg,
            "Device string must not be empty"
        );
        assert_eq!(
            parse_device("cuda:99999999999").unwrap_err().msg,
            "Could not parse device index '99999999999' in device string 'cuda:99999999999'"
        );
        assert_eq!(parse_device("mps").unwrap().kind, "mps");
        assert!(parse_device("mps").unwrap().device().is_err());
    }
}
