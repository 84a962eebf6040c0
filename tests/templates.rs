//! Templates (golden): every outgoing letter, rendered with a fixed date and fixed ids, is
//! compared byte for byte (line ends aside) with `tests/data/templates/<template>.<lang>__<case>.eml`
//! (regenerate with `UPDATE_EXPECT=1`, then read the diff), and parsed back with mail-parser
//! to check its headers and the facts a reader needs.

use std::time::{Duration, SystemTime};

use expect_test::expect_file;
use serde::Serialize;
use zaochka::render::letters::*;
use zaochka::render::mime::Envelope;
use zaochka::render::{Board, Lang, Man, Templates};

fn header(lang: Lang) -> GameHeader {
    GameHeader {
        to_name: match lang {
            Lang::Ru => "Петров Пётр".into(),
            Lang::En => "Peter Petrov".into(),
        },
        cipher: "ЗШ-2026-1".into(),
        tournament: "Кубок зимы".into(),
        game_no: 7,
        white: "Иванов Иван".into(),
        black: "Петров Пётр".into(),
        federation: "Федерация заочных шашек".into(),
    }
}

fn dates() -> Dates {
    Dates {
        sent_to_sender: "01.12.2026".into(),
        received: "02.12.2026".into(),
        answered: "05.12.2026".into(),
        time_white: 23,
        time_black: 17,
    }
}

fn board() -> Board {
    let mut b = Board::empty(8);
    b.put(
        5,
        2,
        Man {
            is_white: true,
            is_king: false,
        },
    );
    b.put(
        2,
        5,
        Man {
            is_white: false,
            is_king: false,
        },
    );
    b.put(
        0,
        1,
        Man {
            is_white: false,
            is_king: true,
        },
    );
    b
}

fn envelope(name: &str) -> Envelope {
    Envelope {
        from: "ЗШ почтамт <zaochka@tournament.test>".parse().unwrap(),
        to: vec!["Петров Пётр <bob@players.test>".parse().unwrap()],
        cc: vec![],
        subject: String::new(),
        message_id: format!("{name}.1@tournament.test"),
        in_reply_to: Some("letter-1@players.test".into()),
        references: vec!["letter-1@players.test".into()],
        date: SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_454_000),
        is_answer: true,
    }
}

/// Renders one case, compares it with its golden file, parses it back and returns the
/// subject and the plain text for the caller's own checks.
fn case(
    name: &str,
    lang: Lang,
    case: &str,
    ctx: &impl Serialize,
    with_board: bool,
) -> (String, String) {
    let b = board();
    let (subject, raw) = compose(
        &Templates::builtin(),
        lang,
        name,
        ctx,
        with_board.then_some(&b),
        envelope(name),
        vec![],
    )
    .unwrap();
    let text = String::from_utf8(raw.clone()).unwrap();
    assert!(
        !text.replace("\r\n", "").contains('\n'),
        "every line ends in CRLF (RFC 5322)"
    );
    // The golden files keep LF line ends, so that git and editors leave them alone.
    let text = text.replace("\r\n", "\n");
    expect_file![format!("data/templates/{name}.{}__{case}.eml", lang.code())].assert_eq(&text);

    let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
    assert_eq!(msg.subject(), Some(subject.as_str()));
    assert_eq!(
        msg.message_id(),
        Some(format!("{name}.1@tournament.test").as_str())
    );
    assert_eq!(msg.in_reply_to().as_text(), Some("letter-1@players.test"));
    assert_eq!(
        msg.header("Auto-Submitted").unwrap().as_text(),
        Some("auto-replied")
    );
    assert_eq!(
        msg.to().unwrap().first().unwrap().address(),
        Some("bob@players.test")
    );
    let body = msg.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(
        !body.contains("{{") && !body.contains("{%"),
        "template syntax leaked: {body}"
    );
    let html = msg.body_html(0).unwrap().to_string();
    assert_eq!(html.contains("cid:board@zaochka"), with_board, "{html}");
    (subject, body)
}

