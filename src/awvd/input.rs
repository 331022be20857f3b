//! Input of the additively weighted Voronoi diagram: atoms of PDB / mmCIF files (through
//! `pdbtbx`) with Voronota's default selection and radii, and plain `x y z r` balls files.

use super::Ball;
use crate::error::{Error, Result};
use std::path::Path;

/// Which atoms of a structure file become balls. The default is Voronota's
/// (`get-balls-from-atoms-file` without options): the first model, ATOM records only, no
/// hydrogens, alternate location blank or `A`.
#[derive(Clone, Debug, PartialEq)]
pub struct AtomSelection {
    /// Keep HETATM records (waters, ligands, ions); Voronota's `--include-heteroatoms`.
    pub heteroatoms: bool,
    /// Keep hydrogen atoms; Voronota's `--include-hydrogens`.
    pub hydrogens: bool,
    /// Read every model, not only the first.
    pub all_models: bool,
    /// Radius of an atom whose name's first letter is not in the table.
    pub default_radius: f64,
}

impl Default for AtomSelection {
    fn default() -> Self {
        AtomSelection {
            heteroatoms: false,
            hydrogens: false,
            all_models: false,
            default_radius: 1.70,
        }
    }
}

/// Voronota's default van der Waals radius (Å) of an atom by the first letter of its name:
/// C 1.70, N 1.55, O 1.52, S 1.80, P 1.80, H 1.20, anything else `default`.
pub fn voronota_radius(atom_name: &str, default: f64) -> f64 {
    match atom_name.trim().chars().next() {
        Some('C') => 1.70,
        Some('N') => 1.55,
        Some('O') => 1.52,
        Some('S') => 1.80,
        Some('P') => 1.80,
        Some('H') => 1.20,
        _ => default,
    }
}

fn is_hydrogen(atom: &pdbtbx::Atom) -> bool {
    match atom.element() {
        Some(e) => matches!(e.symbol(), "H" | "D"),
        None => atom.name().trim().starts_with('H'),
    }
}

/// The balls of a PDB or mmCIF file (the format by its extension, `.gz` allowed), in file order
/// (by atom serial number within a model). Only the coordinate records (PDB `ATOM`, `HETATM`,
/// `MODEL`, `ENDMDL`, `TER`, `END`; the mmCIF `_atom_site` loop) reach pdbtbx, checked first
/// (printable ASCII, finite coordinates within [`MAX_COORD`](super::MAX_COORD), the columns
/// pdbtbx needs), so that no header record and no malformed atom can stop it.
pub fn read_structure(path: impl AsRef<Path>, sel: &AtomSelection) -> Result<Vec<Ball>> {
    let path = path.as_ref();
    let text = read_text(path)?;
    let lower = path.to_string_lossy().to_lowercase();
    let lower = lower.strip_suffix(".gz").unwrap_or(&lower);
    let (format, atoms) = if lower.ends_with(".cif") || lower.ends_with(".mmcif") {
        (pdbtbx::Format::Mmcif, mmcif_atoms(&text, path)?)
    } else {
        (pdbtbx::Format::Pdb, pdb_atoms(&text, path)?)
    };
    drop(text);
    let mut opts = pdbtbx::ReadOptions::new();
    opts.set_level(pdbtbx::StrictnessLevel::Loose)
        .set_only_first_model(!sel.all_models)
        .set_format(format);
    let (pdb, _warnings) = opts
        .read_raw(std::io::BufReader::new(std::io::Cursor::new(
            atoms.into_bytes(),
        )))
        .map_err(|errs| {
            let msg = errs
                .iter()
                .take(3)
                .map(|e| {
                    format!(
                        "{}: {}",
                        clip(e.short_description(), 200),
                        clip(e.long_description(), 200)
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            Error::parse(path, 0, msg)
        })?;
    let mut balls = Vec::new();
    for model in pdb.models() {
        let mut atoms: Vec<(usize, Ball)> = Vec::new();
        for chain in model.chains() {
            for residue in chain.residues() {
                for conf in residue.conformers() {
                    if !matches!(conf.alternative_location(), None | Some("") | Some("A")) {
                        continue;
                    }
                    for atom in conf.atoms() {
                        if atom.hetero() && !sel.heteroatoms {
                            continue;
                        }
                        if !sel.hydrogens && is_hydrogen(atom) {
                            continue;
                        }
                        let (x, y, z) = atom.pos();
                        atoms.push((
                            atom.serial_number(),
                            Ball {
                                c: [x, y, z],
                                r: voronota_radius(atom.name(), sel.default_radius),
                            },
                        ));
                    }
                }
            }
        }
        atoms.sort_by_key(|a| a.0);
        balls.extend(atoms.into_iter().map(|a| a.1));
    }
    if balls.is_empty() {
        return Err(Error::parse(path, 0, "no atoms selected"));
    }
    Ok(balls)
}

use crate::problem::clip;
pub use crate::problem::{max_decompressed, quote, QUOTE_CHARS};

/// The text of a file, decompressed when its name ends in `.gz` (bounded by
/// [`max_decompressed`]); errors name the file.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = crate::problem::read_bytes_maybe_gz(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::parse(path, line, "not UTF-8 text")
    })
}

