//! The additively weighted Voronoi diagram (src/awvd/): input, tangent spheres, the vertex sets of
//! 1UBQ, 1O1Z, 2D0F and 1IGY against Voronota's (run here when `voronota` is on PATH; the saved
//! 1UBQ output otherwise), the device (PoCL: float pass and double) against the CPU backend,
//! random balls with coplanar and with coincident centres, malformed input.

use crate::common;
use metaopt::awvd::{self, tangent_spheres, AtomSelection, AwvdOptions, AwvdResult, Ball, Tangent};
use std::collections::HashMap;
use std::path::PathBuf;

fn pdb(name: &str) -> PathBuf {
    common::data_dir().join("pdb").join(name)
}

fn ball(x: f64, y: f64, z: f64, r: f64) -> Ball {
    Ball { c: [x, y, z], r }
}

fn spheres(t: Tangent) -> Vec<awvd::Sphere> {
    match t {
        Tangent::Spheres(s) => s,
        Tangent::Infinite => panic!("infinite"),
    }
}

/// Reads `q1 q2 q3 q4 x y z r` lines.
fn parse_vertices(text: &str) -> Vec<([u32; 4], [f64; 4])> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<&str> = l.split_whitespace().collect();
            let q = [0, 1, 2, 3].map(|k| v[k].parse::<u32>().unwrap());
            let s = [4, 5, 6, 7].map(|k| v[k].parse::<f64>().unwrap());
            (q, s)
        })
        .collect()
}

/// The vertex sets are equal: the same quadruples, as many spheres each, coordinates within tol.
fn assert_same_vertices(got: &AwvdResult, want: &[([u32; 4], [f64; 4])], tol: f64) {
    assert_same_vertices_scaled(got, want, tol, false);
}

/// As `assert_same_vertices`; with `scaled`, the tolerance is relative to max(1, |r|).
fn assert_same_vertices_scaled(
    got: &AwvdResult,
    want: &[([u32; 4], [f64; 4])],
    tol: f64,
    scaled: bool,
) {
    let mut w: HashMap<[u32; 4], Vec<[f64; 4]>> = HashMap::new();
    for (q, s) in want {
        w.entry(*q).or_default().push(*s);
    }
    let mut g: HashMap<[u32; 4], Vec<[f64; 4]>> = HashMap::new();
    for v in &got.vertices {
        g.entry(v.q)
            .or_default()
            .push([v.s.c[0], v.s.c[1], v.s.c[2], v.s.r]);
    }
    let missing: Vec<_> = w.keys().filter(|q| !g.contains_key(*q)).take(5).collect();
    let extra: Vec<_> = g.keys().filter(|q| !w.contains_key(*q)).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{} vs {} vertices; missing {missing:?}, extra {extra:?}",
        got.vertices.len(),
        want.len()
    );
    for (q, ws) in &w {
        let gs = &g[q];
        assert_eq!(gs.len(), ws.len(), "spheres of {q:?}");
        for s in ws {
            let d = gs
                .iter()
                .map(|t| (0..4).map(|k| (t[k] - s[k]).abs()).fold(0.0, f64::max))
                .fold(f64::INFINITY, f64::min);
            let t = if scaled {
                tol * s[3].abs().max(1.0)
            } else {
                tol
            };
            assert!(d <= t, "{q:?}: {d}");
        }
    }
    assert_eq!(got.vertices.len(), want.len());
}

/// `voronota` on PATH.
fn voronota() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("voronota"))
        .find(|p| p.is_file())
}

/// Voronota's output of `command` with `input` on stdin.
fn run_voronota(command: &str, input: &str) -> String {
    use std::io::Write;
    let mut c = std::process::Command::new(voronota().unwrap())
        .arg(command)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = c.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = c.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "voronota {command} failed");
    String::from_utf8(out.stdout).unwrap()
}

fn balls_text(balls: &[Ball]) -> String {
    balls
        .iter()
        .map(|b| format!("{} {} {} {}\n", b.c[0], b.c[1], b.c[2], b.r))
        .collect()
}

