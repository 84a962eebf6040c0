//! Every kind of letter zaochka writes, in one table: its template, who gets it, what its
//! subject says, how it is threaded and what its `Auto-Submitted` says (RFC 3834). The
//! office words a letter's variables and hands it to [`super::Office::queue`] as an
//! [`Outgoing`] of one of these kinds; `queue` threads it as the kind says and refuses (in
//! tests, loudly) a letter threaded otherwise. The table is printed in `templates/README.md`,
//! kept true by a test, and every letter of the golden corpus is checked against it.

use crate::mail::mime::ParsedMail;
use crate::render::Board;
use crate::store::{GameId, LetterInId};

/// How a letter is threaded in the recipient's mail client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thread {
    /// In reply to the letter it answers (In-Reply-To and References of it):
    /// `Auto-Submitted: auto-replied` to that letter's sender.
    Answer,
    /// After the last letter sent to the same address about the same game:
    /// `Auto-Submitted: auto-generated`.
    Game,
    /// A thread of its own: `Auto-Submitted: auto-generated`.
    Own,
}

impl Thread {
    fn words(self) -> &'static str {
        match self {
            Thread::Answer => "answers the letter",
            Thread::Game => "follows the game's thread",
            Thread::Own => "its own thread",
        }
    }
}

/// One kind of letter.
#[derive(Debug, PartialEq, Eq)]
pub struct Kind {
    /// The template (`templates/<lang>/<template>.txt`), also the letter's kind in the store.
    pub template: &'static str,
    /// Who gets it.
    pub to: &'static str,
    /// What its subject names (the subject is the template's first line).
    pub subject: &'static str,
    /// How it may be threaded, in the order [`Outgoing`] tries them: it answers a letter when
    /// it is given one, else follows its game when it is about one, else starts its own.
    pub thread: &'static [Thread],
    /// It carries the board's picture (and the text diagram).
    pub board: bool,
}

use Thread::{Answer, Game, Own};