fn printable(c: char) -> bool {
    (' '..='~').contains(&c)
}

/// The first character of `line` that is not printable ASCII, as an error of line `no`.
fn check_printable(line: &str, path: &Path, no: usize) -> Result<()> {
    match line.chars().find(|&c| !printable(c)) {
        Some(c) => Err(Error::parse(
            path,
            no,
            format!(
                "character {} in a coordinate record `{}`; expected printable ASCII",
                c.escape_debug(),
                quote(line)
            ),
        )),
        None => Ok(()),
    }
}

/// A number of a coordinate field, checked: finite and within `MAX_COORD`.
fn check_coordinate(v: f64, what: &str, tok: &str, path: &Path, no: usize) -> Result<()> {
    if v.is_nan() || v.abs() > super::MAX_COORD {
        return Err(Error::parse(
            path,
            no,
            format!(
                "{what} `{}`; expected finite, within +-{:e}",
                quote(tok),
                super::MAX_COORD
            ),
        ));
    }
    Ok(())
}

/// The longest PDB coordinate record taken (its columns end at 80; longer lines are not records
/// of the format and would only cost pdbtbx memory).
const MAX_RECORD: usize = 1024;

/// The coordinate records of a PDB text (`ATOM`, `HETATM`, `MODEL`, `ENDMDL`, `TER`, `END`),
/// checked: printable ASCII, and in atoms finite coordinates (within `MAX_COORD`), occupancy
/// (at least 0) and temperature factor where they are numbers.
fn pdb_atoms(text: &str, path: &Path) -> Result<String> {
    const KEEP: [&str; 5] = ["ATOM  ", "HETATM", "MODEL ", "ENDMDL", "TER"];
    const FIELDS: [(&str, usize, usize); 5] = [
        ("x", 30, 38),
        ("y", 38, 46),
        ("z", 46, 54),
        ("occupancy", 54, 60),
        ("temperature factor", 60, 66),
    ];
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if !(KEEP.iter().any(|k| line.starts_with(k)) || line.starts_with("END")) {
            continue;
        }
        if line.len() > MAX_RECORD {
            return Err(Error::parse(
                path,
                i + 1,
                format!(
                    "a coordinate record of {} characters (PDB records have 80; at most \
                     {MAX_RECORD} taken): `{}`",
                    line.len(),
                    quote(line)
                ),
            ));
        }
        check_printable(line, path, i + 1)?;
        if line.starts_with("ATOM  ") || line.starts_with("HETATM") {
            // pdbtbx takes a record without a residue name (columns 18-20) for a bug of its own;
            // it reads the name as empty when the record ends before column 20
            if line.get(17..20).is_none_or(|r| r.trim().is_empty()) {
                return Err(Error::parse(
                    path,
                    i + 1,
                    format!(
                        "an atom record without a residue name (columns 18-20): `{}`",
                        quote(line)
                    ),
                ));
            }
            for (what, a, b) in FIELDS {
                let Some(f) = line.get(a..b.min(line.len())) else {
                    continue;
                };
                let f = f.trim();
                if let Ok(v) = f.parse::<f64>() {
                    let limit = if a < 54 { super::MAX_COORD } else { f64::MAX };
                    if v.is_nan() || v.abs() > limit {
                        check_coordinate(f64::NAN, what, f, path, i + 1)?;
                    }
                    // pdbtbx divides a shared atom's occupancy among alternative locations
                    // and unwraps the check of the result, which fails below 0
                    if what == "occupancy" && v < 0.0 {
                        return Err(Error::parse(
                            path,
                            i + 1,
                            format!("occupancy `{}`; expected at least 0", quote(f)),
                        ));
                    }
                }
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// One token of a CIF text: its text (quotes included), its line, and whether it was quoted
/// (or a text field).
struct CifToken<'a> {
    text: &'a str,
    line: usize,
    quoted: bool,
}

/// The tokens of a CIF text (comments dropped; a `;` text field is one quoted token).
fn cif_tokens<'a>(text: &'a str, path: &Path) -> Result<Vec<CifToken<'a>>> {
    let mut toks = Vec::new();
    let mut lines = text.split('\n').enumerate().peekable();
    let mut offset = 0usize;
    while let Some((i, line)) = lines.next() {
        let start = offset;
        offset += line.len() + 1;
        if line.starts_with(';') {
            // a text field runs to the next line starting with ';'
            loop {
                match lines.next() {
                    Some((_, l)) => {
                        offset += l.len() + 1;
                        if l.starts_with(';') {
                            break;
                        }
                    }
                    None => {
                        return Err(Error::parse(path, i + 1, "text field (`;`) not closed"));
                    }
                }
            }
            toks.push(CifToken {
                text: &text[start..(offset - 1).min(text.len())],
                line: i + 1,
                quoted: true,
            });
            continue;
        }
        let b = line.as_bytes();
        let mut p = 0;
        while p < b.len() {
            if b[p].is_ascii_whitespace() {
                p += 1;
                continue;
            }
            if b[p] == b'#' {
                break;
            }
            let q = b[p];
            let (end, quoted) = if q == b'\'' || q == b'"' {
                // a quote closes where followed by whitespace or the line's end
                let mut j = p + 1;
                while j < b.len()
                    && !(b[j] == q && (j + 1 == b.len() || b[j + 1].is_ascii_whitespace()))
                {
                    j += 1;
                }
                if j >= b.len() {
                    return Err(Error::parse(
                        path,
                        i + 1,
                        format!("quoted value not closed: `{}`", quote(&line[p..])),
                    ));
                }
                (j + 1, true)
            } else {
                let mut j = p;
                while j < b.len() && !b[j].is_ascii_whitespace() {
                    j += 1;
                }
                (j, false)
            };
            toks.push(CifToken {
                text: &line[p..end],
                line: i + 1,
                quoted,
            });
            p = end;
        }
    }
    Ok(toks)
}

