//! Game records: semi-short notation for 8x8 (10.5.1) and PDN 3.0 for every game.
//!
//! # Semi-short notation (8x8)
//! `1.cd4 fg5 2.dc5 b:d4 3.e:c5` (10.5.1): a quiet move is the starting file and the
//! destination square (`cd4` = c3-d4), a capture the starting file, `:` and the final square
//! (`b:d4`; a multiple capture too: `c:g7`). Where that fits more than one legal move
//! (two pieces on one file can reach the square), zaochka writes the whole starting square
//! (`c3d4`, `c3:e5`); where even that fits captures of different pieces, the whole route
//! (`c3:e5:g3`). Reading accepts all three forms. A game that starts with Black to move
//! begins `1... `.
//!
//! # PDN 3.0
//! Tags in this order: `Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`,
//! `GameType` (25 Russian, 20 international 10x10; give-away has no official number and
//! zaochka writes 99, outside the range PDN assigns, and reads it back as give-away), and
//! `FEN` where the game does not start from the start position; other tags follow. Moves:
//! algebraic on 8x8 (`c3-d4`, `c3:e5`), numeric on 10x10 (`32-28`, `28x19`), start and end
//! only where they fit one move, else the whole route. Reading skips comments `{…}`,
//! variations `(…)`, NAGs and `!?` marks, and accepts both notations and `x`, `:` or `-`.

use std::fmt::Write as _;

use super::{FenError, GameRecord, Move, MoveText, Position, Resolution, SquareText, Variant};

/// Why a record cannot be read or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A tag line that is not `[Name "value"]`.
    #[error("bad tag line '{0}'")]
    Tag(String),
    /// A `GameType` zaochka does not play.
    #[error("unknown GameType '{0}' (25 russian, 20 hundred, 99 giveaway)")]
    GameType(String),
    /// The `FEN` tag is not a position.
    #[error("bad FEN tag: {0}")]
    Fen(#[from] FenError),
    /// A move that is not legal, not readable or ambiguous where it stands.
    #[error("move {number} '{text}': {reason}")]
    Move {
        /// The move number as the record counts it (`12.` or `12...`).
        number: String,
        /// The move as written.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A `Result` tag that is no result (it is written back into the movetext).
    #[error("bad Result tag '{0}' (1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0 or *)")]
    Result(String),
    /// `GameType`, `FEN` or `Result` given twice: which one the game is would be a guess.
    #[error("the tag '{0}' is given twice")]
    Twice(String),
    /// Semi-short notation exists for 8x8 only.
    #[error("semi-short notation is for 8x8 games only")]
    NotEightByEight,
}

fn number_label(ply: usize, start_black: bool) -> String {
    let p = ply + usize::from(start_black);
    if p.is_multiple_of(2) {
        format!("{}.", p / 2 + 1)
    } else {
        format!("{}...", p / 2 + 1)
    }
}

/// Distinct legal moves (one per effect) that satisfy `fits`.
fn fitting(pos: &Position, fits: impl Fn(&Move) -> bool) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::new();
    for m in pos.legal_moves() {
        if fits(&m) && !out.iter().any(|o| o.same_effect(&m)) {
            out.push(m);
        }
    }
    out
}

/// The legal routes (every route, not one per effect) that satisfy `fits`.
fn routes(pos: &Position, fits: impl Fn(&Move) -> bool) -> usize {
    pos.legal_moves().iter().filter(|m| fits(m)).count()
}

/// One move in semi-short notation (see the module doc), naming exactly one legal route of
/// `pos` (so a record read back replays the very routes played).
pub fn semi_short(pos: &Position, mv: &Move) -> String {
    let sep = if mv.is_capture() { ":" } else { "" };
    let by_file = routes(pos, |m| {
        m.from().file() == mv.from().file()
            && m.to() == mv.to()
            && m.is_capture() == mv.is_capture()
    });
    if by_file == 1 {
        return format!("{}{sep}{}", mv.from().file_char(), mv.to());
    }
    let by_square = routes(pos, |m| m.from() == mv.from() && m.to() == mv.to());
    if by_square == 1 {
        return format!("{}{sep}{}", mv.from(), mv.to());
    }
    mv.to_string()
}

