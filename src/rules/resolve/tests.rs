use super::*;
use crate::rules::{Position, Variant};

/// A tiny reader for the tests only (the real parser is `MoveText`'s `FromStr`).
fn mt(s: &str) -> MoveText {
    let is_capture = s.contains(':');
    let squares = s
        .split(['-', ':'])
        .map(|p| match p.parse::<u8>() {
            Ok(n) => SquareText::Num(n),
            Err(_) => SquareText::Alg {
                file: p.chars().next().unwrap(),
                rank: p[1..].parse().unwrap(),
            },
        })
        .collect();
    MoveText {
        squares,
        is_capture,
    }
}

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap()
}

fn legal(text: &str, p: &Position) -> String {
    match mt(text).to_move(p) {
        Resolution::Legal(m) => m.to_string(),
        other => panic!("{text}: {other:?}"),
    }
}

fn reason(text: &str, p: &Position) -> IllegalReason {
    match mt(text).to_move(p) {
        Resolution::Impossible(i) => i.reason,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn quiet_moves_resolve_in_algebraic_and_numeric() {
    let r = Position::start(Variant::Russian);
    assert_eq!(legal("c3-d4", &r), "c3-d4");
    assert_eq!(legal("22-18", &r), "c3-d4");
    let h = Position::start(Variant::Hundred);
    let m = legal("32-28", &h);
    assert_eq!(legal(&m, &h), m);
    // the k file on 10x10: 35 = k4, 30 = i5
    assert_eq!(legal("k4-i5", &h), "k4-i5");
    assert_eq!(legal("35-30", &h), "k4-i5");
}

#[test]
fn a_square_off_the_board_is_named_10_2_10() {
    let r = Position::start(Variant::Russian);
    assert_eq!(
        reason("33-29", &r),
        IllegalReason::NotOnBoard(SquareText::Num(33))
    );
    assert!(matches!(reason("i3-h4", &r), IllegalReason::NotOnBoard(_)));
    let h = Position::start(Variant::Hundred);
    assert!(matches!(reason("j4-i5", &h), IllegalReason::NotOnBoard(_)));
}

#[test]
fn no_piece_and_not_your_piece_are_told_apart_10_2_10() {
    let r = Position::start(Variant::Russian);
    let d4 = Square::from_algebraic(8, "d4").unwrap();
    let f6 = Square::from_algebraic(8, "f6").unwrap();
    assert_eq!(reason("d4-e5", &r), IllegalReason::NoPiece(d4));
    assert_eq!(reason("f6-e5", &r), IllegalReason::NotYourPiece(f6));
}

#[test]
fn capture_is_compulsory_in_russian_and_the_captures_are_named() {
    let p = pos(Variant::Russian, "W:Wc3,g3:Bd4,a7");
    match reason("g3-h4", &p) {
        IllegalReason::CaptureCompulsory(m) => {
            assert_eq!(
                m.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                ["c3:e5"]
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(
        IllegalReason::CaptureCompulsory(vec![])
            .ru()
            .contains("бить обязательно")
    );
}

#[test]
fn a_capture_written_with_a_dash_is_accepted_when_it_names_one_capture() {
    let p = pos(Variant::Russian, "W:Wc3,g3:Bd4,a7");
    assert_eq!(legal("c3-e5", &p), "c3:e5");
}

#[test]
fn start_and_end_resolve_when_one_route_joins_them() {
    let p = pos(Variant::Russian, "W:W18,21,22,27,28,29:B1,3,6,7,8,9,12,15");
    assert_eq!(legal("d4:h8", &p), "d4:f6:h8");
    assert_eq!(legal("d4:f6:d8", &p), "d4:f6:d8");
}

#[test]
fn a_capture_stopped_half_way_is_not_finished() {
    let p = pos(Variant::Russian, "W:W18,21,22,27,28,29:B1,3,6,7,8,9,12,15");
    assert!(matches!(reason("d4:f6", &p), IllegalReason::CaptureNotFinished(m) if m.len() == 2));
}

#[test]
fn two_routes_with_different_captures_are_ambiguous() {
    let p = pos(
        Variant::Russian,
        "W:Wa3,b2,c3,d2,d4,e1,g3,h2:Ba7,c5,c7,d6,e5,g5,h8",
    );
    match mt("d4:h4").to_move(&p) {
        Resolution::Ambiguous(m) => {
            let names: Vec<String> = m.iter().map(|m| m.to_string()).collect();
            assert_eq!(names, ["d4:b6:d8:h4", "d4:f6:h4"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(legal("d4:f6:h4", &p), "d4:f6:h4");
    assert!(matches!(
        reason("d4:b6:d8:f6", &p),
        IllegalReason::NoSuchRoute(_)
    ));
}

#[test]
fn the_majority_rule_is_named_on_the_hundred_board() {
    let p = pos(Variant::Hundred, "W:Wc3,i3:Bd4,h4,h6");
    assert_eq!(legal("i3:i7", &p), "i3:g5:i7");
    assert!(matches!(reason("c3:e5", &p), IllegalReason::MajorityRule(m) if m.len() == 1));
    // the same position in Russian: any capture may be chosen
    let r = pos(Variant::Russian, "W:Wa1,g3:Bb2,f4,d6");
    assert_eq!(legal("a1:c3", &r), "a1:c3");
    assert_eq!(legal("g3:c7", &r), "g3:e5:c7");
}

#[test]
fn a_piece_that_cannot_go_there_or_cannot_move() {
    let r = Position::start(Variant::Russian);
    assert!(matches!(reason("c3-e5", &r), IllegalReason::NoSuchMove(m) if m.len() == 2));
    let a1 = Square::from_algebraic(8, "a1").unwrap();
    assert_eq!(reason("a1-b2", &r), IllegalReason::PieceCannotMove(a1));
}

#[test]
fn the_single_move_of_the_named_piece_is_taken_10_2_10() {
    let r = Position::start(Variant::Russian);
    let Resolution::Impossible(bad) = mt("a3-c5").to_move(&r) else {
        panic!("a3-c5 should be impossible")
    };
    let m = bad.single_move_of_named_piece(&r).unwrap();
    assert_eq!(m.to_string(), "a3-b4");
    // c3 has two moves: the sender must replace the move
    let Resolution::Impossible(bad) = mt("c3-e5").to_move(&r) else {
        panic!("c3-e5 should be impossible")
    };
    assert_eq!(bad.single_move_of_named_piece(&r), None);
}

#[test]
fn short_notation_is_an_impossible_move_10_2_2() {
    let bad = IllegalMove::from_parse_error(&ParseMoveError::Short("cd4".into()));
    assert_eq!(bad.reason, IllegalReason::ShortNotation);
    assert!(bad.reason.ru().contains("10.2.2"));
    assert_eq!(
        bad.to_string(),
        "impossible move 'cd4': written in short notation, full notation is required (10.2.2)"
    );
}

#[test]
fn routes_with_the_same_captures_count_as_one_when_resolving() {
    let p = pos(Variant::Russian, "W:WKc3:Bb4,b6,d4,d6");
    let m = legal("c3:c3", &p);
    assert!(m == "c3:a5:c7:e5:c3" || m == "c3:e5:c7:a5:c3", "{m}");
    assert_eq!(legal("c3:e5:c7:a5:c3", &p), "c3:e5:c7:a5:c3");
}

#[test]
fn reasons_on_the_hundred_board_name_moves_and_squares_by_number() {
    let p = pos(Variant::Hundred, "W:Wc3,i3:Bd4,h4,h6");
    let r = reason("c3:e5", &p);
    // i3 = 40, g5 = 29, i7 = 20: the majority capture, in FMJD notation
    assert_eq!(
        r.ru(),
        "бить нужно наибольшее число шашек: 40x29x20 (п. 10.2.10)"
    );
    assert_eq!(
        r.to_string(),
        "the most pieces must be taken: 40x29x20 (10.2.10)"
    );
    let start = Position::start(Variant::Hundred);
    assert_eq!(
        reason("28-23", &start).ru(),
        "на поле 28 нет шашки (п. 10.2.10)"
    );
    // 8x8 keeps the algebraic names
    let r = Position::start(Variant::Russian);
    assert_eq!(
        reason("d4-e5", &r).ru(),
        "на поле d4 нет шашки (п. 10.2.10)"
    );
}
