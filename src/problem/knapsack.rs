//! The 0-1 knapsack problem: instances with real weights and profits and their exact integer form,
//! readers and a writer, seeded generators (Han & Kim's instances, Pisinger's classes), an exact
//! solver as ground truth, and the host references of the QIGA engine (value and weight of a bit
//! string, the repair of docs/specs/QIGA.md, the profit/weight order). No device code.
//!
//! # The integer form
//!
//! Every weight and profit is held twice: as given (`f64`) and as an integer on one decimal
//! scale, `10^k`: `k` is the smallest number of decimals that makes every weight and profit an
//! integer, at most 9 (the shared files have 6 decimals: scale 10^6, exact). The decimals of a
//! value are those of the shortest decimal text that reads back as the same `f64` (Rust's `{}`),
//! so `2.995120` in a file has 5 decimals and the scaled value is exact, never a product rounded
//! in binary. The capacity is rounded *down* on that scale (knapsack-250's capacity
//! 673.8677805 has 7 decimals: its integer capacity is 673867780), and capped at the total
//! weight (which changes no feasibility). The totals of the weights and of the profits on that
//! scale are at most `i64::MAX`, so the weight and profit of any item set fit a signed or
//! unsigned 64-bit integer (`long`/`ulong` in OpenCL). Generated integer instances have scale 1.
//! Everything the solver and the repair decide is decided on the integers; reals are the
//! integers divided by the scale.
//!
//! # File formats
//!
//! [`Knapsack::parse`] detects the format from the first data line (blank lines and lines that
//! start with `#` are skipped everywhere):
//!
//! - *The authors' format* (rnowotniak/qopt, `problems/knapsack/`, the files of `data/knapsack/`):
//!   a `# capacity` line, the capacity alone on a line, a `# weight price` line, then one
//!   `weight price` pair per line up to the end. Detected by a first data line of one number.
//! - *Count first*: `n capacity` on the first data line, then exactly `n` lines `weight profit`
//!   (weight first, as in the authors' format). Detected by a first data line of two numbers.
//!
//! Malformed input is an [`Error::Parse`] naming the file and the 1-based line. The writer
//! ([`Knapsack::to_text`]) uses the authors' format; reading its output gives the same instance.

use std::cmp::Ordering;
use std::fmt::Write as _;
use std::path::Path;
use std::str::FromStr;

use crate::error::{try_vec, Error, Result};
use crate::rng::Philox;

/// Largest item count accepted (2^20): far beyond the published instances (1,000 items), and a
/// bound on what a file or a caller can make the library allocate per item.
pub const MAX_ITEMS: usize = 1 << 20;

/// Largest number of decimals of the integer form (scale 10^9).
pub const MAX_DECIMALS: u32 = 9;

/// Default cap on the states of the exact solver ([`Knapsack::optimum`]): about 100 MB of
/// state lists and partial solutions at the peak.
pub const DEFAULT_MAX_STATES: usize = 1 << 22;

/// A 0-1 knapsack instance, real and integer (see the module documentation).
///
/// Built by [`Knapsack::new`], the readers and the generators, which guarantee: `n >= 1` (at most
/// [`MAX_ITEMS`]); weights finite and > 0, profits finite and >= 0, capacity finite and >= 0;
/// `int_weights[i] = weights[i] * scale` exactly (>= 1), the same for profits; `int_capacity =
/// min(floor(capacity * scale), Σ int_weights)`; Σ int_weights and Σ int_profits <= `i64::MAX`.
#[derive(Clone, Debug, PartialEq)]
pub struct Knapsack {
    name: String,
    weights: Vec<f64>,
    profits: Vec<f64>,
    capacity: f64,
    decimals: u32,
    int_weights: Vec<u64>,
    int_profits: Vec<u64>,
    int_capacity: u64,
    total_weight: u64,
    total_profit: u64,
    ratio_order: Vec<usize>,
}

/// Which field a value belongs to (for error messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Weight,
    Profit,
    Capacity,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Weight => "weight",
            Field::Profit => "profit",
            Field::Capacity => "capacity",
        }
    }
}

/// The integer and fraction digits of the shortest decimal text of `v` (finite, >= 0).
fn decimal_digits(v: f64) -> (String, String) {
    if v == 0.0 {
        return ("0".into(), String::new());
    }
    let s = format!("{v}");
    match s.split_once('.') {
        Some((a, b)) => (a.to_string(), b.to_string()),
        None => (s, String::new()),
    }
}

/// Number of decimals of `v` (finite, >= 0) in its shortest decimal text.
fn decimals_of(v: f64) -> usize {
    decimal_digits(v).1.len()
}

/// floor(v · 10^k) computed on the decimal digits of `v` (exact), or `None` past `u64`.
fn scaled(v: f64, k: u32) -> Option<u64> {
    let (int, frac) = decimal_digits(v);
    let mut x: u64 = int.parse().ok()?;
    let frac = frac.as_bytes();
    for t in 0..k as usize {
        let d = frac.get(t).map_or(0, |c| u64::from(c - b'0'));
        x = x.checked_mul(10)?.checked_add(d)?;
    }
    Some(x)
}

/// The items in decreasing profit/weight order, ties by increasing index; exact (the ratios are
/// compared by cross-multiplication in 128 bits).
pub fn ratio_order_of(weights: &[u64], profits: &[u64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| ratio_cmp(weights, profits, a, b));
    order
}

fn ratio_cmp(w: &[u64], p: &[u64], a: usize, b: usize) -> Ordering {
    // a before b when p_a / w_a > p_b / w_b, i.e. p_a w_b > p_b w_a
    let left = u128::from(p[b]) * u128::from(w[a]);
    let right = u128::from(p[a]) * u128::from(w[b]);
    left.cmp(&right).then(a.cmp(&b))
}

impl Knapsack {
    /// An instance from real weights, profits and capacity, after the checks of the type's
    /// invariant. Errors are [`Error::InvalidArgument`] naming `weights`, `profits` or `capacity`
    /// and the 0-based item.
    pub fn new(
        name: impl Into<String>,
        weights: Vec<f64>,
        profits: Vec<f64>,
        capacity: f64,
    ) -> Result<Self> {
        let at = |field: Field, item: Option<usize>, msg: String| {
            let arg = match field {
                Field::Weight => "weights",
                Field::Profit => "profits",
                Field::Capacity => "capacity",
            };
            match item {
                Some(i) => Error::arg(arg, format!("item {i}: {msg}")),
                None => Error::arg(arg, msg),
            }
        };
        Self::build(name.into(), weights, profits, capacity, &at)
    }