/// A CIF token that pdbtbx reads as a number (sign, digits, fraction, exponent; `t` without its
/// uncertainty): None when it is not one; Some(None) when pdbtbx would misread it (more than 9
/// integer digits wrap its integer, more than 2 exponent digits may overflow its power) or it is
/// not finite; else its value.
fn cif_number(t: &str) -> Option<Option<f64>> {
    let b = t.as_bytes();
    let mut p = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |p: &mut usize| {
        let s = *p;
        while *p < b.len() && b[*p].is_ascii_digit() {
            *p += 1;
        }
        (s, *p)
    };
    let (s, e) = digits(&mut p);
    let int_digits = t[s..e].trim_start_matches('0').len();
    let mut n = e - s;
    if p < b.len() && b[p] == b'.' {
        p += 1;
        let (s, e) = digits(&mut p);
        n += e - s;
    }
    if n == 0 {
        return None;
    }
    let mut exp_digits = 0;
    if p < b.len() && matches!(b[p], b'e' | b'E') {
        p += 1;
        if p < b.len() && matches!(b[p], b'+' | b'-') {
            p += 1;
        }
        let (s, e) = digits(&mut p);
        exp_digits = e - s;
        if exp_digits == 0 {
            return None;
        }
    }
    if p != b.len() {
        return None;
    }
    if int_digits > 9 || exp_digits > 2 {
        return Some(None);
    }
    Some(t.parse::<f64>().ok().filter(|v| v.is_finite()))
}

