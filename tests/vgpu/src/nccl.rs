//! A virtual NCCL across processes: each rank is its own process with its own virtual devices
//! (host memory), joined by loopback TCP in a star through rank 0.
//!
//! - `ncclGetUniqueId` opens a listener on 127.0.0.1 and writes a magic and its port into the
//!   128-byte id; `ncclCommInitRank` on rank 0 (in the process that made the id) accepts the
//!   other ranks, which connect to that port and say their rank, world size and device. The
//!   communicator lives on the device of the caller's current context, as a real one does.
//! - A collective sends every rank's buffer to rank 0, which checks that all ranks made the
//!   same call (collective, count, datatype, op, root), computes each rank's result and sends
//!   it back; the call returns when the result is in the receive buffer (the stream is ignored:
//!   the virtual driver runs everything synchronously).
//! - Checked as the real library checks, each broken rule logged as a violation in `VGPU_LOG`:
//!   a live communicator, buffers inside live allocations *of the communicator's device*,
//!   a supported datatype and op, a root inside the group, a current context at init.
//!   Every collective is counted (`nccl NAME COUNT` lines in the summary), so a test can see
//!   that NCCL carried the data.
//!
//! `VGPU_NCCL=broken` makes `ncclGetVersion` fail, as a damaged installation would.
use crate::state::lock;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// NCCL 2.27.3, encoded as NCCL encodes versions since 2.9 (major×10000 + minor×100 + patch).
const VERSION: i32 = 22703;

const SUCCESS: c_int = 0;
const SYSTEM_ERROR: c_int = 2;
const INTERNAL_ERROR: c_int = 3;
const INVALID_ARGUMENT: c_int = 4;
const INVALID_USAGE: c_int = 5;
const REMOTE_ERROR: c_int = 6;

const MAGIC: &[u8; 8] = b"vgpuNCCL";
const TIMEOUT: Duration = Duration::from_secs(60);

type Comm = *mut c_void;

/// `ncclUniqueId`, passed by value as the C struct it is.
#[repr(C)]
pub struct UniqueId {
    internal: [u8; 128],
}

/// One rank's communicator.
struct Communicator {
    rank: usize,
    nranks: usize,
    device: usize,
    /// Rank 0: a stream per other rank (index rank - 1). Others: the stream to rank 0.
    links: Vec<TcpStream>,
}

struct Nccl {
    /// The listener made by `ncclGetUniqueId`, by port, until rank 0's init takes it.
    listeners: HashMap<u16, TcpListener>,
    comms: HashMap<usize, Communicator>,
    next: usize,
}

static NCCL: Mutex<Option<Nccl>> = Mutex::new(None);

fn with<T>(f: impl FnOnce(&mut Nccl) -> T) -> T {
    let mut g = NCCL.lock().unwrap_or_else(|e| e.into_inner());
    f(g.get_or_insert_with(|| Nccl {
        listeners: HashMap::new(),
        comms: HashMap::new(),
        next: 0x6e63_0000,
    }))
}

/// A broken rule: logged with the driver's violations, and the NCCL code returned.
fn violation(call: &str, code: c_int, why: impl Into<String>) -> c_int {
    lock().violation(call, code, why);
    code
}

fn count(call: &str) {
    *lock().nccl.entry(call.to_string()).or_insert(0) += 1;
}

