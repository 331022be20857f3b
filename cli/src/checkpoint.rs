//! `--checkpoint FILE`, `--checkpoint-every SECONDS` and `--resume FILE` of an iterative solver:
//! the run's whole state written atomically every interval and when the run ends (interrupted,
//! SIGTERM, time limit or budget), and a run continued from such a file as if it had never
//! stopped (`metaopt::run::checkpoint`).

use crate::mpi::Ranks;
use crate::out::Failure;
use clap::Args;
use metaopt::run::checkpoint::{self, Checkpointing};
use std::path::PathBuf;
use std::time::Duration;

/// The checkpoint flags an iterative command flattens in.
#[derive(Args, Clone, Debug, Default)]
pub struct CheckpointArgs {
    /// Write the run's whole state to FILE when it ends (interrupted, SIGTERM, time limit or
    /// budget) and every --checkpoint-every seconds, each time to a temporary name renamed over
    /// FILE; --resume FILE continues the run
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints [default: only when the run ends]
    #[arg(long, value_name = "SECONDS", requires = "checkpoint")]
    pub checkpoint_every: Option<f64>,
    /// Continue the run saved in FILE by --checkpoint (the same command, instance and options;
    /// the budget and the time limit may be larger and count the work already done)
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

/// The library's names of the checkpoint arguments, as the CLI spells them.
pub const RENAMES: [(&str, &str); 2] = [("state", "--resume"), ("checkpoint", "--checkpoint")];

impl CheckpointArgs {
    /// The plan of `--checkpoint`, for this process (under MPI with several ranks each rank
    /// writes FILE.rankR).
    pub fn plan(&self, rank: Option<(usize, usize)>) -> Result<Option<Checkpointing>, Failure> {
        let Some(path) = &self.checkpoint else {
            return Ok(None);
        };
        let every = match self.checkpoint_every {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => Some(Duration::from_secs_f64(s)),
            Some(s) => {
                return Err(Failure(format!(
                    "--checkpoint-every: {s}; expected a positive number of seconds"
                )))
            }
        };
        // several ranks keep their previous files too: a job killed between two ranks'
        // writes resumes from the step every rank has (`resume_together`)
        let plan = Checkpointing {
            keep_previous: rank.is_some_and(|(_, n)| n > 1),
            ..Checkpointing::new(per_rank(path, rank), every)
        };
        plan.check("checkpoint")
            .map_err(|e| crate::out::renamed(e, &RENAMES))?;
        Ok(Some(plan))
    }

    /// The bytes of `--resume`, for this process (FILE.rankR under MPI with several ranks).
    pub fn resume(&self, rank: Option<(usize, usize)>) -> Result<Option<Vec<u8>>, Failure> {
        let Some(path) = &self.resume else {
            return Ok(None);
        };
        checkpoint::read(&per_rank(path, rank), "state")
            .map(Some)
            .map_err(|e| crate::out::renamed(e, &RENAMES))
    }
}

impl CheckpointArgs {
    /// `--resume` of a solver whose ranks run in step (island DE, the QAP tabu search): `load`
    /// loads a file's bytes into the solver and gives the step it was written at. Each rank
    /// loads its own file (or, where a kill fell between the two renames of a write, its
    /// previous one); a rank whose file is newer than another rank's (a kill fell between the
    /// ranks' writes) loads its previous file, so the job resumes from the newest step every
    /// rank has. Returns whether a state was loaded. One process: `resume` and `load`.
    pub fn resume_together(
        &self,
        ranks: Option<&Ranks>,
        mut load: impl FnMut(Vec<u8>) -> Result<u64, Failure>,
    ) -> Result<bool, Failure> {
        let Some(rk) = ranks.filter(|rk| rk.size() > 1) else {
            return match self.resume(ranks.map(|rk| (rk.rank(), rk.size())))? {
                Some(bytes) => load(bytes).map(|_| true),
                None => Ok(false),
            };
        };
        let Some(path) = &self.resume else {
            return Ok(false);
        };
        let path = per_rank(path, Some((rk.rank(), rk.size())));
        let prev = checkpoint::previous_path(&path);
        let read = |p: &std::path::Path| {
            checkpoint::read(p, "state").map_err(|e| crate::out::renamed(e, &RENAMES))
        };
        // the newest file: the checkpoint, or its previous one while a write was renaming
        let (bytes, newest_is_prev) = match read(&path) {
            Ok(b) => (b, false),
            Err(e) if !path.exists() && prev.exists() => {
                (rk.or_abort(read(&prev).map_err(|_| e)), true)
            }
            Err(e) => rk.or_abort(Err(e)),
        };
        let mine = rk.or_abort(load(bytes));
        let steps = rk.all_u64(mine);
        let common = *steps.iter().min().expect("one rank at least");
        let mut at = mine;
        if mine > common && !newest_is_prev && prev.exists() {
            at = rk.or_abort(read(&prev).and_then(&mut load));
        }
        let steps = rk.all_u64(at);
        if steps.iter().any(|&s| s != common) {
            let list: Vec<String> = steps
                .iter()
                .enumerate()
                .map(|(r, s)| format!("rank {r} at {s}"))
                .collect();
            rk.or_abort::<()>(Err(Failure(format!(
                "--resume: the ranks' checkpoints are not of one step ({}), and their previous files do not meet either: resume from checkpoints written by one job",
                list.join(", ")
            ))));
        }
        Ok(true)
    }
}

/// `path` of rank `r` of `n`: itself for one process, `path.rankR` for several.
fn per_rank(path: &std::path::Path, rank: Option<(usize, usize)>) -> PathBuf {
    match rank {
        Some((r, n)) if n > 1 => {
            let mut s = path.as_os_str().to_os_string();
            s.push(format!(".rank{r}"));
            PathBuf::from(s)
        }
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_write_files_of_their_own() {
        let p = std::path::Path::new("run.state");
        assert_eq!(per_rank(p, None), PathBuf::from("run.state"));
        assert_eq!(per_rank(p, Some((0, 1))), PathBuf::from("run.state"));
        assert_eq!(per_rank(p, Some((2, 4))), PathBuf::from("run.state.rank2"));
    }
}
