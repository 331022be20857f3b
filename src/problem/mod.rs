pub mod qap;
