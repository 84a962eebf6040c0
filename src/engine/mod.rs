//! The arbiter's engine: a verdict on a position (win, draw or loss for the side to move),
//! proven or not, with its line — evidence for adjudication (10.5.4, 10.5.5), never the
//! decision itself.
//!
//! - [`search`]: iterative deepening, PVS, transposition table (Zobrist keys), move ordering,
//!   quiescence; time-boxed by a [`Deadline`] the caller implements; deterministic for a
//!   given depth.
//! - [`eval`]: material, advancement, centre, mobility, tempo; weights tuned by self-play
//!   ([`selfplay`]).
//! - [`tables`]: endgame tables built here by retrograde analysis, read from bytes.
//! - [`analyse`]: the verdict: from the end of the game, the tables, or the search.
//!
//! Pure: over `rules` only; no I/O, no clock (time comes in as a [`Deadline`], tables as
//! bytes or a [`Tables`] the caller implements).

pub mod eval;
pub mod search;
pub mod selfplay;
pub mod tables;
mod tt;
mod zobrist;

use crate::rules::{GameRecord, Move, Piece, Position, Variant};
pub use eval::Weights;
use search::Searcher;
pub use search::{Deadline, Limits, MATE, NoDeadline, PROVEN, TABLE_WIN};
pub use tables::{CountRule, Material, TableSet, Tables, Wdl};

/// A score at least this large (hundredths of a man) makes an unproven verdict a win (or,
/// negative, a loss); below it the verdict is a draw.
pub const VERDICT_MARGIN: i32 = 100;

/// The verdict for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move wins.
    Win,
    /// A draw.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Verdict {
    /// `win`, `draw`, `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Loss => "loss",
        }
    }

    fn of_wdl(w: Wdl) -> Verdict {
        match w {
            Wdl::Win => Verdict::Win,
            Wdl::Draw => Verdict::Draw,
            Wdl::Loss => Verdict::Loss,
        }
    }

    fn of_score(score: i32) -> Verdict {
        if score >= VERDICT_MARGIN {
            Verdict::Win
        } else if score <= -VERDICT_MARGIN {
            Verdict::Loss
        } else {
            Verdict::Draw
        }
    }
}

/// Where a verdict comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Basis {
    /// The game is over in this position (no move, or a draw rule holds on the record).
    GameOver,
    /// The endgame tables hold the position.
    Tables,
    /// The search: proven when it reached the end of the game or the tables in every line
    /// that matters, otherwise the evaluation.
    Search,
}

impl Basis {
    /// `game_over`, `tables`, `search`.
    pub fn name(self) -> &'static str {
        match self {
            Basis::GameOver => "game_over",
            Basis::Tables => "tables",
            Basis::Search => "search",
        }
    }
}

/// The engine's view of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Win, draw or loss for the side to move.
    pub verdict: Verdict,
    /// True only when the verdict comes from the end of the game, the tables, or a search
    /// that reached them.
    pub proven: bool,
    /// Where it comes from.
    pub basis: Basis,
    /// The score for the side to move: hundredths of a man, or near ±[`MATE`] /
    /// ±[`TABLE_WIN`] for a proven result (less the plies to it).
    pub score: i32,
    /// The depth of the last completed iteration, in plies.
    pub depth: u32,
    /// The line: the best moves from the position.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// A draw rule that counts moves and could apply to this material: the tables' and the
    /// search's verdicts do not count moves, so a win may be a draw by this rule.
    pub count_rule: Option<CountRule>,
    /// In the line, the moves of the side to move until the balance of forces changes (a
    /// capture or a crowning), where it does.
    pub balance_changes_in: Option<u32>,
}

/// The moves of a line written as a letter would (full notation; FMJD numeric on 10x10,
/// `32-28`, `19x28`).
pub fn line_text(variant: Variant, pv: &[Move]) -> Vec<String> {
    pv.iter()
        .map(|m| {
            if variant == Variant::Hundred {
                m.to_pdn()
            } else {
                m.to_string()
            }
        })
        .collect()
}

