//! The outgoing letters zaochka writes, one context type each, and [`compose`], which words a
//! letter from its template and builds the MIME message.
//!
//! The contexts carry facts already formatted for a reader (move lists as `12... f8:d6`,
//! dates as `05.12.2026`); choosing the words is the templates' job, in Russian or English.

use serde::Serialize;

use super::mime::{self, Content, Envelope};
use super::{Board, Lang, RenderError, Templates};

/// Facts every letter about one game shares.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GameHeader {
    /// The addressee's name as registered ("Иванов Иван").
    pub to_name: String,
    /// The tournament cipher (10.2.3).
    pub cipher: String,
    /// The tournament's name, if any.
    pub tournament: String,
    /// The game's number in the tournament.
    pub game_no: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The federation's name, for the signature.
    pub federation: String,
}

/// A proposed variant as shown to the partner (10.2.7).
#[derive(Clone, Debug, Default, Serialize)]
pub struct VariantLine {
    /// `А`, `Б` … or empty.
    pub label: String,
    /// The moves, numbered.
    pub moves: String,
}

/// The three dates and both players' time (10.2.3, 10.3.1).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Dates {
    /// The date the partner's previous move was sent (by zaochka's postmark).
    pub sent_to_sender: String,
    /// The date the sender received it.
    pub received: String,
    /// The date of this answer.
    pub answered: String,
    /// White's total days used, penalties included.
    pub time_white: i64,
    /// Black's total days used, penalties included.
    pub time_black: i64,
}

/// The last day on which the addressee's answer is still in time (10.3.1, 10.3.5), named in
/// every letter that hands the addressee the move; from [`crate::clock::Ledger::last_day`],
/// the rule the deadline sweep declares an overstep by.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LastDay {
    /// The date, `20.11.2026`.
    pub date: String,
    /// Days left in the current control today (penalties and breaks included).
    pub days_left: i64,
    /// The moves of the current control, `1–10`.
    pub moves: String,
    /// The date is the end-of-play date (10.3.2): no overstep follows it, the game goes to
    /// adjudication.
    pub is_end_of_play: bool,
}

/// A partner's move, forwarded (10.2.3 complete).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Forward {
    /// The game.
    pub game: GameHeader,
    /// The receiver's own last moves as the sender repeated them.
    pub repeated: String,
    /// The accepted part of the receiver's variant, if any.
    pub accepted: String,
    /// The sender's new move(s), numbered.
    pub moves: String,
    /// Variants the sender proposes.
    pub variants: Vec<VariantLine>,
    /// Dates and time.
    pub dates: Dates,
    /// The sender offers a draw.
    pub draw_offer: bool,
    /// Remarks: a renumbered move (10.2.14), an impossible move replaced by the only move
    /// (10.2.10), a clock correction (10.3.1).
    pub notes: Vec<String>,
    /// The sender's own words, below zaochka's rendering.
    pub sender_words: String,
    /// The receiver's last day to answer.
    pub last_day: Option<LastDay>,
}

/// The sender's receipt for an accepted letter.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Receipt {
    /// The game.
    pub game: GameHeader,
    /// The moves recorded.
    pub moves: String,
    /// Variants stored.
    pub variants: Vec<VariantLine>,
    /// Dates and time.
    pub dates: Dates,
    /// Remarks, as in [`Forward::notes`].
    pub notes: Vec<String>,
}

/// One error found in a letter.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Problem {
    /// The clause, e.g. `10.2.9`.
    pub clause: String,
    /// What is wrong, in the letter's language.
    pub text: String,
}

/// A letter that cannot be accepted as it is (10.2.9, 10.2.10, 10.2.8 …).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Rejected {
    /// The game.
    pub game: GameHeader,
    /// What was wrong.
    pub problems: Vec<Problem>,
    /// What the partner's moves were (to be repeated), when repetition was the problem.
    pub partner_moves: String,
    /// Penalty days charged for this letter (0 for none; 10.2.11: once per letter).
    pub penalty_days: u32,
    /// The clause of the penalty.
    pub penalty_clause: String,
    /// Play is stopped until a corrected letter comes.
    pub play_stopped: bool,
}