    /// The checks and the integer form; `at` makes the error of a field's value (item index, or
    /// `None` for the capacity and for the instance as a whole).
    fn build(
        name: String,
        weights: Vec<f64>,
        profits: Vec<f64>,
        capacity: f64,
        at: &dyn Fn(Field, Option<usize>, String) -> Error,
    ) -> Result<Self> {
        let n = weights.len();
        if profits.len() != n {
            return Err(at(
                Field::Profit,
                None,
                format!("{} profits for {n} weights", profits.len()),
            ));
        }
        if n == 0 {
            return Err(at(
                Field::Weight,
                None,
                "no items (n must be at least 1)".into(),
            ));
        }
        if n > MAX_ITEMS {
            return Err(at(
                Field::Weight,
                None,
                format!("{n} items exceed the maximum {MAX_ITEMS}"),
            ));
        }
        if !capacity.is_finite() || capacity < 0.0 {
            return Err(at(
                Field::Capacity,
                None,
                format!("{capacity} must be finite and >= 0"),
            ));
        }
        let mut decimals = 0usize;
        for (i, (&w, &p)) in weights.iter().zip(&profits).enumerate() {
            if !w.is_finite() || w <= 0.0 {
                return Err(at(
                    Field::Weight,
                    Some(i),
                    format!("{w} must be finite and > 0"),
                ));
            }
            if !p.is_finite() || p < 0.0 {
                return Err(at(
                    Field::Profit,
                    Some(i),
                    format!("{p} must be finite and >= 0"),
                ));
            }
            for (field, v) in [(Field::Weight, w), (Field::Profit, p)] {
                let d = decimals_of(v);
                if d > MAX_DECIMALS as usize {
                    return Err(at(
                        field,
                        Some(i),
                        format!("{v} has {d} decimals; at most {MAX_DECIMALS} are supported (the integer form's scale is at most 10^{MAX_DECIMALS})"),
                    ));
                }
                decimals = decimals.max(d);
            }
        }
        let k = decimals as u32;
        let scale = 10u64.pow(k);
        let mut int_weights = try_vec(n, "weights")?;
        let mut int_profits = try_vec(n, "profits")?;
        let (mut tw, mut tp) = (0u64, 0u64);
        let limit = i64::MAX as u64;
        for i in 0..n {
            let too_big = |field: Field, v: f64| {
                at(field, Some(i), format!("{v} is too large for the 64-bit integer form at scale {scale} (the total must stay <= {limit})"))
            };
            let w = scaled(weights[i], k).ok_or_else(|| too_big(Field::Weight, weights[i]))?;
            let p = scaled(profits[i], k).ok_or_else(|| too_big(Field::Profit, profits[i]))?;
            tw = tw
                .checked_add(w)
                .filter(|&t| t <= limit)
                .ok_or_else(|| too_big(Field::Weight, weights[i]))?;
            tp = tp
                .checked_add(p)
                .filter(|&t| t <= limit)
                .ok_or_else(|| too_big(Field::Profit, profits[i]))?;
            int_weights.push(w);
            int_profits.push(p);
        }
        let int_capacity = scaled(capacity, k).map_or(tw, |c| c.min(tw));
        let ratio_order = ratio_order_of(&int_weights, &int_profits);
        Ok(Knapsack {
            name,
            weights,
            profits,
            capacity,
            decimals: k,
            int_weights,
            int_profits,
            int_capacity,
            total_weight: tw,
            total_profit: tp,
            ratio_order,
        })
    }

    /// An integer instance (scale 1): weights >= 1, profits >= 0.
    pub fn from_integers(
        name: impl Into<String>,
        weights: &[u64],
        profits: &[u64],
        capacity: u64,
    ) -> Result<Self> {
        // integers above 2^53 would not survive the trip through f64
        const EXACT: u64 = 1 << 53;
        for (arg, v) in [
            ("weights", weights),
            ("profits", profits),
            ("capacity", std::slice::from_ref(&capacity)),
        ] {
            if let Some(i) = v.iter().position(|&x| x > EXACT) {
                return Err(Error::arg(arg, format!("item {i}: {} exceeds 2^53", v[i])));
            }
        }
        let k = Self::new(
            name,
            weights.iter().map(|&w| w as f64).collect(),
            profits.iter().map(|&p| p as f64).collect(),
            capacity as f64,
        )?;
        debug_assert_eq!(k.decimals, 0);
        Ok(k)
    }

    /// Reads a file in either format (module documentation); the instance is named after the
    /// file stem. Bytes that are not UTF-8 are replaced (and then fail as numbers).
    pub fn from_file(path: &Path) -> Result<Self> {
        Self::parse(&super::read_text(path)?, path)
    }

    /// Parses the text of a file in either format. `path` labels errors and gives the name (its
    /// stem).
    pub fn parse(text: &str, path: &Path) -> Result<Self> {
        let err = |line: usize, msg: String| Error::parse(path, line, msg);
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // data lines: (line number, tokens)
        let mut data = text.lines().enumerate().filter_map(|(i, raw)| {
            let t = raw.trim();
            (!t.is_empty() && !t.starts_with('#')).then_some((i + 1, t))
        });
        let number = |line: usize, field: &str, tok: &str| -> Result<f64> {
            match tok.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                Ok(v) => Err(err(
                    line,
                    format!("{field} `{tok}` is {v}; expected a finite number"),
                )),
                Err(_) => Err(err(line, format!("{field} `{tok}` is not a number"))),
            }
        };
        let Some((first_line, first)) = data.next() else {
            let lines = text.lines().count().max(1);
            return Err(err(
                lines,
                "no data: expected the capacity (authors' format) or `n capacity`".into(),
            ));
        };
        let toks: Vec<&str> = first.split_whitespace().collect();
        let (capacity, declared) = match toks.as_slice() {
            [c] => (number(first_line, "capacity", c)?, None),
            [n, c] => {
                let n: usize = match n.parse::<u64>() {
                    Ok(n) => usize::try_from(n).unwrap_or(usize::MAX),
                    Err(_) => return Err(err(first_line, format!("item count `{n}` is not a whole number (the first line is `n capacity`)"))),
                };
                // each item takes at least "w p" and a line break: 4 bytes
                let room = text.len() / 4 + 1;
                if n > MAX_ITEMS || n > room {
                    return Err(err(
                        first_line,
                        format!("item count {n} exceeds the maximum {MAX_ITEMS} or what a file of {} bytes can hold", text.len()),
                    ));
                }
                (number(first_line, "capacity", c)?, Some(n))
            }
            _ => {
                return Err(err(
                    first_line,
                    format!("expected the capacity alone (authors' format) or `n capacity`, found {} values", toks.len()),
                ))
            }
        };
        let reserve = declared.unwrap_or(0).min(MAX_ITEMS);
        let mut weights: Vec<f64> = try_vec(reserve, "items")?;
        let mut profits: Vec<f64> = try_vec(reserve, "items")?;
        let mut lines: Vec<usize> = try_vec(reserve, "items")?;
        for (line, t) in data {
            if let Some(n) = declared {
                if weights.len() == n {
                    return Err(err(
                        line,
                        format!("more items than the {n} declared on line {first_line}"),
                    ));
                }
            }
            if weights.len() == MAX_ITEMS {
                return Err(err(line, format!("more than {MAX_ITEMS} items")));
            }
            let toks: Vec<&str> = t.split_whitespace().collect();
            let [w, p] = toks.as_slice() else {
                return Err(err(
                    line,
                    format!("expected `weight profit`, found {} values", toks.len()),
                ));
            };
            weights.push(number(line, "weight", w)?);
            profits.push(number(line, "profit", p)?);
            lines.push(line);
        }
        let end = text.lines().count().max(1);
        if let Some(n) = declared {
            if weights.len() < n {
                return Err(err(
                    end,
                    format!(
                        "the file ends after {} of the {n} items declared on line {first_line}",
                        weights.len()
                    ),
                ));
            }
        }
        if weights.is_empty() {
            return Err(err(
                end,
                "no items: expected `weight profit` lines after the capacity".into(),
            ));
        }
        let at = |field: Field, item: Option<usize>, msg: String| {
            let line = match (field, item) {
                (Field::Capacity, _) => first_line,
                (_, Some(i)) => lines[i],
                (_, None) => end,
            };
            err(line, format!("{}: {msg}", field.name()))
        };
        Self::build(name, weights, profits, capacity, &at)
    }

    /// The instance in the authors' format: `# capacity`, the capacity (shortest decimal text),
    /// a blank line, `# weight price`, then one `weight profit` line per item with the scale's
    /// number of decimals (written from the integers, so exact).
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(32 * self.n() + 64);
        let _ = write!(s, "# capacity\n{}\n\n# weight price\n", self.capacity);
        for i in 0..self.n() {
            let _ = writeln!(
                s,
                "{} {}",
                self.fixed(self.int_weights[i]),
                self.fixed(self.int_profits[i])
            );
        }
        s
    }

    /// Writes [`Knapsack::to_text`] to `path`.
    pub fn write_file(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_text()).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// An integer value of the integer form as decimal text with the scale's decimals.
    fn fixed(&self, v: u64) -> String {
        if self.decimals == 0 {
            return v.to_string();
        }
        let s = self.scale();
        format!(
            "{}.{:0width$}",
            v / s,
            v % s,
            width = self.decimals as usize
        )
    }

    /// Name (the file stem for instances read from a file).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the instance.
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// Number of items.
    pub fn n(&self) -> usize {
        self.weights.len()
    }

    /// Weights as given.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Profits as given.
    pub fn profits(&self) -> &[f64] {
        &self.profits
    }

    /// Capacity as given.
    pub fn capacity(&self) -> f64 {
        self.capacity
    }

    /// The scale of the integer form, 10^[`decimals`](Self::decimals).
    pub fn scale(&self) -> u64 {
        10u64.pow(self.decimals)
    }

    /// Decimals of the integer form (0 to [`MAX_DECIMALS`]).
    pub fn decimals(&self) -> u32 {
        self.decimals
    }

    /// Weights on the integer scale (each >= 1).
    pub fn int_weights(&self) -> &[u64] {
        &self.int_weights
    }

    /// Profits on the integer scale.
    pub fn int_profits(&self) -> &[u64] {
        &self.int_profits
    }

    /// Capacity on the integer scale: floor(capacity · scale), capped at the total weight.
    pub fn int_capacity(&self) -> u64 {
        self.int_capacity
    }

    /// Σ int_weights (<= `i64::MAX`).
    pub fn total_int_weight(&self) -> u64 {
        self.total_weight
    }

    /// Σ int_profits (<= `i64::MAX`).
    pub fn total_int_profit(&self) -> u64 {
        self.total_profit
    }

    /// An integer value (profit or weight) as a real: `v / scale`.
    pub fn to_real(&self, v: u64) -> f64 {
        v as f64 / self.scale() as f64
    }

    /// The items in decreasing profit/weight order, ties by increasing index (exact integer
    /// cross-multiplication): the fill order of the greedy repair; its reverse is the removal
    /// order.
    pub fn ratio_order(&self) -> &[usize] {
        &self.ratio_order
    }

    /// (profit, weight) of a bit string on the integer scale; an item is in when its byte is
    /// non-zero. Panics if `bits.len() != self.n()`.
    pub fn value_and_weight(&self, bits: &[u8]) -> (u64, u64) {
        assert_eq!(bits.len(), self.n(), "bit string length");
        let (mut p, mut w) = (0u64, 0u64);
        for (i, &b) in bits.iter().enumerate() {
            if b != 0 {
                p += self.int_profits[i];
                w += self.int_weights[i];
            }
        }
        (p, w)
    }

    /// Whether the bit string's weight is at most the capacity (integer form). Panics if
    /// `bits.len() != self.n()`.
    pub fn feasible(&self, bits: &[u8]) -> bool {
        self.value_and_weight(bits).1 <= self.int_capacity
    }

    /// The sequential reference of QIGA's repair (docs/specs/QIGA.md, [`repair_bits`]) in
    /// the given mode; returns (profit, weight) after it. Every byte becomes 0 or 1. Errors: a
    /// wrong length of `bits`, an order that is not a permutation of the items.
    pub fn repair(&self, bits: &mut [u8], mode: RepairMode<'_>) -> Result<(u64, u64)> {
        if bits.len() != self.n() {
            return Err(Error::arg(
                "bits",
                format!("{} bits for {} items", bits.len(), self.n()),
            ));
        }
        match mode {
            RepairMode::Index => {
                let order: Vec<usize> = (0..self.n()).collect();
                repair_bits(
                    bits,
                    &self.int_weights,
                    self.int_capacity,
                    order.iter().copied(),
                    order.iter().copied(),
                );
            }
            RepairMode::Order(order) => {
                check_order(order, self.n())?;
                repair_bits(
                    bits,
                    &self.int_weights,
                    self.int_capacity,
                    order.iter().copied(),
                    order.iter().copied(),
                );
            }
            RepairMode::Greedy => {
                let o = &self.ratio_order;
                repair_bits(
                    bits,
                    &self.int_weights,
                    self.int_capacity,
                    o.iter().rev().copied(),
                    o.iter().copied(),
                );
            }
        }
        Ok(self.value_and_weight(bits))
    }
}

