//! The game's data (what the store keeps) and the judge's answers (verdicts and notices).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::fmt;

use super::board::{Mv, Pos, Side, Variant};
use crate::clock::{Break, PerSide, Suspension, ThreeDates, TimeUsed};

/// A player as the caller knows them: opaque to the judge, carried into notices.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The caller's id (the store's row id).
    pub id: i64,
    /// "Фамилия Имя".
    pub name: String,
    /// The registered address.
    pub email: String,
}

/// One ply of the game as it was played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    /// 0-based half-move index from the start.
    pub ply: usize,
    /// Who moved.
    pub by: Side,
    /// The move in zaochka's full notation (`c3-d4`, `c3:e5:c7`).
    pub text: String,
    /// The letter (caller's reference) that carried it.
    pub letter: String,
    /// The day the position was forwarded to (received by) the mover.
    pub received: NaiveDate,
    /// The day the answer was received by zaochka (its postmark).
    pub answered: NaiveDate,
    /// Written by the partner from the mover's accepted variant (10.2.13); such moves do not
    /// count for the limit unless forced (10.3.5).
    pub is_from_variant: bool,
    /// The only legal move (10.2.4, 10.3.5).
    pub is_forced: bool,
    /// What was written, when 10.2.10 put the piece's only legal move in its place.
    pub substituted_for: Option<String>,
}

/// One answer (accepted letter) of a player: the ledger line of the clock (Table 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// Who answered.
    pub by: Side,
    /// The letter (caller's reference).
    pub letter: String,
    /// The day the partner's move reached the player (or the start, 10.3.2).
    pub received: NaiveDate,
    /// The day zaochka received the answer.
    pub answered: NaiveDate,
    /// The plies this answer added (`first..end`).
    pub plies: std::ops::Range<usize>,
}

/// Penalty days charged to a player (10.2.11, 10.3.3, 10.3.7), or days the arbiter added or
/// gave back (negative).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penalty {
    /// Who pays.
    pub side: Side,
    /// The move being answered when it was charged (Table 2 shows it on that row).
    pub move_number: u32,
    /// How many days (negative: given back).
    pub days: i32,
    /// The clause (`10.2.11`).
    pub clause: String,
    /// Why, in short English.
    pub reason: String,
    /// When it was charged.
    pub on: NaiveDate,
    /// Cancelled by the arbiter.
    pub is_cancelled: bool,
}

/// A proposed variant, as stored after checking (10.2.12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// Who proposed it.
    pub by: Side,
    /// The label as written (`А`, `B`), if any.
    pub label: Option<String>,
    /// The ply its first move would be (a move of the proposer's partner).
    pub from_ply: usize,
    /// The moves, full notation, alternating from the partner's.
    pub moves: Vec<String>,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Moves go back and forth.
    Playing,
    /// Play stopped until the side sends a corrected letter (10.2.9, 10.2.10); their clock runs.
    Stopped {
        /// Who must correct.
        side: Side,
        /// Why.
        clause: String,
        /// Since when.
        since: NaiveDate,
    },
    /// An overstep before the arbiter (10.3.6).
    Suspended {
        /// Who overstepped.
        side: Side,
        /// The day of the overstep.
        since: NaiveDate,
    },
    /// The end-of-play date passed; the game waits for adjudication (10.5).
    Adjudication,
    /// Over: see [`GameState::result`].
    Finished,
}

/// The score of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// Draw.
    Draw,
    /// Both lose ("minus" for both, 10.5.8).
    BothLose,
}