#[test]
fn forward_carries_everything_10_2_3_asks_for() {
    for lang in [Lang::Ru, Lang::En] {
        let ctx = Forward {
            game: header(lang),
            repeated: "12. c3-d4".into(),
            accepted: "12... f6-g5 13. g3-h4".into(),
            moves: "13... g5:e3".into(),
            variants: vec![VariantLine {
                label: "А".into(),
                moves: "14. f2:d4 b6-a5".into(),
            }],
            dates: dates(),
            draw_offer: true,
            notes: vec!["13... renumbered (10.2.14)".into()],
            sender_words: "Удачи!".into(),
            last_day: Some(LastDay {
                date: "26.01.2027".into(),
                days_left: 31,
                moves: "11\u{2013}20".into(),
                is_end_of_play: false,
            }),
        };
        let (subject, body) = case("forward", lang, "full", &ctx, true);
        assert!(
            subject.contains("ЗШ-2026-1") && subject.contains("13... g5:e3"),
            "{subject}"
        );
        for fact in [
            "ЗШ-2026-1",
            "12. c3-d4",
            "12... f6-g5 13. g3-h4",
            "13... g5:e3",
            "14. f2:d4 b6-a5",
            "01.12.2026 / 02.12.2026 / 05.12.2026",
            "23/17",
            "Удачи!",
            "26.01.2027",
            "11–20",
        ] {
            assert!(body.contains(fact), "{lang:?} lacks {fact}: {body}");
        }
        // The diagram's letters are the letter's language's, with a legend.
        let (king, legend) = match lang {
            Lang::Ru => (" 8 |   Ч   .", "ч — чёрная шашка"),
            Lang::En => (" 8 |   B   .", "b — Black man"),
        };
        for fact in [king, legend] {
            assert!(body.contains(fact), "{lang:?} lacks {fact}: {body}");
        }
    }
}

#[test]
fn receipt_and_rejection_name_the_moves_and_the_clause() {
    let r = Receipt {
        game: header(Lang::Ru),
        moves: "13... g5:e3".into(),
        variants: vec![],
        dates: dates(),
        notes: vec![],
    };
    let (_, body) = case("receipt", Lang::Ru, "plain", &r, false);
    assert!(body.contains("Ваш ход 13... g5:e3"), "{body}");

    let rej = Rejected {
        game: header(Lang::Ru),
        problems: vec![Problem {
            clause: "10.2.9".into(),
            text: "ход партнёра не повторён".into(),
        }],
        partner_moves: "13. g3-h4".into(),
        penalty_days: 6,
        penalty_clause: "10.2.11".into(),
        play_stopped: true,
    };
    let (_, body) = case("rejected", Lang::Ru, "repetition", &rej, false);
    for fact in [
        "ход партнёра не повторён (п. 10.2.9)",
        "13. g3-h4",
        "Штраф: 6 дней (п. 10.2.11)",
        "Игра остановлена",
    ] {
        assert!(body.contains(fact), "lacks {fact}: {body}");
    }
    let (_, body) = case(
        "rejected",
        Lang::En,
        "repetition",
        &Rejected {
            game: header(Lang::En),
            ..rej
        },
        false,
    );
    assert!(body.contains("Penalty: 6 days (10.2.11)"), "{body}");
}

