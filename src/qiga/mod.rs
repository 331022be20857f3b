//! The quantum-inspired genetic algorithm of Han & Kim (GQA, CEC 2000) for the 0-1 knapsack, whole
//! runs of many independent populations at once (paper 001: Nowotniak & Kucharski; specification
//! docs/specs/QIGA.md).
//!
//! [`Qiga::run`] runs `populations` independent populations of `individuals` quantum individuals
//! for `generations` generations (plus the initial one) on one or several [`Engine`]s
//! (`device.rs`: one work-group per population in `cl/qiga.cl`; `cpu.rs`: one rayon task per
//! population). Angles are integer steps of pi/200, the observation thresholds are computed here
//! once, and every random number is a Philox word keyed by (seed, population, generation,
//! individual, gene): a seed gives the identical run for every population on every device, on the
//! CPU, and however the populations are split over launches and devices.
//!
//! # One iteration
//!
//! The item data (integers on the problem's exact scale), the observation thresholds
//! round(cos²(kπ/200)·2^32) and the encoded tables go up once; a launch runs whole runs of a range
//! of populations, one work-group each, without the host: per generation the work-items observe
//! their genes (a Philox word against the threshold of the integer angle), repair and evaluate
//! every individual with three segmented scans over the individual's lanes, rotate their genes'
//! angles by the table against the best of the earlier generations, and store the best. The host
//! reads back each population's best value, string and generations. Every engine (several devices:
//! one thread each) takes ranges from one counter; results are stored by population index. The CPU
//! engine (`cpu.rs`) runs the same generations with the same words, sequentially per population, so
//! both give identical runs.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`device`] | `qiga_run` of `cl/qiga.cl`: one work-group per population, whole runs in a launch |
//! | [`cpu`] | the rayon twin: one task per population, the same arithmetic and draws |

pub mod cpu;
pub mod device;

use crate::device::{bytes, Footprint};
use crate::error::{try_filled, Error, Result};
use crate::interrupt::{Clock, Cut, StopReason, Watch};
use crate::problem::knapsack::Knapsack;
use crate::run::checkpoint::{self, Header, Schedule};
use crate::run::Pacer;
use crate::run::Stop;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub use crate::device::Backend;

/// The knapsack as the engines see it: integer weights and profits (the problem's exact scaled
/// form), the capacity on the same scale.
#[derive(Clone, Debug)]
pub struct Items {
    pub weights: Vec<u64>,
    pub profits: Vec<u64>,
    pub capacity: u64,
    /// Integer units per unit of the problem's values (values are reported divided by it).
    pub scale: f64,
}

impl Items {
    /// The exact integer form of `k`.
    pub fn of(k: &Knapsack) -> Items {
        Items {
            weights: k.int_weights().to_vec(),
            profits: k.int_profits().to_vec(),
            capacity: k.int_capacity(),
            scale: k.scale() as f64,
        }
    }
}

/// The order of the two phases of the repair (docs/specs/QIGA.md, "Knapsack repair").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Repair {
    /// Index order for both phases (Han & Kim as the paper's authors code it, corrected: nothing
    /// that fits is dropped).
    #[default]
    Index,
    /// A random order per repair (a keyed pseudo-random bijection of the items, drawn from the
    /// run's generator), the same order for both phases.
    Random,
    /// By profit/weight: removal from the worst ratio, fill from the best (ties by index).
    Greedy,
}

impl Repair {
    pub fn parse(s: &str) -> Result<Repair> {
        match s {
            "index" => Ok(Repair::Index),
            "random" => Ok(Repair::Random),
            "greedy" => Ok(Repair::Greedy),
            _ => Err(Error::arg(
                "repair",
                format!("`{s}`; expected index, random or greedy"),
            )),
        }
    }

    fn code(self) -> u32 {
        match self {
            Repair::Index => 0,
            Repair::Random => 1,
            Repair::Greedy => 2,
        }
    }
}

/// The sign of a rotation in one quadrant column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sign {
    Minus,
    Zero,
    Plus,
    /// +1 or -1 drawn from the run's generator (Han & Kim's "±1" cells at the poles).
    Random,
}

impl Sign {
    fn code(self) -> i32 {
        match self {
            Sign::Minus => -1,
            Sign::Zero => 0,
            Sign::Plus => 1,
            Sign::Random => 2,
        }
    }

    fn parse(s: &str) -> Option<Sign> {
        match s {
            "-1" | "-" => Some(Sign::Minus),
            "0" => Some(Sign::Zero),
            "+1" | "1" | "+" => Some(Sign::Plus),
            "r" | "random" | "+-1" | "±1" => Some(Sign::Random),
            _ => None,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Sign::Minus => "-1",
            Sign::Zero => "0",
            Sign::Plus => "+1",
            Sign::Random => "r",
        }
    }
}

/// One row of a rotation table: the angle step in units of pi/200 and the sign per column
/// (alpha*beta > 0, alpha*beta < 0, alpha = 0, beta = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RotationRow {
    pub steps: u16,
    pub signs: [Sign; 4],
}

/// A rotation table: 8 rows indexed by x * 4 + b * 2 + [f(x) >= f(b)] (x: the individual's bit,
/// b: the best solution's bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RotationTable {
    pub rows: [RotationRow; 8],
}

const Z: RotationRow = RotationRow {
    steps: 0,
    signs: [Sign::Zero; 4],
};

impl RotationTable {
    /// Han & Kim 2000 as the paper's authors code it (the default; ±1 cells fixed at +1).
    pub fn gqa2000() -> Self {
        use Sign::*;
        let toward_one = [Minus, Plus, Plus, Zero];
        let keep_one = [Plus, Minus, Zero, Plus];
        let mut rows = [Z; 8];
        rows[Self::index(0, 1, true)] = RotationRow {
            steps: 10,
            signs: toward_one,
        };
        rows[Self::index(1, 0, false)] = RotationRow {
            steps: 2,
            signs: toward_one,
        };
        rows[Self::index(1, 0, true)] = RotationRow {
            steps: 5,
            signs: keep_one,
        };
        rows[Self::index(1, 1, false)] = RotationRow {
            steps: 1,
            signs: keep_one,
        };
        rows[Self::index(1, 1, true)] = RotationRow {
            steps: 5,
            signs: keep_one,
        };
        RotationTable { rows }
    }

    /// Han & Kim's QEA table (IEEE TEVC 2002): only x != b with f(x) < f(b) rotates, 0.01 pi toward
    /// b's bit (±1 cells fixed at +1).
    pub fn qea2002() -> Self {
        use Sign::*;
        let mut rows = [Z; 8];
        rows[Self::index(0, 1, false)] = RotationRow {
            steps: 2,
            signs: [Plus, Minus, Zero, Plus],
        };
        rows[Self::index(1, 0, false)] = RotationRow {
            steps: 2,
            signs: [Minus, Plus, Plus, Zero],
        };
        RotationTable { rows }
    }

    /// A preset by name: `gqa2000` or `qea2002`.
    pub fn preset(name: &str) -> Result<Self> {
        match name {
            "gqa2000" => Ok(Self::gqa2000()),
            "qea2002" => Ok(Self::qea2002()),
            _ => Err(Error::arg(
                "table",
                format!("`{name}`; expected gqa2000, qea2002 or a table file"),
            )),
        }
    }

    /// The same table with the pole cells that the sources give as ±1 drawn at random.
    pub fn with_random_pole_signs(mut self) -> Self {
        for row in self.rows.iter_mut() {
            // a pole cell that rotates is one of the sources' ±1 cells
            for c in 2..4 {
                if row.steps != 0 && row.signs[c] != Sign::Zero {
                    row.signs[c] = Sign::Random;
                }
            }
        }
        self
    }

    pub fn index(x: u8, b: u8, better: bool) -> usize {
        x as usize * 4 + b as usize * 2 + better as usize
    }

    /// The kernel's form: per row the steps and the four sign codes.
    pub fn encode(&self) -> [i32; 40] {
        let mut t = [0; 40];
        for (r, row) in self.rows.iter().enumerate() {
            t[r * 5] = row.steps as i32;
            for c in 0..4 {
                t[r * 5 + 1 + c] = row.signs[c].code();
            }
        }
        t
    }

