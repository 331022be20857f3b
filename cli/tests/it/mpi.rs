//! `--mpi` end to end. With the `mpi` feature: `mpirun -np 3` on this machine, PoCL posing as
//! three devices (each rank on its local rank's device), gives the one-process result; a rank
//! that fails ends the job with its error instead of a hang; `--mpi` without mpirun runs as one
//! process. Without the feature, `--mpi` is refused with the way to build it.

use crate::run;
#[cfg(not(feature = "mpi"))]
use run::fails;
#[cfg(feature = "mpi")]
use run::ok_env;

#[cfg(feature = "mpi")]
mod with_mpi {
    use super::ok_env;
    use crate::common::need::{needs, Need};
    use std::process::{Command, Output, Stdio};
    use std::time::{Duration, Instant};

    const THREE: [(&str, &str); 2] = [
        ("POCL_DEVICES", "pthread pthread pthread"),
        ("POCL_MAX_PTHREAD_COUNT", "1"),
    ];

    /// The command `mpirun -np ranks metaopt args` with `env` (PoCL posing as three devices).
    fn mpirun_command(ranks: usize, args: &[&str], env: &[(&str, &str)]) -> Command {
        let mut c = Command::new("mpirun");
        c.args([
            "--oversubscribe",
            "--bind-to",
            "none",
            "-np",
            &ranks.to_string(),
        ]);
        for (k, v) in THREE.iter().chain(env) {
            c.env(k, v).args(["-x", k]);
        }
        // as root (CI containers), Open MPI asks for both
        c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        c.arg(env!("CARGO_BIN_EXE_metaopt"))
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .env_remove("METAOPT_DEVICE");
        c
    }

