//! Meeting of the ranks (PyTorch's `env://` rendezvous, on cudalearn's own small protocol).
//!
//! Rank 0 listens on MASTER_ADDR:MASTER_PORT; every other rank connects there (retrying
//! until the timeout, since rank 0 may start later) and says which rank it is and on which
//! port it listens for its ring neighbour. When all have come, rank 0 sends everyone the
//! table of addresses; each rank then connects to the next rank and accepts the previous
//! one, and the ring is ready. Every wait has the group's timeout.
use super::ring::Ring;
use super::transport::Link;
use super::{Config, DistError, Result};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

const MAGIC: &[u8; 8] = b"CLDIST1\0";

/// Set by the launcher for rank 0 with `--master-port 0`: the fd of the master socket it
/// already bound (so the free port it chose cannot be taken by another program meanwhile).
pub const MASTER_FD_VAR: &str = "CUDALEARN_MASTER_FD";
const RETRY: Duration = Duration::from_millis(50);

/// Runs the rendezvous and returns this rank's ring.
pub fn connect(c: &Config) -> Result<Ring> {
    let deadline = Instant::now() + c.timeout;
    let master = resolve(&c.master_addr, c.master_port)?;
    let (table, data) = if c.rank == 0 {
        serve(c, master, deadline)?
    } else {
        join(c, master, deadline)?
    };
    if c.world_size == 1 {
        return Ok(Ring::single());
    }
    let next_rank = (c.rank + 1) % c.world_size;
    let prev_rank = (c.rank + c.world_size - 1) % c.world_size;
    let mut next = connect_retry(table[next_rank], deadline, c.timeout)?;
    write_all(&mut next, &(c.rank as u32).to_le_bytes())?;
    let mut prev = accept_until(&data, deadline, c.timeout, "its ring neighbour")?;
    let mut r = [0u8; 4];
    read_exact(&mut prev, &mut r, "the ring")?;
    let got = u32::from_le_bytes(r) as usize;
    if got != prev_rank {
        return Err(DistError::runtime(format!(
            "rendezvous: rank {got} connected where rank {prev_rank} was expected"
        )));
    }
    let link = |s: TcpStream, peer| {
        Link::new(s, peer, c.timeout)
            .map_err(|e| DistError::runtime(format!("rendezvous: cannot set up a link: {e}")))
    };
    Ok(Ring::new(
        c.rank,
        c.world_size,
        link(next, next_rank)?,
        link(prev, prev_rank)?,
    ))
}

fn resolve(addr: &str, port: u16) -> Result<SocketAddr> {
    (addr, port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.find(|a| a.is_ipv4()))
        .ok_or_else(|| {
            DistError::value(format!(
                "Error initializing torch.distributed using env:// rendezvous: MASTER_ADDR '{addr}' is not an address this machine can resolve"
            ))
        })
}

/// Rank 0: the master's side. Returns every rank's ring address and its own ring listener.
fn serve(
    c: &Config,
    master: SocketAddr,
    deadline: Instant,
) -> Result<(Vec<SocketAddr>, TcpListener)> {
    let listener = match inherited_listener(master.port()) {
        Some(l) => l,
        None => TcpListener::bind(master).map_err(|e| bind_error(master.port(), e))?,
    };
    let data = ring_listener(master.ip())?;
    let mut table = vec![None; c.world_size];
    table[0] = data.local_addr().ok();
    let mut peers = Vec::new();
    while peers.len() + 1 < c.world_size {
        let what = format!(
            "the other ranks ({} of {} joined)",
            peers.len() + 1,
            c.world_size
        );
        let mut s = accept_until(&listener, deadline, c.timeout, &what)?;
        let (rank, world, port) = read_hello(&mut s)?;
        if world != c.world_size {
            return Err(DistError::runtime(format!(
                "rendezvous: rank {rank} was started with WORLD_SIZE={world}, rank 0 with WORLD_SIZE={}",
                c.world_size
            )));
        }
        if rank == 0 || rank >= world || table[rank].is_some() {
            return Err(DistError::runtime(format!(
                "rendezvous: a second process says it is rank {rank}: every rank must be unique in 0..{world}"
            )));
        }
        let ip = s.peer_addr().map(|a| a.ip()).unwrap_or(master.ip());
        table[rank] = Some(SocketAddr::new(ip, port));
        peers.push(s);
    }
    let table: Vec<SocketAddr> = table.into_iter().flatten().collect();
    let mut text = String::new();
    for a in &table {
        text.push_str(&format!("{a}\n"));
    }
    for s in &mut peers {
        write_all(s, MAGIC)?;
        write_all(s, text.as_bytes())?;
    }
    Ok((table, data))
}

/// Ranks 1..: connect to the master, say who we are, read the table.
fn join(
    c: &Config,
    master: SocketAddr,
    deadline: Instant,
) -> Result<(Vec<SocketAddr>, TcpListener)> {
    let mut s = connect_retry(master, deadline, c.timeout)?;
    let ip = s.local_addr().map(|a| a.ip()).unwrap_or(master.ip());
    let data = ring_listener(ip)?;
    let port = data.local_addr().map(|a| a.port()).unwrap_or(0);
    let mut hello = MAGIC.to_vec();
    hello.extend_from_slice(&(c.rank as u32).to_le_bytes());
    hello.extend_from_slice(&(c.world_size as u32).to_le_bytes());
    hello.extend_from_slice(&port.to_le_bytes());
    write_all(&mut s, &hello)?;
    let mut magic = [0u8; 8];
    read_exact(&mut s, &mut magic, "the master (rank 0)")?;
    if &magic != MAGIC {
        return Err(not_a_master(master));
    }
    let mut table = Vec::new();
    let mut lines = BufReader::new(s).lines();
    while table.len() < c.world_size {
        match lines.next() {
            Some(Ok(l)) => table.push(l.parse::<SocketAddr>().map_err(|_| not_a_master(master))?),
            Some(Err(e)) => return Err(io_err(e, "the master (rank 0)")),
            None => {
                return Err(DistError::runtime(
                    "rendezvous: the master (rank 0) closed the connection before every rank had joined",
                ))
            }
        }
    }
    Ok((table, data))
}

