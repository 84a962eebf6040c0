//! Letters read per second on one core: MIME (mail-parser) plus the letter reader, over the
//! golden corpus in tests/data/letters, repeated. Plain `std::time::Instant` timing.
//!
//! `cargo bench --bench letters` (goal: at least 5,000 letters/s).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/letters");
    let mut corpus: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("the corpus folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .map(|p| std::fs::read(p).expect("readable letter"))
        .collect();
    corpus.sort();
    let bytes: usize = corpus.iter().map(Vec::len).sum();
    println!("corpus: {} letters, {} bytes", corpus.len(), bytes);

    // Warm up (regexes are compiled on first use).
    for raw in &corpus {
        let _ = black_box(zaochka::cli::letter::read_raw(raw));
    }

    let texts: Vec<String> = corpus
        .iter()
        .filter_map(|raw| zaochka::mail::mime::parse(raw).ok().map(|m| m.text))
        .collect();

    let measure = |name: &str, f: &dyn Fn() -> usize| {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            let mut n = 0;
            while start.elapsed() < Duration::from_millis(400) {
                n += f();
            }
            let per = start.elapsed().as_secs_f64() / n as f64;
            best = best.min(per);
        }
        println!(
            "{name}: {:.0} letters/s ({:.1} µs per letter, best of 5 runs)",
            1.0 / best,
            best * 1e6
        );
    };
    measure("mime + letter", &|| {
        for raw in &corpus {
            let _ = black_box(zaochka::cli::letter::read_raw(black_box(raw)));
        }
        corpus.len()
    });
    let ctx = zaochka::letter::ReadContext::default();
    measure("letter only  ", &|| {
        for text in &texts {
            black_box(zaochka::letter::read(black_box(text), &ctx));
        }
        texts.len()
    });
}
