//! Where this process sits in a launch, read from the launcher's environment.
use xp_core::{DistKind, Error, Result};

/// The launcher a [`Launch`] was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Launcher {
    /// xp's own variables (`XP_RANK`, `XP_WORLD_SIZE`, `XP_LOCAL_RANK`, `XP_MASTER_ADDR`,
    /// `XP_MASTER_PORT`)
    Xp,
    /// `torchrun` (`RANK`, `WORLD_SIZE`, `LOCAL_RANK`, `MASTER_ADDR`, `MASTER_PORT`)
    Torchrun,
    /// Slurm's `srun` (`SLURM_PROCID`, `SLURM_NTASKS`, `SLURM_LOCALID`, the first node of
    /// `SLURM_STEP_NODELIST` or `SLURM_JOB_NODELIST`)
    Slurm,
    /// Open MPI's `mpirun` (`OMPI_COMM_WORLD_RANK`, `OMPI_COMM_WORLD_SIZE`,
    /// `OMPI_COMM_WORLD_LOCAL_RANK`)
    OpenMpi,
    /// MPICH's (Hydra's) `mpiexec` (`PMI_RANK`, `PMI_SIZE`, `MPI_LOCALRANKID`)
    Mpich,
    /// given in code ([`Launch::new`])
    Explicit,
}

/// One process's place in a launch: its rank, the world's size, its rank on its machine (the
/// GPU it takes), and where rank 0 serves the rendezvous.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// this process's rank, `0..world_size`
    pub rank: usize,
    /// the number of processes
    pub world_size: usize,
    /// the rank among the processes of this machine (the GPU to use)
    pub local_rank: usize,
    /// rank 0's address
    pub addr: String,
    /// rank 0's rendezvous port
    pub port: u16,
    /// where it was read from
    pub launcher: Launcher,
}

/// The port used when the launcher names none (torchrun's default).
pub const DEFAULT_PORT: u16 = 29500;

impl Launch {
    /// A launch given in code (checked: `rank < world_size`).
    pub fn new(rank: usize, world_size: usize, local_rank: usize, addr: &str, port: u16) -> Result<Launch> {
        let l = Launch { rank, world_size, local_rank, addr: addr.into(), port, launcher: Launcher::Explicit };
        l.checked()
    }

    /// The launch of this process, from the environment: xp's variables, then torchrun's,
    /// Slurm's, Open MPI's and MPICH's, the first launcher whose rank variable is set.
    pub fn from_env() -> Result<Launch> {
        Launch::from_vars(|k| std::env::var(k).ok())
    }

    /// [`Launch::from_env`] over the variables `get` answers (for tests and embedding).
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Launch> {
        let num = |k: &str| -> Result<Option<usize>> {
            match get(k) {
                None => Ok(None),
                Some(v) => {
                    v.trim().parse::<usize>().map(Some).map_err(|_| env_error(format!("{k}={v:?} is not a count")))
                }
            }
        };
        let need = |k: &str| -> Result<usize> { num(k)?.ok_or_else(|| env_error(format!("{k} is not set"))) };
        let port = |k: &str| -> Result<Option<u16>> {
            match get(k) {
                None => Ok(None),
                Some(v) => v.trim().parse::<u16>().map(Some).map_err(|_| env_error(format!("{k}={v:?} is not a port"))),
            }
        };
        // (launcher, rank, size, local rank variables)
        let table: [(Launcher, &str, &str, &str); 5] = [
            (Launcher::Xp, "XP_RANK", "XP_WORLD_SIZE", "XP_LOCAL_RANK"),
            (Launcher::Torchrun, "RANK", "WORLD_SIZE", "LOCAL_RANK"),
            (Launcher::Slurm, "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"),
            (Launcher::OpenMpi, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"),
            (Launcher::Mpich, "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"),
        ];
        let Some(&(launcher, rk, sz, lr)) = table.iter().find(|t| get(t.1).is_some()) else {
            return Err(env_error(
                "no launcher's rank is set (XP_RANK, RANK, SLURM_PROCID, OMPI_COMM_WORLD_RANK or PMI_RANK)".into(),
            ));
        };
        let (rank, world_size) = (need(rk)?, need(sz)?);
        let local_rank = num(lr)?.unwrap_or(0);
        let (addr_var, port_var) = if launcher == Launcher::Xp {
            ("XP_MASTER_ADDR", "XP_MASTER_PORT")
        } else {
            ("MASTER_ADDR", "MASTER_PORT")
        };
        let addr = match get(addr_var) {
            Some(a) => a,
            None => match launcher {
                Launcher::Slurm => {
                    let list = get("SLURM_STEP_NODELIST").or_else(|| get("SLURM_JOB_NODELIST"));
                    match list {
                        Some(l) => first_node(&l)?,
                        None => "127.0.0.1".into(),
                    }
                }
                Launcher::Torchrun => return Err(env_error("MASTER_ADDR is not set".into())),
                _ => "127.0.0.1".into(),
            },
        };
        let port = match port(port_var)? {
            Some(p) => p,
            // one job's ranks agree on a port derived from the job's id
            None if launcher == Launcher::Slurm => match num("SLURM_JOB_ID")? {
                Some(id) => 20000 + (id % 20000) as u16,
                None => DEFAULT_PORT,
            },
            None if launcher == Launcher::Torchrun => return Err(env_error("MASTER_PORT is not set".into())),
            None => DEFAULT_PORT,
        };
        Launch { rank, world_size, local_rank, addr, port, launcher }.checked()
    }

    fn checked(self) -> Result<Launch> {
        if self.world_size == 0 || self.rank >= self.world_size {
            return Err(env_error(format!("rank {} is outside a world of {} ranks", self.rank, self.world_size)));
        }
        Ok(self)
    }
}

fn env_error(what: String) -> Error {
    Error::Dist { op: "dist::init", kind: DistKind::Environment { what } }
}

/// The first host of a Slurm node list (`node[03-05,7],other` → `node03`).
pub fn first_node(list: &str) -> Result<String> {
    let bad = || env_error(format!("cannot read the Slurm node list {list:?}"));
    let list = list.trim();
    // the first entry ends at a comma outside brackets
    let mut depth = 0;
    let end = list
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => {}
            }
            c == ',' && depth == 0
        })
        .map_or(list.len(), |(i, _)| i);
    let first = &list[..end];
    let Some(open) = first.find('[') else {
        return if first.is_empty() { Err(bad()) } else { Ok(first.into()) };
    };
    let close = first.find(']').ok_or_else(bad)?;
    let range = first[open + 1..close].split(',').next().ok_or_else(bad)?;
    let lo = range.split('-').next().ok_or_else(bad)?;
    if lo.is_empty() || !lo.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    Ok(format!("{}{}{}", &first[..open], lo, &first[close + 1..]))
}
