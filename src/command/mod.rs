//! The chief arbiter's and the chief secretary's command letters: free text → [`Orders`],
//! Russian or English, one command a line (10.1.7–10.1.10, 10.3.7, 10.4.5, 10.5.3).
//!
//! ```text
//! Шифр ЗШ-2026-1, партия 7
//! Просрочка подтверждена                 Overstep confirmed
//! Просрочки нет                          No overstep: 10 days left after the ruling
//! Просрочки нет, оставить 5 дней         No overstep, leave 5 days
//! Результат: 1-0 (0-1, ничья, 1/2-1/2, -/- for both lose)
//! Штраф 6 дней белым: п. 10.3.3          Penalty 6 days to white: 10.3.3
//! Отменить штраф белым: п. 10.3.3        Cancel penalty white
//! Особый перерыв Иванову с 01.03 по 20.03
//! Добавить 5 дней чёрным: сбой почты     Add 5 days to black: mail outage
//! Вернуть 3 дня белым: сбой почты        Give back 3 days to white: …
//! Предупреждение белым: п. 10.2.6        Warning to white: 10.2.6
//! Поражение чёрным: п. 10.1.11           Loss to black: 10.1.11
//! Выбыл Иванов: сыгранные засчитать, несыгранные — присуждение
//! ```
//!
//! A `Шифр …`/`Партия N` line (or the subject) names the game for the commands after it, so
//! one letter may decide several games; a reply to zaochka's notice needs neither (the
//! office knows the game by threading). Quotes and the signature are cut first, so the
//! quoted notice never reads as a command. Lines that begin with no command word are
//! ignored (greetings, signatures); a line that begins with one and cannot be read is a
//! problem, never a guess. A sanction names the clause broken (10.1.10), or it is refused.
//!
//! Pure: takes `&str`, no I/O, no clock (the year of `01.03` comes from the context).
//! Knows the games only through [`Who::side_in`], which names a side of a [`GameState`].
#![warn(missing_docs)]

use std::sync::LazyLock;

use chrono::{Datelike, NaiveDate};
use regex::{Captures, Regex};
use serde::Serialize;

use crate::clock::Side;
use crate::game::{GameState, Score};
use crate::letter::own_text;

/// The penalty of the rules when a command names no number of days (10.2.11, 10.3.3, 10.3.7).
pub const PENALTY_DAYS: u32 = 6;

/// The days a player has left after `Просрочки нет` when the arbiter writes no number: time
/// for a letter to come and go. The rules name none (10.3.7); the arbiter may write his own.
pub const NO_OVERSTEP_DAYS_LEFT: u32 = 10;

/// What the text alone cannot know: given by the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandContext {
    /// The day the letter came: the year of dates written without one.
    pub today: NaiveDate,
    /// The subject (it may name the cipher and the game).
    pub subject: Option<String>,
}

/// Who a command is about: a side of the named game, or a player by surname.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// `белым`, `чёрных`, `white`.
    Side(Side),
    /// A surname as written, in any case form (`Иванову`, `Ivanov`).
    Name(String),
}

impl Who {
    /// Whether a registered name ("Фамилия Имя") is this one: the surname's stem (less a
    /// final vowel) begins the written word, so the dative `Иванову`, `Ивановой` match
    /// `Иванов`, `Иванова`. A side never matches a name.
    pub fn matches(&self, full_name: &str) -> bool {
        let Who::Name(written) = self else {
            return false;
        };
        let Some(surname) = full_name.split_whitespace().next() else {
            return false;
        };
        let written = fold(written);
        let surname = fold(surname);
        let stem: String = {
            let mut s = surname.clone();
            if s.chars().count() > 3 && s.ends_with(['а', 'я', 'a', 'o', 'о', 'й', 'ь']) {
                s.pop();
            }
            s
        };
        written == surname || (stem.chars().count() >= 3 && written.starts_with(&stem))
    }

    /// The side of the game this names: the side itself, or the player whose name matches.
    /// `None` when nobody in the game matches, or both do.
    pub fn side_in(&self, state: &GameState) -> Option<Side> {
        match self {
            Who::Side(s) => Some(*s),
            Who::Name(_) => {
                let w = self.matches(&state.players.white.name);
                let b = self.matches(&state.players.black.name);
                match (w, b) {
                    (true, false) => Some(Side::White),
                    (false, true) => Some(Side::Black),
                    _ => None,
                }
            }
        }
    }
}

