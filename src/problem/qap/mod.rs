//! Quadratic assignment problem (QAP): instances, published solutions, best-known values and the
//! lower bounds (Gilmore-Lawler, eigenvalue, projected eigenvalue, convex quadratic programming).
//!
//! # Conventions
//!
//! A permutation `p` is always 0-based and *direct*: facility `i` goes to location `p[i]`, and
//!
//! ```text
//! cost(p) = sum_{i,j} A[i][j] * B[p[i]][p[j]]
//! ```
//!
//! with `A` and `B` in the order the QAPLIB `.dat` file lists them. QAPLIB's published `.sln`
//! files do not all follow that convention: a few are 0-based, a few hold the inverse permutation
//! (they match the formula only with `A` and `B` swapped, which is the same as using `p⁻¹`), and
//! one separates its entries with commas. `sln_conventions.csv`, next to the data, records each
//! file's base and convention; [`read_sln_auto`] applies it, so that every [`QapSolution`] in the
//! library is 0-based and direct, and `inst.cost(&sol.perm) == sol.value` for every published file.
//!
//! # Why 64-bit, wrapping arithmetic
//!
//! Some QAPLIB objectives (the `tai*b` family) exceed 2³¹, so every sum is `i64`. The parsers accept
//! any `i64` entry, so a pathological file could overflow even that; [`QapInstance::cost`] wraps
//! instead of panicking, which keeps the CPU reference bit-identical to device kernels that use the
//! same two's-complement arithmetic.
//!
//! # Parsing
//!
//! The files are read token by token, never line by line: QAPLIB wraps long matrix rows over
//! several lines, uses CRLF line ends and blank lines between blocks. Every malformed input is an
//! [`Error::Parse`](crate::Error::Parse) that names the file and the 1-based line where the problem was found (for a
//! missing value, the last line of the file).
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`instance`] | [`QapInstance`] and the QAPLIB readers (`.dat`, `.sln`, `BKS.csv`) |
//! | [`cost`] | the element and cost types, the typed matrices of the solvers ([`QapProblem`]), the full and delta cost used by every solver and its CPU twin |
//! | [`perm`] | the one permutation check |
//! | [`bounds`] | the Gilmore-Lawler bound |
//! | [`eigen`] | the eigenvalue (HRW), projected eigenvalue (PE) and convex quadratic programming (AB) bounds, each with its projected start permutation |
//! | [`generate`] | instance generators: Li and Pardalos's `lipa*a`/`lipa*b` with an optimum known by construction, Taillard's real-life-like `tai*b` |

pub mod bounds;
pub mod cost;
pub mod eigen;
pub mod generate;
pub mod instance;
pub mod perm;

pub use bounds::gilmore_lawler;
pub use cost::{delta_cost, full_cost, split_df, Cost, ElemType, QapElem, QapMatrices, QapProblem};
pub use eigen::{lower_bound, BoundResult, LowerBound};
pub use generate::{lipa, taillard_b, LipaKind};
pub use instance::*;
pub use perm::check_perm;
