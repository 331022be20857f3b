//! `metaopt functions`: the test-function catalogue.

use crate::out::{self, CliResult};
use clap::Args;
use metaopt::problem::functions;

#[derive(Args)]
pub struct FunctionsArgs {
    /// One JSON array instead of the table
    #[arg(long)]
    json: bool,
}

pub fn run(a: &FunctionsArgs) -> CliResult {
    let cat = functions::catalogue();
    if a.json {
        return out::print_json(&cat);
    }
    let mut s = format!(
        "{:<8} {:<22} {:<16} {}\n",
        "name", "domain", "dimensions", "minimum"
    );
    for f in cat {
        s += &format!(
            "{:<8} {:<22} {:<16} {}\n         {}\n",
            f.name,
            format!("[{}, {}]", f.domain.0, f.domain.1),
            f.dims.describe(),
            f.minimum_text,
            f.description
        );
    }
    out::print(&s)
}
