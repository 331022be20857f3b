//! Boolean satisfiability: DIMACS CNF formulas, bit-packed assignments and the host references
//! that the device kernels (`cl/sat.cl`, `crate::sat::eval`) and the CPU evaluator
//! (`crate::sat::cpu`) are tested against (docs/specs/SAT.md).
//!
//! # Conventions
//!
//! - Variables are 1-based as in DIMACS; a literal is a non-zero `i32`, `-v` the negation of `v`.
//! - Clauses are stored flat (CSR): clause `i` is `literals[offsets[i]..offsets[i + 1]]`.
//! - An [`Assignment`] is bit-packed into 32-bit words: variable `v` is bit `(v - 1) % 32` of word
//!   `(v - 1) / 32`; the bits past the last variable are always 0.
//! - The *true-literal count* of a clause counts its true literal occurrences (a literal written
//!   twice counts twice). A clause is satisfied when its count is positive, so a clause holding a
//!   literal and its negation is always satisfied (its count is at least 1), as docs/specs/SAT.md says.
//!
//! # Parsing
//!
//! [`Cnf::from_file`] reads the SATLIB dialect of DIMACS: comment lines starting with `c` anywhere,
//! one `p cnf <variables> <clauses>` header before the first clause, clauses of literals ended by
//! `0` in any line layout (one clause over several lines, several clauses on one line), a final
//! clause without its `0` at the end of the data, and SATLIB's `%` end marker, after which nothing
//! is read (SATLIB files put a lone `0` there). Every malformed input is an [`Error::Parse`] naming
//! the file and the 1-based line: a missing, malformed or repeated header, clause data before the
//! header, a token that is not an integer, a literal outside `±variables`, `-0`, an empty clause (a
//! `0` with no literal before it: a stray `0` far more often than an intended empty clause), and a
//! clause count other than the header's.

use std::fmt;
use std::path::Path;

use crate::error::{Error, Result};
use crate::rng::Philox;

/// Largest variable count accepted, 2^27 (134 million, beyond the largest SAT competition
/// formulas): a solver keeps per literal an occurrence offset, so 2^28 offsets take 1 GiB, and a
/// header of an absurd count must be an error, not an allocation failure.
pub const MAX_VARS: usize = 1 << 27;

/// A CNF formula with its clauses stored flat.
///
/// Build it with [`Cnf::from_file`], [`Cnf::parse`] or [`Cnf::from_clauses`], which guarantee:
/// `offsets` starts at 0, is non-decreasing with `num_clauses() + 1` entries and ends at
/// `literals.len()`; every clause is non-empty; every literal is non-zero with `|lit| <= num_vars`.
/// The fields are public for cheap read access; the methods assume that invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cnf {
    /// Formula name (the file stem for formulas read from a file).
    pub name: String,
    pub num_vars: usize,
    /// `num_clauses() + 1` offsets into `literals`.
    pub offsets: Vec<u32>,
    pub literals: Vec<i32>,
}

/// The element type of the device copy of the literals: the smallest signed type holding `±vars`
/// (the `SAT_LIT` build macro of `cl/sat.cl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LitType {
    I8,
    I16,
    I32,
}

impl LitType {
    /// The smallest type for `num_vars` variables.
    pub fn for_vars(num_vars: usize) -> Self {
        if num_vars <= i8::MAX as usize {
            LitType::I8
        } else if num_vars <= i16::MAX as usize {
            LitType::I16
        } else {
            LitType::I32
        }
    }

    /// The OpenCL C type name (`char`, `short`, `int`).
    pub fn cl_type(self) -> &'static str {
        match self {
            LitType::I8 => "char",
            LitType::I16 => "short",
            LitType::I32 => "int",
        }
    }

    /// Bytes per literal.
    pub fn bytes(self) -> usize {
        match self {
            LitType::I8 => 1,
            LitType::I16 => 2,
            LitType::I32 => 4,
        }
    }

    /// The Rust type name (`i8`, `i16`, `i32`), for reports.
    pub fn as_str(self) -> &'static str {
        match self {
            LitType::I8 => "i8",
            LitType::I16 => "i16",
            LitType::I32 => "i32",
        }
    }
}