    /// `mpirun -np ranks metaopt args` with `env`, killed after `limit` (a hang fails the test).
    fn mpirun(ranks: usize, args: &[&str], env: &[(&str, &str)], limit: Duration) -> Output {
        let mut child = mpirun_command(ranks, args, env)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mpirun runs (apt-get install openmpi-bin)");
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > limit {
                child.kill().unwrap();
                panic!("mpirun -np {ranks} metaopt {args:?} still running after {limit:?}: a hang");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        child.wait_with_output().unwrap()
    }

    fn json(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    #[test]
    fn sssp_over_three_ranks_equals_one_process() {
        needs!(Need::Mpi);
        let dir = tempfile::tempdir().unwrap();
        let base = [
            "sp",
            "sssp",
            "--grid",
            "24x24",
            "--sources",
            "all",
            "--json",
        ];
        for cpu in [false, true] {
            let one_csv = dir.path().join(format!("one{cpu}.csv"));
            let mpi_csv = dir.path().join(format!("mpi{cpu}.csv"));
            let mut one: Vec<&str> = base.to_vec();
            if cpu {
                one.push("--cpu");
            }
            let mut mpi = one.clone();
            let (one_path, mpi_path) = (
                one_csv.to_str().unwrap().to_string(),
                mpi_csv.to_str().unwrap().to_string(),
            );
            one.extend(["--out", &one_path]);
            mpi.extend(["--out", &mpi_path, "--mpi"]);
            let single = json(&ok_env(&one, &THREE));
            let o = mpirun(3, &mpi, &[], Duration::from_secs(300));
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            // rank 0 alone prints
            let text = String::from_utf8(o.stdout).unwrap();
            assert_eq!(text.matches("\"sources\"").count(), 1, "{text}");
            let three = json(&text);
            for k in ["sources", "reached", "edges", "max_dist"] {
                assert_eq!(three[k], single[k], "{k} (cpu {cpu})");
            }
            assert_eq!(three["per_source"], single["per_source"]);
            assert!(
                three["device"].as_str().unwrap().contains("MPI, 3 ranks"),
                "{}",
                three["device"]
            );
            // every distance and predecessor, by global source
            assert_eq!(
                std::fs::read(&mpi_csv).unwrap(),
                std::fs::read(&one_csv).unwrap(),
                "--out (cpu {cpu})"
            );
        }
    }

    #[test]
    fn batched_de_over_three_ranks_equals_one_process() {
        needs!(Need::Mpi);
        let dir = tempfile::tempdir().unwrap();
        let (one_csv, mpi_csv) = (dir.path().join("one.csv"), dir.path().join("mpi.csv"));
        let base = [
            "de",
            "--problems",
            "7",
            "--function",
            "F1",
            "--dims",
            "4",
            "--max-generations",
            "60",
            "--seed",
            "3",
            "--json",
        ];
        let mut one = base.to_vec();
        one.extend(["--results", one_csv.to_str().unwrap()]);
        let single = json(&ok_env(&one, &THREE));
        let mut mpi = base.to_vec();
        mpi.extend(["--results", mpi_csv.to_str().unwrap(), "--mpi"]);
        let o = mpirun(3, &mpi, &[], Duration::from_secs(300));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let three = json(&String::from_utf8(o.stdout).unwrap());
        assert_eq!(three["results"].as_array().unwrap().len(), 7);
        assert_eq!(three["results"], single["results"]);
        assert_eq!(
            std::fs::read(&mpi_csv).unwrap(),
            std::fs::read(&one_csv).unwrap()
        );
    }

    /// The history CSV without its seconds column (the clocks differ).
    fn history(path: &std::path::Path) -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .map(|l| {
                l.split(',')
                    .enumerate()
                    .filter(|(i, _)| *i != 2)
                    .map(|(_, c)| c)
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect()
    }

    /// Island DE over three ranks (7 islands: blocks of 3, 2, 2, each rank on its own PoCL
    /// device), migrants traded between the ranks, equals the one-process run for a seed in
    /// double precision: the best value, vector and island, every island's best, the counts and
    /// the history; One2N every generation and RandTarget every 10 (fused), PermuteN every 5
    /// per-phase (--unfused); the adaptive variants: JADE with One2One every 5, jSO (its
    /// populations shrinking) and jDE100.
    #[test]
    fn island_de_over_three_ranks_equals_one_process() {
        needs!(Need::Mpi);
        let dir = tempfile::tempdir().unwrap();
        let cases: [&[&str]; 6] = [
            &[
                "--migration",
                "One2N",
                "--period",
                "1",
                "--mutation",
                "DE/rand/1",
            ],
            &[
                "--migration",
                "RandTarget",
                "--period",
                "10",
                "--mutation",
                "DE/best/1",
            ],
            &[
                "--migration",
                "PermuteN",
                "--period",
                "5",
                "--mutation",
                "DE/current-to-best/1",
                "--unfused",
            ],
            &[
                "--migration",
                "One2One",
                "--period",
                "5",
                "--algorithm",
                "jade",
            ],
            &["--migration", "none", "--algorithm", "jso"],
            &[
                "--migration",
                "none",
                "--algorithm",
                "jde100",
                "--jde-small",
                "5",
            ],
        ];
        for (i, case) in cases.iter().enumerate() {
            let (one_csv, mpi_csv) = (
                dir.path().join(format!("one{i}.csv")),
                dir.path().join(format!("mpi{i}.csv")),
            );
            let mut base = vec![
                "de",
                "--function",
                "F6",
                "--dims",
                "5",
                "--islands",
                "7",
                "--members",
                "16",
                "--max-generations",
                "150",
                "--record-every",
                "10",
            ];
            base.extend(["--seed", "11", "--double", "--json"]);
            base.extend(case.iter());
            let mut one = base.clone();
            one.extend(["--csv", one_csv.to_str().unwrap()]);
            let single = json(&ok_env(&one, &THREE));
            let mut mpi = base.clone();
            mpi.extend(["--csv", mpi_csv.to_str().unwrap(), "--mpi"]);
            let o = mpirun(3, &mpi, &[], Duration::from_secs(300));
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            // rank 0 alone prints
            let text = String::from_utf8(o.stdout).unwrap();
            assert_eq!(text.matches("\"island_bests\"").count(), 1, "{text}");
            let three = json(&text);
            assert_eq!(three["island_bests"].as_array().unwrap().len(), 7);
            for k in [
                "value",
                "x",
                "island",
                "island_bests",
                "island_f",
                "island_cr",
                "generations",
                "evaluations",
                "stopped_by",
                "precision",
            ] {
                assert_eq!(three[k], single[k], "{k} ({case:?})");
            }
            assert!(
                three["device"]
                    .as_str()
                    .unwrap()
                    .contains("process 0 of 3: islands 0..3"),
                "{}",
                three["device"]
            );
            assert!(
                three["device"].as_str().unwrap().ends_with("MPI, 3 ranks"),
                "{}",
                three["device"]
            );
            assert_eq!(history(&mpi_csv), history(&one_csv), "--csv ({case:?})");
            assert_eq!(
                history(&one_csv).len(),
                17,
                "the initial record and one every 10 generations"
            );
        }
    }

    /// `args` over `ranks` ranks; its JSON (the job must succeed).
    fn job(ranks: usize, args: &[String]) -> serde_json::Value {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = mpirun(ranks, &args, &[], Duration::from_secs(300));
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        json(&String::from_utf8(o.stdout).unwrap())
    }

    /// Checkpoints of a job whose ranks run in step (`budget` names its budget option): a job
    /// split at `first` of its `whole` budget and resumed equals the job that never stopped;
    /// with a checkpoint every few milliseconds (agreed, so the ranks write at the same step)
    /// too; a job killed between two ranks' writes (rank 1's file one step behind rank 0's)
    /// resumes from the step both have, to the same result; so does a job of the `long` budget
    /// killed at a random moment; another rank count is refused.
    fn ranks_resume_together(
        base: &[&str],
        budget: &str,
        (first, whole, long): (u64, u64, u64),
        keys: &[&str],
    ) {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("job.state");
        let state_s = state.to_str().unwrap();
        let (first, whole) = (first.to_string(), whole.to_string());
        let with = |b: &str, extra: &[&str]| -> Vec<String> {
            [base, &["--mpi", "--json", budget, b], extra]
                .concat()
                .into_iter()
                .map(String::from)
                .collect()
        };
        let uninterrupted = job(2, &with(&whole, &[]));
        let check = |r: &serde_json::Value, what: &str| {
            for k in keys {
                assert_eq!(
                    r[k], uninterrupted[k],
                    "{base:?} {what}: {k}\n{r}\n{uninterrupted}"
                );
            }
        };
        // agreed periodic checkpoints leave the course as it was
        let periodic = job(
            2,
            &with(
                &whole,
                &["--checkpoint", state_s, "--checkpoint-every", "0.005"],
            ),
        );
        check(&periodic, "with periodic checkpoints");
        // one file per rank
        let rank_file = |r: usize, prev: bool| {
            dir.path().join(format!(
                "job.state.rank{r}{}",
                if prev { ".prev" } else { "" }
            ))
        };
        assert!(rank_file(0, false).exists() && rank_file(1, false).exists());
        // the ranks write every checkpoint at one step: a job whose rank 1 was killed while
        // renaming its last checkpoint (its file gone, the previous one left) resumes from the
        // previous step of both, to the same result (ranks that wrote at steps of their own
        // would have no step in common)
        assert!(
            rank_file(0, true).exists() && rank_file(1, true).exists(),
            "{base:?}: fewer than two checkpoints; give the job more work"
        );
        std::fs::remove_file(rank_file(1, false)).unwrap();
        let renaming = job(2, &with(&whole, &["--resume", state_s]));
        check(&renaming, "resumed with rank 1 killed while renaming");
        for f in [
            rank_file(0, false),
            rank_file(1, false),
            rank_file(0, true),
            rank_file(1, true),
        ] {
            let _ = std::fs::remove_file(f);
        }
        job(2, &with(&first, &["--checkpoint", state_s]));
        let resumed = job(2, &with(&whole, &["--resume", state_s]));
        check(&resumed, &format!("split at {first}"));
        // a job killed between the ranks' writes: rank 0 wrote the step after `first`, rank 1
        // did not (its file is still the one at `first`)
        let more = (first.parse::<u64>().unwrap() + 40).to_string();
        job(2, &with(&first, &["--checkpoint", state_s]));
        job(
            2,
            &with(&more, &["--resume", state_s, "--checkpoint", state_s]),
        );
        assert!(
            rank_file(0, true).exists(),
            "the previous checkpoint is kept"
        );
        std::fs::copy(rank_file(1, true), rank_file(1, false)).unwrap();
        let torn = job(2, &with(&whole, &["--resume", state_s]));
        check(&torn, "resumed from a torn set of checkpoints");
        // a job killed (SIGKILL, every process of it) at a random moment, its checkpoints
        // taken every few milliseconds, resumes to the result of the job that never stopped
        let long_s = long.to_string();
        let whole_long = job(2, &with(&long_s, &[]));
        for r in 0..2 {
            for prev in [false, true] {
                let _ = std::fs::remove_file(rank_file(r, prev));
            }
        }
        let args = with(
            &long_s,
            &["--checkpoint", state_s, "--checkpoint-every", "0.01"],
        );
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut c = mpirun_command(2, &argv, &[]);
        c.stdout(Stdio::null()).stderr(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut c, 0);
        let mut child = c.spawn().unwrap();
        let at =
            crate::resume::random_moment(Duration::from_millis(200), Duration::from_millis(900));
        let t = Instant::now();
        while !(rank_file(0, false).exists() && rank_file(1, false).exists()) {
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "no checkpoints in 60 s"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(at);
        let group = format!("-{}", child.id());
        let killed = Command::new("kill")
            .args(["-KILL", "--", &group])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert!(
            !status.success(),
            "{args:?}: the job ended before the kill {at:?} after its first checkpoints; give it more work"
        );
        let resumed = job(
            2,
            &with(&long_s, &["--resume", state_s, "--checkpoint", state_s]),
        );
        for k in keys {
            assert_eq!(
                resumed[k], whole_long[k],
                "{base:?} killed {at:?} after its first checkpoints: {k}\n{resumed}\n{whole_long}"
            );
        }
        // three ranks cannot resume a job of two
        let three = with(&whole, &["--resume", state_s]);
        let o = mpirun(
            3,
            &three.iter().map(String::as_str).collect::<Vec<_>>(),
            &[],
            Duration::from_secs(120),
        );
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--resume"), "{err}");
    }

    #[test]
    fn island_de_ranks_resume_together() {
        needs!(Need::Mpi);
        ranks_resume_together(
            &[
                "de",
                "--function",
                "F6",
                "--dims",
                "5",
                "--islands",
                "6",
                "--members",
                "16",
                "--migration",
                "One2One",
                "--period",
                "5",
                "--seed",
                "3",
                "--double",
                "--record-every",
                "10",
            ],
            "--max-generations",
            (60, 200, 20_000),
            &[
                "value",
                "x",
                "island",
                "island_bests",
                "generations",
                "evaluations",
            ],
        );
    }

    #[test]
    fn qap_tabu_search_ranks_resume_together() {
        needs!(Need::Mpi);
        let tai = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/qaplib/tai12a.dat");
        ranks_resume_together(
            &["qap", "solve", tai, "--chains", "2", "--seed", "4"],
            "--max-iterations",
            (1300, 4000, 200_000),
            &["cost", "permutation", "restarts", "iterations"],
        );
    }

    /// A time limit over three ranks (their clocks differ): every rank stops at the same
    /// generation and the job ends with rank 0's result; a target stops every rank too.
    #[test]
    fn island_de_over_ranks_stops_together() {
        needs!(Need::Mpi);
        let base = [
            "de",
            "--function",
            "F6",
            "--dims",
            "8",
            "--islands",
            "6",
            "--members",
            "32",
            "--migration",
            "One2One",
            "--period",
            "10",
            "--json",
            "--mpi",
        ];
        let mut timed = base.to_vec();
        // the limit counts from each rank's start (MPI and PoCL set-up inside it, seconds on a loaded machine)
        timed.extend(["--time-limit", "6"]);
        let t = Instant::now();
        let o = mpirun(3, &timed, &[], Duration::from_secs(120));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
        let r = json(&String::from_utf8(o.stdout).unwrap());
        assert_eq!(r["stopped_by"], "time_limit", "{r}");
        assert!(r["generations"].as_u64().unwrap() > 0, "{r}");
        let value = r["value"].as_f64().unwrap();
        assert!(value.is_finite());
        let bests: Vec<f64> = r["island_bests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(bests.len(), 6);
        assert_eq!(
            value,
            bests.iter().copied().fold(f64::INFINITY, f64::min),
            "the best of every island's"
        );
        // F1 (sphere) reaches 1e-3 well within the budget: every rank stops at the target
        let o = mpirun(
            3,
            &[
                "de",
                "--function",
                "F1",
                "--dims",
                "3",
                "--islands",
                "4",
                "--members",
                "16",
                "--migration",
                "N2N",
                "--period",
                "5",
                "--target",
                "1e-3",
                "--max-generations",
                "5000",
                "--json",
                "--mpi",
            ],
            &[],
            Duration::from_secs(120),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let r = json(&String::from_utf8(o.stdout).unwrap());
        assert_eq!(r["stopped_by"], "target", "{r}");
        assert!(r["value"].as_f64().unwrap() <= 1e-3, "{r}");
    }

    /// Island DE: a failing rank ends the job with its error (no hang); JADE, SHADE, L-SHADE
    /// and jSO with --unfused are refused naming it, --cpu naming --mpi; more ranks than islands are refused; --mpi without
    /// mpirun is the one-process run.
    #[test]
    fn island_de_over_ranks_failures_and_one_process() {
        needs!(Need::Mpi);
        let base = [
            "de",
            "--function",
            "F1",
            "--dims",
            "4",
            "--islands",
            "5",
            "--migration",
            "One2One",
            "--period",
            "2",
            "--max-generations",
            "100000",
            "--mpi",
        ];
        let t = Instant::now();
        let o = mpirun(
            3,
            &base,
            &[("METAOPT_MPI_FAIL_RANK", "2")],
            Duration::from_secs(120),
        );
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("error: MPI rank 2 of 3: failing as METAOPT_MPI_FAIL_RANK asks"),
            "{err}"
        );
        assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
        for (extra, want) in [
            (
                &["--algorithm", "jade", "--unfused"][..],
                "--unfused: jade on several devices or processes runs only in the fused kernel",
            ),
            (
                &["--cpu"][..],
                "--mpi: island DE across ranks runs on OpenCL devices",
            ),
        ] {
            let mut args = base.to_vec();
            args.extend(extra);
            let o = mpirun(2, &args, &[], Duration::from_secs(120));
            assert!(!o.status.success());
            assert!(
                String::from_utf8_lossy(&o.stderr).contains(want),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        let o = mpirun(
            3,
            &[
                "de",
                "--function",
                "F1",
                "--dims",
                "2",
                "--islands",
                "2",
                "--mpi",
            ],
            &[],
            Duration::from_secs(120),
        );
        assert!(!o.status.success());
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("3 processes for 2 islands"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let plain = [
            "de",
            "--function",
            "F6",
            "--dims",
            "3",
            "--islands",
            "4",
            "--members",
            "12",
            "--migration",
            "N2One",
            "--period",
            "3",
            "--max-generations",
            "60",
            "--double",
            "--json",
        ];
        let single = json(&ok_env(&plain, &THREE));
        let mut mpi = plain.to_vec();
        mpi.push("--mpi");
        let alone = json(&ok_env(&mpi, &THREE));
        for k in ["value", "x", "island", "island_bests", "generations"] {
            assert_eq!(alone[k], single[k], "{k}");
        }
        assert!(
            alone["device"].as_str().unwrap().ends_with("MPI, 1 rank"),
            "{}",
            alone["device"]
        );
    }

    #[test]
    fn qap_ranks_share_their_best_and_stop_together() {
        needs!(Need::Mpi);
        let nug12 = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/qaplib/nug12.dat");
        let base = [
            "qap",
            "solve",
            nug12,
            "--chains",
            "2",
            "--max-iterations",
            "3000",
            "--seed",
            "4",
            "--json",
        ];
        let mut mpi = base.to_vec();
        mpi.push("--mpi");
        // one rank: the plain run (chain numbers from 0, nothing shared)
        let single = json(&ok_env(&base, &THREE));
        let o = mpirun(1, &mpi, &[], Duration::from_secs(300));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let one = json(&String::from_utf8(o.stdout).unwrap());
        for k in ["cost", "permutation", "restarts", "iterations"] {
            assert_eq!(one[k], single[k], "{k}");
        }
        // three ranks: 2 chains each, printed once with the job's best
        let o = mpirun(3, &mpi, &[], Duration::from_secs(300));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        assert_eq!(text.matches("\"cost\"").count(), 1, "{text}");
        let three = json(&text);
        assert_eq!(three["chains"], 6);
        assert_eq!(three["cost"], 578, "nug12's optimum");
        assert!(
            three["device"].as_str().unwrap().ends_with("MPI, 3 ranks"),
            "{}",
            three["device"]
        );
        // a time limit: the ranks' clocks differ, yet they stop at the same launch
        let tai = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/qaplib/tai12a.dat");
        let o = mpirun(
            3,
            &[
                "qap",
                "solve",
                tai,
                "--chains",
                "2",
                "--max-iterations",
                "0",
                "--time-limit",
                "2",
                "--mpi",
                "--json",
            ],
            &[],
            Duration::from_secs(120),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let r = json(&String::from_utf8(o.stdout).unwrap());
        assert!(
            r["stopped_by"] == "time_limit" || r["stopped_by"] == "target",
            "{r}"
        );
    }

    #[test]
    fn qiga_populations_over_three_ranks_equal_one_process() {
        needs!(Need::Mpi);
        let k = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../data/knapsack/knapsack-100.txt"
        );
        let base = [
            "qiga",
            "--knapsack",
            k,
            "--populations",
            "20",
            "--generations",
            "30",
            "--repair",
            "greedy",
            "--seed",
            "9",
            "--json",
        ];
        let single = json(&ok_env(&base, &THREE));
        let mut mpi = base.to_vec();
        mpi.push("--mpi");
        let o = mpirun(3, &mpi, &[], Duration::from_secs(300));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let three = json(&String::from_utf8(o.stdout).unwrap());
        for k in [
            "values",
            "stats",
            "table_stats",
            "best_value",
            "best_items",
            "populations",
        ] {
            assert_eq!(three[k], single[k], "{k}");
        }
        assert!(
            three["device"].as_str().unwrap().ends_with("MPI, 3 ranks"),
            "{}",
            three["device"]
        );
    }

    #[test]
    fn more_ranks_than_sources_leaves_the_extra_ranks_idle() {
        needs!(Need::Mpi);
        let base = ["sp", "sssp", "--grid", "6x6", "--sources", "0,35", "--json"];
        let single = json(&ok_env(&base, &THREE));
        let mut mpi = base.to_vec();
        mpi.push("--mpi");
        let o = mpirun(3, &mpi, &[], Duration::from_secs(300));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let three = json(&String::from_utf8(o.stdout).unwrap());
        assert_eq!(three["per_source"], single["per_source"]);
    }

    #[test]
    fn a_failing_rank_ends_the_job_with_its_error() {
        needs!(Need::Mpi);
        let args = ["sp", "sssp", "--grid", "12x12", "--sources", "all", "--mpi"];
        let o = mpirun(
            3,
            &args,
            &[("METAOPT_MPI_FAIL_RANK", "1")],
            Duration::from_secs(120),
        );
        assert!(!o.status.success());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("error: MPI rank 1 of 3: failing as METAOPT_MPI_FAIL_RANK asks"),
            "{err}"
        );
    }

    #[test]
    fn mpi_without_mpirun_runs_as_one_process() {
        let base = [
            "sp",
            "sssp",
            "--grid",
            "10x10",
            "--sources",
            "all",
            "--json",
        ];
        let single = json(&ok_env(&base, &THREE));
        let mut mpi = base.to_vec();
        mpi.push("--mpi");
        let alone = json(&ok_env(&mpi, &THREE));
        assert_eq!(alone["per_source"], single["per_source"]);
        assert!(
            alone["device"].as_str().unwrap().contains("MPI, 1 rank"),
            "{}",
            alone["device"]
        );
    }
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_needs_the_feature() {
    fails(
        &["sp", "sssp", "--grid", "5x5", "--mpi"],
        "--mpi: this metaopt was built without the `mpi` feature",
    );
}

#[test]
fn mpi_is_refused_where_the_work_is_not_split() {
    let nug12 = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/qaplib/nug12.dat");
    let o = run::metaopt(&["qap", "solve", nug12, "--method", "hc12", "--mpi"]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--mpi: only for --method ts"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
