use std::cell::Cell;

use super::search::Searcher;
use super::*;
use crate::engine::fixtures::russian4;

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap()
}

fn at_depth(variant: Variant, fen: &str, depth: u32) -> Analysis {
    analyse_position(&pos(variant, fen), Limits::depth(depth), &NoDeadline, None)
}

/// The tricky positions of tests/data/perft (captures, multi-captures, kings, crowning in
/// passing, passing the crown row on 10x10).
fn tricky() -> Vec<Position> {
    include_str!("../../tests/data/perft/perft-positions.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let variant: Variant = v["variant"].as_str().unwrap().parse().unwrap();
            Position::from_fen(variant, v["fen"].as_str().unwrap()).unwrap()
        })
        .collect()
}

#[test]
fn the_search_is_deterministic_for_a_depth() {
    let a = at_depth(Variant::Russian, "W:W21-32:B1-12", 7);
    let b = at_depth(Variant::Russian, "W:W21-32:B1-12", 7);
    assert_eq!(a, b);
    assert_eq!(a.depth, 7);
    assert_eq!(a.basis, Basis::Search);
    assert!(!a.proven);
    assert!(a.pv.len() >= 7, "{:?}", a.pv);
    assert!(a.nodes > 1000);
}

#[test]
fn pvs_with_its_move_ordering_gives_the_minimax_value_on_the_tricky_positions() {
    // same tree, same evaluation: the pruned search must give what full minimax gives, and
    // its first move must be one that achieves it (the combination is found)
    let mut checked = 0;
    for p in tricky() {
        let depth = if p.variant() == Variant::Hundred {
            2
        } else {
            3
        };
        let w = Weights::tuned(p.variant());
        let limits = Limits {
            depth,
            tt_bits: 12,
            ..Limits::default()
        };
        let mut s =
            Searcher::new(p.variant(), w, limits, &NoDeadline, None, None).without_tt_cutoffs();
        let found = s.run(&[p], 0);
        let mut brute = Searcher::new(p.variant(), w, limits, &NoDeadline, None, None);
        brute.start_at(&p);
        let want = brute.minimax(&p, depth as i32, 0);
        assert_eq!(found.score, want, "{} {}", p.variant(), p.to_fen());
        let first = found.pv[0];
        assert_eq!(first.captured != 0, p.has_capture(), "{}", p.to_fen());
        let child = p.play_compact(first);
        brute.start_at(&p);
        let mut b2 = Searcher::new(p.variant(), w, limits, &NoDeadline, None, None);
        b2.start_at(&child);
        // the child's value one ply less deep, seen from the root
        let got = -b2.minimax(&child, depth as i32 - 1, 1);
        // a forced move is extended: then the child is searched to the full depth
        let got_ext = -b2.minimax(&child, depth as i32, 1);
        assert!(
            got == want || got_ext == want,
            "{}: {got}/{got_ext} vs {want}",
            p.to_fen()
        );
        checked += 1;
    }
    assert_eq!(checked, 120);
}

#[test]
fn a_capture_that_ends_the_game_is_a_proven_win_and_in_giveaway_a_proven_loss() {
    let a = at_depth(Variant::Russian, "W:Wc3:Bd4", 4);
    assert_eq!(
        (a.verdict, a.proven, a.basis),
        (Verdict::Win, true, Basis::Search)
    );
    assert_eq!(line_text(Variant::Russian, &a.pv), ["c3:e5"]);
    assert_eq!(a.score, MATE - 1);
    let g = at_depth(Variant::Giveaway, "W:Wc3:Bd4", 4);
    assert_eq!((g.verdict, g.proven), (Verdict::Loss, true));
    assert_eq!(g.score, -(MATE - 1));
}