/// The `_atom_site` loops of the first data block of an mmCIF text, alone in a new text:
/// checked for what pdbtbx needs (printable ASCII, no blank quoted value, the element, atom,
/// residue and chain names known, the atom id an unsigned integer, finite coordinates within
/// `MAX_COORD`, finite occupancy and B factor where numbers).
fn mmcif_atoms(text: &str, path: &Path) -> Result<String> {
    let toks = cif_tokens(text, path)?;
    let is_kw = |t: &CifToken, kw: &str| {
        !t.quoted
            && t.text
                .get(..kw.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(kw))
    };
    let Some(first) = toks.iter().position(|t| is_kw(t, "data_")) else {
        return Err(Error::parse(path, 0, "no `data_` block"));
    };
    let name = &toks[first].text[5..];
    let name = if !name.is_empty() && name.chars().all(printable) {
        name
    } else {
        "input"
    };
    let mut out = format!("data_{name}\n");
    let mut k = first + 1;
    while k < toks.len() && !is_kw(&toks[k], "data_") {
        if !is_kw(&toks[k], "loop_") {
            k += 1;
            continue;
        }
        let mut e = k + 1;
        while e < toks.len() && !toks[e].quoted && toks[e].text.starts_with('_') {
            e += 1;
        }
        let tags = &toks[k + 1..e];
        let mut v = e;
        while v < toks.len()
            && (toks[v].quoted
                || !(toks[v].text.starts_with('_')
                    || is_kw(&toks[v], "loop_")
                    || is_kw(&toks[v], "data_")
                    || is_kw(&toks[v], "save_")
                    || is_kw(&toks[v], "global_")
                    || is_kw(&toks[v], "stop_")))
        {
            v += 1;
        }
        let atom_site = !tags.is_empty()
            && tags
                .iter()
                .all(|t| t.text.to_ascii_lowercase().starts_with("_atom_site."));
        if atom_site {
            // pdbtbx's lexer slices identifiers by characters as if they were bytes
            if let Some(t) = tags.iter().find(|t| !t.text.chars().all(printable)) {
                return Err(Error::parse(
                    path,
                    t.line,
                    format!(
                        "tag {} holds a character that is not printable ASCII",
                        crate::problem::quote(t.text)
                    ),
                ));
            }
            check_atom_site(tags, &toks[e..v], path)?;
            out.push_str("loop_\n");
            for t in tags {
                out.push_str(t.text);
                out.push('\n');
            }
            for row in toks[e..v].chunks(tags.len()) {
                let row = row
                    .iter()
                    .map(|t| pdbtbx_quoted(t, path))
                    .collect::<Result<Vec<_>>>()?;
                out.push_str(&row.join(" "));
                out.push('\n');
            }
        }
        k = v;
    }
    Ok(out)
}

/// A value of the `_atom_site` loop as pdbtbx's lexer reads it whole: a quoted value ends at the
/// next quote character there (the CIF rule, which this reader follows, ends it at a quote
/// followed by white space), so a value holding its own quote character is quoted with the
/// other one; pdbtbx starts a text field at any `;`, so an unquoted value starting with one is
/// quoted; a value that would need a quote character it holds is refused: split, its parts
/// would reach pdbtbx unchecked.
fn pdbtbx_quoted<'a>(t: &CifToken<'a>, path: &Path) -> Result<std::borrow::Cow<'a, str>> {
    // an unquoted value starting with `;` (not at the start of its line, so not a text field
    // here): pdbtbx starts a text field at any `;`, so it is quoted for it
    let (inner, q) = match t.text.chars().next() {
        Some(';') if !t.quoted => (t.text, '"'),
        Some(q @ ('\'' | '"')) if t.quoted && t.text.len() >= 2 => {
            (&t.text[1..t.text.len() - 1], q)
        }
        _ => return Ok(t.text.into()),
    };
    if !inner.contains(q) {
        return Ok(if t.quoted {
            t.text.into()
        } else {
            format!("{q}{inner}{q}").into()
        });
    }
    let other = if q == '"' { '\'' } else { '"' };
    if inner.contains(other) {
        return Err(Error::parse(
            path,
            t.line,
            format!(
                "`_atom_site` value {} holds both quote characters, which the mmCIF reader \
                 (pdbtbx) cannot take",
                quote(t.text)
            ),
        ));
    }
    Ok(format!("{other}{inner}{other}").into())
}

/// How pdbtbx's mmCIF lexer reads an unquoted value as a number.
#[derive(Debug, PartialEq, Eq)]
enum PdbtbxNumber {
    /// A number, the whole value.
    Number,
    /// Not a number (text), or a number followed by more characters.
    Text,
    /// A run of digits it reads into a `u32` is past `u32::MAX`: it overflows.
    Overflows,
}