/// Every vertex tangent to its four balls within 1e-6 and empty (no other ball penetrates its
/// sphere by more than 1e-7; checked through the grid); every bounded edge links back; the
/// ball pairs of the vertices are contacts.
fn check_diagram(balls: &[Ball], got: &AwvdResult) {
    check_vertices(balls, got);
    assert_eq!(got.edges.len(), got.vertices.len());
    for (v, e) in got.edges.iter().enumerate() {
        for (k, &n) in e.iter().enumerate() {
            if n >= 0 {
                let w = &got.vertices[n as usize];
                // the neighbour shares the three balls other than ball k
                let q = got.vertices[v].q;
                assert!(
                    (0..4).filter(|&t| t != k).all(|t| w.q.contains(&q[t])),
                    "edge {v} -> {n}"
                );
                assert!(got.edges[n as usize].contains(&(v as i64)));
            }
        }
    }
    let mut pairs: Vec<(u32, u32)> = got
        .vertices
        .iter()
        .flat_map(|v| (0..4).flat_map(move |x| ((x + 1)..4).map(move |y| (v.q[x], v.q[y]))))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    // the contacts: those pairs, and those of vertex-free elliptic edges; sorted, unique
    assert!(got.contacts.windows(2).all(|w| w[0] < w[1]));
    assert!(pairs.iter().all(|p| got.contacts.binary_search(p).is_ok()));
    if pairs.len() < got.contacts.len() {
        eprintln!(
            "{} contacts of vertex-free elliptic edges only",
            got.contacts.len() - pairs.len()
        );
    }
}

/// Every vertex tangent to its four balls within 1e-6 and empty (no other ball penetrates its
/// sphere by more than 1e-7; checked through the grid).
fn check_vertices(balls: &[Ball], got: &AwvdResult) {
    let (terr, nonempty) = awvd::trace::check(balls, &got.vertices, 1e-7);
    assert!(terr < 1e-6, "tangency {terr}");
    assert_eq!(nonempty, 0, "vertices whose sphere another ball penetrates");
}

/// The balls of a structure in data/pdb, checked against `voronota get-balls-from-atoms-file`
/// when it is installed.
fn structure(name: &str) -> Vec<Ball> {
    let path = pdb(&format!("{name}.pdb"));
    let got = awvd::read_structure(&path, &AtomSelection::default()).unwrap();
    if voronota().is_some() {
        let text = run_voronota(
            "get-balls-from-atoms-file",
            &std::fs::read_to_string(&path).unwrap(),
        );
        let want = awvd::parse_balls(&text, std::path::Path::new("voronota")).unwrap();
        assert_eq!(got, want, "balls of {name}");
    }
    got
}

/// Voronota's vertices of `balls`: run here when installed, else the saved file `saved` (if any).
fn voronota_vertices(balls: &[Ball], saved: Option<&str>) -> Option<Vec<([u32; 4], [f64; 4])>> {
    if voronota().is_some() {
        return Some(parse_vertices(&run_voronota(
            "calculate-vertices",
            &balls_text(balls),
        )));
    }
    saved.map(|f| parse_vertices(&std::fs::read_to_string(pdb(f)).unwrap()))
}

/// The CPU diagram of a structure: checked, and equal to Voronota's (coordinates within 1e-5).
fn structure_cpu(name: &str, saved: Option<&str>, count: usize) {
    let balls = structure(name);
    let t = std::time::Instant::now();
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    eprintln!(
        "{name} CPU: {} balls, {} vertices in {:?}",
        balls.len(),
        got.vertices.len(),
        t.elapsed()
    );
    check_diagram(&balls, &got);
    assert_eq!(got.vertices.len(), count);
    match voronota_vertices(&balls, saved) {
        Some(want) => assert_same_vertices(&got, &want, 1e-5),
        None => {
            eprintln!("voronota is not installed: {name} checked by tangency and emptiness only")
        }
    }
}

