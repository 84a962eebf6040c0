//! The judge's view of the rules: the one place in `game` that knows how positions, moves
//! and notation are computed. Everything else in `game` talks to the board through this
//! small interface, so the rules engine behind it can change without touching the judge.
//!
//! This version carries its own compact mailbox engine (Russian, hundred and give-away move
//! rules, full notation, algebraic squares) so the judge could be built and tested before the
//! `rules` module's bitboard engine existed; it plays legal moves by the same rules.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

pub use crate::clock::Side;
use crate::rules::{MoveText, SquareText};

/// The three games zaochka runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Russian checkers, 8x8.
    Russian,
    /// Hundred-square (international) checkers, 10x10.
    Hundred,
    /// Give-away: Russian move rules, the goal reversed.
    Giveaway,
}

impl Variant {
    fn size(self) -> i8 {
        match self {
            Variant::Hundred => 10,
            _ => 8,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Russian => "russian",
            Variant::Hundred => "hundred",
            Variant::Giveaway => "giveaway",
        })
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "russian" => Ok(Variant::Russian),
            "hundred" | "international" => Ok(Variant::Hundred),
            "giveaway" => Ok(Variant::Giveaway),
            _ => Err(s.to_string()),
        }
    }
}

type Sq = (i8, i8);

/// A legal move: the squares it passes (start, each landing) and the pieces it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mv {
    path: Vec<Sq>,
    captured: Vec<Sq>,
}

impl Mv {
    /// The move in full notation, as zaochka writes it back to players.
    pub(crate) fn text(&self, _variant: Variant) -> String {
        let sep = if self.captured.is_empty() { "-" } else { ":" };
        self.path
            .iter()
            .map(|s| sq_name(*s))
            .collect::<Vec<_>>()
            .join(sep)
    }
}

fn sq_name((f, r): Sq) -> String {
    let file = b"abcdefghik"[f as usize] as char;
    format!("{file}{}", r + 1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    side: Side,
    king: bool,
}

/// A position of one of the three games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    variant: Variant,
    cells: Vec<Option<Cell>>,
    stm: Side,
}

/// How a written move reads against a position.
#[derive(Clone, Debug)]
pub(crate) enum Resolved {
    /// Exactly one legal move fits.
    Legal(Mv),
    /// No legal move fits (or several do); the English reason.
    Impossible(String),
}

