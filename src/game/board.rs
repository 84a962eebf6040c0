//! The judge's view of the rules: the one place in `game` that names the `rules` module's
//! positions and moves. Everything else in `game` talks to the board through this small
//! adapter (a variant that serde can store, sides as the clock's [`Side`], moves kept as their
//! full notation text).
//!
//! Stored move texts are zaochka's full notation: algebraic on 8x8 (`c3:e5:c7`), numeric on
//! 10x10 (`32-28`, `19:30`), the notation players use on each board.

pub use crate::clock::Side;
pub use crate::rules::Variant;
use crate::rules::{
    self, Color, IllegalMove, MoveText, Outcome, ParseMoveError, Position, Resolution,
};

/// How a [`Variant`] is stored: its name (`russian`, `hundred`, `giveaway`).
pub(crate) mod variant_serde {
    use super::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the name.
    pub(crate) fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }

    /// Reads a name (`international` too).
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

pub(crate) fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// A legal move of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mv(rules::Move);

impl Mv {
    /// The move in zaochka's full notation for this game (see the module doc).
    pub(crate) fn text(&self, variant: Variant) -> String {
        match variant {
            Variant::Hundred => self.0.to_numeric(),
            _ => self.0.to_string(),
        }
    }
}

/// A ply of a record read from elsewhere (`import pdn`), as the judge keeps it.
pub(crate) struct RecordPly {
    /// Who moved.
    pub(crate) by: Side,
    /// Full notation (see the module doc).
    pub(crate) text: String,
    /// The only legal move (10.2.4, 10.3.5).
    pub(crate) is_forced: bool,
}

/// The plies of a record (its moves are legal: the record checked them), and its last
/// position.
pub(crate) fn record_plies(record: &rules::GameRecord) -> (Vec<RecordPly>, Pos) {
    let variant = record.variant();
    let plies = record
        .moves()
        .iter()
        .zip(record.positions())
        .map(|(m, p)| RecordPly {
            by: side_of(p.side_to_move()),
            text: Mv(m.clone()).text(variant),
            is_forced: p.is_forced(),
        })
        .collect();
    (plies, Pos(*record.position()))
}

/// A position of one of the three games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pos(Position);

/// How a written move reads against a position.
#[derive(Clone, Debug)]
pub(crate) enum Resolved {
    /// Exactly one legal move fits.
    Legal(Mv),
    /// No legal move fits, or several do: why, in English and Russian (with the clause).
    Impossible {
        /// English.
        reason: String,
        /// Russian.
        reason_ru: String,
        /// 10.2.10: the named piece's only legal move, if it has exactly one.
        single: Option<Mv>,
    },
}

impl Pos {
    /// The starting position.
    pub(crate) fn start(variant: Variant) -> Pos {
        Pos(Position::start(variant))
    }

    /// A position from FEN (PDN 3.0); `None` if it is not one.
    pub(crate) fn from_fen(variant: Variant, fen: &str) -> Option<Pos> {
        Position::from_fen(variant, fen).ok().map(Pos)
    }

    /// The side to move.
    pub(crate) fn side_to_move(&self) -> Side {
        side_of(self.0.side_to_move())
    }

    /// Every legal move.
    pub(crate) fn legal_moves(&self) -> Vec<Mv> {
        self.0.legal_moves().into_iter().map(Mv).collect()
    }

    /// Exactly one legal move (routes with the same effect count once): 10.2.4, 10.3.5.
    pub(crate) fn is_forced(&self) -> bool {
        self.0.is_forced()
    }

    /// The position after a legal move.
    pub(crate) fn play(&self, m: &Mv) -> Pos {
        Pos(self.0.play(&m.0))
    }

