//! The device engine (placeholder until `cl/qap_ts.cl` lands).

use super::{Backend, ChainState, Engine, TsParams};
use crate::error::{Error, Result};
use crate::problem::qap::QapProblem;

pub struct DeviceEngine;

impl DeviceEngine {
    pub fn new(_p: &QapProblem, _b: Backend, _params: TsParams, _chains: usize, _launch: u32) -> Result<Self> {
        Err(Error::Unsupported("the QAP tabu search device engine".into()))
    }
}

impl Engine for DeviceEngine {
    fn advance(&mut self, _states: &mut [ChainState], _iterations: u32) -> Result<()> {
        Ok(())
    }
    fn description(&self) -> String {
        String::new()
    }
}
