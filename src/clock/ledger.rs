//! One game's clock: the ledger of answers, penalties and breaks, and what follows from it
//! (totals, the limit, days left, the overstep day, the deadlines).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{
    Break, BreakError, ClockSettings, DateRange, PerSide, Side, check_break, days_outside, merge,
    nth_thinking_day, thinking_days,
};

/// One entry of the ledger: a move of one player, the day it was asked for and the day it
/// was made.
///
/// A move made by a letter has the day the partner's move was forwarded (`received`) and the
/// day the letter came (`answered`). A move that costs no thinking time of its own (a forced
/// move written in the same letter, 10.2.4, or a move of the player's own variant accepted by
/// the partner, 10.2.13) has both days equal. `answered` is `None` while the answer is
/// pending.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// Whose move.
    pub side: Side,
    /// The move's number in the game record.
    pub move_number: u32,
    /// The day the player received the partner's move (for white's first move: white's start,
    /// 10.3.2).
    pub received: NaiveDate,
    /// The day the answer was sent; `None` while pending.
    pub answered: Option<NaiveDate>,
    /// Whether the move counts for the limit: moves of the player's own accepted variant do
    /// not, except forced ones (10.3.5).
    pub is_counted: bool,
}

/// Penalty days charged to a player (10.2.11, 10.3.3, 10.3.7), or days given back by the
/// arbiter (negative `days`, e.g. after a mail outage).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penalty {
    /// Who is charged.
    pub side: Side,
    /// The move being answered when it was charged (Table 2 shows it on that row).
    pub move_number: u32,
    /// The day it was charged; it counts from that day on.
    pub on: NaiveDate,
    /// Days added to the player's total (negative: days given back).
    pub days: i32,
    /// The clause it was charged under, e.g. `10.2.11`.
    pub clause: String,
}

/// A mistake in driving the ledger (a bug in the caller, never a player's mistake).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// An answer was recorded for a side whose answer is not pending.
    #[error("no answer of {side:?} is pending")]
    NothingPending {
        /// The side that answered.
        side: Side,
    },
    /// A move was forwarded while another answer is still pending.
    #[error("cannot wait for {side:?}: move {move_number} of {pending:?} is still pending")]
    AlreadyPending {
        /// The side the move was forwarded to.
        side: Side,
        /// The side whose answer is pending.
        pending: Side,
        /// The pending move's number.
        move_number: u32,
    },
    /// Play was resumed but was not suspended.
    #[error("play is not suspended")]
    NotSuspended,
    /// The break is refused (10.4).
    #[error(transparent)]
    Break(#[from] BreakError),
}

/// A deadline of a game's clock, with the day it falls due. Deadlines are computed from the
/// ledger ([`Ledger::deadlines`]); each fires once on its day, and the caller records that it
/// fired under [`Deadline::key`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Deadline {
    /// The player's total exceeds the limit on `day` (10.3.5): the game is suspended and the
    /// arbiter gets the notice (10.3.6).
    Overstep {
        /// Who oversteps.
        side: Side,
        /// The move being thought over (or the last one made, if a penalty did it).
        move_number: u32,
        /// The first day the total exceeds the limit.
        day: NaiveDate,
    },
    /// No answer `repeat_after_days` (40) thinking days after the move was forwarded: the move
    /// is repeated to the silent player with its original dates and times (10.3.4).
    Repeat {
        /// The silent player, who gets the repeat.
        side: Side,
        /// The move awaited from them.
        move_number: u32,
        /// The day the partner's move was forwarded.
        forwarded: NaiveDate,
        /// The day the repeat is due.
        day: NaiveDate,
    },
    /// No first move `first_move_query_after_days` (30) days after white's start: white is
    /// queried and black told (10.3.4).
    FirstMoveQuery {
        /// The day the query is due.
        day: NaiveDate,
    },
    /// Beyond the rules: the player has `days_left` days or fewer (7) before overstepping.
    Warning {
        /// Who is warned.
        side: Side,
        /// The move being thought over.
        move_number: u32,
        /// Days left on `day`.
        days_left: i64,
        /// The first day with so few days left.
        day: NaiveDate,
    },
}

impl Deadline {
    /// The day it falls due.
    #[must_use]
    pub fn day(&self) -> NaiveDate {
        match self {
            Deadline::Overstep { day, .. }
            | Deadline::Repeat { day, .. }
            | Deadline::FirstMoveQuery { day }
            | Deadline::Warning { day, .. } => *day,
        }
    }

