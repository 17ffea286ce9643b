//! The TCP rendezvous that starts a communicator: every rank connects to rank 0, which checks
//! that they agree on the world (a typed error naming the ranks that never arrived, or the one
//! whose world size differs), hands out rank 0's bytes (NCCL's id) and gathers each rank's
//! outcome so that a failure anywhere fails everywhere instead of leaving the others waiting.
use super::env::Launch;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};
use xp_core::{DistKind, Error, Result};

const MAGIC: &[u8; 4] = b"XPRV";
const PROTOCOL: u32 = 1;
const OK: u8 = 0;
const FAILED: u8 = 1;
/// The longest frame accepted (an id, a status, an error's text).
const MAX_FRAME: u32 = 1 << 20;

fn err(kind: DistKind) -> Error {
    Error::Dist { op: "rendezvous", kind }
}

fn broken(what: impl Into<String>) -> Error {
    err(DistKind::Rendezvous { what: what.into() })
}

/// A distributed error as bytes (for the other ranks) and back.
pub(crate) fn encode(kind: &DistKind) -> Vec<u8> {
    let text = match kind {
        DistKind::Timeout { seconds, missing } => {
            format!("T{seconds} {}", missing.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(","))
        }
        DistKind::WorldSize { expected, got, rank } => format!("W{expected} {got} {rank}"),
        DistKind::Mismatch { what } => format!("M{what}"),
        k => format!("R{k}"),
    };
    text.into_bytes()
}

pub(crate) fn decode(bytes: &[u8]) -> DistKind {
    let s = String::from_utf8_lossy(bytes);
    let (tag, rest) = s.split_at(s.char_indices().nth(1).map_or(s.len(), |(i, _)| i));
    let nums =
        |t: &str| t.split([' ', ',']).filter(|x| !x.is_empty()).filter_map(|x| x.parse().ok()).collect::<Vec<usize>>();
    match tag {
        "T" => {
            let v = nums(rest);
            DistKind::Timeout {
                seconds: v.first().copied().unwrap_or(0) as u64,
                missing: v.get(1..).unwrap_or(&[]).to_vec(),
            }
        }
        "W" => match nums(rest)[..] {
            [expected, got, rank] => DistKind::WorldSize { expected, got, rank },
            _ => DistKind::Rendezvous { what: s.to_string() },
        },
        "M" => DistKind::Mismatch { what: rest.into() },
        _ => DistKind::Rendezvous { what: rest.into() },
    }
}

fn remaining(deadline: Instant) -> Option<Duration> {
    deadline.checked_duration_since(Instant::now()).filter(|d| !d.is_zero())
}

fn send(s: &mut TcpStream, tag: u8, body: &[u8]) -> std::io::Result<()> {
    let mut frame = Vec::with_capacity(5 + body.len());
    frame.push(tag);
    frame.extend_from_slice(&(body.len() as u32).to_le_bytes());
    frame.extend_from_slice(body);
    s.write_all(&frame)
}

/// A frame `(tag, body)` read by `deadline` (`Ok(None)` when it passed).
fn recv(s: &mut TcpStream, deadline: Instant) -> Result<Option<(u8, Vec<u8>)>> {
    let mut head = [0u8; 5];
    if !read_by(s, &mut head, deadline)? {
        return Ok(None);
    }
    let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    if len > MAX_FRAME {
        return Err(broken(format!("a frame of {len} bytes (not an xp peer?)")));
    }
    let mut body = vec![0u8; len as usize];
    if !read_by(s, &mut body, deadline)? {
        return Ok(None);
    }
    Ok(Some((head[0], body)))
}

/// Fills `buf` by `deadline`: `Ok(false)` when it passed first.
fn read_by(s: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> Result<bool> {
    let mut got = 0;
    while got < buf.len() {
        let Some(left) = remaining(deadline) else { return Ok(false) };
        s.set_read_timeout(Some(left)).map_err(|e| broken(e.to_string()))?;
        match s.read(&mut buf[got..]) {
            Ok(0) => return Err(broken("a peer closed its connection")),
            Ok(n) => got += n,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(broken(e.to_string())),
        }
    }
    Ok(true)
}

enum Peers {
    /// rank 0: a connection to each other rank (index `r - 1`)
    Root(Vec<TcpStream>),
    /// another rank: its connection to rank 0
    Member(TcpStream),
    /// a world of one
    Alone,
}

/// The ranks of one launch, connected.
pub struct Rendezvous {
    rank: usize,
    world: usize,
    timeout: Duration,
    peers: Peers,
}

impl std::fmt::Debug for Rendezvous {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rendezvous(rank {} of {})", self.rank, self.world)
    }
}

