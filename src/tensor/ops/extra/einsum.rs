//! `torch.einsum(equation, *operands)`: each operand is permuted and unsqueezed onto one
//! shared list of labels (output labels first, then the summed ones), the operands are
//! multiplied with broadcasting and the summed labels reduced. Composed of tensor ops, so it
//! runs on every device with autograd. Ellipsis (`...`) and repeated labels within one
//! operand (diagonals) are refused with a hint.
use crate::tensor::autograd::util::mul;
use crate::tensor::error::{not_impl, runtime, Result};
use crate::tensor::ops::reduce::sum;
use crate::tensor::Tensor;

fn parse(eq: &str, n: usize) -> Result<(Vec<Vec<char>>, Vec<char>)> {
    let eq: String = eq.chars().filter(|c| !c.is_whitespace()).collect();
    if eq.contains("...") {
        return not_impl("cudalearn does not implement '...' (ellipsis) in torch.einsum yet")
            .map_err(|e| e.with_hint("write every dimension's letter out, e.g. 'bij,bjk->bik'"));
    }
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l.to_string(), Some(r.to_string())),
        None => (eq.clone(), None),
    };
    let ins: Vec<Vec<char>> = lhs.split(',').map(|s| s.chars().collect()).collect();
    if ins.len() > n {
        return runtime("einsum(): fewer operands were provided than specified in the equation");
    }
    if ins.len() < n {
        return runtime("einsum(): more operands were provided than specified in the equation");
    }
    for s in ins.iter().flatten() {
        if !s.is_ascii_alphabetic() {
            return runtime(format!(
                "einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]",
                eq.find(*s).unwrap_or(0)
            ));
        }
    }
    let out: Vec<char> = match rhs {
        Some(r) => r.chars().collect(),
        None => {
            // implicit form: the labels that occur once, in alphabetical order
            let mut once: Vec<char> = ins
                .iter()
                .flatten()
                .filter(|c| ins.iter().flatten().filter(|d| d == c).count() == 1)
                .cloned()
                .collect();
            once.sort_unstable();
            once
        }
    };
    for c in &out {
        if !ins.iter().flatten().any(|d| d == c) {
            return runtime(format!(
                "einsum(): output subscript {c} does not appear in the equation for any input operand"
            ));
        }
    }
    Ok((ins, out))
}

pub fn einsum(eq: &str, ops: &[Tensor]) -> Result<Tensor> {
    let (ins, out) = parse(eq, ops.len())?;
    let mut labels = out.clone();
    for c in ins.iter().flatten() {
        if !labels.contains(c) {
            labels.push(*c);
        }
    }
    let mut sizes = vec![1usize; labels.len()];
    let mut terms = Vec::with_capacity(ops.len());
    for (k, (t, sub)) in ops.iter().zip(&ins).enumerate() {
        if sub.len() != t.ndim() {
            return runtime(format!(
                "einsum(): the number of subscripts in the equation ({}) does not match the number of dimensions ({}) for operand {k} and no ellipsis was given",
                sub.len(),
                t.ndim()
            ));
        }
        let mut seen = Vec::new();
        for c in sub {
            if seen.contains(c) {
                return not_impl("cudalearn does not implement a repeated subscript within one operand of torch.einsum (a diagonal) yet")
                    .map_err(|e| e.with_hint("take the diagonal first with torch.diagonal(x) or torch.diag(x)"));
            }
            seen.push(*c);
        }
        // this operand's dims in the shared label order, then the missing labels as size 1
        let mut pos: Vec<(usize, usize)> = sub
            .iter()
            .enumerate()
            .map(|(d, c)| (labels.iter().position(|l| l == c).unwrap_or(0), d))
            .collect();
        pos.sort_unstable();
        let perm: Vec<i64> = pos.iter().map(|&(_, d)| d as i64).collect();
        let p = t.permute(&perm)?;
        let mut shape = vec![1i64; labels.len()];
        for &(l, d) in &pos {
            let s = t.shape()[d];
            if sizes[l] != 1 && s != 1 && sizes[l] != s {
                return runtime(format!(
                    "einsum(): subscript {} has size {s} for operand {k} which does not broadcast with previously seen size {}",
                    labels[l], sizes[l]
                ));
            }
            sizes[l] = sizes[l].max(s);
            shape[l] = s as i64;
        }
        terms.push(p.reshape(&shape)?);
    }
    let mut r = terms[0].clone();
    for t in &terms[1..] {
        r = mul(&r, t)?;
    }
    if labels.len() > out.len() {
        let dims: Vec<i64> = (out.len() as i64..labels.len() as i64).collect();
        r = sum(&r, Some(&dims), false, None)?;
    }
    let want: Vec<i64> = out
        .iter()
        .map(|c| sizes[labels.iter().position(|l| l == c).unwrap_or(0)] as i64)
        .collect();
    if r.shape().iter().map(|&s| s as i64).collect::<Vec<_>>() != want {
        r = r.expand(&want)?;
    }
    if ops.len() > 1 {
        // PyTorch contracts with bmm and views the result back
        super::host::rename(&r, "ViewBackward0");
    }
    Ok(r)
}