#[no_mangle]
pub unsafe extern "C" fn ncclGetVersion(version: *mut i32) -> c_int {
    if std::env::var("VGPU_NCCL").is_ok_and(|v| v == "broken") || version.is_null() {
        return SYSTEM_ERROR;
    }
    *version = VERSION;
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn ncclGetUniqueId(id: *mut u8) -> c_int {
    if id.is_null() {
        return violation("ncclGetUniqueId", INVALID_ARGUMENT, "null id");
    }
    let Ok(l) = TcpListener::bind("127.0.0.1:0") else {
        return SYSTEM_ERROR;
    };
    let Ok(port) = l.local_addr().map(|a| a.port()) else {
        return SYSTEM_ERROR;
    };
    with(|n| n.listeners.insert(port, l));
    let out = std::slice::from_raw_parts_mut(id, 128);
    out.fill(0);
    out[..8].copy_from_slice(MAGIC);
    out[8..10].copy_from_slice(&port.to_le_bytes());
    SUCCESS
}

fn put(s: &mut TcpStream, words: &[u64]) -> std::io::Result<()> {
    let b: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    s.write_all(&b)
}

fn get(s: &mut TcpStream, n: usize) -> std::io::Result<Vec<u64>> {
    let mut b = vec![0u8; n * 8];
    s.read_exact(&mut b)?;
    Ok(b.chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect())
}

fn put_bytes(s: &mut TcpStream, b: &[u8]) -> std::io::Result<()> {
    put(s, &[b.len() as u64])?;
    s.write_all(b)
}

fn get_bytes(s: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let n = get(s, 1)?[0] as usize;
    let mut b = vec![0u8; n];
    s.read_exact(&mut b)?;
    Ok(b)
}

#[no_mangle]
pub unsafe extern "C" fn ncclCommInitRank(
    comm: *mut Comm,
    nranks: c_int,
    id: UniqueId,
    rank: c_int,
) -> c_int {
    let id = id.internal;
    const CALL: &str = "ncclCommInitRank";
    if comm.is_null() {
        return violation(CALL, INVALID_ARGUMENT, "null communicator out-pointer");
    }
    if nranks < 1 || rank < 0 || rank >= nranks {
        return violation(
            CALL,
            INVALID_ARGUMENT,
            format!("rank {rank} of {nranks} ranks"),
        );
    }
    if &id[..8] != MAGIC {
        return violation(
            CALL,
            INVALID_ARGUMENT,
            "the id was not made by ncclGetUniqueId",
        );
    }
    let device = match lock().require_ctx(CALL) {
        Ok((_, d)) => d,
        Err(_) => return INVALID_USAGE,
    };
    let port = u16::from_le_bytes([id[8], id[9]]);
    let (rank, nranks) = (rank as usize, nranks as usize);
    let links = if rank == 0 {
        let Some(l) = with(|n| n.listeners.remove(&port)) else {
            return violation(
                CALL,
                INVALID_USAGE,
                "rank 0 must initialise in the process that called ncclGetUniqueId, once per id",
            );
        };
        match accept_all(&l, nranks) {
            Ok(links) => links,
            Err(e) => return violation(CALL, SYSTEM_ERROR, format!("bootstrap: {e}")),
        }
    } else {
        match connect(port, rank, nranks, device) {
            Ok(s) => vec![s],
            Err(e) => return violation(CALL, SYSTEM_ERROR, format!("bootstrap: {e}")),
        }
    };
    let h = with(|n| {
        n.next += 16;
        let h = n.next;
        n.comms.insert(
            h,
            Communicator {
                rank,
                nranks,
                device,
                links,
            },
        );
        h
    });
    lock()
        .events
        .push(format!("{CALL} rank {rank} of {nranks} on device {device}"));
    *comm = h as Comm;
    SUCCESS
}

fn accept_all(l: &TcpListener, nranks: usize) -> Result<Vec<TcpStream>, String> {
    let mut slots: Vec<Option<TcpStream>> = (1..nranks).map(|_| None).collect();
    l.set_nonblocking(true).map_err(|e| e.to_string())?;
    let start = Instant::now();
    while slots.iter().any(|s| s.is_none()) {
        match l.accept() {
            Ok((mut s, _)) => {
                s.set_nonblocking(false).map_err(|e| e.to_string())?;
                s.set_read_timeout(Some(TIMEOUT))
                    .map_err(|e| e.to_string())?;
                let _ = s.set_nodelay(true);
                let h = get(&mut s, 3).map_err(|e| e.to_string())?;
                let (r, n) = (h[0] as usize, h[1] as usize);
                if n != nranks || r == 0 || r >= nranks || slots[r - 1].is_some() {
                    return Err(format!(
                        "a peer said rank {r} of {n}; this group has {nranks} ranks"
                    ));
                }
                slots[r - 1] = Some(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if start.elapsed() > TIMEOUT {
                    return Err("timed out waiting for the other ranks".into());
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(slots.into_iter().flatten().collect())
}

fn connect(port: u16, rank: usize, nranks: usize, device: usize) -> Result<TcpStream, String> {
    let start = Instant::now();
    loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(mut s) => {
                s.set_read_timeout(Some(TIMEOUT))
                    .map_err(|e| e.to_string())?;
                let _ = s.set_nodelay(true);
                put(&mut s, &[rank as u64, nranks as u64, device as u64])
                    .map_err(|e| e.to_string())?;
                return Ok(s);
            }
            Err(e) if start.elapsed() > TIMEOUT => return Err(e.to_string()),
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn ncclCommDestroy(comm: Comm) -> c_int {
    close("ncclCommDestroy", comm)
}

#[no_mangle]
pub unsafe extern "C" fn ncclCommAbort(comm: Comm) -> c_int {
    close("ncclCommAbort", comm)
}

#[no_mangle]
pub unsafe extern "C" fn ncclCommFinalize(comm: Comm) -> c_int {
    query("ncclCommFinalize", comm, |_| ())
}

fn close(call: &str, comm: Comm) -> c_int {
    match with(|n| n.comms.remove(&(comm as usize))) {
        Some(_) => {
            count(call);
            SUCCESS
        }
        None => violation(call, INVALID_ARGUMENT, "not a live communicator"),
    }
}

fn query<T>(call: &str, comm: Comm, f: impl FnOnce(&Communicator) -> T) -> c_int {
    match with(|n| n.comms.get(&(comm as usize)).map(f)) {
        Some(_) => SUCCESS,
        None => violation(call, INVALID_ARGUMENT, "not a live communicator"),
    }
}

#[no_mangle]
pub unsafe extern "C" fn ncclCommCount(comm: Comm, out: *mut c_int) -> c_int {
    if out.is_null() {
        return violation("ncclCommCount", INVALID_ARGUMENT, "null out-pointer");
    }
    query("ncclCommCount", comm, |c| *out = c.nranks as c_int)
}

#[no_mangle]
pub unsafe extern "C" fn ncclCommCuDevice(comm: Comm, out: *mut c_int) -> c_int {
    if out.is_null() {
        return violation("ncclCommCuDevice", INVALID_ARGUMENT, "null out-pointer");
    }
    query("ncclCommCuDevice", comm, |c| *out = c.device as c_int)
}

#[no_mangle]
pub unsafe extern "C" fn ncclCommUserRank(comm: Comm, out: *mut c_int) -> c_int {
    if out.is_null() {
        return violation("ncclCommUserRank", INVALID_ARGUMENT, "null out-pointer");
    }
    query("ncclCommUserRank", comm, |c| *out = c.rank as c_int)
}

#[no_mangle]
pub unsafe extern "C" fn ncclCommGetAsyncError(comm: Comm, out: *mut c_int) -> c_int {
    if out.is_null() {
        return violation(
            "ncclCommGetAsyncError",
            INVALID_ARGUMENT,
            "null out-pointer",
        );
    }
    query("ncclCommGetAsyncError", comm, |_| *out = SUCCESS)
}

#[no_mangle]
pub extern "C" fn ncclGetErrorString(r: c_int) -> *const c_char {
    let s: &'static std::ffi::CStr = match r {
        0 => c"no error",
        1 => c"unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
        2 => c"unhandled system error (run with NCCL_DEBUG=INFO for details)",
        3 => c"internal error - please report this issue to the NCCL developers",
        4 => c"invalid argument (run with NCCL_DEBUG=WARN for details)",
        5 => c"invalid usage (run with NCCL_DEBUG=WARN for details)",
        6 => c"remote process exited or there was a network error",
        7 => c"NCCL operation in progress",
        _ => c"unknown result code",
    };
    s.as_ptr()
}

#[no_mangle]
pub extern "C" fn ncclGetLastError(_comm: Comm) -> *const c_char {
    c"".as_ptr()
}

#[no_mangle]
pub extern "C" fn ncclGroupStart() -> c_int {
    SUCCESS
}

#[no_mangle]
pub extern "C" fn ncclGroupEnd() -> c_int {
    SUCCESS
}

/// The element size of an NCCL datatype this library supports (not the fp8 ones).
fn size_of(dt: u32) -> Option<usize> {
    Some(match dt {
        0 | 1 => 1,
        2 | 3 => 4,
        4 | 5 => 8,
        6 | 9 => 2,
        7 => 4,
        8 => 8,
        _ => return None,
    })
}

#[derive(Clone, Copy)]
enum Num {
    I(i128),
    F(f64),
}

fn read(dt: u32, b: &[u8], i: usize) -> Num {
    let s = size_of(dt).expect("checked");
    let x = &b[i * s..(i + 1) * s];
    match dt {
        0 => Num::I(x[0] as i8 as i128),
        1 => Num::I(x[0] as i128),
        2 => Num::I(i32::from_le_bytes(x.try_into().expect("4")) as i128),
        3 => Num::I(u32::from_le_bytes(x.try_into().expect("4")) as i128),
        4 => Num::I(i64::from_le_bytes(x.try_into().expect("8")) as i128),
        5 => Num::I(u64::from_le_bytes(x.try_into().expect("8")) as i128),
        6 => Num::F(half::f16::from_le_bytes(x.try_into().expect("2")).to_f64()),
        9 => Num::F(half::bf16::from_le_bytes(x.try_into().expect("2")).to_f64()),
        7 => Num::F(f32::from_le_bytes(x.try_into().expect("4")) as f64),
        _ => Num::F(f64::from_le_bytes(x.try_into().expect("8"))),
    }
}

fn write(dt: u32, b: &mut [u8], i: usize, v: Num) {
    let s = size_of(dt).expect("checked");
    let x = &mut b[i * s..(i + 1) * s];
    let (iv, fv) = match v {
        Num::I(i) => (i, i as f64),
        Num::F(f) => (f as i128, f),
    };
    match dt {
        0 | 1 => x[0] = iv as u8,
        2 | 3 => x.copy_from_slice(&(iv as u32).to_le_bytes()),
        4 | 5 => x.copy_from_slice(&(iv as u64).to_le_bytes()),
        6 => x.copy_from_slice(&half::f16::from_f64(fv).to_le_bytes()),
        9 => x.copy_from_slice(&half::bf16::from_f64(fv).to_le_bytes()),
        7 => x.copy_from_slice(&(fv as f32).to_le_bytes()),
        _ => x.copy_from_slice(&fv.to_le_bytes()),
    }
}

/// `acc = acc op x` elementwise, rounded to the datatype after each step as the device does.
fn combine(dt: u32, op: u32, acc: &mut [u8], x: &[u8]) {
    let n = acc.len() / size_of(dt).expect("checked");
    for i in 0..n {
        let v = match (read(dt, acc, i), read(dt, x, i)) {
            (Num::I(a), Num::I(b)) => Num::I(match op {
                1 => a.wrapping_mul(b),
                2 => a.max(b),
                3 => a.min(b),
                _ => a + b,
            }),
            (Num::F(a), Num::F(b)) => Num::F(match op {
                1 => a * b,
                2 => a.max(b),
                3 => a.min(b),
                _ => a + b,
            }),
            _ => unreachable!("one datatype"),
        };
        write(dt, acc, i, v);
    }
}

fn average(dt: u32, acc: &mut [u8], n: usize) {
    let len = acc.len() / size_of(dt).expect("checked");
    for i in 0..len {
        let v = match read(dt, acc, i) {
            Num::I(a) => Num::I(a / n as i128),
            Num::F(a) => Num::F(a / n as f64),
        };
        write(dt, acc, i, v);
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    AllReduce = 1,
    Broadcast = 2,
    AllGather = 3,
    ReduceScatter = 4,
}

/// One collective call: checks, then the exchange through rank 0.
#[allow(clippy::too_many_arguments)]
unsafe fn collective(
    call: &str,
    kind: Kind,
    send: *const c_void,
    recv: *mut c_void,
    count_: usize,
    dt: u32,
    op: u32,
    root: c_int,
    comm: Comm,
) -> c_int {
    let Some(esize) = size_of(dt) else {
        return violation(call, INVALID_ARGUMENT, format!("unsupported datatype {dt}"));
    };
    if op > 4 {
        return violation(
            call,
            INVALID_ARGUMENT,
            format!("unsupported reduction op {op}"),
        );
    }
    // take the communicator out while its sockets are used (NCCL calls on one communicator
    // must not overlap; the map lock is not held across the network)
    let Some(mut c) = with(|n| n.comms.remove(&(comm as usize))) else {
        return violation(call, INVALID_ARGUMENT, "not a live communicator");
    };
    let r = run(call, kind, send, recv, count_, esize, dt, op, root, &mut c);
    with(|n| n.comms.insert(comm as usize, c));
    if r == SUCCESS {
        count(call);
    }
    r
}

#[allow(clippy::too_many_arguments)]
unsafe fn run(
    call: &str,
    kind: Kind,
    send: *const c_void,
    recv: *mut c_void,
    count_: usize,
    esize: usize,
    dt: u32,
    op: u32,
    root: c_int,
    c: &mut Communicator,
) -> c_int {
    let n = c.nranks;
    if kind == Kind::Broadcast && (root < 0 || root as usize >= n) {
        return violation(call, INVALID_ARGUMENT, format!("root {root} of {n} ranks"));
    }
    let (send_elems, recv_elems) = match kind {
        Kind::AllReduce | Kind::Broadcast => (count_, count_),
        Kind::AllGather => (count_, count_ * n),
        Kind::ReduceScatter => (count_ * n, count_),
    };
    // only the root's send buffer is read by a broadcast
    let reads = kind != Kind::Broadcast || root as usize == c.rank;
    {
        let mut s = lock();
        for (what, p, elems, used) in [
            ("send", send as u64, send_elems, reads),
            ("receive", recv as u64, recv_elems, true),
        ] {
            let bytes = (elems * esize) as u64;
            if !used || bytes == 0 {
                continue;
            }
            let ok = s.devices.get(c.device).is_some_and(|d| {
                d.allocs
                    .range(..=p)
                    .next_back()
                    .is_some_and(|(&st, &len)| p.checked_add(bytes).is_some_and(|e| e <= st + len))
            });
            if !ok {
                let why = format!(
                    "the {what} buffer ({bytes} bytes at {p:#x}) is not inside one live allocation of device {}, the communicator's",
                    c.device
                );
                s.violation(call, INVALID_ARGUMENT, why);
                return INVALID_ARGUMENT;
            }
        }
    }
    let mine: Vec<u8> = if reads {
        std::slice::from_raw_parts(send as *const u8, send_elems * esize).to_vec()
    } else {
        Vec::new()
    };
    let header = [
        kind as u64,
        count_ as u64,
        dt as u64,
        op as u64,
        root as u64,
    ];
    let result = if c.rank == 0 {
        root_exchange(c, &header, mine, esize)
    } else {
        peer_exchange(c, &header, &mine)
    };
    match result {
        Ok(out) if out.len() == recv_elems * esize => {
            std::ptr::copy_nonoverlapping(out.as_ptr(), recv as *mut u8, out.len());
            SUCCESS
        }
        Ok(_) => violation(call, INTERNAL_ERROR, "a result of the wrong size"),
        Err((code, why)) => violation(call, code, why),
    }
}

fn peer_exchange(
    c: &mut Communicator,
    header: &[u64],
    mine: &[u8],
) -> Result<Vec<u8>, (c_int, String)> {
    let net = |e: std::io::Error| (REMOTE_ERROR, format!("rank 0: {e}"));
    let s = &mut c.links[0];
    put(s, header).map_err(net)?;
    put_bytes(s, mine).map_err(net)?;
    let status = get(s, 1).map_err(net)?[0];
    if status != 0 {
        return Err((
            INVALID_USAGE,
            "the ranks made different collective calls (rank 0 says so)".into(),
        ));
    }
    get_bytes(s).map_err(net)
}

fn root_exchange(
    c: &mut Communicator,
    header: &[u64],
    mine: Vec<u8>,
    esize: usize,
) -> Result<Vec<u8>, (c_int, String)> {
    let n = c.nranks;
    let mut parts = vec![mine];
    let mut mismatch = None;
    for (i, s) in c.links.iter_mut().enumerate() {
        let net = |e: std::io::Error| (REMOTE_ERROR, format!("rank {}: {e}", i + 1));
        let h = get(s, header.len()).map_err(net)?;
        parts.push(get_bytes(s).map_err(net)?);
        if h != header && mismatch.is_none() {
            mismatch = Some(format!(
                "rank {} called (collective, count, datatype, op, root) = {h:?}, rank 0 {header:?}",
                i + 1
            ));
        }
    }
    if let Some(why) = mismatch {
        for s in c.links.iter_mut() {
            let _ = put(s, &[1]);
        }
        return Err((INVALID_USAGE, why));
    }
    let (kind, count_, dt, op, root) = (
        header[0],
        header[1] as usize,
        header[2] as u32,
        header[3] as u32,
        header[4] as usize,
    );
    let reduce = |parts: &[Vec<u8>]| {
        let mut acc = parts[0].clone();
        for p in &parts[1..] {
            combine(dt, op, &mut acc, p);
        }
        if op == 4 {
            average(dt, &mut acc, n);
        }
        acc
    };
    let outs: Vec<Vec<u8>> = match kind {
        1 => vec![reduce(&parts); n],
        2 => vec![parts[root].clone(); n],
        3 => vec![parts.concat(); n],
        _ => {
            let all = reduce(&parts);
            let chunk = count_ * esize;
            (0..n)
                .map(|r| all[r * chunk..(r + 1) * chunk].to_vec())
                .collect()
        }
    };
    for (i, s) in c.links.iter_mut().enumerate() {
        let net = |e: std::io::Error| (REMOTE_ERROR, format!("rank {}: {e}", i + 1));
        put(s, &[0]).map_err(net)?;
        put_bytes(s, &outs[i + 1]).map_err(net)?;
    }
    Ok(outs[0].clone())
}

#[no_mangle]
pub unsafe extern "C" fn ncclAllReduce(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: u32,
    op: u32,
    comm: Comm,
    _stream: *mut c_void,
) -> c_int {
    collective(
        "ncclAllReduce",
        Kind::AllReduce,
        send,
        recv,
        count,
        dt,
        op,
        0,
        comm,
    )
}

#[no_mangle]
pub unsafe extern "C" fn ncclBroadcast(
    send: *const c_void,
    recv: *mut c_void,
    count: usize,
    dt: u32,
    root: c_int,
    comm: Comm,
    _stream: *mut c_void,
) -> c_int {
    collective(
        "ncclBroadcast",
        Kind::Broadcast,
        send,
        recv,
        count,
        dt,
        0,
        root,
        comm,
    )
}

#[no_mangle]
pub unsafe extern "C" fn ncclAllGather(
    send: *const c_void,
    recv: *mut c_void,
    sendcount: usize,
    dt: u32,
    comm: Comm,
    _stream: *mut c_void,
) -> c_int {
    collective(
        "ncclAllGather",
        Kind::AllGather,
        send,
        recv,
        sendcount,
        dt,
        0,
        0,
        comm,
    )
}

#[no_mangle]
pub unsafe extern "C" fn ncclReduceScatter(
    send: *const c_void,
    recv: *mut c_void,
    recvcount: usize,
    dt: u32,
    op: u32,
    comm: Comm,
    _stream: *mut c_void,
) -> c_int {
    collective(
        "ncclReduceScatter",
        Kind::ReduceScatter,
        send,
        recv,
        recvcount,
        dt,
        op,
        0,
        comm,
    )
}

/// The rest of NCCL 2.30's API that cudarc binds: present, so a lookup finds it, but not
/// implemented here.
macro_rules! unimplemented_calls {
    ($($name:ident),* $(,)?) => {$(
        #[no_mangle]
        pub extern "C" fn $name() -> c_int {
            violation(stringify!($name), INVALID_USAGE, "not implemented by the virtual NCCL")
        }
    )*};
}

unimplemented_calls!(
    ncclBcast,
    ncclReduce,
    ncclSend,
    ncclRecv,
    ncclGather,
    ncclScatter,
    ncclAlltoAll,
    ncclCommInitAll,
    ncclCommInitRankConfig,
    ncclCommInitRankScalable,
    ncclCommSplit,
    ncclCommRegister,
    ncclCommDeregister,
    ncclRedOpCreatePreMulSum,
    ncclRedOpDestroy,
    ncclMemAlloc,
    ncclMemFree,
);