/// One game in a start list.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StartGame {
    /// The game's number.
    pub game_no: u32,
    /// The partner's name.
    pub partner: String,
    /// The partner's address.
    pub partner_email: String,
    /// The addressee plays White.
    pub is_white: bool,
    /// The addressee's last day for the first move (White only).
    pub last_day: Option<LastDay>,
}

/// One imported game as its player's letter shows it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ImportGame {
    /// The game's number.
    pub game_no: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The addressee plays White.
    pub is_white: bool,
    /// The partner's name.
    pub partner: String,
    /// The partner's address.
    pub partner_email: String,
    /// The record so far, numbered.
    pub record: String,
    /// The result of a finished game (`1-0`).
    pub result: Option<String>,
    /// The addressee is to move.
    pub is_to_move: bool,
    /// White is to move.
    pub white_to_move: bool,
    /// The partner's moves the addressee repeats in his answer (10.2.9), when he is to move.
    pub repeat: String,
    /// The number of the next move.
    pub next_number: u32,
    /// White's days now.
    pub time_white: i64,
    /// Black's days now.
    pub time_black: i64,
    /// The addressee's last day to answer, when he is to move.
    pub last_day: Option<LastDay>,
    /// The position, as a text diagram.
    pub diagram: String,
}

/// What a letter to a player about his tournament's games says of the tournament (the start
/// list, the import list); its fields are the template's variables.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TournamentFacts {
    /// The addressee's name.
    pub to_name: String,
    /// The cipher.
    pub cipher: String,
    /// The tournament's name.
    pub tournament: String,
    /// The game: русские шашки, …
    pub variant: String,
    /// The start date.
    pub start: String,
    /// The end-of-play date.
    pub end: String,
    /// The mailbox address to write to.
    pub mailbox: String,
    /// The federation's name, for the signature.
    pub federation: String,
}

/// The letter to each player of a tournament whose running games were imported.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ImportList {
    /// The tournament.
    #[serde(flatten)]
    pub about: TournamentFacts,
    /// The day the games are shown as of.
    pub as_of: String,
    /// The addressee's games.
    pub games: Vec<ImportGame>,
    /// The first of them where the addressee is to move, for the example of an answer.
    pub example: Option<ImportGame>,
}

/// The start list sent to every participant (10.3.2).
#[derive(Clone, Debug, Default, Serialize)]
pub struct StartList {
    /// The tournament.
    #[serde(flatten)]
    pub about: TournamentFacts,
    /// The addressee's games.
    pub games: Vec<StartGame>,
    /// A first move of White in the game's usual notation, for the example (`c3-d4`, `32-28`).
    pub example_white: String,
    /// Black's answer to it, for the example of a letter from Black (`f6-g5`, `19-23`).
    pub example_black: String,
}

/// A player's break, told to a partner or the secretary (10.4.2).
#[derive(Clone, Debug, Default, Serialize)]
pub struct BreakNotice {
    /// The addressee's name.
    pub to_name: String,
    /// The cipher.
    pub cipher: String,
    /// Who takes the break.
    pub player: String,
    /// First day.
    pub from: String,
    /// Last day.
    pub to: String,
    /// The games concerned (numbers).
    pub games: Vec<u32>,
    /// Granted by the arbiter as a special break (10.4.5).
    pub is_special: bool,
    /// For a break announced after its first day: why it counts from the day of the
    /// announcement (10.4.2), worded; empty otherwise.
    pub late: String,
    /// The federation's name.
    pub federation: String,
}

/// A move repeated after 40 days without an answer (10.3.4), to the partner; and the note to
/// the sender that it was repeated.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Repeat {
    /// The game.
    pub game: GameHeader,
    /// The moves repeated.
    pub moves: String,
    /// Variants repeated.
    pub variants: Vec<VariantLine>,
    /// The original dates and time.
    pub dates: Dates,
    /// The date of the original sending.
    pub first_sent: String,
    /// Days since.
    pub days_waiting: u32,
    /// The silent player's last day to answer (none in the note to the sender).
    pub last_day: Option<LastDay>,
}

