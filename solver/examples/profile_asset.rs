//! Times asset fairness's level-coefficient filling on an instance file, for profiling.
//!
//! `cargo run --release -p leontief-solver --example profile_asset -- FILE [exact]`: prints
//! the time to read the instance, to decide the events ([`fill_compact`]) and, with `exact`,
//! to compute every saturation level exactly (with its size in bits); with `decimals N`, to
//! write the JSON answer rounded to `N` digits to `/dev/null`.

use std::time::Instant;

use leontief_solver::asset::fill_compact;
use leontief_solver::Instance;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: profile_asset FILE [exact]");
    let start = Instant::now();
    let text = std::fs::read_to_string(path).expect("read the instance");
    let inst = Instance::from_json_str(&text).expect("a valid instance");
    println!("read: {:.3} s", start.elapsed().as_secs_f64());
    let start = Instant::now();
    let fill = fill_compact(&inst);
    println!(
        "fill: {:.3} s, {} events, {} saturations, F = {} bits",
        start.elapsed().as_secs_f64(),
        fill.events.len(),
        fill.saturations.len(),
        fill.precision
    );
    if args.get(2).map(String::as_str) == Some("decimals") {
        let n: u32 = args.get(3).map_or(12, |s| s.parse().expect("N"));
        let start = Instant::now();
        let mut sink = std::io::BufWriter::new(std::fs::File::create("/dev/null").unwrap());
        fill.write_json(&inst, "asset", Some(n), &mut sink).unwrap();
        println!("write: {:.3} s", start.elapsed().as_secs_f64());
    }
    if args.get(2).map(String::as_str) == Some("exact") {
        let start = Instant::now();
        for k in 0..fill.saturations.len() {
            let level = fill.exact_level(&inst, k);
            println!(
                "  level {k}: {} bits, at {:.3} s",
                level.bits(),
                start.elapsed().as_secs_f64()
            );
        }
    }
}
