//! QAPLIB instances and their files: the `.dat` reader, published `.sln` solutions (with the
//! conventions of `sln_conventions.csv`), best-known values (`BKS.csv`) and permutation text.
//! The conventions are those of the module's documentation (`src/problem/qap/mod.rs`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::perm::check_perm;
use crate::error::{Error, Result};

/// Largest instance size the library accepts: the robust tabu search's bound (16-bit permutation
/// entries, per-chain matrices of n^2 entries). QAPLIB's largest instance (tai256c) has n = 256;
/// layout problems and generated instances are larger. HC12 has a lower bound of its own
/// (`crate::hc12::qap::MAX_N`).
pub const MAX_N: usize = 2048;

/// A QAP instance: `n` facilities, `n` locations, flow/distance matrices `a` and `b` (row-major,
/// `n * n` each).
///
/// Build it with [`QapInstance::new`], [`QapInstance::from_dat`] or [`QapInstance::parse_dat`],
/// which guarantee `1 <= n <= MAX_N` and `a.len() == b.len() == n * n`. The fields are public for
/// cheap read access; the methods assume that invariant and may panic if a caller breaks it by
/// editing the fields directly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QapInstance {
    /// Instance name (the file stem for instances read from a file).
    pub name: String,
    /// Number of facilities and locations.
    pub n: usize,
    /// First matrix of the `.dat` file, indexed by facilities.
    pub a: Vec<i64>,
    /// Second matrix of the `.dat` file, indexed by locations.
    pub b: Vec<i64>,
}

impl QapInstance {
    /// Builds an instance after checking its shape, so that the rest of the library can index the
    /// matrices without checks.
    ///
    /// Errors name the offending argument: `n` (0 or larger than [`MAX_N`]), `a` or `b` (length
    /// other than `n * n`).
    pub fn new(name: impl Into<String>, n: usize, a: Vec<i64>, b: Vec<i64>) -> Result<Self> {
        if n == 0 {
            return Err(Error::arg("n", "the instance size must be at least 1"));
        }
        if n > MAX_N {
            return Err(Error::arg(
                "n",
                format!("the instance size {n} exceeds the maximum {MAX_N}"),
            ));
        }
        let nn = n * n;
        if a.len() != nn {
            return Err(Error::arg(
                "a",
                format!("expected n*n = {nn} values for n = {n}, got {}", a.len()),
            ));
        }
        if b.len() != nn {
            return Err(Error::arg(
                "b",
                format!("expected n*n = {nn} values for n = {n}, got {}", b.len()),
            ));
        }
        Ok(QapInstance {
            name: name.into(),
            n,
            a,
            b,
        })
    }

    /// The instance as the text of a QAPLIB `.dat` file: `n`, a blank line, `A` one row per line,
    /// a blank line, `B` ([`parse_dat`](Self::parse_dat) reads it back).
    pub fn to_dat(&self) -> String {
        use std::fmt::Write;
        let n = self.n;
        let mut s = String::with_capacity(16 + 2 * n * n * 4);
        let _ = writeln!(s, "{n}");
        for m in [&self.a, &self.b] {
            s.push('\n');
            for row in m.chunks(n) {
                for (j, v) in row.iter().enumerate() {
                    if j > 0 {
                        s.push(' ');
                    }
                    let _ = write!(s, "{v}");
                }
                s.push('\n');
            }
        }
        s
    }

    /// Reads a QAPLIB `.dat` file; the instance is named after the file stem (`nug12.dat` → `nug12`).
    pub fn from_dat(path: &Path) -> Result<Self> {
        let text = read_text(path)?;
        Self::parse_dat(&text, path)
    }

    /// Parses the text of a QAPLIB `.dat` file: `n`, then `A` (n×n), then `B` (n×n), as
    /// whitespace-separated integers in any line layout.
    ///
    /// `path` only labels errors and gives the name (its file stem; empty if it has none), so text
    /// that did not come from a file can still produce useful messages. Anything after the two
    /// matrices is an error rather than being ignored: a stray number almost always means the
    /// file is not what the reader thinks (for example a copy with the best-known value added on
    /// line 1, which shifts every matrix entry by one).
    pub fn parse_dat(text: &str, path: &Path) -> Result<Self> {
        let mut toks = Tokens::new(text, false);
        let (n_line, n_tok) = match toks.next() {
            Some(t) => t,
            None => {
                return Err(Error::parse(
                    path,
                    toks.eof_line(),
                    "empty file: expected the instance size n",
                ))
            }
        };
        let n = parse_size(n_tok).map_err(|m| Error::parse(path, n_line, m))?;
        let nn = n * n;
        let total = 2 * nn;
        // reserve no more than the file can hold (each value takes at least two characters)
        let mut values = Vec::with_capacity(total.min(text.len() / 2 + 1));
        let mut second_token_line = None;
        for k in 0..total {
            let (line, tok) = match toks.next() {
                Some(t) => t,
                None => {
                    let (m, r, c) = matrix_position(k, n);
                    return Err(Error::parse(
                        path,
                        toks.eof_line(),
                        format!(
                            "unexpected end of file in matrix {m} at row {r}, column {c}: expected \
                             2*n*n = {total} matrix values after n = {n}, found {k}"
                        ),
                    ));
                }
            };
            second_token_line.get_or_insert(line);
            let v = parse_int(tok).map_err(|msg| {
                let (m, r, c) = matrix_position(k, n);
                Error::parse(
                    path,
                    line,
                    format!("matrix {m}, row {r}, column {c}: {msg}"),
                )
            })?;
            values.push(v);
        }
        if let Some((line, tok)) = toks.next() {
            let extra = 1 + toks.count();
            let mut msg = format!(
                "{extra} extra value(s) after the two {n}x{n} matrices (first: `{}`); expected \
                 exactly 1 + 2*n*n = {} numbers",
                shorten(tok),
                1 + total
            );
            if second_token_line == Some(n_line) {
                msg.push_str(&format!(
                    "; note that line {n_line} holds more than n (a second header value, such as a \
                     best-known objective, is not part of the QAPLIB format)"
                ));
            }
            return Err(Error::parse(path, line, msg));
        }
        let b = values.split_off(nn);
        Ok(QapInstance {
            name: file_stem(path).unwrap_or_default(),
            n,
            a: values,
            b,
        })
    }