impl Cnf {
    /// A formula from clauses given as literal lists, after checking them (errors name `clauses`
    /// with the clause's 0-based index).
    pub fn from_clauses<C: AsRef<[i32]>>(
        name: impl Into<String>,
        num_vars: usize,
        clauses: impl IntoIterator<Item = C>,
    ) -> Result<Self> {
        if num_vars > MAX_VARS {
            return Err(Error::arg(
                "num_vars",
                format!("{num_vars} exceeds the maximum {MAX_VARS}"),
            ));
        }
        let mut offsets = vec![0u32];
        let mut literals = Vec::new();
        for (i, c) in clauses.into_iter().enumerate() {
            let c = c.as_ref();
            if c.is_empty() {
                return Err(Error::arg("clauses", format!("clause {i} is empty")));
            }
            for &l in c {
                if l == 0 || l.unsigned_abs() as usize > num_vars {
                    return Err(Error::arg(
                        "clauses",
                        format!("clause {i} holds literal {l}; expected ±1..±{num_vars}"),
                    ));
                }
            }
            literals.extend_from_slice(c);
            offsets.push(to_offset(literals.len()).map_err(|m| Error::arg("clauses", m))?);
        }
        Ok(Cnf {
            name: name.into(),
            num_vars,
            offsets,
            literals,
        })
    }

    /// Reads a DIMACS CNF file; the formula is named after the file stem.
    pub fn from_file(path: &Path) -> Result<Self> {
        Self::parse(&super::read_text(path)?, path)
    }

