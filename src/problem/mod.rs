pub mod qap;
pub mod functions;
pub mod knapsack;
pub mod sat;