/// Lower case with `ё` as `е`.
fn fold(s: &str) -> String {
    s.to_lowercase().replace('ё', "е")
}

/// What happens to a withdrawn player's finished games (10.5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishedGames {
    /// `сыгранные засчитать`: the results stand.
    Count,
    /// `сыгранные аннулировать`: the results are annulled.
    Annul,
}

/// What happens to a withdrawn player's unfinished games (10.5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnfinishedGames {
    /// `несыгранные — поражение`: lost.
    Lost,
    /// `несыгранные — присуждение`: frozen and adjudicated (10.5.2).
    Adjudicated,
}

/// One command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// `Просрочка подтверждена`: the overstep stands, the player loses (10.3.7).
    ConfirmOverstep,
    /// `Просрочки нет`: play resumes (10.3.7) and the player has `days_left` days left in
    /// the current control after the ruling ([`NO_OVERSTEP_DAYS_LEFT`] unless written:
    /// `Просрочки нет, оставить 5 дней`, or `вернуть 5 дней`, `leave`/`give back`). The
    /// days over the limit are given back first, so the same overstep is not declared again.
    RejectOverstep {
        /// Days left to the player after the ruling (at least 1).
        days_left: u32,
    },
    /// `Результат: 1-0`: the arbiter's result (a ruling or an adjudication, 10.5).
    SetResult {
        /// The score.
        score: Score,
        /// Whatever followed the score (`(присуждение)`), trimmed.
        note: String,
    },
    /// `Штраф 6 дней белым: п. 10.3.3` (10.2.11, 10.3.3, 10.3.7).
    Penalty {
        /// Who pays.
        who: Who,
        /// How many days ([`PENALTY_DAYS`] when not written).
        days: u32,
        /// The clause (10.1.10).
        clause: String,
        /// Any words after the clause.
        reason: String,
    },
    /// `Отменить штраф белым: п. 10.3.3`: the latest matching penalty is cancelled.
    CancelPenalty {
        /// Whose penalty.
        who: Who,
        /// The days, when written.
        days: Option<u32>,
        /// The clause, when written.
        clause: Option<String>,
    },
    /// `Особый перерыв Иванову с 01.03 по 20.03` (10.4.5): in all the player's games.
    SpecialBreak {
        /// Whose.
        who: Who,
        /// First day.
        from: NaiveDate,
        /// Last day (included).
        to: NaiveDate,
    },
    /// `Добавить 5 дней чёрным: сбой почты` (positive) or `Вернуть 3 дня …` (negative).
    AddDays {
        /// Whose clock.
        who: Who,
        /// Days added to the total; negative gives days back.
        days: i32,
        /// Why, as written.
        reason: String,
    },
    /// `Предупреждение белым: п. 10.2.6` or `Замечание …` (10.1.9).
    Warning {
        /// To whom.
        who: Who,
        /// The clause broken (10.1.10).
        clause: String,
        /// Any words after the clause.
        reason: String,
        /// `Замечание` (a remark) rather than `Предупреждение`.
        is_remark: bool,
    },
    /// `Поражение чёрным: п. 10.1.11`: a loss for a breach (10.1.7, 10.1.10).
    Loss {
        /// Who loses.
        who: Who,
        /// The clause broken (10.1.10).
        clause: String,
        /// Any words after the clause.
        reason: String,
    },
    /// `Выбыл Иванов: сыгранные засчитать, несыгранные — присуждение` (10.5.3).
    Withdraw {
        /// The player, as written.
        who: Who,
        /// The finished games.
        finished: FinishedGames,
        /// The unfinished games.
        unfinished: UnfinishedGames,
    },
}

impl Command {
    /// Whether the command concerns one game (and so needs it named), rather than a player
    /// across the tournament (a special break, a withdrawal).
    pub fn needs_game(&self) -> bool {
        !matches!(
            self,
            Command::SpecialBreak { .. } | Command::Withdraw { .. }
        )
    }
}

