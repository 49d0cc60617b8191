//! Unit tests of the engine's core; golden comparisons against PyTorch live in `tests/`.
use super::*;

#[test]
fn views_share_storage() {
    let t = create::arange(
        Scalar::Int(0),
        Scalar::Int(6),
        Scalar::Int(1),
        Some(DType::F32),
        Device::Cpu,
    )
    .unwrap();
    let v = t.view(&[2, 3]).unwrap();
    let col = v.select(1, 1).unwrap();
    ops::inplace::fill_(&col, Scalar::Float(9.0)).unwrap();
    assert_eq!(
        t.contiguous_values_f64().unwrap(),
        vec![0.0, 9.0, 2.0, 3.0, 9.0, 5.0]
    );
}