impl FromStr for Knapsack {
    type Err = Error;

    /// [`Knapsack::parse`] with errors labelled `<string>`.
    fn from_str(s: &str) -> Result<Self> {
        Self::parse(s, Path::new("<string>"))
    }
}

fn check_order(order: &[usize], n: usize) -> Result<()> {
    if order.len() != n {
        return Err(Error::arg(
            "order",
            format!("{} entries for {n} items", order.len()),
        ));
    }
    let mut seen = vec![false; n];
    for &i in order {
        if i >= n || std::mem::replace(&mut seen[i], true) {
            return Err(Error::arg(
                "order",
                format!("{i} is out of range or repeated; expected a permutation of 0..{n}"),
            ));
        }
    }
    Ok(())
}

/// The item order of a repair (docs/specs/QIGA.md, "Knapsack repair").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepairMode<'a> {
    /// Both phases in index order (the library's default, the authors' order).
    Index,
    /// Both phases in this order (a permutation of the items; QIGA's `random` mode draws one per
    /// repair).
    Order(&'a [usize]),
    /// Removal from the worst profit/weight ratio (the reverse of [`Knapsack::ratio_order`]),
    /// fill from the best ([`Knapsack::ratio_order`]); ties by index in the fill order, so the
    /// removal meets tied items from the highest index.
    Greedy,
}

/// QIGA's repair of one bit string, sequentially (the reference of the device's scans). An item
/// is in when its byte is non-zero; on return every byte is 0 or 1. With W = Σ w_i x_i: if W > C,
/// clear set bits in `remove` order until W <= C; then scan `fill` in order over the items that
/// are out (those just removed included) and add each while W + w_i <= C, stopping at the first
/// that would exceed C (it is not added). Returns the final weight (<= C whenever the weights of
/// all items allow it, which they always do: removal can empty the knapsack).
///
/// `remove` and `fill` must each visit every item once (both are permutations of `0..bits.len()`;
/// an order that misses an item leaves it alone). Sums are taken in 128 bits, so any `u64`
/// weights are safe.
pub fn repair_bits(
    bits: &mut [u8],
    weights: &[u64],
    capacity: u64,
    remove: impl IntoIterator<Item = usize>,
    fill: impl IntoIterator<Item = usize>,
) -> u64 {
    assert_eq!(bits.len(), weights.len(), "bit string length");
    let c = u128::from(capacity);
    let mut w: u128 = 0;
    for (b, &wi) in bits.iter_mut().zip(weights) {
        *b = u8::from(*b != 0);
        if *b == 1 {
            w += u128::from(wi);
        }
    }
    if w > c {
        for i in remove {
            if bits[i] == 1 {
                bits[i] = 0;
                w -= u128::from(weights[i]);
                if w <= c {
                    break;
                }
            }
        }
    }
    for i in fill {
        if bits[i] == 0 {
            let next = w + u128::from(weights[i]);
            if next > c {
                break;
            }
            bits[i] = 1;
            w = next;
        }
    }
    w as u64
}

// ------------------------------------------------------------------------------------------------
// Generators

/// The instance classes of [`Knapsack::generate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnapsackKind {
    /// Han & Kim (and the QIGA paper's file): w uniform in [1, 10) on a grid of 10^-6, p = w + 5,
    /// capacity half the total weight; 6 decimals, so the integer form (scale 10^6) is exact.
    HanKim,
    /// Pisinger: w and p uniform in [1, R], independent.
    Uncorrelated,
    /// Pisinger: w uniform in [1, R], p uniform in [max(1, w - R/10), w + R/10].
    WeaklyCorrelated,
    /// Pisinger: w uniform in [1, R], p = w + R/10.
    StronglyCorrelated,
    /// Pisinger: w uniform in [1, R], p = w.
    SubsetSum,
}