/// One command with the game it is for, as far as the letter names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Order {
    /// The cipher named above the command (or in the subject).
    pub cipher: Option<String>,
    /// The game number named above the command (or in the subject).
    pub game: Option<u32>,
    /// The line as written.
    pub line: String,
    /// The command.
    pub command: Command,
}

/// What is wrong in a command letter: nothing of it is executed for that line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "problem", content = "line", rename_all = "snake_case")]
pub enum CommandError {
    /// A line that begins with a command word but cannot be read.
    #[error("cannot read the command '{0}'")]
    Unreadable(String),
    /// A sanction without the clause broken (10.1.10).
    #[error("no clause named in '{0}' (10.1.10)")]
    ClauseMissing(String),
    /// A date that is not a date.
    #[error("cannot read the dates in '{0}'")]
    BadDate(String),
    /// The letter has no command at all.
    #[error("no command found")]
    NoCommand,
}

impl CommandError {
    /// The same in Russian, for the answer to the commander.
    pub fn ru(&self) -> String {
        match self {
            CommandError::Unreadable(l) => format!("не удалось прочесть команду «{l}»"),
            CommandError::ClauseMissing(l) => {
                format!("в команде «{l}» не указан нарушенный пункт Правил (п. 10.1.10)")
            }
            CommandError::BadDate(l) => format!("не удалось прочесть даты в «{l}»"),
            CommandError::NoCommand => "команд не найдено".to_string(),
        }
    }
}

/// A command letter, read: the commands in order and the lines that could not be read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Orders {
    /// The commands, in the order written.
    pub items: Vec<Order>,
    /// What could not be read.
    pub problems: Vec<CommandError>,
}

const LEAD: &str = r"^\s*(?:[-*•–—]|\d{1,2}[.)])?\s*";
/// The who-part ends at a colon, or where the clause begins (`белым п. 10.3.3`, `white 10.3.3`).
const REST: &str = r"\s*(?::\s*(?P<rest>.*)|\s+(?P<rest2>(?:п\.|пункт\w*|clause|§)?\s*\d.*))?$";
const DAYS: &str = r"(?:дн(?:я|ей|и)?|день|days?|д\.?)";

fn re(body: &str) -> Regex {
    // The patterns are literals of this file, checked by the tests: they compile.
    Regex::new(&format!("(?i){LEAD}{body}")).expect("a valid built-in pattern")
}

static CIPHER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:шифр(?:\s+турнира)?|tournament|cipher)\s*:?\s*([^\s,;]+)")
        .expect("a valid built-in pattern")
});
static GAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[^\p{L}])(?:партия|партии|game)\s*:?\s*(?:№|no\.|#)?\s*(\d{1,6})\b")
        .expect("a valid built-in pattern")
});
static CONFIRM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:просрочка\s+подтвержд\w*|подтверждаю\s+просрочку|overstep\s+confirmed|confirm\s+(?:the\s+)?overstep)\W*$",
    )
});
static REJECT: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?:просрочки\s+нет|нет\s+просрочки|просрочка\s+не\s+подтвержд\w*|no\s+overstep|overstep\s+rejected)(?:\W+(?:оставить|вернуть|leave|give\s+back)\s+(\d+)\s*{DAYS})?\W*$"
    ))
});
static RESULT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:результат|result|присуждение|присудить|adjudication|adjudicated)\s*:?\s*(?P<score>1\s*[-–—:]\s*0|0\s*[-–—:]\s*1|(?:1/2|½)\s*[-–—:]\s*(?:1/2|½)|0\s*[-–—:]\s*0|[-–—]\s*/\s*[-–—]|ничья|draw|выигрыш\s+белых|выигрыш\s+ч[её]рных|white\s+wins|black\s+wins|поражение\s+обоим|both\s+lose)(?P<note>.*)$",
    )
});
static PENALTY: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?P<cancel>отменить\s+|отмена\s+|cancel\s+(?:the\s+)?)?(?:штраф\w*|penalty)(?:\s+(?P<days>\d+)\s*{DAYS}?)?\s+(?:to\s+)?(?P<who>[^:\d]+?){REST}"
    ))
});
static BREAK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:особый\s+перерыв|special\s+break)\s+(?:to\s+)?(?P<who>.+?)\s+(?:с|from)\s+(?P<from>[\d.\-/]+)\s+(?:по|to|until|till)\s+(?P<to>[\d.\-/]+)\W*$",
    )
});
static DAYS_RE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?P<verb>добавить|add|вернуть|give\s+back)\s+(?P<days>\d+)\s*{DAYS}\s+(?:to\s+)?(?P<who>[^:]+?)\s*(?::\s*(?P<reason>.*))?$"
    ))
});
static WARNING: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?P<kind>предупреждение|замечание|warning|remark)\s+(?:to\s+)?(?P<who>[^:\d]+?){REST}"
    ))
});
static LOSS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?:засчитать\s+)?(?:поражение|loss|forfeit)\s+(?:to\s+)?(?P<who>[^:\d]+?){REST}"
    ))
});
static WITHDRAW: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:выбыл[аи]?|withdrawn?|withdraws)\s*:?\s+(?P<who>[^:]+?)\s*:\s*(?P<rest>.+)$")
});
static CLAUSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:п\.|пп\.|пункт\w*|clause|§)?\s*(\d{1,2}(?:\.\d{1,2}){1,3})")
        .expect("a valid built-in pattern")
});
/// A line that begins with one of these is meant as a command.
static COMMAND_WORD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:просрочк\w*|результат|присужд\w*|присудить|штраф\w*|отменить|особый|добавить|вернуть|предупреждение|замечание|поражение|засчитать|выбыл\w*|overstep|no\s+overstep|result|adjudicat\w*|penalty|cancel|special\s+break|add|give\s+back|warning|remark|loss|forfeit|withdraw\w*)\b",
    )
});

