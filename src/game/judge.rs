//! The judge: one letter against one game (10.2, 10.3).

use chrono::NaiveDate;

use super::board::{self, Mv, Pos, Resolved, Side};
use super::clockwork;
use super::due;
use super::model::*;
use super::submission::{DrawWord, Envelope, Submission, Written};
use crate::clock::{Claim, ClaimField, ClockSettings, Difference, ThreeDates, TimeUsed};
use crate::letter::Letter;

/// Judges one read letter (see [`judge_submission`]).
pub fn judge(
    state: &GameState,
    letter: &Letter,
    envelope: &Envelope,
    settings: &ClockSettings,
) -> Verdict {
    judge_submission(state, &Submission::from(letter), envelope, settings)
}

/// Judges one letter: is it for this game and the sender's turn, are the partner's moves
/// repeated (10.2.9), are the moves possible (10.2.10, 10.2.2), which variant part is
/// accepted (10.2.13) and which forced moves written (10.2.4), the numbering (10.2.14), the
/// proposed variants (10.2.12), the clock (10.3), draw offers, resignation and the end of the
/// game. Never fails: a player's mistake is a [`Decision::Rejected`] with notices.
pub fn judge_submission(
    state: &GameState,
    letter: &Submission,
    envelope: &Envelope,
    settings: &ClockSettings,
) -> Verdict {
    let mut j = Judge {
        st: state.clone(),
        sub: letter,
        env: envelope,
        settings,
        me: envelope.sender,
        notices: Vec::new(),
    };
    let decision = j.run();
    j.board_view(&decision);
    Verdict {
        state: j.st,
        decision,
        notices: j.notices,
    }
}

struct Judge<'a> {
    st: GameState,
    sub: &'a Submission,
    env: &'a Envelope,
    settings: &'a ClockSettings,
    me: Side,
    notices: Vec<Notice>,
}

/// A ply the letter makes, before it is stored.
struct NewPly {
    mv: Mv,
    by: Side,
    is_from_variant: bool,
    is_forced: bool,
    substituted_for: Option<String>,
    /// Index of the written move it came from (None for a variant continuation).
    written: Option<usize>,
}

enum PlyError {
    /// A move of the sender that is impossible, with no single replacement (10.2.10).
    Impossible {
        written: String,
        reason: String,
        reason_ru: String,
    },
    /// A move written for the partner that is neither their variant's nor forced (10.2.13).
    NotPartners { written: String },
}

/// A problem in both languages (the clause is not part of either text: letters cite it
/// beside the text).
fn problem(
    clause: &str,
    kind: ProblemKind,
    text: impl Into<String>,
    text_ru: impl Into<String>,
) -> Problem {
    Problem {
        clause: clause.to_string(),
        kind,
        text: text.into(),
        text_ru: Some(text_ru.into()),
    }
}

/// `"на поле c3 нет шашки (п. 10.2.10)"` → the text and `10.2.10`; `"… (10.2.2)"` too.
fn split_clause(reason: &str) -> (String, Option<String>) {
    let Some(open) = reason.rfind(" (") else {
        return (reason.to_string(), None);
    };
    let inner = reason[open + 2..].trim_end_matches(')');
    let number = inner.strip_prefix("п. ").unwrap_or(inner);
    if reason.ends_with(')')
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit() || c == '.')
    {
        (reason[..open].to_string(), Some(number.to_string()))
    } else {
        (reason.to_string(), None)
    }
}

/// Two clauses as one citation, in the rules' order: `10.2.2, 10.2.10`.
fn clauses(first: &str, second: Option<&str>) -> String {
    match second {
        Some(c) if c != first => {
            let key = |c: &str| {
                c.split('.')
                    .map(|n| n.parse::<u32>().unwrap_or(0))
                    .collect::<Vec<_>>()
            };
            if key(c) < key(first) {
                format!("{c}, {first}")
            } else {
                format!("{first}, {c}")
            }
        }
        _ => first.to_string(),
    }
}

