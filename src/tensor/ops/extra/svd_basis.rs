//! Orthonormal bases for the SVD's singular vectors: a rank-deficient matrix leaves some
//! vectors undetermined (their singular value is zero), and `full_matrices=True` asks for more
//! vectors than there are singular values. Both are filled as LAPACK's are in spirit: any unit
//! vectors orthogonal to the ones already found (here the standard basis vectors, projected
//! out by Gram–Schmidt twice, the first whose remainder is large enough).

/// Makes `vecs` (each of length `dim`) an orthonormal set of `want` vectors: every vector in
/// `null` (indices whose vector is undetermined) is replaced, and vectors are appended until
/// there are `want`. The other vectors are kept (they are orthonormal already).
pub fn complete(vecs: &mut Vec<Vec<f64>>, null: &[usize], dim: usize, want: usize) {
    let mut fixed: Vec<bool> = (0..vecs.len()).map(|j| !null.contains(&j)).collect();
    let mut slots: Vec<usize> = null.to_vec();
    while vecs.len() < want {
        slots.push(vecs.len());
        vecs.push(vec![0.0; dim]);
        fixed.push(false);
    }
    let mut next_basis = 0;
    for slot in slots {
        while next_basis < dim {
            let mut v = vec![0.0; dim];
            v[next_basis] = 1.0;
            next_basis += 1;
            for _ in 0..2 {
                for (j, u) in vecs.iter().enumerate() {
                    if fixed[j] {
                        let d: f64 = u.iter().zip(&v).map(|(a, b)| a * b).sum();
                        v.iter_mut().zip(u).for_each(|(x, a)| *x -= d * a);
                    }
                }
            }
            let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm > 0.5 / (dim as f64).sqrt() {
                vecs[slot] = v.iter().map(|x| x / norm).collect();
                fixed[slot] = true;
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::complete;

    #[test]
    fn completes_to_an_orthonormal_basis() {
        let s = 0.5f64.sqrt();
        let mut v = vec![vec![s, s, 0.0], vec![0.0; 3]];
        complete(&mut v, &[1], 3, 3);
        for a in 0..3 {
            for b in 0..3 {
                let d: f64 = v[a].iter().zip(&v[b]).map(|(x, y)| x * y).sum();
                let want = if a == b { 1.0 } else { 0.0 };
                assert!((d - want).abs() < 1e-12, "{v:?}");
            }
        }
        let mut e = vec![];
        complete(&mut e, &[], 2, 2);
        assert_eq!(e, vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
    }
}