#[test]
fn start_list_lists_every_game_with_colour_and_partner() {
    for lang in [Lang::Ru, Lang::En] {
        let ctx = StartList {
            about: TournamentFacts {
                to_name: "Петров Пётр".into(),
                cipher: "ЗШ-2026-1".into(),
                tournament: "Кубок зимы".into(),
                variant: "русские шашки".into(),
                start: "01.12.2026".into(),
                end: "30.11.2027".into(),
                mailbox: "zaochka@tournament.test".into(),
                federation: "ФЗШ".into(),
            },
            games: vec![
                StartGame {
                    game_no: 1,
                    partner: "Иванов Иван".into(),
                    partner_email: "alice@players.test".into(),
                    is_white: true,
                    last_day: Some(LastDay {
                        date: "20.01.2027".into(),
                        days_left: 50,
                        moves: "1\u{2013}10".into(),
                        is_end_of_play: false,
                    }),
                },
                StartGame {
                    game_no: 4,
                    partner: "Сидоров Сидор".into(),
                    partner_email: "sid@players.test".into(),
                    is_white: false,
                    last_day: None,
                },
            ],
            example_white: "c3-d4".into(),
            example_black: "f6-g5".into(),
        };
        let (_, body) = case("start_list", lang, "two_games", &ctx, false);
        assert!(
            body.contains("Иванов Иван <alice@players.test>") && body.contains("Сидоров Сидор"),
            "{body}"
        );
        assert!(body.contains("zaochka@tournament.test"), "{body}");
        let example = if lang == Lang::Ru {
            "Партия 1\nМой ход: 1. c3-d4"
        } else {
            "Game 1\nMy move: 1. c3-d4"
        };
        assert!(body.contains(example), "{body}");
    }
}

#[test]
fn clock_letters_name_their_clause_and_days() {
    let b = BreakNotice {
        to_name: "Петров Пётр".into(),
        cipher: "ЗШ-2026-1".into(),
        player: "Иванов Иван".into(),
        from: "10.10.2026".into(),
        to: "25.10.2026".into(),
        games: vec![7, 9],
        is_special: false,
        late: String::new(),
        federation: "ФЗШ".into(),
    };
    let (subject, body) = case("break_notice", Lang::Ru, "ordinary", &b, false);
    assert!(subject.contains("10.10.2026–25.10.2026"), "{subject}");
    assert!(
        body.contains("В партиях 7, 9 в эти дни") && body.contains("10.4.2"),
        "{body}"
    );

    let rep = Repeat {
        game: header(Lang::Ru),
        moves: "13... g5:e3".into(),
        variants: vec![],
        dates: dates(),
        first_sent: "05.12.2026".into(),
        days_waiting: 40,
        last_day: Some(LastDay {
            date: "30.11.2027".into(),
            days_left: 1,
            moves: "11\u{2013}20".into(),
            is_end_of_play: true,
        }),
    };
    let (subject, body) = case("repeat", Lang::Ru, "forty_days", &rep, true);
    assert!(subject.contains("ПОВТОР"), "{subject}");
    assert!(
        body.contains("40 дней (п. 10.3.4)")
            && body.contains("01.12.2026 / 02.12.2026 / 05.12.2026"),
        "{body}"
    );
    assert!(
        body.contains("Ответить не позднее 30.11.2027, последнего дня игры (п. 10.3.2); осталось 1 день на ходы 11–20."),
        "{body}"
    );
    let (_, body) = case("repeat_sender", Lang::Ru, "forty_days", &rep, false);
    assert!(body.contains("повторён"), "{body}");

    let q = FirstMoveQuery {
        game: header(Lang::Ru),
        start: "01.12.2026".into(),
        days: 30,
        to_white: true,
    };
    let (_, body) = case("first_move_query", Lang::Ru, "white", &q, false);
    assert!(body.contains("30 дней (п. 10.3.4)"), "{body}");
    let (_, body) = case(
        "first_move_query",
        Lang::Ru,
        "black",
        &FirstMoveQuery {
            to_white: false,
            ..q
        },
        false,
    );
    assert!(body.contains("Белым отправлен запрос"), "{body}");

    let w = Warning {
        game: header(Lang::Ru),
        used: 45,
        limit: 50,
        left: 5,
        overstep_day: "20.12.2026".into(),
    };
    let (subject, body) = case("warning", Lang::Ru, "five_days", &w, false);
    assert!(subject.contains("осталось 5"), "{subject}");
    assert!(
        body.contains("45 из 50") && body.contains("20.12.2026"),
        "{body}"
    );
}

