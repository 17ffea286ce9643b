//! [`spmd`]: the ranks of a [`Communicator::local`] clique run at once, each on a thread of
//! its own (NCCL's thread-per-GPU model), the same SPMD program as one process per GPU.
//!
//! The threads are a clique's crew, made at its first `spmd` and kept: the per-thread state of
//! the GPU libraries (cuBLAS and cuSPARSE handles, FFT plans) then lives across calls, where
//! fresh threads made it again on every call (the first rows of the bench spent most of a
//! sharded SpMV there). Jobs borrow from the caller's frame, which returns only after every
//! job has run to its end (panics are caught on the worker).
use super::{Communicator, SOLO};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Condvar, Mutex};
use xp_core::{Error, Result};

type Job = Box<dyn FnOnce() + Send + 'static>;

/// One thread per rank of a clique, each running the jobs sent to it in order.
pub(crate) struct Crew {
    hands: Vec<Mutex<mpsc::Sender<Job>>>,
    /// one `spmd` at a time: two calls' jobs interleaved over the ranks would pair the wrong
    /// collectives
    busy: Mutex<()>,
}

impl Crew {
    /// `n` threads, ended when the crew is dropped (their channels close).
    pub(crate) fn new(n: usize) -> Crew {
        let hands = (0..n)
            .map(|r| {
                let (tx, rx) = mpsc::channel::<Job>();
                let _ = std::thread::Builder::new().name(format!("xp-rank-{r}")).spawn(move || {
                    SOLO.with(|x| x.set(true));
                    while let Ok(job) = rx.recv() {
                        job();
                    }
                });
                Mutex::new(tx)
            })
            .collect();
        Crew { hands, busy: Mutex::new(()) }
    }

    /// `f(c)` for every item of `comms` (distinct ranks of this crew's clique, `rank(c)`), on
    /// the rank's thread; the results in order.
    fn run<T: Sync, R: Send, F: Fn(&T) -> Result<R> + Sync>(
        &self,
        comms: &[T],
        rank: impl Fn(&T) -> usize,
        f: &F,
    ) -> Result<Vec<R>> {
        let _one = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        let slots: Vec<Mutex<Option<Result<R>>>> = comms.iter().map(|_| Mutex::new(None)).collect();
        let left = (Mutex::new(comms.len()), Condvar::new());
        let finish = |i: usize, r: Result<R>| {
            *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            let mut l = left.0.lock().unwrap_or_else(|e| e.into_inner());
            *l -= 1;
            left.1.notify_all();
        };
        for (i, c) in comms.iter().enumerate() {
            let finish = &finish;
            let r = rank(c);
            let job: Box<dyn FnOnce() + Send + '_> = Box::new(move || {
                let out = catch_unwind(AssertUnwindSafe(|| f(c)))
                    .unwrap_or_else(|_| Err(Error::invalid("dist::spmd", format!("rank {r} panicked"))));
                finish(i, out);
            });
            // SAFETY: the job borrows `f`, `comms`, `slots` and `left` from this frame, which
            // returns only once `left` reaches 0, i.e. after every job sent has run to its end
            // (a panic in `f` is caught inside the job); a job that cannot be sent is dropped
            // here unrun and counted at once.
            let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
            let sent = self.hands[r].lock().unwrap_or_else(|e| e.into_inner()).send(job);
            if sent.is_err() {
                finish(i, Err(Error::invalid("dist::spmd", format!("rank {r}'s thread is gone"))));
            }
        }
        let mut l = left.0.lock().unwrap_or_else(|e| e.into_inner());
        while *l > 0 {
            l = left.1.wait(l).unwrap_or_else(|e| e.into_inner());
        }
        drop(l);
        slots
            .into_iter()
            .map(|s| {
                s.into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .unwrap_or_else(|| Err(Error::invalid("dist::spmd", "a rank did not report")))
            })
            .collect()
    }
}

/// Runs `f(comm)` for every communicator of `comms` at once, each on a thread of its own
/// (NCCL's thread-per-GPU model): the same SPMD program as one process per GPU, in one process.
/// Inside `f` the collectives of a [`Communicator::local`] communicator need no
/// [`group`](super::group). The results in rank order, or the first rank's error. The ranks of
/// one `Communicator::local` clique run on its crew of threads, kept between calls (one call
/// at a time per clique; `spmd` inside `f` is an error); other communicators on fresh threads.
///
/// ```no_run
/// use xp::dist::{self, Communicator, Placement, ShardedArray};
/// let comms = Communicator::local(&[xp::Device::Cuda(0), xp::Device::Cuda(1)])?;
/// let sums = dist::spmd(&comms, |c| {
///     let x = ShardedArray::from_local(c, xp::on(c.device()).ones([1000], xp::DType::F32)?, Placement::Sharded(0))?;
///     x.sum(None)?.local().to_f64()
/// })?;
/// assert_eq!(sums, [2000.0, 2000.0]);
/// # Ok::<(), xp::Error>(())
/// ```
pub fn spmd<R: Send>(comms: &[Communicator], f: impl Fn(&Communicator) -> Result<R> + Sync) -> Result<Vec<R>> {
    if super::solo() {
        return Err(Error::invalid("dist::spmd", "spmd inside a rank of spmd"));
    }
    // one clique's distinct ranks: its crew
    let meeting = comms.first().and_then(|c| c.inner.meeting.clone());
    if let Some(m) = meeting.filter(|m| {
        let mut seen = vec![false; comms[0].size()];
        comms.iter().all(|c| {
            c.inner.meeting.as_ref().is_some_and(|x| std::sync::Arc::ptr_eq(x, m))
                && !std::mem::replace(&mut seen[c.rank()], true)
        })
    }) {
        return m.crew().run(comms, Communicator::rank, &f);
    }
    std::thread::scope(|s| {
        let f = &f;
        let runs: Vec<_> = comms
            .iter()
            .map(|c| {
                s.spawn(move || {
                    SOLO.with(|x| x.set(true));
                    f(c)
                })
            })
            .collect();
        runs.into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(Error::invalid("dist::spmd", "a rank's thread panicked"))))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crew_runs_its_ranks_at_once_on_the_same_threads_every_call() {
        let crew = Crew::new(3);
        // every rank waits for the others: only concurrent jobs pass the barrier
        let meet = std::sync::Barrier::new(3);
        let mut names = None;
        for call in 0..4 {
            let got = crew
                .run(&[0usize, 1, 2], |&r| r, &|&r: &usize| {
                    meet.wait();
                    Ok((r * 10 + call, std::thread::current().name().map(String::from), super::super::solo()))
                })
                .unwrap();
            assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), [call, 10 + call, 20 + call]);
            assert!(got.iter().all(|g| g.2), "the jobs run as ranks");
            let these: Vec<_> = got.into_iter().map(|g| g.1).collect();
            assert_eq!(*names.get_or_insert_with(|| these.clone()), these, "call {call} on other threads");
        }
        // a panic is a typed error of that rank; the others finish, and the crew goes on
        let got = crew.run(&[0usize, 1, 2], |&r| r, &|&r: &usize| if r == 1 { panic!("rank one") } else { Ok(r) });
        assert!(matches!(got, Err(Error::InvalidArgument { .. })), "{got:?}");
        assert_eq!(crew.run(&[2usize, 0], |&r| r, &|&r: &usize| Ok(r)).unwrap(), [2, 0]);
    }
}