/// Reads one move in semi-short notation (any of the forms of the module doc) in `pos`.
///
/// # Errors
/// A description when the token fits no legal move or several.
pub fn read_semi_short(pos: &Position, token: &str) -> Result<Move, String> {
    let size = pos.variant().board_size();
    let t = token.trim().to_lowercase();
    let capture = t.contains(':') || t.contains('x');
    let parts: Vec<&str> = t.split([':', 'x', '-']).filter(|s| !s.is_empty()).collect();
    let (from_part, to_part) = match parts.as_slice() {
        [one] => {
            // quiet: file + square, or square + square
            let split = one
                .char_indices()
                .skip(1)
                .find(|&(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| i)
                .ok_or_else(|| format!("cannot read '{token}'"))?;
            (&one[..split], &one[split..])
        }
        [a, b] => (*a, *b),
        _ => {
            let text = read_move_text(&t).ok_or_else(|| format!("cannot read '{token}'"))?;
            return match text.to_move(pos) {
                Resolution::Legal(m) => Ok(m),
                Resolution::Impossible(e) => Err(e.reason.to_string()),
                Resolution::Ambiguous(_) => Err(format!("'{token}' fits several moves")),
            };
        }
    };
    let to = super::Square::from_algebraic(size, to_part)
        .ok_or_else(|| format!("'{to_part}' is not a square"))?;
    let from_square = super::Square::from_algebraic(size, from_part);
    let from_file = match from_part.chars().collect::<Vec<_>>().as_slice() {
        [f] => Some(*f),
        _ => None,
    };
    if from_square.is_none() && from_file.is_none() {
        return Err(format!("'{from_part}' is neither a file nor a square"));
    }
    let found = fitting(pos, |m| {
        m.to() == to
            && m.is_capture() == capture
            && match from_square {
                Some(sq) => m.from() == sq,
                None => Some(m.from().file_char()) == from_file,
            }
    });
    match found.as_slice() {
        [m] => Ok(m.clone()),
        [] => Err(format!("'{token}' fits no legal move")),
        _ => Err(format!("'{token}' fits several moves")),
    }
}

/// A move text in full notation (`c3:e5:c7`, `22x15x8`, `32-28`) for the record readers.
fn read_move_text(t: &str) -> Option<MoveText> {
    let is_capture = t.contains(['x', ':']);
    let squares: Option<Vec<SquareText>> = t
        .split(['x', ':', '-'])
        .map(|p| {
            if p.is_empty() {
                return None;
            }
            if let Ok(n) = p.parse::<u8>() {
                return Some(SquareText::Num(n));
            }
            let mut c = p.chars();
            let file = c.next()?.to_ascii_lowercase();
            let rank = c.as_str().parse().ok()?;
            file.is_ascii_alphabetic()
                .then_some(SquareText::Alg { file, rank })
        })
        .collect();
    let squares = squares?;
    (squares.len() >= 2).then_some(MoveText {
        squares,
        is_capture,
    })
}

impl GameRecord {
    /// The moves in semi-short notation, numbered: `1.cd4 fg5 2.dc5 b:d4` (10.5.1).
    ///
    /// # Errors
    /// [`RecordError::NotEightByEight`] for a 10x10 game.
    pub fn to_semi_short(&self) -> Result<String, RecordError> {
        if self.variant().board_size() != 8 {
            return Err(RecordError::NotEightByEight);
        }
        let start_black = self.start().side_to_move() == super::Color::Black;
        let mut out = String::new();
        for (i, (m, p)) in self.moves().iter().zip(self.positions()).enumerate() {
            let label = number_label(i, start_black);
            let white = !label.ends_with("...");
            if !out.is_empty() {
                out.push(' ');
            }
            if white || i == 0 {
                out.push_str(&label);
                if !white {
                    out.push(' ');
                }
            }
            out.push_str(&semi_short(p, m));
        }
        Ok(out)
    }

    /// Reads moves in semi-short notation from a start position.
    ///
    /// # Errors
    /// [`RecordError::Move`] for a move that fits no legal move or several;
    /// [`RecordError::NotEightByEight`] for a 10x10 start.
    pub fn from_semi_short(start: Position, text: &str) -> Result<GameRecord, RecordError> {
        if start.variant().board_size() != 8 {
            return Err(RecordError::NotEightByEight);
        }
        let start_black = start.side_to_move() == super::Color::Black;
        let mut rec = GameRecord::new(start);
        for token in movetext_tokens(text) {
            let ply = rec.moves().len();
            let m =
                read_semi_short(rec.position(), &token).map_err(|reason| RecordError::Move {
                    number: number_label(ply, start_black),
                    text: token.clone(),
                    reason,
                })?;
            let next = rec.position().play(&m);
            rec.push_unchecked(m, next);
        }
        Ok(rec)
    }
}

/// The results a PDN game may end with (draughts PDN also writes 2-0, 0-2 and 1-1); `0-0` is
/// a loss for both (10.5.8), as `export pdn` writes it.
const RESULTS: [&str; 8] = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];