const DIRS: [Sq; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

impl Pos {
    /// The starting position.
    pub(crate) fn start(variant: Variant) -> Pos {
        let n = variant.size();
        let rows = if n == 10 { 4 } else { 3 };
        let mut cells = vec![None; (n as usize) * (n as usize)];
        for r in 0..n {
            for f in 0..n {
                if (f + r) % 2 != 0 {
                    continue;
                }
                let side = if r < rows {
                    Side::White
                } else if r >= n - rows {
                    Side::Black
                } else {
                    continue;
                };
                cells[(r as usize) * (n as usize) + f as usize] = Some(Cell { side, king: false });
            }
        }
        Pos {
            variant,
            cells,
            stm: Side::White,
        }
    }

    /// Reads a position written by [`Pos::fen`] (`W:Wa1,Kc3:Bb8`); `None` if it is not one.
    pub(crate) fn from_fen(variant: Variant, fen: &str) -> Option<Pos> {
        let n = variant.size();
        let mut parts = fen.trim().split(':');
        let stm = match parts.next()? {
            "W" => Side::White,
            "B" => Side::Black,
            _ => return None,
        };
        let mut p = Pos {
            variant,
            cells: vec![None; (n as usize) * (n as usize)],
            stm,
        };
        for part in parts {
            let side = match part.chars().next()? {
                'W' => Side::White,
                'B' => Side::Black,
                _ => return None,
            };
            for s in part[1..].split(',').filter(|s| !s.is_empty()) {
                let (king, name) = match s.strip_prefix('K') {
                    Some(rest) => (true, rest),
                    None => (false, s),
                };
                let mut chars = name.chars();
                let file = chars.next()?;
                let rank: u8 = chars.as_str().parse().ok()?;
                let sq = p.square(&SquareText::Alg { file, rank })?;
                p.put(sq, Some(Cell { side, king }));
            }
        }
        Some(p)
    }

    fn n(&self) -> i8 {
        self.variant.size()
    }

    fn on(&self, (f, r): Sq) -> bool {
        f >= 0 && r >= 0 && f < self.n() && r < self.n()
    }

    fn at(&self, (f, r): Sq) -> Option<Cell> {
        self.cells[(r as usize) * (self.n() as usize) + f as usize]
    }

    fn put(&mut self, (f, r): Sq, c: Option<Cell>) {
        let n = self.n() as usize;
        self.cells[(r as usize) * n + f as usize] = c;
    }

    /// The side to move.
    pub(crate) fn side_to_move(&self) -> Side {
        self.stm
    }

    fn square(&self, t: &SquareText) -> Option<Sq> {
        let n = self.n();
        let sq = match *t {
            SquareText::Alg { file, rank } => {
                let f = "abcdefghik".find(file)? as i8;
                (f, rank as i8 - 1)
            }
            SquareText::Num(k) => {
                let per = n / 2;
                let k = k as i8;
                if k < 1 || k > per * n {
                    return None;
                }
                let row = (k - 1) / per; // 0 = the far row from white
                let r = n - 1 - row;
                let idx = (k - 1) % per;
                let f = idx * 2 + if r % 2 == 0 { 0 } else { 1 };
                (f, r)
            }
        };
        (self.on(sq) && (sq.0 + sq.1) % 2 == 0).then_some(sq)
    }

    fn promo_rank(&self, side: Side) -> i8 {
        match side {
            Side::White => self.n() - 1,
            Side::Black => 0,
        }
    }

    /// Every legal move.
    pub(crate) fn legal_moves(&self) -> Vec<Mv> {
        let mut caps = Vec::new();
        for r in 0..self.n() {
            for f in 0..self.n() {
                if let Some(c) = self.at((f, r))
                    && c.side == self.stm
                {
                    self.captures_from((f, r), c, &mut caps);
                }
            }
        }
        if !caps.is_empty() {
            if self.variant == Variant::Hundred {
                let most = caps.iter().map(|m| m.captured.len()).max().unwrap_or(0);
                caps.retain(|m| m.captured.len() == most);
            }
            return caps;
        }
        let mut quiet = Vec::new();
        for r in 0..self.n() {
            for f in 0..self.n() {
                if let Some(c) = self.at((f, r))
                    && c.side == self.stm
                {
                    for d in DIRS {
                        if !c.king && (d.1 > 0) != (c.side == Side::White) {
                            continue;
                        }
                        let mut to = (f + d.0, r + d.1);
                        while self.on(to) && self.at(to).is_none() {
                            quiet.push(Mv {
                                path: vec![(f, r), to],
                                captured: vec![],
                            });
                            if !c.king {
                                break;
                            }
                            to = (to.0 + d.0, to.1 + d.1);
                        }
                    }
                }
            }
        }
        quiet
    }

    fn captures_from(&self, from: Sq, c: Cell, out: &mut Vec<Mv>) {
        let mut path = vec![from];
        let mut taken = Vec::new();
        self.extend(from, c.king, c.side, from, &mut path, &mut taken, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        at: Sq,
        king: bool,
        side: Side,
        origin: Sq,
        path: &mut Vec<Sq>,
        taken: &mut Vec<Sq>,
        out: &mut Vec<Mv>,
    ) {
        let empty = |s: Sq| s == origin || self.at(s).is_none();
        let mut any = false;
        for d in DIRS {
            let mut s = (at.0 + d.0, at.1 + d.1);
            if king {
                while self.on(s) && empty(s) {
                    s = (s.0 + d.0, s.1 + d.1);
                }
            }
            if !self.on(s) || empty(s) || taken.contains(&s) {
                continue;
            }
            match self.at(s) {
                Some(o) if o.side != side => {}
                _ => continue,
            }
            let victim = s;
            let mut lands = Vec::new();
            let mut l = (victim.0 + d.0, victim.1 + d.1);
            while self.on(l) && empty(l) && !taken.contains(&l) {
                lands.push(l);
                if !king {
                    break;
                }
                l = (l.0 + d.0, l.1 + d.1);
            }
            if lands.is_empty() {
                continue;
            }
            taken.push(victim);
            // Russian rule: a king must land where it can go on capturing, if it can.
            let mut chosen: Vec<(Sq, bool)> = Vec::new();
            for &l in &lands {
                let crowned =
                    king || (self.variant != Variant::Hundred && l.1 == self.promo_rank(side));
                chosen.push((l, crowned));
            }
            if king {
                let cont: Vec<(Sq, bool)> = chosen
                    .iter()
                    .copied()
                    .filter(|&(l, k)| self.can_capture(l, k, side, origin, taken))
                    .collect();
                if !cont.is_empty() {
                    chosen = cont;
                }
            }
            for (l, k) in chosen {
                any = true;
                path.push(l);
                if self.can_capture(l, k, side, origin, taken) {
                    self.extend(l, k, side, origin, path, taken, out);
                } else {
                    out.push(Mv {
                        path: path.clone(),
                        captured: taken.clone(),
                    });
                }
                path.pop();
            }
            taken.pop();
        }
        let _ = any;
    }

    fn can_capture(&self, at: Sq, king: bool, side: Side, origin: Sq, taken: &[Sq]) -> bool {
        let empty = |s: Sq| s == origin || self.at(s).is_none();
        DIRS.iter().any(|d| {
            let mut s = (at.0 + d.0, at.1 + d.1);
            if king {
                while self.on(s) && empty(s) {
                    s = (s.0 + d.0, s.1 + d.1);
                }
            }
            if !self.on(s) || empty(s) || taken.contains(&s) {
                return false;
            }
            if self.at(s).map(|o| o.side) == Some(side) {
                return false;
            }
            let l = (s.0 + d.0, s.1 + d.1);
            self.on(l) && empty(l) && !taken.contains(&l)
        })
    }

    /// The position after a legal move.
    pub(crate) fn play(&self, m: &Mv) -> Pos {
        let mut p = self.clone();
        let from = m.path[0];
        let to = *m.path.last().unwrap_or(&from);
        let mut c = p.at(from);
        p.put(from, None);
        for s in &m.captured {
            p.put(*s, None);
        }
        if let Some(cell) = c.as_mut() {
            let crowned_in_passing = self.variant != Variant::Hundred
                && m.path.iter().any(|s| s.1 == self.promo_rank(cell.side));
            if to.1 == self.promo_rank(cell.side) || crowned_in_passing {
                cell.king = true;
            }
        }
        p.put(to, c);
        p.stm = self.stm.other();
        p
    }

    /// Reads a written move: exactly one legal move must fit it.
    pub(crate) fn resolve(&self, t: &MoveText) -> Resolved {
        let mut squares = Vec::new();
        for s in &t.squares {
            match self.square(s) {
                Some(q) => squares.push(q),
                None => {
                    return Resolved::Impossible(format!(
                        "a square of {} is not on this board",
                        show(t)
                    ));
                }
            }
        }
        if squares.len() < 2 {
            return Resolved::Impossible("a move names at least two squares".into());
        }
        let from = squares[0];
        match self.at(from) {
            None => return Resolved::Impossible(format!("no piece on {}", sq_name(from))),
            Some(c) if c.side != self.stm => {
                return Resolved::Impossible(format!(
                    "the piece on {} is not yours",
                    sq_name(from)
                ));
            }
            _ => {}
        }
        let legal = self.legal_moves();
        let fits: Vec<&Mv> = legal
            .iter()
            .filter(|m| {
                if m.path == squares {
                    return true;
                }
                squares.len() == 2
                    && m.path.first() == squares.first()
                    && m.path.last() == squares.last()
            })
            .collect();
        let exact: Vec<&&Mv> = fits.iter().filter(|m| m.path == squares).collect();
        if exact.len() == 1 {
            return Resolved::Legal((*exact[0]).clone());
        }
        match fits.as_slice() {
            [one] => Resolved::Legal((*one).clone()),
            [] if legal.iter().any(|m| !m.captured.is_empty()) => {
                Resolved::Impossible("capture is compulsory".into())
            }
            [] => Resolved::Impossible("no such move".into()),
            _ => {
                Resolved::Impossible("several capture routes fit; name every landing square".into())
            }
        }
    }

    /// The legal moves of the piece on the square a written move starts from (10.2.10).
    pub(crate) fn moves_from_text(&self, t: &MoveText) -> Vec<Mv> {
        let Some(from) = t.squares.first().and_then(|s| self.square(s)) else {
            return Vec::new();
        };
        self.legal_moves()
            .into_iter()
            .filter(|m| m.path[0] == from)
            .collect()
    }

    /// The move whose full notation is `text`, if legal here.
    pub(crate) fn find(&self, text: &str) -> Option<Mv> {
        self.legal_moves()
            .into_iter()
            .find(|m| m.text(self.variant) == text)
    }

    /// The game is over by the rules: the side to move has no move (or no pieces).
    pub(crate) fn winner(&self) -> Option<Side> {
        if !self.legal_moves().is_empty() {
            return None;
        }
        Some(match self.variant {
            Variant::Giveaway => self.stm,
            _ => self.stm.other(),
        })
    }

    /// A short position description for letters (FEN-like, algebraic).
    pub(crate) fn fen(&self) -> String {
        let mut w = Vec::new();
        let mut b = Vec::new();
        for r in 0..self.n() {
            for f in 0..self.n() {
                if let Some(c) = self.at((f, r)) {
                    let s = format!("{}{}", if c.king { "K" } else { "" }, sq_name((f, r)));
                    match c.side {
                        Side::White => w.push(s),
                        Side::Black => b.push(s),
                    }
                }
            }
        }
        let stm = if self.stm == Side::White { "W" } else { "B" };
        format!("{stm}:W{}:B{}", w.join(","), b.join(","))
    }
}

/// Several positions in a row, for the draw rules that look back.
pub(crate) fn draw_by_rule(history: &[Pos]) -> Option<String> {
    let last = history.last()?;
    let seen = history.iter().filter(|p| *p == last).count();
    (seen >= 3).then(|| "threefold repetition".to_string())
}

/// Reads a square name (`c3`, `k10`, `32`) for tests and stored texts.
#[cfg(test)]
pub(crate) fn square_text(s: &str) -> SquareText {
    if let Ok(n) = s.parse::<u8>() {
        return SquareText::Num(n);
    }
    let mut chars = s.chars();
    let file = chars.next().unwrap_or('?');
    let rank = chars.as_str().parse().unwrap_or(0);
    SquareText::Alg { file, rank }
}

/// Reads a move in zaochka's own full notation (`c3-d4`, `c3:e5:c7`, `32-28`): the form
/// stored in the game state and written by [`Mv::text`].
#[cfg(test)]
pub(crate) fn move_text(s: &str) -> MoveText {
    let is_capture = s.contains(':');
    MoveText {
        squares: s.split([':', '-']).map(square_text).collect(),
        is_capture,
    }
}

/// Writes a move text in the normal form (`c3-d4`, `c3:e5:c7`, `32-28`).
pub(crate) fn show(t: &MoveText) -> String {
    let sep = if t.is_capture { ":" } else { "-" };
    t.squares
        .iter()
        .map(|s| match s {
            SquareText::Alg { file, rank } => format!("{file}{rank}"),
            SquareText::Num(n) => n.to_string(),
        })
        .collect::<Vec<_>>()
        .join(sep)
}