impl Score {
    /// The win of a side.
    pub fn win(side: Side) -> Score {
        match side {
            Side::White => Score::WhiteWins,
            Side::Black => Score::BlackWins,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Score::WhiteWins => "1-0",
            Score::BlackWins => "0-1",
            Score::Draw => "1/2-1/2",
            Score::BothLose => "0-0",
        })
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Ending {
    /// By the rules: no move or no pieces (reversed in give-away).
    Rule,
    /// A player resigned.
    Resignation {
        /// Who.
        side: Side,
    },
    /// Draw by agreement.
    Agreement,
    /// A draw rule of the game (threefold repetition, …).
    DrawRule {
        /// Which, in short English.
        rule: String,
        /// The same in Russian.
        rule_ru: String,
    },
    /// The chief arbiter's decision (adjudication 10.5, or a ruling).
    Arbiter {
        /// The note given.
        note: String,
    },
    /// Loss on time, confirmed by the arbiter (10.3.7).
    Overstep {
        /// Who overstepped.
        side: Side,
    },
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The score.
    pub score: Score,
    /// How it came.
    pub how: Ending,
    /// The day.
    pub on: NaiveDate,
}

/// A move with its number, as a record shows it (`12. c3-d4`, `12... f8:d6`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberedMove {
    /// The move number.
    pub number: u32,
    /// Who moved.
    pub side: Side,
    /// Full notation.
    pub text: String,
    /// From an accepted variant of the mover (10.2.13).
    pub is_from_variant: bool,
    /// Forced (10.2.4).
    pub is_forced: bool,
}

impl fmt::Display for NumberedMove {
    /// `12. c3-d4`, `12... f8:d6`; on 10x10 in FMJD notation (`21. 28x19`, see
    /// [`crate::rules::notation::shown`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = crate::rules::notation::shown(&self.text);
        match self.side {
            Side::White => write!(f, "{}. {text}", self.number),
            Side::Black => write!(f, "{}... {text}", self.number),
        }
    }
}

/// A variant as it is sent on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantFacts {
    /// The label as written.
    pub label: Option<String>,
    /// Its moves, numbered.
    pub moves: Vec<NumberedMove>,
}

/// The facts of a forwarded move (10.2.3): kept in the state for the 40-day repeat (10.3.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forward {
    /// Tournament cipher.
    pub cipher: String,
    /// Game number.
    pub game: u32,
    /// Who sent the moves.
    pub from: Side,
    /// The moves the letter played: any accepted variant part, the receiver's forced moves,
    /// the sender's own move(s) and any continuation of the receiver's variant (10.2.3).
    pub moves: Vec<NumberedMove>,
    /// The variants the sender proposes.
    pub variants: Vec<VariantFacts>,
    /// The three dates of 10.3.1 as the clock has them: the partner's move sent, received,
    /// answered.
    pub dates: ThreeDates,
    /// Both totals after the answer.
    pub times: TimeUsed,
    /// The position after (FEN).
    pub fen: String,
    /// The sender offers a draw.
    pub is_draw_offered: bool,
    /// The day zaochka sent it.
    pub sent_on: NaiveDate,
}

/// A problem found in a letter, with the clause to quote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The clause (`10.2.9`).
    pub clause: String,
    /// What exactly, in short English (the renderer words it).
    pub kind: ProblemKind,
    /// The text concerned (a move as written, a missing item), in English.
    pub text: String,
    /// The same in Russian where the rules give it (why a move is impossible).
    pub text_ru: Option<String>,
}

/// What kind of problem (machine-readable, for the renderer's wording).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// The partner's new moves are not repeated (10.2.9).
    RepetitionMissing,
    /// Repeated only in part (10.2.9).
    RepetitionIncomplete,
    /// Repeated wrongly or illegibly (10.2.9).
    RepetitionWrong,
    /// A move against the rules (10.2.10), or in short notation (10.2.2).
    ImpossibleMove,
    /// A move written for the partner that is neither their variant's nor forced (10.2.13).
    NotPartnersMove,
    /// A variant was cut at an impossible or unreadable move (10.2.12).
    VariantCut,
    /// A move number or side mark was wrong (10.2.14).
    Numbering,
    /// The three dates or the time fraction missing (10.3.3).
    DatesMissing,
    /// Dates or times differ from zaochka's clock (10.3.9).
    DatesDiffer,
    /// Moves written after the end of the game or after a 10.2.10 substitution: ignored.
    MovesIgnored,
    /// A draw accepted that nobody offered.
    NoDrawOffered,
    /// Moves after a bare `Ход:` that cannot be the sender's own (not his turn, or not a
    /// legal move of his side): whose they are is unknown (10.2.3).
    UnlabelledMoves,
    /// Not a fault: the sender asked for his diagrams from the other side (`Доска: от
    /// чёрных`), said in the receipt.
    BoardView,
}

