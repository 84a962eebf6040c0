//! Rules: move generation vectors, perft tables, notation round trips.

use std::path::PathBuf;

use zaochka::rules::{Color, Outcome, Position, Resolution, Variant, perft};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

/// Leaf counts above this are skipped in debug/test builds (the test profile is
/// opt-level 1); `ZAOCHKA_PERFT_CAP` raises it.
fn node_cap() -> u64 {
    if let Some(cap) = std::env::var("ZAOCHKA_PERFT_CAP")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return cap;
    }
    if cfg!(debug_assertions) {
        2_000_000
    } else {
        50_000_000
    }
}

#[test]
fn every_movegen_vector_gives_exactly_the_listed_moves_and_each_resolves_to_itself() {
    let text = std::fs::read_to_string(data("movegen/movegen-shared.jsonl")).unwrap();
    let mut checked = [0usize; 3];
    let mut failures = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let variant: Variant = v["variant"].as_str().unwrap().parse().unwrap();
        let fen = v["fen"].as_str().unwrap();
        let pos = Position::from_fen(variant, fen).unwrap();
        let alg = Position::from_fen(variant, v["fen_alg"].as_str().unwrap()).unwrap();
        assert_eq!(pos, alg, "line {}: fen and fen_alg differ", line_no + 1);
        assert_eq!(pos.to_fen(), fen, "line {}: FEN written back", line_no + 1);
        assert_eq!(
            Position::from_fen(variant, &pos.to_fen_algebraic()).unwrap(),
            pos
        );

        let strs = |key: &str| -> Vec<String> {
            v[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect()
        };
        let mut want: Vec<(String, String, Vec<u64>, bool)> = strs("moves")
            .into_iter()
            .zip(strs("pdn"))
            .zip(v["captured"].as_array().unwrap())
            .zip(v["promotes"].as_array().unwrap())
            .map(|(((m, p), c), pr)| {
                let caps = c
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap())
                    .collect();
                (m, p, caps, pr.as_u64().unwrap() == 1)
            })
            .collect();
        let mut got: Vec<(String, String, Vec<u64>, bool)> = pos
            .legal_moves()
            .iter()
            .map(|m| {
                (
                    m.to_string(),
                    m.to_pdn(),
                    m.captured().iter().map(|s| u64::from(s.number())).collect(),
                    m.promotes(),
                )
            })
            .collect();
        want.sort();
        got.sort();
        for m in pos.legal_moves() {
            for numeric in [false, true] {
                let text = m.to_text(numeric);
                assert_eq!(
                    text.to_move(&pos),
                    Resolution::Legal(m.clone()),
                    "line {}: {m} resolves to itself",
                    line_no + 1
                );
            }
        }
        let distinct = v["distinct"].as_u64().unwrap() as usize;
        let result = v.get("result_if_no_moves").and_then(|r| r.as_str());
        let outcome = pos.outcome().map(|o| o.pdn_result());
        if want != got || pos.distinct_move_count() != distinct || result != outcome {
            failures.push(format!(
                "line {} {variant} {fen}\n  want {want:?}\n  got  {got:?}\n  distinct {distinct} vs {}, result {result:?} vs {outcome:?}",
                line_no + 1,
                pos.distinct_move_count()
            ));
        }
        let slot = Variant::ALL.iter().position(|&x| x == variant).unwrap();
        checked[slot] += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of 6000 differ:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    assert_eq!(checked, [2000, 2000, 2000]);
}

struct PerftCase {
    id: String,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn perft_file(variant: Variant) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(data(&format!("perft/{variant}.perft"))).unwrap();
    let mut cases: Vec<PerftCase> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap();
        match key {
            "id" => cases.push(PerftCase {
                id: rest.to_string(),
                fen: String::new(),
                depths: Vec::new(),
            }),
            "fen" => cases.last_mut().unwrap().fen = rest.to_string(),
            "perft" => {
                let (d, n) = rest.split_once(' ').unwrap();
                cases
                    .last_mut()
                    .unwrap()
                    .depths
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("unknown perft line {other}"),
        }
    }
    cases
}

fn check_perft_file(variant: Variant) {
    let cap = node_cap();
    let mut ran = 0;
    for case in perft_file(variant) {
        let pos = Position::from_fen(variant, &case.fen).unwrap();
        for &(depth, nodes) in &case.depths {
            if nodes > cap {
                continue;
            }
            assert_eq!(perft(&pos, depth), nodes, "{} depth {depth}", case.id);
            ran += 1;
        }
    }
    assert!(ran > 0);
}

#[test]
fn russian_perft_table_matches_published_and_checked_figures() {
    check_perft_file(Variant::Russian);
}

#[test]
fn hundred_perft_table_matches_published_and_checked_figures() {
    check_perft_file(Variant::Hundred);
}

#[test]
fn giveaway_moves_like_russian_so_its_perft_is_russian() {
    check_perft_file(Variant::Giveaway);
}

#[test]
fn russian_depth_8_is_not_the_pool_or_brazilian_figure() {
    // 929896 would mean a man crowned mid-capture stops being able to go on as a king
    // (pool rules); 907830 would mean the majority rule (Brazilian rules).
    let n = perft(&Position::start(Variant::Russian), 8);
    assert_eq!(n, 929_899);
    assert_ne!(n, 929_896);
    assert_ne!(n, 907_830);
}

#[test]
fn no_moves_loses_except_in_giveaway() {
    let fen = "B:W14,22,24,25,29:B";
    let russian = Position::from_fen(Variant::Russian, fen).unwrap();
    assert_eq!(russian.outcome(), Some(Outcome::Win(Color::White)));
    let giveaway = Position::from_fen(Variant::Giveaway, fen).unwrap();
    assert_eq!(giveaway.outcome(), Some(Outcome::Win(Color::Black)));
}