    /// The optimum by enumerating every permutation (Heap's algorithm): an exact reference for
    /// tests of bounds and solvers. None above 12 facilities (12! = 479 M permutations).
    pub fn optimum_by_enumeration(&self) -> Option<i64> {
        let n = self.n;
        if n > 12 {
            return None;
        }
        let mut p: Vec<usize> = (0..n).collect();
        let mut c = vec![0usize; n];
        let mut best = self.cost(&p);
        let mut i = 0;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    p.swap(0, i);
                } else {
                    p.swap(c[i], i);
                }
                best = best.min(self.cost(&p));
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        Some(best)
    }

    /// Objective value of `perm` (0-based, direct): `sum_{i,j} A[i][j] * B[perm[i]][perm[j]]`.
    ///
    /// This is the general form, correct for asymmetric matrices and non-zero diagonals; it is the
    /// reference that faster forms are tested against. Arithmetic wraps on `i64` overflow.
    ///
    /// # Panics
    /// If `perm.len() != n` or an entry is `>= n`. Validate untrusted permutations with
    /// [`QapInstance::check_permutation`] first.
    pub fn cost(&self, perm: &[usize]) -> i64 {
        let n = self.n;
        assert_eq!(
            perm.len(),
            n,
            "permutation length {} differs from the instance size {n}",
            perm.len()
        );
        let mut sum = 0i64;
        for (i, &pi) in perm.iter().enumerate() {
            let arow = &self.a[i * n..(i + 1) * n];
            let brow = &self.b[pi * n..(pi + 1) * n];
            for (&aij, &pj) in arow.iter().zip(perm) {
                sum = sum.wrapping_add(aij.wrapping_mul(brow[pj]));
            }
        }
        sum
    }

    /// Whether both matrices are symmetric with a zero diagonal, i.e. whether
    /// [`QapInstance::cost_symmetric`] gives the true cost. Note that tai64c and tai256c are
    /// symmetric but have non-zero diagonals, so this is `false` for them.
    pub fn is_symmetric(&self) -> bool {
        fn sym_zero_diag(m: &[i64], n: usize) -> bool {
            (0..n).all(|i| m[i * n + i] == 0 && (0..i).all(|j| m[i * n + j] == m[j * n + i]))
        }
        sym_zero_diag(&self.a, self.n) && sym_zero_diag(&self.b, self.n)
    }

    /// `2 * sum_{i<j} A[i][j] * B[perm[i]][perm[j]]`: half the multiplications of
    /// [`QapInstance::cost`], and the form the thesis uses for symmetric instances. It equals
    /// `cost(perm)` only when [`QapInstance::is_symmetric`] holds; on other instances the value is
    /// meaningless. Arithmetic wraps on overflow.
    ///
    /// # Panics
    /// Under the same conditions as [`QapInstance::cost`].
    pub fn cost_symmetric(&self, perm: &[usize]) -> i64 {
        let n = self.n;
        assert_eq!(
            perm.len(),
            n,
            "permutation length {} differs from the instance size {n}",
            perm.len()
        );
        let mut sum = 0i64;
        for (i, &pi) in perm.iter().enumerate() {
            let arow = &self.a[i * n + i + 1..(i + 1) * n];
            let brow = &self.b[pi * n..(pi + 1) * n];
            for (&aij, &pj) in arow.iter().zip(&perm[i + 1..]) {
                sum = sum.wrapping_add(aij.wrapping_mul(brow[pj]));
            }
        }
        sum.wrapping_mul(2)
    }

    /// Checks that `perm` is a 0-based permutation of this instance's size, so that it can be
    /// passed to [`QapInstance::cost`] without a panic. Errors name the argument `permutation`.
    pub fn check_permutation(&self, perm: &[usize]) -> Result<()> {
        check_perm(perm, self.n, "permutation")
    }
}

/// How one published `.sln` file is to be read (one row of `sln_conventions.csv`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlnConvention {
    /// Instance name, e.g. `tai40a`.
    pub instance: String,
    /// Instance size.
    pub n: usize,
    /// Smallest permutation entry in the file: 1 for almost all files, 0 for tai40a.
    pub base: usize,
    /// Whether the file holds the inverse of the direct permutation.
    pub inverse: bool,
    /// The value on line 1 of the `.sln` file.
    pub header_value: i64,
    /// The value obtained by evaluating the permutation under this convention (the data
    /// curators' check; equal to `header_value` for every shared file).
    pub evaluated_value: i64,
}

#[derive(Deserialize)]
struct ConventionRow {
    instance: String,
    n: usize,
    perm_base: usize,
    perm_convention: String,
    header_value: i64,
    evaluated_value: i64,
}

/// Reads `sln_conventions.csv` (columns `instance,n,perm_base,perm_convention,header_value,
/// evaluated_value,note`) into a map keyed by instance name.
///
/// `perm_convention` must be `direct` or `inverse` and `perm_base` 0 or 1: anything else is far
/// more likely a typo than a new convention, and silently guessing would give wrong costs.
/// A repeated instance is an error for the same reason.
pub fn read_sln_conventions(path: &Path) -> Result<HashMap<String, SlnConvention>> {
    parse_sln_conventions(&read_bytes(path)?, path)
}

/// Parses the bytes of a `sln_conventions.csv` file as [`read_sln_conventions`] reads it; `path`
/// only labels errors.
pub fn parse_sln_conventions(bytes: &[u8], path: &Path) -> Result<HashMap<String, SlnConvention>> {
    let mut map = HashMap::new();
    for_each_csv_row(bytes, path, |row: ConventionRow| {
        let inverse = match row.perm_convention.to_ascii_lowercase().as_str() {
            "direct" => false,
            "inverse" => true,
            other => {
                return Err(format!(
                    "perm_convention of `{}` must be `direct` or `inverse`, found `{}`",
                    row.instance,
                    shorten(other)
                ))
            }
        };
        if row.perm_base > 1 {
            return Err(format!(
                "perm_base of `{}` must be 0 or 1, found {}",
                row.instance, row.perm_base
            ));
        }
        let conv = SlnConvention {
            instance: row.instance.clone(),
            n: row.n,
            base: row.perm_base,
            inverse,
            header_value: row.header_value,
            evaluated_value: row.evaluated_value,
        };
        insert_unique(&mut map, row.instance, conv)
    })?;
    Ok(map)
}

