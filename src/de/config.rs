//! What an island DE run is given, and its validation: the strategies (mutation, bound
//! correction, migration, F mode), the thesis's options and constructor parameters, and the
//! validated [`Config`] every engine works from. Errors name the argument and the expected shape.

use crate::error::{Error, Result};
use crate::precision::Precision;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Mutation strategies; the numbers are those of `cl/de.cl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Mutation {
    /// `DE/rand/1`: v = x_r1 + F (x_r2 - x_r3).
    Rand1 = 1,
    /// `DE/rand/2`: v = x_r1 + F (x_r2 - x_r3) + F (x_r4 - x_r5).
    Rand2 = 2,
    /// `DE/best/1`: v = x_best + F (x_r1 - x_r2).
    Best1 = 3,
    /// `DE/best/2`: v = x_best + F (x_r1 - x_r2) + F (x_r3 - x_r4).
    Best2 = 4,
    /// `DE/current-to-rand/1`: v = x_i + F (x_r1 - x_i) + F (x_r2 - x_r3).
    CurrentToRand1 = 5,
    /// `DE/current-to-best/1`: v = x_i + F (x_best - x_i) + F (x_r1 - x_r2).
    CurrentToBest1 = 6,
}

impl Mutation {
    pub const ALL: [Mutation; 6] = [
        Mutation::Rand1,
        Mutation::Rand2,
        Mutation::Best1,
        Mutation::Best2,
        Mutation::CurrentToRand1,
        Mutation::CurrentToBest1,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mutation::Rand1 => "DE/rand/1",
            Mutation::Rand2 => "DE/rand/2",
            Mutation::Best1 => "DE/best/1",
            Mutation::Best2 => "DE/best/2",
            Mutation::CurrentToRand1 => "DE/current-to-rand/1",
            Mutation::CurrentToBest1 => "DE/current-to-best/1",
        }
    }

    /// How many distinct random members besides the target the strategy draws.
    pub fn randoms(self) -> usize {
        match self {
            Mutation::Rand2 => 5,
            Mutation::Best2 => 4,
            Mutation::Rand1 | Mutation::CurrentToRand1 => 3,
            Mutation::Best1 | Mutation::CurrentToBest1 => 2,
        }
    }

    /// Whether the strategy reads the population's best member (`deb_needs_best` on the device).
    pub fn reads_best(self) -> bool {
        matches!(
            self,
            Mutation::Best1 | Mutation::Best2 | Mutation::CurrentToBest1
        )
    }

    /// The fewest members a population needs for the strategy (the target and its randoms).
    pub fn min_members(self) -> u32 {
        self.randoms() as u32 + 1
    }
}

impl FromStr for Mutation {
    type Err = Error;
    /// `DE/rand/1` style names (case-insensitive; `_` may stand for `-`).
    fn from_str(s: &str) -> Result<Self> {
        let key = s.trim().to_ascii_lowercase().replace('_', "-");
        Mutation::ALL
            .into_iter()
            .find(|m| m.name().to_ascii_lowercase() == key)
            .ok_or_else(|| {
                Error::arg(
                    "mutation",
                    format!(
                        "unknown strategy `{s}`; expected one of: {}",
                        Mutation::ALL.map(|m| m.name()).join(", ")
                    ),
                )
            })
    }
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Strategies of dealing with infeasible solutions (SDIS), per dimension; numbers as in
/// `cl/de.cl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum BoundsCorrection {
    /// `sat`: clamp to the violated bound.
    Saturation = 0,
    /// `mir`: reflect on the violated bound; clamp when farther than the width past it.
    Mirror = 1,
    /// `tor`: wrap around, a + ((v - a) mod (b - a)).
    Toroidal = 2,
    /// `HVB`: halfway from the target's component to the violated bound.
    Halfway = 3,
    /// `uni`: uniform in [a, b].
    Uniform = 4,
    /// `COTN`: complete one-sided truncated normal next to the violated bound.
    Cotn = 5,
}

