use std::collections::HashMap;

use super::build::{self, Event, NoStore, TableStore};
use super::*;
use crate::engine::fixtures::russian4;

fn verdict(set: &TableSet, variant: Variant, fen: &str) -> Option<Wdl> {
    set.probe(&Position::from_fen(variant, fen).unwrap())
}

#[test]
fn materials_come_fewer_pieces_first_then_fewer_men() {
    let all = Material::all_up_to(3);
    assert_eq!(all.first(), Some(&Material::new(0, 1, 0, 1)));
    assert_eq!(all.len(), 4 + 12);
    let pos = |m| all.iter().position(|x| *x == m).unwrap();
    // a crowning leads from 1-0-0-2 to 0-1-0-2: that one is built first
    assert!(pos(Material::new(0, 1, 0, 2)) < pos(Material::new(1, 0, 0, 2)));
}

#[test]
fn russian_tables_to_four_pieces_are_complete_and_consistent() {
    let set = russian4();
    assert_eq!(set.max_pieces(Variant::Russian), 4);
    assert_eq!(set.max_pieces(Variant::Hundred), 0);
    // the builder checked every slice; check one again from scratch
    build::check(set, Variant::Russian, Material::new(1, 1, 0, 2)).unwrap();
    let total: u64 = set.slices().map(|s| s.counts().iter().sum::<u64>()).sum();
    // every position with White to move, holes left out (151,386,376 with 5 pieces)
    assert!(total > 5_000_000 && total < 6_600_000, "{total}");
}

#[test]
fn a_damaged_entry_fails_the_check() {
    let set = russian4();
    let m = Material::new(0, 1, 1, 0);
    let s = set.slice(Variant::Russian, m).unwrap();
    let flipped = (0..s.entries())
        .find(|&i| s.get(i) == Some(Wdl::Win))
        .unwrap();
    let damaged = Slice::from_entries(Variant::Russian, m, s.entries(), |i| {
        if i == flipped {
            Some(Wdl::Draw)
        } else {
            s.get(i)
        }
    });
    let mut bad = set.clone();
    bad.insert(damaged);
    assert!(matches!(
        build::check(&bad, Variant::Russian, m),
        Err(TableError::Inconsistent { index, .. }) if index == flipped
    ));
}

#[test]
fn three_kings_with_the_main_road_beat_a_lone_king() {
    // Petrov's triangle: the stronger side holds the main road a1-h8
    let set = russian4();
    assert_eq!(
        verdict(set, Variant::Russian, "W:WKa1,Kc1,Ke1:BKh4"),
        Some(Wdl::Win)
    );
    assert_eq!(
        verdict(set, Variant::Russian, "B:WKa1,Kc1,Ke1:BKh4"),
        Some(Wdl::Loss)
    );
}

#[test]
fn three_kings_cannot_beat_a_lone_king_on_the_main_road() {
    let set = russian4();
    assert_eq!(
        verdict(set, Variant::Russian, "W:WKc1,Ke1,Kg1:BKa1"),
        Some(Wdl::Draw)
    );
    assert_eq!(
        verdict(set, Variant::Russian, "B:WKc1,Ke1,Kh2:BKd4"),
        Some(Wdl::Draw)
    );
}

#[test]
fn a_king_against_a_king_is_a_draw_and_a_man_that_must_be_taken_loses() {
    let set = russian4();
    assert_eq!(
        verdict(set, Variant::Russian, "W:WKc1:BKh8"),
        Some(Wdl::Draw)
    );
    // whoever moves must take the other's only piece: the game ends there
    assert_eq!(verdict(set, Variant::Russian, "W:Wc3:Bd4"), Some(Wdl::Win));
    assert_eq!(verdict(set, Variant::Russian, "B:Wc3:Bd4"), Some(Wdl::Win));
}

#[test]
fn in_giveaway_the_side_that_loses_its_pieces_wins() {
    let set = build::build(Variant::Giveaway, 3, &mut NoStore, &mut |_| {}).unwrap();
    assert_eq!(set.max_pieces(Variant::Giveaway), 3);
    // White must take d4: Black has no piece left and wins
    assert_eq!(
        verdict(&set, Variant::Giveaway, "W:Wc3:Bd4"),
        Some(Wdl::Loss)
    );
    // White's king gives itself up: a1-g7, h8:f6 (or further), White has nothing left
    assert_eq!(
        verdict(&set, Variant::Giveaway, "W:WKa1:BKh8"),
        Some(Wdl::Win)
    );
}

