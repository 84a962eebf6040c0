//! Rules: move generation vectors, perft tables, notation round trips.

use std::path::PathBuf;

use zaochka::rules::{Color, Outcome, Position, Resolution, Variant, perft};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(path)
}

/// Leaf counts above this are skipped (the test profile is opt-level 1);
/// `ZAOCHKA_PERFT_CAP` changes it.
fn node_cap() -> u64 {
    if let Some(cap) = std::env::var("ZAOCHKA_PERFT_CAP")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return cap;
    }
    // about 4 s for each table in the test profile (opt-level 1)
    50_000_000
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

mod properties {
    use proptest::prelude::*;
    use zaochka::rules::record::read_semi_short;
    use zaochka::rules::{
        Color, GameRecord, MoveText, PdnGame, Piece, Position, SquareText, Variant,
    };

    fn variant() -> impl Strategy<Value = Variant> {
        prop::sample::select(Variant::ALL.to_vec())
    }

    fn square_text() -> impl Strategy<Value = SquareText> {
        prop_oneof![
            any::<u8>().prop_map(SquareText::Num),
            (any::<char>(), any::<u8>()).prop_map(|(file, rank)| SquareText::Alg { file, rank }),
            (
                prop::sample::select("abcdefghijk".chars().collect::<Vec<_>>()),
                0u8..12
            )
                .prop_map(|(file, rank)| SquareText::Alg { file, rank }),
            (1u8..=50).prop_map(SquareText::Num),
        ]
    }

    proptest! {
        #[test]
        fn no_text_makes_the_fen_reader_panic(v in variant(), s in "\\PC{0,80}") {
            let _ = Position::from_fen(v, &s);
        }

        #[test]
        fn no_fen_like_text_makes_the_fen_reader_panic(
            v in variant(),
            s in "[WBwbK:,.0-9a-k\\- \\[\\]\"]{0,60}",
        ) {
            if let Ok(p) = Position::from_fen(v, &s) {
                prop_assert_eq!(Position::from_fen(v, &p.to_fen()).unwrap(), p);
            }
        }

        #[test]
        fn no_move_text_makes_resolution_panic(
            v in variant(),
            squares in prop::collection::vec(square_text(), 0..6),
            is_capture in any::<bool>(),
            plies in 0usize..30,
        ) {
            let mut pos = Position::start(v);
            for i in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() { break; }
                pos = pos.play(&moves[(i * 7 + plies) % moves.len()]);
            }
            let text = MoveText { squares, is_capture };
            let _ = text.to_move(&pos);
        }

        #[test]
        fn no_text_makes_the_record_readers_panic(v in variant(), s in "\\PC{0,60}") {
            let _ = read_semi_short(&Position::start(v), &s);
            let _ = PdnGame::from_pdn(&s);
            let _ = GameRecord::from_semi_short(Position::start(Variant::Russian), &s);
        }

        #[test]
        fn random_playouts_keep_the_board_sane(
            v in variant(),
            choices in prop::collection::vec(any::<u16>(), 0..150),
        ) {
            let mut pos = Position::start(v);
            for c in choices {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    prop_assert!(pos.outcome().is_some());
                    break;
                }
                let m = &moves[usize::from(c) % moves.len()];
                let me = pos.side_to_move();
                let them = me.opponent();
                let total = |p: &Position, c: Color| p.count(c, Piece::Man) + p.count(c, Piece::King);
                let next = pos.play(m);
                // the captured pieces were the opponent's and are gone; nothing else is
                for sq in m.captured() {
                    prop_assert_eq!(pos.piece_at(*sq).map(|(c, _)| c), Some(them));
                    prop_assert_eq!(next.piece_at(*sq), None);
                }
                prop_assert_eq!(total(&next, them), total(&pos, them) - m.captured().len() as u32);
                prop_assert_eq!(total(&next, me), total(&pos, me));
                prop_assert_eq!(next.piece_at(m.to()).map(|(c, _)| c), Some(me));
                if m.from() != m.to() {
                    prop_assert_eq!(next.piece_at(m.from()), None);
                }
                prop_assert_eq!(next.side_to_move(), them);
                prop_assert_eq!(Position::from_fen(v, &next.to_fen()).unwrap(), next);
                prop_assert_eq!(Position::from_fen(v, &next.to_fen_algebraic()).unwrap(), next);
                prop_assert!(pos.moves_from(m.from()).contains(m));
                pos = next;
            }
        }
    }
}