/// Reads a command letter. Never fails: what cannot be read is a [`CommandError`] in
/// [`Orders::problems`], and that line does nothing.
///
/// ```
/// use chrono::NaiveDate;
/// use zaochka::command::{read, Command, CommandContext, Who};
/// use zaochka::clock::Side;
/// let ctx = CommandContext { today: NaiveDate::from_ymd_opt(2026, 12, 2).unwrap(), subject: None };
/// let orders = read("Шифр: ЗШ-2026-1, партия 7\nШтраф 6 дней белым: п. 10.3.3\n", &ctx);
/// assert_eq!(orders.items[0].game, Some(7));
/// assert!(matches!(
///     &orders.items[0].command,
///     Command::Penalty { who: Who::Side(Side::White), days: 6, clause, .. } if clause == "10.3.3"
/// ));
/// ```
pub fn read(text: &str, ctx: &CommandContext) -> Orders {
    let mut orders = Orders::default();
    let (mut cipher, mut game) = (None, None);
    if let Some(subject) = &ctx.subject {
        // The player-letter reader knows the subject's forms (`Re: ЗШ-2026-1, партия 7`).
        let from_subject = crate::letter::read(
            "",
            &crate::letter::ReadContext {
                subject: Some(subject.clone()),
                ..Default::default()
            },
        );
        cipher = from_subject.cipher;
        game = from_subject.game;
    }
    for raw in own_text(text).lines() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let is_command = COMMAND_WORD.is_match(line);
        if !is_command {
            if let Some(c) = CIPHER.captures(line) {
                cipher = Some(clean(&c[1]));
            }
            if let Some(g) = GAME.captures(line).and_then(|c| c[1].parse().ok()) {
                game = Some(g);
            }
            continue;
        }
        match read_line(line, ctx.today) {
            Ok(command) => orders.items.push(Order {
                cipher: cipher.clone(),
                game,
                line: line.to_string(),
                command,
            }),
            Err(e) => orders.problems.push(e),
        }
    }
    if orders.items.is_empty() && orders.problems.is_empty() {
        orders.problems.push(CommandError::NoCommand);
    }
    orders
}

fn clean(s: &str) -> String {
    s.trim_end_matches(['.', ',', ';', ')']).to_string()
}