#[test]
fn overstep_letters_carry_table_2_and_the_protest_deadline() {
    let o = Overstep {
        game: header(Lang::Ru),
        player: "Иванов Иван".into(),
        is_offender: true,
        used: 51,
        limit: 50,
        moves_counted: 9,
        day: "20.12.2026".into(),
        protest_until: "30.12.2026".into(),
        timechart: "График времени на обдумывание (таблица 2, п. 10.3.6), на 20.12.2026\nход  получен    отправлен  дни  всего\n 1.  01.12.2026 20.12.2026  19   19\n"
            .into(),
        record: "1.cd4 fg5".into(),
    };
    let (_, body) = case("overstep_player", Lang::Ru, "offender", &o, false);
    assert!(
        body.contains("30.12.2026 (п. 10.3.8)")
            && body.contains("таблица 2")
            && body.contains("01.12.2026 20.12.2026"),
        "{body}"
    );
    let (_, body) = case(
        "overstep_player",
        Lang::Ru,
        "partner",
        &Overstep {
            is_offender: false,
            ..o.clone()
        },
        false,
    );
    assert!(body.contains("Иванов Иван — 51 день на"), "{body}");
    assert!(!body.contains("затратил"), "no gendered verb: {body}");
    let (subject, body) = case("overstep_arbiter", Lang::Ru, "notice", &o, true);
    assert!(subject.contains("ПРОСРОЧКА"), "{subject}");
    assert!(
        body.contains("«Просрочка подтверждена»") && body.contains("1.cd4 fg5"),
        "{body}"
    );
    let (_, body) = case(
        "overstep_arbiter",
        Lang::En,
        "notice",
        &Overstep {
            game: header(Lang::En),
            ..o
        },
        true,
    );
    assert!(body.contains("\"Overstep confirmed\""), "{body}");
}

#[test]
fn result_unknown_sender_and_refusal() {
    let r = Result {
        game: header(Lang::Ru),
        result: "1-0".into(),
        reason: "чёрные сдались".into(),
        record: "1.cd4 fg5 2.dc5 b:d4".into(),
    };
    let (subject, body) = case("result", Lang::Ru, "resignation", &r, true);
    assert!(subject.ends_with("1-0"), "{subject}");
    assert!(
        body.contains("1.cd4 fg5 2.dc5 b:d4") && body.contains("10.5.1"),
        "{body}"
    );
    let u = UnknownSender {
        sender: "stranger@example.com".into(),
        federation: "ФЗШ".into(),
    };
    let (_, body) = case("unknown_sender", Lang::Ru, "plain", &u, false);
    assert!(body.contains("stranger@example.com"), "{body}");
    let f = Refused {
        subject: String::new(),
        to_name: "Иванов Иван".into(),
        reason: "партия 7 — не ваша партия.".into(),
        federation: "ФЗШ".into(),
    };
    let (_, body) = case("refused", Lang::En, "not_your_game", &f, false);
    assert!(body.contains("партия 7 — не ваша партия."), "{body}");
}

#[test]
fn the_notice_to_a_registered_sender_whose_letter_was_not_proven() {
    let u = Unauthenticated {
        to_name: "Иванов Иван".into(),
        sender: "ivanov@players.test".into(),
        reason: "у письма нет цифровой подписи почтового домена отправителя, поэтому нельзя убедиться, что его отправили именно вы.".into(),
        federation: "ФЗШ".into(),
    };
    let (subject, body) = case("unauthenticated", Lang::Ru, "unsigned", &u, false);
    assert_eq!(subject, "Письмо не принято: отправитель не подтверждён");
    for part in [
        "Иванов Иван",
        "ivanov@players.test",
        "10.1.3",
        "обычного почтового ящика",
        "организатору",
    ] {
        assert!(body.contains(part), "{part}: {body}");
    }
    let u = Unauthenticated {
        to_name: String::new(),
        sender: "arbiter@federation.test".into(),
        reason: "the letter's digital signature does not confirm the sender's address.".into(),
        federation: "FZSh".into(),
    };
    let (subject, body) = case("unauthenticated", Lang::En, "official", &u, false);
    assert!(subject.starts_with("Letter not accepted"), "{subject}");
    assert!(
        body.starts_with("Hello,") || body.contains("\nHello,"),
        "{body}"
    );
}