/// The move tokens of a movetext: numbers, results, comments, variations, NAGs and marks
/// left out.
fn movetext_tokens(text: &str) -> Vec<String> {
    let mut clean = String::new();
    let mut brace = false;
    let mut paren = 0usize;
    for c in text.chars() {
        match c {
            '{' => brace = true,
            '}' => brace = false,
            '(' if !brace => paren += 1,
            ')' if !brace => paren = paren.saturating_sub(1),
            _ if brace || paren > 0 => {}
            _ => clean.push(c),
        }
    }
    let mut out = Vec::new();
    for raw in clean.split_whitespace() {
        // "12.cd4" or "12...fg5": drop the number
        let tok = match raw.rfind('.') {
            Some(i) if raw[..i].chars().all(|c| c.is_ascii_digit() || c == '.') => &raw[i + 1..],
            _ => raw,
        };
        let tok = tok.trim_end_matches(['!', '?']);
        if tok.is_empty() || tok.starts_with('$') || RESULTS.contains(&tok) {
            continue;
        }
        out.push(tok.to_string());
    }
    out
}

/// A game as PDN: tags, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags other than `GameType`, `FEN` and `Result` (which come from the game), in order.
    pub tags: Vec<(String, String)>,
    /// The moves from the start position.
    pub record: GameRecord,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

const ORDER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

fn pdn_move(pos: &Position, mv: &Move) -> String {
    let numeric = pos.variant().board_size() == 10;
    let cap = if numeric { "x" } else { ":" };
    let name = |s: super::Square| {
        if numeric {
            s.number().to_string()
        } else {
            s.to_string()
        }
    };
    let short_fits = routes(pos, |m| m.from() == mv.from() && m.to() == mv.to()) == 1;
    let squares: Vec<String> = if short_fits {
        vec![name(mv.from()), name(mv.to())]
    } else {
        mv.path().iter().map(|&s| name(s)).collect()
    };
    squares.join(if mv.is_capture() { cap } else { "-" })
}

impl Variant {
    /// The game for a PDN `GameType` number (25, 20, 99 — see [`record`](super::record)).
    pub fn from_pdn_game_type(n: u32) -> Option<Variant> {
        match n {
            25 => Some(Variant::Russian),
            20 => Some(Variant::Hundred),
            99 => Some(Variant::Giveaway),
            _ => None,
        }
    }
}