/// One line that begins with a command word.
fn read_line(line: &str, today: NaiveDate) -> Result<Command, CommandError> {
    let unreadable = || CommandError::Unreadable(line.to_string());
    if CONFIRM.is_match(line) {
        return Ok(Command::ConfirmOverstep);
    }
    if let Some(c) = REJECT.captures(line) {
        let days_left = c
            .get(1)
            .map_or(Ok(NO_OVERSTEP_DAYS_LEFT), |m| m.as_str().parse())
            .map_err(|_| unreadable())?;
        // No days left would declare the overstep again the next day.
        if days_left == 0 {
            return Err(unreadable());
        }
        return Ok(Command::RejectOverstep { days_left });
    }
    if let Some(c) = RESULT.captures(line) {
        let score = read_score(&c["score"]).ok_or_else(unreadable)?;
        let note = c["note"]
            .trim()
            .trim_matches(|ch: char| ch.is_whitespace() || "()[],;.—–-".contains(ch))
            .to_string();
        return Ok(Command::SetResult { score, note });
    }
    if let Some(c) = BREAK.captures(line) {
        let who = read_who(&c["who"]).ok_or_else(unreadable)?;
        let bad = || CommandError::BadDate(line.to_string());
        let from = read_date(&c["from"], today).ok_or_else(bad)?;
        let mut to = read_date(&c["to"], today).ok_or_else(bad)?;
        // `с 20.12 по 10.01`: the break runs into the next year.
        if to < from && !has_year(&c["to"]) {
            to = to.with_year(to.year() + 1).ok_or_else(bad)?;
        }
        if to < from {
            return Err(bad());
        }
        return Ok(Command::SpecialBreak { who, from, to });
    }
    if let Some(c) = PENALTY.captures(line) {
        let who = read_who(&c["who"]).ok_or_else(unreadable)?;
        let days = match c.name("days") {
            Some(d) => Some(d.as_str().parse().map_err(|_| unreadable())?),
            None => None,
        };
        let rest = rest_of(&c);
        let clause = read_clause(rest);
        if c.name("cancel").is_some() {
            return Ok(Command::CancelPenalty {
                who,
                days,
                clause: clause.map(|(c, _)| c),
            });
        }
        let (clause, reason) = clause.ok_or_else(|| CommandError::ClauseMissing(line.into()))?;
        return Ok(Command::Penalty {
            who,
            days: days.unwrap_or(PENALTY_DAYS),
            clause,
            reason,
        });
    }
    if let Some(c) = DAYS_RE.captures(line) {
        let who = read_who(&c["who"]).ok_or_else(unreadable)?;
        let n: i32 = c["days"].parse().map_err(|_| unreadable())?;
        let verb = fold(&c["verb"]);
        let days = if verb.starts_with("добав") || verb == "add" {
            n
        } else {
            -n
        };
        let reason = c
            .name("reason")
            .map_or("", |m| m.as_str())
            .trim()
            .to_string();
        return Ok(Command::AddDays { who, days, reason });
    }
    if let Some(c) = WARNING.captures(line) {
        let (who, clause, reason) = sanction(&c, line)?;
        let kind = fold(&c["kind"]);
        let is_remark = kind == "замечание" || kind == "remark";
        return Ok(Command::Warning {
            who,
            clause,
            reason,
            is_remark,
        });
    }
    if let Some(c) = WITHDRAW.captures(line) {
        let who = read_who(&c["who"]).ok_or_else(unreadable)?;
        let rest = fold(&c["rest"]);
        let finished = if rest.contains("аннулир") || rest.contains("annul") {
            FinishedGames::Annul
        } else if rest.contains("засчит") || rest.contains("count") || rest.contains("keep") {
            FinishedGames::Count
        } else {
            return Err(unreadable());
        };
        let unfinished = if rest.contains("присужд") || rest.contains("adjudicat") {
            UnfinishedGames::Adjudicated
        } else if rest.contains("поражени") || rest.contains("loss") || rest.contains("lost")
        {
            UnfinishedGames::Lost
        } else {
            return Err(unreadable());
        };
        return Ok(Command::Withdraw {
            who,
            finished,
            unfinished,
        });
    }
    if let Some(c) = LOSS.captures(line) {
        let (who, clause, reason) = sanction(&c, line)?;
        return Ok(Command::Loss {
            who,
            clause,
            reason,
        });
    }
    Err(unreadable())
}

/// What follows the person: the clause and the reason.
fn rest_of<'t>(c: &Captures<'t>) -> &'t str {
    c.name("rest")
        .or_else(|| c.name("rest2"))
        .map_or("", |m| m.as_str())
}

