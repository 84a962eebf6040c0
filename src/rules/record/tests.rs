use super::*;
use crate::rules::{Color, Piece, Square};

/// A game of `plies` moves chosen by a fixed pseudo-random rule (stops at the game's end).
fn some_game(start: Position, plies: usize, seed: usize) -> GameRecord {
    let mut rec = GameRecord::new(start);
    for ply in 0..plies {
        let moves = rec.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(ply * 31 + seed * 17 + 7) % moves.len()].clone();
        rec.push(m).unwrap();
    }
    rec
}

#[test]
fn the_semi_short_example_of_10_5_1_reads_and_writes_back() {
    let text = "1.cd4 fg5 2.dc5 b:d4 3.e:c5";
    let rec = GameRecord::from_semi_short(Position::start(Variant::Russian), text).unwrap();
    let full: Vec<String> = rec.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(full, ["c3-d4", "f6-g5", "d4-c5", "b6:d4", "e3:c5"]);
    assert_eq!(rec.to_semi_short().unwrap(), text);
}

#[test]
fn semi_short_names_the_whole_square_when_two_pieces_fit() {
    let mut p = Position::from_fen(Variant::Russian, "W:Wc3,Kc5:Bh8").unwrap();
    let m = p
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() == "c3-d4")
        .unwrap();
    assert_eq!(semi_short(&p, &m), "c3d4");
    assert_eq!(read_semi_short(&p, "c3d4").unwrap(), m);
    assert!(read_semi_short(&p, "cd4").unwrap_err().contains("several"));
    // a man on c5 cannot go back to d4: the file is enough again
    p.put(
        Square::from_algebraic(8, "c5").unwrap(),
        Some((Color::White, Piece::Man)),
    );
    let m = p
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() == "c3-d4")
        .unwrap();
    assert_eq!(semi_short(&p, &m), "cd4");
}

#[test]
fn semi_short_records_round_trip_for_8x8_games() {
    for variant in [Variant::Russian, Variant::Giveaway] {
        for seed in 0..20 {
            let rec = some_game(Position::start(variant), 80, seed);
            let text = rec.to_semi_short().unwrap();
            let back = GameRecord::from_semi_short(*rec.start(), &text).unwrap();
            assert_eq!(back, rec, "{variant} seed {seed}: {text}");
        }
    }
    assert_eq!(
        GameRecord::new(Position::start(Variant::Hundred)).to_semi_short(),
        Err(RecordError::NotEightByEight)
    );
}

#[test]
fn a_game_starting_with_black_is_numbered_1_dots() {
    let start = Position::from_fen(Variant::Russian, "B:W21-32:B1-12").unwrap();
    let rec = some_game(start, 3, 1);
    let text = rec.to_semi_short().unwrap();
    assert!(text.starts_with("1... "), "{text}");
    assert!(text.contains(" 2."), "{text}");
    assert_eq!(GameRecord::from_semi_short(start, &text).unwrap(), rec);
}

#[test]
fn pdn_games_round_trip_for_every_variant() {
    for variant in Variant::ALL {
        for seed in 0..10 {
            let start = if seed % 3 == 2 {
                some_game(Position::start(variant), 7, seed)
                    .position()
                    .to_owned()
            } else {
                Position::start(variant)
            };
            let rec = some_game(start, 90, seed);
            let game = PdnGame {
                tags: vec![
                    ("Event".into(), "ЗШ-2026-1 \"финал\"".into()),
                    ("Site".into(), "zaochka".into()),
                    ("Date".into(), "2026.12.02".into()),
                    ("Round".into(), "1".into()),
                    ("White".into(), "Иванов Иван".into()),
                    ("Black".into(), "Петров Пётр".into()),
                    ("Annotator".into(), "zaochka".into()),
                ],
                result: rec.outcome().map_or("*", |o| o.pdn_result()).to_string(),
                record: rec,
            };
            let text = game.to_pdn();
            let back = PdnGame::from_pdn(&text).unwrap();
            assert_eq!(back, game, "{variant} seed {seed}:\n{text}");
            assert!(text.contains(&format!("[GameType \"{}\"]", variant.pdn_game_type())));
            assert_eq!(text.contains("[FEN "), seed % 3 == 2, "{text}");
        }
    }
}

#[test]
fn pdn_tags_come_in_the_standard_order() {
    let game = PdnGame {
        tags: vec![("White".into(), "A".into()), ("Event".into(), "E".into())],
        record: GameRecord::new(Position::start(Variant::Hundred)),
        result: "*".into(),
    };
    let text = game.to_pdn();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix('['))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType"
        ]
    );
}

#[test]
fn pdn_reads_comments_variations_and_both_notations() {
    let text = "[GameType \"20\"]\n\n1. 32-28 {a comment} 19-23 (1... 18-23) 2. 28x19 14x23! $1 *";
    let g = PdnGame::from_pdn(text).unwrap();
    assert_eq!(g.record.moves().len(), 4);
    assert_eq!(g.record.moves()[2].to_pdn(), "28x19");
    let text = "1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3xc5 *";
    assert_eq!(PdnGame::from_pdn(text).unwrap().record.moves().len(), 5);
}

#[test]
fn bad_pdn_says_what_is_wrong() {
    assert!(matches!(
        PdnGame::from_pdn("[Event \"x]\n"),
        Err(RecordError::Tag(_))
    ));
    assert!(matches!(
        PdnGame::from_pdn("[GameType \"21\"]\n1. 9-14 *"),
        Err(RecordError::GameType(_))
    ));
    assert!(matches!(
        PdnGame::from_pdn("[FEN \"W:W33\"]\n*"),
        Err(RecordError::Fen(_))
    ));
    match PdnGame::from_pdn("1. c3-d4 f6-g5 2. c1-b2 *") {
        Err(RecordError::Move { number, text, .. }) => {
            assert_eq!(number, "2.");
            assert_eq!(text, "c1-b2");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_result_tag_that_is_no_result_or_a_tag_given_twice_is_refused() {
    // Found by the fuzz campaign: the Result tag is written back into the movetext, where
    // "*nsfer-Encoding: 8b" then read as a move.
    assert!(matches!(
        PdnGame::from_pdn("[Result \"*nsfer-Encoding: 8b\"]\n1. c3-d4 *"),
        Err(RecordError::Result(r)) if r == "*nsfer-Encoding: 8b"
    ));
    for tag in ["FEN \"W:W21:B12\"", "GameType \"25\"", "Result \"1-0\""] {
        let text = format!("[{tag}]\n[{tag}]\n*");
        assert!(
            matches!(PdnGame::from_pdn(&text), Err(RecordError::Twice(_))),
            "{text}"
        );
    }
    let g = PdnGame::from_pdn("[Result \"2-0\"]\n1. c3-d4 2-0").unwrap();
    let back = PdnGame::from_pdn(&g.to_pdn()).unwrap();
    assert_eq!((back.record, back.result), (g.record, g.result));
}