#[test]
fn tangent_sphere_of_a_regular_tetrahedron() {
    // unit balls at alternate cube corners: the centre, radius sqrt(3) - 1
    let b = [
        ball(1., 1., 1., 1.),
        ball(1., -1., -1., 1.),
        ball(-1., 1., -1., 1.),
        ball(-1., -1., 1., 1.),
    ];
    let s = spheres(tangent_spheres(b));
    assert_eq!(s.len(), 1);
    assert!(s[0].c.iter().all(|x| x.abs() < 1e-12));
    assert!((s[0].r - (3f64.sqrt() - 1.0)).abs() < 1e-12);
}

#[test]
fn tangent_sphere_with_unequal_radii_is_tangent() {
    let b = [
        ball(0., 0., 0., 1.7),
        ball(3., 0.2, 0., 1.52),
        ball(0.4, 3.1, 0.3, 1.55),
        ball(0.2, 0.5, 2.9, 1.8),
    ];
    let s = spheres(tangent_spheres(b));
    assert!(!s.is_empty());
    for sp in &s {
        assert!(awvd::geom::tangency_error(sp, &b) < 1e-10);
    }
}

#[test]
fn coplanar_centres_give_two_mirror_spheres() {
    // centres in z = 0, radii making them tangent to the unit sphere at (0, 0, 1): its mirror too
    let rad = |x: f64, y: f64| (x * x + y * y + 1.0).sqrt() - 1.0;
    let b = [
        ball(3., 0., 0., rad(3., 0.)),
        ball(0., 2.5, 0., rad(0., 2.5)),
        ball(-2., 0., 0., rad(-2., 0.)),
        ball(0.5, -3., 0., rad(0.5, -3.)),
    ];
    let s = spheres(tangent_spheres(b));
    assert_eq!(s.len(), 2);
    for sp in &s {
        assert!(awvd::geom::tangency_error(sp, &b) < 1e-10);
    }
    assert!(
        (s[0].c[2] + s[1].c[2]).abs() < 1e-9
            && (s[0].r - 1.0).abs() < 1e-9
            && (s[1].r - 1.0).abs() < 1e-9
    );
}

#[test]
fn negative_radius_kept_where_balls_overlap_deeply() {
    // four big balls whose centres are close: the point inside all four
    let b = [
        ball(0., 0., 0., 2.),
        ball(1., 0., 0., 2.1),
        ball(0., 1., 0., 2.2),
        ball(0., 0., 1., 2.3),
    ];
    let s = spheres(tangent_spheres(b));
    assert!(s.iter().any(|x| x.r < 0.0), "{s:?}");
    for sp in &s {
        assert!(sp.r >= -2.0 - 1e-12);
        assert!(awvd::geom::tangency_error(sp, &b) < 1e-10);
    }
}

#[test]
fn no_tangent_sphere_and_infinite_cases() {
    // a small ball between big ones in a row-like arrangement: nothing tangent to all four
    let b = [
        ball(0., 0., 0., 1.),
        ball(0.1, 0., 0., 3.),
        ball(0., 0.1, 0., 3.),
        ball(0., 0., 0.1, 3.),
    ];
    assert_eq!(spheres(tangent_spheres(b)).len(), 0);
    // equal balls with collinear centres: a circle of spheres
    let b = [
        ball(0., 0., 0., 1.),
        ball(3., 0., 0., 1.),
        ball(6., 0., 0., 1.),
        ball(9., 0., 0., 1.),
    ];
    assert_eq!(tangent_spheres(b), Tangent::Infinite);
}

#[test]
fn balls_of_1ubq_equal_voronotas() {
    let got = structure("1ubq");
    let want = awvd::read_balls(pdb("1ubq.balls.txt")).unwrap();
    assert_eq!(got, want);
    assert_eq!(got.len(), 602);
    let got = structure("1o1z");
    assert_eq!(got, awvd::read_balls(pdb("1o1z.balls.txt")).unwrap());
    assert_eq!(structure("2d0f").len(), 5038);
    assert_eq!(structure("1igy").len(), 10032);
}