/// A published solution, normalised: `perm` is 0-based and direct whatever the file's convention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QapSolution {
    /// Instance size from the file's header.
    pub n: usize,
    /// Objective value from the file's header (not recomputed: there is no instance here).
    pub value: i64,
    /// The permutation, 0-based, direct convention.
    pub perm: Vec<usize>,
}

/// Reads a QAPLIB `.sln` file (`n value`, then `n` permutation entries separated by whitespace
/// or commas, in any line layout) whose entries start at `base` and, if `inverse`, hold the
/// inverse permutation. The result is converted to 0-based, direct form.
///
/// Errors name the file and line: a non-integer, an entry out of range or repeated, too few or
/// too many entries.
pub fn read_sln(path: &Path, base: usize, inverse: bool) -> Result<QapSolution> {
    let text = read_text(path)?;
    parse_sln(&text, path, base, inverse)
}

/// Reads `NAME.sln` under its recorded convention: the first `sln_conventions.csv` found in the
/// file's folder or that folder's parent that has a row for `NAME` gives base and direction;
/// without one the QAPLIB default (1-based, direct) applies.
///
/// The parent is searched too because the shared data keep solutions in `qaplib/sln/` and the
/// conventions file in `qaplib/`. A conventions file that exists but is malformed is an error, not
/// a reason to fall back to the default, and so is a header `n` that disagrees with the row.
pub fn read_sln_auto(path: &Path) -> Result<QapSolution> {
    let name = file_stem(path);
    if let Some(name) = &name {
        let dir = path.parent().unwrap_or(Path::new(""));
        for d in [Some(dir), dir.parent()].into_iter().flatten() {
            let csv_path = d.join("sln_conventions.csv");
            if !csv_path.is_file() {
                continue;
            }
            let convs = read_sln_conventions(&csv_path)?;
            if let Some(c) = convs.get(name) {
                let sol = read_sln(path, c.base, c.inverse)?;
                if sol.n != c.n {
                    return Err(Error::parse(
                        path,
                        1,
                        format!(
                            "n = {} but {} records n = {} for `{name}`",
                            sol.n,
                            csv_path.display(),
                            c.n
                        ),
                    ));
                }
                return Ok(sol);
            }
        }
    }
    read_sln(path, 1, false)
}

/// Best-known value of one instance (one row of `BKS.csv`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bks {
    /// Instance name, e.g. `nug12`.
    pub instance: String,
    /// Instance size.
    pub n: usize,
    /// Best-known objective value.
    pub bks: i64,
    /// Whether the value is known to be optimal. `false` means "not asserted", not "not optimal".
    pub optimal_proven: bool,
}

#[derive(Deserialize)]
struct BksRow {
    instance: String,
    n: usize,
    bks: i64,
    #[serde(default)]
    optimal_proven: String,
}

/// Reads `BKS.csv` (columns `instance,n,bks,optimal_proven`) into a map keyed by instance name.
///
/// `optimal_proven` may be blank, `0`/`1`, `true`/`false` or `yes`/`no`; a blank (or a missing
/// column) means the value is not asserted optimal.
pub fn read_bks_csv(path: &Path) -> Result<HashMap<String, Bks>> {
    parse_bks_csv(&read_bytes(path)?, path)
}

/// Parses the bytes of a `BKS.csv` file as [`read_bks_csv`] reads it; `path` only labels errors.
pub fn parse_bks_csv(bytes: &[u8], path: &Path) -> Result<HashMap<String, Bks>> {
    let mut map = HashMap::new();
    for_each_csv_row(bytes, path, |row: BksRow| {
        let optimal_proven = match row.optimal_proven.to_ascii_lowercase().as_str() {
            "" | "0" | "false" | "no" => false,
            "1" | "true" | "yes" => true,
            other => {
                return Err(format!(
                    "optimal_proven of `{}` must be blank, 0 or 1, found `{}`",
                    row.instance,
                    shorten(other)
                ))
            }
        };
        let bks = Bks {
            instance: row.instance.clone(),
            n: row.n,
            bks: row.bks,
            optimal_proven,
        };
        insert_unique(&mut map, row.instance, bks)
    })?;
    Ok(map)
}

/// Relative gap of `cost` to the best-known value, in percent.
pub fn gap_percent(cost: f64, bks: f64) -> f64 {
    if bks == 0.0 {
        if cost == 0.0 {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        100.0 * (cost - bks) / bks.abs()
    }
}

/// Best-known value for the instance at `dat_path`, from `BKS.csv` in the same folder.
///
/// `Ok(None)` when there is no such file or it has no row for the instance (the file stem); an
/// error when the file exists but is malformed.
pub fn find_bks(dat_path: &Path) -> Result<Option<Bks>> {
    let Some(name) = file_stem(dat_path) else {
        return Ok(None);
    };
    let csv_path = dat_path.parent().unwrap_or(Path::new("")).join("BKS.csv");
    if !csv_path.is_file() {
        return Ok(None);
    }
    Ok(read_bks_csv(&csv_path)?.remove(&name))
}

/// Parses a permutation of size `n` written as integers separated by whitespace and/or commas,
/// whose smallest entry is `base` (1 for QAPLIB's usual notation), and returns it 0-based.
///
/// The result is checked to be a permutation; errors name the argument `permutation` and the
/// position of the offending entry.
pub fn parse_permutation(text: &str, n: usize, base: usize) -> Result<Vec<usize>> {
    let mut toks = Tokens::new(text, true);
    let perm =
        perm_from_tokens(&mut toks, n, base).map_err(|(_, m)| Error::arg("permutation", m))?;
    if let Some((_, tok)) = toks.next() {
        let extra = 1 + toks.count();
        return Err(Error::arg(
            "permutation",
            format!(
                "expected {n} entries, found {} (first extra: `{}`)",
                n + extra,
                shorten(tok)
            ),
        ));
    }
    Ok(perm)
}

/// The inverse permutation: `q[p[i]] = i`. Converts between QAPLIB's two conventions (a
/// permutation evaluated with `A` and `B` swapped is the inverse of the direct one).
///
/// `p` should be a permutation of `0..p.len()`; for other input the result is not a permutation
/// (out-of-range entries are skipped, unfilled slots hold `usize::MAX`) but nothing panics.
pub fn inverse_permutation(p: &[usize]) -> Vec<usize> {
    let mut q = vec![usize::MAX; p.len()];
    for (i, &v) in p.iter().enumerate() {
        if let Some(slot) = q.get_mut(v) {
            *slot = i;
        }
    }
    q
}

// ---------------------------------------------------------------------------------------------
// Internals
// ---------------------------------------------------------------------------------------------

/// Splits text into tokens, remembering the 1-based line of each, so that parse errors can point
/// at the right line whatever the layout (CRLF, blank lines, wrapped rows).
struct Tokens<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    rest: &'a str,
    line: usize,
    commas: bool,
}