    /// The player it concerns (for the first-move query: white).
    #[must_use]
    pub fn side(&self) -> Side {
        match self {
            Deadline::Overstep { side, .. }
            | Deadline::Repeat { side, .. }
            | Deadline::Warning { side, .. } => *side,
            Deadline::FirstMoveQuery { .. } => Side::White,
        }
    }

    /// What identifies the deadline among those of the game, so that it fires once:
    /// `overstep:white:12:2026-05-03`, `repeat:black:12`, `first_move_query`,
    /// `warning:white:12`. A repeat, a query and a warning fire once per awaited move even if
    /// a penalty or a break moves their day; an overstep again after the arbiter resumed play
    /// (a new day) fires again.
    #[must_use]
    pub fn key(&self) -> String {
        let side = |s: &Side| match s {
            Side::White => "white",
            Side::Black => "black",
        };
        match self {
            Deadline::Overstep {
                side: s,
                move_number,
                day,
            } => format!("overstep:{}:{move_number}:{day}", side(s)),
            Deadline::Repeat {
                side: s,
                move_number,
                ..
            } => format!("repeat:{}:{move_number}", side(s)),
            Deadline::FirstMoveQuery { .. } => "first_move_query".to_owned(),
            Deadline::Warning {
                side: s,
                move_number,
                ..
            } => format!("warning:{}:{move_number}", side(s)),
        }
    }
}

/// The last day on which a player's answer is still in time, as [`Ledger::last_day`] gives
/// it: what a letter handing the player the move names ("Ответить не позднее 20.11.2026
/// (осталось 50 дней на ходы 1–10)").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastDay {
    /// The last calendar day on which the answer is in time. When `is_end_of_play` is false
    /// the next day is the overstep day ([`Ledger::overstep_day`], the day the deadline sweep
    /// declares the overstep, 10.3.5).
    pub date: NaiveDate,
    /// Days left in the current control on `today` ([`Ledger::days_left`]): the limit less
    /// the days used, penalties included (negative once overstepped).
    pub days_left: i64,
    /// The counted moves of the current control (10.3.5), e.g. `1..=10`, `11..=20`: the
    /// player's counted moves made so far decide it. Counted moves are the game record's
    /// move numbers unless moves of the player's own accepted variant were left out (10.3.5).
    pub moves: std::ops::RangeInclusive<u32>,
    /// True when the end-of-play date (10.3.2) comes before the overstep would: `date` is
    /// then the end-of-play date and no overstep follows it (the game goes to adjudication).
    pub is_end_of_play: bool,
}

/// One game's clock (10.3, 10.4): the settings, the start and end-of-play dates, each
/// player's own start, every move of both players with its dates, the penalties and both
/// players' breaks.
///
/// A new ledger waits for white's first move, received on the start date (10.3.2). Then the
/// `game` module records each move: [`Ledger::answer`] when a player's letter makes a move,
/// [`Ledger::receive`] when the move is forwarded to the partner, [`Ledger::record_move`]
/// for moves with no thinking time of their own (forced or variant moves).
///
/// ```
/// use chrono::NaiveDate;
/// use zaochka::clock::{Break, ClockSettings, Deadline, Ledger, Side};
/// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
/// let mut clock = Ledger::new(ClockSettings::default(), d(3, 1), d(12, 31));
/// // White's first move on the start date costs nothing (10.3.2) ...
/// assert_eq!(clock.answer(Side::White, d(3, 1)).unwrap(), 0);
/// // ... and is forwarded to black the same day.
/// clock.receive(Side::Black, 1, d(3, 1)).unwrap();
/// clock.add_break(Side::Black, Break::ordinary(d(3, 10), d(3, 19), d(3, 5))).unwrap();
/// assert_eq!(clock.running_days(Side::Black, d(3, 25)), 8 + 6);
/// // Black has 50 days for his first ten moves; the break moves the overstep by 10 days.
/// assert_eq!(clock.overstep_day(Side::Black), Some(d(5, 1)));
/// assert_eq!(
///     clock.upcoming(d(3, 25)),
///     Some(Deadline::Repeat { side: Side::Black, move_number: 1, forwarded: d(3, 1), day: d(4, 20) })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    /// The tournament's clock settings.
    pub settings: ClockSettings,
    /// The start date in the start list.
    pub start: NaiveDate,
    /// The end-of-play date: no day after it is counted (10.3.2).
    pub end_of_play: NaiveDate,
    /// Each player's own start: the start date, or the day after the start list was sent when
    /// that was after the start date (10.3.2). No day before it is counted for that player.
    pub starts: PerSide<NaiveDate>,
    /// The day each player's start list was sent, when known: the first of the three dates
    /// of the first mover's first move (10.3.1, 10.3.2).
    #[serde(default)]
    pub start_lists_sent: PerSide<Option<NaiveDate>>,
    /// Every move of both players in order, the pending one (if any) last.
    pub answers: Vec<Answer>,
    /// Penalties and days given back.
    pub penalties: Vec<Penalty>,
    /// Each player's breaks (10.4), as recorded for this game.
    pub breaks: PerSide<Vec<Break>>,
    /// Stops of play while the arbiter decides an overstep (10.3.6: "до решения главного
    /// судьи игра приостанавливается"); no clock runs on their days.
    #[serde(default)]
    pub suspensions: Vec<Suspension>,
    /// Days each player used before the game came to zaochka (`import pdn`): his thinking
    /// days and his penalty days as the players' letters gave them ("Время: 12/20"). They
    /// count in every total as if they were answers and penalties of this ledger.
    #[serde(default)]
    pub carried: PerSide<Carried>,
}