    /// Reads a table as text: one line per row that rotates, `x b better steps s1 s2 s3 s4`
    /// (`better` 0/1 or false/true; signs -1, 0, +1 or r for random; `#` starts a comment); rows
    /// not given do not rotate. Steps are in units of pi/200, at most 200.
    pub fn parse(text: &str) -> Result<Self> {
        let mut rows = [Z; 8];
        let mut seen = [false; 8];
        for (ln, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |msg: String| Error::arg("table", format!("line {}: {msg}", ln + 1));
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 8 {
                return Err(bad(format!(
                    "{} fields; expected `x b better steps s1 s2 s3 s4`",
                    f.len()
                )));
            }
            let bit = |s: &str, what: &str| match s {
                "0" | "false" => Ok(0u8),
                "1" | "true" => Ok(1u8),
                _ => Err(bad(format!("{what} `{s}`; expected 0 or 1"))),
            };
            let (x, b, better) = (bit(f[0], "x")?, bit(f[1], "b")?, bit(f[2], "better")? == 1);
            let steps: u16 = f[3].parse().ok().filter(|&s| s <= 200).ok_or_else(|| {
                bad(format!(
                    "steps `{}`; expected 0..=200 (units of pi/200)",
                    f[3]
                ))
            })?;
            let mut signs = [Sign::Zero; 4];
            for c in 0..4 {
                signs[c] = Sign::parse(f[4 + c])
                    .ok_or_else(|| bad(format!("sign `{}`; expected -1, 0, +1 or r", f[4 + c])))?;
            }
            let i = Self::index(x, b, better);
            if seen[i] {
                return Err(bad(format!("row x={x} b={b} better={better} given twice")));
            }
            seen[i] = true;
            rows[i] = RotationRow { steps, signs };
        }
        Ok(RotationTable { rows })
    }

    /// The text form [`RotationTable::parse`] reads (every row).
    pub fn to_text(&self) -> String {
        let mut s = String::from("# x b better steps(pi/200) ab>0 ab<0 a=0 b=0\n");
        for x in 0..2u8 {
            for b in 0..2u8 {
                for better in [false, true] {
                    let r = &self.rows[Self::index(x, b, better)];
                    s += &format!(
                        "{x} {b} {} {} {} {} {} {}\n",
                        better as u8,
                        r.steps,
                        r.signs[0].word(),
                        r.signs[1].word(),
                        r.signs[2].word(),
                        r.signs[3].word()
                    );
                }
            }
        }
        s
    }
}

/// Options of [`Qiga`]. Defaults: the paper's setting (10 individuals, 500 generations, the
/// `gqa2000` table, index repair) for 1,000 populations on the device in use.
#[derive(Clone, Debug)]
pub struct QigaOptions {
    /// Independent populations (runs).
    pub populations: usize,
    /// Quantum individuals per population.
    pub individuals: usize,
    /// When the populations stop, and where the run writes its checkpoint ([`Qiga::load_state`]
    /// continues from one). The budget is required: the generations of every population after
    /// the initial one (`generations` in the C ABI, Python and the CLI; at most 4294967294). A
    /// population stops when its best value reaches the target (in the problem's units); the
    /// time limit and the token are checked between launches (populations not started are not
    /// reported). Evaluations are refused.
    pub stop: Stop,
    /// Rotation tables: one for every population, or several for a tuning run (population q
    /// uses table (q / pops_per_table) % tables.len()).
    pub tables: Vec<RotationTable>,
    /// Populations per table in a tuning run (0: populations / tables, rounded up).
    pub pops_per_table: usize,
    pub repair: Repair,
    pub seed: u64,
    /// Where the populations run; ignored when `devices` is not empty.
    pub backend: Backend,
    /// Several OpenCL devices by number: the populations are spread over them (launch by launch,
    /// as each device becomes free); the results do not depend on the spread.
    pub devices: Vec<usize>,
    /// Work-items per population on a device (None: the device kind's tuning).
    pub group_size: Option<usize>,
    /// Populations per launch (None: a multiple of the device's compute units).
    pub launch_populations: Option<usize>,
    /// Runs only these populations of `0..populations` (global indices), each as in the whole
    /// run (its draws and its table): a block of a job split over processes, such as MPI ranks.
    /// None: all.
    pub only: Option<std::ops::Range<usize>>,
    /// A warm start: best strings (`items` bytes of 0/1 each, within the capacity); population q
    /// starts from string q % len: it is the population's best (its profit the best value, of
    /// generation 0) until an individual beats it, and every Q-bit's angle leans toward its bit
    /// ([`WARM_ANGLE_ONE`] for a 1, [`WARM_ANGLE_ZERO`] for a 0, instead of the neutral 50).
    /// Empty: every population starts neutral.
    pub start: Vec<Vec<u8>>,
}

/// The angle (steps of pi/200) of a warm start's Q-bit whose string bit is 1: 75, P(1) =
/// sin^2(3 pi / 8), about 0.854.
pub const WARM_ANGLE_ONE: i16 = 75;
/// The angle of a warm start's Q-bit whose string bit is 0: 25, P(1) = sin^2(pi / 8), about
/// 0.146.
pub const WARM_ANGLE_ZERO: i16 = 25;

impl Default for QigaOptions {
    fn default() -> Self {
        QigaOptions {
            populations: 1000,
            individuals: 10,
            stop: Stop::budget(500),
            tables: vec![RotationTable::gqa2000()],
            pops_per_table: 0,
            repair: Repair::Index,
            seed: 1,
            backend: Backend::default(),
            devices: Vec::new(),
            group_size: None,
            launch_populations: None,
            only: None,
            start: Vec::new(),
        }
    }
}

/// What both engines share: the data, the encoded tables and the thresholds.
#[derive(Debug)]
pub(crate) struct Setup {
    pub items: Items,
    pub individuals: usize,
    pub generations: u32,
    pub tables: Vec<[i32; 40]>,
    pub pops_per_table: usize,
    pub repair: Repair,
    pub seed: u64,
    /// The target in integer units.
    pub target: Option<u64>,
    /// T[k] = round(cos^2(k pi / 200) * 2^32), k = 0..199: bit = 0 iff the word is below it.
    pub thresholds: Vec<u64>,
    /// Items by decreasing profit/weight (ties by index), for the greedy repair.
    pub order: Vec<u16>,
}

/// The observation thresholds, computed once on the host for both backends.
pub fn thresholds() -> Vec<u64> {
    (0..200)
        .map(|k| {
            (((k as f64) * std::f64::consts::PI / 200.0).cos().powi(2) * 4294967296.0).round()
                as u64
        })
        .collect()
}

/// Items by decreasing profit/weight, ties by index (exact: integer cross products).
pub fn ratio_order(items: &Items) -> Vec<u16> {
    let mut o: Vec<u16> = (0..items.weights.len() as u16).collect();
    o.sort_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        let lhs = items.profits[b] as u128 * items.weights[a] as u128;
        let rhs = items.profits[a] as u128 * items.weights[b] as u128;
        lhs.cmp(&rhs).then(a.cmp(&b))
    });
    o
}

/// The results of some populations (a launch's).
#[derive(Clone, Debug, Default)]
pub struct Chunk {
    pub best_value: Vec<u64>,
    pub best_bits: Vec<u8>,
    pub best_generation: Vec<u32>,
    pub generations_run: Vec<u32>,
}

/// One population between two launches, as a checkpoint (or a warm start) holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PopSnap {
    /// The Q-bits' angles (steps of pi/200, 0..400), individual by individual (`individuals x
    /// items`); empty once the population has finished.
    pub angles: Vec<i16>,
    /// Its best string (0/1, `items` bytes), its profit (integer units) and generation.
    pub best_bits: Vec<u8>,
    pub best_value: u64,
    pub best_generation: u32,
    /// The generation it finished in (its last generation or the target's), if it has.
    pub finished: Option<u32>,
}

/// Populations begun and not finished when a checkpoint was taken: the first's index, the next
/// generation to run, and each population from `offset` on.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Running {
    offset: usize,
    next: u32,
    pops: Vec<PopSnap>,
}

/// Populations that finished: the first's index and their outcomes (strings included).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Finished {
    offset: usize,
    best_value: Vec<u64>,
    best_bits: Vec<u8>,
    best_generation: Vec<u32>,
    generations_run: Vec<u32>,
}

/// A run's whole state between launches: what a checkpoint holds. Populations in neither list
/// had not begun.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct QigaState {
    finished: Vec<Finished>,
    running: Vec<Running>,
    /// Seconds of the run's clock (set-up included) and of its populations' work.
    elapsed: f64,
    work_seconds: f64,
}

/// The work of a run still to do, handed out to the engines: the begun populations of a
/// checkpoint first, then blocks of the populations not begun.
struct Jobs {
    running: VecDeque<Running>,
    /// Ranges of populations (global indices) not begun, and the next one to hand out.
    fresh: Vec<std::ops::Range<usize>>,
    at: usize,
}

/// A job: populations offset..offset + count, new or as a checkpoint holds them.
struct Job {
    offset: usize,
    count: usize,
    from: Option<Running>,
}

