//! `metaopt awvd`: the additively weighted Voronoi diagram of the balls of a PDB / mmCIF / balls
//! file (`metaopt::awvd`, docs/specs/AWVD.md) on the device or the CPU backend; its vertices in
//! Voronota's format and its contacts written to files. The input options are shared with
//! `bench awvd`.

use crate::args::{BackendArgs, JsonArg, TimeLimitArg};
use crate::out::{self, renamed_or_cpu, CliResult, Failure};
use clap::Args;
use metaopt::awvd::{self, AtomSelection, AwvdOptions, AwvdResult, Ball};
use metaopt::device::Backend;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which atoms of a structure file become balls (Voronota's default without flags).
#[derive(Args, Clone, Copy, Debug)]
pub struct SelectionArgs {
    /// Keep HETATM records (waters, ligands, ions)
    #[arg(long)]
    pub hetatm: bool,
    /// Keep hydrogen atoms
    #[arg(long)]
    pub hydrogens: bool,
    /// Read every model, not only the first
    #[arg(long)]
    pub all_models: bool,
}

impl SelectionArgs {
    pub fn selection(&self) -> AtomSelection {
        AtomSelection {
            heteroatoms: self.hetatm,
            hydrogens: self.hydrogens,
            all_models: self.all_models,
            ..AtomSelection::default()
        }
    }
}

/// The diagram's options of both commands.
#[derive(Args, Clone, Copy, Debug)]
pub struct DiagramArgs {
    /// Grid cell side in Å (0: the library's choice from the radii)
    #[arg(long, default_value_t = 0.0, value_name = "A")]
    pub cell: f64,
    /// Device float pass: re-check candidates within this distance of the float minimum in double
    #[arg(long, default_value_t = 1e-3, value_name = "D")]
    pub suspect_bound: f64,
    /// Device search in double throughout (no float pass; the device needs fp64)
    #[arg(long)]
    pub double: bool,
}

impl DiagramArgs {
    pub fn options(&self) -> CliResult<AwvdOptions> {
        if !(self.cell.is_finite() && self.cell >= 0.0) {
            return Err(Failure(format!(
                "--cell: {}; expected finite and >= 0",
                self.cell
            )));
        }
        if !(self.suspect_bound.is_finite() && self.suspect_bound >= 0.0) {
            return Err(Failure(format!(
                "--suspect-bound: {}; expected finite and >= 0",
                self.suspect_bound
            )));
        }
        Ok(AwvdOptions {
            cell: self.cell,
            suspect_bound: self.suspect_bound,
            ..AwvdOptions::default()
        })
    }
}

#[derive(Args)]
pub struct AwvdArgs {
    /// Input: .pdb/.ent/.cif/.mmcif (optionally .gz) with Voronota's radii, else `x y z r` lines
    pub file: PathBuf,
    /// Write the vertices in Voronota's format (`q1 q2 q3 q4 x y z r`) to this file (- = stdout)
    #[arg(long, value_name = "OUT")]
    pub vertices: Option<PathBuf>,
    /// Write the contacts (ball pairs `i j` that share a face, 0-based) to this file (- = stdout)
    #[arg(long, value_name = "OUT")]
    pub contacts: Option<PathBuf>,
    #[command(flatten)]
    pub selection: SelectionArgs,
    #[command(flatten)]
    pub diagram: DiagramArgs,
    // an exact computation: past the limit, or after Ctrl-C, the command fails with no output
    #[command(flatten)]
    pub time_limit: TimeLimitArg,
    #[command(flatten)]
    pub backend: BackendArgs,
    #[command(flatten)]
    pub json: JsonArg,
}

/// The balls of `file`; errors name the file.
pub fn read(file: &Path, sel: &AtomSelection) -> CliResult<Vec<Ball>> {
    awvd::read_any(file, sel).map_err(Failure::from)
}

/// The diagram of `balls` on `backend`.
pub fn diagram(
    balls: &[Ball],
    opts: &AwvdOptions,
    backend: Backend,
    double: bool,
) -> CliResult<AwvdResult> {
    let r = match backend {
        Backend::Cpu => awvd::awvd_cpu(balls, opts),
        b => awvd::device::awvd_device(balls, opts, b, double),
    };
    r.map_err(|e| {
        renamed_or_cpu(
            e,
            &[("cell", "--cell"), ("suspect_bound", "--suspect-bound")],
        )
    })
}

fn write_to(path: &Path, text: &str, flag: &str) -> CliResult {
    if path == Path::new("-") {
        return out::print(text);
    }
    out::write_file(path, &format!("{flag}: "), text)
}

#[derive(Serialize)]
struct Report<'a> {
    file: String,
    balls: usize,
    /// Balls equal to an earlier ball, left out of the diagram.
    merged: u64,
    vertices: usize,
    contacts: usize,
    unbounded_edges: usize,
    searches: u64,
    double_rechecks: u64,
    float_replaced: u64,
    restarts: u64,
    levels: u64,
    host_searches: u64,
    backend: &'a str,
    parse_s: f64,
    diagram_s: f64,
    /// The diagram's parts: grid (and device upload), tracing, the rest (contacts, sorting).
    grid_s: f64,
    trace_s: f64,
    /// The part of trace_s spent in the batches of end-vertex searches.
    search_s: f64,
    finish_s: f64,
    output_s: f64,
}

