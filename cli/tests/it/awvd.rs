//! `metaopt awvd` and `metaopt bench awvd` end to end on 1UBQ (data/pdb): the vertices file equals
//! Voronota's quadruples and spheres, device (PoCL) and CPU agree, contacts, JSON fields, the
//! bench's CSV, and errors with status 2.

use crate::run;
use run::{fails, ok};
use std::collections::HashMap;

const PDB: &str = "data/pdb/1ubq.pdb";

/// `q1 q2 q3 q4 x y z r` lines by quadruple.
fn vertices(text: &str) -> HashMap<[u32; 4], [f64; 4]> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(v.len(), 8, "{l}");
            (
                [0, 1, 2, 3].map(|k| v[k].parse().unwrap()),
                [4, 5, 6, 7].map(|k| v[k].parse().unwrap()),
            )
        })
        .collect()
}

#[test]
fn vertices_of_1ubq_equal_voronotas_on_the_cpu_and_the_device() {
    let dir = tempfile::tempdir().unwrap();
    let want = vertices(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../data/pdb/1ubq.vertices.txt"
        ))
        .unwrap(),
    );
    assert_eq!(want.len(), 3793);
    let mut texts = Vec::new();
    for backend in [&["--cpu"][..], &[][..]] {
        let v = dir.path().join("v.txt");
        let c = dir.path().join("c.txt");
        let mut args = vec![
            "awvd",
            PDB,
            "--vertices",
            v.to_str().unwrap(),
            "--contacts",
            c.to_str().unwrap(),
        ];
        args.extend_from_slice(backend);
        let out = ok(&args);
        assert!(
            out.contains("602 balls") && out.contains("vertices: 3793"),
            "{out}"
        );
        let text = std::fs::read_to_string(&v).unwrap();
        let got = vertices(&text);
        assert_eq!(got.len(), 3793);
        for (q, s) in &want {
            let g = got.get(q).unwrap_or_else(|| panic!("{q:?} missing"));
            assert!(
                (0..4).all(|k| (g[k] - s[k]).abs() < 1e-6),
                "{q:?}: {g:?} vs {s:?}"
            );
        }
        // contacts: sorted pairs i < j, every pair of a vertex among them
        let contacts: Vec<(u32, u32)> = std::fs::read_to_string(&c)
            .unwrap()
            .lines()
            .map(|l| {
                let (i, j) = l.split_once(' ').unwrap();
                (i.parse().unwrap(), j.parse().unwrap())
            })
            .collect();
        assert!(
            contacts.windows(2).all(|w| w[0] < w[1])
                && contacts.iter().all(|(i, j)| i < j && *j < 602)
        );
        assert!(
            out.contains(&format!("contacts: {}", contacts.len())),
            "{out}"
        );
        for q in got.keys() {
            assert!(
                contacts.binary_search(&(q[0], q[3])).is_ok()
                    && contacts.binary_search(&(q[1], q[2])).is_ok()
            );
        }
        texts.push(text);
    }
    assert_eq!(texts[0], texts[1], "device and CPU print the same vertices");
}

#[test]
fn json_and_vertices_on_stdout() {
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["awvd", "data/pdb/1ubq.balls.txt", "--cpu", "--json"])).unwrap();
    assert_eq!(j["balls"], 602);
    assert_eq!(j["vertices"], 3793);
    assert_eq!(j["backend"], "cpu");
    assert_eq!(j["double_rechecks"], 0);
    assert!(j["contacts"].as_u64().unwrap() > 3793 / 2);
    for k in [
        "searches",
        "restarts",
        "parse_s",
        "diagram_s",
        "output_s",
        "unbounded_edges",
    ] {
        assert!(!j[k].is_null(), "{k} missing: {j}");
    }
    let out = ok(&["awvd", PDB, "--cpu", "--vertices", "-", "--quiet"]);
    assert_eq!(vertices(&out).len(), 3793);
    assert!(!out.contains("balls"), "the summary goes to stderr: {out}");
    // the selection flags: 1UBQ has 58 waters (HETATM)
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["awvd", PDB, "--cpu", "--json", "--hetatm"])).unwrap();
    assert_eq!(j["balls"], 660);
}