    /// Parses DIMACS CNF text (see the module documentation for the accepted dialect). `path` only
    /// labels errors and gives the name.
    pub fn parse(text: &str, path: &Path) -> Result<Self> {
        let err = |line: usize, msg: String| Error::parse(path, line, msg);
        // (variables, clauses, line of the header)
        let mut header: Option<(usize, usize, usize)> = None;
        let mut offsets = vec![0u32];
        let mut literals: Vec<i32> = Vec::new();
        let mut open = false; // literals read since the last 0
        let mut last_line = 1;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            last_line = line;
            let t = raw.trim();
            if t.is_empty() || t.starts_with('c') {
                continue;
            }
            if t.starts_with('%') {
                break;
            }
            if t.starts_with('p') {
                if let Some((_, _, at)) = header {
                    return Err(err(
                        line,
                        format!("a second `p` header (the first is on line {at})"),
                    ));
                }
                let toks: Vec<&str> = t.split_whitespace().collect();
                let num = |s: &str| s.parse::<usize>().ok();
                match toks.as_slice() {
                    ["p", "cnf", v, c] => match (num(v), num(c)) {
                        (Some(v), Some(c)) if v <= MAX_VARS && c <= u32::MAX as usize => {
                            header = Some((v, c, line));
                            offsets.reserve(c.min(1 << 22));
                        }
                        _ => {
                            return Err(err(
                                line,
                                format!("bad header `{t}`: the counts must be integers, variables at most {MAX_VARS}"),
                            ))
                        }
                    },
                    _ => return Err(err(line, format!("bad header `{t}`: expected `p cnf <variables> <clauses>`"))),
                }
                continue;
            }
            let Some((vars, clauses, _)) = header else {
                return Err(err(
                    line,
                    "clause data before the `p cnf <variables> <clauses>` header".into(),
                ));
            };
            for tok in t.split_whitespace() {
                let lit: i64 = match tok.parse() {
                    Ok(l) => l,
                    Err(_) if tok.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) && tok.len() > 1 => {
                        return Err(err(line, format!("literal {tok} is out of range: the header declares {vars} variables")))
                    }
                    Err(_) => return Err(err(line, format!("`{tok}` is not an integer literal"))),
                };
                if lit == 0 {
                    if tok != "0" {
                        return Err(err(
                            line,
                            format!("`{tok}` is not a literal (0 ends a clause and has no sign)"),
                        ));
                    }
                    if !open {
                        return Err(err(
                            line,
                            "empty clause: a 0 with no literal before it".into(),
                        ));
                    }
                    offsets.push(to_offset(literals.len()).map_err(|m| err(line, m))?);
                    open = false;
                    continue;
                }
                if lit.unsigned_abs() > vars as u64 {
                    return Err(err(
                        line,
                        format!(
                            "literal {lit} is out of range: the header declares {vars} variables"
                        ),
                    ));
                }
                if !open {
                    if offsets.len() - 1 == clauses {
                        return Err(err(
                            line,
                            format!("more clauses than the {clauses} the header declares"),
                        ));
                    }
                    open = true;
                }
                literals.push(lit as i32);
            }
        }
        let Some((num_vars, clauses, at)) = header else {
            return Err(err(
                last_line,
                "no `p cnf <variables> <clauses>` header".into(),
            ));
        };
        if open {
            // the last clause may lack its 0 at the end of the data
            offsets.push(to_offset(literals.len()).map_err(|m| err(last_line, m))?);
        }
        let found = offsets.len() - 1;
        if found != clauses {
            return Err(err(
                last_line,
                format!(
                    "the header (line {at}) declares {clauses} clauses but the file holds {found}"
                ),
            ));
        }
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Cnf {
            name,
            num_vars,
            offsets,
            literals,
        })
    }

    /// The formula in DIMACS CNF (`c <name>` when it has one, the `p cnf` header, one clause a
    /// line ended by 0): what `Cnf::parse` reads back to the same clauses.
    pub fn to_dimacs(&self) -> String {
        use std::fmt::Write;
        let mut s = String::with_capacity(16 * self.num_clauses() + 64);
        if !self.name.is_empty() {
            let _ = writeln!(s, "c {}", self.name);
        }
        let _ = writeln!(s, "p cnf {} {}", self.num_vars, self.num_clauses());
        for c in self.clauses() {
            for l in c {
                let _ = write!(s, "{l} ");
            }
            s.push_str("0\n");
        }
        s
    }

    /// A uniform random k-SAT formula: `round(ratio * num_vars)` clauses of `k` distinct
    /// variables each, every sign a fair coin, drawn from `Philox(seed, 0)` (named
    /// `rand-<k>sat-<n>-<clauses>-<seed>`). Errors name `num_vars`, `k` or `ratio`.
    pub fn random_ksat(num_vars: usize, ratio: f64, k: usize, seed: u64) -> Result<Self> {
        if num_vars == 0 || num_vars > MAX_VARS {
            return Err(Error::arg(
                "num_vars",
                format!("{num_vars}; expected 1..={MAX_VARS}"),
            ));
        }
        if k == 0 || k > num_vars {
            return Err(Error::arg(
                "k",
                format!("{k}; expected 1..={num_vars} distinct variables per clause"),
            ));
        }
        if !(ratio.is_finite() && ratio > 0.0)
            || ratio * num_vars as f64 * k as f64 > u32::MAX as f64
        {
            return Err(Error::arg(
                "ratio",
                format!("{ratio}; expected a positive clause ratio whose literals fit 32 bits"),
            ));
        }
        let m = ((ratio * num_vars as f64).round() as usize).max(1);
        let mut rng = Philox::new(seed, 0);
        let mut clauses = Vec::with_capacity(m);
        let mut clause: Vec<i32> = Vec::with_capacity(k);
        for _ in 0..m {
            clause.clear();
            while clause.len() < k {
                let v = rng.below(num_vars as u32) as i32 + 1;
                if clause.iter().all(|&l| l.abs() != v) {
                    clause.push(if rng.next_u32() & 1 == 1 { -v } else { v });
                }
            }
            clauses.push(clause.clone());
        }
        Cnf::from_clauses(
            format!("rand-{k}sat-{num_vars}-{m}-{seed}"),
            num_vars,
            &clauses,
        )
    }

    pub fn num_clauses(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The literals of clause `i` (0-based).
    pub fn clause(&self, i: usize) -> &[i32] {
        &self.literals[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> + '_ {
        (0..self.num_clauses()).map(|i| self.clause(i))
    }

    /// Words of a packed assignment of this formula.
    pub fn words(&self) -> usize {
        Assignment::words_for(self.num_vars)
    }

    /// The literal type of the device copy.
    pub fn lit_type(&self) -> LitType {
        LitType::for_vars(self.num_vars)
    }

    /// The literals as the device stores them: [`Cnf::lit_type`] elements, native byte order.
    pub fn packed_literals(&self) -> Vec<u8> {
        match self.lit_type() {
            LitType::I8 => self.literals.iter().map(|&l| l as i8 as u8).collect(),
            LitType::I16 => self
                .literals
                .iter()
                .flat_map(|&l| (l as i16).to_ne_bytes())
                .collect(),
            LitType::I32 => self
                .literals
                .iter()
                .flat_map(|&l| l.to_ne_bytes())
                .collect(),
        }
    }

    /// The clauses of every literal (see [`Occurrences`]).
    pub fn occurrences(&self) -> Occurrences {
        Occurrences::new(self)
    }

    /// True literals of clause `i` under `a`.
    pub fn clause_true_count(&self, i: usize, a: &Assignment) -> u32 {
        self.clause(i)
            .iter()
            .map(|&l| a.lit_is_true(l) as u32)
            .sum()
    }

    /// True-literal count of every clause (the host reference of the kernels' phase 1).
    pub fn true_counts(&self, a: &Assignment) -> Vec<u32> {
        self.check_assignment(a);
        (0..self.num_clauses())
            .map(|i| self.clause_true_count(i, a))
            .collect()
    }

    /// Number of satisfied clauses.
    pub fn satisfied_count(&self, a: &Assignment) -> u32 {
        self.check_assignment(a);
        (0..self.num_clauses())
            .filter(|&i| self.clause(i).iter().any(|&l| a.lit_is_true(l)))
            .count() as u32
    }

    /// Number of unsatisfied clauses (the objective of the local search; 0 = a model).
    pub fn unsatisfied_count(&self, a: &Assignment) -> u32 {
        self.num_clauses() as u32 - self.satisfied_count(a)
    }

    /// Whether `a` satisfies every clause.
    pub fn is_satisfied_by(&self, a: &Assignment) -> bool {
        self.first_unsatisfied(a).is_none()
    }

    /// The first clause (0-based) that `a` leaves unsatisfied.
    pub fn first_unsatisfied(&self, a: &Assignment) -> Option<usize> {
        self.check_assignment(a);
        (0..self.num_clauses()).find(|&i| !self.clause(i).iter().any(|&l| a.lit_is_true(l)))
    }

    fn check_assignment(&self, a: &Assignment) {
        assert_eq!(
            a.num_vars(),
            self.num_vars,
            "assignment of {} variables for a formula of {}",
            a.num_vars(),
            self.num_vars
        );
    }
}

fn to_offset(n: usize) -> std::result::Result<u32, String> {
    u32::try_from(n).map_err(|_| format!("more than {} literals in all", u32::MAX))
}

/// Which clauses hold each literal (CSR over literal indices, occurrences with multiplicity).
///
/// Literal index `2 (v - 1)` is `v`, `2 (v - 1) + 1` is `-v`, so the clauses of `v` then those of
/// `-v` are contiguous: [`Occurrences::of_var`] is one slice of both. A literal written twice in a
/// clause lists that clause twice, so that adding ±1 per listed clause on a flip keeps the
/// true-literal counts exact (a tautological clause is in both lists and its count never changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrences {
    /// `2 * num_vars + 1` offsets into `clauses`.
    pub offsets: Vec<u32>,
    /// Clause indices, ascending within each literal.
    pub clauses: Vec<u32>,
}