/// pdbtbx reads `[sign] digits [. digits] [e|E [sign] digits] [( digits )]` from the start of an
/// unquoted value, the integer part, the exponent and the uncertainty each into a `u32` (the
/// decimals into an `f64`); the value is a number when that is all of it and it has a digit
/// before the exponent.
fn pdbtbx_number(text: &str) -> PdbtbxNumber {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    // the run of digits from `i`, moved past it: (whether it has a digit, whether it overflows)
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        (*i > start, text[start..*i].parse::<u32>().is_err())
    };
    let (integer, overflow) = digits(&mut i);
    if integer && overflow {
        return PdbtbxNumber::Overflows;
    }
    let mut decimals = false;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        decimals = i > start;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if i == b.len() {
            return PdbtbxNumber::Text;
        }
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if let (true, true) = digits(&mut i) {
            return PdbtbxNumber::Overflows;
        }
    }
    if b.get(i) == Some(&b'(') {
        i += 1;
        if let (true, true) = digits(&mut i) {
            return PdbtbxNumber::Overflows;
        }
        if b.get(i) != Some(&b')') {
            return PdbtbxNumber::Text;
        }
        i += 1;
    }
    if (integer || decimals) && i == b.len() {
        PdbtbxNumber::Number
    } else {
        PdbtbxNumber::Text
    }
}

