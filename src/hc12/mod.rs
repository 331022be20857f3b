//! HC12: hill climbing over Gray-coded bit strings, whose whole Hamming-1 and -2 (and optionally
//! -3) neighbourhood is evaluated at once (thesis 000, section 2.2).
//!
//! One engine: this module holds the neighbourhood (closed-form mask rows, as `cl/hc12.cl`),
//! Gray coding and the [`Landscape`] trait; `climb.rs` is the only climb loop, `restarts.rs` the
//! only restart driver (its stop is a `run::Stop`), `rows.rs` the only device row-search launcher,
//! `tabu.rs` the tabu list. `general/`, `qap/` and `sat/` are the landscapes.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`climb`] | the only climb loop, for every landscape |
//! | [`restarts`] | the only restart driver, its stop checks and its checkpoints ([`restarts::Course`]) |
//! | [`rows`] | the only device row search (`hc12_select` of `cl/hc12.cl`) |
//! | [`tabu`] | the tabu list, on the device and the CPU |
//! | [`general`] | the landscape of functions of binary, integer or real parameters |
//! | [`qap`] | the landscape of QAP permutations (qapswap2) |
//! | [`sat`] | the landscape of SAT assignments |

/// The value methods of a [`Landscape`] whose values are counts to minimise (`Value = i64`):
/// lower is better, and a count is compared with a limit as a float.
macro_rules! minimised_count {
    () => {
        fn better(&self, a: i64, b: i64) -> bool {
            a < b
        }

        fn better_than_limit(&self, v: i64, limit: f64) -> bool {
            (v as f64) < limit
        }

        fn as_f64(&self, v: i64) -> f64 {
            v as f64
        }
    };
}

pub mod climb;
pub mod general;
pub mod qap;
pub mod restarts;
pub mod rows;
pub mod sat;
pub mod tabu;

use crate::error::{Error, Result};

/// How the tabu list takes part in one row search (the policy is `climb.rs`'s).
#[derive(Clone, Copy, Debug, Default)]
pub struct TabuQuery<V> {
    /// Put the current string on the list before the search (only the string moved to is ever
    /// listed, never the whole neighbourhood).
    pub insert: bool,
    /// Rows whose string is listed get the worst value.
    pub check: bool,
    /// A listed row that beats `best` may still win.
    pub aspiration: bool,
    /// The run's best value so far.
    pub best: V,
    /// Row searches made in this run so far (a landscape's own clock, e.g. SAT's tenure).
    pub iteration: u32,
}

impl<V> TabuQuery<V> {
    /// A row search the tabu list takes no part in (no insert, no check, no aspiration).
    pub(crate) fn plain(best: V, iteration: u32) -> Self {
        TabuQuery {
            insert: false,
            check: false,
            aspiration: false,
            best,
            iteration,
        }
    }
}

/// What a climb needs of a problem: a current string with its value, the best allowed row of
/// its neighbourhood, and moves. `climb.rs` and `restarts.rs` drive every landscape.
pub trait Landscape {
    /// A string's value; lower or higher is better as [`Landscape::better`] says.
    type Value: Copy + std::fmt::Debug;
    /// Where a run starts.
    type Start;
    /// The run's best as the caller gets it (the string and what the problem makes of it).
    type Best: Clone;
    /// The time limit is checked before every iteration (now for every landscape: `restarts.rs`
    /// always passes the deadline to the climb); kept for landscapes that still name it.
    const TIME_EACH_ITERATION: bool = true;

    /// Makes `start` the current string; returns the rows evaluated to value it (0 when the
    /// host computes the value).
    fn start_run(&mut self, start: Self::Start) -> Result<u64>;
    /// Empties the tabu list (made with `cfg`'s capacity when it has another).
    fn reset_tabu(&mut self, cfg: &crate::hc12::tabu::TabuConfig) -> Result<()>;
    /// Rows of the neighbourhood (evaluated per search).
    fn rows(&self) -> u64;
    /// The best row under `q`: (its value, row), ties to the lowest row.
    fn best_row(&mut self, q: &TabuQuery<Self::Value>) -> Result<(Self::Value, u64)>;
    /// Whether the value the search returned means that every row was excluded.
    fn excluded(&self, value: Self::Value, tabu_checked: bool) -> bool;
    /// Moves the current string by `row`, whose value the search gave; `iteration` counts the
    /// searches made, this one included.
    fn apply_row(&mut self, row: u64, value: Self::Value, iteration: u32) -> Result<()>;
    /// The current value.
    fn current(&self) -> Self::Value;
    /// The current string as a run's best.
    fn best_so_far(&self) -> Self::Best;
    /// `a` strictly better than `b`.
    fn better(&self, a: Self::Value, b: Self::Value) -> bool;
    /// `v` better than the activation limit (below it when minimising).
    fn better_than_limit(&self, v: Self::Value, limit: f64) -> bool;
    /// The value as a number (targets are compared as `as_f64(best) <= target`).
    fn as_f64(&self, v: Self::Value) -> f64;
    /// The deadline of the climb to come (set after `start_run`): a device row search cuts
    /// itself into launches and stops at it (`rows.rs`), so one climb step cannot outlast it.
    fn set_deadline(&mut self, _deadline: Option<std::time::Instant>) {}
    /// The landscape's own target is reached (checked before every iteration).
    fn reached_target(&self) -> bool {
        false
    }
}