impl Occurrences {
    pub fn new(cnf: &Cnf) -> Self {
        Self::new_unless(cnf, &|| false).expect("never cut")
    }

    /// [`Occurrences::new`], asking `due` every 2^20 literals and clauses (a formula
    /// of 2^27 variables takes seconds here); `None` when it said stop.
    pub fn new_unless(cnf: &Cnf, due: &dyn Fn() -> bool) -> Option<Self> {
        const EVERY: usize = 1 << 20;
        let n = 2 * cnf.num_vars;
        let mut offsets = vec![0u32; n + 1];
        for (i, &l) in cnf.literals.iter().enumerate() {
            if i % EVERY == EVERY - 1 && due() {
                return None;
            }
            offsets[Self::lit_index(l) + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut clauses = vec![0u32; cnf.literals.len()];
        for c in 0..cnf.num_clauses() {
            if c % EVERY == EVERY - 1 && due() {
                return None;
            }
            for &l in cnf.clause(c) {
                let k = Self::lit_index(l);
                clauses[fill[k] as usize] = c as u32;
                fill[k] += 1;
            }
        }
        Some(Occurrences { offsets, clauses })
    }

    /// `2 (|lit| - 1) + (lit < 0)`.
    pub fn lit_index(lit: i32) -> usize {
        2 * (lit.unsigned_abs() as usize - 1) + (lit < 0) as usize
    }

    /// The clauses holding `lit`.
    pub fn of_literal(&self, lit: i32) -> &[u32] {
        let k = Self::lit_index(lit);
        &self.clauses[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }

    /// The clauses holding `v` or `-v` (those of `v` first).
    pub fn of_var(&self, v: usize) -> &[u32] {
        &self.clauses[self.offsets[2 * (v - 1)] as usize..self.offsets[2 * v] as usize]
    }
}

/// A truth assignment, bit-packed (variable `v` is bit `(v - 1) % 32` of word `(v - 1) / 32`; the
/// bits past `num_vars` are 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Assignment {
    num_vars: usize,
    words: Vec<u32>,
}

impl Assignment {
    pub fn words_for(num_vars: usize) -> usize {
        num_vars.div_ceil(32)
    }

    /// Every variable false.
    pub fn all_false(num_vars: usize) -> Self {
        Assignment {
            num_vars,
            words: vec![0; Self::words_for(num_vars)],
        }
    }

    /// Every variable true.
    pub fn all_true(num_vars: usize) -> Self {
        let mut a = Assignment {
            num_vars,
            words: vec![u32::MAX; Self::words_for(num_vars)],
        };
        a.clear_padding();
        a
    }

    /// From one bool per variable (`values[v - 1]` is variable `v`).
    pub fn from_bools(values: &[bool]) -> Self {
        let mut a = Self::all_false(values.len());
        for (i, &b) in values.iter().enumerate() {
            if b {
                a.words[i / 32] |= 1 << (i % 32);
            }
        }
        a
    }

    /// From packed words; bits past `num_vars` are cleared. Errors unless there are exactly
    /// `words_for(num_vars)` words.
    pub fn from_words(num_vars: usize, words: Vec<u32>) -> Result<Self> {
        if words.len() != Self::words_for(num_vars) {
            return Err(Error::arg(
                "words",
                format!(
                    "{} words for {num_vars} variables; expected {}",
                    words.len(),
                    Self::words_for(num_vars)
                ),
            ));
        }
        let mut a = Assignment { num_vars, words };
        a.clear_padding();
        Ok(a)
    }

    /// Uniformly random values from `rng` (one word per 32 variables, in order).
    pub fn random(num_vars: usize, rng: &mut Philox) -> Self {
        let mut a = Assignment {
            num_vars,
            words: (0..Self::words_for(num_vars))
                .map(|_| rng.next_u32())
                .collect(),
        };
        a.clear_padding();
        a
    }

    fn clear_padding(&mut self) {
        let r = self.num_vars % 32;
        if r != 0 {
            if let Some(w) = self.words.last_mut() {
                *w &= (1u32 << r) - 1;
            }
        }
    }

    pub fn num_vars(&self) -> usize {
        self.num_vars
    }

    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// The value of variable `v` (1-based).
    pub fn get(&self, v: usize) -> bool {
        assert!(
            v >= 1 && v <= self.num_vars,
            "variable {v} of 1..{}",
            self.num_vars
        );
        (self.words[(v - 1) / 32] >> ((v - 1) % 32)) & 1 == 1
    }

    pub fn set(&mut self, v: usize, value: bool) {
        assert!(
            v >= 1 && v <= self.num_vars,
            "variable {v} of 1..{}",
            self.num_vars
        );
        let m = 1u32 << ((v - 1) % 32);
        if value {
            self.words[(v - 1) / 32] |= m;
        } else {
            self.words[(v - 1) / 32] &= !m;
        }
    }

    pub fn flip(&mut self, v: usize) {
        assert!(
            v >= 1 && v <= self.num_vars,
            "variable {v} of 1..{}",
            self.num_vars
        );
        self.words[(v - 1) / 32] ^= 1u32 << ((v - 1) % 32);
    }

    /// Whether literal `lit` is true.
    #[inline]
    pub fn lit_is_true(&self, lit: i32) -> bool {
        let v = lit.unsigned_abs() as usize - 1;
        (((self.words[v / 32] >> (v % 32)) & 1) == 1) != (lit < 0)
    }

    pub fn to_bools(&self) -> Vec<bool> {
        (1..=self.num_vars).map(|v| self.get(v)).collect()
    }
}

/// True-literal counts of one assignment kept up to date under flips: the host reference of an
/// incremental local search (only the clauses of the flipped variable change).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClauseCounts {
    pub assignment: Assignment,
    /// True literals per clause.
    pub counts: Vec<u32>,
    /// Clauses whose count is 0.
    pub unsatisfied: u32,
}

impl ClauseCounts {
    pub fn new(cnf: &Cnf, assignment: Assignment) -> Self {
        let counts = cnf.true_counts(&assignment);
        let unsatisfied = counts.iter().filter(|&&c| c == 0).count() as u32;
        ClauseCounts {
            assignment,
            counts,
            unsatisfied,
        }
    }