#[test]
fn the_moves_command_lists_moves_per_fen_line() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let exe = env!("CARGO_BIN_EXE_zaochka");
    let out = Command::new(exe)
        .args(["rules", "moves", "--game", "russian"])
        .output()
        .unwrap();
    // no --fen and an empty stdin: no lines
    assert!(out.status.success());
    let mut child = Command::new(exe)
        .args(["rules", "moves", "--game", "international"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"W:W31-50:B1-20\nB:W31-50:B1-20\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].split(' ').count(), 9);
    // 10x10 speaks numbers (FMJD), sorted by square number
    assert_eq!(
        lines[0],
        "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"
    );
    assert_eq!(
        lines[1],
        "16-21 17-21 17-22 18-22 18-23 19-23 19-24 20-24 20-25"
    );
    let out = Command::new(exe)
        .args(["rules", "moves", "--game", "hundred", "--algebraic"])
        .args(["--fen", "W:W31-50:B1-20"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "b4-a5 b4-c5 d4-c5 d4-e5 f4-e5 f4-g5 h4-g5 h4-i5 k4-i5\n"
    );

    let out = Command::new(exe)
        .args(["rules", "moves", "--game", "russian", "--fen", "W:Wc3:Bd4"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "c3:e5\n");
    let out = Command::new(exe)
        .args(["rules", "moves", "--game", "russian", "--fen", "W:W33"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("'33'"));
    let out = Command::new(exe)
        .args(["rules", "moves", "--game", "chess"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// Every 10x10 vector position through `rules moves --game hundred` on stdin: each line is
/// the vector's moves in FMJD numeric notation (`22-18`, `22x15x8`), sorted by square number.
#[test]
fn the_moves_command_speaks_fmjd_numbers_on_every_hundred_vector() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let text = std::fs::read_to_string(data("movegen/movegen-shared.jsonl")).unwrap();
    let mut fens = String::new();
    let mut want = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["variant"] != "international" {
            continue;
        }
        fens.push_str(v["fen"].as_str().unwrap());
        fens.push('\n');
        let mut moves: Vec<(Vec<u32>, String)> = v["pdn"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let m = m.as_str().unwrap().to_string();
                let key = m.split(['-', 'x']).map(|n| n.parse().unwrap()).collect();
                (key, m)
            })
            .collect();
        moves.sort();
        let moves: Vec<String> = moves.into_iter().map(|(_, m)| m).collect();
        want.push(moves.join(" "));
    }
    assert_eq!(want.len(), 2000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_zaochka"))
        .args(["rules", "moves", "--game", "hundred"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(fens.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success());
    let got = String::from_utf8(out.stdout).unwrap();
    let got: Vec<&str> = got.lines().collect();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "vector {} of 10x10", i + 1);
    }
    assert!(
        got.iter().any(|l| l.contains('x')),
        "captures are in the vectors"
    );
}

#[test]
fn the_perft_command_prints_a_nodes_line() {
    let exe = env!("CARGO_BIN_EXE_zaochka");
    let out = std::process::Command::new(exe)
        .args(["rules", "perft", "--game", "hundred", "--depth", "4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().next(), Some("nodes 4265"));
    assert!(text.contains("nodes/s "));
}

#[test]
fn perft_divide_adds_up_to_perft() {
    use zaochka::rules::perft_divide;
    for variant in Variant::ALL {
        let pos = Position::start(variant);
        let parts = perft_divide(&pos, 4);
        assert_eq!(parts.len(), pos.distinct_move_count());
        assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), perft(&pos, 4));
    }
}
