//! The one restart driver of HC12: climbs (`climb.rs`) from the starts a landscape's policy
//! gives until the [`run::Stop`](crate::run::Stop) ends the search (its budget counts runs),
//! decided by a [`run::Driver`](crate::run::Driver) after every run; the result is the best run
//! (the first of equal ones). A search may write checkpoints between runs and continue from
//! one ([`Course`]).

use super::climb::{climb, Climb, ClimbEnd, ClimbLimits};
use super::tabu::TabuConfig;
use super::Landscape;
use crate::error::{Error, Result};
use crate::problem::qap::Cost;
use crate::rng::Philox;
use crate::run::checkpoint::{self, Header, Schedule};
use crate::run::{Stop, StopReason};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The largest run budget of an HC12 search without a time limit or a stop token (2^24): a
/// larger one would not end in any useful time (and each run's figures are kept in the result).
pub const MAX_RUNS: u64 = 1 << 24;

/// Checks the stop of an HC12 search, whose budget counts runs (None: no cap); `runs_arg`
/// names the budget in the caller's words (`runs`, `max_runs`, `nRuns`).
///
/// A search without a run cap must have something that surely ends it: a time limit, or a
/// stop token (the caller then stops it); a target alone may never be reached. The run cap is
/// at most [`MAX_RUNS`] unless a time limit or a stop token can end the search earlier. The
/// rest is [`Stop::check`]'s: a NaN target, a time limit past the largest, a checkpoint plan
/// that cannot be kept.
pub fn check(stop: &Stop, runs_arg: &'static str) -> Result<()> {
    let stoppable = stop.time_limit.is_some() || stop.token.is_some();
    match stop.budget {
        Some(0) => return Err(Error::arg(runs_arg, "0 runs; expected at least 1")),
        None if !stoppable && stop.target.is_some() => {
            return Err(Error::arg(
                runs_arg,
                "0 (unlimited) with a target alone may never end (the target may be unreachable): give a time limit or a stop token",
            ))
        }
        None if !stoppable && stop.evaluations.is_none() => {
            return Err(Error::arg(
                runs_arg,
                "0 (unlimited) needs a time limit or a stop token to end the search",
            ))
        }
        Some(n) if n > MAX_RUNS && !stoppable => {
            return Err(Error::arg(
                runs_arg,
                format!("{n} runs and no time limit or stop token: at most {MAX_RUNS} (a search that long must be stoppable)"),
            ))
        }
        _ => {}
    }
    stop.check(runs_arg)
}

/// What the driver reports after each run (for progress bars).
#[derive(Clone, Debug)]
pub struct RunReport<V> {
    /// Runs made so far.
    pub runs: u32,
    /// This run's best value and iterations.
    pub value: V,
    pub iterations: u32,
    /// The best value over all runs so far.
    pub best: V,
    pub elapsed: Duration,
}

/// The best run over a search, with the search's figures.
#[derive(Clone, Debug)]
pub struct Search<B, V> {
    pub best: B,
    pub value: V,
    /// Why the search ended.
    pub stop: StopReason,
    /// The course the search ended with, a run cut short included: its runs, iterations over
    /// all runs, rows evaluated, the best run's iterations and time, every run's figures; its
    /// `seconds` are the search's.
    pub course: Course<B, V>,
}

impl<B, V> Search<B, V> {
    /// The target ended the search.
    pub fn target_reached(&self) -> bool {
        self.stop == StopReason::Target
    }
}