    /// Clauses that would become unsatisfied if `v` were flipped (GSAT/WalkSAT "break").
    pub fn break_count(&self, occ: &Occurrences, v: usize) -> u32 {
        let t = if self.assignment.get(v) {
            v as i32
        } else {
            -(v as i32)
        };
        // a clause listing the true literal k times breaks when its count is exactly k; count
        // clauses per run of equal indices so that repeated literals are handled
        let list = occ.of_literal(t);
        let mut n = 0;
        let mut i = 0;
        while i < list.len() {
            let mut j = i + 1;
            while j < list.len() && list[j] == list[i] {
                j += 1;
            }
            let other = occ.of_literal(-t).iter().filter(|&&c| c == list[i]).count();
            if other == 0 && self.counts[list[i] as usize] as usize == j - i {
                n += 1;
            }
            i = j;
        }
        n
    }

    /// Clauses that would become satisfied if `v` were flipped ("make").
    pub fn make_count(&self, occ: &Occurrences, v: usize) -> u32 {
        let f = if self.assignment.get(v) {
            -(v as i32)
        } else {
            v as i32
        };
        let list = occ.of_literal(f);
        let mut n = 0;
        for (k, &c) in list.iter().enumerate() {
            if (k == 0 || list[k - 1] != c) && self.counts[c as usize] == 0 {
                n += 1;
            }
        }
        n
    }

