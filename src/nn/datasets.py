# cudalearn.datasets: data sets embedded in the binary (see assets/README.md).
import _cudalearn_nn as _N


def load_digits():
    """The 8x8 handwritten digits: X float32 [1797, 64] with raw pixel values 0..16 (not
    scaled), y int64 [1797] with the labels 0..9."""
    return _N.digits()