impl<'a> Tokens<'a> {
    /// `commas`: whether a comma separates tokens like whitespace (ste36a.sln). Empty tokens
    /// between consecutive separators are skipped.
    fn new(text: &'a str, commas: bool) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Tokens {
            lines: text.lines().enumerate(),
            rest: "",
            line: 0,
            commas,
        }
    }

    /// The line to blame for "unexpected end of file": the last line of the text (1 if empty).
    /// Meaningful once `next` has returned `None`.
    fn eof_line(&self) -> usize {
        self.line.max(1)
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let commas = self.commas;
        let sep = move |ch: char| ch.is_whitespace() || (commas && ch == ',');
        loop {
            let rest = self.rest.trim_start_matches(sep);
            if !rest.is_empty() {
                let end = rest.find(sep).unwrap_or(rest.len());
                self.rest = &rest[end..];
                return Some((self.line, &rest[..end]));
            }
            let (i, l) = self.lines.next()?;
            self.line = i + 1;
            self.rest = l;
        }
    }
}

/// A token, cut short for error messages (a corrupt file may contain one huge "token").
fn shorten(tok: &str) -> String {
    const MAX: usize = 40;
    if tok.chars().count() <= MAX {
        tok.to_string()
    } else {
        format!("{}...", tok.chars().take(MAX).collect::<String>())
    }
}

fn parse_int(tok: &str) -> std::result::Result<i64, String> {
    use std::num::IntErrorKind;
    tok.parse::<i64>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
            format!("`{}` does not fit in a 64-bit integer", shorten(tok))
        }
        _ => format!("expected an integer, found `{}`", shorten(tok)),
    })
}

/// Parses the size token of a `.dat` or `.sln` header and checks `1 <= n <= MAX_N`.
fn parse_size(tok: &str) -> std::result::Result<usize, String> {
    let v = parse_int(tok).map_err(|m| format!("instance size n: {m}"))?;
    if v < 1 || v > MAX_N as i64 {
        return Err(format!("instance size n = {v} is out of range 1..={MAX_N}"));
    }
    Ok(v as usize)
}

/// Matrix name and 1-based row/column of the `k`-th matrix value of a `.dat` file.
fn matrix_position(k: usize, n: usize) -> (char, usize, usize) {
    let nn = n * n;
    let (m, r) = if k < nn { ('A', k) } else { ('B', k - nn) };
    (m, r / n + 1, r % n + 1)
}

/// Reads `n` permutation entries with the given base from `toks` and returns them 0-based.
/// Errors carry the line of the offending token (or of the end of the text).
fn perm_from_tokens(
    toks: &mut Tokens,
    n: usize,
    base: usize,
) -> std::result::Result<Vec<usize>, (usize, String)> {
    let mut perm = Vec::with_capacity(n);
    let mut seen = vec![usize::MAX; n];
    let hi = base as i128 + n as i128 - 1;
    for k in 0..n {
        let Some((line, tok)) = toks.next() else {
            return Err((
                toks.eof_line(),
                format!("expected {n} permutation entries, found {k}"),
            ));
        };
        let v = parse_int(tok).map_err(|m| (line, format!("permutation entry {}: {m}", k + 1)))?;
        if (v as i128) < base as i128 || v as i128 > hi {
            let mut msg = format!(
                "permutation entry {} = {v} is out of range {base}..={hi}",
                k + 1
            );
            if base == 1 && v == 0 {
                msg.push_str(" (0-based entries need base 0)");
            }
            return Err((line, msg));
        }
        let idx = (v as i128 - base as i128) as usize;
        if seen[idx] != usize::MAX {
            return Err((
                line,
                format!(
                    "permutation entry {} = {v} repeats entry {}",
                    k + 1,
                    seen[idx] + 1
                ),
            ));
        }
        seen[idx] = k;
        perm.push(idx);
    }
    Ok(perm)
}

/// Parses the text of a `.sln` file as [`read_sln`] reads it; `path` only labels errors.
pub fn parse_sln(text: &str, path: &Path, base: usize, inverse: bool) -> Result<QapSolution> {
    let mut toks = Tokens::new(text, true);
    let Some((line, tok)) = toks.next() else {
        return Err(Error::parse(
            path,
            toks.eof_line(),
            "empty file: expected `n value`",
        ));
    };
    let n = parse_size(tok).map_err(|m| Error::parse(path, line, m))?;
    let Some((line, tok)) = toks.next() else {
        return Err(Error::parse(
            path,
            toks.eof_line(),
            "unexpected end of file: expected the objective value after n",
        ));
    };
    let value =
        parse_int(tok).map_err(|m| Error::parse(path, line, format!("objective value: {m}")))?;
    let perm =
        perm_from_tokens(&mut toks, n, base).map_err(|(line, m)| Error::parse(path, line, m))?;
    if let Some((line, tok)) = toks.next() {
        let extra = 1 + toks.count();
        return Err(Error::parse(
            path,
            line,
            format!(
                "{extra} extra value(s) after the {n} permutation entries (first: `{}`)",
                shorten(tok)
            ),
        ));
    }
    let perm = if inverse {
        inverse_permutation(&perm)
    } else {
        perm
    };
    Ok(QapSolution { n, value, perm })
}

/// The text of `path`, a regular file of at most [`crate::files::MAX_INPUT_BYTES`]; bytes
/// that are not UTF-8 are an error naming it.
fn read_text(path: &Path) -> Result<String> {
    String::from_utf8(read_bytes(path)?)
        .map_err(|_| Error::parse(path, 0, "not UTF-8 text".to_string()))
}

fn file_stem(path: &Path) -> Option<String> {
    path.file_stem().map(|s| s.to_string_lossy().into_owned())
}

fn insert_unique<T>(
    map: &mut HashMap<String, T>,
    key: String,
    value: T,
) -> std::result::Result<(), String> {
    if map.contains_key(&key) {
        return Err(format!("instance `{key}` appears more than once"));
    }
    map.insert(key, value);
    Ok(())
}

