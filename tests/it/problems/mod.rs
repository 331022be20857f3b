//! The problems and their host references: the function catalogue, graphs, knapsack, the QAP
//! lower bounds, SAT evaluation.

mod cec2006;
mod functions;
mod graph;
mod knapsack;
mod qap_bounds;
mod sat;