pub const START_LIST: Kind = Kind {
    template: "start_list",
    to: "each player, when the tournament starts",
    subject: "«ЗШ-2027-1: стартовый лист»",
    thread: &[Own],
    board: false,
};
pub const IMPORT_LIST: Kind = Kind {
    template: "import_list",
    to: "each player, when the tournament's running games are imported",
    subject: "«ЗШ-2027-1: партии продолжаются по электронной почте»",
    thread: &[Own],
    board: false,
};
pub const FORWARD: Kind = Kind {
    template: "forward",
    to: "the partner of the player whose move was accepted",
    subject: "«ЗШ-2027-1, партия 7: ход 12. c3-d4»",
    thread: &[Game],
    board: true,
};
pub const RECEIPT: Kind = Kind {
    template: "receipt",
    to: "the sender of an accepted move",
    subject: "«ЗШ-2027-1, партия 7: ход 12... f6-g5 принят»",
    thread: &[Answer],
    board: false,
};
pub const REJECTED: Kind = Kind {
    template: "rejected",
    to: "the sender of a move that was not accepted (10.2.9–10.2.12)",
    subject: "«ЗШ-2027-1, партия 7: письмо не принято»",
    thread: &[Answer],
    board: false,
};
pub const REPEAT: Kind = Kind {
    template: "repeat",
    to: "the player to move, 40 days after an unanswered move (10.2.13)",
    subject: "«ЗШ-2027-1, партия 7: ПОВТОР хода 12. c3-d4»",
    thread: &[Game],
    board: true,
};
pub const REPEAT_SENDER: Kind = Kind {
    template: "repeat_sender",
    to: "the player who waits, told that his move was repeated",
    subject: "«ЗШ-2027-1, партия 7: ваш ход 12. c3-d4 повторён партнёру»",
    thread: &[Game],
    board: false,
};
pub const RESULT: Kind = Kind {
    template: "result",
    to: "both players and the secretary, when a game ends",
    subject: "«ЗШ-2027-1, партия 7: 1-0»",
    thread: &[Game],
    board: true,
};
pub const WARNING: Kind = Kind {
    template: "warning",
    to: "the player to move, 7 days before the time limit",
    subject: "«ЗШ-2027-1, партия 7: до просрочки осталось 5 дней»",
    thread: &[Game],
    board: false,
};
pub const FIRST_MOVE_QUERY: Kind = Kind {
    template: "first_move_query",
    to: "both players of a game with no first move (10.2.6)",
    subject: "«ЗШ-2027-1, партия 7: нет первого хода»",
    thread: &[Game],
    board: false,
};
pub const OVERSTEP_PLAYER: Kind = Kind {
    template: "overstep_player",
    to: "both players, on the day of an overstep (10.3.6)",
    subject: "«ЗШ-2027-1, партия 7: просрочка времени — Петров Пётр»",
    thread: &[Game],
    board: false,
};
pub const OVERSTEP_ARBITER: Kind = Kind {
    template: "overstep_arbiter",
    to: "the arbiter, with the offender's letters attached (10.3.6)",
    subject: "«ЗШ-2027-1, партия 7: ПРОСРОЧКА — Петров Пётр (на решение)»",
    thread: &[Game],
    board: true,
};
pub const BREAK_NOTICE: Kind = Kind {
    template: "break_notice",
    to: "the partner in each game (its thread), the player and the secretary (10.4)",
    subject: "«ЗШ-2027-1: перерыв — Петров Пётр, 20.01.2027–31.01.2027»",
    thread: &[Game, Own],
    board: false,
};
pub const REFUSED: Kind = Kind {
    template: "refused",
    to: "the sender of a letter that cannot be taken as it is",
    subject: "«ЗШ-2027-1, партия 7: письмо не принято»",
    thread: &[Answer],
    board: false,
};
pub const NOTE: Kind = Kind {
    template: "note",
    to: "a player, the arbiter or the secretary: a short notice (a penalty, a ruling, a break, a draw, an address)",
    subject: "«ЗШ-2027-1, партия 7: штраф 6 дней белым (п. 10.3.3)»",
    thread: &[Answer, Game, Own],
    board: false,
};
pub const COMMAND_ANSWER: Kind = Kind {
    template: "command_answer",
    to: "the arbiter or the secretary who sent orders",
    subject: "«ЗШ-2027-1, партия 7 — ваши распоряжения: выполнено 1»",
    thread: &[Answer],
    board: false,
};
pub const ADJUDICATION_PACKAGE: Kind = Kind {
    template: "adjudication_package",
    to: "the arbiter, when the players' analyses are in (10.5.4)",
    subject: "«ЗШ-2027-1, партия 7: на присуждение»",
    thread: &[Game],
    board: true,
};
pub const ADJUDICATION_DECISION: Kind = Kind {
    template: "adjudication_decision",
    to: "both players and the secretary (10.5.6, 10.5.7)",
    subject: "«ЗШ-2027-1, партия 7: результат присуждения 1/2-1/2»",
    thread: &[Game],
    board: false,
};
pub const PROTEST_PAPERS: Kind = Kind {
    template: "protest_papers",
    to: "the organiser and the arbiter (10.5.7), or the arbiter (10.3.6), with the letters",
    subject: "«ЗШ-2027-1, партия 7: протест на присуждение»",
    thread: &[Game],
    board: true,
};
pub const WEEKLY_DIGEST: Kind = Kind {
    template: "weekly_digest",
    to: "the secretary, on Mondays",
    subject: "«ЗШ-2027-1: ход турнира на 11.01.2027»",
    thread: &[Own],
    board: false,
};
pub const FINAL_REPORT: Kind = Kind {
    template: "final_report",
    to: "the secretary and the organiser, with the PDN file (10.1.7)",
    subject: "«ЗШ-2027-1: отчёт о турнире»",
    thread: &[Own],
    board: false,
};
pub const UNKNOWN_SENDER: Kind = Kind {
    template: "unknown_sender",
    to: "an address no tournament knows, once a day at most",
    subject: "«Ваше письмо не распознано»",
    thread: &[Answer],
    board: false,
};
pub const UNAUTHENTICATED: Kind = Kind {
    template: "unauthenticated",
    to: "a registered address whose letter was not proven, once a day at most",
    subject: "«Письмо не принято: отправитель не подтверждён»",
    thread: &[Answer],
    board: false,
};

/// Every kind, in the order of the table.
pub const ALL: &[&Kind] = &[
    &START_LIST,
    &IMPORT_LIST,
    &FORWARD,
    &RECEIPT,
    &REJECTED,
    &REPEAT,
    &REPEAT_SENDER,
    &RESULT,
    &WARNING,
    &FIRST_MOVE_QUERY,
    &OVERSTEP_PLAYER,
    &OVERSTEP_ARBITER,
    &BREAK_NOTICE,
    &REFUSED,
    &NOTE,
    &COMMAND_ANSWER,
    &ADJUDICATION_PACKAGE,
    &ADJUDICATION_DECISION,
    &PROTEST_PAPERS,
    &WEEKLY_DIGEST,
    &FINAL_REPORT,
    &UNKNOWN_SENDER,
    &UNAUTHENTICATED,
];

/// The kind of a stored letter's template name.
pub fn of_template(template: &str) -> Option<&'static Kind> {
    ALL.iter().copied().find(|k| k.template == template)
}