impl Rendezvous {
    /// Connects the ranks of `launch`: rank 0 listens on its port and waits up to `timeout`
    /// for every other rank; the others connect (retrying while rank 0 is not up yet). Fails on
    /// every rank that can still hear of it when a rank is missing or the ranks disagree.
    pub fn join(launch: &Launch, timeout: Duration) -> Result<Rendezvous> {
        let (rank, world) = (launch.rank, launch.world_size);
        let deadline = Instant::now() + timeout;
        let peers = if world == 1 {
            Peers::Alone
        } else if rank == 0 {
            Peers::Root(serve(launch, deadline, timeout)?)
        } else {
            Peers::Member(connect(launch, deadline, timeout)?)
        };
        Ok(Rendezvous { rank, world, timeout, peers })
    }

    /// This rank.
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// The number of ranks.
    pub fn world_size(&self) -> usize {
        self.world
    }

    /// Rank 0's `bytes` on every rank (the others pass anything; it is ignored).
    pub fn broadcast(&mut self, bytes: &[u8]) -> Result<Vec<u8>> {
        let deadline = Instant::now() + self.timeout;
        match &mut self.peers {
            Peers::Alone => Ok(bytes.to_vec()),
            Peers::Root(conns) => {
                for c in conns.iter_mut() {
                    send(c, OK, bytes).map_err(|e| broken(e.to_string()))?;
                }
                Ok(bytes.to_vec())
            }
            Peers::Member(c) => match recv(c, deadline)? {
                Some((OK, body)) => Ok(body),
                Some((_, body)) => Err(err(decode(&body))),
                None => Err(err(DistKind::Timeout { seconds: self.timeout.as_secs(), missing: vec![0] })),
            },
        }
    }

    /// Every rank's outcome of a step: `Ok` on every rank when all succeeded, otherwise the
    /// first failure (by rank) on every rank; a rank that does not report in time is named.
    pub fn agree(&mut self, mine: std::result::Result<(), DistKind>) -> Result<()> {
        let (tag, body) = match &mine {
            Ok(()) => (OK, Vec::new()),
            Err(k) => (FAILED, encode(k)),
        };
        self.round(tag, &body, mine.err(), |_, tag, body| (tag != OK).then(|| decode(body)))
    }

    /// Checks that every rank describes its call as `what` (the same operation, shape and
    /// dtype): a typed `Mismatch` naming the first rank that differs, on every rank.
    pub fn same(&mut self, what: &str) -> Result<()> {
        self.round(OK, what.as_bytes(), None, |rank, _, body| {
            (body != what.as_bytes()).then(|| DistKind::Mismatch {
                what: format!("rank {rank} called {} where rank 0 called {what}", String::from_utf8_lossy(body)),
            })
        })
    }

    /// One round through rank 0: each other rank sends `(tag, body)`; rank 0 judges each
    /// (`judge(rank, tag, body)`: the failure it shows, if any), starting from its own
    /// `failure`, names the ranks that did not report in time, and tells every rank the first
    /// failure or that all is well.
    fn round(
        &mut self,
        tag: u8,
        body: &[u8],
        failure: Option<DistKind>,
        judge: impl Fn(usize, u8, &[u8]) -> Option<DistKind>,
    ) -> Result<()> {
        let deadline = Instant::now() + self.timeout;
        let secs = self.timeout.as_secs();
        match &mut self.peers {
            Peers::Alone => failure.map_or(Ok(()), |k| Err(err(k))),
            Peers::Member(c) => {
                send(c, tag, body).map_err(|e| broken(e.to_string()))?;
                match recv(c, deadline)? {
                    Some((OK, _)) => Ok(()),
                    Some((_, body)) => Err(err(decode(&body))),
                    None => Err(err(DistKind::Timeout { seconds: secs, missing: vec![0] })),
                }
            }
            Peers::Root(conns) => {
                let mut first = failure;
                let mut missing = Vec::new();
                for (i, c) in conns.iter_mut().enumerate() {
                    match recv(c, deadline) {
                        Ok(Some((tag, body))) => {
                            if let Some(k) = judge(i + 1, tag, &body) {
                                first.get_or_insert(k);
                            }
                        }
                        Ok(None) | Err(_) => missing.push(i + 1),
                    }
                }
                if first.is_none() && !missing.is_empty() {
                    first = Some(DistKind::Timeout { seconds: secs, missing });
                }
                let (tag, body) = first.as_ref().map_or((OK, Vec::new()), |k| (FAILED, encode(k)));
                for c in conns.iter_mut() {
                    let _ = send(c, tag, &body);
                }
                first.map_or(Ok(()), |k| Err(err(k)))
            }
        }
    }

