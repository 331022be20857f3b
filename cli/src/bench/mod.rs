//! `metaopt bench ...`: the benchmark drivers, one module per benchmark (throughput
//! measurements and the thesis's tables, not tests), each ending in a CSV table on stdout.
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`awvd`] | `metaopt bench awvd` |
//! | [`bde`] | `metaopt bench bde` |
//! | [`constrained`] | `metaopt bench constrained` |
//! | [`de`] | `metaopt bench de` and `bench de-digits` |
//! | [`de_table`] | `metaopt bench de-table` |
//! | [`functions`] | `metaopt bench functions` |
//! | [`qap`] | `metaopt bench qap` |
//! | [`qap_ts`] | `metaopt bench qap-ts` and `bench qap-quality` |
//! | [`qap_scale`] | `metaopt bench qap-scale`: n = 12 to 2048, throughput, placement, time to quality |
//! | [`qiga`] | `metaopt bench qiga` |
//! | [`sat`] | `metaopt bench sat` |
//! | [`sat_solve`] | `metaopt bench sat-solve` |
//! | [`scale`] | `metaopt bench scale` |
//! | [`sp`] | `metaopt bench sp` |
//! | [`tabu`] | `metaopt bench tabu` |

pub mod awvd;
pub mod bde;
pub mod constrained;
pub mod de;
pub mod de_table;
pub mod functions;
pub mod qap;
pub mod qap_scale;
pub mod qap_ts;
pub mod qiga;
pub mod sat;
pub mod sat_solve;
pub mod scale;
pub mod sp;
pub mod tabu;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Rows per second of the QAP neighbourhood: device full kernel, device delta kernel, CPU
    Qap(qap::BenchQapArgs),
    /// QAP robust tabu search: iterations per second per chain and in total, device, CPU, one thread
    QapTs(qap_ts::BenchQapTsArgs),
    /// QAP robust tabu search: best, mean, worst gap and time to the best, beside Taillard's RoTS
    QapQuality(qap_ts::BenchQapQualityArgs),
    /// QAP robust tabu search from n = 12 to 2048 (QAPLIB and generated tai*b instances):
    /// iterations per second per chain and in total, chains and memory placement, device beside
    /// the CPU backend, and the time to 1 % and 0.1 % of the best value beside RoTS on all cores
    QapScale(Box<qap_scale::BenchQapScaleArgs>),
    /// The thesis's Table 4: success ratio and time to the optimum, plain HC12 and with the tabu list
    Tabu(tabu::BenchTabuArgs),
    /// The thesis's Table 6: accuracy of the function catalogue against 50-digit references
    Functions(functions::BenchFunctionsArgs),
    /// Clause evaluations per second of a CNF formula: device DXAC and MCSX, rayon CPU
    Sat(sat::BenchSatArgs),
    /// SAT local search: solved share and median time per SATLIB family, as CSV
    SatSolve(sat_solve::BenchSatSolveArgs),
    /// SAT walks on large random k-SAT formulas (n = 10^4 .. 10^6): time to a model or the best
    /// count, flips/s, device beside the CPU backend, as CSV
    SatLarge(sat_solve::BenchSatLargeArgs),
    /// QIGA on the knapsack: whole runs per second (device, CPU, one thread), gap per table and
    /// repair, the paper's Table 1
    Qiga(qiga::BenchQigaArgs),
    /// Shortest paths: SSSP traversed edges per second (device beside the CPU backend), all
    /// sources in one call, ACO's exact share on the thesis's graphs and its gap on grids and files
    Sp(Box<sp::BenchSpArgs>),
    /// The Voronoi diagram of balls: parse, diagram and output wall time, best of N, and the
    /// vertex count, beside voronota when it is on the PATH
    Awvd(Box<awvd::BenchAwvdArgs>),
    /// Island DE: generations and evaluations per second on the device and the CPU backend
    De(de::BenchDeArgs),
    /// Batched DE: generations and evaluations per second of B problems in one batch, beside
    /// the island DE with B islands (fused and per-phase) with --compare island
    Bde(bde::BenchBdeArgs),
    /// Scaling over the devices of one machine (--devices, default all): QIGA runs/s, batched DE
    /// evaluations/s, QAP tabu iterations/s, SSSP edges/s on 1..N devices with the throughput
    /// per device and the parallel efficiency; island DE generations/s at migration periods 1,
    /// 10, 100 and the cost of one migration (first device)
    Scale(Box<scale::BenchScaleArgs>),
    /// Island DE on the 100-Digit Challenge: correct digits of the optimum of CEC04t..CEC10t
    DeDigits(de::BenchDigitsArgs),
    /// Island DE's algorithms on the 100-Digit Challenge functions, CEC style: the mean,
    /// standard deviation, median, best and worst error over R independent runs (islands
    /// without migration) with the same evaluation budget, and the correct digits
    DeTable(Box<de_table::BenchDeTableArgs>),
    /// Island DE on the CEC 2006 constrained set (G01..G24) under the competition's rules: R
    /// runs of N evaluations per problem, the feasible and successful runs (feasible, within
    /// 1e-4 of the best known), the values found, evaluations and seconds to success
    Constrained(Box<constrained::BenchConstrainedArgs>),
}