#[test]
fn in_giveaway_the_search_gives_its_last_king_away() {
    let a = at_depth(Variant::Giveaway, "W:WKa1:BKh8", 4);
    assert_eq!((a.verdict, a.proven), (Verdict::Win, true));
    assert_eq!(a.score, MATE - 2);
    // White's king steps next to Black's (a1-b2 or a1-g7), Black must take it, White has
    // nothing left and wins
    assert_eq!(a.pv.len(), 2, "{:?}", line_text(Variant::Giveaway, &a.pv));
    assert!(a.pv[1].is_capture());
    let end = pos(Variant::Giveaway, "W:WKa1:BKh8")
        .play(&a.pv[0])
        .play(&a.pv[1]);
    assert_eq!(
        end.count(crate::rules::Color::White, crate::rules::Piece::King),
        0
    );
}

#[test]
fn the_end_of_the_game_needs_no_search() {
    let a = at_depth(Variant::Russian, "W:Wa1:Bb2,c3", 5);
    assert_eq!(
        (a.verdict, a.proven, a.basis),
        (Verdict::Loss, true, Basis::GameOver)
    );
    assert_eq!((a.depth, a.nodes), (0, 0));
}

#[test]
fn lines_on_10x10_are_written_in_numbers() {
    let a = at_depth(Variant::Hundred, "W:W31-50:B1-20", 3);
    let line = line_text(Variant::Hundred, &a.pv);
    assert!(line.len() >= 3, "{line:?}");
    assert!(
        line.iter().all(|m| m
            .split(['-', 'x'])
            .all(|n| n.parse::<u8>().is_ok_and(|n| (1..=50).contains(&n)))),
        "{line:?}"
    );
}

#[test]
fn a_table_position_is_proven_and_the_line_makes_progress() {
    let set = russian4();
    let p = pos(Variant::Russian, "W:WKa1,Kc1,Ke1:BKh4");
    let a = analyse_position(&p, Limits::depth(12), &NoDeadline, Some(set));
    assert_eq!(
        (a.verdict, a.proven, a.basis),
        (Verdict::Win, true, Basis::Tables)
    );
    assert_eq!(a.count_rule.map(|r| r.moves), Some(15));
    // every move of the line keeps the win
    let mut at = p;
    for (i, m) in a.pv.iter().enumerate() {
        at = at.play(m);
        let want = if i % 2 == 0 { Wdl::Loss } else { Wdl::Win };
        if at.pieces().len() >= 2 && at.outcome().is_none() {
            assert_eq!(
                set.probe(&at),
                Some(want),
                "after {}",
                line_text(p.variant(), &a.pv[..=i]).join(" ")
            );
        }
    }
    let d = analyse_position(
        &pos(Variant::Russian, "W:WKc1,Ke1,Kg1:BKa1"),
        Limits::depth(6),
        &NoDeadline,
        Some(set),
    );
    assert_eq!(
        (d.verdict, d.proven, d.basis),
        (Verdict::Draw, true, Basis::Tables)
    );
}

#[test]
fn a_search_that_reaches_the_tables_is_proven() {
    // five pieces: not in the tables, but every capture leads into them
    let set = russian4();
    let p = pos(Variant::Russian, "W:WKa1,Kc1,Ke1:BKh4,a7");
    let a = analyse_position(&p, Limits::depth(8), &NoDeadline, Some(set));
    assert_eq!(a.basis, Basis::Search);
    if a.proven {
        assert_eq!(a.verdict, Verdict::Win);
        assert!(a.score >= PROVEN);
    }
    let unproven = analyse_position(&p, Limits::depth(2), &NoDeadline, None);
    assert!(!unproven.proven);
    assert_eq!(
        unproven.verdict,
        Verdict::Win,
        "three kings and a man down is a win on material"
    );
}