/// Days a player used before the game came to zaochka (`import pdn`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    /// Thinking days.
    pub days: i64,
    /// Penalty days (days given back subtracted).
    pub penalty_days: i64,
}

impl Carried {
    /// Thinking and penalty days together.
    #[must_use]
    pub fn total(self) -> i64 {
        self.days + self.penalty_days
    }
}

/// A stop of the game's clocks: from the day after the overstep was declared until the day
/// play resumed (10.3.6, 10.3.7). Open while `resumed` is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suspension {
    /// The day play was suspended (the overstep day); it still counts.
    pub suspended: NaiveDate,
    /// The day play resumed; clocks run again from the next day.
    pub resumed: Option<NaiveDate>,
}

impl Suspension {
    /// The days on which no clock runs: the day after the suspension to the day of the
    /// resumption (for an open one, to the end of the calendar).
    #[must_use]
    pub fn days(&self) -> Option<DateRange> {
        let from = self.suspended.succ_opt()?;
        let range = DateRange::new(from, self.resumed.unwrap_or(NaiveDate::MAX));
        (!range.is_empty()).then_some(range)
    }
}

/// A player's own start when his start list was sent on `sent_on` (10.3.2): the start date,
/// or the day after the list when it went out after the start date.
pub fn own_start(start: NaiveDate, sent_on: NaiveDate) -> NaiveDate {
    if sent_on > start {
        sent_on.succ_opt().unwrap_or(sent_on)
    } else {
        start
    }
}

impl Ledger {
    /// A game's clock at the start: white's first move is pending, received on the start date
    /// (10.3.2).
    #[must_use]
    pub fn new(settings: ClockSettings, start: NaiveDate, end_of_play: NaiveDate) -> Self {
        Ledger {
            settings,
            start,
            end_of_play,
            starts: PerSide::both(start),
            start_lists_sent: PerSide::default(),
            answers: vec![Answer {
                side: Side::White,
                move_number: 1,
                received: start,
                answered: None,
                is_counted: true,
            }],
            penalties: Vec::new(),
            breaks: PerSide::default(),
            suspensions: Vec::new(),
            carried: PerSide::default(),
        }
    }

    /// Records the day the start list was sent to a player: sent after the start date, the
    /// player's own start is the day after it (10.3.2); for the first mover this is also the
    /// day the first move counts as received, and the day sent is its first date (10.3.1).
    pub fn start_list_sent(&mut self, side: Side, sent_on: NaiveDate) {
        let own = own_start(self.start, sent_on);
        self.starts[side] = own;
        self.start_lists_sent[side] = Some(sent_on);
        if let [first] = &mut self.answers[..]
            && first.side == side
        {
            first.received = own;
        }
    }

    /// The days on which no clock of this game runs: the effective days of both players'
    /// breaks (10.4.2) and the days play was suspended (10.3.6).
    #[must_use]
    pub fn off_days(&self) -> Vec<DateRange> {
        self.breaks
            .white
            .iter()
            .chain(&self.breaks.black)
            .filter_map(Break::effective)
            .chain(self.suspensions.iter().filter_map(Suspension::days))
            .collect()
    }

    /// Suspends play on `on`, the day an overstep is declared (10.3.6): from the next day no
    /// clock runs and no deadline falls until [`Ledger::resume`]. Suspending a suspended game
    /// changes nothing.
    pub fn suspend(&mut self, on: NaiveDate) {
        if !self.is_suspended() {
            self.suspensions.push(Suspension {
                suspended: on,
                resumed: None,
            });
        }
    }

