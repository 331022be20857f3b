//! `metaopt experiment ...` and the computations behind the thesis's tables: the island DE
//! experiments of section 6.1 (de: the commands, de_stats: runs, F groups, quantiles, the
//! 100-Digit Challenge runs), Figures 19 and 20 of 6.2 and 6.3 (qap_figs: device load and
//! fitness of HC12 on the QAP against the number of swaps), Table 4 (table4: success series of HC12 on the QAP, for `bench
//! tabu`) and Table 6 (accuracy: error statistics of the catalogue, for `bench functions`).
//!
//! # Modules
//!
//! | module | what |
//! |---|---|
//! | [`de`] | `experiment de-sdis` and `experiment de-migration` |
//! | [`de_stats`] | the island DE experiments as reusable computations: runs, F groups, the 100-Digit Challenge runs |
//! | [`qap_figs`] | `experiment qap-load` and `experiment qap-swaps`: the thesis's QAP figures |
//! | [`table4`] | the success series of HC12 on the QAP behind `bench tabu` |
//! | [`accuracy`] | the error statistics of the catalogue behind `bench functions` |

pub mod accuracy;
pub mod de;
pub mod de_stats;
pub mod qap_figs;
pub mod table4;

use clap::Subcommand;

#[derive(Subcommand)]
pub enum ExperimentCommand {
    /// Thesis 6.1, first experiment: the bound corrections (SDIS) against intervals of F,
    /// no migration; CSV and a PNG per function
    DeSdis(de::DeSdisArgs),
    /// Thesis 6.1, second experiment: fitness against the migration period for each migration
    /// strategy on CEC07t with COTN; CSV and PNG
    DeMigration(de::DeMigrationArgs),
    /// Thesis Fig. 19: device load (kernel share of the wall time) and rows per second of the
    /// QAP HC12 neighbourhood against the number of swaps (tho150, 15 to 60); CSV and PNG
    QapLoad(qap_figs::QapLoadArgs),
    /// Thesis Fig. 20: final cost of independent HC12 runs and their success ratio against the
    /// number of swaps (had20); CSV and PNG
    QapSwaps(qap_figs::QapSwapsArgs),
}
