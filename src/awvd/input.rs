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
/// (by atom serial number within a model).
pub fn read_structure(path: impl AsRef<Path>, sel: &AtomSelection) -> Result<Vec<Ball>> {
    let path = path.as_ref();
    let name = path
        .to_str()
        .ok_or_else(|| Error::arg("path", "not valid UTF-8"))?;
    let mut opts = pdbtbx::ReadOptions::new();
    opts.set_level(pdbtbx::StrictnessLevel::Loose)
        .set_only_first_model(!sel.all_models);
    let (pdb, _warnings) = match opts.read(name) {
        Ok(p) => p,
        Err(errs) => {
            let msg = errs
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ");
            // header records pdbtbx rejects even when loose (e.g. SEQADV of 1IGY) hold no atoms:
            // a PDB file is read again from its coordinate records only
            let lower = name.to_ascii_lowercase();
            if !(lower.ends_with(".pdb") || lower.ends_with(".ent")) {
                return Err(Error::parse(path, 0, msg));
            }
            let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
                path: path.to_path_buf(),
                source: e,
            })?;
            let keep = ["ATOM  ", "HETATM", "MODEL ", "ENDMDL", "TER", "END"];
            let coords: String = text
                .lines()
                .filter(|l| keep.iter().any(|k| l.starts_with(k)))
                .flat_map(|l| [l, "\n"])
                .collect();
            opts.set_format(pdbtbx::Format::Pdb);
            opts.read_raw(std::io::BufReader::new(std::io::Cursor::new(
                coords.into_bytes(),
            )))
            .map_err(|_| Error::parse(path, 0, msg))?
        }
    };
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
            *slot = tok
                .parse::<f64>()
                .map_err(|_| Error::parse(path, i + 1, format!("`{tok}` is not a number")))?;
            if !slot.is_finite() {
                return Err(Error::parse(path, i + 1, format!("`{tok}` is not finite")));
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
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
        path: path.to_path_buf(),
        source: e,
    })?;
    parse_balls(&text, path)
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