#[test]
fn bench_reports_best_times_and_the_vertex_count() {
    let out = ok(&[
        "bench",
        "awvd",
        PDB,
        "--repeat",
        "2",
        "--cpu",
        "--threads",
        "2",
        "--no-voronota",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "file,balls,backend,threads,repeat,parse_s,diagram_s,grid_s,trace_s,search_s,finish_s,output_s,total_s,levels,host_searches,vertices,contacts,voronota_s,voronota_vertices,speedup"
    );
    let row = |line: &str| -> std::collections::HashMap<String, String> {
        lines[0]
            .split(',')
            .map(str::to_string)
            .zip(line.split(',').map(str::to_string))
            .collect()
    };
    let r = row(lines[1]);
    assert_eq!(
        [
            &r["file"],
            &r["balls"],
            &r["backend"],
            &r["threads"],
            &r["repeat"]
        ],
        [PDB, "602", "cpu", "2", "2"]
    );
    assert_eq!(r["vertices"], "3793");
    assert_eq!(r["host_searches"], "0");
    assert!(r["levels"].parse::<u64>().unwrap() > 0);
    let t = |k: &str| r[k].parse::<f64>().unwrap();
    for k in [
        "parse_s",
        "diagram_s",
        "grid_s",
        "trace_s",
        "search_s",
        "finish_s",
        "output_s",
        "total_s",
    ] {
        assert!(t(k) >= 0.0, "{k}");
    }
    // the parts of the best diagram run lie within it; the search is part of the tracing
    assert!(t("diagram_s") > 0.0 && t("total_s") >= t("diagram_s"));
    assert!(
        t("search_s") <= t("trace_s")
            && t("grid_s") + t("trace_s") + t("finish_s") <= t("diagram_s") * 1.001 + 1e-6
    );
    assert_eq!(r["voronota_s"], "");
    if std::path::Path::new("/usr/bin/voronota").is_file() {
        let out = ok(&["bench", "awvd", PDB, "--repeat", "1", "--cpu"]);
        let r = row(out.lines().nth(1).unwrap());
        assert_eq!(
            r["voronota_vertices"], "3793",
            "voronota's vertex count: {out}"
        );
        assert!(r["voronota_s"].parse::<f64>().unwrap() > 0.0);
    }
}

#[test]
fn errors_have_status_2() {
    let dir = tempfile::tempdir().unwrap();
    fails(&["awvd", "/nonexistent/x.pdb", "--cpu"], "x.pdb");
    let bad = dir.path().join("bad.balls");
    std::fs::write(&bad, "1 2 3 1.5\n1 2 3 -1\n").unwrap();
    fails(
        &["awvd", bad.to_str().unwrap(), "--cpu"],
        "bad.balls:2: negative radius",
    );
    fails(&["awvd", PDB, "--cpu", "--cell=-1"], "--cell");
    fails(
        &["awvd", PDB, "--cpu", "--device", "0"],
        "cannot be used with",
    );
    fails(&["bench", "awvd", PDB, "--repeat", "0"], "--repeat");
}

/// 100,000 random balls (`x y z r` lines) in a cube of side 140 Å: tens of seconds of work.
fn many_balls(dir: &std::path::Path) -> String {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let text: String = (0..100_000)
        .map(|_| {
            format!(
                "{:.3} {:.3} {:.3} {:.3}\n",
                140.0 * next(),
                140.0 * next(),
                140.0 * next(),
                1.0 + next()
            )
        })
        .collect();
    let p = dir.join("many.balls");
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// The diagram is whole or nothing: past `--time-limit`, `error: time limit` and status 2 with no
/// file written; after Ctrl-C, `error: interrupted` and status 130.
#[test]
fn a_diagram_cut_short_writes_nothing() {
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let balls = many_balls(dir.path());
    let out = dir.path().join("v.txt");
    let out_s = out.to_str().unwrap();
    let t0 = std::time::Instant::now();
    fails(
        &[
            "awvd",
            &balls,
            "--cpu",
            "--time-limit",
            "0.3",
            "--vertices",
            out_s,
        ],
        "time limit",
    );
    assert!(t0.elapsed().as_secs_f64() < 2.0, "{:?}", t0.elapsed());
    assert!(!out.exists());
    let (o, took) = crate::sp::sigint_after(
        &["awvd", &balls, "--cpu", "--vertices", out_s],
        Duration::from_millis(1000),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(err.contains("error: interrupted"), "{err}");
    assert!(!out.exists());
}

/// Hostile inputs: errors with status 2 naming the argument or the line (never an internal
/// error), diagrams of far-apart, equal and concentric balls at once, and balls on one sphere
/// refused.
#[test]
fn hostile_input_is_an_error_or_a_quick_diagram() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    let four = "0 0 0 1\n3 0 0 1\n0 3 0 1\n";
    let far = file("far.balls", &format!("{four}1e20 0 0 1\n"));
    fails(&["awvd", &far, "--cpu"], "far.balls:4");
    let b = file("b.balls", &format!("{four}0 0 3 1\n"));
    for cell in ["1e-300", "0.000001"] {
        let out = ok(&["awvd", &b, "--cpu", "--json", "--cell", cell]);
        assert!(out.contains("\"vertices\":1"), "{out}");
    }
    fails(&["awvd", &b, "--cpu", "--cell", "inf"], "--cell");
    fails(&["awvd", &b, "--cpu", "--cell", "nan"], "--cell");
    // four balls a million Å apart: a small grid, at once
    let spread = file(
        "spread.balls",
        "0 0 0 0.1\n1000000 1000000 1000000 0.1\n1000000 0 0 0.1\n0 1000000 0 0.1\n",
    );
    let t = std::time::Instant::now();
    let out = ok(&["awvd", &spread, "--cpu", "--json"]);
    assert!(out.contains("\"vertices\":1"), "{out}");
    assert!(t.elapsed().as_secs_f64() < 10.0);
    // a PDB atom with a `nan` coordinate, an invalid space group, mmCIF's unknown cell
    let atom = |n: usize, x: &str| {
        format!(
            "ATOM  {n:>5}  CA  GLY A{n:>4}    {x:>8}{:>8}{:>8}  1.00  0.00           C  \n",
            "0.000", "0.000"
        )
    };
    let nan = file(
        "nan.pdb",
        &format!("{}{}END\n", atom(1, "1.000"), atom(2, "nan")),
    );
    fails(&["awvd", &nan, "--cpu"], "nan.pdb:2");
    let cryst = file(
        "cryst.pdb",
        &format!(
            "CRYST1   50.000   50.000   50.000  90.00  90.00  90.00 Q 9 9 9        4\n{}{}END\n",
            atom(1, "1.000"),
            atom(2, "3.000")
        ),
    );
    let out = ok(&["awvd", &cryst, "--cpu", "--json"]);
    assert!(out.contains("\"balls\":2"), "{out}");
    let cif = file(
        "cell.cif",
        "data_x\n_cell.length_a ?\nloop_\n_atom_site.group_PDB\n_atom_site.id\n\
         _atom_site.type_symbol\n_atom_site.label_atom_id\n_atom_site.label_comp_id\n\
         _atom_site.label_asym_id\n_atom_site.label_seq_id\n_atom_site.Cartn_x\n\
         _atom_site.Cartn_y\n_atom_site.Cartn_z\n\
         ATOM 1 C CA GLY A 1 0.0 0.0 0.0\nATOM 2 C CA GLY A 2 3.0 0.0 0.0\n",
    );
    let out = ok(&["awvd", &cif, "--cpu", "--json"]);
    assert!(out.contains("\"balls\":2"), "{out}");
    // control characters are escaped, long input cut
    let ctl = file("ctl.balls", &format!("\x1b[2J{} 0 0 1\n", "7".repeat(500)));
    let o = run::metaopt(&["awvd", &ctl, "--cpu"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        !err.contains('\x1b') && err.contains("\\u{1b}") && err.len() < 300,
        "{err}"
    );
    // equal balls merged with a note, concentric ones hidden
    let text: String = (0..3).map(|_| format!("{four}0 0 3 1\n")).collect();
    let eq = file("eq.balls", &text);
    let o = run::metaopt(&["awvd", &eq, "--cpu", "--json"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(
        out.contains("\"merged\":8") && out.contains("\"vertices\":1"),
        "{out}"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("8 balls equal"));
    let conc: String = (0..100_000)
        .map(|i| format!("1 2 3 {}\n", 1.0 + i as f64 * 1e-5))
        .collect();
    let conc = file("conc.balls", &conc);
    for backend in [&["--cpu"][..], &[]] {
        let t = std::time::Instant::now();
        let out = ok(&[&["awvd", &conc, "--json"][..], backend].concat());
        assert!(out.contains("\"vertices\":0"), "{out}");
        assert!(t.elapsed().as_secs_f64() < 30.0);
    }
    // balls on one sphere: refused on both backends
    let sphere: String = (0..2000)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / 2000.0;
            let r = (1.0 - z * z).sqrt();
            let t = i as f64 * std::f64::consts::PI * (3.0 - 5f64.sqrt());
            format!(
                "{} {} {} 0.01\n",
                10. * r * t.cos(),
                10. * r * t.sin(),
                10. * z
            )
        })
        .collect();
    let sphere = file("sphere.balls", &sphere);
    fails(&["awvd", &sphere, "--cpu"], "touch one empty sphere");
    fails(&["awvd", &sphere], "touch one empty sphere");
}