/// The table as `templates/README.md` prints it.
pub fn table() -> String {
    let mut s = String::from(
        "| letter | who gets it | subject, e.g. | threading | Auto-Submitted | picture |\n|---|---|---|---|---|---|\n",
    );
    for k in ALL {
        let thread: Vec<&str> = k.thread.iter().map(|t| t.words()).collect();
        let auto = if k.thread.contains(&Answer) {
            if k.thread.len() == 1 {
                "auto-replied"
            } else {
                "auto-replied when it answers, else auto-generated"
            }
        } else {
            "auto-generated"
        };
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            k.template,
            k.to,
            k.subject,
            thread.join(", else "),
            auto,
            if k.board { "yes" } else { "no" }
        ));
    }
    s
}

/// One letter to queue: its kind, its recipients (name, address), and what it is about.
pub struct Outgoing<'a> {
    pub kind: &'static Kind,
    pub to: Vec<(String, String)>,
    pub game: Option<GameId>,
    pub board: Option<&'a Board>,
    pub answering: Option<(LetterInId, &'a ParsedMail)>,
    /// (file name, content type, bytes).
    pub attachments: Vec<(String, String, Vec<u8>)>,
}

impl<'a> Outgoing<'a> {
    /// A letter of `kind` to these recipients (name, address).
    pub fn new(kind: &'static Kind, to: Vec<(String, String)>) -> Outgoing<'a> {
        Outgoing {
            kind,
            to,
            game: None,
            board: None,
            answering: None,
            attachments: Vec::new(),
        }
    }

    /// About this game.
    pub fn game(mut self, game: impl Into<Option<GameId>>) -> Outgoing<'a> {
        self.game = game.into();
        self
    }

    /// With the board's picture.
    pub fn board(mut self, board: &'a Board) -> Outgoing<'a> {
        self.board = Some(board);
        self
    }

    /// In answer to this letter (when there is one).
    pub fn answering(mut self, letter: Option<(LetterInId, &'a ParsedMail)>) -> Outgoing<'a> {
        self.answering = letter;
        self
    }

    /// With these attachments (file name, content type, bytes).
    pub fn attach(mut self, attachments: Vec<(String, String, Vec<u8>)>) -> Outgoing<'a> {
        self.attachments = attachments;
        self
    }

    /// How this letter is threaded: the first of its kind's ways it has what for.
    pub fn thread(&self) -> Thread {
        if self.answering.is_some() {
            Answer
        } else if self.game.is_some() {
            Game
        } else {
            Own
        }
    }

    /// Why this letter is not as its kind says, if it is not.
    pub fn fault(&self) -> Option<String> {
        let k = self.kind;
        let thread = self.thread();
        if !k.thread.contains(&thread) {
            return Some(format!(
                "a '{}' letter {}, which its kind does not allow",
                k.template,
                thread.words()
            ));
        }
        if self.board.is_some() != k.board {
            return Some(format!(
                "a '{}' letter {} the board, which its kind does not say",
                k.template,
                if self.board.is_some() {
                    "carries"
                } else {
                    "lacks"
                }
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(kind: &'static Kind) -> Outgoing<'static> {
        Outgoing::new(kind, vec![(String::new(), "a@b".into())])
    }

    #[test]
    fn every_template_has_one_kind_and_every_kind_a_template() {
        let mut kinds: Vec<&str> = ALL.iter().map(|k| k.template).collect();
        kinds.sort_unstable();
        let n = kinds.len();
        kinds.dedup();
        assert_eq!(kinds.len(), n, "a kind twice");
        let mut templates: Vec<&str> = crate::render::template::builtin_names().collect();
        templates.sort_unstable();
        assert_eq!(kinds, templates);
    }

    #[test]
    fn the_table_is_printed_beside_the_templates() {
        let doc = include_str!("../../templates/README.md");
        let start = doc.find("<!-- kinds -->\n").expect("the marker") + 15;
        let end = doc.find("<!-- end kinds -->").expect("the end marker");
        assert_eq!(
            &doc[start..end],
            table(),
            "templates/README.md is out of date"
        );
    }

    #[test]
    fn a_letter_threaded_or_drawn_otherwise_than_its_kind_is_a_fault() {
        let board = Board::empty(8);
        assert_eq!(one(&FORWARD).game(GameId(1)).board(&board).fault(), None);
        let own = one(&FORWARD).board(&board).fault().unwrap();
        assert!(own.contains("its own thread"), "{own}");
        let bare = one(&FORWARD).game(GameId(1)).fault().unwrap();
        assert!(bare.contains("lacks the board"), "{bare}");
        assert_eq!(one(&NOTE).fault(), None);
        assert_eq!(one(&BREAK_NOTICE).game(GameId(2)).fault(), None);
        assert!(one(&RECEIPT).game(GameId(2)).fault().is_some());
    }

    #[test]
    fn a_stored_kind_is_found_by_its_template() {
        assert_eq!(of_template("receipt"), Some(&RECEIPT));
        assert_eq!(of_template("nothing"), None);
    }
}
