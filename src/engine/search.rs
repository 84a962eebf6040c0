//! The search: iterative deepening over a principal-variation search (PVS) with a
//! transposition table, move ordering (the table's move, captures by what they take,
//! killers, history), a quiescence search that plays captures out, and probes of the
//! endgame tables.
//!
//! - Time-boxed by a [`Deadline`] the caller implements (checked every 1,024 nodes), or by
//!   depth and nodes ([`Limits`]); with no deadline the result depends on the depth alone
//!   (one thread, a fresh table each search).
//! - Draws on the path: a position that repeats one since the last irreversible move (a man
//!   moved or a capture) scores 0, and so does the 15th (25th on 10x10) move of kings only.
//! - Give-away turns the end of the game round (the side with no move wins) and extends
//!   captures by a ply, as forced moves are in every game.
//! - Scores are hundredths of a man for the side to move; a won end of the game in `n` plies
//!   is `MATE − n`, a won table position `n` plies away `TABLE_WIN − n`: anything at least
//!   [`PROVEN`] in size is proven.

use super::eval::{Evaluator, Weights};
use super::tables::{Material, Tables, Wdl};
use super::tt::{self, Bound, Entry};
use super::zobrist;
use crate::rules::compact::CMove;
use crate::rules::{Color, Position, Variant};

/// The score of a won end of the game at the root (less the plies to it).
pub const MATE: i32 = 30_000;
/// The score of a won table position at the root (less the plies to it).
pub const TABLE_WIN: i32 = 20_000;
/// The deepest ply searched.
pub const MAX_PLY: usize = 128;
/// Scores at least this large (either sign) are proven: a forced end of the game or a
/// table position within the tree.
pub const PROVEN: i32 = TABLE_WIN - MAX_PLY as i32;
const INF: i32 = MATE + 1;

/// When to stop searching, as the caller tells: `std::time` lives outside the pure core.
pub trait Deadline {
    /// Whether the time is up.
    fn is_over(&self) -> bool;
}

/// No deadline: the search stops at its depth or node limit.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoDeadline;

impl Deadline for NoDeadline {
    fn is_over(&self) -> bool {
        false
    }
}

/// How far to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies (1..=100).
    pub depth: u32,
    /// Stop after about this many nodes.
    pub nodes: u64,
    /// The transposition table has `2^tt_bits` entries of 16 bytes.
    pub tt_bits: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: 100,
            nodes: u64::MAX,
            tt_bits: 20,
        }
    }
}

impl Limits {
    /// A search to `depth` plies and no further.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            ..Limits::default()
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The score for the side to move.
    pub score: i32,
    /// The last iteration completed.
    pub depth: u32,
    /// The principal variation, compact moves from the root.
    pub(crate) pv: Vec<CMove>,
    /// Nodes searched (quiescence included).
    pub nodes: u64,
}

/// A search's state: one per analysis.
pub(crate) struct Searcher<'a> {
    variant: Variant,
    eval: Evaluator,
    tt: tt::Table,
    history: Vec<u32>,
    killers: [[(u8, u8); 2]; MAX_PLY],
    tables: Option<&'a dyn Tables>,
    table_pieces: u32,
    /// Positions of this material are not probed (the analysis of a table position wants
    /// the line, not the verdict it already has).
    skip: Option<Material>,
    deadline: &'a dyn Deadline,
    limits: Limits,
    nodes: u64,
    stopped: bool,
    may_stop: bool,
    /// Keys of the positions from the start of the game to the current node.
    keys: Vec<u64>,
    /// For each: plies since the last irreversible move.
    runs: Vec<u32>,
    king_limit: u32,
    bufs: Vec<Vec<CMove>>,
    order: Vec<Vec<(i32, u8)>>,
    scratch: Vec<CMove>,
    pv: Vec<CMove>,
    pv_len: [usize; MAX_PLY + 1],
    /// Off in the tests that compare the search with plain minimax: a cut-off on a deeper
    /// stored result changes the value (for the better), not the tree.
    tt_cutoffs: bool,
}

