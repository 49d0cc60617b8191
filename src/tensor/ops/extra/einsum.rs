//! `torch.einsum(equation, *operands)`. Two or more operands whose labels all agree in size
//! are contracted a pair at a time, left to right, each pair by one `bmm` as PyTorch does
//! (`'ij,jk->ik'` of 256² was 60x slower as a broadcast product of 256³ elements summed
//! afterwards, and attention-sized products ran out of memory). One operand, or a label of
//! size 1 broadcast against a larger one, takes the general route: each operand permuted and
//! unsqueezed onto one shared list of labels (output labels first, then the summed ones),
//! the operands multiplied with broadcasting and the summed labels reduced. Composed of
//! tensor ops, so it runs on every device with autograd. An ellipsis (`...`) becomes labels of its own (one per
//! broadcast dim); a label repeated within one operand first takes that operand's diagonal.
use crate::tensor::autograd::util::mul;
use crate::tensor::error::{runtime, Result};
use crate::tensor::ops::reduce::sum;
use crate::tensor::Tensor;

/// The label standing for the `k`-th ellipsis dimension (outside [a-zA-Z], never typed).
fn ellipsis_label(k: usize) -> char {
    char::from_u32(0xE000 + k as u32).unwrap_or('\u{E000}')
}

fn is_ellipsis_label(c: char) -> bool {
    ('\u{E000}'..='\u{F8FF}').contains(&c)
}