impl KnapsackKind {
    /// Every kind, in the order of the CLI's list.
    pub const ALL: [KnapsackKind; 5] = [
        KnapsackKind::HanKim,
        KnapsackKind::Uncorrelated,
        KnapsackKind::WeaklyCorrelated,
        KnapsackKind::StronglyCorrelated,
        KnapsackKind::SubsetSum,
    ];

    /// The name the CLI takes: `hankim`, `uncorrelated`, `weak`, `strong`, `subset-sum`.
    pub fn name(self) -> &'static str {
        match self {
            KnapsackKind::HanKim => "hankim",
            KnapsackKind::Uncorrelated => "uncorrelated",
            KnapsackKind::WeaklyCorrelated => "weak",
            KnapsackKind::StronglyCorrelated => "strong",
            KnapsackKind::SubsetSum => "subset-sum",
        }
    }
}

impl FromStr for KnapsackKind {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        KnapsackKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                Error::arg(
                    "kind",
                    format!(
                        "`{s}`; expected one of hankim, uncorrelated, weak, strong, subset-sum"
                    ),
                )
            })
    }
}

impl std::fmt::Display for KnapsackKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The capacity of a generated instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CapacityRule {
    /// Half the total weight (Pisinger's default with H = 1; Han & Kim's): on the integer scale
    /// floor(Σw / 2), as a real Σw / 2.
    #[default]
    Half,
    /// Pisinger's series: instance h of H has capacity floor(h / (H + 1) · Σw), 1 <= h <= H.
    Series { h: u32, of: u32 },
}

/// What [`Knapsack::generate`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    pub kind: KnapsackKind,
    /// Number of items, 1 to [`MAX_ITEMS`].
    pub items: usize,
    /// Pisinger's range R (weights in [1, R]), 1 to 10^9; ignored by [`KnapsackKind::HanKim`].
    pub range: u64,
    /// Seed of the Philox stream (stream 0): the same options give the same instance.
    pub seed: u64,
    pub capacity: CapacityRule,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            kind: KnapsackKind::HanKim,
            items: 250,
            range: 1000,
            seed: 1,
            capacity: CapacityRule::Half,
        }
    }
}

/// Largest range R of Pisinger's classes.
pub const MAX_RANGE: u64 = 1_000_000_000;

impl Knapsack {
    /// A seeded random instance (the random words come from `crate::rng::Philox` (seed, stream 0),
    /// per item the weight's draw and then the profit's). Named `<kind>-<items>-s<seed>`.
    pub fn generate(o: &GenerateOptions) -> Result<Self> {
        if o.items == 0 || o.items > MAX_ITEMS {
            return Err(Error::arg(
                "items",
                format!("{}; expected 1 to {MAX_ITEMS}", o.items),
            ));
        }
        if o.kind != KnapsackKind::HanKim && !(1..=MAX_RANGE).contains(&o.range) {
            return Err(Error::arg(
                "range",
                format!("{}; expected 1 to {MAX_RANGE}", o.range),
            ));
        }
        if let CapacityRule::Series { h, of } = o.capacity {
            if h == 0 || h > of {
                return Err(Error::arg(
                    "capacity",
                    format!("series {h}/{of}; expected 1 <= h <= H"),
                ));
            }
        }
        let n = o.items;
        let mut rng = Philox::new(o.seed, 0);
        let mut w: Vec<u64> = try_vec(n, "items")?;
        let mut p: Vec<u64> = try_vec(n, "items")?;
        let r = o.range;
        let below = |rng: &mut Philox, k: u64| u64::from(rng.below(k as u32));
        for _ in 0..n {
            let (wi, pi) = match o.kind {
                // on the 10^-6 grid: w in 1.000000 ..= 9.999999
                KnapsackKind::HanKim => {
                    let wi = 1_000_000 + below(&mut rng, 9_000_000);
                    (wi, wi + 5_000_000)
                }
                KnapsackKind::Uncorrelated => {
                    let wi = 1 + below(&mut rng, r);
                    (wi, 1 + below(&mut rng, r))
                }
                KnapsackKind::WeaklyCorrelated => {
                    let wi = 1 + below(&mut rng, r);
                    let lo = wi.saturating_sub(r / 10).max(1);
                    let hi = wi + r / 10;
                    (wi, lo + below(&mut rng, hi - lo + 1))
                }
                KnapsackKind::StronglyCorrelated => {
                    let wi = 1 + below(&mut rng, r);
                    (wi, wi + r / 10)
                }
                KnapsackKind::SubsetSum => {
                    let wi = 1 + below(&mut rng, r);
                    (wi, wi)
                }
            };
            w.push(wi);
            p.push(pi);
        }
        let total: u64 = w.iter().sum();
        let name = format!("{}-{n}-s{}", o.kind.name(), o.seed);
        if o.kind == KnapsackKind::HanKim {
            let s = 1e6;
            let cap = match o.capacity {
                CapacityRule::Half => total as f64 / 2e6,
                CapacityRule::Series { h, of } => {
                    ((u128::from(total) * u128::from(h) / (u128::from(of) + 1)) as u64) as f64 / s
                }
            };
            return Self::new(
                name,
                w.iter().map(|&x| x as f64 / s).collect(),
                p.iter().map(|&x| x as f64 / s).collect(),
                cap,
            );
        }
        let cap = match o.capacity {
            CapacityRule::Half => total / 2,
            CapacityRule::Series { h, of } => {
                (u128::from(total) * u128::from(h) / (u128::from(of) + 1)) as u64
            }
        };
        Self::from_integers(name, &w, &p, cap)
    }
}

// ------------------------------------------------------------------------------------------------
// The exact solver

/// The optimum of an instance ([`Knapsack::optimum`]).
#[derive(Clone, Debug, PartialEq)]
pub struct KnapsackOptimum {
    /// The optimal profit as a real: `int_value / scale`.
    pub value: f64,
    /// The optimal profit on the integer scale (exact).
    pub int_value: u64,
    /// The weight of the item set as a real.
    pub weight: f64,
    /// The weight of the item set on the integer scale (<= the integer capacity).
    pub int_weight: u64,
    /// One optimal item set, 0-based indices in increasing order.
    pub items: Vec<usize>,
    /// The same set as a bit string of `n` bytes (0 or 1).
    pub bits: Vec<u8>,
    /// The largest state list the solver held (a measure of its work).
    pub peak_states: usize,
}

const NIL: u32 = u32::MAX;

/// A state of the list DP: weight, profit, and its partial solution (a node of the arena).
#[derive(Clone, Copy, Debug)]
struct State {
    w: u64,
    p: u64,
    node: u32,
}

/// Partial solutions: node = (item added, parent node); the chain from a node to `NIL` is the
/// item set of a state.
struct Arena {
    item: Vec<u32>,
    parent: Vec<u32>,
}

impl Arena {
    fn push(&mut self, item: usize, parent: u32) -> u32 {
        self.item.push(item as u32);
        self.parent.push(parent);
        (self.item.len() - 1) as u32
    }

    fn items(&self, mut node: u32, out: &mut Vec<usize>) {
        while node != NIL {
            out.push(self.item[node as usize] as usize);
            node = self.parent[node as usize];
        }
    }

