//! Letters read per second on one core: MIME (mail-parser) plus the letter reader, over the
//! golden corpus in tests/data/letters, repeated. Plain `std::time::Instant` timing.
//!
//! `cargo bench --bench letters` (goal: at least 5,000 letters/s). Also the sender check
//! (`[auth] senders = "dkim"`): the corpus signed with the fixed RSA-2048 and Ed25519 test
//! keys, verified from a table of DNS records (no network), one letter at a time.

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

    // The sender check: every corpus letter re-addressed to the signing domain and signed.
    let rsa = zaochka::mail::auth::Signer::rsa_pem(
        "players.test",
        "s1",
        include_str!("../tests/data/auth/players.rsa.pem"),
    )
    .expect("the RSA test key");
    let ed = zaochka::mail::auth::Signer::ed25519(
        "players.test",
        "ed",
        include_str!("../tests/data/auth/federation.ed25519.seed"),
        include_str!("../tests/data/auth/federation.ed25519.pub"),
    )
    .expect("the Ed25519 test key");
    let mut table = zaochka::mail::auth::DnsTable::default();
    for s in [&rsa, &ed] {
        let line = s.dns_record();
        let (name, text) = line.split_once(' ').expect("NAME TEXT");
        table.insert(name, text);
    }
    let verifier =
        zaochka::mail::auth::Verifier::with_table(&zaochka::config::AuthConfig::default(), table)
            .expect("a verifier");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let readdressed: Vec<Vec<u8>> = corpus
        .iter()
        .map(|raw| {
            let mut out = b"From: bench@players.test\r\n".to_vec();
            let text = String::from_utf8_lossy(raw);
            for line in text.split_inclusive('\n') {
                if !line.to_ascii_lowercase().starts_with("from:") {
                    out.extend_from_slice(line.as_bytes());
                }
            }
            out
        })
        .collect();
    for (name, signer) in [("dkim rsa-2048", &rsa), ("dkim ed25519 ", &ed)] {
        let signed: Vec<Vec<u8>> = readdressed
            .iter()
            .filter_map(|raw| signer.sign(raw).ok())
            .collect();
        let passed = signed
            .iter()
            .filter(|raw| runtime.block_on(verifier.verify(raw)).is_pass())
            .count();
        println!("{name}: {passed} of {} signed letters pass", signed.len());
        measure(name, &|| {
            for raw in &signed {
                black_box(runtime.block_on(verifier.verify(black_box(raw))));
            }
            signed.len()
        });
    }
}