/// The person, the clause (required, 10.1.10) and the reason of a sanction.
fn sanction(c: &Captures<'_>, line: &str) -> Result<(Who, String, String), CommandError> {
    let who = read_who(&c["who"]).ok_or_else(|| CommandError::Unreadable(line.to_string()))?;
    let rest = rest_of(c);
    let (clause, reason) =
        read_clause(rest).ok_or_else(|| CommandError::ClauseMissing(line.to_string()))?;
    Ok((who, clause, reason))
}

/// The clause number in `п. 10.3.3, задержка` and the words around it.
fn read_clause(rest: &str) -> Option<(String, String)> {
    let c = CLAUSE.captures(rest)?;
    let whole = c.get(0)?;
    let reason = format!("{} {}", &rest[..whole.start()], &rest[whole.end()..]);
    let reason = reason
        .trim_matches(|ch: char| ch.is_whitespace() || ",;.()—–-".contains(ch))
        .to_string();
    Some((c[1].to_string(), reason))
}

fn read_score(s: &str) -> Option<Score> {
    let s: String = fold(s).chars().filter(|c| !c.is_whitespace()).collect();
    let s = s.replace(['–', '—', ':'], "-").replace('½', "1/2");
    Some(match s.as_str() {
        "1-0" | "выигрышбелых" | "whitewins" => Score::WhiteWins,
        "0-1" | "выигрышчерных" | "blackwins" => Score::BlackWins,
        "1/2-1/2" | "ничья" | "draw" => Score::Draw,
        "0-0" | "-/-" | "поражениеобоим" | "bothlose" => Score::BothLose,
        _ => return None,
    })
}

/// `белым`, `чёрных`, `white` → a side; one capitalised word → a name.
fn read_who(s: &str) -> Option<Who> {
    let s = s.trim().trim_matches(|c: char| ",.;—–-".contains(c)).trim();
    let lower = fold(s);
    let lower = lower.strip_prefix("to ").unwrap_or(&lower).trim();
    if lower.starts_with("бел") || lower == "white" {
        return Some(Who::Side(Side::White));
    }
    if lower.starts_with("черн") || lower == "black" {
        return Some(Who::Side(Side::Black));
    }
    let mut words = s
        .split_whitespace()
        .filter(|w| !w.eq_ignore_ascii_case("to"));
    let name = words.next()?;
    // A surname and at most a first name or initials.
    if words.count() > 2 || !name.chars().next()?.is_uppercase() {
        return None;
    }
    name.chars()
        .all(|c| c.is_alphabetic() || c == '-')
        .then(|| Who::Name(name.to_string()))
}

fn has_year(s: &str) -> bool {
    s.split(['.', '-', '/']).any(|p| p.len() == 4)
}

/// `01.03`, `01.03.2027`, `01.03.27`, `2027-03-01`; the year of `today` when none is written.
fn read_date(s: &str, today: NaiveDate) -> Option<NaiveDate> {
    let s = s.trim_end_matches('.');
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Some(d);
    }
    let parts: Vec<&str> = s.split(['.', '/']).collect();
    let (d, m) = (parts.first()?.parse().ok()?, parts.get(1)?.parse().ok()?);
    let y = match parts.get(2) {
        None => today.year(),
        Some(y) if y.len() == 4 => y.parse().ok()?,
        Some(y) if y.len() == 2 => 2000 + y.parse::<i32>().ok()?,
        Some(_) => return None,
    };
    if parts.len() > 3 {
        return None;
    }
    NaiveDate::from_ymd_opt(y, m, d)
}

/// The index in [`GameState::penalties`] that `Отменить штраф` means: the latest one not yet
/// cancelled, charged to that side, with the days and clause where the command gives them.
pub fn find_penalty(
    state: &GameState,
    side: Side,
    days: Option<u32>,
    clause: Option<&str>,
) -> Option<usize> {
    state.penalties.iter().rposition(|p| {
        !p.is_cancelled
            && p.side == side
            && p.days > 0
            && days.is_none_or(|d| i64::from(p.days) == i64::from(d))
            && clause.is_none_or(|c| p.clause == c)
    })
}

#[cfg(test)]
mod tests;