    /// Keeps only the nodes reachable from `roots`, renumbered; updates the roots in place.
    fn collect(&mut self, roots: &mut [&mut u32]) {
        let len = self.item.len();
        let mut live = vec![false; len];
        for r in roots.iter() {
            let mut n = **r;
            while n != NIL && !live[n as usize] {
                live[n as usize] = true;
                n = self.parent[n as usize];
            }
        }
        let mut map = vec![NIL; len];
        let mut next = 0usize;
        // parents precede children, so one forward pass renumbers both
        for i in 0..len {
            if live[i] {
                map[i] = next as u32;
                let p = self.parent[i];
                self.item[next] = self.item[i];
                self.parent[next] = if p == NIL { NIL } else { map[p as usize] };
                next += 1;
            }
        }
        self.item.truncate(next);
        self.parent.truncate(next);
        for r in roots.iter_mut() {
            if **r != NIL {
                **r = map[**r as usize];
            }
        }
    }
}

impl Knapsack {
    /// The exact optimum with [`DEFAULT_MAX_STATES`] (see [`Knapsack::optimum_with_limit`]).
    pub fn optimum(&self) -> Result<KnapsackOptimum> {
        self.optimum_with_limit(DEFAULT_MAX_STATES)
    }

    /// The optimum of a strongly correlated instance by a certificate, when one is found: if every
    /// profit is its weight plus one constant d > 0 (on the integer scale), no set is worth more
    /// than C + d k*, k* the most items that fit (the lightest ones). A set of k* items that
    /// weighs exactly C reaches that bound and is therefore optimal. The search starts from the
    /// k* lightest items and looks for one or two swaps (an item in for an item out) that close
    /// the gap to C exactly, by hashing the single swaps' weight changes; between tries it makes
    /// a random feasible swap (Philox, fixed seed). None when the profits are not of that form or
    /// no such set turned up within the budget (the DP then decides).
    fn cardinality_certificate(&self) -> Option<KnapsackOptimum> {
        let (w, p, c) = (&self.int_weights, &self.int_profits, self.int_capacity);
        let n = w.len();
        let d = p[0].checked_sub(w[0]).filter(|&d| d > 0)?;
        if n < 3 || (0..n).any(|i| p[i].checked_sub(w[i]) != Some(d)) {
            return None;
        }
        let mut by_weight: Vec<usize> = (0..n).collect();
        by_weight.sort_by_key(|&i| (w[i], i));
        let mut inside = vec![false; n];
        let (mut k, mut sw) = (0usize, 0u64);
        for &i in &by_weight {
            if sw + w[i] > c {
                break;
            }
            sw += w[i];
            inside[i] = true;
            k += 1;
        }
        if k == 0 || k == n {
            return None;
        }
        let finish = |inside: &[bool]| -> KnapsackOptimum {
            let items: Vec<usize> = (0..n).filter(|&i| inside[i]).collect();
            let bits: Vec<u8> = inside.iter().map(|&b| b as u8).collect();
            let (iv, iw) = self.value_and_weight(&bits);
            KnapsackOptimum {
                value: self.to_real(iv),
                int_value: iv,
                weight: self.to_real(iw),
                int_weight: iw,
                items,
                bits,
                peak_states: 0,
            }
        };
        let mut rng = Philox::new(0x6b6e_6170, 7);
        // swaps are (out of the set, into the set): weight change w[into] - w[out]
        let budget = 2000usize.min(100_000_000 / (k * (n - k)).max(1)).max(2);
        for _ in 0..budget {
            let gap = c - sw;
            if gap == 0 {
                return Some(finish(&inside));
            }
            let ins: Vec<usize> = (0..n).filter(|&i| inside[i]).collect();
            let outs: Vec<usize> = (0..n).filter(|&i| !inside[i]).collect();
            let mut by_change: std::collections::HashMap<i64, Vec<(usize, usize)>> =
                std::collections::HashMap::new();
            let (mut feasible, mut pick) = (0u32, None);
            for &a in &ins {
                for &b in &outs {
                    let ch = w[b] as i64 - w[a] as i64;
                    if ch == gap as i64 {
                        inside[a] = false;
                        inside[b] = true;
                        return Some(finish(&inside));
                    }
                    if ch <= gap as i64 {
                        feasible += 1;
                        if rng.below(feasible) == 0 {
                            pick = Some((a, b));
                        }
                    }
                    let v = by_change.entry(ch).or_default();
                    if v.len() < 4 {
                        v.push((a, b));
                    }
                }
            }
            for (&ch, list) in &by_change {
                if let Some(other) = by_change.get(&(gap as i64 - ch)) {
                    for &(a1, b1) in list {
                        if let Some(&(a2, b2)) =
                            other.iter().find(|&&(a2, b2)| a2 != a1 && b2 != b1)
                        {
                            inside[a1] = false;
                            inside[a2] = false;
                            inside[b1] = true;
                            inside[b2] = true;
                            return Some(finish(&inside));
                        }
                    }
                }
            }
            // a random swap within the capacity (reservoir-sampled above)
            let (a, b) = pick?;
            inside[a] = false;
            inside[b] = true;
            sw = sw - w[a] + w[b];
        }
        None
    }

    /// The exact optimum, by dynamic programming over lists of non-dominated (weight, profit)
    /// states on the integer form (Nemhauser-Ullmann) grown from the break solution outwards, as
    /// Pisinger's core algorithms (expknap/minknap) do. Items are sorted by
    /// [`Knapsack::ratio_order`]; the break solution takes them in that order up to the first that
    /// does not fit (the split item). The core starts empty at the split and grows by one item at
    /// a time, alternately to the right (the next item may be added) and to the left (the next
    /// item of the break solution may be removed); a state is the break solution with some core
    /// items toggled, and may weigh more than the capacity while removals are still possible.
    /// After each item every state gets Pisinger's bound (floor, exact in 128-bit integers): a
    /// state within the capacity, its profit plus the residual capacity filled at the ratio of
    /// the next right item; an overweight one, its profit less the excess removed at the ratio of
    /// the next left item (none left: dropped). A state is dropped when its bound does not beat
    /// the incumbent (the best state within the capacity; first the greedy pass over all items).
    /// The toggled items are kept as a tree of partial solutions, compacted as it grows. Items
    /// heavier than the capacity and items of profit 0 are left out.
    ///
    /// `max_states` caps the list length (and, times 8, the tree): past it the call is an
    /// [`Error::InvalidArgument`] naming `max_states`, not a run-away in memory or time.
    ///
    /// Strongly correlated instances (every profit its weight plus one constant) whose DP would
    /// be long get a cheaper proof first: the DP runs with at most 2^16 states, then the search
    /// for a set that meets the cardinality bound (`cardinality_certificate`), then the DP with
    /// `max_states`.
    pub fn optimum_with_limit(&self, max_states: usize) -> Result<KnapsackOptimum> {
        const QUICK: usize = 1 << 16;
        if max_states > QUICK {
            if let Ok(o) = self.list_dp(QUICK) {
                return Ok(o);
            }
        }
        if let Some(o) = self.cardinality_certificate() {
            return Ok(o);
        }
        self.list_dp(max_states)
    }