    /// Returns once every rank has called it (or fails naming the ranks that did not in time).
    pub fn barrier(&mut self) -> Result<()> {
        self.agree(Ok(()))
    }
}

/// Rank 0: accepts the other ranks' hellos by `deadline`.
fn serve(launch: &Launch, deadline: Instant, timeout: Duration) -> Result<Vec<TcpStream>> {
    let world = launch.world_size;
    let listener = TcpListener::bind(("0.0.0.0", launch.port))
        .map_err(|e| broken(format!("rank 0 cannot listen on port {}: {e}", launch.port)))?;
    listener.set_nonblocking(true).map_err(|e| broken(e.to_string()))?;
    let mut conns: Vec<Option<TcpStream>> = (1..world).map(|_| None).collect();
    let mut problem: Option<DistKind> = None;
    let mut extra = Vec::new();
    while conns.iter().any(Option::is_none) && problem.is_none() {
        if remaining(deadline).is_none() {
            break;
        }
        match listener.accept() {
            Ok((mut s, _)) => {
                s.set_nonblocking(false).map_err(|e| broken(e.to_string()))?;
                let _ = s.set_nodelay(true);
                let mut hello = [0u8; 16];
                if !read_by(&mut s, &mut hello, deadline).unwrap_or(false) || &hello[..4] != MAGIC {
                    continue;
                }
                let word = |i: usize| u32::from_le_bytes([hello[i], hello[i + 1], hello[i + 2], hello[i + 3]]) as usize;
                let (proto, rank, their_world) = (word(4), word(8), word(12));
                if proto != PROTOCOL as usize {
                    problem = Some(DistKind::Rendezvous { what: format!("rank {rank} speaks protocol {proto}") });
                } else if their_world != world {
                    problem = Some(DistKind::WorldSize { expected: world, got: their_world, rank });
                } else if rank == 0 || rank >= world || conns[rank - 1].is_some() {
                    problem =
                        Some(DistKind::Mismatch { what: format!("rank {rank} arrived twice or is out of range") });
                } else {
                    conns[rank - 1] = Some(s);
                    continue;
                }
                extra.push(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(broken(e.to_string())),
        }
    }
    let missing: Vec<usize> = conns.iter().enumerate().filter(|(_, c)| c.is_none()).map(|(i, _)| i + 1).collect();
    let problem =
        problem.or((!missing.is_empty()).then_some(DistKind::Timeout { seconds: timeout.as_secs(), missing }));
    if let Some(k) = problem {
        let body = encode(&k);
        for s in conns.iter_mut().flatten().chain(extra.iter_mut()) {
            let _ = send(s, FAILED, &body);
        }
        return Err(err(k));
    }
    let mut conns: Vec<TcpStream> = conns.into_iter().flatten().collect();
    for s in conns.iter_mut() {
        send(s, OK, &[]).map_err(|e| broken(e.to_string()))?;
    }
    Ok(conns)
}

/// Another rank: connects to rank 0 by `deadline` and says hello.
fn connect(launch: &Launch, deadline: Instant, timeout: Duration) -> Result<TcpStream> {
    let never = || err(DistKind::Timeout { seconds: timeout.as_secs(), missing: vec![0] });
    let addrs: Vec<_> = (launch.addr.as_str(), launch.port)
        .to_socket_addrs()
        .map_err(|e| broken(format!("cannot resolve {}: {e}", launch.addr)))?
        .collect();
    let mut s = loop {
        let Some(left) = remaining(deadline) else { return Err(never()) };
        let tried = addrs.iter().find_map(|a| TcpStream::connect_timeout(a, left.min(Duration::from_secs(1))).ok());
        if let Some(s) = tried {
            break s;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = s.set_nodelay(true);
    let mut hello = Vec::with_capacity(16);
    hello.extend_from_slice(MAGIC);
    for w in [PROTOCOL, launch.rank as u32, launch.world_size as u32] {
        hello.extend_from_slice(&w.to_le_bytes());
    }
    s.write_all(&hello).map_err(|e| broken(e.to_string()))?;
    match recv(&mut s, deadline)? {
        Some((OK, _)) => Ok(s),
        Some((_, body)) => Err(err(decode(&body))),
        None => Err(never()),
    }
}