    /// Reads a written move (or the parser's refusal of it) against this position.
    pub(crate) fn resolve(&self, t: &Result<MoveText, ParseMoveError>) -> Resolved {
        let impossible = |ill: IllegalMove, pos: &Position| Resolved::Impossible {
            reason: ill.reason.to_string(),
            reason_ru: ill.reason.ru(),
            single: ill.single_move_of_named_piece(pos).map(Mv),
        };
        match t {
            Err(e) => impossible(IllegalMove::from_parse_error(e), &self.0),
            Ok(t) => match t.to_move(&self.0) {
                Resolution::Legal(m) => Resolved::Legal(Mv(m)),
                Resolution::Impossible(ill) => impossible(ill, &self.0),
                Resolution::Ambiguous(moves) => {
                    let list = moves
                        .iter()
                        .map(rules::Move::shown)
                        .collect::<Vec<_>>()
                        .join(", ");
                    Resolved::Impossible {
                        reason: format!(
                            "several capture routes join these squares, name every landing square: {list} (10.2.2)"
                        ),
                        reason_ru: format!(
                            "эти поля соединяют несколько путей взятия, нужно назвать все поля: {list} (п. 10.2.2)"
                        ),
                        single: None,
                    }
                }
            },
        }
    }

    /// The move whose full notation is `text`, if legal here.
    pub(crate) fn find(&self, text: &str) -> Option<Mv> {
        let variant = self.0.variant();
        self.legal_moves()
            .into_iter()
            .find(|m| m.text(variant) == text)
    }

    /// The winner by the rules: the side to move has no move or no pieces (and loses; in
    /// give-away it wins).
    pub(crate) fn winner(&self) -> Option<Side> {
        match self.0.outcome() {
            Some(Outcome::Win(c)) => Some(side_of(c)),
            _ => None,
        }
    }

    /// The position as FEN (PDN 3.0, numeric squares).
    pub(crate) fn fen(&self) -> String {
        self.0.to_fen()
    }
}

/// The draw rule of the game that ends it after these moves from `start`, if any (the
/// `rules` module's [`rules::GameRecord::draw_claim`]): English and Russian.
pub(crate) fn draw_by_rule(start: &Pos, moves: &[Mv]) -> Option<(String, String)> {
    let mut record = rules::GameRecord::new(start.0);
    for m in moves {
        // The moves come from replaying the game, so each is legal in turn.
        if record.push(m.0.clone()).is_err() {
            return None;
        }
    }
    record.draw_claim().map(|r| (r.to_string(), r.ru()))
}

/// Reads a move in zaochka's own full notation (`c3-d4`, `c3:e5:c7`, `32-28`) for tests.
#[cfg(test)]
pub(crate) fn move_text(s: &str) -> MoveText {
    s.parse().expect("a move in full notation")
}

impl super::model::GameState {
    /// The game's moves as the `rules` module's record (for the draw rules, PDN and the
    /// semi-short record).
    pub fn game_record(&self) -> rules::GameRecord {
        let (positions, moves) = self.replay();
        let start = positions
            .first()
            .copied()
            .unwrap_or_else(|| Pos::start(self.variant));
        let mut record = rules::GameRecord::new(start.0);
        for m in moves {
            // Replayed moves are legal in turn; a failure would only stop the record short.
            if record.push(m.0).is_err() {
                break;
            }
        }
        record
    }

    /// The record in semi-short notation (`1.cd4 fg5 2.dc5 b:d4`, 10.5.1); `None` on 10x10,
    /// where records are numeric (see [`Self::to_pdn`]).
    pub fn semi_short(&self) -> Option<String> {
        self.game_record().to_semi_short().ok()
    }

    /// The game as PDN 3.0: Event (the cipher), Site, Date (the start), Round (the game
    /// number), White, Black, Result (`*` while unfinished).
    pub fn to_pdn(&self, site: &str) -> String {
        let result = match self.result.as_ref().map(|r| r.score) {
            Some(super::model::Score::WhiteWins) => "1-0",
            Some(super::model::Score::BlackWins) => "0-1",
            Some(super::model::Score::Draw) => "1/2-1/2",
            Some(super::model::Score::BothLose) => "0-0",
            None => "*",
        };
        let tags = [
            ("Event", self.cipher.clone()),
            ("Site", site.to_string()),
            ("Date", self.start.format("%Y.%m.%d").to_string()),
            ("Round", self.number.to_string()),
            ("White", self.players.white.name.clone()),
            ("Black", self.players.black.name.clone()),
        ];
        rules::PdnGame {
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            record: self.game_record(),
            result: result.to_string(),
        }
        .to_pdn()
    }
}