#[test]
fn on_10x10_two_kings_cannot_beat_one_nor_three_a_king_on_the_long_diagonal() {
    let targets = [Material::new(0, 3, 0, 1), Material::new(1, 0, 0, 1)];
    let set = build::build_materials(
        Variant::Hundred,
        &build::closure(&targets),
        &mut NoStore,
        &mut |_| {},
    )
    .unwrap();
    // 46 = a1 and 5 = k10 end the long diagonal
    assert_eq!(
        verdict(&set, Variant::Hundred, "W:WK46,K48:BK15"),
        Some(Wdl::Draw)
    );
    assert_eq!(
        verdict(&set, Variant::Hundred, "W:WK47,K48,K50:BK46"),
        Some(Wdl::Draw)
    );
    assert_eq!(
        verdict(&set, Variant::Hundred, "B:WK47,K48,K50:BK46"),
        Some(Wdl::Draw)
    );
    // a lone man next to a king with room behind it is taken at once
    assert_eq!(
        verdict(&set, Variant::Hundred, "W:WK46:B41"),
        Some(Wdl::Win)
    );
    // ... and with Black to move it crowns on c1 (47): a king against a king
    assert_eq!(
        verdict(&set, Variant::Hundred, "B:WK46:B41"),
        Some(Wdl::Draw)
    );
}

/// A store in memory that counts what it was asked.
#[derive(Default)]
struct Memory {
    files: HashMap<(Variant, Material), Vec<u8>>,
    saved: usize,
}

impl TableStore for Memory {
    fn load(&mut self, v: Variant, m: Material) -> Result<Option<Vec<u8>>, String> {
        Ok(self.files.get(&(v, m)).cloned())
    }

    fn save(&mut self, v: Variant, m: Material, bytes: &[u8]) -> Result<(), String> {
        self.saved += 1;
        self.files.insert((v, m), bytes.to_vec());
        Ok(())
    }
}

#[test]
fn a_build_resumes_from_the_slices_stored_and_rebuilds_a_damaged_one() {
    let mut store = Memory::default();
    let first = build::build(Variant::Russian, 3, &mut store, &mut |_| {}).unwrap();
    assert_eq!(store.saved, 16);
    // damage one stored slice: its checksum no longer matches
    let key = (Variant::Russian, Material::new(1, 0, 0, 2));
    store.files.get_mut(&key).unwrap()[HEADER_LEN + 3] ^= 0x40;
    assert!(matches!(
        Slice::from_bytes(&store.files[&key]),
        Err(TableError::Checksum { .. })
    ));
    store.saved = 0;
    let mut loaded = 0;
    let again = build::build(Variant::Russian, 3, &mut store, &mut |p| {
        if p.event == Event::Loaded {
            loaded += 1;
        }
    })
    .unwrap();
    // the damaged slice and its partner (built together) are built again
    assert_eq!(store.saved, 2);
    assert_eq!(loaded, 14);
    for s in first.slices() {
        assert_eq!(again.slice(s.variant(), s.material()), Some(s));
    }
}

#[test]
fn slice_bytes_round_trip_and_a_truncated_file_is_refused() {
    let set = russian4();
    let s = set
        .slice(Variant::Russian, Material::new(0, 2, 0, 1))
        .unwrap();
    let bytes = s.to_bytes();
    assert_eq!(&Slice::from_bytes(&bytes).unwrap(), s);
    assert!(matches!(
        Slice::from_bytes(&bytes[..bytes.len() - 1]),
        Err(TableError::Format(_))
    ));
    assert!(matches!(
        Slice::from_bytes(b"nonsense"),
        Err(TableError::Format(_))
    ));
}

#[test]
fn move_count_rules_are_named_for_the_materials_they_govern() {
    let rule = |v, fen| count_rule(&Position::from_fen(v, fen).unwrap()).map(|r| r.moves);
    assert_eq!(rule(Variant::Russian, "W:WKa1,Kc1,Ke1:BKh4"), Some(15));
    assert_eq!(rule(Variant::Russian, "W:WKc1,Ke1,Kg1:BKa1"), Some(5));
    assert_eq!(rule(Variant::Russian, "W:WKc1,e3:BKh8,b8"), Some(30));
    assert_eq!(rule(Variant::Russian, "W:Wc3:Bd4"), None);
    assert_eq!(rule(Variant::Hundred, "W:WK46,K48,K50:BK15"), Some(16));
    assert_eq!(rule(Variant::Hundred, "W:WK46:BK15"), Some(5));
    assert_eq!(rule(Variant::Giveaway, "W:WKa1:BKh8"), Some(15));
}