/// Binomial coefficient C(n, k) for k <= 3.
pub fn choose(n: u64, k: u32) -> u64 {
    match k {
        0 => 1,
        1 => n,
        2 => {
            if n < 2 {
                0
            } else {
                n * (n - 1) / 2
            }
        }
        3 => {
            if n < 3 {
                0
            } else {
                n * (n - 1) * (n - 2) / 6
            }
        }
        _ => unreachable!("mask order above 3"),
    }
}

/// Gray code to binary for a word of up to 32 bits.
pub fn gray_to_binary(mut g: u32) -> u32 {
    g ^= g >> 16;
    g ^= g >> 8;
    g ^= g >> 4;
    g ^= g >> 2;
    g ^= g >> 1;
    g
}

/// Binary to Gray code.
pub fn binary_to_gray(b: u32) -> u32 {
    b ^ (b >> 1)
}

/// The neighbourhood of HC12: the mask rows inside a window of the bit string, with every
/// parameter on `nbit` bits, most significant bit first (string bit b is value bit
/// `nbit - 1 - b % nbit` of parameter `b / nbit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Neighbourhood {
    pub n_param: u32,
    pub nbit: u32,
    pub mask_order: u32,
    pub start_bit: u32,
    pub bit_length: u32,
    pub rows: u64,
}

impl Neighbourhood {
    /// `bit_length` 0 means the rest of the string from `start_bit`; a negative `start_bit` or
    /// `bit_length` is an error naming it (`startBit`, `bitLength`), as is a window past the end.
    pub fn new(
        n_param: u32,
        nbit: u32,
        mask_order: u32,
        start_bit: i64,
        bit_length: i64,
    ) -> Result<Self> {
        if !(1..=32).contains(&nbit) {
            return Err(Error::arg(
                "nBitParam",
                format!("{nbit} bits per parameter; expected 1..32"),
            ));
        }
        if !(1..=3).contains(&mask_order) {
            return Err(Error::arg(
                "maskOrder",
                format!("{mask_order}; expected 1, 2 or 3"),
            ));
        }
        let total = n_param as i64 * nbit as i64;
        if start_bit < 0 || start_bit >= total {
            return Err(Error::arg(
                "startBit",
                format!(
                    "{start_bit}; the string has {total} bits (0..{})",
                    total - 1
                ),
            ));
        }
        if bit_length < 0 {
            // once silently "to the end" like 0: a negative length is a caller's error
            return Err(Error::arg("bitLength", format!("{bit_length}; expected 0 (to the end of the string) or a length of at least 1 bit")));
        }
        let bit_length = if bit_length == 0 {
            total - start_bit
        } else {
            bit_length
        };
        if start_bit + bit_length > total {
            return Err(Error::arg(
                "bitLength",
                format!("window {start_bit}+{bit_length} exceeds the string's {total} bits"),
            ));
        }
        let rows: u64 = (0..=mask_order).map(|h| choose(bit_length as u64, h)).sum();
        if rows >= u32::MAX as u64 {
            return Err(Error::arg(
                "maskOrder",
                format!(
                    "{rows} rows (window of {bit_length} bits, order {mask_order}) exceed 2^32-1"
                ),
            ));
        }
        Ok(Neighbourhood {
            n_param,
            nbit,
            mask_order,
            start_bit: start_bit as u32,
            bit_length: bit_length as u32,
            rows,
        })
    }

    /// Total length of the string in bits.
    pub fn string_bits(&self) -> u32 {
        self.n_param * self.nbit
    }

    /// The string bits set in mask row `row` (0 to 3 of them), as `hc12_row_bits` in the kernel.
    pub fn row_bits(&self, row: u64) -> ([u32; 3], usize) {
        let mut bits = [0u32; 3];
        if row == 0 {
            return (bits, 0);
        }
        let n = self.bit_length as u64;
        let s = self.start_bit;
        let mut t = row - 1;
        if t < n {
            bits[0] = s + t as u32;
            return (bits, 1);
        }
        t -= n;
        if self.mask_order >= 2 && t < choose(n, 2) {
            let (i, j) = unrank_pair(t, n);
            bits[0] = s + i as u32;
            bits[1] = s + j as u32;
            return (bits, 2);
        }
        t -= choose(n, 2);
        let mut i = 0u64;
        while t >= choose(n - 1 - i, 2) {
            t -= choose(n - 1 - i, 2);
            i += 1;
        }
        let (j, k) = unrank_pair(t, n - 1 - i);
        bits[0] = s + i as u32;
        bits[1] = s + (i + 1 + j) as u32;
        bits[2] = s + (i + 1 + k) as u32;
        (bits, 3)
    }