/// Who a notice goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recipient {
    /// A player of the game.
    Player(Side),
    /// The chief arbiter.
    Arbiter,
    /// The chief secretary.
    Secretary,
}

/// Data for one outgoing letter; the `render` module words it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// To whom.
    pub to: Recipient,
    /// What.
    pub kind: NoticeKind,
}

/// What a notice says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NoticeKind {
    /// The partner's move(s) forwarded (10.2.3); `is_repeat` for the 40-day repeat (10.3.4).
    ForwardMove {
        /// The facts.
        forward: Forward,
        /// The partner's moves that the receiver must repeat (everything new for them).
        new_moves: Vec<NumberedMove>,
        /// A repeat of an earlier forward (10.3.4).
        is_repeat: bool,
        /// Problems the receiver should know of (renumbering 10.2.14, substitution 10.2.10).
        problems: Vec<Problem>,
    },
    /// The sender's letter was accepted and forwarded.
    Receipt {
        /// The moves played from the letter (with any accepted variant part).
        moves: Vec<NumberedMove>,
        /// The partner's variant moves played right after (10.2.8): the sender moves again.
        continued: Vec<NumberedMove>,
        /// Both totals now.
        times: TimeUsed,
        /// Corrections (10.2.14, 10.3.3, 10.3.9, 10.2.12 cuts).
        problems: Vec<Problem>,
        /// Penalty days charged with this letter (10.3.3).
        penalty_days: u32,
    },
    /// The letter was not played; what must be corrected.
    Refused {
        /// Why.
        reason: Reason,
        /// The problems, with clauses.
        problems: Vec<Problem>,
        /// The partner's moves the sender must repeat (10.2.9), numbered.
        partner_moves: Vec<NumberedMove>,
        /// Penalty days charged (10.2.11); 0 if none.
        penalty_days: u32,
    },
    /// A move written against the rules was replaced by the piece's only move (10.2.10).
    Substituted {
        /// What was written.
        written: String,
        /// What was played.
        played: NumberedMove,
    },
    /// A letter for a turn already made: nothing changes (10.2.8).
    AlreadyMade {
        /// The sender's moves already made and sent on.
        moves: Vec<NumberedMove>,
    },
    /// The partner offers a draw (sent without a move).
    DrawOffered {
        /// Who offers.
        by: Side,
    },
    /// The partner went on playing after a draw offer: declined.
    DrawDeclined {
        /// Who declined.
        by: Side,
    },
    /// The game is over: both players and the secretary get the record (10.5.1).
    GameOver {
        /// The result.
        result: GameResult,
        /// The whole record.
        record: Vec<NumberedMove>,
        /// The record in semi-short notation (10.5.1; 8x8 only).
        semi_short: Option<String>,
        /// The final position.
        fen: String,
        /// Both totals at the end.
        times: TimeUsed,
    },
    /// The game is not in play: finished, suspended, or past the end-of-play date.
    NotInPlay {
        /// The game's status.
        status: Status,
    },
    /// The letter names another game (or the caller routed it wrongly).
    WrongGame {
        /// The number written.
        written: u32,
    },
    /// A protest for the arbiter (10.3.8), with the game and the player.
    Protest {
        /// Who protests.
        by: Side,
        /// The text.
        text: String,
    },
    /// An overstep (10.3.6): to both players, the secretary, and the arbiter (with Table 2
    /// and the instruction to attach the player's letters).
    Overstep(super::due::OverstepFacts),
    /// A friendly warning: few days left before an overstep.
    TimeWarning {
        /// Days left today.
        days_left: i64,
        /// The day the overstep would happen.
        overstep_day: NaiveDate,
    },
    /// No first move 30 days after the start (10.3.4): the query to white, the note to black.
    FirstMoveQuery {
        /// The start date.
        start: NaiveDate,
    },
    /// The sender is told their move was repeated to the partner (10.3.4).
    Repeated {
        /// When it was first sent.
        sent_on: NaiveDate,
    },
    /// The end-of-play date passed: the game goes to adjudication (10.5.2).
    EndOfPlay {
        /// The end-of-play date.
        end: NaiveDate,
    },
    /// The arbiter's ruling on an overstep (10.3.7), sent to both players and the secretary.
    OverstepRuling {
        /// Who was said to overstep.
        side: Side,
        /// Confirmed (a loss) or not (play resumes).
        is_confirmed: bool,
        /// Play resumes: the days given back to the player (0 when none were needed).
        days_back: i64,
        /// Play resumes: the player's days left in the current control on the ruling day.
        days_left: i64,
        /// Play resumes and the player is to move: his last day to answer (10.3.5).
        last_day: Option<crate::clock::LastDay>,
    },
    /// The arbiter charged or cancelled penalty days, or added days.
    ClockRuling {
        /// Whose clock.
        side: Side,
        /// Days added to the total (negative: given back).
        days: i64,
        /// The clause quoted.
        clause: String,
        /// Why.
        reason: String,
    },
    /// The sender's diagrams are drawn from the side he asked for (`Доска: от чёрных`), said
    /// on its own when no receipt goes to him.
    BoardView {
        /// The side at the bottom of his diagrams now.
        from: Side,
    },
    /// A break granted or recorded in this game (10.4).
    BreakRecorded {
        /// Whose.
        side: Side,
        /// The break.
        grant: Break,
    },
}

