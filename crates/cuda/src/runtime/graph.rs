//! CUDA graphs: the xp operations of a closure captured on a stream and replayed with one
//! launch. During capture, new arrays take their memory from the device's pool on the default
//! stream (outside the graph, stream-ordered), so they stay valid between replays; every buffer
//! a captured kernel uses stays allocated while the graph exists (a buffer dropped meanwhile is
//! freed when the graph is); and calls that wait for the device or read data on the host
//! (`to_host`, `synchronize`, uploads) answer [`Error::NotCapturable`] instead of breaking the
//! capture.
use crate::runtime::device::{driver_err, Dev};
use crate::runtime::memory::Block;
use cudarc::driver::{sys, CudaGraph, CudaStream};
use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::{Arc, Mutex, Weak};
use xp_core::{Error, Result};

/// What a capture in progress records.
struct Capture {
    ordinal: usize,
    /// the capturing stream (its handle)
    stream: usize,
    used: HashSet<u64>,
    /// buffers dropped during the capture that it uses: the graph takes them
    pending: Vec<Block>,
}

thread_local! {
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

/// The buffers a graph uses, and those dropped while it lives.
#[derive(Default)]
pub(crate) struct GraphMem {
    used: HashSet<u64>,
    deferred: Mutex<Vec<Block>>,
}

/// True while the calling thread captures on device `ordinal`.
pub(crate) fn capturing(ordinal: usize) -> bool {
    CAPTURE.with(|c| c.borrow().as_ref().is_some_and(|c| c.ordinal == ordinal))
}

/// `Err(NotCapturable)` while the calling thread captures on device `ordinal`.
pub(crate) fn capturable(ordinal: usize, op: &'static str, why: &'static str) -> Result<()> {
    if capturing(ordinal) {
        return Err(Error::NotCapturable { op, why });
    }
    Ok(())
}

/// Record that a captured operation uses the buffer at `ptr`.
pub(crate) fn note_use(ordinal: usize, ptr: u64) {
    CAPTURE.with(|c| {
        if let Some(c) = c.borrow_mut().as_mut().filter(|c| c.ordinal == ordinal) {
            c.used.insert(ptr);
        }
    });
}

/// Whether `b` is used by a live graph (or the capture in progress): then the graph takes it
/// and frees it when it goes.
pub(crate) fn adopt(d: &Dev, b: &Block) -> bool {
    let held =
        |c: &Capture| c.ordinal == d.ordinal && (c.used.contains(&b.ptr) || c.stream == b.stream.cu_stream() as usize);
    let taken = CAPTURE.with(|c| match c.borrow_mut().as_mut().filter(|c| held(c)) {
        Some(c) => {
            // Still capturing: the graph being made adopts it when the capture ends.
            c.pending.push(b.clone());
            true
        }
        None => false,
    });
    if taken {
        return true;
    }
    let graphs = d.graphs.lock().unwrap_or_else(|e| e.into_inner());
    for g in graphs.iter().filter_map(Weak::upgrade) {
        if g.used.contains(&b.ptr) {
            g.deferred.lock().unwrap_or_else(|e| e.into_inner()).push(b.clone());
            return true;
        }
    }
    false
}

/// A captured graph of xp operations (CuPy's `cupy.cuda.Graph`).
pub struct Graph {
    dev: Arc<Dev>,
    stream: Arc<CudaStream>,
    graph: Option<CudaGraph>,
    mem: Arc<GraphMem>,
}

impl std::fmt::Debug for Graph {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Graph({:?}, {} buffers)", self.dev, self.mem.used.len())
    }
}

impl Graph {
    /// Replay the graph on the stream it was captured on, ordered as if on the calling thread's
    /// current stream of the device (as CuPy's `Graph.launch`): after the work enqueued on it so
    /// far (new input values written there are read), before what is enqueued on it next.
    pub fn launch(&self) -> Result<()> {
        capturable(self.dev.ordinal, "Graph::launch", "a graph launch inside a capture")?;
        let Some(g) = &self.graph else { return Ok(()) };
        let cur = self.dev.current();
        let other = !Arc::ptr_eq(&cur, &self.stream);
        if other {
            self.stream.join(&cur).map_err(driver_err)?;
        }
        g.launch().map_err(driver_err)?;
        if other {
            cur.join(&self.stream).map_err(driver_err)?;
        }
        Ok(())
    }
    /// Upload the graph to the device, so that the first launch costs no more than the next.
    pub fn upload(&self) -> Result<()> {
        match &self.graph {
            Some(g) => g.upload().map_err(driver_err),
            None => Ok(()),
        }
    }
    /// The number of distinct buffers the captured operations use.
    pub fn buffers(&self) -> usize {
        self.mem.used.len()
    }
}

impl Drop for Graph {
    fn drop(&mut self) {
        // Replays may still run: wait for them before the buffers the graph kept go.
        self.dev.ctx.record_err(self.stream.synchronize());
        self.graph = None;
        self.dev
            .graphs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|g| g.upgrade().is_some_and(|g| !Arc::ptr_eq(&g, &self.mem)));
        let blocks = std::mem::take(&mut *self.mem.deferred.lock().unwrap_or_else(|e| e.into_inner()));
        for b in blocks {
            crate::runtime::memory::release(&self.dev, &b);
        }
    }
}

/// Capture the work `f` queues on `stream` (made current for the call) into a graph.
pub(crate) fn capture<R>(
    dev: &Arc<Dev>,
    stream: &Arc<CudaStream>,
    f: impl FnOnce() -> Result<R>,
) -> Result<(Graph, R)> {
    if capturing(dev.ordinal) {
        return Err(Error::NotCapturable { op: "Stream::capture", why: "a capture is already in progress" });
    }
    if stream.cu_stream() == dev.stream.cu_stream() {
        return Err(Error::invalid(
            "Stream::capture",
            "the default stream cannot be captured; capture on a Stream::new",
        ));
    }
    // Work queued before the capture must not be part of it, nor race with it.
    stream.synchronize().map_err(driver_err)?;
    dev.stream.synchronize().map_err(driver_err)?;
    let handle = stream.cu_stream() as usize;
    CAPTURE.with(|c| {
        *c.borrow_mut() =
            Some(Capture { ordinal: dev.ordinal, stream: handle, used: HashSet::new(), pending: Vec::new() })
    });
    let begun = stream.begin_capture(sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED).map_err(driver_err);
    let r = begun.and_then(|_| f());
    let cap = CAPTURE.with(|c| c.borrow_mut().take()).expect("capture state set above");
    let ended = stream.end_capture(sys::CUgraphInstantiate_flags(0)).map_err(driver_err);
    // Memory for arrays made during the capture came from the default stream: order it first.
    dev.stream.synchronize().map_err(driver_err)?;
    let mem = Arc::new(GraphMem { used: cap.used, deferred: Mutex::new(cap.pending) });
    dev.graphs.lock().unwrap_or_else(|e| e.into_inner()).push(Arc::downgrade(&mem));
    let mut graph = Graph { dev: dev.clone(), stream: stream.clone(), graph: None, mem };
    match (r, ended) {
        (Err(e), _) | (_, Err(e)) => Err(e),
        (Ok(r), Ok(g)) => {
            graph.graph = g;
            Ok((graph, r))
        }
    }
}