impl BoundsCorrection {
    pub const ALL: [BoundsCorrection; 6] = [
        BoundsCorrection::Saturation,
        BoundsCorrection::Mirror,
        BoundsCorrection::Toroidal,
        BoundsCorrection::Halfway,
        BoundsCorrection::Uniform,
        BoundsCorrection::Cotn,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BoundsCorrection::Saturation => "sat",
            BoundsCorrection::Mirror => "mir",
            BoundsCorrection::Toroidal => "tor",
            BoundsCorrection::Halfway => "HVB",
            BoundsCorrection::Uniform => "uni",
            BoundsCorrection::Cotn => "COTN",
        }
    }

    /// One name, or a comma-separated list of names (one per dimension).
    pub fn parse_list(s: &str) -> Result<Vec<Self>> {
        s.split(',').map(str::parse).collect()
    }
}

impl FromStr for BoundsCorrection {
    type Err = Error;
    /// `sat`, `mir`, `tor`, `HVB`, `uni`, `COTN` (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        let key = s.trim();
        BoundsCorrection::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(key))
            .ok_or_else(|| {
                Error::arg(
                    "bounds",
                    format!(
                        "unknown strategy `{s}`; expected one of: sat, mir, tor, HVB, uni, COTN"
                    ),
                )
            })
    }
}

impl fmt::Display for BoundsCorrection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Migration strategies (`super::ops::plan_migration` says exactly what each does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MigrationKind {
    None,
    One2One,
    One2N,
    N2One,
    N2N,
    PermuteN,
    RandTarget,
}

impl MigrationKind {
    pub const ALL: [MigrationKind; 7] = [
        MigrationKind::None,
        MigrationKind::One2One,
        MigrationKind::One2N,
        MigrationKind::N2One,
        MigrationKind::N2N,
        MigrationKind::PermuteN,
        MigrationKind::RandTarget,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MigrationKind::None => "None",
            MigrationKind::One2One => "One2One",
            MigrationKind::One2N => "One2N",
            MigrationKind::N2One => "N2One",
            MigrationKind::N2N => "N2N",
            MigrationKind::PermuteN => "PermuteN",
            MigrationKind::RandTarget => "RandTarget",
        }
    }
}

impl FromStr for MigrationKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let key = s.trim();
        MigrationKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(key))
            .ok_or_else(|| {
                Error::arg(
                    "migration",
                    format!(
                        "unknown strategy `{s}`; expected one of: {}",
                        MigrationKind::ALL.map(|k| k.name()).join(", ")
                    ),
                )
            })
    }
}

impl fmt::Display for MigrationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A migration strategy and its period in generations (thesis `DEMigration(period, type)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Migration {
    pub kind: MigrationKind,
    pub period: u32,
}

impl Migration {
    pub const NONE: Migration = Migration {
        kind: MigrationKind::None,
        period: 1,
    };

    pub fn new(kind: MigrationKind, period: u32) -> Self {
        Migration { kind, period }
    }

    /// Whether migration happens after generation `gen` (1-based).
    pub fn is_period(&self, gen: u64) -> bool {
        self.kind != MigrationKind::None
            && self.period > 0
            && gen.is_multiple_of(self.period as u64)
    }
}

/// How the F coefficients of the populations are set (thesis `F_coefs_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FMode {
    /// F_p evenly from `f_min` to `f_max` over the populations.
    #[default]
    Linspace,
    /// `f_min` for every population.
    Const,
    /// Dithered, as scipy's `mutation=(lo, hi)`: each generation, each population draws its F
    /// uniformly in [`f_min`, `f_max`) (the classic DE only; islands that share their random
    /// numbers draw the same F).
    Dither,
}

impl FMode {
    pub fn name(self) -> &'static str {
        match self {
            FMode::Linspace => "linspace",
            FMode::Const => "const",
            FMode::Dither => "dither",
        }
    }
}

impl FromStr for FMode {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "linspace" => Ok(FMode::Linspace),
            "const" | "const_min" => Ok(FMode::Const),
            "dither" => Ok(FMode::Dither),
            _ => Err(Error::arg(
                "f_mode",
                format!("`{s}`; expected `linspace`, `const_min` (alias `const`) or `dither`"),
            )),
        }
    }
}

/// Greedy selection: when a trial replaces its target (docs/specs/DE.md, Crossover and selection).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// `f(y) <= f(x)`: a trial that ties its target replaces it, so a population can drift
    /// across a plateau (the library's default).
    #[default]
    Ties,
    /// `f(y) < f(x)`: only a strictly better trial replaces its target (the thesis's
    /// `DEMULTIPOP_FITNESS_COPY_BETTER_Y2X`, 5.2.1).
    Strict,
}

impl Selection {
    pub const ALL: [Selection; 2] = [Selection::Ties, Selection::Strict];

