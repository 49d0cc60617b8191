//! The backward rule of `torch.linalg.svd` (`LinalgSvdBackward0`), PyTorch's `svd_backward`
//! for real matrices written with tensor ops (so it runs on the factors' device and can be
//! differentiated again): with `E[i][j] = S[j]² − S[i]²` (1 on the diagonal),
//! `gA = U [ (skew(Uᵀ gU) S + S skew(Vh gVhᵀ)) / E + diag(gS) ] Vh`, plus the parts of `gU`
//! outside U's span (tall A) or of `gVh` outside Vh's (wide A). Like PyTorch it assumes
//! distinct singular values (repeated ones give inf/NaN); with `full_matrices=True` only the
//! first `k` vectors and their gradients take part.
use crate::tensor::autograd::util::{add, div, mul, sub};
use crate::tensor::create::eye;
use crate::tensor::error::Result;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::Tensor;

fn mt(t: &Tensor) -> Result<Tensor> {
    t.transpose(-2, -1)
}

/// `A − Aᵀ` over the last two dims.
fn skew(a: &Tensor) -> Result<Tensor> {
    sub(a, &mt(a)?)
}

/// The gradient of A from the gradients of (U, S, Vh) (`None`: none reached that output).
/// `u` is `m`×`k`, `s` has `k` values, `vh` is `k`×`n` (the reduced factors).
pub fn svd_backward(
    gu: Option<&Tensor>,
    gs: Option<&Tensor>,
    gvh: Option<&Tensor>,
    u: &Tensor,
    s: &Tensor,
    vh: &Tensor,
) -> Result<Option<Tensor>> {
    let m = u.shape()[u.ndim() - 2];
    let n = vh.shape()[vh.ndim() - 1];
    if gu.is_none() && gvh.is_none() {
        let Some(gs) = gs else { return Ok(None) };
        // svdvals' rule: U diag(gS) Vh
        return Ok(Some(if m >= n {
            matmul(u, &mul(&gs.unsqueeze(-1)?, vh)?)?
        } else {
            matmul(&mul(u, &gs.unsqueeze(-2)?)?, vh)?
        }));
    }
    let k = s.shape()[s.ndim() - 1];
    let id = eye(k as i64, None, Some(s.dtype()), s.device())?;
    let s2 = mul(s, s)?;
    // E[i][j] = S[j]^2 - S[i]^2, ones on the diagonal (it only divides zeros there)
    let e = add(&sub(&s2.unsqueeze(-2)?, &s2.unsqueeze(-1)?)?, &id)?;
    let uhgu = gu.map(|g| skew(&matmul(&mt(u)?, g)?)).transpose()?;
    let vhgv = gvh.map(|g| skew(&matmul(vh, &mt(g)?)?)).transpose()?;
    let mut ga = match (&uhgu, &vhgv) {
        (Some(a), Some(b)) => div(
            &add(&mul(a, &s.unsqueeze(-2)?)?, &mul(&s.unsqueeze(-1)?, b)?)?,
            &e,
        )?,
        (None, Some(b)) => div(&mul(&s.unsqueeze(-1)?, b)?, &e)?,
        (Some(a), None) => div(&mul(a, &s.unsqueeze(-2)?)?, &e)?,
        (None, None) => unreachable!("one of gU, gVh is defined here"),
    };
    if let Some(gs) = gs {
        ga = add(&ga, &mul(&gs.unsqueeze(-1)?, &id)?)?;
    }
    Ok(Some(match (gu, gvh) {
        (Some(gu), _) if m > n => {
            // [U gA + (I − U Uᵀ) gU S⁻¹] Vh
            let g = matmul(u, &ga)?;
            let gu_sinv = div(gu, &s.unsqueeze(-2)?)?;
            let g = sub(
                &add(&g, &gu_sinv)?,
                &matmul(u, &matmul(&mt(u)?, &gu_sinv)?)?,
            )?;
            matmul(&g, vh)?
        }
        (_, Some(gvh)) if m < n => {
            // U [gA Vh + S⁻¹ gVh (I − Vhᵀ Vh)]
            let g = matmul(&ga, vh)?;
            let sinv_gvh = div(gvh, &s.unsqueeze(-1)?)?;
            let g = sub(
                &add(&g, &sinv_gvh)?,
                &matmul(&matmul(&sinv_gvh, &mt(vh)?)?, vh)?,
            )?;
            matmul(u, &g)?
        }
        _ if m >= n => matmul(u, &matmul(&ga, vh)?)?,
        _ => matmul(&matmul(u, &ga)?, vh)?,
    }))
}