/// Why a letter was not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The repetition of the partner's moves (10.2.9).
    Repetition,
    /// An impossible move with no single replacement (10.2.10, 10.2.13).
    Impossible,
    /// No move of the sender's found.
    NoMove,
    /// The letter names another game.
    WrongGame,
    /// The game is finished, suspended, or past its end-of-play date (10.3.2).
    NotInPlay,
    /// The sender overstepped the time limit (10.3.5, 10.3.6).
    Overstep,
}

/// The judge's decision on a letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "decision", content = "reason", rename_all = "snake_case")]
pub enum Decision {
    /// Played and forwarded (or a resignation/draw taken).
    Accepted,
    /// Not played; the sender is told why (the state may still change: penalties, status).
    Rejected(Reason),
    /// Nothing to do (10.2.8, or no content).
    NoChange,
}

/// The judge's answer to a letter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// The game after the letter (store it).
    pub state: GameState,
    /// Accepted, rejected or nothing.
    pub decision: Decision,
    /// The letters to send.
    pub notices: Vec<Notice>,
}

/// A game of the tournament: everything the judge and the clock need, as plain data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The tournament cipher (`ЗШ-2026-1`).
    pub cipher: String,
    /// The game number in the tournament.
    pub number: u32,
    /// Which game (stored by name).
    #[serde(with = "super::board::variant_serde")]
    pub variant: Variant,
    /// The starting position when not the usual one (FEN); white moves first otherwise.
    pub initial: Option<String>,
    /// The players.
    pub players: PerSide<Player>,
    /// The start date (10.3.2).
    pub start: NaiveDate,
    /// Per-player start when the start list came late (10.3.2: the day after receipt).
    pub late_start: PerSide<Option<NaiveDate>>,
    /// The day zaochka sent the start lists: the first of the three dates of the first move,
    /// and sent after the start date, the day before both players' own start (10.3.2).
    /// `None` in games stored before it was kept (and imported ones).
    #[serde(default)]
    pub start_list_sent: Option<NaiveDate>,
    /// The end-of-play date: no day after it is counted.
    pub end: NaiveDate,
    /// The plies played.
    pub moves: Vec<PlayedMove>,
    /// The ledger: every accepted answer.
    pub answers: Vec<Answer>,
    /// Pending variant proposals.
    pub proposals: Vec<Proposal>,
    /// Penalties.
    pub penalties: Vec<Penalty>,
    /// Both players' breaks as recorded for this game (10.4).
    pub breaks: PerSide<Vec<Break>>,
    /// Stops of play while the arbiter decided an overstep (10.3.6): no clock runs then.
    #[serde(default)]
    pub suspensions: Vec<Suspension>,
    /// Where the game stands.
    pub status: Status,
    /// The result, once finished.
    pub result: Option<GameResult>,
    /// The side whose draw offer waits for an answer.
    pub draw_offer: Option<Side>,
    /// What was last forwarded to each player (10.3.4 repeat, 10.2.8).
    pub last_forward: PerSide<Option<Forward>>,
    /// Told once that the dates or time were missing (10.3.3): a repeat costs days.
    pub dates_warned: PerSide<bool>,
    /// The chief arbiter annulled this game's result (a withdrawn player's, 10.5.3): the table
    /// does not count it.
    #[serde(default)]
    pub is_annulled: bool,
    /// The side each player asked to see this game's diagrams from (`Доска: от чёрных`);
    /// `None` is White's side, as diagrams are usually printed.
    #[serde(default)]
    pub board_from: PerSide<Option<Side>>,
    /// The game was brought in from where it was played before (`import pdn`): its first
    /// plies and the days both players had used then.
    #[serde(default)]
    pub imported: Option<Imported>,
}