/// A search's course after its last whole run: what a checkpoint holds and what a continued
/// search starts from. A run cut short by the time limit or an interrupt is in the search's
/// result but not in its course: a continued search climbs that run again from its start, so
/// it ends as the search that never stopped (a checkpoint is written between runs, so a search
/// loses at most the run in progress).
#[derive(Clone, Debug)]
pub struct Course<B, V> {
    /// Whole runs made.
    pub runs: u32,
    /// Iterations and rows evaluated over those runs.
    pub iterations: u64,
    pub evaluations: u64,
    /// The best run's best and value (the first of equal ones).
    pub best: Option<(B, V)>,
    pub best_run_iterations: u32,
    pub seconds_to_best: f64,
    /// Every run's best value and iterations, in order.
    pub per_run: Vec<(V, u32)>,
    /// Seconds taken (a continued search's clock counts them).
    pub seconds: f64,
    /// The last run, which the restart policy may start the next from (QAP's rebasing).
    pub last: Option<Climb<B, V>>,
    /// The restart policy's random draws (QAP's random restarts; the general and SAT
    /// landscapes draw each run's start from a stream of its own and leave it untouched).
    pub rng: Philox,
}

impl<B: Clone, V: Copy> Course<B, V> {
    /// The course of a search that has not run yet, whose policy draws from `rng`.
    pub fn new(rng: Philox) -> Self {
        Course {
            runs: 0,
            iterations: 0,
            evaluations: 0,
            best: None,
            best_run_iterations: 0,
            seconds_to_best: 0.0,
            per_run: Vec::new(),
            seconds: 0.0,
            last: None,
            rng,
        }
    }

    /// Adds run `out`, ended `elapsed` seconds into the search.
    fn add<L: Landscape<Best = B, Value = V> + ?Sized>(
        &mut self,
        l: &L,
        out: Climb<B, V>,
        elapsed: f64,
    ) {
        self.runs += 1;
        self.iterations += out.iterations as u64;
        self.evaluations += out.evaluations;
        self.per_run.push((out.value, out.iterations));
        if self
            .best
            .as_ref()
            .is_none_or(|(_, v)| l.better(out.value, *v))
        {
            self.best = Some((out.best.clone(), out.value));
            self.best_run_iterations = out.iterations;
            self.seconds_to_best = elapsed;
        }
        self.seconds = elapsed;
        self.last = Some(out);
    }

    /// The search's result from this course, ended by `stop` after `seconds`.
    fn result(mut self, stop: StopReason, seconds: f64) -> Result<Search<B, V>> {
        let Some((best, value)) = self.best.clone() else {
            return Err(Error::arg("state", "a checkpoint of a search with no run"));
        };
        self.seconds = seconds;
        Ok(Search {
            best,
            value,
            stop,
            course: self,
        })
    }
}

/// A landscape's value as a checkpoint stores it: a kind and 64 bits (float values by their
/// bits, so a continued search compares them exactly as the one that wrote them).
pub trait StateValue: Copy {
    fn to_state(self) -> (u8, u64);
    /// None: a kind or bits this type does not have.
    fn from_state(s: (u8, u64)) -> Option<Self>;
}

impl StateValue for f64 {
    fn to_state(self) -> (u8, u64) {
        (4, self.to_bits())
    }
    fn from_state(s: (u8, u64)) -> Option<Self> {
        (s.0 == 4).then(|| f64::from_bits(s.1))
    }
}

impl StateValue for i64 {
    fn to_state(self) -> (u8, u64) {
        (1, self as u64)
    }
    fn from_state(s: (u8, u64)) -> Option<Self> {
        (s.0 == 1).then_some(s.1 as i64)
    }
}

impl StateValue for Cost {
    fn to_state(self) -> (u8, u64) {
        match self {
            Cost::I64(v) => (1, v as u64),
            Cost::U64(v) => (2, v),
            Cost::F32(v) => (3, v.to_bits() as u64),
            Cost::F64(v) => (4, v.to_bits()),
        }
    }
    fn from_state(s: (u8, u64)) -> Option<Self> {
        match s {
            (1, v) => Some(Cost::I64(v as i64)),
            (2, v) => Some(Cost::U64(v)),
            (3, v) => u32::try_from(v).ok().map(|b| Cost::F32(f32::from_bits(b))),
            (4, v) => Some(Cost::F64(f64::from_bits(v))),
            _ => None,
        }
    }
}