/// The query to White when no first move came within the days of the tournament's setting
/// (30, 10.3.4).
#[derive(Clone, Debug, Default, Serialize)]
pub struct FirstMoveQuery {
    /// The game.
    pub game: GameHeader,
    /// The start date (White's own, when the start list came late, 10.3.2).
    pub start: String,
    /// The days waited for the first move: the tournament's setting (30, 10.3.4).
    pub days: u32,
    /// The addressee is White (else this tells Black that White was asked).
    pub to_white: bool,
}

/// A friendly warning: few days left before overstepping (beyond the rules).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Warning {
    /// The game.
    pub game: GameHeader,
    /// Days used.
    pub used: u32,
    /// The limit for the moves made.
    pub limit: u32,
    /// Days left.
    pub left: u32,
    /// The day the limit is overstepped if no answer is sent.
    pub overstep_day: String,
}

/// An overstep (10.3.5–10.3.8): to the player, the partner, the secretary (`overstep_player`)
/// and to the arbiter (`overstep_arbiter`, with Table 2 and the letters attached).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Overstep {
    /// The game.
    pub game: GameHeader,
    /// Who overstepped.
    pub player: String,
    /// The addressee is the one who overstepped.
    pub is_offender: bool,
    /// Days used.
    pub used: u32,
    /// The limit.
    pub limit: u32,
    /// Counted moves.
    pub moves_counted: u32,
    /// The day of the overstep.
    pub day: String,
    /// The last day for a protest (10.3.8).
    pub protest_until: String,
    /// Table 2 as text.
    pub timechart: String,
    /// The game record.
    pub record: String,
}

/// A finished game (10.5.1).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Result {
    /// The game.
    pub game: GameHeader,
    /// `1-0`, `0-1`, `1/2-1/2` in the federation's points, as text.
    pub result: String,
    /// How it ended, worded.
    pub reason: String,
    /// The record in semi-short notation (8x8) or numeric (10x10).
    pub record: String,
}

/// A short notice to an unknown sender (once a day at most).
#[derive(Clone, Debug, Default, Serialize)]
pub struct UnknownSender {
    /// The address written from.
    pub sender: String,
    /// The federation's name.
    pub federation: String,
}

/// The notice to a registered player or official whose letter did not prove its sender
/// (issue 10; once a day at most, to the registered address).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Unauthenticated {
    /// The addressee's name, or empty for an official.
    pub to_name: String,
    /// The address the letter came from (the registered one).
    pub sender: String,
    /// What the check found, worded for the sender, a full sentence.
    pub reason: String,
    /// The federation's name.
    pub federation: String,
}

/// A refusal: a letter naming someone else's game, a command from a stranger, an unknown
/// game.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Refused {
    /// The subject, for the `note` template (empty: the generic one). A note about a game
    /// names the cipher and the game ("ЗШ-2027-1, партия 7: …").
    pub subject: String,
    /// The addressee's name or address.
    pub to_name: String,
    /// Why, worded.
    pub reason: String,
    /// The federation's name.
    pub federation: String,
}

/// Words and builds one letter: template `name` in `lang`, the board (if any) as a text
/// diagram and a picture.
///
/// # Errors
/// [`RenderError`] from the template or the MIME builder.
pub fn compose(
    templates: &Templates,
    lang: Lang,
    name: &str,
    ctx: &impl Serialize,
    board: Option<&Board>,
    mut envelope: Envelope,
    attachments: Vec<(String, String, Vec<u8>)>,
) -> std::result::Result<(String, Vec<u8>), RenderError> {
    let diagram = board.map(|b| b.to_text(lang)).unwrap_or_default();
    let rendered = templates.render(lang, name, ctx, &diagram)?;
    envelope.subject = rendered.subject.clone();
    let content = Content {
        text: rendered.text,
        html: rendered.html,
        board_png: board.map(Board::to_png),
        attachments,
    };
    Ok((rendered.subject, mime::build(&envelope, &content)?))
}