/// The bytes of `path`, a regular file of at most [`crate::files::MAX_INPUT_BYTES`].
fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    crate::files::read_regular(path, crate::files::MAX_INPUT_BYTES).map_err(|e| e.into_error(path))
}

/// Reads the bytes of a CSV file (`path` labels errors) with a header row, deserialising each
/// record into `R` and handing it to `f`; a message returned by `f` becomes an [`Error::Parse`]
/// at the record's 1-based line.
///
/// Lines are computed from byte offsets rather than taken from the csv crate's own line counter,
/// which is one short on files with CRLF line ends (as the QAPLIB files have).
fn for_each_csv_row<R, F>(bytes: &[u8], path: &Path, mut f: F) -> Result<()>
where
    R: for<'de> Deserialize<'de>,
    F: FnMut(R) -> std::result::Result<(), String>,
{
    let lines = LineIndex::new(bytes);
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let headers = rdr
        .headers()
        .map_err(|e| csv_error(path, e, &lines, 0))?
        .clone();
    let mut record = csv::StringRecord::new();
    loop {
        let fallback = rdr.position().byte();
        match rdr.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_error(path, e, &lines, fallback)),
        }
        let line = lines.line_at(record.position().map_or(fallback, |p| p.byte()));
        let row: R = record
            .deserialize(Some(&headers))
            .map_err(|e| Error::parse(path, line, e.to_string()))?;
        f(row).map_err(|m| Error::parse(path, line, m))?;
    }
    Ok(())
}

/// Maps byte offsets of a text to 1-based line numbers.
struct LineIndex<'a> {
    text: &'a [u8],
    /// Byte offset of the start of every line after the first.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    fn new(text: &'a [u8]) -> Self {
        let starts = text
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        LineIndex { text, starts }
    }

    /// The line of the first character at or after `byte` that is not a line break (a CSV
    /// record's reported start can be the `\n` of the previous line's CRLF).
    fn line_at(&self, byte: u64) -> usize {
        let mut b = usize::try_from(byte)
            .unwrap_or(usize::MAX)
            .min(self.text.len());
        while b < self.text.len() && matches!(self.text[b], b'\r' | b'\n') {
            b += 1;
        }
        1 + self.starts.partition_point(|&s| s <= b)
    }
}

