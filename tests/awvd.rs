//! The additively weighted Voronoi diagram (src/awvd/): input, tangent spheres, the vertex set of
//! 1UBQ against Voronota's, random balls against Voronota run here when it is installed.

mod common;

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
    let mut w: HashMap<[u32; 4], Vec<[f64; 4]>> = HashMap::new();
    for (q, s) in want {
        w.entry(*q).or_default().push(*s);
    }
    let mut g: HashMap<[u32; 4], Vec<[f64; 4]>> = HashMap::new();
    for v in &got.vertices {
        g.entry(v.q).or_default().push([v.s.c[0], v.s.c[1], v.s.c[2], v.s.r]);
    }
    let missing: Vec<_> = w.keys().filter(|q| !g.contains_key(*q)).take(5).collect();
    let extra: Vec<_> = g.keys().filter(|q| !w.contains_key(*q)).take(5).collect();
    assert!(missing.is_empty() && extra.is_empty(), "{} vs {} vertices; missing {missing:?}, extra {extra:?}", got.vertices.len(), want.len());
    for (q, ws) in &w {
        let gs = &g[q];
        assert_eq!(gs.len(), ws.len(), "spheres of {q:?}");
        for s in ws {
            let d = gs.iter().map(|t| (0..4).map(|k| (t[k] - s[k]).abs()).fold(0.0, f64::max)).fold(f64::INFINITY, f64::min);
            assert!(d <= tol, "{q:?}: {d}");
        }
    }
    assert_eq!(got.vertices.len(), want.len());
}

#[test]
fn tangent_sphere_of_a_regular_tetrahedron() {
    // unit balls at alternate cube corners: the centre, radius sqrt(3) - 1
    let b = [ball(1., 1., 1., 1.), ball(1., -1., -1., 1.), ball(-1., 1., -1., 1.), ball(-1., -1., 1., 1.)];
    let s = spheres(tangent_spheres(b));
    assert_eq!(s.len(), 1);
    assert!(s[0].c.iter().all(|x| x.abs() < 1e-12));
    assert!((s[0].r - (3f64.sqrt() - 1.0)).abs() < 1e-12);
}

#[test]
fn tangent_sphere_with_unequal_radii_is_tangent() {
    let b = [ball(0., 0., 0., 1.7), ball(3., 0.2, 0., 1.52), ball(0.4, 3.1, 0.3, 1.55), ball(0.2, 0.5, 2.9, 1.8)];
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
    let b = [ball(3., 0., 0., rad(3., 0.)), ball(0., 2.5, 0., rad(0., 2.5)), ball(-2., 0., 0., rad(-2., 0.)), ball(0.5, -3., 0., rad(0.5, -3.))];
    let s = spheres(tangent_spheres(b));
    assert_eq!(s.len(), 2);
    for sp in &s {
        assert!(awvd::geom::tangency_error(sp, &b) < 1e-10);
    }
    assert!((s[0].c[2] + s[1].c[2]).abs() < 1e-9 && (s[0].r - 1.0).abs() < 1e-9 && (s[1].r - 1.0).abs() < 1e-9);
}

#[test]
fn negative_radius_kept_where_balls_overlap_deeply() {
    // four big balls whose centres are close: the point inside all four
    let b = [ball(0., 0., 0., 2.), ball(1., 0., 0., 2.1), ball(0., 1., 0., 2.2), ball(0., 0., 1., 2.3)];
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
    let b = [ball(0., 0., 0., 1.), ball(0.1, 0., 0., 3.), ball(0., 0.1, 0., 3.), ball(0., 0., 0.1, 3.)];
    assert_eq!(spheres(tangent_spheres(b)).len(), 0);
    // equal balls with collinear centres: a circle of spheres
    let b = [ball(0., 0., 0., 1.), ball(3., 0., 0., 1.), ball(6., 0., 0., 1.), ball(9., 0., 0., 1.)];
    assert_eq!(tangent_spheres(b), Tangent::Infinite);
}

