//! CG's iterations on a GPU captured in a CUDA graph and replayed: a block of iterations costs
//! one launch and one wait instead of each iteration's front-end work (five launches and a
//! read-back of `‖r‖`), which bounded an iteration at ~4× its memory traffic.
//!
//! Each iteration of a block first tests SciPy's stopping rule on the device (a one-thread
//! kernel turns `rᴴr` into a status: running, converged or at `maxiter`, and counts the
//! iterations done); once the status is not "running" the updates of `x` and `r` copy them
//! unchanged, so iterations past the stop are no-ops and the answer is SciPy's iterate for
//! iterate. After each replay the host reads the status (one wait a block).
use super::system::{Status, System};
use crate::cuda::Stream;
use crate::kernel::ElementwiseKernel;
use std::sync::OnceLock;
use xp_core::{DType, Device, Error, Result};

/// Iterations a replay runs: at most this many minus one run past the stop.
pub(super) const BLOCK: usize = 10;

struct Kernels {
    flag: ElementwiseKernel,
    direction: ElementwiseKernel,
    update: ElementwiseKernel,
}

fn kernels() -> Result<&'static Kernels> {
    static K: OnceLock<Kernels> = OnceLock::new();
    if let Some(k) = K.get() {
        return Ok(k);
    }
    let flag = ElementwiseKernel::new(
        "T rr, int32 st, int64 it, float64 rn, float64 atol, int64 maxiter",
        "int32 st2, int64 it2, float64 rn2",
        "double norm = sqrt(fmax((double)rr, 0.0)); st2 = st; it2 = it; rn2 = rn; \
         if (st == 0) { rn2 = norm; if (norm < atol) { st2 = 1; } else if (it >= maxiter) { st2 = 2; } else { it2 = it + 1; } }",
        "cg_graph_status",
    )?;
    // prev = 0 marks the first iteration: p = z
    let direction = ElementwiseKernel::new(
        "T z, T p, raw T rho, raw T prev",
        "T out",
        "out = prev[0] == (T)0 ? z : z + (rho[0] / prev[0]) * p",
        "cg_graph_direction",
    )?;
    let update = ElementwiseKernel::new(
        "T x, T p, T r, T q, raw T rho, raw T pq, raw int32 st",
        "T x2, T r2",
        "if (st[0] == 0) { T a = rho[0] / pq[0]; x2 = x + a * p; r2 = r - a * q; } else { x2 = x; r2 = r; }",
        "cg_graph_update",
    )?;
    Ok(K.get_or_init(|| Kernels { flag, direction, update }))
}

/// CG without preconditioner or callback by replayed blocks of captured iterations, from
/// `s.x`: `Some((status, iterations, ‖r‖))` with `s.x` the answer, or `None` (nothing done)
/// where the operator cannot be captured (its `matvec` waits for the device or reads on the
/// host) or `s` is not on a GPU.
pub(super) fn run(s: &mut System, atol: f64, maxiter: usize) -> Result<Option<(Status, usize, f64)>> {
    let Device::Cuda(i) = s.b.device() else { return Ok(None) };
    let k = kernels()?;
    let dev = s.b.device();
    let g = crate::on(dev);
    let x = s.x.copy()?;
    let r = s.residual()?;
    let t = r.dtype();
    let p = g.zeros(r.shape(), t)?;
    let prev = g.zeros([], t)?;
    let (st, it, rn) = (g.zeros([], DType::I32)?, g.zeros([], DType::I64)?, g.zeros([], DType::F64)?);
    let block = || -> Result<()> {
        let (mut xk, mut rk, mut pk, mut prevk) = (x.clone(), r.clone(), p.clone(), prev.clone());
        let (mut stk, mut itk, mut rnk) = (st.clone(), it.clone(), rn.clone());
        for _ in 0..BLOCK {
            let rr = crate::vdot(&rk, &rk)?;
            let mut f = k.flag.call(&[
                (&rr).into(),
                (&stk).into(),
                (&itk).into(),
                (&rnk).into(),
                atol.into(),
                (maxiter as i64).into(),
            ])?;
            (rnk, itk, stk) = (f.pop().expect("3"), f.pop().expect("3"), f.pop().expect("3"));
            pk = k.direction.call1(&[(&rk).into(), (&pk).into(), (&rr).into(), (&prevk).into()])?;
            let q = s.matvec(&pk)?;
            let pq = crate::vdot(&pk, &q)?;
            let mut o = k.update.call(&[
                (&xk).into(),
                (&pk).into(),
                (&rk).into(),
                (&q).into(),
                (&rr).into(),
                (&pq).into(),
                (&stk).into(),
            ])?;
            (rk, xk) = (o.pop().expect("2"), o.pop().expect("2"));
            prevk = rr;
        }
        // the block's end state becomes the next replay's start
        for (to, from) in [(&x, &xk), (&r, &rk), (&p, &pk), (&prev, &prevk), (&st, &stk), (&it, &itk), (&rn, &rnk)] {
            to.assign(from)?;
        }
        Ok(())
    };
    let stream = Stream::new(i)?;
    let graph = match stream.capture(block) {
        Ok((graph, ())) => graph,
        Err(Error::NotCapturable { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let current = Stream::current(i)?;
    stream.wait(&current.record()?)?;
    let status = loop {
        graph.launch()?;
        current.wait(&stream.record()?)?;
        let status = st.to_vec::<i32>()?[0];
        if status != 0 {
            break status;
        }
    };
    let (iterations, norm) = (it.to_vec::<i64>()?[0] as usize, rn.to_vec::<f64>()?[0]);
    s.x = x;
    Ok(Some(if status == 1 { (Status::Converged, iterations, norm) } else { (Status::MaxIter, maxiter, norm) }))
}