/// Every position of the given materials with either side to move, placed piece by piece
/// (no use of the tables' numbering).
fn all_positions(variant: Variant, materials: &[Material]) -> Vec<Position> {
    let n = variant.square_count();
    let size = variant.board_size();
    let mut out = Vec::new();
    for &m in materials {
        let kinds: Vec<(Color, Piece)> = [
            (Color::White, Piece::Man, m.white_men),
            (Color::White, Piece::King, m.white_kings),
            (Color::Black, Piece::Man, m.black_men),
            (Color::Black, Piece::King, m.black_kings),
        ]
        .iter()
        .flat_map(|&(c, p, k)| std::iter::repeat_n((c, p), usize::from(k)))
        .collect();
        fn place(
            pos: Position,
            kinds: &[(Color, Piece)],
            from: u8,
            n: u8,
            size: u8,
            out: &mut Vec<Position>,
        ) {
            let Some((&(c, p), rest)) = kinds.split_first() else {
                for side in [Color::White, Color::Black] {
                    let mut q = Position::empty(pos.variant(), side);
                    for (sq, c, p) in pos.pieces() {
                        q.put(sq, Some((c, p)));
                    }
                    out.push(q);
                }
                return;
            };
            // pieces of one kind in increasing squares, so that each set comes once
            let same_as_next = rest.first() == Some(&(c, p));
            for s in from..n {
                let sq = Square::from_number(size, s + 1).unwrap();
                if pos.piece_at(sq).is_some() {
                    continue;
                }
                let crown = if c == Color::White {
                    sq.rank() == size
                } else {
                    sq.rank() == 1
                };
                if p == Piece::Man && crown {
                    continue;
                }
                let mut q = pos;
                q.put(sq, Some((c, p)));
                place(q, rest, if same_as_next { s + 1 } else { 0 }, n, size, out);
            }
        }
        place(
            Position::empty(variant, Color::White),
            &kinds,
            0,
            n,
            size,
            &mut out,
        );
    }
    out
}

/// Solves the positions by forward iteration to a fixpoint: a position is won if a move
/// leaves the opponent lost, lost if every move leaves the opponent won; what never
/// settles is drawn. Independent of the builder's numbering and its moves taken back.
fn forward_solve(variant: Variant, positions: &[Position]) -> HashMap<Position, Wdl> {
    let ends_won = variant == Variant::Giveaway;
    let end = if ends_won { Wdl::Win } else { Wdl::Loss };
    let number: HashMap<Position, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (*p, i as u32))
        .collect();
    // each position's successors once: an index, or None where the opponent has no piece
    let succ: Vec<Vec<Option<u32>>> = positions
        .iter()
        .map(|p| {
            p.legal_moves()
                .iter()
                .map(|m| number.get(&p.play(m)).copied())
                .collect()
        })
        .collect();
    let mut value: Vec<Option<Wdl>> = vec![None; positions.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..positions.len() {
            if value[i].is_some() {
                continue;
            }
            let opp = |s: &Option<u32>| match s {
                None => Some(end),
                Some(j) => value[*j as usize],
            };
            let v = if succ[i].is_empty() {
                Some(end)
            } else if succ[i].iter().any(|s| opp(s) == Some(Wdl::Loss)) {
                Some(Wdl::Win)
            } else if succ[i].iter().all(|s| opp(s) == Some(Wdl::Win)) {
                Some(Wdl::Loss)
            } else {
                None
            };
            if v.is_some() {
                value[i] = v;
                changed = true;
            }
        }
    }
    positions
        .iter()
        .zip(value)
        .map(|(p, v)| (*p, v.unwrap_or(Wdl::Draw)))
        .collect()
}

fn agrees_with_forward_solution(variant: Variant, materials: &[Material]) {
    let set = build::build_materials(variant, materials, &mut NoStore, &mut |_| {}).unwrap();
    let positions = all_positions(variant, materials);
    let solved = forward_solve(variant, &positions);
    let mut wins = 0;
    for p in &positions {
        assert_eq!(set.probe(p), Some(solved[p]), "{variant} {}", p.to_fen());
        wins += usize::from(solved[p] == Wdl::Win);
    }
    assert!(wins > 0 && wins < positions.len());
}

#[test]
fn the_builder_agrees_with_a_forward_solution_on_8x8_to_three_pieces() {
    agrees_with_forward_solution(Variant::Russian, &Material::all_up_to(3));
    agrees_with_forward_solution(Variant::Giveaway, &Material::all_up_to(3));
}

#[test]
fn the_builder_agrees_with_a_forward_solution_on_10x10_kings() {
    agrees_with_forward_solution(
        Variant::Hundred,
        &build::closure(&[Material::new(0, 2, 0, 1), Material::new(1, 1, 0, 1)]),
    );
}

#[test]
#[ignore = "long at opt-level 1 (20 min): cargo test --release --lib three_kings_on_10x10 -- --ignored"]
fn the_builder_agrees_with_a_forward_solution_on_three_kings_against_one_on_10x10() {
    agrees_with_forward_solution(
        Variant::Hundred,
        &build::closure(&[Material::new(0, 3, 0, 1)]),
    );
}