    fn list_dp(&self, max_states: usize) -> Result<KnapsackOptimum> {
        let max_states = max_states.max(1);
        let c = self.int_capacity;
        let (w, p) = (&self.int_weights, &self.int_profits);
        let items: Vec<usize> = self
            .ratio_order
            .iter()
            .copied()
            .filter(|&i| w[i] <= c && p[i] > 0)
            .collect();
        let m = items.len();
        // the break solution: items[..split]
        let (mut bw, mut bp, mut split) = (0u64, 0u64, 0usize);
        while split < m && bw + w[items[split]] <= c {
            bw += w[items[split]];
            bp += p[items[split]];
            split += 1;
        }
        // incumbent: the greedy pass over every item (the break solution and more)
        let mut best_set: Vec<usize> = items[..split].to_vec();
        let mut best_val = bp;
        {
            let mut cw = bw;
            for &i in &items[split..] {
                if cw + w[i] <= c {
                    cw += w[i];
                    best_val += p[i];
                    best_set.push(i);
                }
            }
        }
        // a better incumbent found later: the break solution with the node's items toggled
        let mut best_lazy: Option<u32> = None;
        // Pisinger's bound of a state (sw, sp) when items[..lo] and items[hi..] are still to come;
        // None: it can never become feasible
        let bound = |lo: usize, hi: usize, sw: u64, sp: u64| -> Option<u64> {
            if sw <= c {
                if hi == m {
                    return Some(sp);
                }
                let t = items[hi];
                Some(sp + (u128::from(c - sw) * u128::from(p[t]) / u128::from(w[t])) as u64)
            } else {
                if lo == 0 {
                    return None;
                }
                let l = items[lo - 1];
                let loss = (u128::from(sw - c) * u128::from(p[l])).div_ceil(u128::from(w[l]));
                u64::try_from(loss)
                    .ok()
                    .and_then(|loss| sp.checked_sub(loss))
            }
        };

        let mut arena = Arena {
            item: Vec::new(),
            parent: Vec::new(),
        };
        let mut states = vec![State {
            w: bw,
            p: bp,
            node: NIL,
        }];
        let mut next: Vec<State> = Vec::new();
        let mut peak = 1usize;
        let mut live_after_gc = 0usize;
        let (mut lo, mut hi) = (split, split);
        let mut right = true;
        while !states.is_empty() && (lo > 0 || hi < m) {
            // the item toggled this round: added on the right, removed on the left
            let add = (right && hi < m) || lo == 0;
            right = !right;
            let it = if add {
                hi += 1;
                items[hi - 1]
            } else {
                lo -= 1;
                items[lo]
            };
            let (wi, pi) = (w[it], p[it]);
            let toggled = |s: &State| {
                if add {
                    State {
                        w: s.w + wi,
                        p: s.p + pi,
                        node: s.node,
                    }
                } else {
                    // every state holds the item: it is in the break solution and untouched so far
                    State {
                        w: s.w - wi,
                        p: s.p - pi,
                        node: s.node,
                    }
                }
            };
            next.clear();
            // merge the states as they are (a) and toggled (b), both by increasing weight (the
            // toggle shifts every weight alike); keep a state only when it is more profitable
            // than every lighter one
            let (mut a, mut b) = (0usize, 0usize);
            let mut last_p: Option<u64> = None;
            while a < states.len() || b < states.len() {
                let take_b = if a == states.len() {
                    true
                } else if b == states.len() {
                    false
                } else {
                    let (sa, sb) = (states[a], toggled(&states[b]));
                    sb.w < sa.w || (sb.w == sa.w && sb.p > sa.p)
                };
                let cand = if take_b {
                    b += 1;
                    toggled(&states[b - 1])
                } else {
                    a += 1;
                    states[a - 1]
                };
                if last_p.is_some_and(|lp| cand.p <= lp) {
                    continue;
                }
                last_p = Some(cand.p);
                let Some(ub) = bound(lo, hi, cand.w, cand.p) else {
                    continue;
                };
                let improves = cand.w <= c && cand.p > best_val;
                if ub <= best_val && !improves {
                    continue;
                }
                let mut node = cand.node;
                if take_b {
                    if arena.item.len() >= u32::MAX as usize - 1 {
                        return Err(Error::arg(
                            "max_states",
                            "the exact solver's partial solutions exceed 2^32 nodes",
                        ));
                    }
                    node = arena.push(it, cand.node);
                }
                if improves {
                    best_val = cand.p;
                    best_lazy = Some(node);
                }
                if ub > best_val {
                    next.push(State {
                        w: cand.w,
                        p: cand.p,
                        node,
                    });
                }
            }
            // states kept before the incumbent improved may no longer beat it
            next.retain(|s| bound(lo, hi, s.w, s.p).is_some_and(|ub| ub > best_val));
            if next.len() > max_states {
                return Err(Error::arg(
                    "max_states",
                    format!(
                        "the exact solver needs more than {max_states} states (core of {} of {m} items); the instance is too hard for it within this limit",
                        hi - lo
                    ),
                ));
            }
            peak = peak.max(next.len());
            std::mem::swap(&mut states, &mut next);
            if arena.item.len() > 2 * live_after_gc + (1 << 20) {
                let mut best_node = best_lazy.unwrap_or(NIL);
                {
                    let mut roots: Vec<&mut u32> = states.iter_mut().map(|s| &mut s.node).collect();
                    roots.push(&mut best_node);
                    arena.collect(&mut roots);
                }
                if best_lazy.is_some() {
                    best_lazy = Some(best_node);
                }
                live_after_gc = arena.item.len();
                if live_after_gc > max_states.saturating_mul(8) {
                    return Err(Error::arg(
                        "max_states",
                        format!(
                            "the exact solver's partial solutions exceed {} nodes (8 x max_states)",
                            max_states.saturating_mul(8)
                        ),
                    ));
                }
            }
        }
        let mut bits = vec![0u8; self.n()];
        match best_lazy {
            Some(node) => {
                for &i in &items[..split] {
                    bits[i] = 1;
                }
                let mut toggled = Vec::new();
                arena.items(node, &mut toggled);
                for i in toggled {
                    bits[i] ^= 1;
                }
            }
            None => {
                for &i in &best_set {
                    bits[i] = 1;
                }
            }
        }
        let items_out: Vec<usize> = (0..self.n()).filter(|&i| bits[i] == 1).collect();
        let (value, weight) = self.value_and_weight(&bits);
        assert!(
            value == best_val && weight <= c,
            "knapsack solver: set of value {value} weight {weight}, expected {best_val} <= {c}"
        );
        Ok(KnapsackOptimum {
            value: self.to_real(value),
            int_value: value,
            weight: self.to_real(weight),
            int_weight: weight,
            items: items_out,
            bits,
            peak_states: peak,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cardinality certificate, where it answers, is the brute-force optimum (and a set of
    /// k* items weighing exactly C); it answers only for profits = weights + a constant.
    #[test]
    fn the_cardinality_certificate_is_exact() {
        let mut answered = 0;
        for seed in 0..300u64 {
            for (kind, range) in [
                (KnapsackKind::StronglyCorrelated, 20u64),
                (KnapsackKind::StronglyCorrelated, 1000),
                (KnapsackKind::HanKim, 0),
            ] {
                let k = Knapsack::generate(&GenerateOptions {
                    kind,
                    items: 14,
                    range: range.max(1),
                    seed,
                    ..Default::default()
                })
                .unwrap();
                if let Some(o) = k.cardinality_certificate() {
                    assert_eq!(o.int_value, brute(&k), "{kind:?} seed {seed}");
                    assert_eq!(o.int_weight, k.int_capacity());
                    answered += 1;
                }
            }
            let u = Knapsack::generate(&GenerateOptions {
                kind: KnapsackKind::Uncorrelated,
                items: 14,
                range: 50,
                seed,
                ..Default::default()
            })
            .unwrap();
            assert!(u.cardinality_certificate().is_none());
        }
        assert!(answered > 50, "{answered}");
    }

    /// Every subset (Gray code): the optimal integer value.
    fn brute(k: &Knapsack) -> u64 {
        let n = k.n();
        let (w, p, c) = (k.int_weights(), k.int_profits(), k.int_capacity());
        let (mut cw, mut cp, mut best) = (0u64, 0u64, 0u64);
        let mut x = vec![false; n];
        for g in 1u64..(1u64 << n) {
            let i = g.trailing_zeros() as usize;
            x[i] = !x[i];
            if x[i] {
                cw += w[i];
                cp += p[i];
            } else {
                cw -= w[i];
                cp -= p[i];
            }
            if cw <= c && cp > best {
                best = cp;
            }
        }
        best
    }

    #[test]
    fn optimum_agrees_with_brute_force_on_every_class() {
        let mut count = 0;
        for kind in KnapsackKind::ALL {
            for seed in 0..40u64 {
                let items = 1 + (seed as usize * 7) % 16;
                let range = [10, 100, 1000][seed as usize % 3];
                let capacity = if seed % 4 == 3 {
                    CapacityRule::Series {
                        h: 1 + (seed % 5) as u32,
                        of: 5,
                    }
                } else {
                    CapacityRule::Half
                };
                let k = Knapsack::generate(&GenerateOptions {
                    kind,
                    items,
                    range,
                    seed,
                    capacity,
                })
                .unwrap();
                let opt = k.optimum().unwrap();
                assert_eq!(
                    opt.int_value,
                    brute(&k),
                    "{kind} n={items} R={range} seed={seed}"
                );
                assert!(opt.int_weight <= k.int_capacity());
                assert_eq!(
                    k.value_and_weight(&opt.bits),
                    (opt.int_value, opt.int_weight)
                );
                count += 1;
            }
            for seed in 100..102u64 {
                let k = Knapsack::generate(&GenerateOptions {
                    kind,
                    items: 20,
                    range: 1000,
                    seed,
                    capacity: CapacityRule::Half,
                })
                .unwrap();
                assert_eq!(
                    k.optimum().unwrap().int_value,
                    brute(&k),
                    "{kind} n=20 seed={seed}"
                );
            }
        }
        assert_eq!(count, 200);
    }

    #[test]
    fn optimum_of_edge_cases() {
        // nothing fits
        let k = Knapsack::from_integers("t", &[5, 6], &[3, 4], 4).unwrap();
        let o = k.optimum().unwrap();
        assert_eq!((o.int_value, o.items.len()), (0, 0));
        // everything fits
        let k = Knapsack::from_integers("t", &[5, 6], &[3, 4], 100).unwrap();
        assert_eq!(k.int_capacity(), 11);
        assert_eq!(k.optimum().unwrap().items, vec![0, 1]);
        // zero profits
        let k = Knapsack::from_integers("t", &[1, 1], &[0, 0], 1).unwrap();
        assert_eq!(k.optimum().unwrap().int_value, 0);
        // capacity 0
        let k = Knapsack::from_integers("t", &[1], &[9], 0).unwrap();
        assert_eq!(k.optimum().unwrap().int_value, 0);
        // greedy is not optimal
        let k = Knapsack::from_integers("t", &[6, 5, 5], &[7, 5, 5], 10).unwrap();
        let o = k.optimum().unwrap();
        assert_eq!((o.int_value, o.items.clone()), (10, vec![1, 2]));
    }

    #[test]
    fn the_state_limit_is_an_error() {
        let k = Knapsack::generate(&GenerateOptions {
            kind: KnapsackKind::Uncorrelated,
            items: 200,
            range: 1_000_000,
            seed: 3,
            capacity: CapacityRule::Half,
        })
        .unwrap();
        match k.optimum_with_limit(2) {
            Err(Error::InvalidArgument {
                arg: "max_states", ..
            }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn scale_is_the_fewest_decimals() {
        let k = Knapsack::new("t", vec![1.5, 2.25], vec![3.0, 0.125], 2.9999).unwrap();
        assert_eq!((k.scale(), k.decimals()), (1000, 3));
        assert_eq!(k.int_weights(), &[1500, 2250]);
        assert_eq!(k.int_profits(), &[3000, 125]);
        assert_eq!(k.int_capacity(), 2999);
        let k = Knapsack::new("t", vec![2.0], vec![3.0], 1e300).unwrap();
        assert_eq!((k.scale(), k.int_capacity()), (1, 2));
        let e = Knapsack::new("t", vec![1e-10], vec![1.0], 1.0)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("weights") && e.contains("item 0") && e.contains("decimals"),
            "{e}"
        );
        let e = Knapsack::new("t", vec![1.0, 9.3e18], vec![1.0, 1.0], 1.0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("too large"), "{e}");
        for (w, p, c, needle) in [
            (vec![0.0], vec![1.0], 1.0, "weights"),
            (vec![f64::NAN], vec![1.0], 1.0, "weights"),
            (vec![1.0], vec![-1.0], 1.0, "profits"),
            (vec![1.0], vec![f64::INFINITY], 1.0, "profits"),
            (vec![1.0], vec![1.0], -1.0, "capacity"),
            (vec![], vec![], 1.0, "no items"),
            (vec![1.0], vec![1.0, 2.0], 1.0, "profits"),
        ] {
            let e = Knapsack::new("t", w, p, c).unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
    }

    #[test]
    fn both_formats_are_read_and_the_writer_round_trips() {
        let a =
            "# capacity\n673.8677805\n\n# weight price\n9.209064 14.209064\n2.279285 7.279285\n";
        let k = Knapsack::parse(a, Path::new("x/a.txt")).unwrap();
        assert_eq!(
            (k.name(), k.n(), k.scale(), k.int_capacity()),
            ("a", 2, 1_000_000, 11_488_349)
        );
        assert_eq!(k.int_weights(), &[9_209_064, 2_279_285]);
        assert_eq!(k.int_capacity(), 9_209_064 + 2_279_285);
        let back = Knapsack::parse(&k.to_text(), Path::new("a.txt")).unwrap();
        assert_eq!(back, k);
        assert!(k.to_text().contains("9.209064 14.209064\n"));
        let b = "\u{feff}3 10\r\n4 5\r\n# comment\n6 7\n\n5 5\n";
        let k = b.parse::<Knapsack>().unwrap();
        assert_eq!((k.n(), k.scale(), k.int_capacity()), (3, 1, 10));
        assert_eq!(k.int_profits(), &[5, 7, 5]);
        let back: Knapsack = k.to_text().parse().unwrap();
        assert_eq!(back, k);
        assert_eq!(
            k.to_text(),
            "# capacity\n10\n\n# weight price\n4 5\n6 7\n5 5\n"
        );
    }

    #[test]
    fn malformed_files_name_the_line() {
        for (text, line, needle) in [
            ("", 1, "no data"),
            ("# capacity\n", 1, "no data"),
            ("# c\n10\n", 2, "no items"),
            ("10\n1 2 3\n", 2, "found 3 values"),
            ("10\n1\n", 2, "found 1 values"),
            ("10\n1 x\n", 2, "profit `x` is not a number"),
            ("10\n1 2\n0 2\n", 3, "weight: 0 must be finite and > 0"),
            ("10\n1 2\n1 -2\n", 3, "profit"),
            ("10\n1 2\n1 inf\n", 3, "expected a finite number"),
            ("-1\n1 2\n", 1, "capacity"),
            ("nan\n1 2\n", 1, "capacity"),
            ("1 2 3\n", 1, "found 3 values"),
            ("2 10\n1 2\n", 2, "ends after 1 of the 2"),
            ("1 10\n1 2\n3 4\n", 3, "more items than the 1"),
            ("1.5 10\n1 2\n", 1, "not a whole number"),
            ("99999999999 10\n1 2\n", 1, "exceeds the maximum"),
            ("-1 10\n1 2\n", 1, "not a whole number"),
            ("0 10\n", 1, "no items"),
            ("10\n1 0.0000000001\n", 2, "decimals"),
            (
                "10\n5000000000000000000 1\n5000000000000000000 1\n",
                3,
                "too large",
            ),
        ] {
            match Knapsack::parse(text, Path::new("f.txt")) {
                Err(Error::Parse { line: l, msg, .. }) => {
                    assert_eq!(l, line, "{text:?}: {msg}");
                    assert!(msg.contains(needle), "{text:?}: {msg}");
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn generators_are_seeded_and_follow_their_class() {
        let g = |kind, seed| {
            Knapsack::generate(&GenerateOptions {
                kind,
                items: 300,
                range: 1000,
                seed,
                capacity: CapacityRule::Half,
            })
            .unwrap()
        };
        for kind in KnapsackKind::ALL {
            let k = g(kind, 5);
            assert_eq!(k, g(kind, 5));
            assert_ne!(k.int_weights(), g(kind, 6).int_weights());
            assert_eq!(k.int_capacity(), k.total_int_weight() / 2);
            for i in 0..k.n() {
                let (w, p) = (k.int_weights()[i], k.int_profits()[i]);
                match kind {
                    KnapsackKind::HanKim => {
                        assert!((1_000_000..10_000_000).contains(&w) && p == w + 5_000_000);
                        assert_eq!(k.scale(), 1_000_000);
                    }
                    KnapsackKind::Uncorrelated => {
                        assert!((1..=1000).contains(&w) && (1..=1000).contains(&p))
                    }
                    KnapsackKind::WeaklyCorrelated => {
                        assert!((1..=1000).contains(&w) && p >= 1 && p + 100 >= w && p <= w + 100)
                    }
                    KnapsackKind::StronglyCorrelated => assert_eq!(p, w + 100),
                    KnapsackKind::SubsetSum => assert_eq!(p, w),
                }
            }
            assert_eq!(kind.name().parse::<KnapsackKind>().unwrap(), kind);
        }
        let k = Knapsack::generate(&GenerateOptions {
            kind: KnapsackKind::SubsetSum,
            items: 10,
            range: 100,
            seed: 1,
            capacity: CapacityRule::Series { h: 3, of: 4 },
        })
        .unwrap();
        assert_eq!(k.int_capacity(), k.total_int_weight() * 3 / 5);
        for bad in [
            GenerateOptions {
                items: 0,
                ..Default::default()
            },
            GenerateOptions {
                kind: KnapsackKind::Uncorrelated,
                range: 0,
                ..Default::default()
            },
            GenerateOptions {
                capacity: CapacityRule::Series { h: 0, of: 3 },
                ..Default::default()
            },
            GenerateOptions {
                capacity: CapacityRule::Series { h: 4, of: 3 },
                ..Default::default()
            },
        ] {
            assert!(Knapsack::generate(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn ratio_order_is_exact_with_ties_by_index() {
        // 3/2 = 6/4 > 1/1 > 2/3; 10^18-scale values that f64 ratios would tie
        let k = Knapsack::from_integers("t", &[3, 2, 4, 1, 3], &[2, 3, 6, 1, 2], 5).unwrap();
        assert_eq!(k.ratio_order(), &[1, 2, 3, 0, 4]);
        let w = [1u64 << 53, (1 << 53) - 1];
        let p = [(1u64 << 53) - 1, (1 << 53) - 2];
        // (2^53-1)/2^53 vs (2^53-2)/(2^53-1): the first is larger
        assert_eq!(ratio_order_of(&w, &p), vec![0, 1]);
        assert_eq!(ratio_order_of(&[w[1], w[0]], &[p[1], p[0]]), vec![1, 0]);
    }

    /// The repair, in index order, on every bit string of small instances: against a direct
    /// transcription of QIGA.md.
    #[test]
    fn repair_exhaustive_against_the_rule() {
        let w = [3u64, 5, 2, 7, 1, 4];
        for c in [0u64, 1, 4, 7, 10, 22, 30] {
            for mask in 0u32..64 {
                let mut bits: Vec<u8> = (0..6)
                    .map(|i| ((mask >> i) & 1) as u8 * (1 + i as u8))
                    .collect();
                let x: Vec<bool> = bits.iter().map(|&b| b != 0).collect();
                let got = repair_bits(&mut bits, &w, c, 0..6, 0..6);
                // the rule, spelled out
                let mut y = x.clone();
                let mut tw: u64 = (0..6).filter(|&i| y[i]).map(|i| w[i]).sum();
                let mut i = 0;
                while tw > c {
                    if y[i] {
                        y[i] = false;
                        tw -= w[i];
                    }
                    i += 1;
                }
                for i in 0..6 {
                    if !y[i] {
                        if tw + w[i] > c {
                            break;
                        }
                        y[i] = true;
                        tw += w[i];
                    }
                }
                let want: Vec<u8> = y.iter().map(|&b| u8::from(b)).collect();
                assert_eq!(bits, want, "mask {mask:06b} C {c}");
                assert_eq!(got, tw);
                assert!(got <= c);
            }
        }
    }

    #[test]
    fn repair_cases() {
        let k = Knapsack::from_integers("t", &[4, 3, 2, 5], &[4, 6, 1, 10], 9).unwrap();
        // ratio order: 3 (2.0), 1 (2.0), 0 (1.0), 2 (0.5); ties 1,3 by index -> 1, 3
        assert_eq!(k.ratio_order(), &[1, 3, 0, 2]);
        let run = |bits: &[u8], mode| {
            let mut b = bits.to_vec();
            let r = k.repair(&mut b, mode).unwrap();
            (b, r)
        };
        // empty: the fill in index order adds 0 (4), 1 (7), then 2 (9), stops at 3
        assert_eq!(
            run(&[0, 0, 0, 0], RepairMode::Index),
            (vec![1, 1, 1, 0], (11, 9))
        );
        // full: removal of 0 (14 -> 10), 1 (-> 7); fill: 0 would give 11 > 9: stop
        assert_eq!(
            run(&[1, 1, 1, 1], RepairMode::Index),
            (vec![0, 0, 1, 1], (11, 7))
        );
        // exact capacity: untouched
        assert_eq!(
            run(&[1, 0, 0, 1], RepairMode::Index),
            (vec![1, 0, 0, 1], (14, 9))
        );
        // the fill stops at the first that does not fit, although a later one would
        assert_eq!(
            run(&[0, 0, 0, 1], RepairMode::Index),
            (vec![1, 0, 0, 1], (14, 9))
        );
        assert_eq!(
            run(&[0, 1, 0, 1], RepairMode::Index),
            (vec![0, 1, 0, 1], (16, 8))
        );
        // everything fits
        let all = Knapsack::from_integers("t", &[1, 2], &[1, 1], 3).unwrap();
        let mut b = vec![0, 1];
        assert_eq!(all.repair(&mut b, RepairMode::Index).unwrap(), (2, 3));
        assert_eq!(b, vec![1, 1]);
        // greedy: removal from the worst ratio (2, 0, 3, 1), fill from the best (1, 3, 0, 2)
        assert_eq!(
            run(&[1, 1, 1, 1], RepairMode::Greedy),
            (vec![0, 1, 0, 1], (16, 8))
        );
        assert_eq!(
            run(&[0, 0, 0, 0], RepairMode::Greedy),
            (vec![0, 1, 0, 1], (16, 8))
        );
        assert_eq!(
            run(&[1, 0, 1, 0], RepairMode::Greedy),
            (vec![1, 1, 1, 0], (11, 9))
        );
        // a given order, the same for both phases
        let order = [3, 2, 1, 0];
        assert_eq!(
            run(&[1, 1, 1, 1], RepairMode::Order(&order)),
            (vec![1, 1, 1, 0], (11, 9))
        );
        assert_eq!(
            run(&[0, 0, 0, 0], RepairMode::Order(&order)),
            (vec![0, 0, 1, 1], (11, 7))
        );
        // errors
        assert!(k.repair(&mut [0, 0, 0], RepairMode::Index).is_err());
        assert!(k
            .repair(&mut [0; 4], RepairMode::Order(&[0, 1, 2]))
            .is_err());
        assert!(k
            .repair(&mut [0; 4], RepairMode::Order(&[0, 1, 2, 2]))
            .is_err());
        assert!(k
            .repair(&mut [0; 4], RepairMode::Order(&[0, 1, 2, 4]))
            .is_err());
        assert!(k.feasible(&[1, 0, 0, 1]) && !k.feasible(&[1, 1, 0, 1]));
    }
}