#[test]
fn malformed_input_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.balls");
    let err = |text: &str| {
        std::fs::write(&p, text).unwrap();
        awvd::read_balls(&p).unwrap_err().to_string()
    };
    let e = err("1 2 3 1.5\n1 2 x 1.5\n");
    assert!(
        e.contains("bad.balls") && e.contains('2') && e.contains("`x`"),
        "{e}"
    );
    let e = err("1 2 3\n");
    assert!(
        e.contains("bad.balls") && e.contains('1') && e.contains("3 numbers"),
        "{e}"
    );
    let e = err("0 0 0 1\n1 2 3 -1.5 # note\n");
    assert!(
        e.contains("bad.balls") && e.contains('2') && e.contains("negative radius"),
        "{e}"
    );
    let e = err("0 0 0 1\n0 0 0 1\nnan 0 0 1\n");
    assert!(e.contains('3') && e.contains("not finite"), "{e}");
    let e = err("\n\n");
    assert!(e.contains("no balls"), "{e}");
    // annotations after the four numbers are ignored
    std::fs::write(&p, "0 0 0 1 # 1 A 1 GLY N . .\n2 0 0 1.5\n").unwrap();
    assert_eq!(
        awvd::read_balls(&p).unwrap(),
        vec![ball(0., 0., 0., 1.), ball(2., 0., 0., 1.5)]
    );
    // a missing file and a file that is not a structure
    assert!(awvd::read_balls(dir.path().join("none.balls"))
        .unwrap_err()
        .to_string()
        .contains("none.balls"));
    let q = dir.path().join("bad.pdb");
    std::fs::write(&q, "HEADER    NOTHING\nEND\n").unwrap();
    assert!(awvd::read_structure(&q, &AtomSelection::default()).is_err());
    // fewer than four balls: no vertex
    assert!(awvd::awvd_cpu(
        &[ball(0., 0., 0., 1.), ball(3., 0., 0., 1.)],
        &AwvdOptions::default()
    )
    .unwrap()
    .vertices
    .is_empty());
}

#[test]
fn vertices_of_1ubq_equal_voronotas_cpu() {
    // the saved output too, so that a machine without voronota compares something
    let balls = structure("1ubq");
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    let saved = parse_vertices(&std::fs::read_to_string(pdb("1ubq.vertices.txt")).unwrap());
    assert_same_vertices(&got, &saved, 1e-5);
    structure_cpu("1ubq", Some("1ubq.vertices.txt"), 3793);
}

#[test]
fn vertices_of_1o1z_equal_voronotas_cpu() {
    structure_cpu("1o1z", None, 12085);
}

#[test]
fn vertices_of_2d0f_equal_voronotas_cpu() {
    structure_cpu("2d0f", None, 33900);
}

#[test]
fn vertices_of_1igy_equal_voronotas_cpu() {
    structure_cpu("1igy", None, 67915);
}

