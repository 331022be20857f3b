//! `--mpi`: one rank of an MPI job per machine (docs/specs/SCALE.md, "Many machines"). The work of a
//! command is split into contiguous blocks by global index (`metaopt::multi::blocks`), one per
//! rank; each rank runs its block on its own devices and rank 0 gathers the results and prints
//! them as a one-process run would. MPI is the rsmpi `mpi` crate behind the CLI's cargo feature
//! `mpi`, so the library never links MPI; a build without the feature refuses `--mpi` with a
//! clear error, and a build with it started without `mpirun` runs as a job of one rank.
//!
//! A rank that fails prints its error and aborts the whole job (`MPI_Abort`), so the other ranks
//! never wait for it in a collective.

use crate::out::{CliResult, Failure};
use clap::Args;
use std::ops::Range;

/// `--mpi` of the commands that split their work over MPI ranks.
#[derive(Args, Clone, Debug, Default)]
pub struct MpiArg {
    /// Run as one rank of an MPI job (mpirun or srun, one rank per machine): the work is split
    /// over the ranks, each rank on its devices (its local rank's device unless --devices or
    /// --device is given), and rank 0 prints the gathered result. Needs a metaopt built with
    /// the `mpi` feature
    #[arg(long)]
    pub mpi: bool,
}

impl MpiArg {
    /// The job's ranks with `--mpi`, else `None`.
    pub fn ranks(&self) -> CliResult<Option<Ranks>> {
        if !self.mpi {
            return Ok(None);
        }
        Ranks::init().map(Some)
    }
}

/// This process's place in the MPI job.
pub struct Ranks {
    #[cfg(feature = "mpi")]
    universe: mpi::environment::Universe,
    rank: usize,
    size: usize,
    local_rank: usize,
}

impl Ranks {
    #[cfg(not(feature = "mpi"))]
    fn init() -> CliResult<Ranks> {
        Err(Failure(
            "--mpi: this metaopt was built without the `mpi` feature; build it with `cargo build --release -p metaopt-cli --features mpi` \
             (needs an MPI with mpicc and libclang: apt-get install libopenmpi-dev openmpi-bin libclang-dev)"
                .into(),
        ))
    }

    #[cfg(feature = "mpi")]
    fn init() -> CliResult<Ranks> {
        use mpi::topology::Communicator;
        let universe = mpi::initialize()
            .ok_or_else(|| Failure("--mpi: MPI is already initialised in this process".into()))?;
        let world = universe.world();
        let (rank, size) = (world.rank() as usize, world.size() as usize);
        // the ranks on this machine, for the default device of each
        let local_rank = world.split_shared(0).rank() as usize;
        Ok(Ranks {
            universe,
            rank,
            size,
            local_rank,
        })
    }

    pub fn rank(&self) -> usize {
        self.rank
    }

    pub fn size(&self) -> usize {
        self.size
    }

    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn is_root(&self) -> bool {
        self.rank == 0
    }

    /// This rank's block of `total` items (global indices).
    pub fn block(&self, total: usize) -> Range<usize> {
        metaopt::multi::blocks(total, self.size).swap_remove(self.rank)
    }

    /// The device of this rank when the command names none: its local rank's, among the
    /// machine's devices (so ranks sharing a machine share out its devices).
    pub fn default_device(&self) -> CliResult<usize> {
        let n = metaopt::device::list_devices()
            .map_err(|e| Failure(format!("--mpi: {e}")))?
            .len();
        if n == 0 {
            return Err(Failure(
                "--mpi: no OpenCL device on this machine (give --cpu)".into(),
            ));
        }
        Ok(self.local_rank % n)
    }

    /// Makes this rank's default device (its local rank's, [`Ranks::default_device`]) the device
    /// of the solvers it creates, unless the command runs on the CPU backend or names its
    /// devices (`devices`: `--devices` or `--device` given). Aborts the job on a failure.
    pub fn pick_device(&self, cpu: bool, devices: bool) {
        if cpu || devices {
            return;
        }
        let r = self.default_device().and_then(|d| {
            metaopt::device::set_device_number(d as i32)
                .map(|_| ())
                .map_err(|e| Failure(format!("--mpi: {e}")))
        });
        self.or_abort(r);
    }

    /// The result of this rank's work, or (on a failure) its error printed and the whole job
    /// aborted: no other rank waits for this one in a collective.
    pub fn or_abort<T>(&self, r: CliResult<T>) -> T {
        match r {
            Ok(x) => x,
            Err(Failure(msg)) => self.abort(&msg),
        }
    }

    fn abort(&self, msg: &str) -> ! {
        eprintln!("error: MPI rank {} of {}: {msg}", self.rank, self.size);
        #[cfg(feature = "mpi")]
        {
            use mpi::topology::Communicator;
            self.universe.world().abort(1)
        }
        #[cfg(not(feature = "mpi"))]
        std::process::exit(1)
    }

    /// Every rank's `local` in rank order, on rank 0 (`None` elsewhere).
    pub fn gather<T: Gather>(&self, local: &[T]) -> Option<Vec<T>> {
        T::gather(self, local)
    }

    /// The largest of every rank's `x`, on every rank.
    pub fn max_f64(&self, x: f64) -> f64 {
        #[cfg(feature = "mpi")]
        {
            use mpi::collective::{CommunicatorCollectives, SystemOperation};
            let mut out = x;
            self.universe
                .world()
                .all_reduce_into(&x, &mut out, SystemOperation::max());
            out
        }
        #[cfg(not(feature = "mpi"))]
        x
    }
}

