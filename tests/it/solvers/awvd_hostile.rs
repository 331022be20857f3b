//! The additively weighted Voronoi diagram on hostile input: no panic, memory in proportion to
//! the balls, degenerate sets merged or refused with a message (docs/specs/AWVD.md).

use crate::common;
use metaopt::awvd::{self, grid::Grid, AtomSelection, AwvdOptions, Ball};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn ball(x: f64, y: f64, z: f64, r: f64) -> Ball {
    Ball { c: [x, y, z], r }
}

fn ubq() -> Vec<Ball> {
    awvd::read_balls(common::data_dir().join("pdb").join("1ubq.balls.txt")).unwrap()
}

fn cells(g: &Grid) -> usize {
    g.dims.iter().product()
}

fn cpu(balls: &[Ball]) -> metaopt::Result<awvd::AwvdResult> {
    awvd::awvd_cpu(balls, &AwvdOptions::default())
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn awvd_grid_follows_the_ball_count() {
    // four balls a million Å apart: a 1024^3 grid (8 GB) before
    let far = [
        ball(0., 0., 0., 0.1),
        ball(1e6, 1e6, 1e6, 0.1),
        ball(1e6, 0., 0., 0.1),
        ball(0., 1e6, 0., 0.1),
    ];
    let g = Grid::new(&far, 0.0);
    assert!(cells(&g) <= awvd::grid::max_cells(4), "{:?}", g.dims);
    let t = Instant::now();
    let d = cpu(&far).unwrap();
    assert_eq!(d.vertices.len(), 1);
    assert!(t.elapsed().as_secs_f64() < 5.0);
    // a tiny cell is widened to the bound, and the diagram is the same
    let balls = ubq();
    for cell in [1e-6, 1e-300, f64::MIN_POSITIVE] {
        let g = Grid::new(&balls, cell);
        assert!(cells(&g) <= awvd::grid::max_cells(balls.len()), "{cell}");
        let opts = AwvdOptions {
            cell,
            ..AwvdOptions::default()
        };
        let d = awvd::awvd_cpu(&balls, &opts).unwrap();
        let want = cpu(&balls).unwrap();
        assert_eq!(d.vertices, want.vertices, "cell {cell}");
        assert_eq!(d.contacts, want.contacts, "cell {cell}");
    }
}

#[test]
fn awvd_refuses_non_finite_and_huge_input() {
    let base = [
        ball(0., 0., 0., 1.),
        ball(3., 0., 0., 1.),
        ball(0., 3., 0., 1.),
    ];
    for (x, name) in [
        (1e20, "x"),
        (1e300, "x"),
        (-1e300, "x"),
        (f64::NAN, "x"),
        (f64::INFINITY, "x"),
    ] {
        let mut b = base.to_vec();
        b.push(ball(x, 0., 0., 1.));
        let e = cpu(&b).unwrap_err().to_string();
        assert!(e.contains(name) && e.contains("ball 3"), "{e}");
    }
    let mut b = base.to_vec();
    b.push(ball(0., 0., 3., 1e300));
    assert!(cpu(&b).unwrap_err().to_string().contains("radius"));
    b[3].r = 1.0;
    for cell in [f64::NAN, f64::INFINITY, -1.0] {
        let opts = AwvdOptions {
            cell,
            ..AwvdOptions::default()
        };
        let e = awvd::awvd_cpu(&b, &opts).unwrap_err().to_string();
        assert!(e.contains("cell"), "{e}");
    }
    // the balls file names the line
    let e = awvd::parse_balls(
        "0 0 0 1\n3 0 0 1\n0 3 0 1\n1e20 0 0 1\n",
        Path::new("far.balls"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("far.balls:4") && e.contains("1e20"), "{e}");
}

#[test]
fn awvd_errors_quote_little_input_escaped() {
    let long = format!("\x1b[31m{}", "9".repeat(1000));
    let e = awvd::parse_balls(&format!("{long} 0 0 1\n"), Path::new("b"))
        .unwrap_err()
        .to_string();
    assert!(!e.contains('\x1b') && e.contains("\\u{1b}"), "{e}");
    assert!(e.len() < 200, "{e}");
    assert_eq!(awvd::input::quote(&"x".repeat(100)).len(), 83);
}

fn pdb_atoms(xyz: [&str; 3]) -> String {
    let mut s = String::new();
    for (i, d) in [
        (0.0, 0.0, 0.0),
        (3.0, 0.0, 0.0),
        (0.0, 3.0, 0.0),
        (0.0, 0.0, 3.0),
    ]
    .iter()
    .enumerate()
    {
        s.push_str(&format!(
            "ATOM  {:>5}  CA  GLY A{:>4}    {:>8.3}{:>8.3}{:>8.3}  1.00  0.00           C  \n",
            i + 1,
            i + 1,
            d.0,
            d.1,
            d.2
        ));
    }
    s.push_str(&format!(
        "ATOM      5  CA  GLY A   5    {:>8}{:>8}{:>8}  1.00  0.00           C  \nEND\n",
        xyz[0], xyz[1], xyz[2]
    ));
    s
}

#[test]
fn awvd_pdb_reader_refuses_what_pdbtbx_cannot_take() {
    let dir = tempfile::tempdir().unwrap();
    let sel = AtomSelection::default();
    for (bad, what) in [("nan", "x"), ("inf", "x"), ("1e300", "x")] {
        let p = write(dir.path(), "bad.pdb", &pdb_atoms([bad, "0.000", "0.000"]));
        let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
        assert!(e.contains("bad.pdb:5") && e.contains(what), "{e}");
    }
    let p = write(dir.path(), "y.pdb", &pdb_atoms(["1.000", "nan", "0.000"]));
    let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
    assert!(e.contains("y.pdb:5") && e.contains('y'), "{e}");
    // a coordinate record of a megabyte: refused, quoted in 80 characters
    let long = pdb_atoms(["1.000", "1.000", "1.000"])
        .replace("C  \nEND", &format!("C{}\nEND", " 9".repeat(1 << 19)));
    let p = write(dir.path(), "long.pdb", &long);
    let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
    assert!(
        e.contains("long.pdb:5") && e.contains("characters") && e.len() < 400,
        "{e}"
    );
    // an invalid space group: the header is not read
    let text = format!(
        "CRYST1   50.000   50.000   50.000  90.00  90.00  90.00 Q 9 9 9        4\n{}",
        pdb_atoms(["1.000", "1.000", "1.000"])
    );
    let p = write(dir.path(), "cryst.pdb", &text);
    assert_eq!(awvd::read_structure(&p, &sel).unwrap().len(), 5);
    // an atom record that ends inside its residue name (columns 18-20): pdbtbx reads the name
    // as empty and panicked
    for short in [
        "ATOM  1N N MEdata_x",
        "ATOM      1  N   G",
        "HETATM    1  O   HO",
    ] {
        let p = write(dir.path(), "short.pdb", &format!("{short}\nEND\n"));
        let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
        assert!(
            e.contains("short.pdb:1") && e.contains("residue name"),
            "{e}"
        );
    }
    // a control character in an atom record
    let p = write(
        dir.path(),
        "ctl.pdb",
        &pdb_atoms(["1.000", "1.000", "1.000"]).replace("GLY A   5", "GL\x07 A   5"),
    );
    let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
    assert!(
        e.contains("ctl.pdb:5") && e.contains("\\u{7}") && !e.contains('\x07'),
        "{e}"
    );
    // a negative occupancy: pdbtbx divides a shared atom's occupancy among alternative
    // locations and panicked on the check of the result
    let text = pdb_atoms(["1.000", "1.000", "1.000"]).replacen("  1.00  0.00", "-43.50  0.00", 1);
    let p = write(dir.path(), "occ.pdb", &text);
    let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
    assert!(
        e.contains("occ.pdb:1") && e.contains("occupancy") && e.contains("-43.50"),
        "{e}"
    );
}

fn cif(cell_a: &str, x: &str, id: &str) -> String {
    let mut s = format!(
        "data_test\n_cell.length_a {cell_a}\n_cell.length_b 50.0\n_cell.length_c 50.0\n\
         _cell.angle_alpha 90\n_cell.angle_beta 90\n_cell.angle_gamma 90\n\
         _symmetry.space_group_name_H-M 'P 1'\n#\nloop_\n_atom_site.group_PDB\n_atom_site.id\n\
         _atom_site.type_symbol\n_atom_site.label_atom_id\n_atom_site.label_alt_id\n\
         _atom_site.label_comp_id\n_atom_site.label_asym_id\n_atom_site.label_seq_id\n\
         _atom_site.Cartn_x\n_atom_site.Cartn_y\n_atom_site.Cartn_z\n_atom_site.occupancy\n\
         _atom_site.B_iso_or_equiv\n_atom_site.pdbx_PDB_model_num\n"
    );
    for (i, d) in [
        (0.0, 0.0, 0.0),
        (3.0, 0.0, 0.0),
        (0.0, 3.0, 0.0),
        (0.0, 0.0, 3.0),
    ]
    .iter()
    .enumerate()
    {
        s.push_str(&format!(
            "ATOM {} C CA . GLY A {} {:.3} {:.3} {:.3} 1.00 0.00 1\n",
            i + 1,
            i + 1,
            d.0,
            d.1,
            d.2
        ));
    }
    s.push_str(&format!(
        "ATOM {id} C CA . GLY A 5 {x} 1.0 1.0 1.00 0.00 1\n#\n"
    ));
    s
}

#[test]
fn awvd_mmcif_reader_refuses_what_pdbtbx_cannot_take() {
    let dir = tempfile::tempdir().unwrap();
    let sel = AtomSelection::default();
    // `?` is mmCIF's "unknown": a cell of unknown length is no reason to fail
    for a in ["50.0", "?", "."] {
        let p = write(dir.path(), "ok.cif", &cif(a, "1.0", "5"));
        let b = awvd::read_structure(&p, &sel).unwrap();
        assert_eq!(b.len(), 5);
        assert_eq!(b[4].c, [1.0, 1.0, 1.0]);
    }
    for (x, id, what) in [
        ("nan", "5", "Cartn_x"),
        ("?", "5", "Cartn_x"),
        ("1e400", "5", "Cartn_x"),
        ("0.00001e310", "5", "Cartn_x"),
        ("1e20", "5", "Cartn_x"),
        ("1.0", "?", "_atom_site.id"),
        ("1.0", "x", "_atom_site.id"),
        // pdbtbx read these digits into a u32 and overflowed
        ("4294967296", "5", "4294967296"),
        ("-1e99999999999", "5", "1e99999999999"),
        ("1.0(4294967296)", "5", "4294967296"),
        // pdbtbx split these into `.` or `?` and a data name of its own
        ("._cell.length_a", "5", "._cell.length_a"),
        ("?_cell.length_a", "5", "?_cell.length_a"),
    ] {
        let p = write(dir.path(), "bad.cif", &cif("50.0", x, id));
        let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
        assert!(e.contains("bad.cif:") && e.contains(what), "{x} {id}: {e}");
    }
    let p = write(
        dir.path(),
        "elem.cif",
        &cif("50.0", "1.0", "5").replace("ATOM 5 C CA", "ATOM 5 ? CA"),
    );
    let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
    assert!(e.contains("type_symbol"), "{e}");
    // numbers pdbtbx reads whole stay: long decimals (read into an f64), a leading `.`, a sign
    // and an exponent
    for x in ["1.00000000000000000001", ".5", "+1.0e0"] {
        let p = write(dir.path(), "dec.cif", &cif("50.0", x, "5"));
        assert_eq!(awvd::read_structure(&p, &sel).unwrap().len(), 5, "{x}");
    }
}

#[test]
fn awvd_gz_input_is_bounded() {
    use flate2::{write::GzEncoder, Compression};
    let dir = tempfile::tempdir().unwrap();
    // one line of 100 MiB compressed to about 100 KiB: more than the bound allows
    let p = dir.path().join("bomb.pdb.gz");
    let mut z = GzEncoder::new(std::fs::File::create(&p).unwrap(), Compression::best());
    let chunk = vec![b'A'; 1 << 20];
    for _ in 0..100 {
        z.write_all(&chunk).unwrap();
    }
    z.finish().unwrap();
    let size = std::fs::metadata(&p).unwrap().len();
    assert!(awvd::input::max_decompressed(size) < 100 << 20);
    let e = awvd::read_structure(&p, &AtomSelection::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("bomb.pdb.gz") && e.contains("decompresses to more than"));
    assert!(e.len() < 300, "{e}");
    // a real structure compressed reads as the plain one
    let plain = common::data_dir().join("pdb").join("1ubq.pdb");
    let gz = dir.path().join("1ubq.pdb.gz");
    let mut z = GzEncoder::new(std::fs::File::create(&gz).unwrap(), Compression::default());
    z.write_all(&std::fs::read(&plain).unwrap()).unwrap();
    z.finish().unwrap();
    let sel = AtomSelection::default();
    assert_eq!(
        awvd::read_structure(&gz, &sel).unwrap(),
        awvd::read_structure(&plain, &sel).unwrap()
    );
}

#[test]
fn awvd_equal_balls_are_merged() {
    // Voronota's `calculate-vertices --exclude-hidden-balls` on the same balls
    let b = [
        ball(0., 0., 0., 1.),
        ball(0., 0., 0., 1.),
        ball(3., 0., 0., 1.),
        ball(0., 3., 0., 1.),
        ball(0., 0., 3., 1.),
        ball(3., 3., 3., 1.),
    ];
    let d = cpu(&b).unwrap();
    let q: Vec<[u32; 4]> = d.vertices.iter().map(|v| v.q).collect();
    assert_eq!(q, vec![[0, 2, 3, 4], [2, 3, 4, 5]]);
    assert_eq!(d.merged, 1);
    assert!(d.contacts.iter().all(|&(i, j)| i != 1 && j != 1));
    // three copies of 1UBQ: the diagram of one
    let one = ubq();
    let three: Vec<Ball> = one.iter().chain(&one).chain(&one).copied().collect();
    let (a, b) = (cpu(&one).unwrap(), cpu(&three).unwrap());
    assert_eq!(a.vertices, b.vertices);
    assert_eq!(a.contacts, b.contacts);
    assert_eq!(b.merged, 2 * one.len() as u64);
    // 100,000 equal balls
    let t = Instant::now();
    let d = cpu(&vec![ball(1., 2., 3., 1.5); 100_000]).unwrap();
    assert!(d.vertices.is_empty() && d.contacts.is_empty());
    assert_eq!(d.merged, 99_999);
    assert!(t.elapsed().as_secs_f64() < 10.0);
}

#[test]
fn awvd_concentric_balls_are_fast() {
    // all hidden in the largest: no restart, no triple from them (n^3 before)
    for n in [1_000usize, 100_000] {
        let b: Vec<Ball> = (0..n)
            .map(|i| ball(1., 2., 3., 1. + i as f64 / n as f64))
            .collect();
        let t = Instant::now();
        let d = cpu(&b).unwrap();
        assert!(d.vertices.is_empty() && d.contacts.is_empty());
        assert!(t.elapsed().as_secs_f64() < 10.0, "{n}");
    }
    // concentric balls among others keep the diagram of the others
    let mut b = vec![
        ball(0., 0., 0., 1.),
        ball(3., 0., 0., 1.),
        ball(0., 3., 0., 1.),
        ball(0., 0., 3., 1.),
        ball(3., 3., 3., 1.),
    ];
    let want = cpu(&b).unwrap();
    b.extend((0..500).map(|i| ball(0., 0., 0., 0.5 + i as f64 * 1e-3)));
    let d = cpu(&b).unwrap();
    assert_eq!(d.vertices, want.vertices);
    assert_eq!(d.contacts, want.contacts);
}

/// `n` balls of radius 0.01 on a sphere of radius 10 (a Fibonacci lattice).
fn on_sphere(n: usize) -> Vec<Ball> {
    (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let t = i as f64 * std::f64::consts::PI * (3.0 - 5f64.sqrt());
            ball(10. * r * t.cos(), 10. * r * t.sin(), 10. * z, 0.01)
        })
        .collect()
}

#[test]
fn awvd_balls_on_one_sphere_are_refused() {
    for n in [100usize, 20_000] {
        let t = Instant::now();
        let e = cpu(&on_sphere(n)).unwrap_err().to_string();
        assert!(e.contains("touch one empty sphere"), "{e}");
        assert!(t.elapsed().as_secs_f64() < 10.0, "{n}");
    }
    // the bound on vertices holds on a protein with room to spare
    let b = ubq();
    assert!(cpu(&b).unwrap().vertices.len() * 4 < awvd::max_vertices(b.len()));
}

/// `n` balls of radius 0.5 with centres on a sphere of radius 10, printed to `decimals` as a
/// file would hold them, from a fixed pseudo-random sequence.
fn on_sphere_rounded(n: usize, decimals: usize) -> Vec<Ball> {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let round = |x: f64| format!("{x:.decimals$}").parse::<f64>().unwrap();
    (0..n)
        .map(|_| {
            let z = 2.0 * next() - 1.0;
            let t = std::f64::consts::TAU * next();
            let r = (1.0 - z * z).sqrt();
            ball(
                round(10. * r * t.cos()),
                round(10. * r * t.sin()),
                round(10. * z),
                0.5,
            )
        })
        .collect()
}

#[test]
fn awvd_balls_on_one_sphere_up_to_rounding_are_refused() {
    // rounded to 6 or 3 decimals the balls are no longer tangent to one sphere within 1e-7, but
    // every search from a sphere inside the shell meets them all (the square of their number);
    // 100,000 on that sphere overlap so much that they are refused as crowded first
    for (n, decimals) in [(1_000usize, 6usize), (20_000, 3), (100_000, 3)] {
        let b = on_sphere_rounded(n, decimals);
        let t = Instant::now();
        let e = cpu(&b).unwrap_err().to_string();
        let why = if n > 50_000 {
            "within its reach"
        } else {
            "touch one empty sphere"
        };
        assert!(e.contains(why), "{n} {decimals}: {e}");
        assert!(t.elapsed().as_secs_f64() < 10.0, "{n}");
    }
    // a ball outside the shell first: its first vertex is not degenerate, so the refusal comes
    // from the searches (the device's own count on the device path)
    let mut b = vec![ball(0., 0., 10.8, 0.1)];
    b.extend(on_sphere_rounded(4_000, 3));
    let e = cpu(&b).unwrap_err().to_string();
    assert!(e.contains("touch one empty sphere"), "{e}");
    match awvd::device::awvd_device(
        &b,
        &AwvdOptions::default(),
        metaopt::device::Backend::Device(None),
        false,
    ) {
        Err(metaopt::Error::NoDevice(m)) => eprintln!("no OpenCL device: skipped ({m})"),
        Err(e) => assert!(e.to_string().contains("touch one empty sphere"), "{e}"),
        Ok(d) => panic!("a degenerate diagram of {} vertices", d.vertices.len()),
    }
}

#[test]
fn awvd_crowded_balls_are_refused_before_tracing() {
    // 3,000 distinct balls overlapping in a cube of 1 Å: each has thousands of near balls, whose
    // triples the vertex-free contacts would check (minutes); refused after one bounded scan
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let b: Vec<Ball> = (0..3000)
        .map(|_| ball(next(), next(), next(), 1.0 + 0.5 * next()))
        .collect();
    let t = Instant::now();
    let e = cpu(&b).unwrap_err().to_string();
    assert!(e.contains("balls") && e.contains("within its reach"), "{e}");
    assert!(t.elapsed().as_secs_f64() < 5.0);
    // atoms are far below the bound
    let balls = awvd::read_structure(
        common::data_dir().join("pdb").join("1igy.pdb"),
        &AtomSelection::default(),
    )
    .unwrap();
    assert!(cpu(&balls).is_ok());
}

#[test]
fn awvd_mmcif_reader_refuses_a_negative_occupancy() {
    // pdbtbx divides a shared atom's occupancy among alternative locations and panicked on the
    // check of the result
    let dir = tempfile::tempdir().unwrap();
    let text = cif("50.0", "1.0", "5").replace("1.0 1.0 1.00 0.00 1\n#", "1.0 1.0 -2.5 0.00 1\n#");
    let p = write(dir.path(), "occ.cif", &text);
    let e = awvd::read_structure(&p, &AtomSelection::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("occ.cif:") && e.contains("occupancy") && e.contains("-2.5"),
        "{e}"
    );
}

#[test]
fn awvd_mmcif_values_holding_their_quote_reach_pdbtbx_whole() {
    // pdbtbx ends a quoted value at its next quote character: a value holding its own quote is
    // given to it quoted with the other one, and one holding both is refused (split, its parts
    // would reach pdbtbx unchecked, e.g. a run of digits past its u32)
    let dir = tempfile::tempdir().unwrap();
    let sel = AtomSelection::default();
    let one = cif("50.0", "1.0", "5").replacen("ATOM 5 C CA .", "ATOM 5 C \"C\"A\" .", 1);
    let p = write(dir.path(), "quote.cif", &one);
    assert_eq!(awvd::read_structure(&p, &sel).unwrap().len(), 5);
    let both =
        cif("50.0", "1.0", "5").replacen("ATOM 5 C CA .", "ATOM 5 C \"C'\"11111111111111\" .", 1);
    let p = write(dir.path(), "both.cif", &both);
    let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
    assert!(
        e.contains("both.cif:") && e.contains("both quote characters"),
        "{e}"
    );
    // an unquoted value starting with `;` mid-line: pdbtbx would start a text field there
    let semi = cif("50.0", "1.0", "5").replacen("ATOM 5 C CA .", "ATOM 5 C ;CA .", 1);
    let p = write(dir.path(), "semi.cif", &semi);
    assert_eq!(awvd::read_structure(&p, &sel).unwrap().len(), 5);
    let semi =
        cif("50.0", "1.0", "5").replacen("ATOM 5 C CA .", "ATOM 5 C ;C'A\"8888888888888 .", 1);
    let p = write(dir.path(), "semi2.cif", &semi);
    let e = awvd::read_structure(&p, &sel).unwrap_err().to_string();
    assert!(
        e.contains("semi2.cif:") && e.contains("both quote characters"),
        "{e}"
    );
}