    pub fn name(self) -> &'static str {
        match self {
            Selection::Ties => "ties",
            Selection::Strict => "strict",
        }
    }

    /// The comparison of a trial's value with its target's: `<=` or `<`.
    pub fn operator(self) -> &'static str {
        match self {
            Selection::Ties => "<=",
            Selection::Strict => "<",
        }
    }

    /// Whether a trial of value `f` replaces a target of value `fx`.
    #[inline]
    pub fn replaces(self, f: f64, fx: f64) -> bool {
        match self {
            Selection::Ties => f <= fx,
            Selection::Strict => f < fx,
        }
    }

    /// Whether a trial `(f, v)` replaces a target `(fx, vx)` (values and constraint
    /// violations) at level `e` (`constraints.rs`; `cl/de.cl` `de_replaces`): both violations
    /// within `e`, or equal, by value as [`Selection::replaces`]; else the smaller violation.
    #[inline]
    pub fn replaces_at(self, f: f64, v: f64, fx: f64, vx: f64, e: f64) -> bool {
        if (v <= e && vx <= e) || v == vx {
            self.replaces(f, fx)
        } else {
            v < vx
        }
    }
}

impl FromStr for Selection {
    type Err = Error;
    /// `ties` (or `<=`) and `strict` (or `<`), case-insensitive.
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ties" | "<=" => Ok(Selection::Ties),
            "strict" | "<" => Ok(Selection::Strict),
            _ => Err(Error::arg(
                "selection",
                format!("`{s}`; expected `ties` (<=, the default) or `strict` (<, the thesis's)"),
            )),
        }
    }
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The DE algorithm of every island: the thesis's DE with fixed F and CR per population (the
/// default), or one of the self-adapting variants of `adapt.rs` (docs/specs/DE.md, "Adaptive
/// DE"), each with its paper's rules and defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// The thesis's DE: the mutation strategy given to `init`, F and CR fixed per population.
    #[default]
    De = 0,
    /// JADE (Zhang & Sanderson, IEEE TEVC 13(5), 2009): current-to-pbest/1 with an archive,
    /// adaptive mean F (Lehmer) and CR (arithmetic), c = 0.1, p = 0.05.
    Jade = 1,
    /// SHADE (Tanabe & Fukunaga, CEC 2013): success-history memories of H = Nm entries, weighted
    /// by the improvement, p_i uniform in [2/N, 0.2].
    Shade = 2,
    /// L-SHADE (Tanabe & Fukunaga, CEC 2014): SHADE with H = 6, a terminal CR value, the archive at
    /// 2.6 N, p = 0.11, and linear population size reduction to 4 over `lshade_budget`.
    #[serde(rename = "lshade")]
    LShade = 3,
    /// jSO (Brest, Maučec & Bošković, CEC 2017): L-SHADE with H = 5, a fixed last memory entry
    /// (0.9, 0.9), current-to-pbest-w/1, p from 0.25 to 0.125, and its F and CR schedules.
    Jso = 4,
    /// jDE100 (Brest, Maučec & Bošković, "The 100-Digit Challenge: Algorithm jDE100", CEC 2019):
    /// self-adaptive F and CR per member (tau1 = tau2 = 0.1), DE/rand/1/bin, a big and a small
    /// population in each island (`jde_small` members small, the rest big) and restarts; run on
    /// the device in the fused kernel (`cl/de_batch.cl`, `jde_fused`), on the CPU by `jde.rs`.
    Jde100 = 5,
}