pub fn run(a: &AwvdArgs) -> CliResult {
    let backend = a.backend.backend()?;
    let t = Instant::now();
    let balls = read(&a.file, &a.selection.selection())?;
    let parse_s = t.elapsed().as_secs_f64();
    let opts = AwvdOptions {
        stop: metaopt::run::Stop {
            time_limit: crate::time_left(a.time_limit.time_limit),
            token: Some(crate::stop_token()),
            ..Default::default()
        },
        ..a.diagram.options()?
    };
    let t = Instant::now();
    let d = diagram(&balls, &opts, backend, a.diagram.double)?;
    let diagram_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    if let Some(p) = &a.vertices {
        write_to(p, &d.vertices_text(), "--vertices")?;
    }
    if let Some(p) = &a.contacts {
        write_to(p, &d.contacts_text(), "--contacts")?;
    }
    let output_s = t.elapsed().as_secs_f64();
    let r = Report {
        file: a.file.display().to_string(),
        balls: balls.len(),
        merged: d.merged,
        vertices: d.vertices.len(),
        contacts: d.contacts.len(),
        unbounded_edges: d.edges.iter().flatten().filter(|&&n| n < 0).count(),
        searches: d.searches,
        double_rechecks: d.double_rechecks,
        float_replaced: d.float_replaced,
        restarts: d.restarts,
        levels: d.levels,
        host_searches: d.host_searches,
        backend: a.backend.name(),
        parse_s,
        diagram_s,
        grid_s: d.grid_s,
        trace_s: d.trace_s,
        search_s: d.search_s,
        finish_s: d.finish_s,
        output_s,
    };
    if d.merged > 0 && !a.json.quiet {
        eprintln!(
            "note: {} balls equal to an earlier ball (same centre and radius) left out",
            d.merged
        );
    }
    if a.json.json {
        return out::print_json(&r);
    }
    // with the vertices or contacts on stdout the summary goes to stderr
    let to_stdout = [&a.vertices, &a.contacts]
        .iter()
        .all(|p| p.as_deref() != Some(Path::new("-")));
    let text = format!(
        "{}: {} balls\nvertices: {}\ncontacts: {}\nunbounded edges: {}\nsearches: {} in {} levels ({} on the host), restarts: {}, double re-checks: {}, float winners replaced: {}\n\
         backend: {}\ntime: parse {:.3} s, diagram {:.3} s (grid {:.3}, tracing {:.3} of which searches {:.3}, contacts {:.3}), output {:.3} s\n",
        r.file, r.balls, r.vertices, r.contacts, r.unbounded_edges, r.searches, r.levels, r.host_searches, r.restarts, r.double_rechecks, r.float_replaced, r.backend,
        parse_s, diagram_s, r.grid_s, r.trace_s, r.search_s, r.finish_s, output_s
    );
    if to_stdout {
        out::print(&text)
    } else {
        if !a.json.quiet {
            eprint!("{text}");
        }
        Ok(())
    }
}