/// Xorshift in [0, 1).
fn rng(mut s: u64) -> impl FnMut() -> f64 {
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Balls written with 3 decimals (as Voronota reads them) and read back.
fn rounded(balls: &[Ball]) -> Vec<Ball> {
    let text: String = balls
        .iter()
        .map(|b| format!("{:.3} {:.3} {:.3} {:.3}\n", b.c[0], b.c[1], b.c[2], b.r))
        .collect();
    awvd::parse_balls(&text, std::path::Path::new("random")).unwrap()
}

#[test]
fn random_balls_equal_voronota() {
    let mut next = rng(0x9e3779b97f4a7c15);
    let balls = rounded(
        &(0..300)
            .map(|_| ball(20.0 * next(), 20.0 * next(), 20.0 * next(), 1.0 + next()))
            .collect::<Vec<_>>(),
    );
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    check_diagram(&balls, &got);
    assert!(got.vertices.len() > 1000, "{}", got.vertices.len());
    match voronota_vertices(&balls, None) {
        Some(want) => assert_same_vertices(&got, &want, 1e-5),
        None => eprintln!("voronota is not installed: checked by tangency and emptiness only"),
    }
}

#[test]
fn coplanar_centres_give_mirror_pairs() {
    // every centre in z = 0: each quadruple's two spheres are mirror images
    let mut next = rng(0x2545f4914f6cdd1d);
    let balls = rounded(
        &(0..200)
            .map(|_| ball(20.0 * next(), 20.0 * next(), 0.0, 1.0 + next()))
            .collect::<Vec<_>>(),
    );
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    check_diagram(&balls, &got);
    assert!(
        got.vertices.len() > 400 && got.vertices.len().is_multiple_of(2),
        "{}",
        got.vertices.len()
    );
    for p in got.vertices.chunks(2) {
        assert_eq!(p[0].q, p[1].q);
        assert!(p[0].s.c[2] < 0.0 && p[1].s.c[2] > 0.0, "{:?}", p);
        assert!(
            (p[0].s.c[2] + p[1].s.c[2]).abs() < 1e-9
                && (0..2).all(|k| (p[0].s.c[k] - p[1].s.c[k]).abs() < 1e-9)
                && (p[0].s.r - p[1].s.r).abs() < 1e-9
        );
    }
    if let Some(want) = voronota_vertices(&balls, None) {
        // Voronota's own spheres of coplanar centres are less exact (not mirror images; up to
        // about 1e-2 of the radius off where the radius is 38,000), and it misses a few empty
        // tangent spheres (here quadruple 73 77 94 179, radius 110, the nearest other ball
        // 0.018 away): every vertex of Voronota's is ours, two spheres each, and ours beyond
        // them are few, tangent and empty (checked above)
        let mine: std::collections::HashSet<[u32; 4]> = got.vertices.iter().map(|v| v.q).collect();
        let theirs: std::collections::HashSet<[u32; 4]> = want.iter().map(|w| w.0).collect();
        assert!(theirs.is_subset(&mine));
        let shared: Vec<_> = got
            .vertices
            .iter()
            .filter(|v| theirs.contains(&v.q))
            .copied()
            .collect();
        let sub = AwvdResult {
            vertices: shared,
            ..Default::default()
        };
        assert_same_vertices_scaled(&sub, &want, 5e-2, true);
        let extra = mine.len() - theirs.len();
        eprintln!(
            "coplanar: {} quadruples, {} of them not Voronota's",
            mine.len(),
            extra
        );
        assert!(extra * 100 <= mine.len(), "{extra} of {}", mine.len());
    }
}

#[test]
fn coincident_centres_hide_the_smaller_ball() {
    // 30 balls share a centre with a larger ball: the smaller one lies inside and has no vertex
    let mut next = rng(0xd1b54a32d192ed03);
    let mut balls: Vec<Ball> = (0..250)
        .map(|_| ball(20.0 * next(), 20.0 * next(), 20.0 * next(), 1.0 + next()))
        .collect();
    for k in 0..30 {
        // distinct balls: no two equal balls
        let b = balls[k * 8 + 3];
        let dr = if k % 2 == 0 { 0.3 } else { -0.3 };
        balls.push(ball(b.c[0], b.c[1], b.c[2], b.r + dr));
    }
    let balls = rounded(&balls);
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    check_diagram(&balls, &got);
    let hidden: Vec<u32> = (0..balls.len())
        .filter(|&i| balls.iter().any(|b| b.c == balls[i].c && b.r > balls[i].r))
        .map(|i| i as u32)
        .collect();
    assert!(hidden.len() >= 25, "{}", hidden.len());
    assert!(got
        .vertices
        .iter()
        .all(|v| v.q.iter().all(|i| !hidden.contains(i))));
    match voronota_vertices(&balls, None) {
        Some(want) => assert_same_vertices(&got, &want, 1e-5),
        None => eprintln!("voronota is not installed: checked by tangency and emptiness only"),
    }
}

/// The device diagram (PoCL here), float pass then double or double only; None without a device.
fn device(balls: &[Ball], double: bool) -> Option<AwvdResult> {
    match awvd::device::awvd_device(
        balls,
        &AwvdOptions::default(),
        metaopt::device::Backend::Device(None),
        double,
    ) {
        Ok(g) => Some(g),
        Err(metaopt::Error::NoDevice(m)) => {
            eprintln!("no OpenCL device: skipped ({m})");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

/// The device's vertex set equals the CPU backend's (float pass and double).
fn device_equals_cpu(name: &str) {
    let balls = structure(name);
    let cpu = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    let want: Vec<([u32; 4], [f64; 4])> = cpu
        .vertices
        .iter()
        .map(|v| (v.q, [v.s.c[0], v.s.c[1], v.s.c[2], v.s.r]))
        .collect();
    for double in [false, true] {
        let t = std::time::Instant::now();
        let Some(got) = device(&balls, double) else {
            return;
        };
        eprintln!("{name} device (double {double}): {} vertices in {:?}, {} searches, {} double re-checks, {} float winners replaced", got.vertices.len(), t.elapsed(), got.searches, got.double_rechecks, got.float_replaced);
        assert_same_vertices(&got, &want, 1e-9);
        assert_eq!(got.edges, cpu.edges);
        assert_eq!(got.contacts, cpu.contacts);
    }
}

#[test]
fn vertices_of_1ubq_equal_voronotas_device() {
    let balls = structure("1ubq");
    let Some(got) = device(&balls, false) else {
        return;
    };
    let want = parse_vertices(&std::fs::read_to_string(pdb("1ubq.vertices.txt")).unwrap());
    assert_same_vertices(&got, &want, 1e-5);
    device_equals_cpu("1ubq");
}

#[test]
fn device_equals_cpu_1o1z() {
    device_equals_cpu("1o1z");
}

#[test]
fn device_equals_cpu_2d0f() {
    device_equals_cpu("2d0f");
}

#[test]
fn device_equals_cpu_1igy() {
    device_equals_cpu("1igy");
}

/// Voronota's vertices with surplus quadruples (every quadruple of the balls on each sphere).
fn voronota_surplus(balls: &[Ball]) -> Option<Vec<([u32; 4], [f64; 4])>> {
    use std::io::Write;
    voronota()?;
    let mut c = std::process::Command::new(voronota().unwrap())
        .args(["calculate-vertices", "--include-surplus-quadruples"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = c.stdin.take().unwrap();
    let text = balls_text(balls);
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()).unwrap());
    let out = c.wait_with_output().unwrap();
    writer.join().unwrap();
    Some(parse_vertices(&String::from_utf8(out.stdout).unwrap()))
}

/// The spheres of `a` all lie within 1e-6 of spheres of `b` and back.
fn same_spheres(a: &[[f64; 4]], b: &[[f64; 4]]) {
    let near = |s: &[f64; 4], set: &[[f64; 4]]| {
        set.iter()
            .any(|t| (0..4).all(|k| (s[k] - t[k]).abs() <= 1e-6))
    };
    for s in a {
        assert!(near(s, b), "{s:?}");
    }
    for s in b {
        assert!(near(s, a), "{s:?}");
    }
}

/// Surplus quadruples: our vertices all lie among Voronota's with `--include-surplus-quadruples`
/// (same sphere each), and the spheres are Voronota's default ones. Which quadruples of a sphere
/// Voronota keeps by default depends on its traversal: not compared.
fn compare_surplus(balls: &[Ball], got: &AwvdResult) {
    let ours: Vec<[f64; 4]> = got
        .vertices
        .iter()
        .map(|v| [v.s.c[0], v.s.c[1], v.s.c[2], v.s.r])
        .collect();
    if let Some(all) = voronota_surplus(balls) {
        let mut m: HashMap<[u32; 4], Vec<[f64; 4]>> = HashMap::new();
        for (q, s) in &all {
            m.entry(*q).or_default().push(*s);
        }
        for v in &got.vertices {
            let s = [v.s.c[0], v.s.c[1], v.s.c[2], v.s.r];
            assert!(
                m.get(&v.q).is_some_and(|l| l
                    .iter()
                    .any(|t| (0..4).all(|k| (s[k] - t[k]).abs() <= 1e-6))),
                "{:?} is not Voronota's",
                v.q
            );
        }
        let want = voronota_vertices(balls, None).unwrap();
        same_spheres(&ours, &want.iter().map(|w| w.1).collect::<Vec<_>>());
    }
}

#[test]
fn five_balls_on_one_sphere() {
    // random balls, then a ball tangent to each of 12 vertex spheres from outside (full
    // precision): those spheres stay empty with five balls on them
    let mut next = rng(0x853c49e6748fea9b);
    let mut balls: Vec<Ball> = (0..150)
        .map(|_| ball(20.0 * next(), 20.0 * next(), 20.0 * next(), 1.0 + next()))
        .collect();
    let first = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    let mut used: Vec<u32> = Vec::new();
    let mut targets = Vec::new();
    for v in first
        .vertices
        .iter()
        .filter(|v| v.s.r > 0.5 && v.s.r < 3.0)
        .step_by(7)
    {
        if targets.len() == 12 || v.q.iter().any(|i| used.contains(i)) {
            continue;
        }
        used.extend(v.q);
        let u = [next() - 0.5, next() - 0.5, next() - 0.5];
        let l = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt();
        let rb = 1.0 + next();
        let c = [0, 1, 2].map(|k| v.s.c[k] + u[k] / l * (v.s.r + rb));
        balls.push(Ball { c, r: rb });
        targets.push(v.s);
    }
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    check_vertices(&balls, &got);
    // the spheres with five balls on them: each still a vertex, some with the new ball
    let five: Vec<_> = targets
        .iter()
        .filter(|s| {
            balls
                .iter()
                .filter(|b| (awvd::geom::tangency_error(s, &[**b])) < 1e-9)
                .count()
                == 5
                && got
                    .vertices
                    .iter()
                    .any(|v| (0..3).all(|k| (v.s.c[k] - s.c[k]).abs() < 1e-9))
        })
        .collect();
    eprintln!(
        "{} of {} spheres with five balls",
        five.len(),
        targets.len()
    );
    assert!(
        five.len() >= 3,
        "{} of {} spheres with five balls",
        five.len(),
        targets.len()
    );
    compare_surplus(&balls, &got);
    same_on_device(&balls, &got);
}

#[test]
fn cubic_lattice_gives_the_cell_spheres() {
    // 4 x 4 x 4 unit balls 3 apart: eight balls on each cell's sphere (centre the cell's,
    // radius 1.5 sqrt 3 - 1), four on every face circle, rows of collinear centres
    let mut balls = Vec::new();
    for x in 0..4 {
        for y in 0..4 {
            for z in 0..4 {
                balls.push(ball(3.0 * x as f64, 3.0 * y as f64, 3.0 * z as f64, 1.0));
            }
        }
    }
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    check_vertices(&balls, &got);
    let r = 1.5 * 3f64.sqrt() - 1.0;
    let mut cells = std::collections::HashSet::new();
    for v in &got.vertices {
        let cell = v.s.c.map(|x| ((x - 1.5) / 3.0).round() as i64);
        assert!(
            (0..3).all(|k| (v.s.c[k] - (3.0 * cell[k] as f64 + 1.5)).abs() < 1e-9)
                && (v.s.r - r).abs() < 1e-9,
            "{v:?}"
        );
        cells.insert(cell);
    }
    assert_eq!(cells.len(), 27);
    compare_surplus(&balls, &got);
    same_on_device(&balls, &got);
}

/// The device (float pass and double) gives the CPU backend's vertices and edges.
fn same_on_device(balls: &[Ball], cpu: &AwvdResult) {
    for double in [false, true] {
        let Some(got) = device(balls, double) else {
            return;
        };
        assert_eq!(got.vertices, cpu.vertices, "double {double}");
        assert_eq!(got.edges, cpu.edges, "double {double}");
    }
}

/// Ball pairs (i < j, centres within r_i + r_j + 2 `reach`) whose apex sphere (tangent to both
/// on the segment of their centres) is empty: each shares a face.
fn empty_apex_pairs(balls: &[Ball], reach: f64) -> Vec<(u32, u32)> {
    let ctx = awvd::trace::Ctx::new(balls, 0.0);
    let mut out = Vec::new();
    for (i, bi) in balls.iter().enumerate() {
        ctx.grid
            .for_each(bi.c, bi.r + ctx.grid.rmax + 2.0 * reach, |j| {
                let bj = &balls[j as usize];
                let d = [0, 1, 2].map(|k| bj.c[k] - bi.c[k]);
                let l = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                if j as usize <= i || l > bi.r + bj.r + 2.0 * reach {
                    return;
                }
                let rho = 0.5 * (l - bi.r - bj.r);
                let s = awvd::Sphere {
                    c: [0, 1, 2].map(|k| bi.c[k] + (bi.r + rho) / l * d[k]),
                    r: rho,
                };
                if awvd::trace::is_empty(&ctx, &s, &[i as u32, j], 1e-7) {
                    out.push((i as u32, j));
                }
            });
    }
    out
}

#[test]
fn pairs_with_an_empty_apex_sphere_are_contacts() {
    for name in ["1ubq", "1o1z", "2d0f"] {
        let balls = structure(name);
        let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
        let pairs = empty_apex_pairs(&balls, 4.0);
        let missing: Vec<_> = pairs
            .iter()
            .filter(|p| got.contacts.binary_search(p).is_err())
            .collect();
        eprintln!("{name}: {} pairs with an empty apex sphere, {} contacts, {} of those pairs not contacts: {:?}", pairs.len(), got.contacts.len(), missing.len(), &missing[..missing.len().min(5)]);
        assert!(missing.is_empty());
    }
}

#[test]
fn vertex_free_elliptic_edge_gives_contacts() {
    // a small ball in the gap between two larger ones: their trisector is an ellipse that no other
    // ball touches, so the diagram has no vertex, yet the three pairs share faces
    let b = [
        ball(0., 0., 0., 1.5),
        ball(3.2, 0., 0., 1.5),
        ball(1.6, 0.2, 0., 0.3),
        ball(20., 20., 20., 1.5),
        ball(-20., 20., 20., 1.5),
    ];
    assert!(awvd::Trisector::new([b[0], b[1], b[2]])
        .unwrap()
        .ellipse
        .is_some());
    let got = awvd::awvd_cpu(&b, &AwvdOptions::default()).unwrap();
    assert!(got.vertices.is_empty(), "{:?}", got.vertices);
    assert_eq!(got.contacts, vec![(0, 1), (0, 2), (1, 2)]);
    // the pairs the empty apex spheres prove are among them
    for p in empty_apex_pairs(&b, 4.0) {
        assert!(got.contacts.contains(&p), "{p:?}");
    }
}

/// The device's path for edges it cannot prove (every third edge sent to the host's search)
/// and a vertex table that fills up (grown and traced again) give the CPU backend's diagram.
#[test]
fn device_host_searches_and_a_full_table_equal_cpu() {
    let balls = structure("1ubq");
    let cpu = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    for double in [false, true] {
        let mut dev = match awvd::device::AwvdDevice::host_every(
            metaopt::device::Backend::Device(None),
            double,
            1e-3,
            3,
        ) {
            Ok(d) => d,
            Err(metaopt::Error::NoDevice(m)) => {
                eprintln!("no OpenCL device: skipped ({m})");
                return;
            }
            Err(e) => panic!("{e}"),
        };
        dev.first_capacity = Some(100);
        let got = dev.diagram(&balls, &AwvdOptions::default()).unwrap();
        assert!(
            got.host_searches > got.searches / 4,
            "{} host searches of {}",
            got.host_searches,
            got.searches
        );
        assert!(got.vertices.len() > 100);
        assert_eq!(got.vertices, cpu.vertices, "double {double}");
        assert_eq!(got.edges, cpu.edges, "double {double}");
        assert_eq!(got.contacts, cpu.contacts, "double {double}");
    }
    assert!(awvd::device::AwvdDevice::host_every(
        metaopt::device::Backend::Device(None),
        true,
        1e-3,
        0
    )
    .is_err());
}