impl Ranks {
    /// Every rank's `x` in rank order, on every rank.
    pub fn all_u64(&self, x: u64) -> Vec<u64> {
        #[cfg(feature = "mpi")]
        {
            use mpi::collective::CommunicatorCollectives;
            let mut all = vec![0u64; self.size];
            self.universe.world().all_gather_into(&x, &mut all[..]);
            all
        }
        #[cfg(not(feature = "mpi"))]
        vec![x]
    }
}

impl Ranks {
    /// The QAP tabu search's exchange before a launch (`QapTs::solve_shared`): every rank's best,
    /// stop wish and checkpoint wish go to all; all stop (or write their checkpoints) when any would, and the rank with the best cost (the
    /// lowest rank among equals) broadcasts its permutation, which the others take.
    pub fn share_best(&self, round: &metaopt::qap_ts::ShareRound) -> metaopt::qap_ts::Shared {
        #[cfg(feature = "mpi")]
        {
            use mpi::collective::{CommunicatorCollectives, Root};
            use mpi::topology::Communicator;
            let world = self.universe.world();
            let flag = |b: bool| if b { 1.0 } else { 0.0 };
            let mine = [round.best, flag(round.stop), flag(round.checkpoint)];
            let mut all = vec![0f64; 3 * self.size];
            world.all_gather_into(&mine[..], &mut all[..]);
            let stop = all.chunks(3).any(|w| w[1] != 0.0);
            let checkpoint = all.chunks(3).any(|w| w[2] != 0.0);
            let owner = (0..self.size).fold(0, |b, r| if all[3 * r] < all[3 * b] { r } else { b });
            let mut perm = round.permutation.to_vec();
            world
                .process_at_rank(owner as i32)
                .broadcast_into(&mut perm[..]);
            metaopt::qap_ts::Shared {
                stop,
                permutation: (owner != self.rank).then_some(perm),
                checkpoint,
            }
        }
        #[cfg(not(feature = "mpi"))]
        metaopt::qap_ts::Shared {
            stop: round.stop,
            permutation: None,
            checkpoint: round.checkpoint,
        }
    }
}

impl Ranks {
    /// Island DE's exchange over this job's ranks (`DeMultiPop::across`): rank k holds the
    /// k-th block of the islands.
    pub fn island_exchange(&self) -> RankExchange {
        RankExchange {
            rank: self.rank,
            size: self.size,
        }
    }
}

/// [`metaopt::de::IslandExchange`] over the world communicator: one `MPI_Allgatherv` a call
/// (the solver gives every rank's count), called from the thread that holds the solver. MPI's errors
/// are fatal to the job, and a failing rank aborts it (`Ranks::or_abort`), so no rank waits on a
/// peer that has gone.
pub struct RankExchange {
    rank: usize,
    size: usize,
}

impl metaopt::de::IslandExchange for RankExchange {
    fn processes(&self) -> usize {
        self.size
    }

    fn process(&self) -> usize {
        self.rank
    }

    fn all_gather(&mut self, local: &[f64], counts: &[usize]) -> metaopt::Result<Vec<f64>> {
        #[cfg(feature = "mpi")]
        {
            use mpi::collective::CommunicatorCollectives;
            use mpi::datatype::PartitionMut;
            let world = mpi::topology::SimpleCommunicator::world();
            let counts: Vec<i32> = counts.iter().map(|&c| c as i32).collect();
            let displs: Vec<i32> = counts
                .iter()
                .scan(0, |s, &c| {
                    let d = *s;
                    *s += c;
                    Some(d)
                })
                .collect();
            let mut all = vec![0f64; counts.iter().map(|&c| c as usize).sum()];
            let mut part = PartitionMut::new(&mut all[..], counts, &displs[..]);
            world.all_gather_varcount_into(local, &mut part);
            Ok(all)
        }
        #[cfg(not(feature = "mpi"))]
        {
            let _ = counts;
            Ok(local.to_vec())
        }
    }
}

/// The element types gathered on rank 0.
pub trait Gather: Sized + Copy + Default {
    fn gather(ranks: &Ranks, local: &[Self]) -> Option<Vec<Self>>;
}

macro_rules! gather_impl {
    ($($t:ty),*) => {$(
        impl Gather for $t {
            fn gather(ranks: &Ranks, local: &[Self]) -> Option<Vec<Self>> {
                #[cfg(feature = "mpi")]
                {
                    use mpi::datatype::PartitionMut;
                    use mpi::topology::Communicator;
                    use mpi::collective::Root;
                    let world = ranks.universe.world();
                    let root = world.process_at_rank(0);
                    let n = local.len() as i32;
                    if ranks.is_root() {
                        let mut counts = vec![0i32; ranks.size];
                        root.gather_into_root(&n, &mut counts[..]);
                        let displs: Vec<i32> = counts.iter().scan(0, |s, &c| { let d = *s; *s += c; Some(d) }).collect();
                        let mut all = vec![<$t>::default(); counts.iter().map(|&c| c as usize).sum()];
                        let mut part = PartitionMut::new(&mut all[..], counts, &displs[..]);
                        root.gather_varcount_into_root(local, &mut part);
                        Some(all)
                    } else {
                        root.gather_into(&n);
                        root.gather_varcount_into(local);
                        None
                    }
                }
                #[cfg(not(feature = "mpi"))]
                {
                    let _ = ranks;
                    Some(local.to_vec())
                }
            }
        }
    )*};
}
gather_impl!(u8, u32, u64, f64);

/// A test's hook: the rank named by `METAOPT_MPI_FAIL_RANK` fails before its work, as a rank
/// whose device fails would (the job must end with that error, not hang).
pub fn test_failure(ranks: &Ranks) -> CliResult {
    match std::env::var("METAOPT_MPI_FAIL_RANK")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        Some(r) if r == ranks.rank() => Err(Failure(
            "failing as METAOPT_MPI_FAIL_RANK asks (a test of a failing rank)".into(),
        )),
        _ => Ok(()),
    }
}
