//! One direction of a TCP link between two ranks: framed `f64` buffers with bounded waits,
//! and failures worded as Gloo words them.
//!
//! A frame is a 4-byte collective tag, an 8-byte element count, then the values (little
//! endian). The tag and count let a rank tell a peer that runs a different collective, or
//! passes a tensor of another size, from a good frame: PyTorch leaves such programs hanging
//! or corrupt; here they fail with a message naming both sides.
use super::DistError;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::Duration;

pub struct Link {
    stream: TcpStream,
    /// The rank at the other end, for messages.
    pub peer_rank: usize,
    peer_addr: String,
    timeout: Duration,
}

/// The collective a frame belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    AllReduce = 1,
    Broadcast = 2,
    AllGather = 3,
    ReduceScatter = 4,
    Barrier = 5,
}

impl Tag {
    pub fn name(self) -> &'static str {
        match self {
            Tag::AllReduce => "all_reduce",
            Tag::Broadcast => "broadcast",
            Tag::AllGather => "all_gather",
            Tag::ReduceScatter => "reduce_scatter",
            Tag::Barrier => "barrier",
        }
    }
    fn from_u32(v: u32) -> Option<Tag> {
        [
            Tag::AllReduce,
            Tag::Broadcast,
            Tag::AllGather,
            Tag::ReduceScatter,
            Tag::Barrier,
        ]
        .into_iter()
        .find(|t| *t as u32 == v)
    }
}

impl Link {
    pub fn new(stream: TcpStream, peer_rank: usize, timeout: Duration) -> std::io::Result<Link> {
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(timeout))?;
        stream.set_write_timeout(Some(timeout))?;
        let peer_addr = stream
            .peer_addr()
            .map(|a: SocketAddr| format!("[{}]:{}", a.ip(), a.port()))
            .unwrap_or_else(|_| "[unknown]".into());
        Ok(Link {
            stream,
            peer_rank,
            peer_addr,
            timeout,
        })
    }

    pub fn send(&mut self, tag: Tag, values: &[f64]) -> super::Result<()> {
        let mut buf = Vec::with_capacity(12 + values.len() * 8);
        buf.extend_from_slice(&(tag as u32).to_le_bytes());
        buf.extend_from_slice(&(values.len() as u64).to_le_bytes());
        for v in values {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        self.stream
            .write_all(&buf)
            .map_err(|e| self.io_error(e, tag, "send"))
    }

    /// Receives one frame of `tag` with exactly `into.len()` values.
    pub fn recv(&mut self, tag: Tag, into: &mut [f64]) -> super::Result<()> {
        let mut head = [0u8; 12];
        self.read_exact(&mut head, tag)?;
        let got_tag = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let mut n = [0u8; 8];
        n.copy_from_slice(&head[4..]);
        let count = u64::from_le_bytes(n) as usize;
        let theirs = Tag::from_u32(got_tag).map_or("an unknown operation", Tag::name);
        if got_tag != tag as u32 {
            return Err(DistError::runtime(format!(
                "rank {} is in {theirs} while this rank is in {}: every rank must call the same collectives in the same order",
                self.peer_rank,
                tag.name()
            )));
        }
        if count != into.len() {
            return Err(DistError::runtime(format!(
                "{}: rank {} sent {count} elements where this rank expected {}: every rank must pass tensors of the same size",
                tag.name(),
                self.peer_rank,
                into.len()
            )));
        }
        let mut bytes = vec![0u8; count * 8];
        self.read_exact(&mut bytes, tag)?;
        for (v, b) in into.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            *v = f64::from_le_bytes(a);
        }
        Ok(())
    }

    fn read_exact(&mut self, buf: &mut [u8], tag: Tag) -> super::Result<()> {
        self.stream
            .read_exact(buf)
            .map_err(|e| self.io_error(e, tag, "recv"))
    }

    fn io_error(&self, e: std::io::Error, tag: Tag, dir: &str) -> DistError {
        let msg = match e.kind() {
            ErrorKind::WouldBlock | ErrorKind::TimedOut => format!(
                "Timed out waiting {}ms for {dir} operation to complete ({} with rank {})",
                self.timeout.as_millis(),
                tag.name(),
                self.peer_rank
            ),
            ErrorKind::UnexpectedEof
            | ErrorKind::ConnectionReset
            | ErrorKind::BrokenPipe
            | ErrorKind::ConnectionAborted => format!(
                "Connection closed by peer {} (rank {}) during {}",
                self.peer_addr,
                self.peer_rank,
                tag.name()
            ),
            _ => format!("{} with rank {} failed: {e}", tag.name(), self.peer_rank),
        };
        DistError::runtime(msg).hint(
            "a collective needs every rank: one of them stopped, failed or is stuck. The first error in the launcher's output is the cause.",
        )
    }

    /// Another handle on the same socket (to shut it from another thread).
    pub fn try_clone_stream(&self) -> Option<TcpStream> {
        self.stream.try_clone().ok()
    }

    pub fn shutdown(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}