    /// Flips `v` and updates the counts of its clauses only.
    pub fn flip(&mut self, occ: &Occurrences, v: usize) {
        let (now_true, now_false) = if self.assignment.get(v) {
            (-(v as i32), v as i32)
        } else {
            (v as i32, -(v as i32))
        };
        for &c in occ.of_literal(now_false) {
            let n = &mut self.counts[c as usize];
            *n -= 1;
            if *n == 0 {
                self.unsatisfied += 1;
            }
        }
        for &c in occ.of_literal(now_true) {
            let n = &mut self.counts[c as usize];
            if *n == 0 {
                self.unsatisfied -= 1;
            }
            *n += 1;
        }
        self.assignment.flip(v);
    }
}

/// Checks `a` against every clause of `cnf`; the error names the first unsatisfied clause.
pub fn verify(cnf: &Cnf, a: &Assignment) -> Result<()> {
    if a.num_vars() != cnf.num_vars {
        return Err(Error::arg(
            "assignment",
            format!(
                "{} variables for a formula of {}",
                a.num_vars(),
                cnf.num_vars
            ),
        ));
    }
    match cnf.first_unsatisfied(a) {
        None => Ok(()),
        Some(i) => {
            let lits: Vec<String> = cnf.clause(i).iter().map(i32::to_string).collect();
            Err(Error::arg(
                "assignment",
                format!(
                    "clause {} of {} (1-based, in file order) is not satisfied: {} 0",
                    i + 1,
                    cnf.num_clauses(),
                    lits.join(" ")
                ),
            ))
        }
    }
}

/// An assignment verified against the original clauses: the only way to make one is
/// [`Model::verified`], so a reported `Model` is always a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model(Assignment);

impl Model {
    pub fn verified(cnf: &Cnf, a: Assignment) -> Result<Self> {
        verify(cnf, &a)?;
        Ok(Model(a))
    }

    pub fn assignment(&self) -> &Assignment {
        &self.0
    }

    /// The SAT competition's `v` lines (see [`v_lines`]).
    pub fn v_lines(&self) -> String {
        v_lines(&self.0)
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.v_lines())
    }
}

/// Width limit of `v` lines (the competition format allows any; short lines keep logs readable).
pub const V_LINE_WIDTH: usize = 78;