impl Algorithm {
    pub const ALL: [Algorithm; 6] = [
        Algorithm::De,
        Algorithm::Jade,
        Algorithm::Shade,
        Algorithm::LShade,
        Algorithm::Jso,
        Algorithm::Jde100,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::De => "de",
            Algorithm::Jade => "jade",
            Algorithm::Shade => "shade",
            Algorithm::LShade => "lshade",
            Algorithm::Jso => "jso",
            Algorithm::Jde100 => "jde100",
        }
    }

    /// Whether F and CR adapt (every variant but the thesis's DE).
    pub fn adaptive(self) -> bool {
        self != Algorithm::De
    }

    /// Whether the host draws each generation's plan (`adapt.rs`: JADE, SHADE, L-SHADE, jSO);
    /// jDE100 adapts on the device, in the fused kernel.
    pub fn planned(self) -> bool {
        matches!(
            self,
            Algorithm::Jade | Algorithm::Shade | Algorithm::LShade | Algorithm::Jso
        )
    }

    /// Whether the population shrinks linearly over `lshade_budget` evaluations.
    pub fn reduces(self) -> bool {
        matches!(self, Algorithm::LShade | Algorithm::Jso)
    }

    /// The algorithm of an integer code (the C ABI's `MetaoptDeOptions.algorithm`): 0 de, 1 jade,
    /// 2 shade, 3 lshade, 4 jso, 5 jde100.
    pub fn from_code(code: i32, arg: &'static str) -> Result<Self> {
        Algorithm::ALL.into_iter().find(|a| *a as i32 == code).ok_or_else(|| {
            Error::arg(arg, format!("{code}; expected 0 (de), 1 (jade), 2 (shade), 3 (lshade), 4 (jso) or 5 (jde100)"))
        })
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    /// `de`, `jade`, `shade`, `lshade` (or `l-shade`), `jso`, `jde100` (or `jde-100`), case-insensitive.
    fn from_str(s: &str) -> Result<Self> {
        let key = s.trim().to_ascii_lowercase().replace(['-', '_'], "");
        Algorithm::ALL.into_iter().find(|a| a.name() == key).ok_or_else(|| {
            Error::arg("algorithm", format!("unknown algorithm `{s}`; expected one of: de, jade, shade, lshade, jso, jde100"))
        })
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The options of the thesis's `OptionsDict` (Table 3), with its defaults, plus the
/// precision and whether populations share random numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeOptions {
    /// Integer variables, as scipy's `integrality`: empty (none), one flag for every dimension,
    /// or one per dimension. An integer dimension's limits become the integers inside them,
    /// each component made (initial, trial) is rounded to the nearest integer, so the point
    /// evaluated, kept and returned is integral ([`Config::integral`]).
    pub integrality: Vec<bool>,
    pub f_mode: FMode,
    pub f_min: f64,
    pub f_max: f64,
    /// CR: one value for all populations, or one per population.
    pub cr: Vec<f64>,
    pub init_seed: u64,
    pub mutation_seed: u64,
    pub crossover_seed: u64,
    pub migration_seed: u64,
    /// Forces double precision on the device (needs `cl_khr_fp64`) whatever `precision` says
    /// (the older flag). In a solver's [`Config`], whether double is used.
    pub double: bool,
    /// The precision: `Auto` (the default) is double where the device has `cl_khr_fp64` and on
    /// the CPU backend, else single. Resolved when the solver is created
    /// ([`DeMultiPop::new`](super::DeMultiPop::new)); a [`Config`] holds the one used.
    pub precision: Precision,
    /// The precision of the fitness values Fx and Fy (the thesis's `FPf` of `DEMultiPop<FP, FPf>`;
    /// `precision` is its `FP`, the type of X and Y): `Auto` (the default) is the storage
    /// precision. The objective computes in the storage precision as it reads a trial; its value
    /// is then rounded to this precision, stored and compared in it (both backends). Fixed when
    /// the solver is created; a [`Config`] holds the one used.
    pub fitness_precision: Precision,
    /// Populations share the random numbers of mutation and crossover for equal member
    /// indices (the thesis's device compromise: coalesced reads, correlated populations).
    pub shared_random: bool,
    /// On a device, run the generations between two migrations in one launch of the fused
    /// kernel (`cl/de_batch.cl`) whenever an island fits one work-group (the default).
    /// `false` keeps the launch-per-phase path (trials, evaluation and selection, bests); both
    /// draw the same random numbers, and in double with no migration they give the same run.
    /// The CPU backend ignores it.
    pub fused: bool,
    /// On a device, the fixed DE's wide generation (`cl/de_batch.cl` `de_wide`): one launch a
    /// generation over work-groups of the members, instead of the fused kernel's one work-group
    /// per island. `None` (the default) takes it where the fused kernel would leave the device
    /// idle: an island larger than the fused kernel's group (kept in global memory), and fewer
    /// islands than compute units (e.g. one population of 1000). `Some(true)` asks for it (with
    /// `fused`), `Some(false)` never. The same random numbers, the same run. Ignored by the
    /// adaptive variants and the CPU backend.
    pub wide: Option<bool>,
    /// Greedy selection: `Ties` (`<=`, the default: a population can move across plateaus) or
    /// `Strict` (`<`, the thesis's macro `DEMULTIPOP_FITNESS_COPY_BETTER_Y2X`).
    pub selection: Selection,
    /// The DE algorithm: the thesis's fixed-parameter DE (the default) or a self-adapting variant
    /// (JADE, SHADE, L-SHADE, jSO; `adapt.rs`). The variants use current-to-pbest/1 (jSO its
    /// weighted form) whatever mutation `init` names, F and CR of their own, and their archive.
    pub algorithm: Algorithm,
    /// The evaluations per population over which L-SHADE and jSO reduce the population linearly
    /// from Nm to 4 members (their MAX_NFE; jSO's schedules of p, F and CR use it too). Needed
    /// by those two (0: none given), ignored by the others.
    pub lshade_budget: u64,
    /// jDE100: the members of each island's small population (sNP, the paper's 25); the other
    /// Nm - sNP members are the big population (bNP, the paper's 1000: Nm = 1025). Both need
    /// at least 4 members. Ignored by the other algorithms.
    pub jde_small: u32,
    /// jDE100: a population restarts when more than 25 % (and more than 2) of its members are
    /// within this absolute difference of the best value (the paper's 1e-16).
    pub jde_eps: f64,
    /// jDE100: the big population also restarts when its evaluations since the island's best
    /// last improved exceed this (0, the default: no age limit).
    pub jde_age: u64,
}

impl Default for DeOptions {
    fn default() -> Self {
        DeOptions {
            integrality: Vec::new(),
            f_mode: FMode::Linspace,
            f_min: 0.1,
            f_max: 1.5,
            cr: vec![0.5],
            init_seed: 123,
            mutation_seed: 345,
            crossover_seed: 457,
            migration_seed: 581,
            double: false,
            precision: Precision::Auto,
            fitness_precision: Precision::Auto,
            shared_random: false,
            fused: true,
            wide: None,
            selection: Selection::Ties,
            algorithm: Algorithm::De,
            lshade_budget: 0,
            jde_small: 25,
            jde_eps: 1e-16,
            jde_age: 0,
        }
    }
}

/// The shape of the problem: what the thesis's constructor takes.
#[derive(Clone, Debug, PartialEq)]
pub struct DeParams {
    pub islands: u32,
    pub members: u32,
    pub dims: u32,
    /// [a, b] of each dimension: one interval for all, or one per dimension (finite, a < b).
    pub limits: Vec<(f64, f64)>,
    /// Bound correction of each dimension: one for all, or one per dimension.
    pub bounds: Vec<BoundsCorrection>,
    pub options: DeOptions,
}

impl DeParams {
    /// One interval and one bound correction for every dimension, default options.
    pub fn new(
        islands: u32,
        members: u32,
        dims: u32,
        a: f64,
        b: f64,
        bounds: BoundsCorrection,
    ) -> Self {
        DeParams {
            islands,
            members,
            dims,
            limits: vec![(a, b)],
            bounds: vec![bounds],
            options: DeOptions::default(),
        }
    }
}

/// The validated configuration every engine works from.
#[derive(Clone, Debug)]
pub struct Config {
    pub np: u32,
    pub nm: u32,
    pub nn: u32,
    pub lo: Vec<f64>,
    pub hi: Vec<f64>,
    pub kinds: Vec<BoundsCorrection>,
    /// F and CR of each population.
    pub f: Vec<f64>,
    pub cr: Vec<f64>,
    /// Whether each dimension is an integer (`DeOptions::integrality`): its limits here are
    /// those of [`integer_limits`], and its components are rounded where they are made.
    pub integral: Vec<bool>,
    /// Each population's dither width: its F of generation g is `f + fd u` with u uniform in
    /// [0, 1) ([`super::ops::dithered_f`]); 0 without dithering.
    pub fd: Vec<f64>,
    pub options: DeOptions,
}

/// The limits of the integer dimensions as scipy widens them: from just above ceil(a) - 0.5 to
/// just below floor(b) + 0.5, so that a uniform draw rounds to each integer of [a, b] alike and
/// every corrected component rounds into [ceil(a), floor(b)]. Other dimensions keep theirs.
pub fn integer_limits(limits: &[(f64, f64)], integral: &[bool]) -> Result<Vec<(f64, f64)>> {
    limits
        .iter()
        .zip(integral)
        .enumerate()
        .map(|(n, (&(a, b), &int))| {
            if !int {
                return Ok((a, b));
            }
            let (lo, hi) = (a.ceil(), b.floor());
            if lo > hi {
                return Err(Error::arg(
                    "integrality",
                    format!("dimension {n} is an integer but its limits [{a}, {b}] hold none"),
                ));
            }
            Ok(((lo - 0.5).next_up(), (hi + 0.5).next_down()))
        })
        .collect()
}

/// `x` rounded to the nearest integer (halfway cases away from zero, as the kernels' `round`)
/// where `integral`, else `x`.
pub fn rounded(x: f64, integral: bool) -> f64 {
    if integral {
        x.round()
    } else {
        x
    }
}

fn per_dim<T: Copy>(v: &[T], n: usize, arg: &'static str) -> Result<Vec<T>> {
    match v.len() {
        1 => crate::error::try_filled(n, v[0], arg),
        l if l == n => crate::error::try_expand(v, n, arg),
        l => Err(Error::arg(
            arg,
            format!("{l} values; expected 1 or one per dimension ({n})"),
        )),
    }
}

impl Config {
    /// The configuration of `p` with its precision resolved for devices that do (`fp64`) or do
    /// not have double precision.
    pub(crate) fn resolved(p: &DeParams, fp64: bool) -> Result<Self> {
        let mut p = p.clone();
        p.options.precision = p.options.precision.resolve(p.options.double, fp64);
        Config::new(&p)
    }

    pub fn new(p: &DeParams) -> Result<Self> {
        if p.islands == 0 {
            return Err(Error::arg("islands", "0; expected at least 1 population"));
        }
        if p.members < 3 {
            return Err(Error::arg(
                "members",
                format!("{}; every strategy needs at least 3 members", p.members),
            ));
        }
        if p.dims == 0 {
            return Err(Error::arg("dims", "0; expected at least 1"));
        }
        // checked: the product of three u32 sizes overflows u64 (65536 x 16777216 x 16777216)
        let slots = u64::from(p.members) + 1;
        let total = u64::from(p.islands)
            .checked_mul(slots)
            .and_then(|t| t.checked_mul(u64::from(p.dims)));
        if total.is_none_or(|t| t > (1 << 31)) {
            return Err(Error::arg(
                "islands",
                format!(
                    "{} x {} x {} values; at most 2^31",
                    p.islands, slots, p.dims
                ),
            ));
        }
        let nn = p.dims as usize;
        let limits = per_dim(&p.limits, nn, "limits")?;
        // without a device to ask (DeMultiPop::new resolves Auto first), Auto is single
        let mut options = p.options.clone();
        options.precision = options.precision.resolve(options.double, false);
        options.double = options.precision.is_double();
        if options.fitness_precision == Precision::Auto {
            options.fitness_precision = options.precision;
        }
        crate::objective::check_intervals("limits", &limits, options.double)?;
        let integral = match options.integrality.len() {
            0 => vec![false; nn],
            _ => per_dim(&options.integrality, nn, "integrality")?,
        };
        let limits = integer_limits(&limits, &integral)?;
        let kinds = per_dim(&p.bounds, nn, "bounds")?;
        let o = &p.options;
        for (name, v) in [("f_min", o.f_min), ("f_max", o.f_max)] {
            if !v.is_finite() || v < 0.0 {
                return Err(Error::arg(name, format!("{v}; expected a finite F >= 0")));
            }
        }
        let np = p.islands as usize;
        if o.f_mode == FMode::Dither {
            if o.algorithm.adaptive() {
                return Err(Error::arg(
                    "f_mode",
                    format!(
                        "dither is for the classic DE; {} adapts its own F",
                        o.algorithm
                    ),
                ));
            }
            if o.f_max < o.f_min {
                return Err(Error::arg(
                    "f_max",
                    format!(
                        "{} below f_min {}; dither draws F in [f_min, f_max)",
                        o.f_max, o.f_min
                    ),
                ));
            }
        }
        let fd = match o.f_mode {
            FMode::Dither => vec![o.f_max - o.f_min; np],
            _ => vec![0.0; np],
        };
        let f = match o.f_mode {
            FMode::Const | FMode::Dither => vec![o.f_min; np],
            FMode::Linspace if np == 1 => vec![o.f_min],
            FMode::Linspace => (0..np)
                .map(|i| o.f_min + i as f64 * (o.f_max - o.f_min) / (np - 1) as f64)
                .collect(),
        };
        let cr = match o.cr.len() {
            1 => vec![o.cr[0]; np],
            l if l == np => o.cr.clone(),
            l => {
                return Err(Error::arg(
                    "cr",
                    format!("{l} values; expected 1 or one per population ({np})"),
                ))
            }
        };
        if let Some(c) = cr.iter().find(|c| !(0.0..=1.0).contains(*c)) {
            return Err(Error::arg("cr", format!("{c}; expected CR in [0, 1]")));
        }
        if o.algorithm.adaptive() && p.members < 4 {
            return Err(Error::arg(
                "members",
                format!(
                    "{}; {} needs at least 4 members per population",
                    p.members, o.algorithm
                ),
            ));
        }
        if o.algorithm == Algorithm::Jde100 {
            if o.jde_small < 4 || p.members.saturating_sub(o.jde_small) < 4 {
                return Err(Error::arg(
                    "jde_small",
                    format!(
                        "{} of {} members; jde100 needs a small population of at least 4 members and a big one (the rest) of at least 4",
                        o.jde_small, p.members
                    ),
                ));
            }
            if !o.jde_eps.is_finite() || o.jde_eps < 0.0 {
                return Err(Error::arg(
                    "jde_eps",
                    format!("{}; expected a finite value >= 0", o.jde_eps),
                ));
            }
        }
        if o.algorithm.reduces() && o.lshade_budget == 0 {
            return Err(Error::arg(
                "lshade_budget",
                format!("0; {} reduces its population over a budget of evaluations per population: give one (> 0)", o.algorithm),
            ));
        }
        Ok(Config {
            np: p.islands,
            nm: p.members,
            nn: p.dims,
            lo: limits.iter().map(|l| l.0).collect(),
            hi: limits.iter().map(|l| l.1).collect(),
            kinds,
            f,
            cr,
            fd,
            integral,
            options,
        })
    }

    /// The kernels' F buffer: each population's F, then each one's dither width.
    pub fn f_and_dither(&self) -> Vec<f64> {
        self.f.iter().chain(&self.fd).copied().collect()
    }

    /// This configuration with other options (the thesis's `optionsUpdate` of `init`): F, CR
    /// and the seeds may change; the precision is fixed when the solver is created.
    pub fn with_options(&self, options: &DeOptions) -> Result<Config> {
        // Auto (with `double` unset) keeps the solver's precision; anything else must name it
        let asked = if options.double {
            Precision::Double
        } else {
            options.precision
        };
        if asked != Precision::Auto && asked != self.options.precision {
            return Err(Error::arg(
                "double",
                format!(
                    "{}; the precision is fixed when the solver is created ({}); create a new solver",
                    asked.name(),
                    self.options.precision.name()
                ),
            ));
        }
        let fitness = options.fitness_precision;
        if fitness != Precision::Auto && fitness != self.options.fitness_precision {
            return Err(Error::arg(
                "fitness_precision",
                format!(
                    "{}; the fitness precision is fixed when the solver is created ({}); create a new solver",
                    fitness.name(),
                    self.options.fitness_precision.name()
                ),
            ));
        }
        let mut options = options.clone();
        // the integer dimensions are fixed when the solver is created, as the precision
        options.integrality = self.integral.clone();
        options.double = self.options.double;
        options.precision = self.options.precision;
        options.fitness_precision = self.options.fitness_precision;
        Config::new(&DeParams {
            islands: self.np,
            members: self.nm,
            dims: self.nn,
            limits: self
                .lo
                .iter()
                .copied()
                .zip(self.hi.iter().copied())
                .collect(),
            bounds: self.kinds.clone(),
            options,
        })
    }

    /// Whether the fitness values are doubles (the resolved `fitness_precision`).
    pub fn fitness_double(&self) -> bool {
        self.options.fitness_precision.is_double()
    }

    /// A fitness value as the fitness precision stores it: rounded to the nearest `f32` in
    /// single (as the device's conversion does), unchanged in double.
    pub fn fitness_value(&self, v: f64) -> f64 {
        if self.fitness_double() {
            v
        } else {
            v as f32 as f64
        }
    }

    /// Number of values in X and Fx (with the best rows).
    pub fn fx_len(&self) -> usize {
        self.np as usize * (self.nm as usize + 1)
    }
}
