//! The window geometry of the 2-d ops that slide a kernel over an image (convolution and
//! pooling): shared by the tensor layer's ops and the CPU backend's `im2col`.

/// Window geometry of a 2-d op: kernel, stride, padding, dilation (each (h, w)).
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
}

impl Window {
    /// The output size for an input of `input` rows and columns; `None` where a window
    /// does not fit.
    pub fn out_size(&self, input: [usize; 2]) -> Option<[usize; 2]> {
        let mut o = [0; 2];
        for k in 0..2 {
            let span = self.dilation[k] * (self.kernel[k] - 1) + 1;
            let padded = input[k] + 2 * self.padding[k];
            if padded < span || self.stride[k] == 0 {
                return None;
            }
            let mut n = (padded - span) / self.stride[k] + 1;
            if self.ceil_mode && !(padded - span).is_multiple_of(self.stride[k]) {
                // a last window may start in the input or left padding, never the right
                if (n) * self.stride[k] < input[k] + self.padding[k] {
                    n += 1;
                }
            }
            o[k] = n;
        }
        Some(o)
    }
}
