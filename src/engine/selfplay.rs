//! Self-play: two weight sets play each other from a set of openings, each opening twice with
//! the colours swapped, at a fixed depth (deterministic). This is how the evaluation was
//! tuned against its previous version; `cargo bench --bench engine -- selfplay` plays the
//! match reported in the README.
//!
//! A game ends by the rules of play or a draw rule (`rules::GameRecord::outcome`), by the
//! tables' verdict when they hold the position, or as a draw after `max_plies`.

use super::{Limits, NoDeadline, Tables, Weights, analyse_with};
use crate::rules::{Color, GameRecord, Outcome, Position, Variant};

/// One side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Its evaluation.
    pub weights: Weights,
    /// How far it searches each move.
    pub limits: Limits,
}

/// A match's result from the first player's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games won by the first player.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl MatchResult {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's points (a win 1, a draw ½).
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The score as a fraction, and its 95% error bar (1.96 standard errors of the mean
    /// of the game results).
    pub fn score(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.5, 0.5);
        }
        let p = self.points() / n;
        let var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        (p, 1.96 * (var / n).sqrt())
    }

    /// The Elo difference of a score (clamped away from 0 and 1).
    pub fn elo(p: f64) -> f64 {
        let p = p.clamp(0.001, 0.999);
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Every distinct position `plies` plies from the start, as game records, in a fixed order.
pub fn openings(variant: Variant, plies: u32) -> Vec<GameRecord> {
    let mut out = vec![GameRecord::new(Position::start(variant))];
    for _ in 0..plies {
        let mut next: Vec<GameRecord> = Vec::new();
        for r in &out {
            for m in r.position().legal_moves() {
                let mut r2 = r.clone();
                if r2.push(m).is_ok() && !next.iter().any(|x| x.position() == r2.position()) {
                    next.push(r2);
                }
            }
        }
        out = next;
    }
    out
}

/// Plays one game from `start`; the result for White: 1, ½ or 0 (as 2, 1, 0 half-points).
pub fn play(
    start: &GameRecord,
    white: &Player,
    black: &Player,
    tables: Option<&dyn Tables>,
    max_plies: usize,
) -> u32 {
    let mut rec = start.clone();
    for _ in 0..max_plies {
        if let Some(o) = rec.outcome() {
            return match o {
                Outcome::Win(Color::White) => 2,
                Outcome::Win(Color::Black) => 0,
                Outcome::Draw(_) => 1,
            };
        }
        let pos = *rec.position();
        let to_move = pos.side_to_move();
        if let Some(t) = tables
            && pos.pieces().len() as u32 <= t.max_pieces(pos.variant())
            && let Some(w) = t.probe(&pos)
        {
            let white_wins = match w {
                super::Wdl::Draw => return 1,
                super::Wdl::Win => to_move == Color::White,
                super::Wdl::Loss => to_move == Color::Black,
            };
            return if white_wins { 2 } else { 0 };
        }
        let p = if to_move == Color::White {
            white
        } else {
            black
        };
        let a = analyse_with(&rec, p.limits, &NoDeadline, tables, p.weights);
        let Some(mv) =
            a.pv.first()
                .cloned()
                .or_else(|| pos.legal_moves().into_iter().next())
        else {
            break;
        };
        if rec.push(mv).is_err() {
            break;
        }
    }
    1
}

/// Plays `a` against `b` from every opening, each twice with the colours swapped.
pub fn play_match(
    a: &Player,
    b: &Player,
    openings: &[GameRecord],
    tables: Option<&dyn Tables>,
    max_plies: usize,
) -> MatchResult {
    let mut r = MatchResult::default();
    for o in openings {
        for a_white in [true, false] {
            let (w, bl) = if a_white { (a, b) } else { (b, a) };
            let white_half_points = play(o, w, bl, tables, max_plies);
            let a_half = if a_white {
                white_half_points
            } else {
                2 - white_half_points
            };
            match a_half {
                2 => r.wins += 1,
                1 => r.draws += 1,
                _ => r.losses += 1,
            }
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_the_distinct_positions_after_the_first_plies() {
        assert_eq!(openings(Variant::Russian, 1).len(), 7);
        assert_eq!(openings(Variant::Russian, 2).len(), 49);
        assert_eq!(openings(Variant::Hundred, 1).len(), 9);
    }

    #[test]
    fn the_error_bar_shrinks_with_more_games_and_an_even_score_is_zero_elo() {
        let small = MatchResult {
            wins: 5,
            draws: 10,
            losses: 5,
        };
        let big = MatchResult {
            wins: 50,
            draws: 100,
            losses: 50,
        };
        assert_eq!(small.score().0, 0.5);
        assert!(big.score().1 < small.score().1);
        assert!(MatchResult::elo(0.5).abs() < 1e-9);
        assert!(MatchResult::elo(0.75) > 190.0 && MatchResult::elo(0.75) < 192.0);
    }

    #[test]
    fn a_player_beats_one_that_does_not_search() {
        let v = Variant::Russian;
        let strong = Player {
            weights: Weights::tuned(v),
            limits: Limits {
                depth: 4,
                tt_bits: 14,
                ..Limits::default()
            },
        };
        let weak = Player {
            limits: Limits {
                depth: 1,
                tt_bits: 14,
                ..Limits::default()
            },
            ..strong
        };
        let r = play_match(&strong, &weak, &openings(v, 1)[..3], None, 120);
        assert_eq!(r.games(), 6);
        assert!(r.points() > 3.5, "{r:?}");
    }
}
