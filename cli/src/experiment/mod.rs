//! `metaopt experiment ...` and the computations behind the thesis's tables: the island DE
//! experiments of section 6.1 (de: the commands, de_stats: runs, F groups, quantiles, the
//! 100-Digit Challenge runs), Table 4 (table4: success series of HC12 on the QAP, for `bench
//! tabu`) and Table 6 (accuracy: error statistics of the catalogue, for `bench functions`).

pub mod accuracy;
pub mod de;
pub mod de_stats;
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
}