#[test]
fn searched_verdicts_agree_with_the_tables_on_most_four_piece_positions() {
    // positions drawn by a fixed pseudo-random sequence, searched without the tables
    let set = russian4();
    let g = tables::index::Geometry::new(Variant::Russian);
    let materials: Vec<Material> = Material::all_up_to(4)
        .into_iter()
        .filter(|m| m.total() == 4)
        .collect();
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state >> 11
    };
    let (mut agree, mut total) = (0, 0);
    while total < 200 {
        let m = materials[(next() % materials.len() as u64) as usize];
        let i = next() % g.size(m);
        let Some(masks) = g.unindex(m, i) else {
            continue;
        };
        let p = g.position(masks);
        let Some(want) = set.probe(&p) else { continue };
        let a = analyse_position(
            &p,
            Limits {
                depth: 6,
                tt_bits: 14,
                ..Limits::default()
            },
            &NoDeadline,
            None,
        );
        total += 1;
        agree += usize::from(Verdict::of_wdl(want) == a.verdict);
    }
    assert!(agree * 100 >= total * 70, "{agree} of {total}");
}

/// A deadline that is over after it has been asked `n` times (deterministic).
struct AfterCalls(Cell<u32>);

impl Deadline for AfterCalls {
    fn is_over(&self) -> bool {
        let n = self.0.get();
        self.0.set(n.saturating_sub(1));
        n == 0
    }
}

#[test]
fn a_deadline_stops_the_search_with_the_last_depth_completed() {
    let p = Position::start(Variant::Hundred);
    let a = analyse_position(&p, Limits::default(), &AfterCalls(Cell::new(20)), None);
    assert!(a.depth >= 1 && a.depth < 100, "{}", a.depth);
    assert!(!a.pv.is_empty());
    assert!(p.legal_moves().contains(&a.pv[0]));
    // even a deadline over from the start leaves one completed iteration and a move
    let b = analyse_position(&p, Limits::default(), &AfterCalls(Cell::new(0)), None);
    assert!(b.depth >= 1 && !b.pv.is_empty());
}

#[test]
fn the_fifteenth_move_of_kings_only_is_a_draw_in_the_search() {
    // three kings against one: winning on material, but 29 plies of king moves went before
    let p = pos(Variant::Russian, "W:WKa1,Kc1,Ke1:BKh4");
    let w = Weights::tuned(Variant::Russian);
    let limits = Limits::depth(3);
    let fresh = Searcher::new(Variant::Russian, w, limits, &NoDeadline, None, None).run(&[p], 0);
    assert!(fresh.score > 0, "{}", fresh.score);
    let late = Searcher::new(Variant::Russian, w, limits, &NoDeadline, None, None).run(&[p], 29);
    assert_eq!(late.score, 0);
}

#[test]
fn a_position_of_the_game_so_far_is_not_played_into_again() {
    let p = pos(Variant::Russian, "W:WKa1,Kc1,Ke1:BKh4");
    let w = Weights::tuned(Variant::Russian);
    let limits = Limits::depth(1);
    let bare = Searcher::new(Variant::Russian, w, limits, &NoDeadline, None, None).run(&[p], 0);
    let best = bare.pv[0];
    // the game so far: the position after that move (Black to move) came two moves ago
    let earlier = p.play_compact(best);
    let history = [
        earlier,
        Position::empty(Variant::Russian, crate::rules::Color::White),
        Position::empty(Variant::Russian, crate::rules::Color::Black),
        p,
    ];
    let again =
        Searcher::new(Variant::Russian, w, limits, &NoDeadline, None, None).run(&history, 3);
    assert_ne!(again.pv[0], best);
    assert!(again.score > 0);
}

#[test]
fn quiet_king_moves_at_the_end_of_the_record_are_counted() {
    let mut rec = GameRecord::new(pos(Variant::Russian, "W:WKc1,e3:BKh8,a7"));
    for m in ["c1-d2", "h8-g7", "e3-f4", "g7-h8", "d2-c1"] {
        let mv = rec
            .position()
            .legal_moves()
            .into_iter()
            .find(|x| x.to_string() == m)
            .unwrap();
        rec.push(mv).unwrap();
    }
    // e3-f4 is a man's move: only the two king moves after it count
    assert_eq!(reversible_run(&rec), 2);
}