/// The checks of an `_atom_site` loop (`mmcif_atoms`).
fn check_atom_site(tags: &[CifToken], vals: &[CifToken], path: &Path) -> Result<()> {
    let col = |name: &str| {
        tags.iter()
            .position(|t| t.text.eq_ignore_ascii_case(&format!("_atom_site.{name}")))
    };
    if !vals.len().is_multiple_of(tags.len()) {
        let line = vals.last().map_or(tags[0].line, |t| t.line);
        return Err(Error::parse(
            path,
            line,
            format!(
                "the `_atom_site` loop has {} values, not a multiple of its {} columns",
                vals.len(),
                tags.len()
            ),
        ));
    }
    let unknown = |t: &CifToken| !t.quoted && (t.text == "?" || t.text == ".");
    let text_cols = ["type_symbol", "label_atom_id", "label_comp_id"].map(|n| (n, col(n)));
    let (auth_asym, label_asym) = (col("auth_asym_id"), col("label_asym_id"));
    let id = col("id");
    let coords = ["Cartn_x", "Cartn_y", "Cartn_z"].map(|n| (n, col(n)));
    let extra = ["occupancy", "B_iso_or_equiv"].map(|n| (n, col(n)));
    for row in vals.chunks(tags.len()) {
        for t in row {
            if let Some(c) = t.text.chars().find(|&c| !printable(c)) {
                return Err(Error::parse(
                    path,
                    t.line,
                    format!(
                        "character {} in `_atom_site` value `{}`; expected printable ASCII",
                        c.escape_debug(),
                        quote(t.text)
                    ),
                ));
            }
            if t.quoted && t.text[1..t.text.len() - 1].trim().is_empty() {
                return Err(Error::parse(
                    path,
                    t.line,
                    "blank quoted `_atom_site` value",
                ));
            }
            let problem = match pdbtbx_number(t.text) {
                _ if t.quoted => None,
                PdbtbxNumber::Overflows => Some(format!(
                    "a number whose integer part, exponent or uncertainty is past {}",
                    u32::MAX
                )),
                // pdbtbx reads a leading `.` or `?` as a value of its own and the rest as the
                // next item, which may be a data name outside the loop
                PdbtbxNumber::Text if t.text.len() > 1 && t.text.starts_with(['.', '?']) => {
                    Some("starts with `.` or `?` but is neither".to_string())
                }
                PdbtbxNumber::Number | PdbtbxNumber::Text => None,
            };
            if let Some(problem) = problem {
                return Err(Error::parse(
                    path,
                    t.line,
                    format!("`_atom_site` value `{}`: {problem}", quote(t.text)),
                ));
            }
        }
        let line = row[0].line;
        let missing = |what: &str| {
            Error::parse(
                path,
                line,
                format!("`_atom_site.{what}` unknown (`?` or `.`) in an atom row"),
            )
        };
        for (n, c) in text_cols {
            if c.is_some_and(|c| unknown(&row[c])) {
                return Err(missing(n));
            }
        }
        let known = |c: Option<usize>| c.is_some_and(|c| !unknown(&row[c]));
        if (auth_asym.is_some() || label_asym.is_some()) && !known(auth_asym) && !known(label_asym)
        {
            return Err(missing("label_asym_id"));
        }
        if let Some(c) = id {
            let t = &row[c];
            if t.quoted
                || t.text.is_empty()
                || t.text.len() > 9
                || !t.text.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(Error::parse(
                    path,
                    t.line,
                    format!(
                        "`_atom_site.id` `{}`; expected an unsigned integer",
                        quote(t.text)
                    ),
                ));
            }
        }
        for (n, c) in coords {
            let Some(c) = c else { continue };
            let t = &row[c];
            let what = format!("`_atom_site.{n}`");
            match cif_number(t.text).filter(|_| !t.quoted) {
                Some(Some(v)) => check_coordinate(v, &what, t.text, path, t.line)?,
                Some(None) => check_coordinate(f64::NAN, &what, t.text, path, t.line)?,
                None => {
                    return Err(Error::parse(
                        path,
                        t.line,
                        format!("{what} `{}`; expected a number", quote(t.text)),
                    ))
                }
            }
        }
        for (n, c) in extra {
            let Some(c) = c else { continue };
            let t = &row[c];
            let plain = t.text.split('(').next().unwrap_or("");
            let v = if t.quoted { None } else { cif_number(plain) };
            if v == Some(None) {
                return Err(Error::parse(
                    path,
                    t.line,
                    format!(
                        "`_atom_site.{n}` `{}`; expected a finite number",
                        quote(t.text)
                    ),
                ));
            }
            // pdbtbx divides a shared atom's occupancy among alternative locations and
            // unwraps the check of the result, which fails below 0
            if n == "occupancy" && v.flatten().is_some_and(|v| v < 0.0) {
                return Err(Error::parse(
                    path,
                    t.line,
                    format!(
                        "`_atom_site.occupancy` `{}`; expected at least 0",
                        quote(t.text)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Balls from text: one `x y z r` per line (anything after the four numbers, e.g. Voronota's
/// `# annotations`, is ignored; blank lines and lines starting with `#` are skipped). `path`
/// names the source in errors, which carry its 1-based line.
pub fn parse_balls(text: &str, path: &Path) -> Result<Vec<Ball>> {
    let mut balls = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let mut v = [0.0f64; 4];
        let mut it = l.split_whitespace();
        for (k, slot) in v.iter_mut().enumerate() {
            let tok = it.next().ok_or_else(|| {
                Error::parse(
                    path,
                    i + 1,
                    format!("expected `x y z r`, found {k} numbers"),
                )
            })?;
            *slot = tok.parse::<f64>().map_err(|_| {
                Error::parse(path, i + 1, format!("`{}` is not a number", quote(tok)))
            })?;
            if !slot.is_finite() {
                return Err(Error::parse(
                    path,
                    i + 1,
                    format!("`{}` is not finite", quote(tok)),
                ));
            }
            if slot.abs() > super::MAX_COORD {
                return Err(Error::parse(
                    path,
                    i + 1,
                    format!("{}; expected within +-{:e}", quote(tok), super::MAX_COORD),
                ));
            }
        }
        if v[3] < 0.0 {
            return Err(Error::parse(
                path,
                i + 1,
                format!("negative radius {}", v[3]),
            ));
        }
        balls.push(Ball {
            c: [v[0], v[1], v[2]],
            r: v[3],
        });
    }
    if balls.is_empty() {
        return Err(Error::parse(path, 0, "no balls"));
    }
    Ok(balls)
}

/// Balls from a plain `x y z r` file (Voronota's balls format).
pub fn read_balls(path: impl AsRef<Path>) -> Result<Vec<Ball>> {
    let path = path.as_ref();
    parse_balls(&read_text(path)?, path)
}

/// Balls from any input: `.pdb`, `.ent`, `.cif`, `.mmcif` (optionally `.gz`) as structures,
/// everything else as a balls file.
pub fn read_any(path: impl AsRef<Path>, sel: &AtomSelection) -> Result<Vec<Ball>> {
    let path = path.as_ref();
    let lower = path.to_string_lossy().to_lowercase();
    let lower = lower.strip_suffix(".gz").unwrap_or(&lower);
    if [".pdb", ".ent", ".cif", ".mmcif"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        read_structure(path, sel)
    } else {
        read_balls(path)
    }
}