#[test]
fn balls_of_1ubq_equal_voronotas() {
    let got = awvd::read_structure(pdb("1ubq.pdb"), &AtomSelection::default()).unwrap();
    let want = awvd::read_balls(pdb("1ubq.balls.txt")).unwrap();
    assert_eq!(got, want);
    assert_eq!(got.len(), 602);
}

#[test]
fn malformed_balls_file_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.balls");
    std::fs::write(&p, "1 2 3 1.5\n1 2 x 1.5\n").unwrap();
    let e = awvd::read_balls(&p).unwrap_err().to_string();
    assert!(e.contains("bad.balls") && e.contains('2') && e.contains("`x`"), "{e}");
    std::fs::write(&p, "1 2 3\n").unwrap();
    let e = awvd::read_balls(&p).unwrap_err().to_string();
    assert!(e.contains("bad.balls") && e.contains('1'), "{e}");
}

#[test]
fn vertices_of_1ubq_equal_voronotas_cpu() {
    let balls = awvd::read_balls(pdb("1ubq.balls.txt")).unwrap();
    let t = std::time::Instant::now();
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    eprintln!("1UBQ CPU: {} vertices in {:?}", got.vertices.len(), t.elapsed());
    let (terr, nonempty) = awvd::trace::check(&balls, &got.vertices, 1e-7);
    assert!(terr < 1e-6, "tangency {terr}");
    assert_eq!(nonempty, 0);
    let want = parse_vertices(&std::fs::read_to_string(pdb("1ubq.vertices.txt")).unwrap());
    assert_same_vertices(&got, &want, 1e-6);
    // every bounded edge links back
    for (v, e) in got.edges.iter().enumerate() {
        for &n in e {
            if n >= 0 {
                assert!(got.edges[n as usize].contains(&(v as i64)));
            }
        }
    }
}

fn voronota() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/bin/voronota");
    if p.is_file() {
        Some(p)
    } else {
        None
    }
}

fn run_voronota(balls_text: &str) -> String {
    use std::io::Write;
    let mut c = std::process::Command::new(voronota().unwrap())
        .arg("calculate-vertices")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(balls_text.as_bytes()).unwrap();
    let out = c.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn random_balls_equal_voronota() {
    if voronota().is_none() {
        eprintln!("voronota is not installed: skipped");
        return;
    }
    let mut s: u64 = 0x9e3779b97f4a7c15;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let balls: Vec<Ball> = (0..300).map(|_| ball(20.0 * next(), 20.0 * next(), 20.0 * next(), 1.0 + next())).collect();
    let text: String = balls.iter().map(|b| format!("{} {} {} {}\n", b.c[0], b.c[1], b.c[2], b.r)).collect();
    let balls = awvd::parse_balls(&text, std::path::Path::new("random")).unwrap();
    let want = parse_vertices(&run_voronota(&text));
    let got = awvd::awvd_cpu(&balls, &AwvdOptions::default()).unwrap();
    assert_same_vertices(&got, &want, 1e-6);
}

#[test]
fn vertices_of_1ubq_equal_voronotas_device() {
    let balls = awvd::read_balls(pdb("1ubq.balls.txt")).unwrap();
    let t = std::time::Instant::now();
    let got = match awvd::device::awvd_device(&balls, &AwvdOptions::default(), metaopt::device::Backend::Device(None), false) {
        Ok(g) => g,
        Err(metaopt::Error::NoDevice(m)) => {
            eprintln!("no OpenCL device: skipped ({m})");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    eprintln!("1UBQ device: {} vertices in {:?}, {} searches, {} double re-checks, {} float winners replaced", got.vertices.len(), t.elapsed(), got.searches, got.double_rechecks, got.float_replaced);
    let want = parse_vertices(&std::fs::read_to_string(pdb("1ubq.vertices.txt")).unwrap());
    assert_same_vertices(&got, &want, 1e-6);
}
