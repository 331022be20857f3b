// metaopt's host value of a catalogue function at points read from stdin (one per line).
use std::io::BufRead;
fn main() {
    let name = std::env::args().nth(1).expect("function name");
    for line in std::io::stdin().lock().lines() {
        let x: Vec<f64> = line.unwrap().split_whitespace().map(|t| t.parse().unwrap()).collect();
        if x.is_empty() { continue; }
        println!("{:.17e}", metaopt::problem::functions::eval(&name, &x).unwrap());
    }
}
