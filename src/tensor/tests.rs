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

#[test]
fn devices_must_match() {
    // GPU tensors need a GPU: two simulated ones (their memory is host memory)
    crate::backend::sim::enable(2, None);
    let a = create::ones(&[2], None, Device::Cpu).unwrap();
    let g = a.to_device(Device::Cuda(0)).unwrap();
    assert_eq!(g.device(), Device::Cuda(0));
    assert!(g.is_cuda());
    for (x, y) in [(&a, &g), (&g, &a)] {
        let e = ops::binary::add(x, y).unwrap_err();
        assert_eq!(e.msg, "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!");
        assert!(e.hint.is_some());
    }
    let g1 = a.to_device(Device::Cuda(1)).unwrap();
    let e = ops::binary::add(&g, &g1).unwrap_err();
    assert_eq!(e.msg, "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!");
    // a 0-dim CPU tensor joins a GPU op as a scalar, as in PyTorch
    let s = Tensor::scalar(Scalar::Float(2.0), DType::F32, Device::Cpu).unwrap();
    let r = ops::binary::mul(&g, &s).unwrap();
    assert_eq!(r.device(), Device::Cuda(0));
    assert_eq!(r.contiguous_values_f64().unwrap(), vec![2.0, 2.0]);
    // results of GPU ops stay on the GPU; moving back gives CPU tensors
    let back = r.to_device(Device::Cpu).unwrap();
    assert_eq!(back.device(), Device::Cpu);
    let m = create::ones(&[2, 2], None, Device::Cpu).unwrap();
    let e = ops::matmul::mm(&m.to_device(Device::Cuda(0)).unwrap(), &m).unwrap_err();
    assert_eq!(
        e.msg,
        "Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)"
    );
    let z = create::zeros(&[3], None, Device::Cuda(0)).unwrap();
    assert_eq!(z.device(), Device::Cuda(0));
    assert!(ops::join::cat(&[z.clone(), a.clone()], 0).is_err());
}

#[test]
fn python_protocols() {
    let t = create::ones(&[2], None, Device::Cpu).unwrap();
    assert_eq!(
        t.to_py_bool().unwrap_err().msg,
        "Boolean value of Tensor with more than one value is ambiguous"
    );
    assert_eq!(
        t.to_py_scalar().unwrap_err().to_string(),
        "ValueError: only one element tensors can be converted to Python scalars"
    );
    let s = Tensor::scalar(Scalar::Int(3), DType::I64, Device::Cpu).unwrap();
    assert_eq!(
        s.iter_dim0().unwrap_err().to_string(),
        "TypeError: iteration over a 0-d tensor"
    );
    assert_eq!(
        s.len().unwrap_err().to_string(),
        "TypeError: len() of a 0-d tensor"
    );
    assert_eq!(t.iter_dim0().unwrap().len(), 2);
    assert!(s.to_py_bool().unwrap());
}

#[test]
fn clone_and_detach_identity() {
    let t = create::ones(&[2, 3], None, Device::Cpu).unwrap();
    let h = t.clone();
    assert!(h.ptr_eq(&t));
    let d = t.detach();
    assert!(!d.ptr_eq(&t) && d.same_storage(&t));
    let c = t.clone_tensor().unwrap();
    assert!(!c.same_storage(&t));
    assert!(t.to_dtype(DType::F32).unwrap().ptr_eq(&t));
    assert!(t.contiguous().unwrap().ptr_eq(&t));
    t.set_requires_grad(true);
    assert!(h.requires_grad());
    assert!(t.autograd_meta().borrow().is_none());
}

#[test]
fn recycled_output_buffers_are_fully_overwritten() {
    let n = 3 << 20; // 12 MiB of f32: large enough for the buffer pool
    let a = create::full(&[n as i64], Scalar::Float(1.5), None, Device::Cpu).unwrap();
    let b = create::full(&[n as i64], Scalar::Float(2.0), None, Device::Cpu).unwrap();
    for k in 0..4 {
        let c = ops::binary::binary_scalar(ops::binary::BinaryOp::Mul, &a, Scalar::Int(k), false)
            .unwrap();
        let d = ops::binary::add(&c, &b).unwrap();
        let v = d.contiguous_values_f64().unwrap();
        assert!(v.iter().all(|&x| x == 1.5 * k as f64 + 2.0), "round {k}");
        // fresh zeros never come from the pool
        let z = create::zeros(&[n as i64], None, Device::Cpu).unwrap();
        assert!(z.contiguous_values_f64().unwrap().iter().all(|&x| x == 0.0));
    }
}

#[test]
fn set_data_swaps_while_old_references_stay_valid() {
    let t = Tensor::from_f64s(&[1.0, 2.0], &[2], DType::F32).unwrap();
    let u = Tensor::from_f64s(&[3.0, 4.0, 5.0], &[3], DType::F64).unwrap();
    let id = t.object_id();
    let old_shape = t.shape();
    let old_storage = t.storage();
    let made_storage = Rc::downgrade(old_storage);
    t.set_data(&u);
    // References taken before the swap still read the replaced data (it is parked).
    assert_eq!(old_shape, &[2]);
    assert_eq!(old_storage.dtype(), DType::F32);
    assert_eq!(
        (t.shape(), t.dtype(), t.object_id()),
        (&[3usize][..], DType::F64, id)
    );
    assert!(t.same_storage(&u));
    // A second swap replaces the data the first one gave (held apart from the tensor's
    // first data, which is never read again).
    let given_storage = Rc::downgrade(t.storage());
    let w = Tensor::from_i64s(&[7], &[1], DType::I64).unwrap();
    let mid_shape = t.shape();
    t.set_data(&w);
    assert_eq!(mid_shape, &[3]);
    assert_eq!((t.shape(), t.dtype()), (&[1usize][..], DType::I64));
    drop(u);
    // SAFETY: `old_shape`, `old_storage` and `mid_shape` are not used again.
    unsafe { release_retired() };
    assert_eq!(t.contiguous_values_f64().unwrap(), vec![7.0]);
    // Released: the replaced storages are freed once their last owners are gone.
    assert!(made_storage.upgrade().is_none());
    assert!(given_storage.upgrade().is_none());
    drop(t);
    drop(w);
}
