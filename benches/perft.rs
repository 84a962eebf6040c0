//! Perft: the move generator's speed on the published tables (issue 14).
//!
//! ```text
//! cargo bench --bench perft                 # russian d10, hundred d8, Woldouby d13
//! cargo bench --bench perft -- --deep       # one ply deeper each (russian d11, hundred d9)
//! ```
//!
//! Every count is asserted against the published figure in `tests/data/perft/perft-published.json`
//! (a copy of the shared vectors): a fast generator that counts wrong fails the bench.
//! The figure reported is leaf nodes per second, best of three runs (bulk counting at the last
//! ply, as dctl does).

use std::time::Instant;

use zaochka::rules::{Position, Variant, perft};

struct Case {
    name: &'static str,
    variant: Variant,
    depth: usize,
}

fn published() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft/perft-published.json"
    );
    let text = std::fs::read_to_string(path).expect("the published perft table");
    serde_json::from_str(&text).expect("the published perft table is JSON")
}

fn main() {
    let deep = std::env::args().any(|a| a == "--deep");
    let extra = usize::from(deep);
    let table = published();
    let cases = [
        Case {
            name: "russian-initial",
            variant: Variant::Russian,
            depth: 10 + extra,
        },
        Case {
            name: "international-initial",
            variant: Variant::Hundred,
            depth: 8 + extra,
        },
        Case {
            name: "Woldouby",
            variant: Variant::Hundred,
            depth: 13 + extra,
        },
    ];
    println!(
        "{:<24} {:>5} {:>14} {:>9} {:>12}",
        "position", "depth", "nodes", "seconds", "Mnodes/s"
    );
    for case in cases {
        let entry = table["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .find(|e| e["name"] == case.name)
            .expect("the case is in the table");
        let fen = entry["fen"].as_str().expect("fen");
        let expected = entry["perft"][case.depth]
            .as_u64()
            .expect("a published count at that depth");
        let pos = Position::from_fen(case.variant, fen).expect("the published FEN reads");
        // Best of three: the machine is shared, the fastest run is the generator's own speed.
        let mut secs = f64::INFINITY;
        let mut nodes = 0;
        for _ in 0..3 {
            let t = Instant::now();
            nodes = perft(&pos, case.depth as u32);
            secs = secs.min(t.elapsed().as_secs_f64());
        }
        assert_eq!(
            nodes, expected,
            "{} perft({}) against the published count",
            case.name, case.depth
        );
        println!(
            "{:<24} {:>5} {:>14} {:>9.3} {:>12.1}",
            case.name,
            case.depth,
            nodes,
            secs,
            nodes as f64 / secs / 1e6
        );
    }
}