/// The engine's view of a game's current position, with the tuned weights.
pub fn analyse(
    record: &GameRecord,
    limits: Limits,
    deadline: &dyn Deadline,
    tables: Option<&dyn Tables>,
) -> Analysis {
    let variant = record.variant();
    analyse_with(record, limits, deadline, tables, Weights::tuned(variant))
}

/// Quiet king moves at the end of the record: the plies since the last irreversible move.
fn reversible_run(record: &GameRecord) -> u32 {
    record
        .moves()
        .iter()
        .zip(record.positions())
        .rev()
        .take_while(|(m, p)| {
            !m.is_capture() && p.piece_at(m.from()).map(|(_, k)| k) == Some(Piece::King)
        })
        .count() as u32
}

/// As [`analyse`], with the given weights.
pub fn analyse_with(
    record: &GameRecord,
    limits: Limits,
    deadline: &dyn Deadline,
    tables: Option<&dyn Tables>,
    weights: Weights,
) -> Analysis {
    let pos = *record.position();
    let variant = pos.variant();
    let count_rule = tables::count_rule(&pos);
    if let Some(outcome) = record.outcome() {
        let verdict = match outcome {
            crate::rules::Outcome::Win(c) if c == pos.side_to_move() => Verdict::Win,
            crate::rules::Outcome::Win(_) => Verdict::Loss,
            crate::rules::Outcome::Draw(_) => Verdict::Draw,
        };
        return Analysis {
            verdict,
            proven: true,
            basis: Basis::GameOver,
            score: match verdict {
                Verdict::Win => MATE,
                Verdict::Draw => 0,
                Verdict::Loss => -MATE,
            },
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
            count_rule: None,
            balance_changes_in: None,
        };
    }
    let table = tables.and_then(|t| {
        let n = pos.pieces().len() as u32;
        (n <= t.max_pieces(variant))
            .then(|| t.probe(&pos))
            .flatten()
    });
    let skip = table.map(|_| Material::of(&pos));
    let mut s = Searcher::new(variant, weights, limits, deadline, tables, skip);
    let found = s.run(record.positions(), reversible_run(record));
    let mut pv = Vec::new();
    let mut at = pos;
    let mut balance_changes_in = None;
    for (ply, &m) in found.pv.iter().enumerate() {
        let Some(mv) = at.move_of(m) else { break };
        if balance_changes_in.is_none() && (m.captured != 0 || m.promotes) {
            balance_changes_in = Some(ply as u32 / 2 + 1);
        }
        at = at.play(&mv);
        pv.push(mv);
    }
    let (verdict, proven, basis, score) = match table {
        Some(w) => {
            let v = Verdict::of_wdl(w);
            let agrees = match v {
                Verdict::Win => found.score >= PROVEN,
                Verdict::Loss => found.score <= -PROVEN,
                Verdict::Draw => false,
            };
            let score = if agrees {
                found.score
            } else {
                match v {
                    Verdict::Win => TABLE_WIN,
                    Verdict::Draw => 0,
                    Verdict::Loss => -TABLE_WIN,
                }
            };
            (v, true, Basis::Tables, score)
        }
        None => {
            let proven = found.score.abs() >= PROVEN;
            (
                Verdict::of_score(found.score),
                proven,
                Basis::Search,
                found.score,
            )
        }
    };
    Analysis {
        verdict,
        proven,
        basis,
        score,
        depth: found.depth,
        pv,
        nodes: found.nodes,
        count_rule,
        balance_changes_in,
    }
}

/// The engine's view of a bare position (no history).
pub fn analyse_position(
    pos: &Position,
    limits: Limits,
    deadline: &dyn Deadline,
    tables: Option<&dyn Tables>,
) -> Analysis {
    analyse(&GameRecord::new(*pos), limits, deadline, tables)
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! Tables shared by the tests of the engine (built once per test binary).
    use std::sync::OnceLock;

    use super::tables::{TableSet, build};
    use crate::rules::Variant;

    /// Russian tables to 4 pieces, checked while built.
    pub(crate) fn russian4() -> &'static TableSet {
        static SET: OnceLock<TableSet> = OnceLock::new();
        SET.get_or_init(|| {
            build::build(Variant::Russian, 4, &mut build::NoStore, &mut |_| {})
                .expect("the russian tables build")
        })
    }
}

#[cfg(test)]
mod tests;