/// A [`StateValue`] field of a checkpoint's state (`#[serde(with = ...)]`).
pub(crate) mod state_value {
    use super::StateValue;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<V: StateValue, S: Serializer>(v: &V, s: S) -> Result<S::Ok, S::Error> {
        v.to_state().serialize(s)
    }

    pub fn deserialize<'de, V: StateValue, D: Deserializer<'de>>(d: D) -> Result<V, D::Error> {
        let st = <(u8, u64)>::deserialize(d)?;
        V::from_state(st).ok_or_else(|| serde::de::Error::custom("a value of another type"))
    }
}

/// A value as a checkpoint stores it ([`StateValue`]).
type Stored = (u8, u64);

/// A [`Course`] as a checkpoint holds it (`B` is the best by reference when written).
#[derive(Serialize, Deserialize)]
struct CourseState<B> {
    runs: u32,
    iterations: u64,
    evaluations: u64,
    best: Option<(B, (u8, u64))>,
    best_run_iterations: u32,
    seconds_to_best: f64,
    per_run: Vec<((u8, u64), u32)>,
    seconds: f64,
    /// The last run: its best, value, iterations, rows evaluated and end.
    last: Option<(B, Stored, u32, u64, ClimbEnd)>,
    rng: Philox,
}

/// The checkpoint bytes of `course` under `header`.
pub fn encode_course<B: Serialize, V: StateValue>(
    header: &Header,
    course: &Course<B, V>,
) -> Result<Vec<u8>> {
    let st = CourseState {
        runs: course.runs,
        iterations: course.iterations,
        evaluations: course.evaluations,
        best: course.best.as_ref().map(|(b, v)| (b, v.to_state())),
        best_run_iterations: course.best_run_iterations,
        seconds_to_best: course.seconds_to_best,
        per_run: course
            .per_run
            .iter()
            .map(|&(v, i)| (v.to_state(), i))
            .collect(),
        seconds: course.seconds,
        last: course.last.as_ref().map(|c| {
            (
                &c.best,
                c.value.to_state(),
                c.iterations,
                c.evaluations,
                c.end,
            )
        }),
        rng: course.rng.clone(),
    };
    checkpoint::encode(header, &st)
}

/// The course a checkpoint holds, its header checked against `header`; `valid` checks a best
/// read back against the problem (its length). Errors name `state` and say what differs.
pub fn decode_course<B: DeserializeOwned, V: StateValue>(
    bytes: &[u8],
    header: &Header,
    valid: impl Fn(&B) -> bool,
) -> Result<Course<B, V>> {
    let st: CourseState<B> = checkpoint::decode(bytes, header, "state")?;
    let corrupt = |what: &str| {
        Error::arg(
            "state",
            format!("a corrupt checkpoint: its {what} does not fit this search"),
        )
    };
    let value = |s| V::from_state(s).ok_or_else(|| corrupt("value type"));
    let best = match st.best {
        Some((b, v)) if valid(&b) => Some((b, value(v)?)),
        Some(_) => return Err(corrupt("best")),
        None => None,
    };
    let last = match st.last {
        Some((b, v, iterations, evaluations, end)) if valid(&b) => Some(Climb {
            best: b,
            value: value(v)?,
            iterations,
            evaluations,
            end,
        }),
        Some(_) => return Err(corrupt("last run")),
        None => None,
    };
    let per_run = st
        .per_run
        .into_iter()
        .map(|(v, i)| Ok((value(v)?, i)))
        .collect::<Result<Vec<_>>>()?;
    if per_run.len() != st.runs as usize
        || best.is_some() != (st.runs > 0)
        || last.is_some() != (st.runs > 0)
        || !st.seconds.is_finite()
        || st.seconds < 0.0
    {
        return Err(corrupt("run count"));
    }
    Ok(Course {
        runs: st.runs,
        iterations: st.iterations,
        evaluations: st.evaluations,
        best,
        best_run_iterations: st.best_run_iterations,
        seconds_to_best: st.seconds_to_best,
        per_run,
        seconds: st.seconds,
        last,
        rng: st.rng,
    })
}