    /// Resumes play on `on` (the arbiter found no overstep, 10.3.7): clocks run again from the
    /// next day. Give the player days back with a negative [`Penalty`] where the arbiter says
    /// so, or the overstep is due again at once.
    ///
    /// # Errors
    /// [`ClockError::NotSuspended`] if play is not suspended.
    pub fn resume(&mut self, on: NaiveDate) -> Result<(), ClockError> {
        let open = self
            .suspensions
            .iter_mut()
            .find(|s| s.resumed.is_none())
            .ok_or(ClockError::NotSuspended)?;
        open.resumed = Some(on.max(open.suspended));
        Ok(())
    }

    /// Whether play is suspended (an overstep before the arbiter).
    #[must_use]
    pub fn is_suspended(&self) -> bool {
        self.suspensions.iter().any(|s| s.resumed.is_none())
    }

    /// Adds a player's break to this game after checking it against the player's breaks
    /// already recorded here (see [`check_break`]). Checking against the player's breaks in
    /// other games is the tournament's job.
    ///
    /// # Errors
    /// [`ClockError::Break`] when the break is refused.
    pub fn add_break(&mut self, side: Side, brk: Break) -> Result<(), ClockError> {
        check_break(&brk, &self.breaks[side], &self.settings)?;
        self.breaks[side].push(brk);
        Ok(())
    }

    /// The pending answer, if any.
    #[must_use]
    pub fn pending(&self) -> Option<&Answer> {
        self.answers.iter().rev().find(|a| a.answered.is_none())
    }

    /// A move was forwarded to `side` on `on`: its answer, move `move_number`, is now pending.
    ///
    /// # Errors
    /// [`ClockError::AlreadyPending`] if another answer is pending.
    pub fn receive(
        &mut self,
        side: Side,
        move_number: u32,
        on: NaiveDate,
    ) -> Result<(), ClockError> {
        if let Some(p) = self.pending() {
            return Err(ClockError::AlreadyPending {
                side,
                pending: p.side,
                move_number: p.move_number,
            });
        }
        self.answers.push(Answer {
            side,
            move_number,
            received: on,
            answered: None,
            is_counted: true,
        });
        Ok(())
    }

    /// `side` answered on `on`: the pending move is made. Returns its thinking days.
    ///
    /// # Errors
    /// [`ClockError::NothingPending`] if no answer of `side` is pending.
    pub fn answer(&mut self, side: Side, on: NaiveDate) -> Result<u32, ClockError> {
        let off = self.off_days();
        let start = self.starts[side];
        let end = self.end_of_play;
        let pending = self
            .answers
            .iter_mut()
            .rev()
            .find(|a| a.answered.is_none() && a.side == side)
            .ok_or(ClockError::NothingPending { side })?;
        pending.answered = Some(on);
        Ok(answer_days(pending, start, end, &off, on))
    }

    /// A move of `side` made on `on` with no thinking time of its own: a forced move written
    /// in the same letter (10.2.4; `is_counted` true) or a move of the player's own variant
    /// accepted by the partner (10.2.13; counted only if forced, 10.3.5).
    pub fn record_move(&mut self, side: Side, move_number: u32, on: NaiveDate, is_counted: bool) {
        let row = Answer {
            side,
            move_number,
            received: on,
            answered: Some(on),
            is_counted,
        };
        // Keep the pending answer last.
        match self.answers.iter().rposition(|a| a.answered.is_none()) {
            Some(i) => self.answers.insert(i, row),
            None => self.answers.push(row),
        }
    }

    /// Charges penalty days (or, negative, gives days back).
    pub fn charge(&mut self, penalty: Penalty) {
        self.penalties.push(penalty);
    }

    /// Charges the tournament's penalty days (6) under `clause` (10.2.11, 10.3.3, 10.3.7).
    pub fn charge_penalty(&mut self, side: Side, move_number: u32, on: NaiveDate, clause: &str) {
        let days = i32::try_from(self.settings.penalty_days).unwrap_or(i32::MAX);
        self.charge(Penalty {
            side,
            move_number,
            on,
            days,
            clause: clause.to_owned(),
        });
    }

