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

/// How `im2col` lays out the windows of an image batch `[N, C, H, W]`: the window, the output
/// size it gives, and whether the kernel offsets come before the channels (`offsets_outer`:
/// `[N, kh*kw, C, OH*OW]`) or after them (`[N, C, kh*kw, OH*OW]`).
#[derive(Clone, Copy, Debug)]
pub struct Columns {
    pub window: Window,
    pub out: [usize; 2],
    pub offsets_outer: bool,
}

impl Columns {
    /// Kernel offsets per window (`kh * kw`).
    pub fn offsets(&self) -> usize {
        self.window.kernel[0] * self.window.kernel[1]
    }

    /// The columns' shape for `n` images of `c` channels.
    pub fn shape(&self, n: usize, c: usize) -> [usize; 4] {
        let (kk, len) = (self.offsets(), self.out[0] * self.out[1]);
        if self.offsets_outer {
            [n, kk, c, len]
        } else {
            [n, c, kk, len]
        }
    }

    /// The row (of `OH * OW`) that holds image `img`, kernel offset `off`, channel `ch`, of
    /// `c` channels; `place` is its inverse.
    pub fn row(&self, c: usize, [img, off, ch]: [usize; 3]) -> usize {
        let kk = self.offsets();
        if self.offsets_outer {
            (img * kk + off) * c + ch
        } else {
            (img * c + ch) * kk + off
        }
    }

    /// (image, kernel offset, channel) of row `r`, of `c` channels.
    pub fn place(&self, c: usize, r: usize) -> [usize; 3] {
        let kk = self.offsets();
        let (img, rest) = (r / (kk * c), r % (kk * c));
        if self.offsets_outer {
            [img, rest / c, rest % c]
        } else {
            [img, rest % kk, rest / kk]
        }
    }
}