/// What an imported game brought with it (`import pdn`): the plies played before it came to
/// zaochka, the clock as the players' letters gave it, and the day the last of those moves
/// was sent to the side to move, whose days run from the next day (10.3.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    /// How many of the game's plies were played before (`moves[..plies]`).
    pub plies: usize,
    /// Each side's days then: thinking days and penalty days.
    pub carried: PerSide<crate::clock::Carried>,
    /// The day the side to move received the position; both clocks count from it.
    pub sent: NaiveDate,
}

impl GameState {
    /// The side of the player with this address (case-insensitive), if either.
    pub fn side_of_email(&self, email: &str) -> Option<Side> {
        let is = |p: &Player| p.email.trim().eq_ignore_ascii_case(email.trim());
        if is(&self.players.white) {
            Some(Side::White)
        } else if is(&self.players.black) {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// A new game at its start.
    pub fn new(
        cipher: impl Into<String>,
        number: u32,
        variant: Variant,
        white: Player,
        black: Player,
        start: NaiveDate,
        end: NaiveDate,
    ) -> GameState {
        GameState {
            cipher: cipher.into(),
            number,
            variant,
            initial: None,
            players: PerSide { white, black },
            start,
            late_start: PerSide::default(),
            start_list_sent: None,
            end,
            moves: Vec::new(),
            answers: Vec::new(),
            proposals: Vec::new(),
            penalties: Vec::new(),
            breaks: PerSide::default(),
            suspensions: Vec::new(),
            status: Status::Playing,
            result: None,
            draw_offer: None,
            last_forward: PerSide::default(),
            dates_warned: PerSide::default(),
            is_annulled: false,
            board_from: PerSide::default(),
            imported: None,
        }
    }

    pub(crate) fn initial_position(&self) -> Pos {
        self.initial
            .as_deref()
            .and_then(|f| Pos::from_fen(self.variant, f))
            .unwrap_or_else(|| Pos::start(self.variant))
    }

    /// The positions from the start (one more than the moves) and the moves, replayed.
    pub(crate) fn replay(&self) -> (Vec<Pos>, Vec<Mv>) {
        let mut out = vec![self.initial_position()];
        let mut moves = Vec::new();
        for m in &self.moves {
            let last = out
                .last()
                .cloned()
                .unwrap_or_else(|| self.initial_position());
            match last.find(&m.text) {
                Some(mv) => {
                    out.push(last.play(&mv));
                    moves.push(mv);
                }
                // A stored move that no longer replays means a corrupted document; stop the
                // replay there rather than panic (the store's data is checked on write).
                None => break,
            }
        }
        (out, moves)
    }

    pub(crate) fn positions(&self) -> Vec<Pos> {
        self.replay().0
    }

    pub(crate) fn position(&self) -> Pos {
        self.positions()
            .pop()
            .unwrap_or_else(|| self.initial_position())
    }

    /// The side that made the first ply.
    pub(crate) fn first_mover(&self) -> Side {
        self.initial_position().side_to_move()
    }

    /// The side that makes a given ply.
    pub fn side_of_ply(&self, ply: usize) -> Side {
        if ply.is_multiple_of(2) {
            self.first_mover()
        } else {
            self.first_mover().other()
        }
    }

    /// The move number of a given ply (black's first ply is move 1 when black starts).
    pub fn number_of_ply(&self, ply: usize) -> u32 {
        let offset = usize::from(self.first_mover() == Side::Black);
        ((ply + offset) / 2 + 1) as u32
    }

    /// Whose move it is.
    pub fn side_to_move(&self) -> Side {
        self.side_of_ply(self.moves.len())
    }

    /// The position now, as FEN.
    pub fn fen(&self) -> String {
        self.position().fen()
    }

    /// The ply numbered as in a record.
    pub fn numbered(&self, ply: usize) -> NumberedMove {
        let m = &self.moves[ply];
        NumberedMove {
            number: self.number_of_ply(ply),
            side: m.by,
            text: m.text.clone(),
            is_from_variant: m.is_from_variant,
            is_forced: m.is_forced,
        }
    }

    /// The whole record, numbered.
    pub fn record(&self) -> Vec<NumberedMove> {
        (0..self.moves.len()).map(|p| self.numbered(p)).collect()
    }

    /// The first ply a side has not yet seen repeated: everything after its last answer (in
    /// an imported game without one, after its last move of the imported record).
    pub(crate) fn new_since(&self, side: Side) -> usize {
        self.answers
            .iter()
            .rev()
            .find(|a| a.by == side)
            .map(|a| a.plies.end)
            .or_else(|| {
                let imp = self.imported.as_ref()?;
                self.moves[..imp.plies.min(self.moves.len())]
                    .iter()
                    .rposition(|m| m.by == side)
                    .map(|p| p + 1)
            })
            .unwrap_or(0)
    }

    /// The partner's new moves a side must repeat (10.2.9).
    pub fn new_moves_for(&self, side: Side) -> Vec<NumberedMove> {
        (self.new_since(side)..self.moves.len())
            .map(|p| self.numbered(p))
            .collect()
    }

    /// The player's start for the clock (10.3.2): one set by hand (an imported game's day of
    /// sending, [`Imported::sent`]), else the day after the
    /// start list was sent when that was after the start date, else the start date.
    pub fn start_of(&self, side: Side) -> NaiveDate {
        let by_list = self
            .start_list_sent
            .map_or(self.start, |sent| crate::clock::own_start(self.start, sent));
        self.late_start[side].unwrap_or(by_list)
    }

    /// The day the side to move received the position it must answer.
    pub fn received_by(&self, side: Side) -> NaiveDate {
        self.answers
            .iter()
            .rev()
            .find(|a| a.by != side)
            .map(|a| a.answered)
            .unwrap_or_else(|| self.start_of(side))
    }

    /// The player's counted moves (10.3.5): own moves, less those from their own accepted
    /// variant unless forced.
    pub fn counted_moves(&self, side: Side) -> u32 {
        self.moves
            .iter()
            .filter(|m| m.by == side && (!m.is_from_variant || m.is_forced))
            .count() as u32
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.result.is_some()
    }
}