impl Jobs {
    /// The next job of at most `chunk` populations (a checkpoint's begun populations split where
    /// they are more than `max` at once).
    fn next(&mut self, chunk: usize, max: usize) -> Option<Job> {
        if let Some(mut r) = self.running.pop_front() {
            if r.pops.len() > max {
                let rest = r.pops.split_off(max);
                self.running.push_front(Running {
                    offset: r.offset + max,
                    next: r.next,
                    pops: rest,
                });
            }
            return Some(Job {
                offset: r.offset,
                count: r.pops.len(),
                from: Some(r),
            });
        }
        while let Some(range) = self.fresh.get_mut(self.at) {
            if range.start >= range.end {
                self.at += 1;
                continue;
            }
            let count = chunk.min(range.len());
            let offset = range.start;
            range.start += count;
            return Some(Job {
                offset,
                count,
                from: None,
            });
        }
        None
    }
}

/// What the engines share about the chunks of a run: those taken (offset, outcome, finished
/// whole or cut), their count of populations, and each engine's begun chunk as last seen.
struct Book {
    chunks: Vec<(usize, Chunk, bool)>,
    n: usize,
    slots: Vec<Option<Running>>,
    /// Whether an engine's slot stands for the chunk the engine still holds: its offset and
    /// next generation are set, its populations are read from the engine only when the state
    /// is asked for ([`Qiga::save_state`]).
    live: Vec<bool>,
}

impl QigaParts {
    /// The chunks' outcomes (sorted by their first population) as one run's. Their strings are
    /// already in `bits` (`items` bytes for each of the run's populations from `first` on,
    /// placed by the worker threads as each chunk came back, while the devices went on): when
    /// every population ran that is the result as it is, else the chunks that ran are moved to
    /// its front in order.
    fn concat(chunks: Vec<(usize, Chunk)>, m: usize, first: usize, mut bits: Vec<u8>) -> QigaParts {
        let n: usize = chunks.iter().map(|(_, c)| c.best_value.len()).sum();
        let mut parts = QigaParts {
            population: chunks
                .iter()
                .flat_map(|(off, c)| (*off..off + c.best_value.len()).map(|p| p as u32))
                .collect(),
            best_value_int: Vec::with_capacity(n),
            best_bits: Vec::new(),
            best_generation: Vec::with_capacity(n),
            generations_run: Vec::with_capacity(n),
        };
        let mut at = 0;
        for (off, c) in &chunks {
            parts.best_value_int.extend_from_slice(&c.best_value);
            parts.best_generation.extend_from_slice(&c.best_generation);
            parts.generations_run.extend_from_slice(&c.generations_run);
            // sorted chunks: the destination never passes the source
            let (from, len) = ((off - first) * m, c.best_value.len() * m);
            if from != at {
                bits.copy_within(from..from + len, at);
            }
            at += len;
        }
        bits.truncate(at);
        parts.best_bits = bits;
        parts
    }
}

impl Chunk {
    fn with_capacity(count: usize, m: usize) -> Self {
        Chunk {
            best_value: Vec::with_capacity(count),
            best_bits: Vec::with_capacity(count * m),
            best_generation: Vec::with_capacity(count),
            generations_run: Vec::with_capacity(count),
        }
    }
}

/// What runs populations: the device engine and the CPU engine. A chunk of populations is begun,
/// advanced by ranges of generations (each range one launch, sized by the run's pacer), and
/// taken; the draws depend on (seed, population, generation) only, so the ranges do not change
/// the runs.
pub trait Engine: Send {
    /// Starts populations offset..offset + count (count at most [`max_chunk`](Self::max_chunk)).
    fn begin(&mut self, offset: usize, count: usize) -> Result<()>;
    /// Runs generations g0..g1 of the begun populations (continuing them from g0); whether every
    /// one has finished.
    fn advance(&mut self, g0: u32, g1: u32) -> Result<bool>;
    /// The begun populations as they stand after the last [`advance`](Self::advance), for a
    /// checkpoint.
    fn snapshot(&mut self) -> Result<Vec<PopSnap>>;
    /// Begins populations offset..offset + pops.len() as `pops` holds them, to go on from
    /// generation `next` (a checkpoint's); `next` 0 is a warm start (the angles, best string and
    /// value given; generation 0 keeps the string unless an individual beats it).
    fn resume(&mut self, offset: usize, next: u32, pops: &[PopSnap]) -> Result<()>;
    /// The begun populations' outcomes: a finished one's, or the best so far of one the run
    /// stopped (its generations run: the last it ran).
    fn take(&mut self) -> Result<Chunk>;
    fn describe(&self) -> String;
    /// Populations per launch that keep the engine busy.
    fn preferred_chunk(&self) -> usize;
    /// The most populations begun at once (what their state between launches may take).
    fn max_chunk(&self) -> usize;
    /// Between two launches: the begun populations' best value so far (the integer scale) and
    /// their generations run after the initial one, summed; `None` (the default) where the
    /// engine does not tell, and [`Qiga::run_observed`] then counts the generations launched.
    fn peek(&mut self) -> Result<Option<(u64, u64)>> {
        Ok(None)
    }
}

/// A run's figures between two launches, as [`Qiga::run_observed`] reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QigaProgress {
    /// Seconds since the run started (the set-up included, as its time limit counts it).
    pub elapsed: f64,
    /// Populations finished (or cut) and taken back from their engine so far.
    pub populations_done: usize,
    /// Populations of the run.
    pub populations: usize,
    /// Generations run after the initial one, summed over every population begun so far.
    pub generations: u64,
    /// The best value of any population so far (maximised), in the problem's units.
    pub best_value: f64,
    /// The same in the exact integer units.
    pub best_value_int: u64,
}

/// What a run's progress reports add up, under one lock with the callback.
struct Tally<F> {
    progress: F,
    /// Generations of the populations taken back.
    taken: u64,
    /// Generations of each engine's begun populations.
    running: Vec<u64>,
    best: u64,
    done: usize,
    /// The last generations reported (the reports never go back).
    reported: u64,
    /// The figures of the last report (populations done, generations, best).
    last: Option<(usize, u64, u64)>,
}

