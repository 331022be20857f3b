//! The precision of solvers with a float choice (DE, general HC12): [`Precision`], resolved at
//! creation; `Auto` is double where the device has `cl_khr_fp64`.

use serde::Serialize;

/// Whether the device or CPU computes in single or double precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// Double where the device has `cl_khr_fp64` (and on the CPU backend), else single.
    #[default]
    Auto,
    Single,
    Double,
}

impl Precision {
    /// The precision used: `Auto` resolved by `fp64` (whether the device has `cl_khr_fp64`; true
    /// for the CPU backend); `force_double` (the older `double` flags) asks for double.
    pub fn resolve(self, force_double: bool, fp64: bool) -> Precision {
        match (force_double, self) {
            (true, _) | (false, Precision::Double) => Precision::Double,
            (false, Precision::Single) => Precision::Single,
            (false, Precision::Auto) => {
                if fp64 {
                    Precision::Double
                } else {
                    Precision::Single
                }
            }
        }
    }

    pub fn is_double(self) -> bool {
        self == Precision::Double
    }

    pub fn name(self) -> &'static str {
        match self {
            Precision::Auto => "auto",
            Precision::Single => "single",
            Precision::Double => "double",
        }
    }

    /// The C ABI's `MetaoptPrecision` number (0 auto, 1 single, 2 double).
    pub fn code(self) -> i32 {
        match self {
            Precision::Auto => 0,
            Precision::Single => 1,
            Precision::Double => 2,
        }
    }

    pub fn from_code(code: i32, arg: &'static str) -> crate::Result<Precision> {
        match code {
            0 => Ok(Precision::Auto),
            1 => Ok(Precision::Single),
            2 => Ok(Precision::Double),
            c => Err(crate::Error::arg(
                arg,
                format!("{c}; expected 0 (auto), 1 (single) or 2 (double)"),
            )),
        }
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The names of [`Precision::name`], for command lines and configuration files.
impl std::str::FromStr for Precision {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<Precision> {
        match s {
            "auto" => Ok(Precision::Auto),
            "single" => Ok(Precision::Single),
            "double" => Ok(Precision::Double),
            _ => Err(crate::Error::arg(
                "precision",
                format!("`{s}`; expected auto, single or double"),
            )),
        }
    }
}

/// `values` as little-endian float (`!double`) or double bytes, the layout of an FP buffer.
pub fn fp_bytes(values: &[f64], double: bool) -> Vec<u8> {
    if double {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    } else {
        values
            .iter()
            .flat_map(|&v| (v as f32).to_le_bytes())
            .collect()
    }
}

/// The inverse of [`fp_bytes`].
pub fn fp_values(bytes: &[u8], double: bool) -> Vec<f64> {
    if double {
        bytes
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect()
    } else {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")) as f64)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_resolves() {
        assert_eq!(Precision::Auto.resolve(false, true), Precision::Double);
        assert_eq!(Precision::Auto.resolve(false, false), Precision::Single);
        assert_eq!(Precision::Single.resolve(false, true), Precision::Single);
        assert_eq!(Precision::Single.resolve(true, true), Precision::Double);
        assert_eq!(Precision::Double.resolve(false, false), Precision::Double);
    }

    #[test]
    fn names_parse_back() {
        for p in [Precision::Auto, Precision::Single, Precision::Double] {
            assert_eq!(p.name().parse::<Precision>().unwrap(), p);
            assert_eq!(p.to_string(), p.name());
        }
        assert!("half".parse::<Precision>().is_err());
    }
}
