//! Work of one DE phase (initial values, trials, evaluation and selection) in pieces short enough
//! that a call under a time limit or a stop token returns within about one piece of its limit
//! (on a CPU device one generation of a large population in many dimensions can take minutes).
//!
//! Without a [`Cut`] a phase is one launch over everything, as it always was; with one it is
//! launches over ranges of its units (elements, dimensions, members), the first small and timed,
//! the next sized from the rate measured to take about [`PIECE_SECONDS`] (never more than the
//! time left), each finished before the clock is asked again. Units are independent within a
//! phase, so the pieces compute exactly what the single launch does.

use crate::error::Result;
pub use crate::interrupt::Cut;
use std::time::Instant;

/// The time one piece aims at: the run contract's launch ([`crate::run::STEP_SECONDS`]).
pub const PIECE_SECONDS: f64 = crate::run::STEP_SECONDS;

/// Units per second of a phase, measured on earlier pieces and kept between generations.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rate(Option<f64>);

/// Runs `launch(start, len)` over `0..total` in pieces of whole `granule`s (the last piece may
/// end past `total`: the kernels check their bounds), calling `sync` after each piece under a
/// cut (not after a piece that is the whole phase of a cut without a time limit). The first piece
/// is always made; between pieces a due cut ends the phase. Returns the
/// units done (`total` when complete; a multiple of `granule` below it when cut).
pub fn in_pieces(
    total: u64,
    granule: u64,
    first: u64,
    cut: Option<&Cut>,
    rate: &mut Rate,
    mut launch: impl FnMut(u64, u64) -> Result<()>,
    mut sync: impl FnMut() -> Result<()>,
) -> Result<u64> {
    let Some(cut) = cut else {
        launch(0, total)?;
        return Ok(total);
    };
    let granule = granule.max(1);
    let whole = |n: u64| n.div_ceil(granule).max(1) * granule;
    let (mut done, mut last) = (0u64, 0u64);
    while done < total {
        if done > 0 && cut.due() {
            break;
        }
        let seconds = cut
            .clock
            .left()
            .map_or(PIECE_SECONDS, |l| l.as_secs_f64().min(PIECE_SECONDS));
        let len = match rate.0 {
            None => whole(first),
            // at most 16 times the last piece: a rate measured on a tiny piece is noisy
            Some(r) => {
                let len = whole((r * seconds) as u64);
                if last > 0 {
                    len.min(last.saturating_mul(16))
                } else {
                    len
                }
            }
        };
        let len = len.min(whole(total - done));
        let t = Instant::now();
        launch(done, len)?;
        if done == 0 && len >= total && cut.clock.limit.is_none() {
            // the whole phase in one piece and no deadline to time: no wait here (a stop token is
            // asked between generations, and the engine's periodic sync bounds the queue), so a
            // Ctrl-C-ready run of small generations goes as fast as one without a cut
            return Ok(total);
        }
        sync()?;
        let s = t.elapsed().as_secs_f64();
        rate.0 = Some(len as f64 / s.max(1e-6));
        done = (done + len).min(total);
        last = len;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::{Clock, Watch};
    use std::time::Duration;

    #[test]
    fn pieces_cover_everything_once_and_stop_when_due() {
        let mut seen = vec![0u8; 1000];
        let cut = Cut {
            clock: Clock::new(Some(Duration::from_secs(100))),
            watch: Watch::new(None),
        };
        let mut rate = Rate::default();
        let done = in_pieces(
            1000,
            8,
            8,
            Some(&cut),
            &mut rate,
            |a, n| {
                for i in a..(a + n).min(1000) {
                    seen[i as usize] += 1;
                }
                Ok(())
            },
            || Ok(()),
        )
        .unwrap();
        assert_eq!(done, 1000);
        assert!(seen.iter().all(|&s| s == 1));
        let token = crate::interrupt::StopToken::new();
        let cut = Cut {
            clock: Clock::new(None),
            watch: Watch::new(Some(&token)),
        };
        token.request();
        let mut rate = Rate::default();
        let done = in_pieces(1000, 8, 8, Some(&cut), &mut rate, |_, _| Ok(()), || Ok(())).unwrap();
        assert_eq!(done, 8, "the first piece only");
    }
}