    /// The thinking days of one entry, a pending one counted up to `today`: the days after
    /// its receipt (not before the player's own start) up to its answer, none after the
    /// end-of-play date, none on a break day of either player.
    #[must_use]
    pub fn days_of(&self, answer: &Answer, today: NaiveDate) -> u32 {
        answer_days(
            answer,
            self.starts[answer.side],
            self.end_of_play,
            &self.off_days(),
            today,
        )
    }

    /// The running days of `side`'s pending answer at `today` (0 when none is pending).
    #[must_use]
    pub fn running_days(&self, side: Side, today: NaiveDate) -> u32 {
        self.pending()
            .filter(|p| p.side == side)
            .map_or(0, |p| self.days_of(p, today))
    }

    /// All thinking days of `side` at `today`, the pending answer's running days included.
    #[must_use]
    pub fn thinking_total(&self, side: Side, today: NaiveDate) -> i64 {
        let off = self.off_days();
        self.answers
            .iter()
            .filter(|a| a.side == side)
            .map(|a| {
                i64::from(answer_days(
                    a,
                    self.starts[side],
                    self.end_of_play,
                    &off,
                    today,
                ))
            })
            .sum::<i64>()
            + self.carried[side].days
    }

    /// The penalty days of `side` (days given back subtracted), those carried in included.
    #[must_use]
    pub fn penalty_days(&self, side: Side) -> i64 {
        self.penalties
            .iter()
            .filter(|p| p.side == side)
            .map(|p| i64::from(p.days))
            .sum::<i64>()
            + self.carried[side].penalty_days
    }

    /// The days `side` has used at `today`: thinking days (the pending answer's included) plus
    /// penalty days.
    #[must_use]
    pub fn total(&self, side: Side, today: NaiveDate) -> i64 {
        self.thinking_total(side, today) + self.penalty_days(side)
    }