impl PdnGame {
    /// The tag's value, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Writes the game as PDN 3.0 (see the module doc).
    pub fn to_pdn(&self) -> String {
        let mut out = String::new();
        let variant = self.record.variant();
        let mut put = |k: &str, v: &str| {
            let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
        };
        for k in ORDER {
            put(k, self.tag(k).unwrap_or("?"));
        }
        put("Result", &self.result);
        put("GameType", &variant.pdn_game_type().to_string());
        let start = *self.record.start();
        if start != Position::start(variant) {
            put("FEN", &start.to_fen());
        }
        for (k, v) in &self.tags {
            if !ORDER.contains(&k.as_str()) {
                put(k, v);
            }
        }
        out.push('\n');
        let start_black = start.side_to_move() == super::Color::Black;
        let mut line = String::new();
        for (i, (m, p)) in self
            .record
            .moves()
            .iter()
            .zip(self.record.positions())
            .enumerate()
        {
            let label = number_label(i, start_black);
            let white = !label.ends_with("...");
            let mut tok = String::new();
            if white || i == 0 {
                tok.push_str(&label);
                tok.push(' ');
            }
            tok.push_str(&pdn_move(p, m));
            if !line.is_empty() && line.len() + tok.len() + 1 > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&tok);
        }
        if !line.is_empty() && line.len() + self.result.len() + 1 > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&self.result);
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// Reads one PDN game (tags, then moves). Without `GameType` the game is Russian.
    ///
    /// # Errors
    /// A [`RecordError`]: a bad tag line, an unknown `GameType`, a bad `FEN`, a move that is
    /// not legal or fits several.
    pub fn from_pdn(text: &str) -> Result<PdnGame, RecordError> {
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut body = String::new();
        for line in text.lines() {
            let l = line.trim();
            if l.starts_with('[') {
                tags.push(read_tag(l)?);
            } else {
                body.push_str(line);
                body.push('\n');
            }
        }
        for name in ["GameType", "FEN", "Result"] {
            if tags
                .iter()
                .filter(|(k, _)| k.eq_ignore_ascii_case(name))
                .count()
                > 1
            {
                return Err(RecordError::Twice(name.to_string()));
            }
        }
        let take = |tags: &mut Vec<(String, String)>, name: &str| {
            let i = tags
                .iter()
                .position(|(k, _)| k.eq_ignore_ascii_case(name))?;
            Some(tags.remove(i).1)
        };
        let variant = match take(&mut tags, "GameType") {
            None => Variant::Russian,
            Some(v) => {
                let n = v.split(',').next().unwrap_or("").trim();
                n.parse()
                    .ok()
                    .and_then(Variant::from_pdn_game_type)
                    .ok_or(RecordError::GameType(v))?
            }
        };
        let start = match take(&mut tags, "FEN") {
            Some(f) => Position::from_fen(variant, &f)?,
            None => Position::start(variant),
        };
        let result = take(&mut tags, "Result").unwrap_or_else(|| "*".to_string());
        if !RESULTS.contains(&result.as_str()) {
            return Err(RecordError::Result(result));
        }
        let start_black = start.side_to_move() == super::Color::Black;
        let mut record = GameRecord::new(start);
        for token in movetext_tokens(&body) {
            let ply = record.moves().len();
            let err = |reason: String| RecordError::Move {
                number: number_label(ply, start_black),
                text: token.clone(),
                reason,
            };
            let text = read_move_text(&token).ok_or_else(|| err("cannot read the move".into()))?;
            match text.to_move(record.position()) {
                Resolution::Legal(m) => {
                    let next = record.position().play(&m);
                    record.push_unchecked(m, next);
                }
                Resolution::Impossible(e) => return Err(err(e.reason.to_string())),
                Resolution::Ambiguous(_) => return Err(err("fits several moves".into())),
            }
        }
        Ok(PdnGame {
            tags,
            record,
            result,
        })
    }
}

/// The games of a PDN file, each with the number of its first line (1-based): a game's tags
/// begin after the previous game's moves. Blank stretches between games are dropped.
///
/// ```
/// let games = zaochka::rules::record::pdn_games("[White \"A\"]\n1. c3-d4 *\n\n[White \"B\"]\n*\n");
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].0, 4);
/// ```
pub fn pdn_games(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut has_moves = true;
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() {
            if let Some((_, g)) = out.last_mut() {
                g.push('\n');
            }
            continue;
        }
        if l.starts_with('[') && has_moves {
            out.push((i + 1, String::new()));
            has_moves = false;
        } else if out.is_empty() {
            // Moves with no tags before them: a game of its own.
            out.push((i + 1, String::new()));
        }
        if !l.starts_with('[') {
            has_moves = true;
        }
        if let Some((_, g)) = out.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    out
}

fn read_tag(line: &str) -> Result<(String, String), RecordError> {
    let bad = || RecordError::Tag(line.to_string());
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(bad)?
        .trim();
    let (name, rest) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let rest = rest.trim();
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(bad)?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(chars.next().ok_or_else(bad)?);
        } else {
            value.push(c);
        }
    }
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests;
