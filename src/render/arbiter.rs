//! Contexts of the chief arbiter's and secretary's letters (issue 6): the answer to a
//! command letter, the adjudication package and decision (10.5.2–10.5.6), a protest with
//! the game's papers (10.3.8, 10.5.6), the weekly digest (10.1.8) and the final report
//! (10.1.7). Each struct is the context of the template of the same name in snake case.

use serde::Serialize;

use super::letters::GameHeader;

/// `command_answer`: what was done with a command letter, and what was not.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CommandAnswer {
    /// The game(s) the orders touched, for the subject ("ЗШ-2026-5, партия 1"); empty
    /// when they touched none.
    pub about: String,
    /// The commander's name or address.
    pub to_name: String,
    /// One line per command carried out, worded.
    pub done: Vec<String>,
    /// One line per command not carried out, with why.
    pub problems: Vec<String>,
    /// The federation's name.
    pub federation: String,
}

/// One player's analysis as the arbiter reads it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnalysisLine {
    /// The player's name.
    pub name: String,
    /// The evaluation worded (`ничья`), empty if none.
    pub evaluation: String,
    /// The analysis as written, empty if none came.
    pub text: String,
    /// The day it came, empty if none.
    pub received: String,
    /// It came after the deadline (10.5.6).
    pub is_late: bool,
}

/// `adjudication_package`: the arbiter's papers for one unfinished game (10.5.2, 10.5.4).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AdjudicationPackage {
    /// The game.
    pub game: GameHeader,
    /// The final position (FEN); the diagram is the letter's board.
    pub fen: String,
    /// Whose move it is, worded.
    pub to_move: String,
    /// The record.
    pub record: String,
    /// White's analysis.
    pub white: AnalysisLine,
    /// Black's analysis.
    pub black: AnalysisLine,
    /// The result both propose (10.5.4), worded; empty when they disagree.
    pub agreed: String,
    /// The analyses were due on.
    pub due: String,
    /// The engine's view (10.5.4: the objective evaluation), when it was asked: a block of
    /// its own in the template.
    pub engine: Option<EngineBlock>,
}

/// The engine's view of the final position, worded for the arbiter: evidence beside the
/// players' analyses, never the decision (10.5.4, 10.5.5).
#[derive(Clone, Debug, Default, Serialize)]
pub struct EngineBlock {
    /// The result the engine gives, worded (`выигрыш белых`, `ничья`).
    pub verdict: String,
    /// The verdict is proven (tables, or a search to the end of the game or the tables).
    pub proven: bool,
    /// Where the verdict comes from, worded (`таблицы окончаний`; for an unproven one the
    /// search and its depth, `расчёт на 14 полуходов`).
    pub basis: String,
    /// The engine's line from the final position, numbered as the record (`23. c3-d4 f6-e5`).
    pub line: String,
    /// The depth searched, worded with its noun (`14 полуходов`).
    pub depth: String,
    /// A draw rule that counts moves and that the verdict does not take into account,
    /// worded; empty if none.
    pub count_rule: String,
    /// In the engine's line, the move (of the side to move, counted from the final position)
    /// on which the balance of forces changes: a capture or a crowning; 0 for none.
    pub balance_changes_in: u32,
    /// The players agree on a result and the engine proves another (10.5.4: "резко не
    /// противоречит объективной оценке").
    pub contradicts_agreed: bool,
}

/// `adjudication_decision`: the decision to a player (or the secretary), with the protest
/// window (10.5.6).
#[derive(Clone, Debug, Default, Serialize)]
pub struct AdjudicationDecision {
    /// The game.
    pub game: GameHeader,
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0`.
    pub result: String,
    /// The arbiter's words.
    pub note: String,
    /// The last day to protest.
    pub protest_until: String,
    /// Whether this addressee may protest (their analysis came in time, 10.5.6).
    pub may_protest: bool,
    /// The organiser's decision on a protest: final, no window follows (10.5.7).
    pub is_final: bool,
    /// Addressed to a player of the game (not the secretary).
    pub is_player: bool,
}

/// `protest_papers`: a player's protest with the game's papers, for the arbiter (10.3.8) or
/// the organiser (10.5.7).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ProtestPapers {
    /// The game.
    pub game: GameHeader,
    /// Who protests.
    pub player: String,
    /// What is protested, worded (`просрочка`, `присуждение`).
    pub against: String,
    /// The protest as written.
    pub text: String,
    /// The day it came.
    pub received: String,
    /// The last day it could come.
    pub until: String,
    /// The game's record.
    pub record: String,
    /// The position (FEN).
    pub fen: String,
    /// Table 2 (10.3.6), when the protest is about an overstep.
    pub timechart: String,
    /// Who decides the protest and where the decision goes, worded with its clause.
    pub decided_by: String,
}

/// One game waiting for someone, for the digest.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Waiting {
    /// The game number.
    pub game_no: u32,
    /// White.
    pub white: String,
    /// Black.
    pub black: String,
    /// Who is to act, by name.
    pub waits_for: String,
    /// The state of the game worded (`ход`, `на присуждении`, `приостановлена`).
    pub status: String,
}

/// A player on a break, for the digest (10.4).
#[derive(Clone, Debug, Default, Serialize)]
pub struct OnBreak {
    /// The player.
    pub name: String,
    /// First day.
    pub from: String,
    /// Last day.
    pub to: String,
    /// Granted by the arbiter (10.4.5).
    pub is_special: bool,
}

/// `weekly_digest`: the secretary's periodic information to every participant (10.1.8).
#[derive(Clone, Debug, Default, Serialize)]
pub struct WeeklyDigest {
    /// The addressee.
    pub to_name: String,
    /// The cipher.
    pub cipher: String,
    /// The tournament's name.
    pub tournament: String,
    /// The day of the digest.
    pub day: String,
    /// The crosstable as text.
    pub table: String,
    /// Games finished / all games.
    pub finished: u32,
    /// All games.
    pub total: u32,
    /// Who is on a break now.
    pub breaks: Vec<OnBreak>,
    /// Unfinished games and whom they wait for.
    pub waiting: Vec<Waiting>,
    /// The federation's name.
    pub federation: String,
}

/// One game in the final report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ReportGame {
    /// The game number.
    pub game_no: u32,
    /// White.
    pub white: String,
    /// Black.
    pub black: String,
    /// The result, or empty.
    pub result: String,
    /// How it ended, worded.
    pub how: String,
}

/// `final_report`: the report to the organiser (10.1.7): the table, every game, the
/// decisions and penalties; the PDN of every game goes as an attachment.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FinalReport {
    /// The addressee.
    pub to_name: String,
    /// The cipher.
    pub cipher: String,
    /// The tournament's name.
    pub tournament: String,
    /// Start and end dates.
    pub start: String,
    /// The end-of-play date.
    pub end: String,
    /// The crosstable as text.
    pub table: String,
    /// Every game.
    pub games: Vec<ReportGame>,
    /// The arbiter's and secretary's decisions, one a line.
    pub decisions: Vec<String>,
    /// The penalties charged, one a line.
    pub penalties: Vec<String>,
    /// The federation's name.
    pub federation: String,
}