/// One side's subscripts with `...` replaced by `e` of the ellipsis labels (the last ones of
/// `total`, as broadcasting aligns trailing dims); whether it had an ellipsis.
fn expand(
    sub: &str,
    who: &str,
    e: impl Fn(usize) -> usize,
    total: usize,
) -> Result<(Vec<char>, bool)> {
    let (mut v, mut found) = (Vec::new(), false);
    let mut rest = sub;
    while let Some(c) = rest.chars().next() {
        if c == '.' {
            if !rest.starts_with("...") {
                return runtime(format!(
                    "einsum(): found '.' for {who} that is not part of any ellipsis"
                ));
            }
            if found {
                return runtime(if who == "output" {
                    "einsum(): found '.' for output but an ellipsis (...) was already found"
                        .to_string()
                } else {
                    format!("einsum(): found '.' for {who} for which an ellipsis was already found")
                });
            }
            found = true;
            let n = e(sub.chars().filter(|&c| c != '.').count());
            v.extend((total - n..total).map(ellipsis_label));
            rest = &rest[3..];
        } else {
            v.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok((v, found))
}

fn parse(eq: &str, ndims: &[usize]) -> Result<(Vec<Vec<char>>, Vec<char>)> {
    let eq: String = eq.chars().filter(|c| !c.is_whitespace()).collect();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l.to_string(), Some(r.to_string())),
        None => (eq.clone(), None),
    };
    let parts: Vec<&str> = lhs.split(',').collect();
    if parts.len() > ndims.len() {
        return runtime("einsum(): fewer operands were provided than specified in the equation");
    }
    if parts.len() < ndims.len() {
        return runtime("einsum(): more operands were provided than specified in the equation");
    }
    // how many dims each operand's ellipsis covers; the ellipsis labels are the widest's
    let covers = |k: usize, explicit: usize| ndims[k].saturating_sub(explicit);
    let total = parts
        .iter()
        .enumerate()
        .filter(|(_, p)| p.contains("..."))
        .map(|(k, p)| covers(k, p.chars().filter(|&c| c != '.').count()))
        .max()
        .unwrap_or(0);
    let mut ins = Vec::with_capacity(parts.len());
    for (k, p) in parts.iter().enumerate() {
        let (v, found) = expand(p, &format!("operand {k}"), |n| covers(k, n), total)?;
        let explicit = v.iter().filter(|c| !is_ellipsis_label(**c)).count();
        if found && explicit > ndims[k] {
            return runtime(format!(
                "einsum(): the number of subscripts in the equation ({explicit}) is more than the number of dimensions ({}) for operand {k}",
                ndims[k]
            ));
        }
        if !found && explicit != ndims[k] {
            return runtime(format!(
                "einsum(): the number of subscripts in the equation ({explicit}) does not match the number of dimensions ({}) for operand {k} and no ellipsis was given",
                ndims[k]
            ));
        }
        ins.push(v);
    }
    for s in ins.iter().flatten() {
        if !s.is_ascii_alphabetic() && !is_ellipsis_label(*s) {
            return runtime(format!(
                "einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]",
                eq.find(*s).unwrap_or(0)
            ));
        }
    }
    let out: Vec<char> = match rhs {
        Some(r) => expand(&r, "output", |_| total, total)?.0,
        None => {
            // implicit form: the ellipsis dims, then the labels that occur once, sorted
            let mut once: Vec<char> = ins
                .iter()
                .flatten()
                .filter(|c| {
                    !is_ellipsis_label(**c) && ins.iter().flatten().filter(|d| d == c).count() == 1
                })
                .cloned()
                .collect();
            once.sort_unstable();
            (0..total).map(ellipsis_label).chain(once).collect()
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

/// `t` with each label repeated in `sub` taken once, along its diagonal (`'ii->i'`): the
/// labels in first-occurrence order and the tensor over them.
fn diagonals(t: &Tensor, sub: &[char], k: usize) -> Result<(Tensor, Vec<char>)> {
    let mut labels: Vec<char> = Vec::new();
    let mut size: Vec<usize> = Vec::new();
    for (d, c) in sub.iter().enumerate() {
        match labels.iter().position(|l| l == c) {
            Some(at) if size[at] != t.shape()[d] => {
                return runtime(format!(
                    "einsum(): subscript {c} is repeated for operand {k} but the sizes don't match, {} != {}",
                    t.shape()[d],
                    size[at]
                ))
            }
            Some(_) => {}
            None => {
                labels.push(*c);
                size.push(t.shape()[d]);
            }
        }
    }
    if labels.len() == sub.len() {
        return Ok((t.clone(), labels));
    }
    // element (i_0, .., i_m) of the result is t at the position where each dim takes its
    // label's index
    let strides = super::host::strides_of(t.shape());
    let n: usize = size.iter().product();
    let mut flat = Vec::with_capacity(n);
    let mut at = vec![0usize; labels.len()];
    for _ in 0..n {
        let p: usize = sub
            .iter()
            .enumerate()
            .map(|(d, c)| at[labels.iter().position(|l| l == c).unwrap_or(0)] * strides[d])
            .sum();
        flat.push(p as i64);
        for q in (0..at.len()).rev() {
            at[q] += 1;
            if at[q] < size[q] {
                break;
            }
            at[q] = 0;
        }
    }
    Ok((super::host::take_flat(t, &flat, &size)?, labels))
}

pub fn einsum(eq: &str, ops: &[Tensor]) -> Result<Tensor> {
    let refs: Vec<&Tensor> = ops.iter().collect();
    let cast = crate::tensor::autocast::inputs(crate::tensor::autocast::AmpOp::Einsum, &refs)?;
    let ops = cast.as_deref().unwrap_or(ops);
    crate::tensor::autocast::excluded(|| einsum_uncast(eq, ops))
}

/// `einsum` past autocast (its inputs already cast, nested ops not cast again).
fn einsum_uncast(eq: &str, ops: &[Tensor]) -> Result<Tensor> {
    let ndims: Vec<usize> = ops.iter().map(|t| t.ndim()).collect();
    let (ins, out) = parse(eq, &ndims)?;
    let mut labels = out.clone();
    for c in ins.iter().flatten() {
        if !labels.contains(c) {
            labels.push(*c);
        }
    }
    let mut sizes = vec![1usize; labels.len()];
    let mut took_diagonal = false;
    let mut operands = Vec::with_capacity(ops.len());
    for (k, (t, sub)) in ops.iter().zip(&ins).enumerate() {
        let (t, sub) = diagonals(t, sub, k)?;
        took_diagonal |= sub.len() < ins[k].len();
        for (d, c) in sub.iter().enumerate() {
            let (l, s) = (
                labels.iter().position(|l| l == c).unwrap_or(0),
                t.shape()[d],
            );
            if sizes[l] != 1 && s != 1 && sizes[l] != s {
                return runtime(format!(
                    "einsum(): subscript {} has size {s} for operand {k} which does not broadcast with previously seen size {}",
                    labels[l], sizes[l]
                ));
            }
            sizes[l] = sizes[l].max(s);
        }
        operands.push((t, sub));
    }
    // no label broadcast (every operand that has it has its full size): contract with bmm
    let whole = operands.iter().all(|(t, sub)| {
        sub.iter().zip(t.shape()).all(|(c, &s)| {
            labels
                .iter()
                .position(|l| l == c)
                .is_some_and(|l| sizes[l] == s)
        })
    });
    if ops.len() > 1 && whole {
        let r = contract(operands, &out)?;
        // PyTorch contracts with bmm and views the result back
        super::host::rename(&r, "ViewBackward0");
        return Ok(r);
    }
    let mut terms = Vec::with_capacity(ops.len());
    for (t, sub) in &operands {
        // this operand's dims in the shared label order, then the missing labels as size 1
        let mut pos: Vec<(usize, usize)> = sub
            .iter()
            .enumerate()
            .map(|(d, c)| (labels.iter().position(|l| l == c).unwrap_or(0), d))
            .collect();
        pos.sort_unstable();
        let perm: Vec<i64> = pos.iter().map(|&(_, d)| d as i64).collect();
        let mut shape = vec![1i64; labels.len()];
        for &(l, d) in &pos {
            shape[l] = t.shape()[d] as i64;
        }
        terms.push(t.permute(&perm)?.reshape(&shape)?);
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
    if ops.len() == 1 && took_diagonal && labels.len() == out.len() {
        // PyTorch takes the diagonal as a view and permutes it
        super::host::rename(&r, "PermuteBackward0");
    }
    if ops.len() > 1 {
        // PyTorch contracts with bmm and views the result back
        super::host::rename(&r, "ViewBackward0");
    }
    Ok(r)
}

/// The operands multiplied and summed left to right, a pair at a time as PyTorch does: the
/// labels of a pair that the output or a later operand still needs are kept, the ones both
/// sides share beyond those are contracted by one `bmm`, and those only one side has are
/// summed out of it first. Then the output's label order.
fn contract(operands: Vec<(Tensor, Vec<char>)>, out: &[char]) -> Result<Tensor> {
    let mut rest = operands.into_iter();
    let Some((mut acc, mut acc_sub)) = rest.next() else {
        return runtime("einsum(): must provide at least one operand");
    };
    let rest: Vec<(Tensor, Vec<char>)> = rest.collect();
    for (k, (t, sub)) in rest.iter().enumerate() {
        let keep: Vec<char> = out
            .iter()
            .chain(rest[k + 1..].iter().flat_map(|(_, s)| s))
            .copied()
            .collect();
        (acc, acc_sub) = contract_pair((&acc, &acc_sub), (t, sub), &keep)?;
    }
    let perm: Vec<i64> = out
        .iter()
        .map(|c| acc_sub.iter().position(|l| l == c).unwrap_or(0) as i64)
        .collect();
    acc.permute(&perm)
}

type Labelled<'a> = (&'a Tensor, &'a [char]);

/// One pair of `contract`: the product over labels batch (shared, kept), left (`a`'s own),
/// right (`b`'s own) in that order, and its labels.
fn contract_pair(a: Labelled, b: Labelled, keep: &[char]) -> Result<(Tensor, Vec<char>)> {
    let (a, sa) = sum_own(a, b.1, keep)?;
    let (b, sb) = sum_own(b, &sa, keep)?;
    let pick = |s: &[char], f: &dyn Fn(&char) -> bool| -> Vec<char> {
        s.iter().filter(|c| f(c)).copied().collect()
    };
    let batch = pick(&sa, &|c| sb.contains(c) && keep.contains(c));
    let summed = pick(&sa, &|c| sb.contains(c) && !keep.contains(c));
    let left = pick(&sa, &|c| !sb.contains(c));
    let right = pick(&sb, &|c| !sa.contains(c));
    let size =
        |t: &Tensor, s: &[char], c: char| t.shape()[s.iter().position(|&l| l == c).unwrap_or(0)];
    let sizes = |t: &Tensor, s: &[char], ls: &[char]| -> Vec<i64> {
        ls.iter().map(|&c| size(t, s, c) as i64).collect()
    };
    let perm = |s: &[char], order: &[&[char]]| -> Vec<i64> {
        order
            .concat()
            .iter()
            .map(|c| s.iter().position(|l| l == c).unwrap_or(0) as i64)
            .collect()
    };
    let n = |v: &[i64]| v.iter().product::<i64>();
    let (nb, nl) = (sizes(&a, &sa, &batch), sizes(&a, &sa, &left));
    let (nc, nr) = (sizes(&a, &sa, &summed), sizes(&b, &sb, &right));
    let am = a
        .permute(&perm(&sa, &[&batch, &left, &summed]))?
        .reshape(&[n(&nb), n(&nl), n(&nc)])?;
    let bm = b
        .permute(&perm(&sb, &[&batch, &summed, &right]))?
        .reshape(&[n(&nb), n(&nc), n(&nr)])?;
    let p = crate::tensor::ops::matmul::bmm(&am, &bm)?;
    let p = p.reshape(&[nb, nl, nr].concat())?;
    Ok((p, [batch, left, right].concat()))
}

/// `t` with the labels that neither `other` nor `keep` has summed out.
fn sum_own((t, s): Labelled, other: &[char], keep: &[char]) -> Result<(Tensor, Vec<char>)> {
    let own: Vec<i64> = (0..s.len())
        .filter(|&d| !other.contains(&s[d]) && !keep.contains(&s[d]))
        .map(|d| d as i64)
        .collect();
    if own.is_empty() {
        return Ok((t.clone(), s.to_vec()));
    }
    let rest = (0..s.len())
        .filter(|d| !own.contains(&(*d as i64)))
        .map(|d| s[d]);
    Ok((sum(t, Some(&own), false, None)?, rest.collect()))
}
