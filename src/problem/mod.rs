pub mod qap;
pub mod functions;
pub mod sat;
pub mod knapsack;