    /// The moves of `side` that count for the limit (10.3.5).
    #[must_use]
    pub fn counted_moves(&self, side: Side) -> u32 {
        let n = self
            .answers
            .iter()
            .filter(|a| a.side == side && a.is_counted && a.answered.is_some())
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// The most days `side` may use now: 50 × (⌊m/10⌋ + 1) for m counted moves (10.3.5).
    #[must_use]
    pub fn limit(&self, side: Side) -> i64 {
        self.settings.limit(self.counted_moves(side))
    }

    /// Days `side` has left at `today` before overstepping (negative once overstepped).
    #[must_use]
    pub fn days_left(&self, side: Side, today: NaiveDate) -> i64 {
        self.limit(side) - self.total(side, today)
    }

    /// Whether `side` has overstepped on or before `today` (10.3.5; see
    /// [`Ledger::overstep_day`]).
    #[must_use]
    pub fn is_overstepped(&self, side: Side, today: NaiveDate) -> bool {
        self.overstep_day(side).is_some_and(|day| day <= today)
    }

    /// The last day something happened on `side`'s clock: its own start, the receipt of its
    /// pending move, its last answer, its last penalty, the last resumption of play.
    /// Deadlines fall on or after it.
    fn last_event(&self, side: Side) -> NaiveDate {
        let mut last = self.starts[side];
        for a in self.answers.iter().filter(|a| a.side == side) {
            last = last.max(a.answered.unwrap_or(a.received));
        }
        for p in self.penalties.iter().filter(|p| p.side == side) {
            last = last.max(p.on);
        }
        for resumed in self.suspensions.iter().filter_map(|s| s.resumed) {
            last = last.max(resumed);
        }
        last
    }

    /// Days used by `side` in finished answers, plus penalties.
    fn base(&self, side: Side) -> i64 {
        let off = self.off_days();
        let finished: i64 = self
            .answers
            .iter()
            .filter(|a| a.side == side)
            .filter_map(|a| {
                a.answered.map(|on| {
                    i64::from(answer_days(
                        a,
                        self.starts[side],
                        self.end_of_play,
                        &off,
                        on,
                    ))
                })
            })
            .sum();
        finished + self.carried[side].days + self.penalty_days(side)
    }

    /// The pending answer of `side` and the day its thinking days start (receipt, not before
    /// the player's own start).
    fn pending_of(&self, side: Side) -> Option<(&Answer, NaiveDate)> {
        self.pending()
            .filter(|p| p.side == side)
            .map(|p| (p, p.received.max(self.starts[side])))
    }

    /// The total of `side` as it stood on `day`: the thinking days of every move up to its
    /// answer or `day`, whichever is earlier, plus the penalties charged on or before `day`.
    #[must_use]
    pub fn total_on(&self, side: Side, day: NaiveDate) -> i64 {
        let off = self.off_days();
        let start = self.starts[side];
        let thinking: i64 = self
            .answers
            .iter()
            .filter(|a| a.side == side)
            .map(|a| {
                let from = a.received.max(start);
                let to = a
                    .answered
                    .map_or(day, |on| on.min(day))
                    .min(self.end_of_play);
                i64::from(thinking_days(from, to, &off))
            })
            .sum();
        let penalties: i64 = self
            .penalties
            .iter()
            .filter(|p| p.side == side && p.on <= day)
            .map(|p| i64::from(p.days))
            .sum();
        thinking + penalties + self.carried[side].total()
    }

    /// The limit that applied to `side` on `day`: from the counted moves made before that day
    /// (a move made on `day` itself still answers to the old limit: the tenth move made on
    /// the 51st day is an overstep, 10.3.5).
    #[must_use]
    pub fn limit_on(&self, side: Side, day: NaiveDate) -> i64 {
        let made = self
            .answers
            .iter()
            .filter(|a| a.side == side && a.is_counted && a.answered.is_some_and(|on| on < day))
            .count();
        self.settings.limit(u32::try_from(made).unwrap_or(u32::MAX))
    }

    /// The day play last resumed after a suspension, or the start of `side`: an overstep
    /// before it has been dealt with by the arbiter.
    fn clock_cleared(&self, side: Side) -> NaiveDate {
        self.suspensions
            .iter()
            .filter_map(|s| s.resumed)
            .fold(self.starts[side], NaiveDate::max)
    }

    /// The first day on which `side`'s total exceeded the limit that applied that day
    /// ([`Ledger::total_on`] > [`Ledger::limit_on`], 10.3.5), counting from the player's
    /// start or the last resumption of play, and — when it has not happened yet — the day it
    /// will happen if no answer comes. Breaks of both players are skipped; nothing after the
    /// end-of-play date counts (after it the game goes to adjudication, 10.5.2). `None` if
    /// that never happens.
    ///
    /// An answer that came after the overstep day does not undo the overstep: the tenth move
    /// made on the 51st day oversteps on the 51st day, though the limit is 100 afterwards.
    #[must_use]
    pub fn overstep_day(&self, side: Side) -> Option<NaiveDate> {
        let from = self.clock_cleared(side);
        let end = self.end_of_play;
        if from > end {
            return None;
        }
        let start = self.starts[side];
        let off = merge(&self.off_days());
        // Each move of the side: when its days start, its answer, whether it counts.
        let moves: Vec<(NaiveDate, Option<NaiveDate>, bool)> = self
            .answers
            .iter()
            .filter(|a| a.side == side)
            .map(|a| (a.received.max(start), a.answered, a.is_counted))
            .collect();
        // Answered moves by answer day, with their full days; penalties by day.
        let mut answered: Vec<(NaiveDate, i64, bool)> = moves
            .iter()
            .filter_map(|&(r, a, counted)| {
                a.map(|a| (a, i64::from(days_outside(r, a.min(end), &off)), counted))
            })
            .collect();
        answered.sort_by_key(|&(a, _, _)| a);
        let mut penalties: Vec<(NaiveDate, i64)> = self
            .penalties
            .iter()
            .filter(|p| p.side == side)
            .map(|p| (p.on, i64::from(p.days)))
            .collect();
        penalties.sort_by_key(|&(on, _)| on);
        // The days on which the total or the limit changes other than by one more thinking
        // day: the first day of each move's thinking, the day after each answer (the limit
        // grows), each penalty.
        let mut points = vec![from];
        for &(r, a, _) in &moves {
            points.extend(r.succ_opt());
            points.extend(a.and_then(|on| on.succ_opt()));
        }
        points.extend(penalties.iter().map(|&(on, _)| on));
        points.retain(|d| from <= *d && *d <= end);
        points.sort();
        points.dedup();
        // Walk the points in order, keeping `total_on` and `limit_on` of each as running sums.
        let (mut next_answer, mut next_penalty) = (0, 0);
        let carried = self.carried[side];
        let (mut finished_days, mut made, mut penalty_days) =
            (carried.days, 0u32, carried.penalty_days);
        let mut next_made = 0;
        for (k, &s) in points.iter().enumerate() {
            // Moves answered on or before `s` count in full; those before `s` raise the limit.
            while next_answer < answered.len() && answered[next_answer].0 <= s {
                finished_days += answered[next_answer].1;
                next_answer += 1;
            }
            while next_made < answered.len() && answered[next_made].0 < s {
                made += u32::from(answered[next_made].2);
                next_made += 1;
            }
            while next_penalty < penalties.len() && penalties[next_penalty].0 <= s {
                penalty_days += penalties[next_penalty].1;
                next_penalty += 1;
            }
            // The move being thought over on `s`, if any (one at a time).
            let thinking = moves
                .iter()
                .find(|&&(r, a, _)| r < s && a.is_none_or(|on| on > s));
            let running = thinking.map_or(0, |&(r, _, _)| i64::from(days_outside(r, s, &off)));
            let total = finished_days + running + penalty_days;
            let limit = self.settings.limit(made);
            if total > limit {
                return Some(s);
            }
            // Within the segment only a move being thought over adds days.
            let last = points
                .get(k + 1)
                .and_then(|next| next.pred_opt())
                .unwrap_or(end);
            let is_thinking = moves
                .iter()
                .any(|&(r, a, _)| r <= s && a.is_none_or(|on| on > s));
            if is_thinking {
                let need = u32::try_from(limit - total + 1).ok()?;
                let day = nth_thinking_day(s, need, &off)?;
                if day <= last {
                    return Some(day);
                }
            }
        }
        None
    }

    /// The last day on which `side`'s pending answer is still in time: the day before
    /// [`Ledger::overstep_day`] (so the very rule the deadline sweep declares the overstep
    /// by, 10.3.5: thinking days from the receipt, breaks of both players skipped, penalties
    /// and days given back counted, the limit of the current control), or the end-of-play
    /// date when that comes first (10.3.2).
    ///
    /// `today` is the day the letter goes out; it decides only [`LastDay::days_left`].
    ///
    /// `None` when `side` is not to move (no answer of his is pending) or play is suspended
    /// (an overstep before the arbiter, 10.3.6). If the overstep is already past (`today` on
    /// or after the overstep day), `date` is before `today` and `days_left` is negative.
    ///
    /// Stable API: the office and the importer call it for every letter that hands a player
    /// the move (start list, forward, repeat, break end, ruling, import).
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use zaochka::clock::{ClockSettings, Ledger, Side};
    /// let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
    /// let clock = Ledger::new(ClockSettings::default(), d(3, 1), d(12, 31));
    /// let last = clock.last_day(Side::White, d(3, 1)).unwrap();
    /// // 50 days from 01.03: the answer of 20.04 is in time, 21.04 is the overstep day.
    /// assert_eq!(last.date, d(4, 20));
    /// assert_eq!(last.days_left, 50);
    /// assert_eq!(last.moves, 1..=10);
    /// assert_eq!(clock.overstep_day(Side::White), Some(d(4, 21)));
    /// assert_eq!(clock.last_day(Side::Black, d(3, 1)), None);
    /// ```
    #[must_use]
    pub fn last_day(&self, side: Side, today: NaiveDate) -> Option<LastDay> {
        self.pending().filter(|p| p.side == side)?;
        if self.is_suspended() {
            return None;
        }
        let (date, is_end_of_play) = match self.overstep_day(side) {
            Some(day) => (day.pred_opt()?, false),
            None => (self.end_of_play, true),
        };
        let period = self.settings.moves_per_period.max(1);
        let first = self.counted_moves(side) / period * period + 1;
        Some(LastDay {
            date,
            days_left: self.days_left(side, today),
            moves: first..=first.saturating_add(period - 1),
            is_end_of_play,
        })
    }

    /// The move `side` was thinking over on `day` (or made last before it).
    fn move_on(&self, side: Side, day: NaiveDate) -> u32 {
        let start = self.starts[side];
        self.answers
            .iter()
            .filter(|a| a.side == side && a.received.max(start) < day)
            .find(|a| a.answered.is_none_or(|on| on >= day))
            .or_else(|| {
                self.answers
                    .iter()
                    .rev()
                    .find(|a| a.side == side && a.received <= day)
            })
            .map_or(1, |a| a.move_number)
    }

    /// The first day, from the last event on `side`'s clock on, with `warning_days_left` (7)
    /// or fewer days left while `side`'s answer is pending, and the days left that day.
    fn warning(&self, side: Side) -> Option<(NaiveDate, i64)> {
        let (pending, counting_from) = self.pending_of(side)?;
        let from = self.last_event(side);
        let base = self.base(side);
        let limit = self.limit(side);
        let need = limit - i64::from(self.settings.warning_days_left) - base;
        let day = if need <= 0 {
            from
        } else {
            nth_thinking_day(counting_from, u32::try_from(need).ok()?, &self.off_days())?.max(from)
        };
        if day > self.end_of_play {
            return None;
        }
        let left = limit - base - i64::from(self.days_of(pending, day));
        (left >= 0).then_some((day, left))
    }

    /// Every deadline of the game's present state, in order of day (ties: overstep, repeat,
    /// query, warning). Days already past are included: the caller fires each due one it has
    /// not fired yet (see [`Deadline::key`]), so a daemon that was down for weeks catches up.
    ///
    /// - Overstep: [`Ledger::overstep_day`] for both players (a penalty may push the player
    ///   who is not to move over the limit).
    /// - Repeat: `repeat_after_days` (40) days after the awaited move was forwarded (10.3.4).
    /// - First-move query: `first_move_query_after_days` (30) days after white's own start,
    ///   while white's first move is awaited (10.3.4).
    /// - Warning: the first day with `warning_days_left` (7) or fewer days left, if before the
    ///   overstep day.
    ///
    /// The 40- and 30-day waits are counted like thinking days: a break day of either player
    /// does not count (nobody is expected to answer during a break, and a repeat or query
    /// then would only cross the partner's own break notice). None falls after the
    /// end-of-play date, when nobody need answer any more (10.3.2).
    #[must_use]
    pub fn deadlines(&self) -> Vec<Deadline> {
        let mut out = Vec::new();
        let off = self.off_days();
        let oversteps = PerSide {
            white: self.overstep_day(Side::White),
            black: self.overstep_day(Side::Black),
        };
        for side in [Side::White, Side::Black] {
            if let Some(day) = oversteps[side] {
                let move_number = self.move_on(side, day);
                out.push(Deadline::Overstep {
                    side,
                    move_number,
                    day,
                });
            }
        }
        if let Some(pending) = self.pending() {
            let side = pending.side;
            let is_first_move = side == Side::White
                && pending.move_number == 1
                && !self.answers.iter().any(|a| a.answered.is_some());
            let counting_from = pending.received.max(self.starts[side]);
            if is_first_move {
                if let Some(day) = nth_thinking_day(
                    self.starts.white,
                    self.settings.first_move_query_after_days,
                    &off,
                )
                .filter(|d| *d <= self.end_of_play)
                {
                    out.push(Deadline::FirstMoveQuery { day });
                }
            } else if let Some(day) =
                nth_thinking_day(counting_from, self.settings.repeat_after_days, &off)
                    .filter(|d| *d <= self.end_of_play)
            {
                out.push(Deadline::Repeat {
                    side,
                    move_number: pending.move_number,
                    forwarded: pending.received,
                    day,
                });
            }
            if let Some((day, days_left)) = self.warning(side) {
                let before_overstep = oversteps[side].is_none_or(|o| day < o);
                if before_overstep {
                    out.push(Deadline::Warning {
                        side,
                        move_number: pending.move_number,
                        days_left,
                        day,
                    });
                }
            }
        }
        let rank = |d: &Deadline| match d {
            Deadline::Overstep { .. } => 0,
            Deadline::Repeat { .. } => 1,
            Deadline::FirstMoveQuery { .. } => 2,
            Deadline::Warning { .. } => 3,
        };
        out.sort_by_key(|d| (d.day(), rank(d)));
        out
    }

    /// The earliest deadline of the present state (it may have fired already: see
    /// [`Ledger::upcoming`]).
    #[must_use]
    pub fn next_deadline(&self) -> Option<Deadline> {
        self.deadlines().into_iter().next()
    }

    /// The first deadline after `day` (the last day the caller swept), so the daemon can sleep
    /// until it.
    #[must_use]
    pub fn upcoming(&self, day: NaiveDate) -> Option<Deadline> {
        self.deadlines().into_iter().find(|d| d.day() > day)
    }

    /// The deadlines due on or before `today` (the caller skips those it already fired).
    #[must_use]
    pub fn due(&self, today: NaiveDate) -> Vec<Deadline> {
        self.deadlines()
            .into_iter()
            .filter(|d| d.day() <= today)
            .collect()
    }
}

/// Thinking days of an entry: from its receipt (not before the player's `start`) to its
/// answer (or `today` while pending), none after `end`, none on an `off` day.
fn answer_days(
    answer: &Answer,
    start: NaiveDate,
    end: NaiveDate,
    off: &[DateRange],
    today: NaiveDate,
) -> u32 {
    let from = answer.received.max(start);
    let to = answer.answered.unwrap_or(today).min(end);
    thinking_days(from, to, off)
}
