use super::*;

fn record(variant: Variant, fen: &str) -> GameRecord {
    GameRecord::new(Position::from_fen(variant, fen).unwrap())
}

/// Plays from `rec` until a draw rule holds: quiet moves that keep every position below
/// three occurrences and leave the opponent no capture; king moves, except at the plies in
/// `man_at` (1-based) where a man moves; `allow` filters further. A depth-first search in a
/// fixed pseudo-random order, so that a dead end is backed out of. Returns the ply at which
/// the draw came and the rule.
fn plies_until_draw(
    rec: &mut GameRecord,
    man_at: &[usize],
    allow: impl Fn(&Position, &Move) -> bool,
    max: usize,
) -> (usize, DrawReason) {
    assert_eq!(rec.draw_claim(), None);
    let mut budget = 200_000usize;
    search(rec, 1, man_at, &allow, max, &mut budget).unwrap_or_else(|| {
        panic!(
            "no draw within {max} plies from {}",
            rec.start().to_fen_algebraic()
        )
    })
}

fn search(
    rec: &mut GameRecord,
    ply: usize,
    man_at: &[usize],
    allow: &impl Fn(&Position, &Move) -> bool,
    max: usize,
    budget: &mut usize,
) -> Option<(usize, DrawReason)> {
    if ply > max || *budget == 0 {
        return None;
    }
    *budget -= 1;
    let pos = *rec.position();
    let want_man = man_at.contains(&ply);
    let mut moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            let kind = pos.piece_at(m.from()).map(|(_, k)| k);
            let next = pos.play(m);
            !m.is_capture()
                && !m.promotes()
                && (kind == Some(Piece::Man)) == want_man
                && !next.has_capture()
                && rec.positions().iter().filter(|p| **p == next).count() < 2
                && allow(&pos, m)
        })
        .collect();
    let n = moves.len();
    if n > 1 {
        let r = (ply * 7919 + 13) % n;
        moves.rotate_left(r);
    }
    for m in moves {
        rec.push(m).unwrap();
        if let Some(r) = rec.draw_claim() {
            return Some((ply, r));
        }
        if let Some(found) = search(rec, ply + 1, man_at, allow, max, budget) {
            return Some(found);
        }
        rec.pop();
    }
    None
}

fn any(_: &Position, _: &Move) -> bool {
    true
}

fn on_main_road(sq: Square) -> bool {
    sq.file() + 1 == sq.rank()
}

#[test]
fn threefold_repetition_draws_in_every_variant() {
    for (variant, fen, there, back) in [
        (
            Variant::Russian,
            "W:WKg1,c1,e1:BKb8,d8,f8",
            ["g1-h2", "b8-a7"],
            ["h2-g1", "a7-b8"],
        ),
        (
            Variant::Giveaway,
            "W:WKg1,c1,e1:BKb8,d8,f8",
            ["g1-h2", "b8-a7"],
            ["h2-g1", "a7-b8"],
        ),
        (
            Variant::Hundred,
            "W:WKi1,c1,e1:BKb10,f10,h10",
            ["i1-k2", "b10-a9"],
            ["k2-i1", "a9-b10"],
        ),
    ] {
        let mut rec = record(variant, fen);
        for round in 0..2 {
            for text in there.iter().chain(back.iter()) {
                assert_eq!(rec.draw_claim(), None, "{variant} round {round}");
                let m = rec
                    .position()
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.to_string() == *text)
                    .unwrap_or_else(|| {
                        panic!("{variant}: {text} in {}", rec.position().to_fen_algebraic())
                    });
                rec.push(m).unwrap();
            }
        }
        assert_eq!(rec.draw_claim(), Some(DrawReason::Repetition), "{variant}");
        assert_eq!(rec.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    }
}

#[test]
fn fifteen_king_moves_draw_on_8x8_and_twenty_five_on_10x10() {
    for (variant, fen, plies, moves) in [
        (
            Variant::Russian,
            "W:WKa1,Kh2,c1,e1,g1:BKh8,Ka7,b8,d8,f8",
            30,
            15,
        ),
        (
            Variant::Giveaway,
            "W:WKa1,Kh2,c1,e1,g1:BKh8,Ka7,b8,d8,f8",
            30,
            15,
        ),
        (
            Variant::Hundred,
            "W:WKa1,Kk2,c1,e1,g1:BKk10,Kb10,d10,f10,h10",
            50,
            25,
        ),
    ] {
        let mut rec = record(variant, fen);
        let got = plies_until_draw(&mut rec, &[], any, 200);
        assert_eq!(
            got,
            (plies, DrawReason::KingMovesOnly { moves }),
            "{variant}"
        );
    }
}