fn csv_error(path: &Path, e: csv::Error, lines: &LineIndex, fallback_byte: u64) -> Error {
    let line = lines.line_at(e.position().map_or(fallback_byte, |p| p.byte()));
    let msg = e.to_string();
    match e.into_kind() {
        csv::ErrorKind::Io(source) => Error::Io {
            path: PathBuf::from(path),
            source,
        },
        _ => Error::parse(path, line, msg),
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The QAPLIB folder of the test data (`METAOPT_DATA_DIR`, else the repository's `data/`).
    pub(in crate::problem::qap) fn data_dir() -> PathBuf {
        match std::env::var_os("METAOPT_DATA_DIR") {
            Some(d) => PathBuf::from(d).join("qaplib"),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("data/qaplib"),
        }
    }

    #[test]
    fn to_dat_reads_back_as_the_same_instance() {
        for name in ["tai12b", "bur26a", "nug12"] {
            let path = data_dir().join(format!("{name}.dat"));
            let inst = QapInstance::from_dat(&path).unwrap();
            let back = QapInstance::parse_dat(&inst.to_dat(), &path).unwrap();
            assert_eq!(back, inst, "{name}");
        }
        let neg =
            QapInstance::new("x", 2, vec![0, -3, 4, 0], vec![i64::MIN, 1, 2, i64::MAX]).unwrap();
        let back = QapInstance::parse_dat(&neg.to_dat(), Path::new("x.dat")).unwrap();
        assert_eq!(back, neg);
    }

    pub(in crate::problem::qap) fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        v.sort();
        v
    }

    /// splitmix64: a tiny deterministic generator, so tests need no extra crate.
    pub(in crate::problem::qap) struct Rng(pub u64);
    impl Rng {
        pub(in crate::problem::qap) fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        pub(in crate::problem::qap) fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        pub(in crate::problem::qap) fn perm(&mut self, n: usize) -> Vec<usize> {
            let mut p: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                p.swap(i, self.below(i + 1));
            }
            p
        }
    }

    /// A fresh scratch folder under the system temp dir (removed by the caller).
    fn scratch_dir(tag: &str) -> PathBuf {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let d = std::env::temp_dir().join(format!(
            "metaopt-qap-{}-{}-{tag}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn parse_line<T: std::fmt::Debug>(r: Result<T>) -> (usize, String) {
        match r {
            Err(Error::Parse { line, msg, .. }) => (line, msg),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    fn arg_err<T: std::fmt::Debug>(r: Result<T>) -> (&'static str, String) {
        match r {
            Err(Error::InvalidArgument { arg, msg }) => (arg, msg),
            other => panic!("expected an invalid-argument error, got {other:?}"),
        }
    }

    fn dat(path: &str) -> Result<QapInstance> {
        QapInstance::parse_dat(path, Path::new("test.dat"))
    }

    // ----- parsing ------------------------------------------------------------------------

    #[test]
    fn parses_wrapped_crlf_layout() {
        let text = "\u{feff}  2\r\n\r\n 1 2\r\n 3\r\n4\r\n\r\n5 6 7\r\n 8\r\n\r\n";
        let inst = QapInstance::parse_dat(text, Path::new("/x/y/tiny.dat")).unwrap();
        assert_eq!(inst.name, "tiny");
        assert_eq!(inst.n, 2);
        assert_eq!(inst.a, vec![1, 2, 3, 4]);
        assert_eq!(inst.b, vec![5, 6, 7, 8]);
        assert_eq!(dat("1 -7 9").unwrap().a, vec![-7]);
    }

    #[test]
    fn malformed_dat_reports_line() {
        // non-integer token on line 4
        let (line, msg) = parse_line(dat("2\r\n\r\n1 2\r\n3 x\r\n\r\n5 6\r\n7 8\r\n"));
        assert_eq!(line, 4);
        assert!(
            msg.contains("`x`") && msg.contains("matrix A, row 2, column 2"),
            "{msg}"
        );
        // a float is not an integer
        let (line, msg) = parse_line(dat("2\n1 2\n3 4\n5 6.0\n7 8\n"));
        assert_eq!(line, 4);
        assert!(msg.contains("matrix B, row 1, column 2"), "{msg}");
        // value beyond i64
        let (line, msg) = parse_line(dat("1\n\n99999999999999999999 1\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("64-bit"), "{msg}");
        // truncated: the end of the file is line 5 (the blank line after `5 6`)
        let (line, msg) = parse_line(dat("2\r\n1 2\r\n3 4\r\n5 6\r\n\r\n"));
        assert_eq!(line, 5);
        assert!(
            msg.contains("expected 2*n*n = 8") && msg.contains("found 6"),
            "{msg}"
        );
        assert!(msg.contains("matrix B at row 2, column 1"), "{msg}");
        // truncated right after n
        let (line, msg) = parse_line(dat("3"));
        assert_eq!(line, 1);
        assert!(msg.contains("found 0"), "{msg}");
        // size out of range, or not a number
        for (text, what) in [
            ("2049\n", "2049"),
            ("0\n", "= 0"),
            ("-4 1 2", "-4"),
            ("3.5", "`3.5`"),
            ("\n\n 1e3", "`1e3`"),
        ] {
            let (line, msg) = parse_line(dat(text));
            assert_eq!(line, if text.starts_with('\n') { 3 } else { 1 }, "{text:?}");
            assert!(
                msg.contains("instance size") && msg.contains(what),
                "{text:?}: {msg}"
            );
        }
        // MAX_N itself is a valid size: the error is then about missing values
        let (_, msg) = parse_line(dat("2048"));
        assert!(msg.contains("end of file"), "{msg}");
        // extra numbers: the first extra is on line 6
        let (line, msg) = parse_line(dat("2\n1 2\n3 4\n5 6\n7 8\n\n9 10\n11\n"));
        assert_eq!(line, 7);
        assert!(msg.starts_with("3 extra") && msg.contains("`9`"), "{msg}");
        assert!(!msg.contains("header"), "{msg}");
        // a second value on the header line (PLMA-style BKS) gets a hint
        let (line, msg) = parse_line(dat("1 5\n2\n3\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("line 1 holds more than n"), "{msg}");
        // empty and blank files
        let (line, msg) = parse_line(dat(""));
        assert_eq!(line, 1);
        assert!(msg.contains("empty"), "{msg}");
        let (line, _) = parse_line(dat("\r\n  \r\n\r\n"));
        assert_eq!(line, 3);
    }

    #[test]
    fn truncated_real_file_reports_last_line() {
        let path = data_dir().join("chr12a.dat");
        let text = std::fs::read_to_string(&path).unwrap();
        let full = QapInstance::parse_dat(&text, &path).unwrap();
        assert_eq!(full.n, 12);
        // drop the last non-blank line (the last row of B)
        let lines: Vec<&str> = text.lines().collect();
        let last = lines.iter().rposition(|l| !l.trim().is_empty()).unwrap();
        let cut = lines[..last].join("\r\n");
        let (line, msg) = parse_line(QapInstance::parse_dat(&cut, &path));
        assert_eq!(line, last); // 1-based number of the line before the removed one
        assert!(
            msg.contains("found 276") && msg.contains("row 12, column 1"),
            "{msg}"
        );
        match QapInstance::parse_dat(&cut, &path) {
            Err(e @ Error::Parse { .. }) => assert!(e.to_string().contains("chr12a.dat:"), "{e}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn io_errors_name_the_path() {
        let p = Path::new("/nonexistent/metaopt/none.dat");
        match QapInstance::from_dat(p) {
            Err(Error::Io { path, .. }) => assert_eq!(path, p),
            other => panic!("{other:?}"),
        }
        assert!(matches!(read_sln(p, 1, false), Err(Error::Io { .. })));
        assert!(matches!(read_bks_csv(p), Err(Error::Io { .. })));
        assert!(matches!(read_sln_conventions(p), Err(Error::Io { .. })));
        assert!(find_bks(p).unwrap().is_none());
    }

    #[test]
    fn new_checks_shape() {
        assert!(QapInstance::new("ok", 2, vec![0; 4], vec![0; 4]).is_ok());
        let (arg, msg) = arg_err(QapInstance::new("x", 2, vec![0; 3], vec![0; 4]));
        assert_eq!(arg, "a");
        assert!(msg.contains("n*n = 4") && msg.contains("got 3"), "{msg}");
        let (arg, msg) = arg_err(QapInstance::new("x", 2, vec![0; 4], vec![0; 5]));
        assert_eq!(arg, "b");
        assert!(msg.contains("n*n = 4"), "{msg}");
        assert_eq!(arg_err(QapInstance::new("x", 0, vec![], vec![])).0, "n");
        assert_eq!(
            arg_err(QapInstance::new("x", MAX_N + 1, vec![], vec![])).0,
            "n"
        );
    }

    // ----- cost ---------------------------------------------------------------------------

    #[test]
    fn cost_general_form_by_hand() {
        // asymmetric with non-zero diagonal
        let inst = QapInstance::new("h", 2, vec![1, 2, 3, 4], vec![5, 6, 7, 8]).unwrap();
        assert_eq!(inst.cost(&[0, 1]), 5 + 2 * 6 + 3 * 7 + 4 * 8);
        assert_eq!(inst.cost(&[1, 0]), 8 + 2 * 7 + 3 * 6 + 4 * 5);
        assert!(!inst.is_symmetric());
        // overflow wraps instead of panicking
        let big = QapInstance::new("big", 1, vec![i64::MAX], vec![2]).unwrap();
        assert_eq!(big.cost(&[0]), i64::MAX.wrapping_mul(2));
    }

    #[test]
    fn cost_under_swapped_matrices_is_inverse_convention() {
        let mut rng = Rng(7);
        for n in 1..=9 {
            let a: Vec<i64> = (0..n * n).map(|_| rng.below(21) as i64 - 10).collect();
            let b: Vec<i64> = (0..n * n).map(|_| rng.below(21) as i64 - 10).collect();
            let ab = QapInstance::new("ab", n, a.clone(), b.clone()).unwrap();
            let ba = QapInstance::new("ba", n, b, a).unwrap();
            for _ in 0..5 {
                let p = rng.perm(n);
                let q = inverse_permutation(&p);
                assert_eq!(inverse_permutation(&q), p);
                assert_eq!(ab.cost(&p), ba.cost(&q));
            }
        }
        assert_eq!(inverse_permutation(&[5, 0]), vec![1, usize::MAX]); // bad input: no panic
    }

    #[test]
    fn symmetric_form_matches_general_form() {
        let mut rng = Rng(42);
        let mut symmetric = 0;
        for path in files_with_ext(&data_dir(), "dat") {
            let inst = QapInstance::from_dat(&path).unwrap();
            if !inst.is_symmetric() {
                continue;
            }
            symmetric += 1;
            for _ in 0..20 {
                let p = rng.perm(inst.n);
                assert_eq!(inst.cost_symmetric(&p), inst.cost(&p), "{}", inst.name);
            }
        }
        assert!(symmetric >= 80, "only {symmetric} symmetric instances");
    }

    // ----- permutations -------------------------------------------------------------------

    #[test]
    fn permutation_errors() {
        let inst = QapInstance::new("p", 3, vec![0; 9], vec![0; 9]).unwrap();
        assert!(inst.check_permutation(&[2, 0, 1]).is_ok());
        for bad in [&[0, 1][..], &[0, 1, 2, 0], &[0, 0, 1], &[0, 1, 3], &[]] {
            assert_eq!(
                arg_err(inst.check_permutation(bad)).0,
                "permutation",
                "{bad:?}"
            );
        }
        assert!(arg_err(inst.check_permutation(&[1, 2, 1]))
            .1
            .contains("entry 3 = 1 repeats entry 1"));

        assert_eq!(parse_permutation("3 1 2", 3, 1).unwrap(), vec![2, 0, 1]);
        assert_eq!(parse_permutation("2,0,\r\n1", 3, 0).unwrap(), vec![2, 0, 1]);
        assert_eq!(
            parse_permutation(" 1 , 2 ,3 ", 3, 1).unwrap(),
            vec![0, 1, 2]
        );
        for (text, base, want) in [
            ("1 2", 1, "found 2"),
            ("1 2 3 4", 1, "found 4"),
            ("1 2 2", 1, "entry 3 = 2 repeats entry 2"),
            ("0 1 2", 1, "need base 0"),
            ("1 2 3", 0, "out of range 0..=2"),
            ("1 x 3", 1, "`x`"),
            ("", 1, "found 0"),
        ] {
            let (arg, msg) = arg_err(parse_permutation(text, 3, base));
            assert_eq!(arg, "permutation");
            assert!(msg.contains(want), "{text:?}: {msg}");
        }
    }

    #[test]
    fn malformed_sln_reports_line() {
        let p = Path::new("bad.sln");
        let ok = parse_sln(" 3 17\r\n 3 1\r\n 2\r\n", p, 1, false).unwrap();
        assert_eq!(
            ok,
            QapSolution {
                n: 3,
                value: 17,
                perm: vec![2, 0, 1]
            }
        );
        let inv = parse_sln("3 17\n3 1 2", p, 1, true).unwrap();
        assert_eq!(inv.perm, vec![1, 2, 0]);
        for (text, line, want) in [
            ("", 1, "empty"),
            ("3", 1, "objective value"),
            ("3 x\n1 2 3", 1, "`x`"),
            ("0 5", 1, "instance size"),
            ("3000 5", 1, "instance size"),
            ("3 5\n1 2\n\n", 3, "found 2"),
            ("3 5\n1\n2 z", 3, "`z`"),
            ("3 5\n1\n2 1", 3, "repeats"),
            ("3 5\n1 2 4", 2, "out of range 1..=3"),
            ("3 5\n1 2 3\n\n4", 4, "1 extra"),
        ] {
            let (l, msg) = parse_line(parse_sln(text, p, 1, false));
            assert_eq!(l, line, "{text:?}: {msg}");
            assert!(msg.contains(want), "{text:?}: {msg}");
        }
    }

    // ----- the shared data ----------------------------------------------------------------

    #[test]
    fn every_sln_reproduces_its_header_value() {
        let dir = data_dir();
        let convs = read_sln_conventions(&dir.join("sln_conventions.csv")).unwrap();
        let bks = read_bks_csv(&dir.join("BKS.csv")).unwrap();
        let slns = files_with_ext(&dir.join("sln"), "sln");
        assert_eq!(
            slns.len(),
            convs.len(),
            "every .sln has one conventions row"
        );
        let mut asymmetric_seen = Vec::new();
        for path in &slns {
            let name = file_stem(path).unwrap();
            let conv = &convs[&name];
            let inst = QapInstance::from_dat(&dir.join(format!("{name}.dat"))).unwrap();
            let sol = read_sln_auto(path).unwrap();
            assert_eq!(sol, read_sln(path, conv.base, conv.inverse).unwrap());
            assert_eq!(sol.n, inst.n, "{name}");
            inst.check_permutation(&sol.perm).unwrap();
            assert_eq!(sol.value, conv.header_value, "{name}");
            assert_eq!(conv.evaluated_value, conv.header_value, "{name}");
            assert_eq!(inst.cost(&sol.perm), sol.value, "{name} under {conv:?}");
            assert_eq!(
                bks[&name].bks, sol.value,
                "BKS.csv takes the .sln header value ({name})"
            );
            if inst.is_symmetric() {
                assert_eq!(inst.cost_symmetric(&sol.perm), sol.value, "{name}");
            }
            if inst.a != transpose(&inst.a, inst.n) || inst.b != transpose(&inst.b, inst.n) {
                asymmetric_seen.push(name.clone());
            }
            // the recorded convention matters: the other reading gives another value or fails
            if conv.inverse {
                let direct = read_sln(path, conv.base, false).unwrap();
                assert_ne!(inst.cost(&direct.perm), sol.value, "{name}");
            }
            if conv.base == 0 {
                assert!(
                    matches!(read_sln(path, 1, false), Err(Error::Parse { .. })),
                    "{name}"
                );
            }
        }
        asymmetric_seen.sort();
        assert_eq!(
            asymmetric_seen,
            ["bur26a", "bur26b", "lipa20a", "lipa20b", "lipa30a", "tai12b", "tai20b"]
        );
    }

    fn transpose(m: &[i64], n: usize) -> Vec<i64> {
        (0..n * n).map(|k| m[(k % n) * n + k / n]).collect()
    }

    #[test]
    fn every_dat_parses_with_the_bks_size() {
        let dir = data_dir();
        let bks = read_bks_csv(&dir.join("BKS.csv")).unwrap();
        let dats = files_with_ext(&dir, "dat");
        assert_eq!(dats.len(), bks.len(), "one BKS row per .dat");
        let mut asym = Vec::new();
        let mut diag = Vec::new();
        for path in &dats {
            let inst = QapInstance::from_dat(path).unwrap();
            let row = find_bks(path)
                .unwrap()
                .unwrap_or_else(|| panic!("no BKS row for {}", inst.name));
            assert_eq!(row.instance, inst.name);
            assert_eq!(inst.n, row.n, "{}", inst.name);
            let n = inst.n;
            if inst.a != transpose(&inst.a, n) || inst.b != transpose(&inst.b, n) {
                asym.push(inst.name.clone());
            } else if !inst.is_symmetric() {
                diag.push(inst.name.clone());
            }
            assert!(
                inst.a.iter().chain(&inst.b).all(|&v| v >= 0),
                "{}",
                inst.name
            );
        }
        asym.sort();
        diag.sort();
        let expected_asym = [
            "bur26a", "bur26b", "lipa20a", "lipa20b", "lipa30a", "tai10b", "tai12b", "tai20b",
        ];
        assert_eq!(asym, expected_asym);
        assert_eq!(diag, ["tai256c", "tai64c"]);
        let nug12 = &bks["nug12"];
        assert_eq!((nug12.n, nug12.bks, nug12.optimal_proven), (12, 578, true));
        assert!(!bks["tai100a"].optimal_proven);
    }

    #[test]
    fn csv_files_report_bad_rows() {
        let d = scratch_dir("csv");
        let conv = d.join("sln_conventions.csv");
        let header = "instance,n,perm_base,perm_convention,header_value,evaluated_value,note\r\n";
        std::fs::write(
            &conv,
            format!("{header}a,3,1,direct,5,5,\r\nb,3,1,sideways,5,5,\r\n"),
        )
        .unwrap();
        let (line, msg) = parse_line(read_sln_conventions(&conv));
        assert_eq!(line, 3);
        assert!(msg.contains("sideways"), "{msg}");
        std::fs::write(&conv, format!("{header}a,3,2,direct,5,5,x\n")).unwrap();
        assert_eq!(parse_line(read_sln_conventions(&conv)).0, 2);
        std::fs::write(
            &conv,
            format!("{header}a,3,1,direct,5,5,\na,3,1,direct,5,5,\n"),
        )
        .unwrap();
        let (line, msg) = parse_line(read_sln_conventions(&conv));
        assert_eq!(line, 3);
        assert!(msg.contains("more than once"), "{msg}");
        std::fs::write(&conv, format!("{header}a,3,1,direct,five,5,\n")).unwrap();
        assert_eq!(parse_line(read_sln_conventions(&conv)).0, 2);
        std::fs::write(&conv, format!("{header}a,3,1\n")).unwrap();
        assert_eq!(parse_line(read_sln_conventions(&conv)).0, 2);

        let bks = d.join("BKS.csv");
        std::fs::write(&bks, "instance,n,bks,optimal_proven\na,3,10,\nb,3,x,1\n").unwrap();
        let (line, _) = parse_line(read_bks_csv(&bks));
        assert_eq!(line, 3);
        std::fs::write(
            &bks,
            "instance,n,bks,optimal_proven\na,3,10,\nb,3,7,maybe\n",
        )
        .unwrap();
        let (line, msg) = parse_line(read_bks_csv(&bks));
        assert_eq!(line, 3);
        assert!(msg.contains("maybe"), "{msg}");
        std::fs::write(&bks, "instance,n,bks\r\na,3,10\r\nb, 4 ,-7\r\n").unwrap();
        let m = read_bks_csv(&bks).unwrap();
        assert_eq!(
            m["b"],
            Bks {
                instance: "b".into(),
                n: 4,
                bks: -7,
                optimal_proven: false
            }
        );
        // find_bks: a row, no row
        assert_eq!(find_bks(&d.join("a.dat")).unwrap().unwrap().bks, 10);
        assert!(find_bks(&d.join("zzz.dat")).unwrap().is_none());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn read_sln_auto_defaults_and_checks_n() {
        let d = scratch_dir("auto");
        let sub = d.join("sln");
        std::fs::create_dir_all(&sub).unwrap();
        let sln = sub.join("toy.sln");
        std::fs::write(&sln, "3 9\n0 2 1\n").unwrap();
        // no conventions file: base 1 direct, and this file is 0-based
        assert!(parse_line(read_sln_auto(&sln)).1.contains("need base 0"));
        // a conventions file in the parent folder without this instance: still the default
        let header = "instance,n,perm_base,perm_convention,header_value,evaluated_value,note\n";
        std::fs::write(
            d.join("sln_conventions.csv"),
            format!("{header}other,3,0,direct,9,9,\n"),
        )
        .unwrap();
        assert!(read_sln_auto(&sln).is_err());
        // with a row: 0-based, inverse
        std::fs::write(
            d.join("sln_conventions.csv"),
            format!("{header}toy,3,0,inverse,9,9,\n"),
        )
        .unwrap();
        let sol = read_sln_auto(&sln).unwrap();
        assert_eq!(sol.perm, vec![0, 2, 1]);
        assert_eq!(sol.perm, inverse_permutation(&[0, 2, 1]));
        std::fs::write(&sln, "3 9\n1 0 2\n").unwrap();
        assert_eq!(read_sln_auto(&sln).unwrap().perm, vec![1, 0, 2]);
        // the file in the sln's own folder wins over the parent's
        std::fs::write(
            sub.join("sln_conventions.csv"),
            format!("{header}toy,3,0,direct,9,9,\n"),
        )
        .unwrap();
        std::fs::write(&sln, "3 9\n1 2 0\n").unwrap();
        assert_eq!(read_sln_auto(&sln).unwrap().perm, vec![1, 2, 0]);
        // size disagreeing with the conventions row
        std::fs::write(
            sub.join("sln_conventions.csv"),
            format!("{header}toy,4,0,direct,9,9,\n"),
        )
        .unwrap();
        let (line, msg) = parse_line(read_sln_auto(&sln));
        assert_eq!(line, 1);
        assert!(msg.contains("records n = 4"), "{msg}");
        // a malformed conventions file is an error, not a silent default
        std::fs::write(
            sub.join("sln_conventions.csv"),
            format!("{header}toy,3,0,upside,9,9,\n"),
        )
        .unwrap();
        assert!(matches!(read_sln_auto(&sln), Err(Error::Parse { .. })));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
