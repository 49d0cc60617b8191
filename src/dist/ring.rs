//! The collectives on a ring of ranks, on flat `f64` buffers.
//!
//! All-reduce is the bandwidth-optimal ring algorithm NCCL and Gloo use for large buffers:
//! the buffer is cut into `world` chunks; in `world - 1` reduce-scatter steps every rank
//! sends one chunk to the next rank and adds the chunk it receives from the previous one,
//! after which rank `r` holds the finished chunk `r`; in `world - 1` all-gather steps the
//! finished chunks travel round the ring. Each rank sends `2 (world - 1) / world` of the
//! buffer, whatever the world size. Each chunk is reduced on one rank only and then copied,
//! so every rank ends with bit-identical values. Broadcast passes the buffer along the ring
//! from the source.
use super::transport::{Link, Tag};
use super::{ReduceOp, Result};

/// This rank's place in the ring and its links (none in a world of one).
pub struct Ring {
    pub rank: usize,
    pub world: usize,
    links: Option<(Link, Link)>,
    /// A second handle on the previous rank's socket, to stop a receive from another thread.
    prev_stop: Option<std::net::TcpStream>,
}

impl Ring {
    pub fn single() -> Ring {
        Ring {
            rank: 0,
            world: 1,
            links: None,
            prev_stop: None,
        }
    }

    pub fn new(rank: usize, world: usize, next: Link, prev: Link) -> Ring {
        Ring {
            rank,
            world,
            prev_stop: prev.try_clone_stream(),
            links: Some((next, prev)),
        }
    }

    /// Closes both links, so the neighbours' waits end at once.
    pub fn shutdown(&self) {
        if let Some((next, prev)) = &self.links {
            next.shutdown();
            prev.shutdown();
        }
    }

    /// Sends `send` to the next rank while receiving `recv` from the previous one (both at
    /// once: every rank sends in the same step, so sending first could fill both TCP buffers).
    fn exchange(&mut self, tag: Tag, send: &[f64], recv: &mut [f64]) -> Result<()> {
        let Some((next, prev)) = self.links.as_mut() else {
            return Ok(());
        };
        let stop = self.prev_stop.as_ref();
        let (sent, got) = std::thread::scope(|s| {
            let h = s.spawn(|| {
                let r = next.send(tag, send);
                if let (Err(_), Some(stop)) = (&r, stop) {
                    // the receive below may wait on a healthy peer: stop it too
                    let _ = stop.shutdown(std::net::Shutdown::Both);
                }
                r
            });
            let got = prev.recv(tag, recv);
            (h.join(), got)
        });
        // a receive error (the peer that died) says more than the send error it caused
        got?;
        match sent {
            Ok(r) => r,
            Err(_) => Err(super::DistError::runtime("the sending thread panicked")),
        }
    }

    fn chunk(&self, len: usize, i: usize) -> std::ops::Range<usize> {
        (i * len / self.world)..((i + 1) * len / self.world)
    }

    /// Ring reduce-scatter of `buf` in `world` chunks: afterwards chunk `rank` is reduced
    /// over all ranks (and rounded by `round` after every step).
    fn reduce_scatter_steps(
        &mut self,
        tag: Tag,
        buf: &mut [f64],
        op: ReduceOp,
        round: &dyn Fn(&mut [f64]),
    ) -> Result<()> {
        let (n, r) = (self.world, self.rank);
        for s in 0..n - 1 {
            let send = self.chunk(buf.len(), (r + 2 * n - s - 1) % n);
            let recv = self.chunk(buf.len(), (r + 2 * n - s - 2) % n);
            let out = buf[send].to_vec();
            let mut got = vec![0.0; recv.len()];
            self.exchange(tag, &out, &mut got)?;
            let dst = &mut buf[recv];
            for (a, b) in dst.iter_mut().zip(&got) {
                *a = op.combine(*a, *b);
            }
            round(dst);
        }
        Ok(())
    }

    /// Ring all-gather: chunk `rank` of `buf` is this rank's; afterwards every chunk is.
    fn all_gather_steps(&mut self, tag: Tag, buf: &mut [f64]) -> Result<()> {
        let (n, r) = (self.world, self.rank);
        for s in 0..n - 1 {
            let send = self.chunk(buf.len(), (r + n - s) % n);
            let recv = self.chunk(buf.len(), (r + 2 * n - s - 1) % n);
            let out = buf[send].to_vec();
            self.exchange(tag, &out, &mut buf[recv])?;
        }
        Ok(())
    }

    /// `all_reduce`: every rank's `buf` becomes the reduction over all ranks.
    pub fn all_reduce(
        &mut self,
        buf: &mut [f64],
        op: ReduceOp,
        round: &dyn Fn(&mut [f64]),
    ) -> Result<()> {
        self.all_reduce_tagged(Tag::AllReduce, buf, op, round)
    }

    fn all_reduce_tagged(
        &mut self,
        tag: Tag,
        buf: &mut [f64],
        op: ReduceOp,
        round: &dyn Fn(&mut [f64]),
    ) -> Result<()> {
        self.reduce_scatter_steps(tag, buf, op, round)?;
        if op == ReduceOp::Avg {
            let mine = self.chunk(buf.len(), self.rank);
            let n = self.world as f64;
            buf[mine.clone()].iter_mut().for_each(|v| *v /= n);
            round(&mut buf[mine]);
        }
        self.all_gather_steps(tag, buf)
    }

    /// `broadcast`: `buf` of rank `src` replaces every other rank's.
    pub fn broadcast(&mut self, buf: &mut [f64], src: usize) -> Result<()> {
        let (n, r) = (self.world, self.rank);
        let Some((next, prev)) = self.links.as_mut() else {
            return Ok(());
        };
        if r != src {
            prev.recv(Tag::Broadcast, buf)?;
        }
        if (r + 1) % n != src {
            next.send(Tag::Broadcast, buf)?;
        }
        Ok(())
    }

    /// `all_gather`: rank `i`'s `input` lands in chunk `i` of the result.
    pub fn all_gather(&mut self, input: &[f64]) -> Result<Vec<f64>> {
        let len = input.len();
        let mut buf = vec![0.0; len * self.world];
        buf[self.rank * len..(self.rank + 1) * len].copy_from_slice(input);
        self.all_gather_steps(Tag::AllGather, &mut buf)?;
        Ok(buf)
    }

    /// `reduce_scatter`: `input` is `world` equal parts; rank `r` gets part `r` reduced over
    /// all ranks.
    pub fn reduce_scatter(
        &mut self,
        input: &mut [f64],
        op: ReduceOp,
        round: &dyn Fn(&mut [f64]),
    ) -> Result<Vec<f64>> {
        self.reduce_scatter_steps(Tag::ReduceScatter, input, op, round)?;
        let mut mine = input[self.chunk(input.len(), self.rank)].to_vec();
        if op == ReduceOp::Avg {
            let n = self.world as f64;
            mine.iter_mut().for_each(|v| *v /= n);
            round(&mut mine);
        }
        Ok(mine)
    }

    /// `barrier`: returns once every rank has reached it.
    pub fn barrier(&mut self) -> Result<()> {
        let mut one = [0.0];
        self.all_reduce_tagged(Tag::Barrier, &mut one, ReduceOp::Sum, &|_| {})
    }
}