#[test]
fn a_man_move_restarts_the_king_moves_count() {
    let mut rec = record(Variant::Russian, "W:WKa1,Kh2,c1,e1,g1:BKh8,Ka7,b8,d8,f8");
    let got = plies_until_draw(&mut rec, &[11], any, 200);
    // the man moved at ply 11; 30 king plies follow it
    assert_eq!(got, (41, DrawReason::KingMovesOnly { moves: 15 }));
}

#[test]
fn three_kings_against_a_lone_king_draw_after_the_15th_move_in_russian() {
    let mut rec = record(Variant::Russian, "W:WKa3,Kc1,Ke1:BKh4");
    let off_road =
        |p: &Position, m: &Move| p.side_to_move() == Color::White || !on_main_road(m.to());
    let got = plies_until_draw(&mut rec, &[], off_road, 200);
    // White moves at plies 1, 3, ...: the 15th white move is ply 29.
    assert_eq!(got, (29, DrawReason::ThreeAgainstKing { moves: 15 }));
}

#[test]
fn three_pieces_against_a_lone_king_draw_after_the_16th_move_in_hundred() {
    let mut rec = record(Variant::Hundred, "W:WKa1,Kc1,e3:BKk6");
    let got = plies_until_draw(&mut rec, &[], any, 200);
    assert_eq!(got, (31, DrawReason::ThreeAgainstKing { moves: 16 }));
}

#[test]
fn three_pieces_against_a_king_on_the_main_road_draw_after_the_5th_move() {
    let mut rec = record(Variant::Russian, "W:WKa3,Kc1,e1:BKd4");
    let on_road = |p: &Position, m: &Move| p.side_to_move() == Color::White || on_main_road(m.to());
    let got = plies_until_draw(&mut rec, &[], on_road, 200);
    assert_eq!(got, (9, DrawReason::MainRoad));
}

#[test]
fn two_pieces_against_a_lone_king_draw_after_the_5th_move_in_hundred() {
    let mut rec = record(Variant::Hundred, "W:WKa1,Kc1:BKk6");
    let got = plies_until_draw(&mut rec, &[], any, 200);
    assert_eq!(got, (9, DrawReason::TwoAgainstKing));
}

#[test]
fn an_unchanged_balance_with_kings_on_both_sides_draws_in_russian() {
    // 2 pieces: 5 moves.
    let mut rec = record(Variant::Russian, "W:WKc1:BKh8");
    assert_eq!(
        plies_until_draw(&mut rec, &[], any, 200),
        (10, DrawReason::BalanceUnchanged { moves: 5 })
    );
    // 4 pieces: 30 moves; men move now and then so the king-moves rule does not come first.
    let mut rec = record(Variant::Russian, "W:WKc1,a3:BKh8,h6");
    assert_eq!(
        plies_until_draw(&mut rec, &[21, 42], any, 200),
        (60, DrawReason::BalanceUnchanged { moves: 30 })
    );
    // 6 pieces: 60 moves.
    let mut rec = record(Variant::Russian, "W:WKc1,a3,b2:BKf8,h6,g7");
    assert_eq!(
        plies_until_draw(&mut rec, &[21, 42, 63, 84, 105], any, 200),
        (120, DrawReason::BalanceUnchanged { moves: 60 })
    );
}

#[test]
fn giveaway_has_no_endgame_count_rules() {
    // three kings against one: in russian a draw at ply 29, in give-away only the
    // king-moves rule (15 moves = 30 plies) ends it.
    let mut rec = record(Variant::Giveaway, "W:WKa3,Kc1,Ke1:BKh4");
    let off_road =
        |p: &Position, m: &Move| p.side_to_move() == Color::White || !on_main_road(m.to());
    let got = plies_until_draw(&mut rec, &[], off_road, 200);
    assert_eq!(got, (30, DrawReason::KingMovesOnly { moves: 15 }));
}

#[test]
fn a_move_that_is_not_legal_is_refused_by_the_record() {
    let mut rec = GameRecord::new(Position::start(Variant::Russian));
    let other = Position::from_fen(Variant::Russian, "W:Wc3:Bd4").unwrap();
    let capture = other.legal_moves().remove(0);
    assert!(rec.push(capture).is_err());
    assert_eq!(rec.moves().len(), 0);
}
