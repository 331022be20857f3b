//! `--checkpoint FILE`, `--checkpoint-every SECONDS` and `--resume FILE` of an iterative solver:
//! the run's whole state written atomically every interval and when the run ends (interrupted,
//! SIGTERM, time limit or budget), and a run continued from such a file as if it had never
//! stopped (`metaopt::run::checkpoint`).

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
        let plan = Checkpointing {
            path: per_rank(path, rank),
            every,
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