    /// XORs mask row `row` into the string `k` (one parameter per word).
    pub fn apply_row(&self, k: &mut [u32], row: u64) {
        let (bits, h) = self.row_bits(row);
        for &b in &bits[..h] {
            k[(b / self.nbit) as usize] ^= 1 << (self.nbit - 1 - b % self.nbit);
        }
    }

    /// Checks a user-given string: right length, no bits above `nbit`.
    pub fn check_string(&self, k: &[u32], arg: &'static str) -> Result<()> {
        if k.len() != self.n_param as usize {
            return Err(Error::arg(
                arg,
                format!(
                    "{} words; expected {} (one per parameter)",
                    k.len(),
                    self.n_param
                ),
            ));
        }
        if self.nbit < 32 {
            if let Some((p, v)) = k.iter().enumerate().find(|(_, v)| **v >> self.nbit != 0) {
                return Err(Error::arg(
                    arg,
                    format!(
                        "word {p} = {v} has bits above the {} bits of a parameter",
                        self.nbit
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Pair number t (lexicographic) of the pairs i < j from 0..n.
fn unrank_pair(t: u64, n: u64) -> (u64, u64) {
    // S(i) = i*n - i*(i+1)/2 pairs start below i; take the largest i with S(i) <= t
    let s = |i: u64| i * n - i * (i + 1) / 2;
    let b = 2.0 * n as f64 - 1.0;
    let mut i = ((b - (b * b - 8.0 * t as f64).max(0.0).sqrt()) / 2.0)
        .floor()
        .max(0.0) as u64;
    i = i.min(n.saturating_sub(2));
    while i > 0 && s(i) > t {
        i -= 1;
    }
    while s(i + 1) <= t {
        i += 1;
    }
    (i, t - s(i) + i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows in the documented order, by enumeration.
    fn enumerate_rows(n: u32, order: u32, start: u32) -> Vec<Vec<u32>> {
        let mut rows = vec![vec![]];
        for i in 0..n {
            rows.push(vec![start + i]);
        }
        if order >= 2 {
            for i in 0..n {
                for j in i + 1..n {
                    rows.push(vec![start + i, start + j]);
                }
            }
        }
        if order >= 3 {
            for i in 0..n {
                for j in i + 1..n {
                    for k in j + 1..n {
                        rows.push(vec![start + i, start + j, start + k]);
                    }
                }
            }
        }
        rows
    }

    #[test]
    fn closed_form_rows_match_enumeration() {
        for (params, nbit, order, start, len) in [
            (4, 5, 3, 0, 0),
            (30, 8, 2, 0, 0),
            (6, 4, 3, 3, 11),
            (2, 1, 2, 0, 0),
        ] {
            let nb = Neighbourhood::new(params, nbit, order, start, len).unwrap();
            let want = enumerate_rows(nb.bit_length, order, nb.start_bit);
            assert_eq!(nb.rows, want.len() as u64);
            for (r, w) in want.iter().enumerate() {
                let (bits, h) = nb.row_bits(r as u64);
                assert_eq!(&bits[..h], &w[..], "row {r}");
            }
        }
    }

    #[test]
    fn tho150_row_count() {
        // tho150 with 15 swaps: 30 parameters x 8 bits, 28921 rows
        assert_eq!(Neighbourhood::new(30, 8, 2, 0, 0).unwrap().rows, 28921);
    }

    #[test]
    fn gray_round_trip() {
        for v in (0..1u32 << 16).chain([u32::MAX, 0x8000_0000, 0x1234_5678]) {
            assert_eq!(gray_to_binary(binary_to_gray(v)), v);
        }
    }

    #[test]
    fn bad_windows_are_errors() {
        assert!(Neighbourhood::new(4, 4, 4, 0, 0).is_err());
        assert!(Neighbourhood::new(4, 4, 2, 16, 0).is_err());
        assert!(Neighbourhood::new(4, 4, 2, -1, 0).is_err());
        assert!(Neighbourhood::new(4, 4, 2, 0, -1)
            .unwrap_err()
            .to_string()
            .contains("bitLength"));
        assert!(Neighbourhood::new(4, 4, 2, 4, 13).is_err());
        assert!(Neighbourhood::new(4, 0, 2, 0, 0).is_err());
        let e = Neighbourhood::new(4, 4, 0, 0, 0).unwrap_err().to_string();
        assert!(e.contains("maskOrder"), "{e}");
    }
}