/// `a` in the SAT competition format: `v 1 -2 3 ... 0`, every variable in order with its sign,
/// wrapped into lines of at most [`V_LINE_WIDTH`] characters, each starting with `v`, the final
/// `0` last; every line ends with a newline.
pub fn v_lines(a: &Assignment) -> String {
    let mut out = String::new();
    let mut line = String::from("v");
    let toks = (1..=a.num_vars())
        .map(|v| {
            if a.get(v) {
                v.to_string()
            } else {
                format!("-{v}")
            }
        })
        .chain(std::iter::once("0".to_string()));
    for t in toks {
        if line.len() + 1 + t.len() > V_LINE_WIDTH && line.len() > 1 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("v");
        }
        line.push(' ');
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Reads assignments of a formula of `num_vars` variables from `text` (`path` names the source
/// in errors, which carry the 1-based line number). Blank lines and lines starting with `c` are
/// skipped; `s ...` status lines (`s SATISFIABLE`) are skipped too. The forms:
///
/// - SAT competition output: `v` lines of signed literals; consecutive `v` lines make ONE
///   assignment, ended by the literal `0` (what `v_lines` and `metaopt sat solve` print);
/// - one assignment per line as signed literals (`1 -2 3 ... 0`, the final `0` optional);
/// - one assignment per line as a string of `0`/`1`, one character per variable.
///
/// Variables not named are false. A literal out of range, a variable given with both signs,
/// text after the `0`, `v` lines without their `0` at the end, or a plain line inside an
/// unfinished `v` answer is a [`Error::Parse`].
pub fn parse_assignments(text: &str, num_vars: usize, path: &Path) -> Result<Vec<Assignment>> {
    let err = |line: usize, msg: String| Error::parse(path, line, msg);
    let mut out = Vec::new();
    // the `v` answer being read: its assignment, the variables named (+1/-1) and its first line
    let mut open: Option<(Vec<i8>, usize)> = None;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('c') || line.starts_with('%') {
            continue;
        }
        if line.starts_with('s') && (line.len() == 1 || line.as_bytes()[1].is_ascii_whitespace()) {
            if let Some((_, first)) = open {
                return Err(err(lineno, format!("a status line inside the `v` lines begun on line {first}, which have no final 0")));
            }
            continue;
        }
        let is_v = line.starts_with(['v', 'V'])
            && (line.len() == 1 || line.as_bytes()[1].is_ascii_whitespace());
        if !is_v {
            if let Some((_, first)) = open {
                return Err(err(lineno, format!("a plain line inside the `v` lines begun on line {first}, which have no final 0")));
            }
            if line.bytes().all(|c| c == b'0' || c == b'1')
                && line.len() == num_vars
                && num_vars > 1
            {
                out.push(Assignment::from_bools(
                    &line.bytes().map(|c| c == b'1').collect::<Vec<_>>(),
                ));
                continue;
            }
            let mut signs = vec![0i8; num_vars];
            read_literals(line, num_vars, &mut signs).map_err(|m| err(lineno, m))?;
            out.push(signs_to_assignment(&signs));
            continue;
        }
        let (signs, _) = open.get_or_insert_with(|| (vec![0i8; num_vars], lineno));
        if read_literals(line[1..].trim(), num_vars, signs).map_err(|m| err(lineno, m))? {
            let (signs, _) = open.take().expect("open above");
            out.push(signs_to_assignment(&signs));
        }
    }
    if let Some((_, first)) = open {
        return Err(err(
            first,
            "the `v` lines begun here end without the final 0".into(),
        ));
    }
    Ok(out)
}

/// Reads the literals of one line into `signs`; true when the line ended with the literal 0.
fn read_literals(
    line: &str,
    num_vars: usize,
    signs: &mut [i8],
) -> std::result::Result<bool, String> {
    let mut toks = line.split_whitespace();
    while let Some(tok) = toks.next() {
        let l: i64 = tok
            .parse()
            .map_err(|_| format!("`{tok}` is not a literal"))?;
        if l == 0 {
            if let Some(extra) = toks.next() {
                return Err(format!("`{extra}` after the final 0"));
            }
            return Ok(true);
        }
        let v = l.unsigned_abs() as usize;
        if v > num_vars {
            return Err(format!(
                "literal {l} is out of range (the formula has {num_vars} variables)"
            ));
        }
        let sign = if l > 0 { 1 } else { -1 };
        if signs[v - 1] == -sign {
            return Err(format!("variable {v} is given both true and false"));
        }
        signs[v - 1] = sign;
    }
    Ok(false)
}

fn signs_to_assignment(signs: &[i8]) -> Assignment {
    Assignment::from_bools(&signs.iter().map(|&s| s > 0).collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> &'static Path {
        Path::new("t.cnf")
    }

    #[test]
    fn dimacs_text_reads_back_to_the_same_formula() {
        let c = Cnf::random_ksat(300, 4.2, 3, 5).unwrap();
        let back = Cnf::parse(&c.to_dimacs(), p()).unwrap();
        assert_eq!((back.num_vars, back.num_clauses()), (300, 1260));
        assert!(c.clauses().zip(back.clauses()).all(|(a, b)| a == b));
        // repeated literals and a tautology are written as they are stored
        let odd = Cnf::from_clauses("odd", 4, [vec![1, 1, -2], vec![3, -3], vec![-4]]).unwrap();
        let text = odd.to_dimacs();
        assert!(text.starts_with("c odd\np cnf 4 3\n"), "{text}");
        let back = Cnf::parse(&text, p()).unwrap();
        assert!(odd.clauses().zip(back.clauses()).all(|(a, b)| a == b));
    }

    #[test]
    fn lit_types() {
        assert_eq!(LitType::for_vars(127), LitType::I8);
        assert_eq!(LitType::for_vars(128), LitType::I16);
        assert_eq!(LitType::for_vars(32767), LitType::I16);
        assert_eq!(LitType::for_vars(32768), LitType::I32);
        let c = Cnf::from_clauses("x", 200, [[1, -200], [-3, 5]]).unwrap();
        assert_eq!(c.lit_type(), LitType::I16);
        let b = c.packed_literals();
        assert_eq!(b.len(), 8);
        assert_eq!(i16::from_ne_bytes([b[2], b[3]]), -200);
    }

    #[test]
    fn assignments_from_competition_output() {
        let mut a = Assignment::all_false(40);
        for v in [1, 5, 33, 40] {
            a.set(v, true);
        }
        let text = format!("c a comment\ns SATISFIABLE\n{}", v_lines(&a));
        assert!(v_lines(&a).lines().count() > 1, "several v lines");
        let got = parse_assignments(&text, 40, p()).unwrap();
        assert_eq!(got, vec![a.clone()]);
        // two answers, then plain lines of literals and of bits
        let text = format!(
            "{}{}1 -2 3\n-1 2 0\n{}\n",
            v_lines(&a),
            v_lines(&a),
            "1".repeat(40)
        );
        let got = parse_assignments(&text, 40, p()).unwrap();
        assert_eq!(got.len(), 5);
        assert_eq!(got[1], a);
        assert!(got[2].get(1) && !got[2].get(2) && got[2].get(3) && !got[2].get(4));
        assert!(!got[3].get(1) && got[3].get(2));
        assert_eq!(got[4], Assignment::all_true(40));
    }

    #[test]
    fn assignment_errors_name_the_line() {
        let line_of = |text: &str, n: usize| match parse_assignments(text, n, p()) {
            Err(Error::Parse { line, msg, .. }) => (line, msg),
            other => panic!("{other:?}"),
        };
        assert_eq!(line_of("c x\n1 2 x\n", 3).0, 2);
        assert!(line_of("1 -4\n", 3).1.contains("out of range"));
        assert!(line_of("1 -1\n", 3).1.contains("both"));
        assert!(line_of("1 0 2\n", 3).1.contains("after the final 0"));
        assert_eq!(
            line_of("s SATISFIABLE\nv 1 2\nv 3\n", 3),
            (2, "the `v` lines begun here end without the final 0".into())
        );
        assert_eq!(line_of("v 1 2\n-3\n", 3).0, 2);
        assert!(parse_assignments("c only\ns UNKNOWN\n", 3, p())
            .unwrap()
            .is_empty());
    }

    #[test]
    fn assignment_bits() {
        let mut a = Assignment::all_false(40);
        a.set(33, true);
        assert_eq!(a.words(), &[0, 1]);
        a.flip(1);
        assert!(a.get(1) && a.lit_is_true(1) && !a.lit_is_true(-1));
        assert_eq!(Assignment::all_true(40).words(), &[u32::MAX, 0xff]);
        assert_eq!(Assignment::from_bools(&a.to_bools()), a);
        assert_eq!(
            Assignment::from_words(33, vec![0, 3]).unwrap().words(),
            &[0, 1]
        );
        assert!(Assignment::from_words(33, vec![0]).is_err());
    }

    #[test]
    fn v_line_format() {
        let a = Assignment::from_bools(&[true, false, true]);
        assert_eq!(v_lines(&a), "v 1 -2 3 0\n");
        let big = v_lines(&Assignment::all_true(100));
        assert!(big
            .lines()
            .all(|l| l.starts_with("v ") && l.len() <= V_LINE_WIDTH));
        let toks: Vec<&str> = big.split_whitespace().filter(|t| *t != "v").collect();
        assert_eq!(toks.len(), 101);
        assert_eq!(toks[99], "100");
        assert_eq!(toks[100], "0");
    }

    #[test]
    fn parse_layouts() {
        let c = Cnf::parse("c hi\np cnf 3 3\n1 -2\n 3 0 -1 0\nc mid\n2 3\n%\n0\n", p()).unwrap();
        assert_eq!(c.num_clauses(), 3);
        assert_eq!(c.clause(0), &[1, -2, 3]);
        assert_eq!(c.clause(1), &[-1]);
        assert_eq!(c.clause(2), &[2, 3]);
        assert_eq!(c.name, "t");
    }
}