/// The master socket the launcher handed over, if it is one and listens on `port`.
#[cfg(unix)]
fn inherited_listener(port: u16) -> Option<TcpListener> {
    use std::os::unix::io::FromRawFd;
    let fd: i32 = std::env::var(MASTER_FD_VAR).ok()?.parse().ok()?;
    // taken once: a second process group in this process binds the port itself
    std::env::remove_var(MASTER_FD_VAR);
    // SAFETY: fstat on any integer is harmless; only a socket fd is adopted below.
    let is_socket = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut st) == 0 && (st.st_mode & libc::S_IFMT) == libc::S_IFSOCK
    };
    if !is_socket {
        return None;
    }
    // SAFETY: the launcher passed this descriptor for this purpose and nothing else owns it.
    let l = unsafe { TcpListener::from_raw_fd(fd) };
    match l.local_addr() {
        Ok(a) if a.port() == port => Some(l),
        _ => None,
    }
}

#[cfg(not(unix))]
fn inherited_listener(_port: u16) -> Option<TcpListener> {
    None
}

fn not_a_master(master: SocketAddr) -> DistError {
    DistError::runtime(format!(
        "rendezvous: the program listening on {master} is not rank 0 of this job"
    ))
    .hint("another program uses MASTER_PORT: start the job with a free port (--master-port)")
}

fn ring_listener(ip: IpAddr) -> Result<TcpListener> {
    TcpListener::bind(SocketAddr::new(ip, 0))
        .map_err(|e| DistError::runtime(format!("rendezvous: cannot listen on {ip}: {e}")))
}

/// PyTorch's `DistNetworkError` text for a master port that is taken.
fn bind_error(port: u16, e: std::io::Error) -> DistError {
    if e.kind() == ErrorKind::AddrInUse {
        DistError::runtime(format!(
            "The server socket has failed to listen on any local network address. port: {port}, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use"
        ))
        .hint(format!(
            "another program (perhaps an earlier run still going) listens on port {port}: pass --master-port with a free port"
        ))
    } else {
        DistError::runtime(format!(
            "The server socket has failed to listen on any local network address. port: {port}: {e}"
        ))
    }
}

fn read_hello(s: &mut TcpStream) -> Result<(usize, usize, u16)> {
    let mut b = [0u8; 18];
    read_exact(s, &mut b, "a joining rank")?;
    if &b[..8] != MAGIC {
        return Err(DistError::runtime(
            "rendezvous: a program that is not a rank of this job connected to MASTER_PORT",
        ));
    }
    let rank = u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize;
    let world = u32::from_le_bytes([b[12], b[13], b[14], b[15]]) as usize;
    Ok((rank, world, u16::from_le_bytes([b[16], b[17]])))
}

fn connect_retry(addr: SocketAddr, deadline: Instant, timeout: Duration) -> Result<TcpStream> {
    loop {
        match TcpStream::connect_timeout(&addr, RETRY.max(Duration::from_millis(200))) {
            Ok(s) => {
                let _ = s.set_read_timeout(Some(timeout));
                let _ = s.set_write_timeout(Some(timeout));
                return Ok(s);
            }
            Err(_) if Instant::now() < deadline => std::thread::sleep(RETRY),
            Err(_) => {
                return Err(DistError::runtime(format!(
                    "The client socket has timed out after {}ms while trying to connect to ({}, {}).",
                    timeout.as_millis(),
                    addr.ip(),
                    addr.port()
                ))
                .hint("rank 0 never started listening: did every rank start, with the same MASTER_ADDR and MASTER_PORT?"))
            }
        }
    }
}

fn accept_until(
    l: &TcpListener,
    deadline: Instant,
    timeout: Duration,
    what: &str,
) -> Result<TcpStream> {
    let setup = |e: std::io::Error| DistError::runtime(format!("rendezvous: {e}"));
    l.set_nonblocking(true).map_err(setup)?;
    loop {
        match l.accept() {
            Ok((s, _)) => {
                s.set_nonblocking(false).map_err(setup)?;
                s.set_read_timeout(Some(timeout)).map_err(setup)?;
                s.set_write_timeout(Some(timeout)).map_err(setup)?;
                return Ok(s);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                std::thread::sleep(RETRY)
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                return Err(DistError::runtime(format!(
                    "Timed out after {}ms waiting for {what} to connect",
                    timeout.as_millis()
                ))
                .hint("every rank must call init_process_group: did one fail or not start?"))
            }
            Err(e) => return Err(setup(e)),
        }
    }
}

fn write_all(s: &mut TcpStream, b: &[u8]) -> Result<()> {
    s.write_all(b).map_err(|e| io_err(e, "a peer"))
}

fn read_exact(s: &mut TcpStream, b: &mut [u8], who: &str) -> Result<()> {
    s.read_exact(b).map_err(|e| io_err(e, who))
}

fn io_err(e: std::io::Error, who: &str) -> DistError {
    match e.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => {
            DistError::runtime(format!("rendezvous: timed out waiting for {who}"))
        }
        ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset | ErrorKind::BrokenPipe => {
            DistError::runtime(format!(
                "rendezvous: connection closed by {who} before the group was complete"
            ))
            .hint("a rank failed while the group was forming: the first error in the launcher's output is the cause")
        }
        _ => DistError::runtime(format!("rendezvous with {who} failed: {e}")),
    }
}