/// Summary statistics of final values.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct QigaStats {
    pub count: usize,
    pub mean: f64,
    /// Sample variance (divided by count - 1).
    pub variance: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl QigaStats {
    pub fn of(values: &[f64]) -> QigaStats {
        let n = values.len();
        if n == 0 {
            return QigaStats::default();
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let variance = if n > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let mut s = values.to_vec();
        // in parallel: a run's statistics sort every population's value (twice with one table),
        // host work after the devices are done, which would otherwise limit a multi-device run
        {
            use rayon::slice::ParallelSliceMut;
            s.par_sort_unstable_by(f64::total_cmp);
        }
        let median = if n % 2 == 1 {
            s[n / 2]
        } else {
            (s[n / 2 - 1] + s[n / 2]) / 2.0
        };
        QigaStats {
            count: n,
            mean,
            variance,
            median,
            min: s[0],
            max: s[n - 1],
        }
    }
}

/// The outcomes of a run's populations, in population order ([`Qiga::result`]): global
/// indices, best values on the integer scale, best strings (`items` bytes each), the generation
/// of each best, the generations run.
#[derive(Clone, Debug, Default)]
pub struct QigaParts {
    pub population: Vec<u32>,
    pub best_value_int: Vec<u64>,
    pub best_bits: Vec<u8>,
    pub best_generation: Vec<u32>,
    pub generations_run: Vec<u32>,
}

/// The result of [`Qiga::run`]: one entry per population that ran, in population order.
#[derive(Clone, Debug, Serialize)]
pub struct QigaRunResult {
    /// The populations that ran (0..populations unless a time limit or an interrupt cut the run).
    pub population: Vec<u32>,
    /// Each population's best value, in the problem's units (integer value / scale).
    pub best_value: Vec<f64>,
    /// The same in the exact integer units.
    pub best_value_int: Vec<u64>,
    /// Each population's best string, `items` bytes (0/1) per population.
    #[serde(skip)]
    pub best_bits: Vec<u8>,
    /// The generation (0 = initial) in which each population found its best.
    pub best_generation: Vec<u32>,
    /// Generations each population ran after the initial one (less than asked when it reached
    /// the target).
    pub generations_run: Vec<u32>,
    pub items: usize,
    /// Statistics over every population that ran.
    pub stats: QigaStats,
    /// Statistics per rotation table (a tuning run; one entry otherwise).
    pub table_stats: Vec<QigaStats>,
    /// The best population (index into the vectors above).
    pub best_index: usize,
    #[serde(rename = "stopped_by")]
    pub stop_reason: StopReason,
    pub elapsed_s: f64,
    /// Whole runs per second (populations that ran / elapsed, set-up excluded: kernel
    /// compilation happens in [`Qiga::new`]).
    pub runs_per_second: f64,
    pub backend: String,
}

impl QigaRunResult {
    /// The best string of entry `i`.
    pub fn bits(&self, i: usize) -> &[u8] {
        &self.best_bits[i * self.items..(i + 1) * self.items]
    }
}

/// The fingerprint of a knapsack in a checkpoint's header.
fn fingerprint(items: &Items) -> String {
    let bytes = |v: &[u64]| checkpoint::le_bytes(v, u64::to_le_bytes);
    checkpoint::fingerprint(
        "knapsack",
        &format!(
            "{} items, capacity {}, scale {}",
            items.weights.len(),
            items.capacity,
            items.scale
        ),
        &[&bytes(&items.weights), &bytes(&items.profits)],
    )
}

/// A run's state kept apart from its solver ([`Qiga::take_saved`]).
pub struct QigaSaved {
    header: Header,
    state: QigaState,
}

impl QigaSaved {
    /// The checkpoint bytes, as [`Qiga::save_state`] gives them.
    pub fn bytes(&self) -> Result<Vec<u8>> {
        checkpoint::encode(&self.header, &self.state)
    }
}

/// A prepared QIGA run: data checked, engines (and their kernels) built.
pub struct Qiga {
    setup: Arc<Setup>,
    engines: Vec<Box<dyn Engine>>,
    options: QigaOptions,
    /// When the solver was made: the first run's clock starts here, so the set-up (program
    /// builds, uploads) counts against its time limit.
    created: Option<Instant>,
    /// A checkpoint the next run continues from ([`Qiga::load_state`]).
    resume: Option<Vec<u8>>,
    /// The last run's header and state, for [`Qiga::save_state`].
    last: Option<Last>,
}

/// A run's last state, with the chunks its engines still hold not read yet.
struct Last {
    header: Header,
    state: QigaState,
    /// (index in `state.running`, engine): a chunk cut short with no checkpoint plan, whose
    /// populations the engine holds until its next run.
    live: Vec<(usize, usize)>,
}

/// Most items (the kernel's order indices are 16-bit).
pub const MAX_ITEMS: usize = 65535;
/// Most individuals per population.
pub const MAX_INDIVIDUALS: usize = 1024;

impl Qiga {
    /// Checks the options against the problem and builds the engines.
    pub fn new(problem: &Knapsack, options: QigaOptions) -> Result<Qiga> {
        Self::from_items(Items::of(problem), options)
    }

    /// As [`Qiga::new`] from the integer form directly.
    pub fn from_items(items: Items, options: QigaOptions) -> Result<Qiga> {
        let created = Instant::now();
        let m = items.weights.len();
        if m == 0 || m > MAX_ITEMS {
            return Err(Error::arg(
                "items",
                format!("{m} items; expected 1..={MAX_ITEMS}"),
            ));
        }
        if items.profits.len() != m {
            return Err(Error::arg(
                "profits",
                format!("{} profits for {m} weights", items.profits.len()),
            ));
        }
        if items.weights.contains(&0) {
            return Err(Error::arg(
                "weights",
                "a weight is 0; every weight must be positive",
            ));
        }
        let o = &options;
        if let Some(r) = &o.only {
            if r.start > r.end || r.end > o.populations {
                return Err(Error::arg(
                    "only",
                    format!("{r:?}; expected a range within 0..{}", o.populations),
                ));
            }
        }
        if o.populations == 0 {
            return Err(Error::arg("populations", "0; expected at least 1"));
        }
        if o.populations > u32::MAX as usize {
            return Err(Error::arg(
                "populations",
                format!("{}; at most {}", o.populations, u32::MAX),
            ));
        }
        if o.individuals == 0 || o.individuals > MAX_INDIVIDUALS {
            return Err(Error::arg(
                "individuals",
                format!("{}; expected 1..={MAX_INDIVIDUALS}", o.individuals),
            ));
        }
        let generations = match o.stop.budget {
            None => {
                return Err(Error::arg(
                    "generations",
                    "none: give the generations of every population",
                ))
            }
            Some(g) if g >= u64::from(u32::MAX) => {
                return Err(Error::arg(
                    "generations",
                    format!("{g}; at most 4294967294"),
                ))
            }
            Some(g) => g as u32,
        };
        if o.tables.is_empty() {
            return Err(Error::arg("tables", "no rotation table"));
        }
        o.stop.check("generations")?;
        if o.stop.evaluations.is_some() {
            return Err(Error::arg(
                "evaluations",
                "QIGA counts generations, not evaluations: give generations",
            ));
        }
        // sums of the item data must fit 64 bits
        let sum = |v: &[u64]| v.iter().try_fold(0u64, |a, &x| a.checked_add(x));
        if sum(&items.weights).is_none() || sum(&items.profits).is_none() {
            return Err(Error::arg(
                "items",
                "the total weight or profit overflows 64 bits on the integer scale",
            ));
        }
        let target = match o.stop.target {
            None => None,
            Some(t) if t.is_finite() => Some(if t <= 0.0 {
                0
            } else {
                (t * items.scale).ceil().min(u64::MAX as f64) as u64
            }),
            Some(t) => {
                return Err(Error::arg(
                    "target",
                    format!("{t}; expected a finite value"),
                ))
            }
        };
        // the Philox counters: generation x individuals x items below 2^62
        let per_gen = (o.individuals.div_ceil(4) * 4 * m) as u128;
        if (generations as u128 + 1) * per_gen >= 1u128 << 62 {
            return Err(Error::arg(
                "generations",
                "too many generations for this many individuals and items",
            ));
        }
        // the whole run's memory, before anything is allocated
        Qiga::footprint(m, o).check(
            "populations",
            &format!("a QIGA run of {} populations", o.populations),
            None,
        )?;
        let pops_per_table = if o.pops_per_table == 0 {
            o.populations.div_ceil(o.tables.len())
        } else {
            o.pops_per_table
        };
        let order = ratio_order(&items);
        let setup = Arc::new(Setup {
            items,
            individuals: o.individuals,
            generations,
            tables: o.tables.iter().map(RotationTable::encode).collect(),
            pops_per_table,
            repair: o.repair,
            seed: o.seed,
            target,
            thresholds: thresholds(),
            order,
        });
        let mut engines: Vec<Box<dyn Engine>> = Vec::new();
        // the kernels' build counts in the time limit of the run, which counts from here
        let _setup = o.stop.cut(created).setup_scope();
        if o.devices.is_empty() {
            match o.backend {
                Backend::Cpu => engines.push(Box::new(cpu::CpuEngine::new(setup.clone()))),
                b => engines.push(Box::new(device::DeviceEngine::new(
                    setup.clone(),
                    b,
                    o.group_size,
                )?)),
            }
        } else {
            crate::multi::check_devices(&o.devices)?;
            for &d in &o.devices {
                engines.push(Box::new(device::DeviceEngine::new(
                    setup.clone(),
                    Backend::Device(Some(d)),
                    o.group_size,
                )?));
            }
        }
        let qiga = Qiga {
            setup,
            engines,
            options,
            created: Some(created),
            resume: None,
            last: None,
        };
        qiga.warm_starts()?;
        Ok(qiga)
    }

    /// The host memory a run of `options` on `items` items holds at its peak
    /// (docs/specs/QIGA.md "Memory"): for each population that runs (all, or those of
    /// `options.only`) its best string three times (the run's strings, the last state kept for
    /// [`Qiga::save_state`], the C ABI's copy) and 128 bytes of outcomes, and for each engine its
    /// begun chunk of populations (their Q-bit angles, observed strings and best strings).
    /// [`Qiga::new`] refuses options whose footprint the host cannot hold.
    pub fn footprint(items: usize, options: &QigaOptions) -> Footprint {
        let o = options;
        let (m, n) = (items as u64, o.individuals as u64);
        let total = o.only.as_ref().map_or(o.populations, |r| r.len()) as u64;
        let mut f = Footprint::default();
        f.host(&[total, m.saturating_mul(3).saturating_add(128)]);
        // a begun population: angles (2 bytes a Q-bit), observed strings, best string
        let per = bytes(&[n, m, 3]).saturating_add(m).saturating_add(64);
        let chunk = match (o.devices.is_empty(), o.backend) {
            (true, Backend::Cpu) => o
                .launch_populations
                .unwrap_or(rayon::current_num_threads() * 8)
                .clamp(
                    1,
                    ((256usize << 20) / (items * (o.individuals * 2 + 1)).max(1)).max(1),
                ),
            _ => o.launch_populations.unwrap_or(1 << 16).clamp(1, 1 << 16),
        } as u64;
        let engines = o.devices.len().max(1) as u64;
        f.host(&[engines, chunk.min(total), per]);
        f
    }

    /// The warm start's populations (checked: each string `items` bytes of 0/1 within the
    /// capacity; errors name `start`): per string, the snapshot every population that starts
    /// from it begins with.
    fn warm_starts(&self) -> Result<Vec<PopSnap>> {
        let s = &*self.setup;
        let m = s.items.weights.len();
        self.options
            .start
            .iter()
            .enumerate()
            .map(|(i, b)| {
                if b.len() != m {
                    return Err(Error::arg(
                        "start",
                        format!("string {i} has {} items; the knapsack has {m}", b.len()),
                    ));
                }
                if b.iter().any(|&x| x > 1) {
                    return Err(Error::arg(
                        "start",
                        format!("string {i} holds a value other than 0 or 1"),
                    ));
                }
                let sum = |v: &[u64]| -> u64 {
                    v.iter()
                        .zip(b)
                        .filter(|(_, &x)| x == 1)
                        .map(|(w, _)| *w)
                        .sum()
                };
                let weight = sum(&s.items.weights);
                if weight > s.items.capacity {
                    return Err(Error::arg(
                        "start",
                        format!(
                            "string {i} weighs {}, over the capacity {}",
                            weight as f64 / s.items.scale,
                            s.items.capacity as f64 / s.items.scale
                        ),
                    ));
                }
                let angles: Vec<i16> = b
                    .iter()
                    .map(|&x| {
                        if x == 1 {
                            WARM_ANGLE_ONE
                        } else {
                            WARM_ANGLE_ZERO
                        }
                    })
                    .collect();
                Ok(PopSnap {
                    angles: angles.repeat(s.individuals),
                    best_bits: b.clone(),
                    best_value: sum(&s.items.profits),
                    best_generation: 0,
                    finished: None,
                })
            })
            .collect()
    }

    /// What a checkpoint of this run is checked against: the knapsack and the options that
    /// shape the populations' runs, their generations and target included (a finished
    /// population keeps no angles to go on with). Not the time limit, nor the devices: the
    /// populations run alike on any split.
    fn header(&self) -> Header {
        let s = &*self.setup;
        let o = &self.options;
        let mut tables = Vec::new();
        for t in &s.tables {
            tables.extend(checkpoint::le_bytes(t, i32::to_le_bytes));
        }
        let start: Vec<u8> = o.start.concat();
        let only = o.only.clone().unwrap_or(0..o.populations);
        Header::new("qiga", fingerprint(&s.items))
            .option("populations", o.populations)
            .option("only", format!("{}..{}", only.start, only.end))
            .option("individuals", s.individuals)
            .option("generations", s.generations)
            .option("tables", format!("{:08x}", crc32fast::hash(&tables)))
            .option("pops_per_table", s.pops_per_table)
            .option("repair", format!("{:?}", s.repair))
            .option("seed", s.seed)
            .option(
                "target",
                s.target.map_or("none".to_string(), |t| t.to_string()),
            )
            .option(
                "start",
                if o.start.is_empty() {
                    "none".to_string()
                } else {
                    format!(
                        "{} strings, checksum {:08x}",
                        o.start.len(),
                        crc32fast::hash(&start)
                    )
                },
            )
    }

    /// The next run continues from checkpoint `bytes` (of [`save_state`](Self::save_state) or a
    /// checkpoint file) instead of starting afresh. Checked now: the file's frame, version,
    /// solver and knapsack, and the options (errors name `state`).
    pub fn load_state(&mut self, bytes: Vec<u8>) -> Result<()> {
        let _: QigaState = checkpoint::decode(&bytes, &self.header(), "state")?;
        self.resume = Some(bytes);
        Ok(())
    }

    /// The state [`load_state`](Self::load_state) gave that no run has used yet, taken away.
    pub fn take_loaded_state(&mut self) -> Option<Vec<u8>> {
        self.resume.take()
    }

    /// The last run's state, taken away (for a caller that keeps it after the solver is gone).
    pub fn take_saved(&mut self) -> Result<Option<QigaSaved>> {
        self.read_live()?;
        Ok(self.last.take().map(|l| QigaSaved {
            header: l.header,
            state: l.state,
        }))
    }

    /// Reads the populations of the last run's chunks that its engines still hold into its
    /// state.
    fn read_live(&mut self) -> Result<()> {
        let Some(last) = &mut self.last else {
            return Ok(());
        };
        for (k, e) in std::mem::take(&mut last.live) {
            last.state.running[k].pops = self.engines[e].snapshot()?;
        }
        Ok(())
    }

    /// Checks checkpoint `bytes` against a run on `problem` before the run's options are known:
    /// its frame, version, solver and knapsack (errors name `state`).
    pub fn check_state_for(problem: &Knapsack, bytes: &[u8]) -> Result<()> {
        let h = checkpoint::header(bytes, "state")?;
        let mine = Header {
            options: h.options.clone(),
            rank: h.rank,
            ranks: h.ranks,
            ..Header::new("qiga", fingerprint(&Items::of(problem)))
        };
        match mine.mismatch(&h) {
            Some(why) => Err(Error::arg(
                "state",
                format!("cannot resume from this checkpoint: {why}"),
            )),
            None => Ok(()),
        }
    }

    /// The last run's whole state (the finished populations' outcomes; the Q-bit angles, best
    /// strings, values and generations of the populations begun and not finished; the time
    /// taken) as checkpoint bytes, from which [`load_state`](Self::load_state) continues it.
    pub fn save_state(&mut self) -> Result<Vec<u8>> {
        self.read_live()?;
        match &self.last {
            Some(l) => checkpoint::encode(&l.header, &l.state),
            None => Err(Error::arg(
                "state",
                "no run has run on this solver: nothing to save",
            )),
        }
    }

    /// Checks a checkpoint's state against this run (errors name `state`): populations within
    /// the run, none twice, every population's data of the run's sizes.
    fn check_state(&self, st: &QigaState) -> Result<()> {
        let bad = |msg: &str| Error::arg("state", format!("a corrupt checkpoint: {msg}"));
        let o = &self.options;
        let s = &*self.setup;
        let (m, n) = (s.items.weights.len(), s.individuals);
        let first = o.only.as_ref().map_or(0, |r| r.start);
        let total = o.only.as_ref().map_or(o.populations, |r| r.len());
        let gens = s.generations.saturating_add(1);
        let mut seen = vec![false; total];
        let mut claim = |offset: usize, count: usize| -> Result<()> {
            if offset < first || offset + count > first + total {
                return Err(bad("populations outside the run"));
            }
            for s in &mut seen[offset - first..offset - first + count] {
                if std::mem::replace(s, true) {
                    return Err(bad("a population twice"));
                }
            }
            Ok(())
        };
        for f in &st.finished {
            let c = f.best_value.len();
            if f.best_bits.len() != c * m
                || f.best_generation.len() != c
                || f.generations_run.len() != c
                || f.best_bits.iter().any(|&b| b > 1)
            {
                return Err(bad("finished populations of other sizes"));
            }
            claim(f.offset, c)?;
        }
        for r in &st.running {
            if r.next == 0 || r.next > gens {
                return Err(bad("a generation outside the run"));
            }
            for p in &r.pops {
                let angles_ok = match p.finished {
                    Some(g) => p.angles.is_empty() && g < r.next,
                    None => {
                        p.angles.len() == n * m && p.angles.iter().all(|&k| (0..400).contains(&k))
                    }
                };
                if !angles_ok || p.best_bits.len() != m || p.best_bits.iter().any(|&b| b > 1) {
                    return Err(bad("a begun population of other sizes"));
                }
            }
            claim(r.offset, r.pops.len())?;
        }
        Ok(())
    }

    pub fn options(&self) -> &QigaOptions {
        &self.options
    }

    describe_alias!();

    pub fn describe(&self) -> String {
        self.engines
            .iter()
            .map(|e| e.describe())
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// Runs every population; see [`Qiga::run_with_progress`].
    pub fn run(&mut self) -> Result<QigaRunResult> {
        self.run_with_progress(|_, _| true)
    }

    /// Runs every population, launch by launch on each engine; `progress(done, total)` after each
    /// launch (false stops: the populations not started are not run).
    pub fn run_with_progress(
        &mut self,
        mut progress: impl FnMut(usize, usize) -> bool + Send,
    ) -> Result<QigaRunResult> {
        self.run_inner(false, move |p: &QigaProgress, taken| {
            !taken || progress(p.populations_done, p.populations)
        })
    }

    /// Runs every population, calling `progress` after every launch of every engine and at the
    /// end with the run's figures so far ([`QigaProgress`]: the generations run, the best value
    /// of any population); false from it ends the run as a time limit would (the begun
    /// populations report their best so far, the others are not run), stopped by the budget.
    pub fn run_observed(
        &mut self,
        mut progress: impl FnMut(&QigaProgress) -> bool + Send,
    ) -> Result<QigaRunResult> {
        self.run_inner(true, move |p: &QigaProgress, _| progress(p))
    }

    /// The run: `progress(figures, taken)` after each chunk taken back (`taken`), and with
    /// `every_launch` after every launch too (the engines then peek at their populations) and at
    /// the end.
    fn run_inner(
        &mut self,
        every_launch: bool,
        progress: impl FnMut(&QigaProgress, bool) -> bool + Send,
    ) -> Result<QigaRunResult> {
        let start = Instant::now();
        let header = self.header();
        // a loaded checkpoint is used up only by a run that starts from it
        let resumed: Option<QigaState> = match &self.resume {
            Some(bytes) => {
                let st = checkpoint::decode(bytes, &header, "state")?;
                self.check_state(&st)?;
                Some(st)
            }
            None => None,
        };
        let warm = self.warm_starts()?;
        let o = &self.options;
        let (prior_elapsed, prior_work) = resumed
            .as_ref()
            .map_or((0.0, 0.0), |r| (r.elapsed, r.work_seconds));
        let clock = Clock::since(
            checkpoint::resumed_start(self.created.take().unwrap_or(start), prior_elapsed),
            o.stop.time_limit,
        );
        let watch = Watch::new(o.stop.token.as_ref());
        let first = o.only.as_ref().map_or(0, |r| r.start);
        let total = o.only.as_ref().map_or(o.populations, |r| r.len());
        let quit = AtomicBool::new(false);
        // a launch's progress report said stop: every engine cuts its chunk
        let halt = AtomicBool::new(false);
        // a cut: the time limit or an interrupt (None: the populations' own ends, or progress)
        let reason: Mutex<Option<StopReason>> = Mutex::new(None);
        let tally = Mutex::new(Tally {
            progress,
            taken: 0,
            running: vec![0; self.engines.len()],
            best: 0,
            done: 0,
            reported: 0,
            last: None,
        });
        let scale = self.setup.items.scale;
        let cut = Cut { clock, watch };
        // the figures of `t` after an engine's report (`running` generations of its chunk)
        let report = |t: &mut Tally<_>| {
            t.reported = t.reported.max(t.taken + t.running.iter().sum::<u64>());
            t.last = Some((t.done, t.reported, t.best));
            QigaProgress {
                elapsed: cut.clock.elapsed().as_secs_f64(),
                populations_done: t.done,
                populations: total,
                generations: t.reported,
                best_value: t.best as f64 / scale,
                best_value_int: t.best,
            }
        };
        let first_error: Mutex<Option<Error>> = Mutex::new(None);
        // every population's best string, placed by the worker that ran it as its chunk comes
        // back, so the copy overlaps the other devices' work instead of following the run (a
        // million populations of 250 items are 250 MB); zeroed pages are mapped at first touch
        let m = self.setup.items.weights.len();
        let mut bits_v = try_filled(
            crate::error::size_product("populations", &[total, m])?,
            0u8,
            "populations",
        )?;
        let mut book = Book {
            chunks: Vec::new(),
            n: 0,
            slots: (0..self.engines.len()).map(|_| None).collect(),
            live: vec![false; self.engines.len()],
        };
        // the checkpoint's populations: the finished ones as taken chunks, the begun ones first
        // in line, the others not begun
        let mut jobs = Jobs {
            running: VecDeque::new(),
            fresh: std::iter::once(first..first + total).collect(),
            at: 0,
        };
        if let Some(st) = resumed {
            let mut begun = try_filled(total, false, "populations")?;
            for f in st.finished {
                let c = f.best_value.len();
                bits_v[(f.offset - first) * m..(f.offset - first + c) * m]
                    .copy_from_slice(&f.best_bits);
                begun[f.offset - first..f.offset - first + c].fill(true);
                book.chunks.push((
                    f.offset,
                    Chunk {
                        best_value: f.best_value,
                        best_bits: Vec::new(),
                        best_generation: f.best_generation,
                        generations_run: f.generations_run,
                    },
                    true,
                ));
                book.n += c;
            }
            for r in &st.running {
                begun[r.offset - first..r.offset - first + r.pops.len()].fill(true);
            }
            jobs.running = st.running.into();
            // the ranges not begun
            jobs.fresh.clear();
            let mut k = 0;
            while k < total {
                if begun[k] {
                    k += 1;
                    continue;
                }
                let a = k;
                while k < total && !begun[k] {
                    k += 1;
                }
                jobs.fresh.push(first + a..first + k);
            }
        }
        let bits = Mutex::new(bits_v);
        let book = Mutex::new(book);
        let jobs = Mutex::new(jobs);
        let schedule = Mutex::new(Schedule::new(o.stop.checkpoint.as_ref()));
        let fixed_chunk = o.launch_populations;
        // a checkpoint plan writes the run's last state: the chunks a cut leaves are read then
        let plan = o.stop.checkpoint.is_some();
        let gens = self.setup.generations.saturating_add(1);
        let due = || cut.reason();
        let stop = |r: StopReason| {
            reason.lock().unwrap().get_or_insert(r);
            quit.store(true, Ordering::Relaxed);
        };
        let work_start = Instant::now();
        // the state as it stands: the taken chunks that finished whole, the begun chunks as the
        // engines last saw them and those of the checkpoint not handed out yet
        let state_now = |jobs: &Jobs, book: &Book, bits: &[u8]| -> QigaState {
            let mut st = QigaState {
                elapsed: cut.clock.elapsed().as_secs_f64(),
                work_seconds: prior_work + work_start.elapsed().as_secs_f64(),
                ..Default::default()
            };
            for (off, c, whole) in &book.chunks {
                if *whole {
                    let k = off - first;
                    st.finished.push(Finished {
                        offset: *off,
                        best_value: c.best_value.clone(),
                        best_bits: bits[k * m..(k + c.best_value.len()) * m].to_vec(),
                        best_generation: c.best_generation.clone(),
                        generations_run: c.generations_run.clone(),
                    });
                }
            }
            st.running.extend(book.slots.iter().flatten().cloned());
            st.running.extend(jobs.running.iter().cloned());
            st
        };
        let write = |schedule: &mut Schedule| -> Result<()> {
            schedule.write(|| {
                let j = jobs.lock().unwrap();
                let bk = book.lock().unwrap();
                let b = bits.lock().unwrap();
                checkpoint::encode(&header, &state_now(&j, &bk, &b))
            })
        };
        let work = |e: usize, engine: &mut Box<dyn Engine>| -> Result<()> {
            let chunk = fixed_chunk
                .unwrap_or_else(|| engine.preferred_chunk())
                .clamp(1, engine.max_chunk().max(1));
            // the generations of a launch: one at first, then sized to end before the time left
            let mut pacer = Pacer::default();
            loop {
                if quit.load(Ordering::Relaxed) {
                    return Ok(());
                }
                if let Some(r) = due() {
                    stop(r);
                    return Ok(());
                }
                let Some(job) = jobs.lock().unwrap().next(chunk, engine.max_chunk().max(1)) else {
                    return Ok(());
                };
                let (offset, count) = (job.offset, job.count);
                let mut g = match &job.from {
                    Some(r) => {
                        engine.resume(offset, r.next, &r.pops)?;
                        r.next
                    }
                    None if !warm.is_empty() => {
                        let pops: Vec<PopSnap> = (offset..offset + count)
                            .map(|q| warm[q % warm.len()].clone())
                            .collect();
                        engine.resume(offset, 0, &pops)?;
                        0
                    }
                    None => {
                        engine.begin(offset, count)?;
                        0
                    }
                };
                if let Some(r) = job.from {
                    // the engine holds it now: a checkpoint takes it from the engine's slot
                    book.lock().unwrap().slots[e] = Some(r);
                }
                let mut whole = true;
                while g < gens {
                    let n = pacer.size(1, (gens - g) as u64, cut.clock.left()) as u32;
                    let t = Instant::now();
                    let finished = engine.advance(g, g + n)?;
                    pacer.record(n as u64, t.elapsed().as_secs_f64());
                    g += n;
                    if every_launch {
                        // the chunk's figures: the engine's, else the generations launched
                        let (best, run) = engine
                            .peek()?
                            .unwrap_or((0, count as u64 * u64::from(g.saturating_sub(1))));
                        let mut t = tally.lock().unwrap();
                        t.running[e] = run;
                        t.best = t.best.max(best);
                        let p = report(&mut *t);
                        if !(t.progress)(&p, false) {
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                    if finished {
                        break;
                    }
                    let r = due();
                    let halted = halt.load(Ordering::Relaxed);
                    let mut sched = schedule.lock().unwrap();
                    if sched.due() || ((r.is_some() || halted) && plan) {
                        // the chunk as it stands, for this checkpoint or the run's last
                        let pops = engine.snapshot()?;
                        book.lock().unwrap().slots[e] = Some(Running {
                            offset,
                            next: g,
                            pops,
                        });
                    } else if r.is_some() || halted {
                        // no file wants it now: the engine keeps the chunk, read only if the
                        // state is asked for (`Qiga::save_state`), so that a cut ends at once
                        let mut d = book.lock().unwrap();
                        d.slots[e] = Some(Running {
                            offset,
                            next: g,
                            pops: Vec::new(),
                        });
                        d.live[e] = true;
                    }
                    if let Some(r) = r {
                        // the chunk's populations report their best so far
                        stop(r);
                        whole = false;
                        break;
                    }
                    if sched.due() {
                        write(&mut sched)?;
                    }
                    if halted {
                        quit.store(true, Ordering::Relaxed);
                        whole = false;
                        break;
                    }
                }
                let mut c = engine.take()?;
                {
                    let k = offset - first;
                    bits.lock().unwrap()[k * m..(k + count) * m].copy_from_slice(&c.best_bits);
                }
                c.best_bits = Vec::new();
                let mut t = tally.lock().unwrap();
                t.taken += c.generations_run.iter().map(|&g| u64::from(g)).sum::<u64>();
                t.running[e] = 0;
                t.best = t.best.max(c.best_value.iter().copied().max().unwrap_or(0));
                t.done += count;
                let mut d = book.lock().unwrap();
                if whole {
                    d.slots[e] = None;
                }
                d.chunks.push((offset, c, whole));
                d.n += count;
                drop(d);
                if quit.load(Ordering::Relaxed) {
                    return Ok(());
                }
                let p = report(&mut *t);
                if !(t.progress)(&p, true) {
                    quit.store(true, Ordering::Relaxed);
                    return Ok(());
                }
            }
        };
        let work = |e: usize, engine: &mut Box<dyn Engine>| {
            if let Err(err) = work(e, engine) {
                first_error.lock().unwrap().get_or_insert(err);
                quit.store(true, Ordering::Relaxed);
            }
        };
        if self.engines.len() == 1 {
            work(0, &mut self.engines[0]);
        } else {
            std::thread::scope(|s| {
                for (i, e) in self.engines.iter_mut().enumerate() {
                    let work = &work;
                    s.spawn(move || work(i, e));
                }
            });
        }
        if let Some(e) = first_error.into_inner().unwrap() {
            return Err(e);
        }
        // the run's end, whatever ended it, is a checkpoint
        let last = {
            let j = jobs.lock().unwrap();
            let bk = book.lock().unwrap();
            let b = bits.lock().unwrap();
            state_now(&j, &bk, &b)
        };
        schedule
            .into_inner()
            .unwrap()
            .write(|| checkpoint::encode(&header, &last))?;
        let work_seconds = last.work_seconds;
        // the slots come first in the state, in engine order (`state_now`)
        let live = {
            let bk = book.lock().unwrap();
            let mut k = 0;
            let mut live = Vec::new();
            for (e, slot) in bk.slots.iter().enumerate() {
                if slot.is_some() {
                    if bk.live[e] {
                        live.push((k, e));
                    }
                    k += 1;
                }
            }
            live
        };
        self.last = Some(Last {
            header,
            state: last,
            live,
        });
        self.resume = None;
        let book = book.into_inner().unwrap();
        let n = book.n;
        let mut chunks: Vec<(usize, Chunk)> =
            book.chunks.into_iter().map(|(o, c, _)| (o, c)).collect();
        let mut tally = tally.into_inner().unwrap();
        let cut_reason = reason.into_inner().unwrap();
        let mut stop_reason = cut_reason.unwrap_or(StopReason::Budget);
        if n == total && cut_reason.is_none() {
            stop_reason = if self.setup.target.is_some()
                && chunks.iter().all(|(_, c)| {
                    c.generations_run
                        .iter()
                        .all(|&g| g < self.setup.generations)
                }) {
                StopReason::Target
            } else {
                StopReason::Budget
            };
        }
        chunks.sort_by_key(|(off, _)| *off);
        let parts = QigaParts::concat(chunks, m, first, bits.into_inner().unwrap());
        debug_assert_eq!(parts.best_bits.len(), parts.population.len() * m);
        if every_launch && n > 0 {
            // the end (every population that ran taken back), unless the last report was it
            let before = tally.last;
            let p = report(&mut tally);
            if tally.last != before {
                (tally.progress)(&p, true);
            }
        }
        Ok(self.result(parts, stop_reason, work_seconds))
    }

    /// The run's result from its populations' outcomes (in population order; from one run, or
    /// gathered from the processes that ran blocks of it with [`QigaOptions::only`]).
    pub fn result(
        &self,
        parts: QigaParts,
        stop_reason: StopReason,
        elapsed_s: f64,
    ) -> QigaRunResult {
        let n = parts.population.len();
        let m = self.setup.items.weights.len();
        let scale = self.setup.items.scale;
        let mut r = QigaRunResult {
            best_value: parts
                .best_value_int
                .iter()
                .map(|&v| v as f64 / scale)
                .collect(),
            population: parts.population,
            best_value_int: parts.best_value_int,
            best_bits: parts.best_bits,
            best_generation: parts.best_generation,
            generations_run: parts.generations_run,
            items: m,
            stats: QigaStats::default(),
            table_stats: Vec::new(),
            best_index: 0,
            stop_reason,
            elapsed_s,
            runs_per_second: if elapsed_s > 0.0 {
                n as f64 / elapsed_s
            } else {
                0.0
            },
            backend: self.describe(),
        };
        r.stats = QigaStats::of(&r.best_value);
        let ntab = self.setup.tables.len();
        r.table_stats = (0..ntab)
            .map(|t| {
                let v: Vec<f64> = r
                    .population
                    .iter()
                    .zip(&r.best_value)
                    .filter(|(p, _)| (**p as usize / self.setup.pops_per_table) % ntab == t)
                    .map(|(_, v)| *v)
                    .collect();
                QigaStats::of(&v)
            })
            .collect();
        r.best_index = (0..n).fold(0, |b, i| {
            if r.best_value_int[i] > r.best_value_int[b] {
                i
            } else {
                b
            }
        });
        r
    }
}

/// The item order of the `random` repair of individual `individual` of population `pop` in
/// generation `g` (position -> item), as both backends draw it.
pub fn random_order(
    seed: u64,
    pop: u32,
    g: u32,
    individual: u32,
    individuals: u32,
    items: u32,
) -> Vec<usize> {
    let o = cpu::RandomOrder::new(seed, pop, g, individual, individuals, items);
    (0..items).map(|r| o.item(r) as usize).collect()
}

/// Which repairs [`repair_strings`] makes: those of generation `generation` of populations
/// `pop_offset..` of a run with `individuals` individuals, `repair` and `seed`.
#[derive(Clone, Copy, Debug)]
pub struct RepairCall {
    pub individuals: usize,
    pub repair: Repair,
    pub seed: u64,
    pub pop_offset: u32,
    pub generation: u32,
}

/// Repairs strings as a run would (string s is individual s % individuals of population
/// pop_offset + s / individuals), on the device or the CPU; returns each string's profit in
/// integer units. For tests and checks of the repair.
pub fn repair_strings(
    items: &Items,
    call: RepairCall,
    bits: &mut [u8],
    backend: Backend,
) -> Result<Vec<u64>> {
    let RepairCall {
        individuals,
        repair,
        seed,
        pop_offset,
        generation: g,
    } = call;
    let m = items.weights.len();
    if individuals == 0 || !bits.len().is_multiple_of(m * individuals) {
        return Err(Error::arg(
            "bits",
            format!(
                "{} bytes; expected a multiple of items x individuals = {}",
                bits.len(),
                m * individuals
            ),
        ));
    }
    let setup = Setup {
        items: items.clone(),
        individuals,
        generations: 0,
        tables: vec![RotationTable::gqa2000().encode()],
        pops_per_table: 1,
        repair,
        seed,
        target: None,
        thresholds: thresholds(),
        order: ratio_order(items),
    };
    match backend {
        Backend::Cpu => Ok(bits
            .chunks_mut(m)
            .enumerate()
            .map(|(s, x)| {
                cpu::repair(
                    x,
                    &setup,
                    pop_offset + (s / individuals) as u32,
                    g,
                    (s % individuals) as u32,
                )
                .0
            })
            .collect()),
        b => device::repair_strings(&setup, b, None, pop_offset, g, bits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_cos_squared() {
        let t = thresholds();
        assert_eq!(t[0], 1 << 32);
        assert_eq!(t[100], 0);
        assert_eq!(t[50], 1 << 31);
        assert!(t.windows(2).take(100).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn tables_round_trip_as_text() {
        for t in [
            RotationTable::gqa2000(),
            RotationTable::qea2002(),
            RotationTable::gqa2000().with_random_pole_signs(),
        ] {
            assert_eq!(RotationTable::parse(&t.to_text()).unwrap(), t);
        }
        assert!(RotationTable::parse("0 1 1 10 -1 +1").is_err());
        assert!(RotationTable::parse("0 1 1 300 -1 +1 +1 0").is_err());
        assert!(RotationTable::parse("0 1 1 10 -1 +1 +1 0\n0 1 true 1 0 0 0 0").is_err());
    }

    #[test]
    fn gqa2000_cells_as_qiga_md() {
        let t = RotationTable::gqa2000().encode();
        let row =
            |x, b, c| &t[RotationTable::index(x, b, c) * 5..RotationTable::index(x, b, c) * 5 + 5];
        assert_eq!(row(0, 0, false), [0, 0, 0, 0, 0]);
        assert_eq!(row(0, 0, true), [0, 0, 0, 0, 0]);
        assert_eq!(row(0, 1, false), [0, 0, 0, 0, 0]);
        assert_eq!(row(0, 1, true), [10, -1, 1, 1, 0]);
        assert_eq!(row(1, 0, false), [2, -1, 1, 1, 0]);
        assert_eq!(row(1, 0, true), [5, 1, -1, 0, 1]);
        assert_eq!(row(1, 1, false), [1, 1, -1, 0, 1]);
        assert_eq!(row(1, 1, true), [5, 1, -1, 0, 1]);
        let q = RotationTable::qea2002().encode();
        let qrow =
            |x, b, c| &q[RotationTable::index(x, b, c) * 5..RotationTable::index(x, b, c) * 5 + 5];
        assert_eq!(qrow(0, 1, false), [2, 1, -1, 0, 1]);
        assert_eq!(qrow(1, 0, false), [2, -1, 1, 1, 0]);
        for (x, b, c) in [
            (0, 0, false),
            (0, 0, true),
            (0, 1, true),
            (1, 0, true),
            (1, 1, false),
            (1, 1, true),
        ] {
            assert_eq!(qrow(x, b, c), [0; 5]);
        }
    }

    /// Every cell of both presets moves an angle in each quadrant and at each pole as QIGA.md's
    /// table says: the step times the column's sign, toward 0 or 1 as the row means.
    #[test]
    fn every_cell_rotates_as_the_tables_say() {
        // P(bit = 1) = sin^2: larger after the rotation means "toward 1"
        let p1 = |k: i16| ((k as f64) * std::f64::consts::PI / 200.0).sin().powi(2);
        // per preset: (x, b, better) -> (steps, direction: +1 toward 1, -1 toward 0, 0 none)
        let gqa = [
            (0, 0, false, 0, 0),
            (0, 0, true, 0, 0),
            (0, 1, false, 0, 0),
            (0, 1, true, 10, -1),
            (1, 0, false, 2, -1),
            (1, 0, true, 5, 1),
            (1, 1, false, 1, 1),
            (1, 1, true, 5, 1),
        ];
        let qea = [
            (0, 0, false, 0, 0),
            (0, 0, true, 0, 0),
            (0, 1, false, 2, 1),
            (0, 1, true, 0, 0),
            (1, 0, false, 2, -1),
            (1, 0, true, 0, 0),
            (1, 1, false, 0, 0),
            (1, 1, true, 0, 0),
        ];
        for (table, cells) in [
            (RotationTable::gqa2000(), gqa),
            (RotationTable::qea2002(), qea),
        ] {
            let t = table.encode();
            for (x, b, better, steps, dir) in cells {
                let row = RotationTable::index(x, b, better);
                let cell = &t[row * 5..row * 5 + 5];
                assert_eq!(cell[0], steps);
                // inside each quadrant (alpha*beta > 0 and < 0 in both half-turns)
                for k in [1i16, 37, 99, 101, 150, 199, 201, 260, 299, 301, 350, 399] {
                    let k2 = cpu::rotate(k, cell, || true);
                    let dist = (k2 as i32 - k as i32)
                        .rem_euclid(400)
                        .min((k as i32 - k2 as i32).rem_euclid(400));
                    assert_eq!(dist, steps.min(200), "{x}{b}{better} k={k}");
                    let d = p1(k2) - p1(k);
                    let moved = if d > 0.0 {
                        1
                    } else if d < 0.0 {
                        -1
                    } else {
                        0
                    };
                    // a step can cross a pole and come back down; away from the poles it cannot
                    if (steps as i16) < k % 100 && (steps as i16) < 100 - k % 100 {
                        assert_eq!(moved, dir, "{x}{b}{better} k={k} -> {k2}");
                    }
                }
                // at the poles: a cell that rotates moves away from the pole it is not heading to
                for (k, at_one) in [(0i16, false), (200, false), (100, true), (300, true)] {
                    let k2 = cpu::rotate(k, cell, || true);
                    if dir == 0 || (dir == 1) == at_one {
                        assert_eq!(k2, k, "{x}{b}{better} stays at pole {k}");
                    } else {
                        assert_ne!(k2, k, "{x}{b}{better} leaves pole {k}");
                        assert_eq!(p1(k2) > p1(k), dir == 1);
                    }
                }
            }
        }
        // a random pole sign follows the coin
        let t = RotationTable::gqa2000().with_random_pole_signs().encode();
        let row = RotationTable::index(0, 1, true) * 5;
        assert_eq!(cpu::rotate(100, &t[row..row + 5], || true), 110);
        assert_eq!(cpu::rotate(100, &t[row..row + 5], || false), 90);
    }

    #[test]
    fn random_order_is_a_bijection() {
        for m in [1u32, 2, 3, 7, 250, 256, 1000] {
            let o = cpu::RandomOrder::new(7, 3, 5, 2, 10, m);
            let mut seen = vec![false; m as usize];
            for r in 0..m {
                let k = o.item(r) as usize;
                assert!(!seen[k]);
                seen[k] = true;
            }
        }
    }

    #[test]
    fn stats_match_hand_values() {
        let s = QigaStats::of(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!((s.mean, s.median, s.min, s.max), (2.5, 2.5, 1.0, 4.0));
        assert!((s.variance - 5.0 / 3.0).abs() < 1e-12);
    }

    /// The strings placed by population stay with their populations when some chunks did not
    /// run (a time limit, a stop): the chunks that ran move to the front in order.
    #[test]
    fn concat_compacts_the_strings_of_the_chunks_that_ran() {
        let m = 3;
        let first = 10;
        // populations 10..20 in chunks of 4, 4, 2; the middle one did not run
        let chunk = |off: usize, len: usize| {
            let c = Chunk {
                best_value: (off..off + len).map(|p| p as u64).collect(),
                best_bits: Vec::new(),
                best_generation: vec![1; len],
                generations_run: vec![2; len],
            };
            (off, c)
        };
        let mut bits = vec![0u8; 10 * m];
        for p in 0..10 {
            if !(4..8).contains(&p) {
                bits[p * m..(p + 1) * m].fill((first + p) as u8);
            }
        }
        let parts = QigaParts::concat(vec![chunk(10, 4), chunk(18, 2)], m, first, bits.clone());
        assert_eq!(parts.population, vec![10, 11, 12, 13, 18, 19]);
        assert_eq!(parts.best_value_int, vec![10, 11, 12, 13, 18, 19]);
        let want: Vec<u8> = parts
            .population
            .iter()
            .flat_map(|&p| [p as u8; 3])
            .collect();
        assert_eq!(parts.best_bits, want);
        // every chunk ran: the strings as placed
        let mut all = vec![0u8; 10 * m];
        for p in 0..10 {
            all[p * m..(p + 1) * m].fill((first + p) as u8);
        }
        let parts = QigaParts::concat(
            vec![chunk(10, 4), chunk(14, 4), chunk(18, 2)],
            m,
            first,
            all.clone(),
        );
        assert_eq!(parts.best_bits, all);
        assert_eq!(parts.population, (10..20).collect::<Vec<u32>>());
    }
}