/// Runs climbs from `course` (a new one, or one a checkpoint held) until `stop` ends the
/// search; `max_iterations` caps each plain run. `next_start` gives each run's start from the
/// run number, the previous run (None before the first) and the course's random draws, which is
/// where a landscape's restart policy lives (random starts, rebasing); `on_run` sees each run's
/// report. After every run the [`run::Driver`](crate::run::Driver) of `stop` decides whether
/// the search ends (the target first, then an interrupt or the time limit, then the run and
/// evaluation budgets); the time limit and the interrupt are also checked before every climb
/// step. A continued search's clock counts the course's seconds.
///
/// When `stop.checkpoint` is set, `header` (the solver's) and the course are written after a
/// run once the interval has passed, and when the search ends, whatever ended it. On return
/// `course` is the search's course (without a run cut short).
#[allow(clippy::too_many_arguments)]
pub fn restarts<L>(
    l: &mut L,
    stop: &Stop,
    max_iterations: u32,
    tabu: Option<&TabuConfig>,
    course: &mut Course<L::Best, L::Value>,
    header: Option<&Header>,
    mut next_start: impl FnMut(
        &mut L,
        u32,
        Option<&Climb<L::Best, L::Value>>,
        &mut Philox,
    ) -> Result<L::Start>,
    mut on_run: impl FnMut(&RunReport<L::Value>),
) -> Result<Search<L::Best, L::Value>>
where
    L: Landscape + ?Sized,
    L::Best: Serialize,
    L::Value: StateValue,
{
    if stop.checkpoint.is_some() && header.is_none() {
        return Err(Error::arg(
            "checkpoint",
            "this search has no checkpoint header (an internal error)",
        ));
    }
    let t0 = checkpoint::resumed_start(Instant::now(), course.seconds);
    let mut driver = stop.driver(t0);
    // the deadline is checked before every climb step of every landscape (a run of many steps
    // must not outlast the limit), so a search ends within the limit plus one step
    let clock = driver.clock();
    let deadline = clock.limit.and_then(|d| clock.start.checked_add(d));
    let watch = driver.watch().clone();
    let limits = ClimbLimits {
        max_iterations,
        deadline,
        watch: Some(&watch),
    };
    let mut schedule = Schedule::new(stop.checkpoint.as_ref());
    let best_f64 = |l: &L, c: &Course<L::Best, L::Value>| {
        c.best.as_ref().map_or(f64::INFINITY, |(_, v)| l.as_f64(*v))
    };
    // a continued search that its stop already ends makes no run
    if course.runs > 0 {
        if let Some(why) = driver.check(course.runs as u64, course.evaluations, best_f64(l, course))
        {
            let s = driver.elapsed();
            if let Some(h) = header {
                schedule.write(|| encode_course(h, course))?;
            }
            return course.clone().result(why, s);
        }
    }
    let (reason, cut) = loop {
        let rng = course.rng.clone();
        let start = next_start(l, course.runs, course.last.as_ref(), &mut course.rng)?;
        let out = climb(l, start, tabu, limits)?;
        let end = out.end;
        if matches!(end, ClimbEnd::TimeLimit | ClimbEnd::Interrupted) {
            // a run cut short: in the result, not in the course (nor its draws)
            course.rng = rng;
            let mut result = course.clone();
            result.add(l, out, driver.elapsed());
            report(&result, &mut on_run);
            let why = driver.check(result.runs as u64, result.evaluations, best_f64(l, &result));
            let reason = match (why, end) {
                (Some(StopReason::Target), _) => StopReason::Target,
                (_, ClimbEnd::Interrupted) => StopReason::Interrupted,
                _ => StopReason::TimeLimit,
            };
            break (reason, Some(result));
        }
        course.add(l, out, driver.elapsed());
        report(course, &mut on_run);
        let why = driver.check(course.runs as u64, course.evaluations, best_f64(l, course));
        let why = match why {
            _ if end == ClimbEnd::Target => Some(StopReason::Target),
            // an interrupt or the time limit named before the budgets, as the search always did
            Some(StopReason::Budget | StopReason::Evaluations) => driver.due().or(why),
            w => w,
        };
        if let Some(why) = why {
            break (why, None);
        }
        if schedule.due() {
            let h = header.expect("checked above");
            schedule.write(|| encode_course(h, course))?;
        }
    };
    let seconds = driver.elapsed();
    // the search's end, whatever ended it, is a checkpoint: a larger budget continues it
    if let Some(h) = header {
        schedule.write(|| encode_course(h, course))?;
    }
    cut.unwrap_or_else(|| course.clone())
        .result(reason, seconds)
}