const NO_MOVE: CMove = CMove {
    from: 0,
    to: 0,
    promotes: false,
    captured: 0,
};

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        variant: Variant,
        weights: Weights,
        limits: Limits,
        deadline: &'a dyn Deadline,
        tables: Option<&'a dyn Tables>,
        skip: Option<Material>,
    ) -> Searcher<'a> {
        Searcher {
            variant,
            eval: Evaluator::new(variant, weights),
            tt: tt::Table::new(limits.tt_bits),
            history: vec![0; 64 * 64],
            killers: [[(0, 0); 2]; MAX_PLY],
            table_pieces: tables.map_or(0, |t| t.max_pieces(variant)),
            tables,
            skip,
            deadline,
            limits,
            nodes: 0,
            stopped: false,
            may_stop: false,
            keys: Vec::new(),
            runs: Vec::new(),
            king_limit: if variant == Variant::Hundred { 25 } else { 15 },
            bufs: (0..=MAX_PLY).map(|_| Vec::with_capacity(48)).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(48)).collect(),
            scratch: Vec::with_capacity(48),
            pv: vec![NO_MOVE; (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: [0; MAX_PLY + 1],
            tt_cutoffs: true,
        }
    }

    /// Searches the last of `positions` (the game so far, for repetitions), whose last
    /// `run` moves were quiet king moves.
    pub(crate) fn run(&mut self, positions: &[Position], run: u32) -> Found {
        let Some(root) = positions.last().copied() else {
            return Found {
                score: 0,
                depth: 0,
                pv: Vec::new(),
                nodes: 0,
            };
        };
        // only positions since the last irreversible move can repeat
        let tail = positions.len().saturating_sub(run as usize + 1);
        self.keys = positions[tail..].iter().map(zobrist::key).collect();
        let first_run = run.saturating_sub((positions.len() - tail - 1) as u32);
        self.runs = (0..self.keys.len() as u32).map(|i| first_run + i).collect();
        let mut best = Found {
            score: 0,
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
        };
        let max = self.limits.depth.clamp(1, 100);
        for depth in 1..=max {
            self.may_stop = depth > 1;
            let score = self.negamax(&root, depth as i32, -INF, INF, 0);
            if self.stopped {
                break;
            }
            best = Found {
                score,
                depth,
                pv: self.pv[..self.pv_len[0]].to_vec(),
                nodes: self.nodes,
            };
            let distance = if score.abs() >= MATE - MAX_PLY as i32 {
                MATE - score.abs()
            } else if score.abs() >= PROVEN {
                TABLE_WIN - score.abs()
            } else {
                i32::MAX
            };
            if distance <= depth as i32 || self.nodes >= self.limits.nodes {
                break;
            }
        }
        best.nodes = self.nodes;
        best
    }

    fn terminal(&self, ply: usize) -> i32 {
        let win = MATE - ply as i32;
        if self.variant == Variant::Giveaway {
            win
        } else {
            -win
        }
    }

    fn probe(&self, pos: &Position, ply: usize) -> Option<i32> {
        let tables = self.tables?;
        let bb = pos.bits();
        if (bb.white | bb.black).count_ones() > self.table_pieces {
            return None;
        }
        if self.skip.is_some_and(|m| m == Material::of(pos)) {
            return None;
        }
        let win = TABLE_WIN - ply as i32;
        Some(match tables.probe(pos)? {
            Wdl::Win => win,
            Wdl::Loss => -win,
            Wdl::Draw => 0,
        })
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && self.may_stop
            && (self.nodes >= self.limits.nodes || self.deadline.is_over())
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the node just entered (the last key) is drawn by the path.
    fn is_path_draw(&self) -> bool {
        let idx = self.keys.len() - 1;
        let run = self.runs[idx] as usize;
        if run >= 2 * self.king_limit as usize {
            return true;
        }
        let key = self.keys[idx];
        let mut j = idx;
        while j >= 2 && idx - (j - 2) <= run {
            j -= 2;
            if self.keys[j] == key {
                return true;
            }
        }
        false
    }

    fn push(&mut self, child: &Position, parent: &Position, m: CMove) {
        let reversible = m.captured == 0 && parent.bits().kings & (1u64 << m.from) != 0;
        let run = if reversible {
            self.runs[self.runs.len() - 1] + 1
        } else {
            0
        };
        self.keys.push(zobrist::key(child));
        self.runs.push(run);
    }

    fn pop(&mut self) {
        self.keys.pop();
        self.runs.pop();
    }

    fn set_pv(&mut self, ply: usize, m: CMove) {
        let w = MAX_PLY + 1;
        let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
        self.pv[ply * w] = m;
        for i in 0..n {
            self.pv[ply * w + 1 + i] = self.pv[(ply + 1) * w + i];
        }
        self.pv_len[ply] = n + 1;
    }

    fn static_eval(&mut self, pos: &Position, ply: usize) -> i32 {
        let me = pos.side_to_move();
        let mine = pos.move_count_of(me, &mut self.scratch);
        if mine == 0 {
            return self.terminal(ply);
        }
        let theirs = pos.move_count_of(me.opponent(), &mut self.scratch);
        let (w, b) = if me == Color::White {
            (mine, theirs)
        } else {
            (theirs, mine)
        };
        self.eval.eval_counted(pos, w, b)
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        if ply > 0
            && let Some(s) = self.probe(pos, ply)
        {
            return s;
        }
        if ply >= MAX_PLY - 1 || !pos.has_capture() {
            return self.static_eval(pos, ply);
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        pos.compact_moves(&mut moves);
        // the biggest captures first
        moves.sort_by_key(|m| std::cmp::Reverse(m.captured.count_ones()));
        let mut best = -INF;
        for &m in moves.iter() {
            let child = pos.play_compact(m);
            let s = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.set_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.bufs[ply] = moves;
        best
    }

    fn to_tt(score: i32, ply: usize) -> i32 {
        if score >= PROVEN {
            score + ply as i32
        } else if score <= -PROVEN {
            score - ply as i32
        } else {
            score
        }
    }

    fn from_tt(score: i32, ply: usize) -> i32 {
        if score >= PROVEN {
            score - ply as i32
        } else if score <= -PROVEN {
            score + ply as i32
        } else {
            score
        }
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if ply > 0 && self.is_path_draw() {
            self.pv_len[ply] = 0;
            return 0;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.pv_len[ply] = 0;
        if self.tick() {
            return 0;
        }
        if ply > 0
            && let Some(s) = self.probe(pos, ply)
        {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, ply);
        }
        let is_pv = beta - alpha > 1;
        let key = self.keys[self.keys.len() - 1];
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && !is_pv
            && self.tt_cutoffs
            && ply > 0
            && e.depth >= depth
        {
            let s = Self::from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        let mut moves = std::mem::take(&mut self.bufs[ply]);
        pos.compact_moves(&mut moves);
        if moves.is_empty() {
            self.bufs[ply] = moves;
            return self.terminal(ply);
        }
        let capture = moves[0].captured != 0;
        let extend = moves.len() == 1 || (capture && self.variant == Variant::Giveaway);
        let new_depth = if extend && ply < 2 * MAX_PLY / 3 {
            depth
        } else {
            depth - 1
        };
        let tt_best = entry.map_or(u8::MAX, |e| e.best);
        let mut order = std::mem::take(&mut self.order[ply]);
        self.score_moves(pos, &moves, &mut order, tt_best, ply);

        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_i = u8::MAX;
        for n in 0..moves.len() {
            // pick the best-ordered move left
            let mut pick = n;
            for j in n + 1..moves.len() {
                if order[j].0 > order[pick].0 {
                    pick = j;
                }
            }
            moves.swap(n, pick);
            order.swap(n, pick);
            let m = moves[n];
            let generated = order[n].1;
            let child = pos.play_compact(m);
            self.push(&child, pos, m);
            let mut s;
            if n == 0 {
                s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1);
            } else {
                s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1);
                }
            }
            self.pop();
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                best_i = generated;
                if s > alpha {
                    alpha = s;
                    self.set_pv(ply, m);
                    if s >= beta {
                        if m.captured == 0 {
                            self.reward(m, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.bufs[ply] = moves;
        self.order[ply] = order;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(Entry {
            key,
            score: Self::to_tt(best, ply),
            depth,
            bound,
            best: best_i,
        });
        best
    }

    fn score_moves(
        &mut self,
        pos: &Position,
        moves: &[CMove],
        order: &mut Vec<(i32, u8)>,
        tt_best: u8,
        ply: usize,
    ) {
        order.clear();
        let kings = pos.bits().kings;
        for (i, m) in moves.iter().enumerate() {
            let s = if i == usize::from(tt_best) {
                1 << 30
            } else if m.captured != 0 {
                (1 << 29)
                    + (m.captured.count_ones() as i32) * 1024
                    + ((m.captured & kings).count_ones() as i32) * 256
                    + i32::from(m.promotes) * 64
            } else if self.killers[ply].contains(&(m.from, m.to)) {
                1 << 28
            } else if m.promotes {
                1 << 27
            } else {
                self.history[usize::from(m.from) * 64 + usize::from(m.to)] as i32
            };
            order.push((s, i.min(254) as u8));
        }
    }

    fn reward(&mut self, m: CMove, depth: i32, ply: usize) {
        let h = &mut self.history[usize::from(m.from) * 64 + usize::from(m.to)];
        *h += (depth * depth) as u32;
        if *h > 1 << 26 {
            for x in self.history.iter_mut() {
                *x /= 2;
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != (m.from, m.to) {
            k[1] = k[0];
            k[0] = (m.from, m.to);
        }
    }
}

#[cfg(test)]
impl Searcher<'_> {
    /// The same tree as [`Searcher::negamax`] (extensions, quiescence, path draws, tables)
    /// searched in full: no pruning, no table of positions.
    pub(crate) fn minimax(&mut self, pos: &Position, depth: i32, ply: usize) -> i32 {
        if ply > 0 && self.is_path_draw() {
            return 0;
        }
        if depth <= 0 {
            return self.quiesce_full(pos, ply);
        }
        if ply > 0
            && let Some(s) = self.probe(pos, ply)
        {
            return s;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, ply);
        }
        let mut moves = Vec::new();
        pos.compact_moves(&mut moves);
        if moves.is_empty() {
            return self.terminal(ply);
        }
        let extend =
            moves.len() == 1 || (moves[0].captured != 0 && self.variant == Variant::Giveaway);
        let new_depth = if extend && ply < 2 * MAX_PLY / 3 {
            depth
        } else {
            depth - 1
        };
        let mut best = -INF;
        for m in moves {
            let child = pos.play_compact(m);
            self.push(&child, pos, m);
            best = best.max(-self.minimax(&child, new_depth, ply + 1));
            self.pop();
        }
        best
    }

    fn quiesce_full(&mut self, pos: &Position, ply: usize) -> i32 {
        if ply > 0
            && let Some(s) = self.probe(pos, ply)
        {
            return s;
        }
        if ply >= MAX_PLY - 1 || !pos.has_capture() {
            return self.static_eval(pos, ply);
        }
        let mut moves = Vec::new();
        pos.compact_moves(&mut moves);
        moves
            .into_iter()
            .map(|m| -self.quiesce_full(&pos.play_compact(m), ply + 1))
            .max()
            .unwrap_or(-INF)
    }

    /// Prepares the path for [`Searcher::minimax`] from a bare position.
    pub(crate) fn start_at(&mut self, pos: &Position) {
        self.keys = vec![zobrist::key(pos)];
        self.runs = vec![0];
    }

    pub(crate) fn without_tt_cutoffs(mut self) -> Self {
        self.tt_cutoffs = false;
        self
    }
}