impl Judge<'_> {
    /// `Доска: от чёрных`: the sender's diagrams of this game are drawn from that side from
    /// now on, whatever became of the rest of the letter (the wish is not a move). Said in
    /// the receipt, or else in a short note of its own; a wish already granted is not said
    /// again.
    fn board_view(&mut self, decision: &Decision) {
        let Some(from) = self.sub.board_from else {
            return;
        };
        if matches!(decision, Decision::Rejected(Reason::WrongGame))
            || self.st.board_from[self.me].unwrap_or(Side::White) == from
        {
            return;
        }
        self.st.board_from[self.me] = Some(from);
        let me = Recipient::Player(self.me);
        let (en, ru) = match from {
            Side::White => ("White's", "белых"),
            Side::Black => ("Black's", "чёрных"),
        };
        let note = problem(
            "",
            ProblemKind::BoardView,
            format!("as you asked, the diagrams of this game are drawn from {en} side from now on"),
            format!("как вы просили, диаграммы этой партии теперь рисуются со стороны {ru}"),
        );
        match self.notices.iter_mut().find_map(|n| match &mut n.kind {
            NoticeKind::Receipt { problems, .. } if n.to == me => Some(problems),
            _ => None,
        }) {
            Some(problems) => problems.push(note),
            None => self.tell(me, NoticeKind::BoardView { from }),
        }
    }

    fn day(&self) -> NaiveDate {
        self.env.received
    }

    fn tell(&mut self, to: Recipient, kind: NoticeKind) {
        self.notices.push(Notice { to, kind });
    }

    fn tell_me(&mut self, kind: NoticeKind) {
        self.tell(Recipient::Player(self.me), kind);
    }

    fn penalise(&mut self, side: Side, clause: &str, reason: &str) -> u32 {
        let days = self.settings.penalty_days;
        let move_number = self.st.number_of_ply(self.st.moves.len());
        self.st.penalties.push(Penalty {
            side,
            move_number,
            days: i32::try_from(days).unwrap_or(i32::MAX),
            clause: clause.to_string(),
            reason: reason.to_string(),
            on: self.day(),
            is_cancelled: false,
        });
        days
    }

    fn run(&mut self) -> Decision {
        if let Some(n) = self.sub.game
            && n != self.st.number
        {
            self.tell_me(NoticeKind::WrongGame { written: n });
            return Decision::Rejected(Reason::WrongGame);
        }
        // A protest goes to the arbiter whatever the game's state (10.3.8, 10.5.6).
        if let Some(text) = &self.sub.protest {
            let text = text.clone();
            self.tell(
                Recipient::Arbiter,
                NoticeKind::Protest { by: self.me, text },
            );
        }
        if self.st.result.is_some() {
            let is_bare = self.sub.moves.is_empty() && self.sub.repeated.is_empty();
            if is_bare && (self.sub.protest.is_some() || self.sub.has_other_business) {
                return Decision::NoChange;
            }
            self.tell_me(NoticeKind::NotInPlay {
                status: self.st.status.clone(),
            });
            return Decision::Rejected(Reason::NotInPlay);
        }
        // A resignation or a draw acceptance counts at any time, even after the end-of-play
        // date (10.3.2) or while an overstep is before the arbiter.
        if self.sub.is_resignation {
            self.finish(
                Score::win(self.me.other()),
                Ending::Resignation { side: self.me },
            );
            return Decision::Accepted;
        }
        let mut early_problems = Vec::new();
        if self.sub.draw == Some(DrawWord::Accept) {
            if self.st.draw_offer == Some(self.me.other()) {
                self.finish(Score::Draw, Ending::Agreement);
                return Decision::Accepted;
            }
            early_problems.push(problem(
                "10.2.3",
                ProblemKind::NoDrawOffered,
                "your partner has not offered a draw, so there is nothing to accept",
                "партнёр не предлагал ничью, поэтому принять её нельзя",
            ));
        }
        if matches!(self.st.status, Status::Suspended { .. }) {
            self.tell_me(NoticeKind::NotInPlay {
                status: self.st.status.clone(),
            });
            return Decision::Rejected(Reason::NotInPlay);
        }
        let is_bare = self.sub.moves.is_empty() && self.sub.repeated.is_empty();
        if is_bare && self.sub.has_other_business && early_problems.is_empty() {
            // A break, an analysis for adjudication (10.5.2): the tournament's business.
            return Decision::NoChange;
        }
        if self.day() > self.st.end || self.st.status == Status::Adjudication {
            self.tell_me(NoticeKind::NotInPlay {
                status: Status::Adjudication,
            });
            return Decision::Rejected(Reason::NotInPlay);
        }
        if self.sub.moves.is_empty() && self.sub.repeated.is_empty() {
            return self.without_moves(early_problems);
        }
        if self.st.side_to_move() != self.me {
            if self.sub.moves_unlabelled {
                return self.unlabelled(false);
            }
            return self.out_of_turn();
        }
        self.play_turn(early_problems)
    }

    /// Moves after a bare `Ход:` that are the sender's own only if, past any repetition of
    /// the partner's moves and moves already played, the first one is a legal move of his.
    fn is_unlabelled_own(&self, positions: &[Pos], since: usize) -> bool {
        let moves = &self.sub.moves;
        let needed = self.st.moves.len() - since;
        let from = if needed > 0
            && moves.len() >= needed
            && self.matches_history(positions, since, &moves[..needed])
        {
            needed
        } else {
            0
        };
        let from = self.history_prefix(positions, from);
        let pos = positions
            .last()
            .cloned()
            .unwrap_or_else(|| self.st.position());
        moves
            .get(from)
            .is_none_or(|w| matches!(pos.resolve(&w.text), Resolved::Legal(_)))
    }

    /// A bare `Ход:` that may not mean the sender's own move: nothing is played, no penalty;
    /// the sender is told what to write (10.2.3).
    fn unlabelled(&mut self, is_my_turn: bool) -> Decision {
        let line = self
            .sub
            .moves
            .iter()
            .map(written_number)
            .collect::<Vec<_>>()
            .join(" ");
        let (turn_en, turn_ru) = if is_my_turn {
            (
                "it is not a possible move of yours now",
                "своим ходом из этой позиции он быть не может",
            )
        } else {
            (
                "it is your partner's turn now",
                "сейчас очередь хода за партнёром",
            )
        };
        let p = problem(
            "10.2.3",
            ProblemKind::UnlabelledMoves,
            format!(
                "the line 'Move: {line}' is not read, since it does not say whose move it is, and {turn_en}. Write your own move after 'My move:' and your partner's move, repeated, after 'Your move:'"
            ),
            format!(
                "строка «Ход: {line}» не прочитана: из неё не ясно, чей это ход, а {turn_ru}. Свой ход пишите после слов «Мой ход:», а повторение хода партнёра — после слов «Ваш ход:»"
            ),
        );
        let partner_moves = self.st.new_moves_for(self.me);
        self.tell_me(NoticeKind::Refused {
            reason: Reason::NoMove,
            problems: vec![p],
            partner_moves,
            penalty_days: 0,
        });
        Decision::Rejected(Reason::NoMove)
    }

    /// A letter with no move at all: a draw offer is passed on, other business (a break, a
    /// protest, an analysis) is not the judge's; otherwise the sender is told no move was
    /// found (no penalty: nothing was played) or, out of turn, that the move is made.
    fn without_moves(&mut self, problems: Vec<Problem>) -> Decision {
        if self.sub.draw == Some(DrawWord::Offer) {
            if self.st.draw_offer != Some(self.me) {
                self.st.draw_offer = Some(self.me);
                self.tell(
                    Recipient::Player(self.me.other()),
                    NoticeKind::DrawOffered { by: self.me },
                );
            }
            return Decision::Accepted;
        }
        if !problems.is_empty() {
            // A draw accepted that nobody offered.
            self.tell_me(NoticeKind::Refused {
                reason: Reason::NoMove,
                problems,
                partner_moves: Vec::new(),
                penalty_days: 0,
            });
            return Decision::NoChange;
        }
        if self.sub.has_other_business || self.sub.protest.is_some() {
            return Decision::NoChange;
        }
        if self.st.side_to_move() != self.me {
            return self.out_of_turn();
        }
        self.no_move(problems)
    }

    /// 10.2.8: the sender's move is made; nothing in this letter can change it.
    fn out_of_turn(&mut self) -> Decision {
        let since = self.st.new_since(self.me.other());
        self.out_of_turn_since(since)
    }

    fn out_of_turn_since(&mut self, since: usize) -> Decision {
        let moves = (since..self.st.moves.len())
            .filter(|&p| self.st.moves[p].by == self.me)
            .map(|p| self.st.numbered(p))
            .collect();
        self.tell_me(NoticeKind::AlreadyMade { moves });
        Decision::NoChange
    }

    /// Whether the letter is one already played: the same reference, or own moves that are
    /// the sender's last answer again while the partner's new moves are not repeated.
    fn is_resend(&self, positions: &[Pos], since: usize) -> bool {
        let letter = &self.env.letter;
        if !letter.is_empty() && self.st.moves.iter().any(|m| &m.letter == letter) {
            return true;
        }
        let Some(last) = self.st.answers.iter().rev().find(|a| a.by == self.me) else {
            return false;
        };
        let own = &self.sub.moves;
        let is_old = !own.is_empty()
            && own.len() <= last.plies.len()
            && self.matches_history(positions, last.plies.start, own);
        is_old && self.repetition(positions, since).is_err()
    }

    fn play_turn(&mut self, mut problems: Vec<Problem>) -> Decision {
        let me = self.me;
        let positions = self.st.positions();
        let since = self.st.new_since(me);
        let now_ply = self.st.moves.len();

        // 10.2.8: the same letter again (a duplicate, a resend) after the partner answered is
        // not a new letter with a missing repetition: it changes nothing.
        if self.is_resend(&positions, since) {
            let last = self.st.answers.iter().rev().find(|a| a.by == me);
            return self.out_of_turn_since(last.map_or(0, |a| a.plies.start));
        }
        if self.sub.moves_unlabelled && !self.is_unlabelled_own(&positions, since) {
            return self.unlabelled(true);
        }

        // 10.3.5: a letter that comes after the limit ran out is not played; the game is
        // suspended for the arbiter (10.3.6), whatever else the letter says.
        let before = clockwork::ledger(&self.st, self.settings);
        if before.is_overstepped(me, self.day()) {
            let day = before
                .overstep_day(me)
                .map_or(self.day(), |d| d.min(self.day()));
            let mut notices = due::suspend(&mut self.st, me, day, self.settings);
            self.notices.append(&mut notices);
            return Decision::Rejected(Reason::Overstep);
        }

        // 10.2.9: the partner's new moves repeated.
        let (rep_start, own_from) = match self.repetition(&positions, since) {
            Ok(v) => v,
            Err(kind) => {
                let partner_moves = self.st.new_moves_for(me);
                let text = partner_moves
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ");
                let (en, ru) = match kind {
                    ProblemKind::RepetitionIncomplete => (
                        format!("your partner's moves are repeated only in part; they are: {text}"),
                        format!("ходы партнёра повторены не полностью; нужно повторить: {text}"),
                    ),
                    ProblemKind::RepetitionWrong => (
                        format!("your partner's moves are repeated wrongly; they are: {text}"),
                        format!("ходы партнёра повторены неверно; его ходы: {text}"),
                    ),
                    _ => (
                        format!("your partner's moves are not repeated; they are: {text}"),
                        format!("ходы партнёра не повторены; нужно повторить: {text}"),
                    ),
                };
                problems.push(problem("10.2.9", kind, en, ru));
                // Every error of the letter is said at once (one penalty, 10.2.11).
                let own_from = self.history_prefix(&positions, 0);
                let mut pos = positions
                    .last()
                    .cloned()
                    .unwrap_or_else(|| self.st.position());
                let written = &self.sub.moves[own_from..];
                if let (_, Some(e), _) = self.plies(&mut pos, written, now_ply) {
                    problems.push(ply_problem(e));
                }
                return self.stop("10.2.9", Reason::Repetition, problems, "moves not repeated");
            }
        };

        // Moves already played, written again at the head of the moves line (`Мой ход: 1. c3-d4
        // f6-g5` from black, the whole move pair) are the record, not new moves.
        let own_from = self.history_prefix(&positions, own_from);

        // The sender's moves: accepted variant part, forced moves of the partner, own move.
        let written = &self.sub.moves[own_from..];
        if written.is_empty() {
            return self.no_move(problems);
        }
        let mut pos = positions
            .last()
            .cloned()
            .unwrap_or_else(|| self.st.position());
        let (plies, err, ignored) = self.plies(&mut pos, written, now_ply);
        if let Some(e) = err {
            problems.push(ply_problem(e));
            return self.stop("10.2.10", Reason::Impossible, problems, "impossible move");
        }
        if plies.is_empty() || plies.last().is_some_and(|p| p.by != me) {
            // Only the partner's moves were written: the sender's own answer is missing.
            return self.no_move(problems);
        }
        if ignored > 0 {
            // After a 10.2.10 substitution, or after the move that ended the game.
            let is_substituted = plies.iter().any(|p| p.substituted_for.is_some());
            let clause = if is_substituted { "10.2.10" } else { "" };
            let (en, ru) = if is_substituted {
                (
                    format!(
                        "{} written after the replaced move not played",
                        crate::render::words::count(
                            crate::render::Lang::En,
                            ignored as i64,
                            crate::render::words::Noun::Move
                        )
                    ),
                    format!("после заменённого хода записано ходов: {ignored}; они не сделаны"),
                )
            } else {
                (
                    format!(
                        "the game ended with this move; moves written after it are not played: {ignored}"
                    ),
                    format!(
                        "этим ходом партия окончена; записанные после него ходы не сделаны: {ignored}"
                    ),
                )
            };
            problems.push(problem(clause, ProblemKind::MovesIgnored, en, ru));
        }

        let received = self.st.received_by(me);

        // 10.2.14: numbering (of the repetition and of the moves).
        problems.extend(self.numbering(rep_start, own_from, now_ply, &plies));

        // Store the plies.
        let first_new = self.st.moves.len();
        for p in &plies {
            let ply = self.st.moves.len();
            self.st.moves.push(PlayedMove {
                ply,
                by: p.by,
                text: p.mv.text(self.st.variant),
                letter: self.env.letter.clone(),
                received,
                answered: self.day(),
                is_from_variant: p.is_from_variant,
                is_forced: p.is_forced,
                substituted_for: p.substituted_for.clone(),
            });
        }
        let mut end = self.st.moves.len();
        // The partner's variant goes on by itself (10.2.8): play its next moves now.
        let continued = self.continue_variant(&mut pos, now_ply, &plies);
        for (mv, is_forced) in &continued {
            let ply = self.st.moves.len();
            self.st.moves.push(PlayedMove {
                ply,
                by: me.other(),
                text: mv.text(self.st.variant),
                letter: self.env.letter.clone(),
                received,
                answered: self.day(),
                is_from_variant: true,
                is_forced: *is_forced,
                substituted_for: None,
            });
        }
        if !continued.is_empty() {
            end = self.st.moves.len();
        }
        self.st.answers.push(Answer {
            by: me,
            letter: self.env.letter.clone(),
            received,
            answered: self.day(),
            plies: first_new..end,
        });
        // The partner's proposals are used up or lapse; the sender's old ones too.
        self.st.proposals.clear();
        self.st.status = Status::Playing;

        // Substitutions (10.2.10): both are told.
        for (i, p) in plies.iter().enumerate() {
            if let Some(w) = &p.substituted_for {
                let played = self.st.numbered(first_new + i);
                for to in [Recipient::Player(me), Recipient::Player(me.other())] {
                    self.tell(
                        to,
                        NoticeKind::Substituted {
                            written: w.clone(),
                            played: played.clone(),
                        },
                    );
                }
            }
        }

        // Dates and time (10.3.3 strict, 10.3.9 default).
        let (dates, penalty_days) = self.dates_and_times(&mut problems);
        let times = clockwork::times(&clockwork::ledger(&self.st, self.settings), self.day());

        // Draw offer, or a pending one declined by playing on.
        let is_draw_offered = self.sub.draw == Some(DrawWord::Offer);
        if self.st.draw_offer == Some(me.other()) {
            self.tell(
                Recipient::Player(me.other()),
                NoticeKind::DrawDeclined { by: me },
            );
        }
        self.st.draw_offer = is_draw_offered.then_some(me);

        // The game's end by the rules or a draw rule, after every ply.
        let (all, played) = self.st.replay();
        if let Some(winner) = all.last().and_then(Pos::winner) {
            self.send_on(
                first_new,
                end,
                dates,
                times,
                Vec::new(),
                false,
                problems.clone(),
            );
            self.finish(Score::win(winner), Ending::Rule);
            return Decision::Accepted;
        }
        let draw = all.first().and_then(|p| board::draw_by_rule(p, &played));
        if let Some((rule, rule_ru)) = draw {
            self.send_on(
                first_new,
                end,
                dates,
                times,
                Vec::new(),
                false,
                problems.clone(),
            );
            self.finish(Score::Draw, Ending::DrawRule { rule, rule_ru });
            return Decision::Accepted;
        }

        // Proposed variants (10.2.12), from the position now.
        let variants = self.variants(&all, &mut problems);
        let own: Vec<NumberedMove> = (first_new..first_new + plies.len())
            .map(|p| self.st.numbered(p))
            .collect();
        let cont: Vec<NumberedMove> = (first_new + plies.len()..end)
            .map(|p| self.st.numbered(p))
            .collect();
        self.send_on(
            first_new,
            end,
            dates,
            times,
            variants,
            is_draw_offered,
            problems.clone(),
        );
        self.tell_me(NoticeKind::Receipt {
            moves: own,
            continued: cont,
            times,
            problems,
            penalty_days,
        });
        Decision::Accepted
    }

    /// Where the sender's moves start in the moves line, from `from` on: past any moves
    /// already played written again at its head.
    fn history_prefix(&self, positions: &[Pos], from: usize) -> usize {
        let now_ply = self.st.moves.len();
        let rest = &self.sub.moves[from.min(self.sub.moves.len())..];
        let k = (1..=rest.len().min(now_ply))
            .rev()
            .find(|&k| self.matches_history(positions, now_ply - k, &rest[..k]))
            .unwrap_or(0);
        from + k
    }

    /// Checks the repetition; gives where it starts in `repeated` (or in `moves` when the
    /// moves line carries it) and where the sender's own moves start in `moves`.
    fn repetition(&self, positions: &[Pos], since: usize) -> Result<(usize, usize), ProblemKind> {
        let now = self.st.moves.len();
        let needed = now - since;
        if needed == 0 {
            return Ok((0, 0));
        }
        let rep = &self.sub.repeated;
        if rep.is_empty() {
            // No `Ваш ход` line: the moves line may begin with the repetition.
            let moves = &self.sub.moves;
            if moves.len() >= needed && self.matches_history(positions, since, &moves[..needed]) {
                return Ok((0, needed));
            }
            return Err(ProblemKind::RepetitionMissing);
        }
        if rep.len() > now {
            return Err(ProblemKind::RepetitionWrong);
        }
        let start = now - rep.len();
        if self.matches_history(positions, start, rep) {
            return if rep.len() >= needed {
                Ok((0, 0))
            } else {
                Err(ProblemKind::RepetitionIncomplete)
            };
        }
        // A repetition that stops short: the first moves right, the last missing.
        if rep.len() < needed && self.matches_history(positions, since, rep) {
            return Err(ProblemKind::RepetitionIncomplete);
        }
        Err(ProblemKind::RepetitionWrong)
    }

    fn matches_history(&self, positions: &[Pos], from: usize, written: &[Written]) -> bool {
        written.iter().enumerate().all(|(i, w)| {
            let ply = from + i;
            let (Some(pos), Some(played)) = (positions.get(ply), self.st.moves.get(ply)) else {
                return false;
            };
            matches!(pos.resolve(&w.text), Resolved::Legal(m) if m.text(self.st.variant) == played.text)
        })
    }

    /// Reads the sender's moves from the position: returns the plies, an error that stops
    /// play, and how many written moves were ignored after the game ended or a substitution.
    fn plies(
        &self,
        pos: &mut Pos,
        written: &[Written],
        now_ply: usize,
    ) -> (Vec<NewPly>, Option<PlyError>, usize) {
        let me = self.me;
        let variant = self.st.variant;
        // The partner's variants proposed for this very turn.
        let mut live: Vec<&Proposal> = self
            .st
            .proposals
            .iter()
            .filter(|p| p.by == me.other() && p.from_ply == now_ply)
            .collect();
        let mut out: Vec<NewPly> = Vec::new();
        for (i, w) in written.iter().enumerate() {
            if pos.winner().is_some() {
                return (out, None, written.len() - i);
            }
            let k = now_ply + out.len();
            let mover = pos.side_to_move();
            let is_forced = pos.is_forced();
            let resolved = pos.resolve(&w.text);
            if mover == me {
                match resolved {
                    Resolved::Legal(mv) => {
                        let text = mv.text(variant);
                        live.retain(|p| {
                            p.moves.get(k - p.from_ply).map(String::as_str) == Some(text.as_str())
                        });
                        *pos = pos.play(&mv);
                        out.push(NewPly {
                            mv,
                            by: me,
                            is_from_variant: false,
                            is_forced,
                            substituted_for: None,
                            written: Some(i),
                        });
                    }
                    Resolved::Impossible {
                        reason,
                        reason_ru,
                        single,
                    } => {
                        // 10.2.10: the named piece's only move is played in its place.
                        if let Some(mv) = single {
                            *pos = pos.play(&mv);
                            out.push(NewPly {
                                mv,
                                by: me,
                                is_from_variant: false,
                                is_forced,
                                substituted_for: Some(w.shown()),
                                written: Some(i),
                            });
                            return (out, None, written.len() - i - 1);
                        }
                        return (
                            out,
                            Some(PlyError::Impossible {
                                written: w.shown(),
                                reason,
                                reason_ru,
                            }),
                            0,
                        );
                    }
                }
            } else {
                let Resolved::Legal(mv) = resolved else {
                    return (out, Some(PlyError::NotPartners { written: w.shown() }), 0);
                };
                let text = mv.text(variant);
                let by_variant = live.iter().any(|p| {
                    p.moves.get(k - p.from_ply).map(String::as_str) == Some(text.as_str())
                });
                if !by_variant && !is_forced {
                    return (out, Some(PlyError::NotPartners { written: w.shown() }), 0);
                }
                live.retain(|p| {
                    p.moves.get(k - p.from_ply).map(String::as_str) == Some(text.as_str())
                });
                *pos = pos.play(&mv);
                out.push(NewPly {
                    mv,
                    by: me.other(),
                    is_from_variant: by_variant,
                    is_forced,
                    substituted_for: None,
                    written: Some(i),
                });
            }
        }
        (out, None, 0)
    }

    /// After the sender's last move, the partner's variant may go on: while every variant
    /// still alive agrees on the partner's next move, it is played (10.2.8).
    fn continue_variant(&self, pos: &mut Pos, now_ply: usize, plies: &[NewPly]) -> Vec<(Mv, bool)> {
        let me = self.me;
        let variant = self.st.variant;
        let mut history: Vec<String> = plies.iter().map(|p| p.mv.text(variant)).collect();
        let mut out = Vec::new();
        if plies.iter().any(|p| p.substituted_for.is_some()) {
            return out;
        }
        loop {
            if pos.side_to_move() == me || pos.winner().is_some() {
                return out;
            }
            let k = now_ply + history.len();
            let live: Vec<&Proposal> = self
                .st
                .proposals
                .iter()
                .filter(|p| {
                    p.by == me.other()
                        && p.from_ply == now_ply
                        && p.moves.len() > history.len()
                        && p.moves[..history.len()] == history[..]
                })
                .collect();
            let Some(next) = live.first().map(|p| p.moves[k - p.from_ply].clone()) else {
                return out;
            };
            if live.iter().any(|p| p.moves[k - p.from_ply] != next) {
                return out;
            }
            let Some(mv) = pos.find(&next) else {
                return out;
            };
            let is_forced = pos.is_forced();
            *pos = pos.play(&mv);
            history.push(next);
            out.push((mv, is_forced));
        }
    }

    /// 10.2.14: numbers written against the right ones; a wrong one is only pointed out.
    fn numbering(
        &self,
        rep_start: usize,
        own_from: usize,
        now_ply: usize,
        plies: &[NewPly],
    ) -> Vec<Problem> {
        let mut wrong = Vec::new();
        let check = |w: &Written, ply: usize, wrong: &mut Vec<Problem>| {
            let number = self.st.number_of_ply(ply);
            let side = self.st.side_of_ply(ply);
            let bad_number = w.number.is_some_and(|n| n != number);
            let bad_side = w.side.is_some_and(|s| s != side);
            if bad_number || bad_side {
                let right = NumberedMove {
                    number,
                    side,
                    text: w.shown(),
                    is_from_variant: false,
                    is_forced: false,
                };
                wrong.push(problem(
                    "10.2.14",
                    ProblemKind::Numbering,
                    format!(
                        "the move {} is numbered wrongly; counted as {right}",
                        written_number(w)
                    ),
                    format!(
                        "ход «{}» записан под неверным номером; засчитан как {right}",
                        written_number(w)
                    ),
                ));
            }
        };
        let rep: &[Written] = if own_from > 0 {
            &self.sub.moves[rep_start..own_from]
        } else {
            &self.sub.repeated
        };
        // A repetition longer than the game (nothing was due) has no numbers to check.
        if let Some(rep_first) = now_ply.checked_sub(rep.len()) {
            for (i, w) in rep.iter().enumerate() {
                check(w, rep_first + i, &mut wrong);
            }
        }
        for (i, p) in plies.iter().enumerate() {
            if let Some(wi) = p.written {
                check(&self.sub.moves[own_from + wi], now_ply + i, &mut wrong);
            }
        }
        wrong
    }

    /// 10.3.3 (strict) and 10.3.9 (default): the three dates and the time fraction, checked
    /// by the clock against its own; gives the clock's dates and any penalty days charged.
    fn dates_and_times(&mut self, problems: &mut Vec<Problem>) -> (ThreeDates, u32) {
        let me = self.me;
        let dates = &self.sub.dates;
        let claim = Claim {
            dates: ThreeDates {
                partner_sent: dates.first().copied(),
                received: dates.get(1).copied(),
                answered: dates.get(2).copied(),
            },
            time: self.sub.time,
        };
        // The clock as it stood when the letter came: its pending answer is this letter's,
        // with the real days it was sent and received, whatever moves of an accepted variant
        // or forced moves the letter went on to make (10.2.4, 10.2.13).
        let mut before = self.st.clone();
        if before.answers.last().is_some_and(|a| a.by == me) {
            before.answers.pop();
        }
        let l = clockwork::ledger(&before, self.settings);
        let check = l.check_claim(me, self.day(), &claim);
        let actual = check.actual.0;
        if self.settings.is_strict {
            if check.missing.is_empty() {
                self.st.dates_warned[me] = false;
                return (actual, 0);
            }
            let names = |ru: bool| {
                check
                    .missing
                    .iter()
                    .map(|f| match (f, ru) {
                        (ClaimField::PartnerSent, false) => "the first date",
                        (ClaimField::Received, false) => "the second date",
                        (ClaimField::Answered, false) => "the third date",
                        (ClaimField::Time, false) => "the time used",
                        (ClaimField::PartnerSent, true) => "первая дата",
                        (ClaimField::Received, true) => "вторая дата",
                        (ClaimField::Answered, true) => "третья дата",
                        (ClaimField::Time, true) => "затраченное время",
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            problems.push(problem(
                "10.3.3",
                ProblemKind::DatesMissing,
                format!("missing: {}", names(false)),
                format!("не указаны: {}", names(true)),
            ));
            if check
                .penalty_due(self.settings, self.st.dates_warned[me])
                .is_some()
            {
                return (
                    actual,
                    self.penalise(me, "10.3.3", "dates or time missing again"),
                );
            }
            self.st.dates_warned[me] = true;
            return (actual, 0);
        }
        // Default mode: zaochka's clock counts; a difference gets a polite correction.
        for diff in &check.differences {
            let fmt = |d: NaiveDate| d.format("%d.%m.%Y").to_string();
            let (en, ru) = match diff {
                Difference::Date {
                    field,
                    claimed,
                    actual,
                } => {
                    let (en, ru) = match field {
                        ClaimField::PartnerSent => (
                            "the date your partner sent his move",
                            "дата отправки хода партнёром",
                        ),
                        ClaimField::Received => ("the date you received it", "дата получения хода"),
                        ClaimField::Answered => ("the date of your answer", "дата вашего ответа"),
                        ClaimField::Time => ("the time used", "затраченное время"),
                    };
                    (
                        format!(
                            "{en}: you wrote {}, the tournament mailbox's clock says {}",
                            fmt(*claimed),
                            fmt(*actual)
                        ),
                        format!(
                            "{ru}: у вас {}, по часам турнирного почтамта {}",
                            fmt(*claimed),
                            fmt(*actual)
                        ),
                    )
                }
                Difference::Time { claimed, actual } => (
                    format!(
                        "the time used: you wrote {claimed}, the tournament mailbox's clock says {actual}"
                    ),
                    format!(
                        "затраченное время: у вас {claimed}, по часам турнирного почтамта {actual}"
                    ),
                ),
            };
            problems.push(problem("10.3.9", ProblemKind::DatesDiffer, en, ru));
        }
        (actual, 0)
    }

    /// Checks the proposed variants from the position now; stores each, cut at its first
    /// impossible or unreadable move (10.2.12, no penalty).
    fn variants(&mut self, positions: &[Pos], problems: &mut Vec<Problem>) -> Vec<VariantFacts> {
        let me = self.me;
        let variant = self.st.variant;
        let from_ply = self.st.moves.len();
        let mut facts = Vec::new();
        for wv in &self.sub.variants {
            let mut pos = positions
                .last()
                .cloned()
                .unwrap_or_else(|| self.st.position());
            // A variant written from the sender's own move repeats it: skip what is played.
            let mut skip = 0;
            for k in (1..=wv.moves.len().min(from_ply)).rev() {
                if self.matches_history(positions, from_ply - k, &wv.moves[..k]) {
                    skip = k;
                    break;
                }
            }
            let mut moves = Vec::new();
            let mut numbered = Vec::new();
            for w in &wv.moves[skip..] {
                let mv = match pos.resolve(&w.text) {
                    Resolved::Legal(mv) => Some(mv),
                    Resolved::Impossible { .. } => None,
                };
                let Some(mv) = mv else {
                    let is_short = matches!(w.text, Err(crate::rules::ParseMoveError::Short(_)));
                    let name = wv
                        .label
                        .clone()
                        .map(|l| format!(" {l}"))
                        .unwrap_or_default();
                    let shown = w.shown();
                    let (clause, en, ru) = if is_short {
                        (
                            "10.2.2, 10.2.12",
                            format!(
                                "variant{name} is taken only up to the move '{shown}': it is written in short notation, which counts as impossible"
                            ),
                            format!(
                                "вариант{name} принят только до хода «{shown}»: он записан сокращённо, а такой ход считается невозможным"
                            ),
                        )
                    } else {
                        (
                            "10.2.12",
                            format!(
                                "variant{name} is taken only up to the move '{shown}', which is impossible"
                            ),
                            format!(
                                "вариант{name} принят только до хода «{shown}»: этот ход невозможен"
                            ),
                        )
                    };
                    problems.push(problem(clause, ProblemKind::VariantCut, en, ru));
                    break;
                };
                let ply = from_ply + moves.len();
                let text = mv.text(variant);
                numbered.push(NumberedMove {
                    number: self.st.number_of_ply(ply),
                    side: pos.side_to_move(),
                    text: text.clone(),
                    is_from_variant: false,
                    is_forced: false,
                });
                moves.push(text);
                pos = pos.play(&mv);
                if pos.winner().is_some() {
                    break;
                }
            }
            if moves.is_empty() {
                continue;
            }
            self.st.proposals.push(Proposal {
                by: me,
                label: wv.label.clone(),
                from_ply,
                moves,
            });
            facts.push(VariantFacts {
                label: wv.label.clone(),
                moves: numbered,
            });
        }
        facts
    }

    /// Forwards the letter's moves to the partner and remembers it (10.3.4).
    #[allow(clippy::too_many_arguments)]
    fn send_on(
        &mut self,
        first: usize,
        end: usize,
        dates: ThreeDates,
        times: TimeUsed,
        variants: Vec<VariantFacts>,
        is_draw_offered: bool,
        problems: Vec<Problem>,
    ) {
        let partner = self.me.other();
        let forward = Forward {
            cipher: self.st.cipher.clone(),
            game: self.st.number,
            from: self.me,
            moves: (first..end).map(|p| self.st.numbered(p)).collect(),
            variants,
            dates,
            times,
            fen: self.st.fen(),
            is_draw_offered,
            sent_on: self.day(),
        };
        self.st.last_forward[partner] = Some(forward.clone());
        let new_moves = self.st.new_moves_for(partner);
        let problems = problems
            .into_iter()
            .filter(|p| p.kind == ProblemKind::Numbering)
            .collect();
        self.tell(
            Recipient::Player(partner),
            NoticeKind::ForwardMove {
                forward,
                new_moves,
                is_repeat: false,
                problems,
            },
        );
    }

    /// Stops play for a correction (10.2.9, 10.2.10): 6 penalty days once per letter
    /// (10.2.11); the sender's clock keeps running.
    fn stop(
        &mut self,
        clause: &str,
        reason: Reason,
        problems: Vec<Problem>,
        why: &str,
    ) -> Decision {
        let penalty_days = self.penalise(self.me, "10.2.11", &format!("{why} ({clause})"));
        self.st.status = Status::Stopped {
            side: self.me,
            clause: clause.to_string(),
            since: self.day(),
        };
        let partner_moves = self.st.new_moves_for(self.me);
        self.tell_me(NoticeKind::Refused {
            reason,
            problems,
            partner_moves,
            penalty_days,
        });
        Decision::Rejected(reason)
    }

    /// No move of the sender's in the letter: said so, nothing else changes (a draw offer
    /// alone is passed on).
    fn no_move(&mut self, problems: Vec<Problem>) -> Decision {
        let partner_moves = self.st.new_moves_for(self.me);
        self.tell_me(NoticeKind::Refused {
            reason: Reason::NoMove,
            problems,
            partner_moves,
            penalty_days: 0,
        });
        Decision::Rejected(Reason::NoMove)
    }

    /// Ends the game: both players and the secretary get the record (10.5.1).
    fn finish(&mut self, score: Score, how: Ending) {
        let result = GameResult {
            score,
            how,
            on: self.day(),
        };
        finish(&mut self.st, result, &mut self.notices);
    }
}

/// Ends a game with a result and queues the record for both players and the secretary.
pub(crate) fn finish(st: &mut GameState, result: GameResult, notices: &mut Vec<Notice>) {
    st.result = Some(result.clone());
    st.status = Status::Finished;
    st.draw_offer = None;
    st.proposals.clear();
    let record = st.record();
    let semi_short = st.semi_short();
    let fen = st.fen();
    let times = clockwork::times(&clockwork::ledger(st, &ClockSettings::default()), result.on);
    for to in [
        Recipient::Player(Side::White),
        Recipient::Player(Side::Black),
        Recipient::Secretary,
    ] {
        notices.push(Notice {
            to,
            kind: NoticeKind::GameOver {
                result: result.clone(),
                record: record.clone(),
                semi_short: semi_short.clone(),
                fen: fen.clone(),
                times,
            },
        });
    }
}

/// The problem a move error makes (10.2.10, 10.2.13), in English and Russian.
fn ply_problem(e: PlyError) -> Problem {
    let (kind, clause, text, reason, reason_ru) = match e {
        PlyError::Impossible {
            written,
            reason,
            reason_ru,
        } => (
            ProblemKind::ImpossibleMove,
            "10.2.10",
            written,
            reason,
            reason_ru,
        ),
        PlyError::NotPartners { written } => (
            ProblemKind::NotPartnersMove,
            "10.2.13",
            written,
            "not a move of the partner's variant, nor forced (10.2.13)".to_string(),
            "это не ход из варианта партнёра и не вынужденный ход (п. 10.2.13)".to_string(),
        ),
    };
    // The reason may name its own clause ("… (п. 10.2.2)"): cite it once, with the
    // problem's, rather than twice in a row.
    let (reason, inner) = split_clause(&reason);
    let (reason_ru, _) = split_clause(&reason_ru);
    problem(
        &clauses(clause, inner.as_deref()),
        kind,
        format!("{text}: {reason}"),
        format!("«{text}»: {reason_ru}"),
    )
}

fn written_number(w: &Written) -> String {
    match (w.number, w.side) {
        (Some(n), Some(Side::Black)) => format!("{n}... {}", w.shown()),
        (Some(n), _) => format!("{n}. {}", w.shown()),
        (None, _) => w.shown(),
    }
}