/// A solver's checkpoint slots: the course its next search continues
/// ([`Checkpoints::load`]), and its last search's course with the checkpoint header
/// ([`Checkpoints::save`]).
#[derive(Debug)]
pub(crate) struct Checkpoints<B, V> {
    resume: Option<Course<B, V>>,
    saved: Option<(Header, Course<B, V>)>,
}

impl<B, V> Default for Checkpoints<B, V> {
    fn default() -> Self {
        Checkpoints {
            resume: None,
            saved: None,
        }
    }
}

impl<B: Serialize + DeserializeOwned, V: StateValue> Checkpoints<B, V> {
    /// The last search's whole state as checkpoint bytes; with no search yet, an error naming
    /// `state` that says `nothing` (the solver's words: "no solve has run on this solver: ...").
    pub fn save(&self, nothing: &str) -> Result<Vec<u8>> {
        let Some((h, c)) = &self.saved else {
            return Err(Error::arg("state", nothing));
        };
        encode_course(h, c)
    }

    /// The next search continues the course checkpoint `bytes` holds, its header checked
    /// against `header` and its bests by `valid` ([`decode_course`]).
    pub fn load(
        &mut self,
        bytes: &[u8],
        header: &Header,
        valid: impl Fn(&B) -> bool,
    ) -> Result<()> {
        self.resume = Some(decode_course(bytes, header, valid)?);
        Ok(())
    }
}

/// A landscape whose solver keeps [`Checkpoints`] of its searches
/// ([`resumable_restarts`]).
pub(crate) trait Resumable: Landscape {
    fn checkpoints(&mut self) -> &mut Checkpoints<Self::Best, Self::Value>;
}

/// [`restarts`] on the course `l` loaded, else on a new one whose restart policy draws from
/// stream 0 of `seed`; whatever ends the search, its course and `header` become the ones
/// `l`'s [`Checkpoints::save`] writes.
#[allow(clippy::too_many_arguments)]
pub(crate) fn resumable_restarts<L>(
    l: &mut L,
    stop: &Stop,
    max_iterations: u32,
    tabu: Option<&TabuConfig>,
    header: Header,
    seed: u64,
    next_start: impl FnMut(
        &mut L,
        u32,
        Option<&Climb<L::Best, L::Value>>,
        &mut Philox,
    ) -> Result<L::Start>,
    on_run: impl FnMut(&RunReport<L::Value>),
) -> Result<Search<L::Best, L::Value>>
where
    L: Resumable + ?Sized,
    L::Best: Serialize,
    L::Value: StateValue,
{
    let mut course = match l.checkpoints().resume.take() {
        Some(c) => c,
        None => Course::new(Philox::new(seed, 0)),
    };
    let out = restarts(
        l,
        stop,
        max_iterations,
        tabu,
        &mut course,
        Some(&header),
        next_start,
        on_run,
    );
    l.checkpoints().saved = Some((header, course));
    out
}

/// Reports the course's last run to `on_run`.
fn report<B, V: Copy>(c: &Course<B, V>, on_run: &mut impl FnMut(&RunReport<V>)) {
    let (Some(last), Some((_, best))) = (&c.last, &c.best) else {
        return;
    };
    on_run(&RunReport {
        runs: c.runs,
        value: last.value,
        iterations: last.iterations,
        best: *best,
        elapsed: Duration::from_secs_f64(c.seconds),
    });
}
