//! The office end to end on an in-memory store: real RFC 5322 letters in, the outbox read
//! back with mail-parser.

use chrono::{DateTime, TimeZone, Utc};

use super::*;
use crate::mail::{IncomingMail, MailId};
use crate::store::{LetterOut, NewTournament};

const CIPHER: &str = "ЗШ-2026-1";

fn config() -> Config {
    Config {
        address: "zaochka@tournament.test".into(),
        arbiter: "arbiter@federation.test".into(),
        secretary: "secretary@federation.test".into(),
        federation: "Федерация заочных шашек".into(),
        ..Config::default()
    }
}

/// Noon in Moscow on a December 2026 day, or later months by day-of-year arithmetic.
fn at(day: &str) -> DateTime<Utc> {
    let d = NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
    chrono_tz::Europe::Moscow
        .from_local_datetime(&d.and_hms_opt(12, 0, 0).unwrap())
        .unwrap()
        .with_timezone(&Utc)
}

struct Post {
    office: Office,
    store: Store,
    n: u64,
    /// What the sender check found for the next letters (the daemon's job): proven unless
    /// a test says otherwise.
    auth: Authentication,
}

/// A DKIM pass, as the verifier finds for a letter its domain signed.
fn proven() -> Authentication {
    Authentication {
        mode: crate::config::Senders::Dkim,
        result: crate::mail::auth::AuthResult::Pass,
        domain: Some("players.test".into()),
        reason: "dkim=pass by the From domain".into(),
    }
}

fn unproven(result: crate::mail::auth::AuthResult) -> Authentication {
    Authentication {
        mode: crate::config::Senders::Dkim,
        result,
        domain: None,
        reason: "no DKIM signature".into(),
    }
}

impl Post {
    /// A russian tournament of the given players (name, email), started on 2026-12-01.
    fn new(players: &[(&str, &str)]) -> Post {
        let mut post = Post::unstarted("russian", "Кубок зимы", "{}", players);
        assert!(post.start("2026-11-25") >= 1);
        post.take();
        post
    }

    /// A tournament of `variant` (01.12.2026–30.11.2027, Moscow) with its clock `settings`
    /// (JSON as stored) and these players, registered but not started.
    fn unstarted(variant: &str, name: &str, settings: &str, players: &[(&str, &str)]) -> Post {
        let office = Office::new(config());
        let mut store = Store::open_in_memory().unwrap();
        store
            .with_transaction(|tx| {
                let t = tx.add_tournament(
                    &NewTournament {
                        cipher: CIPHER,
                        variant,
                        name,
                        start: NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(),
                        end: NaiveDate::from_ymd_opt(2027, 11, 30).unwrap(),
                        tz: "Europe/Moscow",
                        settings,
                    },
                    at("2026-11-20"),
                )?;
                for (name, email) in players {
                    tx.add_player(t, name, email)?;
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
        Post {
            office,
            store,
            n: 0,
            auth: proven(),
        }
    }

    /// Starts the tournament on `day` (the start lists are queued): the games paired.
    fn start(&mut self, day: &str) -> usize {
        self.office
            .start_tournament(&mut self.store, CIPHER, at(day))
            .unwrap()
    }

    fn raw(&mut self, from: &str, headers: &str, body: &str) -> IncomingMail {
        self.n += 1;
        let raw = format!(
            "From: {from}\r\nTo: zaochka@tournament.test\r\nSubject: ход\r\nMessage-ID: <m{n}@players.test>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0300\r\n{headers}MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}\r\n",
            n = self.n
        );
        IncomingMail {
            id: MailId::Memory(self.n),
            raw: raw.into_bytes(),
            received: at("2026-12-01"),
        }
    }

    fn letter(&mut self, from: &str, day: &str, body: &str) -> (Handled, Vec<Sent>) {
        let mut m = self.raw(from, "", body);
        m.received = at(day);
        self.handle(&m, day)
    }

    fn handle(&mut self, m: &IncomingMail, day: &str) -> (Handled, Vec<Sent>) {
        let h = self
            .office
            .handle(&mut self.store, m, &self.auth, at(day))
            .unwrap();
        (h, self.take())
    }

    /// Everything queued since the last call, marked sent.
    fn take(&mut self) -> Vec<Sent> {
        let far = at("2030-01-01");
        let due: Vec<LetterOut> = self.store.read(|tx| tx.due_outgoing(far, 10_000)).unwrap();
        self.store
            .with_transaction(|tx| {
                for l in &due {
                    tx.mark_sent(l.id, far)?;
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
        due.into_iter().map(Sent::from).collect()
    }
}

/// An outgoing letter, read back.
#[derive(Debug)]
struct Sent {
    kind: String,
    to: Vec<String>,
    subject: String,
    text: String,
    message_id: String,
    in_reply_to: Option<String>,
    attachments: usize,
    auto_submitted: String,
}

impl From<LetterOut> for Sent {
    fn from(l: LetterOut) -> Sent {
        let m = mail_parser::MessageParser::default().parse(&l.raw).unwrap();
        Sent {
            kind: l.kind,
            to: l.recipients,
            subject: m.subject().unwrap_or_default().to_string(),
            text: m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
            message_id: l.message_id,
            in_reply_to: m.in_reply_to().as_text().map(str::to_string),
            attachments: m.attachment_count(),
            auto_submitted: m
                .header("Auto-Submitted")
                .and_then(|h| h.as_text())
                .unwrap_or_default()
                .to_string(),
        }
    }
}

fn one<'a>(sent: &'a [Sent], kind: &str, to: &str) -> &'a Sent {
    let hits: Vec<&Sent> = sent
        .iter()
        .filter(|s| s.kind == kind && s.to.iter().any(|t| t == to))
        .collect();
    assert_eq!(hits.len(), 1, "one '{kind}' to {to} in {sent:#?}");
    hits[0]
}

const ALICE: &str = "alice@players.test";
const BOB: &str = "bob@players.test";

fn two() -> Post {
    Post::new(&[("Иванов Иван", ALICE), ("Петров Пётр", BOB)])
}

#[test]
fn starting_a_tournament_pairs_the_players_and_sends_start_lists() {
    let office = Office::new(config());
    let mut store = Store::open_in_memory().unwrap();
    store
        .with_transaction(|tx| {
            let t = tx.add_tournament(
                &NewTournament {
                    cipher: CIPHER,
                    variant: "russian",
                    name: "",
                    start: NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(),
                    end: NaiveDate::from_ymd_opt(2027, 11, 30).unwrap(),
                    tz: "Europe/Moscow",
                    settings: "{}",
                },
                at("2026-11-20"),
            )?;
            for (n, e) in [
                ("А", "a@p.test"),
                ("Б", "b@p.test"),
                ("В", "c@p.test"),
                ("Г", "d@p.test"),
            ] {
                tx.add_player(t, n, e)?;
            }
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert_eq!(
        office
            .start_tournament(&mut store, CIPHER, at("2026-11-25"))
            .unwrap(),
        6
    );
    assert_eq!(
        office
            .start_tournament(&mut store, CIPHER, at("2026-11-26"))
            .unwrap(),
        0,
        "a second start changes nothing"
    );
    let queued = store
        .read(|tx| tx.due_outgoing(at("2030-01-01"), 100))
        .unwrap();
    assert_eq!(queued.len(), 4, "one start list each");
    let sent: Vec<Sent> = queued.into_iter().map(Sent::from).collect();
    let a = one(&sent, "start_list", "a@p.test");
    assert_eq!(a.text.matches("- партия ").count(), 3, "{}", a.text);
    assert!(a.text.contains("zaochka@tournament.test"));
    // The example letter fits the first game's colour: Black repeats White's move first.
    for s in &sent {
        let first = s.text.lines().find(|l| l.starts_with("- партия ")).unwrap();
        if first.contains("чёрными") {
            assert!(
                s.text.contains("Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5\n"),
                "{}",
                s.text
            );
        } else {
            assert!(s.text.contains("\nМой ход: 1. c3-d4\n"), "{}", s.text);
            assert!(!s.text.contains("Ваш ход:"), "{}", s.text);
        }
    }
    assert!(
        office
            .start_tournament(&mut store, "НЕТ-ТАКОГО", at("2026-11-26"))
            .is_err()
    );
}

#[test]
fn clause_10_2_3_a_good_move_is_forwarded_to_the_partner_and_receipted() {
    let mut post = two();
    let (h, sent) = post.letter(
        ALICE,
        "2026-12-01",
        "Здравствуйте!\nШифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4\nИванов",
    );
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Judged { .. },
                ..
            }
        ),
        "{h:?}"
    );
    let fwd = one(&sent, "forward", BOB);
    assert!(fwd.subject.contains("1. c3-d4"), "{}", fwd.subject);
    for fact in [
        "Ход партнёра: 1. c3-d4",
        "Иванов Иван (белые)",
        "Время (белые/чёрные): 0/0",
        "Ваш ход: 1. c3-d4",
    ] {
        assert!(
            fwd.text.contains(fact),
            "forward lacks {fact}: {}",
            fwd.text
        );
    }
    // RFC 3834 5: the receipt answers Alice's letter; the forward answers no letter of Bob's.
    assert_eq!(fwd.auto_submitted, "auto-generated");
    let receipt = one(&sent, "receipt", ALICE);
    assert_eq!(receipt.auto_submitted, "auto-replied");
    assert_eq!(
        receipt.in_reply_to.as_deref(),
        Some("m1@players.test"),
        "the receipt threads to the letter"
    );
    assert!(receipt.text.contains("1. c3-d4"), "{}", receipt.text);
}

#[test]
fn the_same_letter_seen_again_is_not_judged_twice() {
    let mut post = two();
    let m = post.raw(ALICE, "", "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4");
    let (first, sent) = post.handle(&m, "2026-12-01");
    assert!(matches!(first, Handled::New { .. }));
    assert_eq!(sent.len(), 2);
    let (again, sent) = post.handle(&m, "2026-12-02");
    assert!(matches!(again, Handled::Seen(_)), "{again:?}");
    assert!(sent.is_empty(), "{sent:#?}");
}

#[test]
fn a_reply_to_the_forwarded_move_needs_no_cipher_or_game_number() {
    let mut post = two();
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let fwd_id = one(&sent, "forward", BOB).message_id.clone();
    let mut reply = post.raw(
        BOB,
        &format!("In-Reply-To: <{fwd_id}>\r\nReferences: <{fwd_id}>\r\n"),
        "Ваш ход: 1. c3-d4\nМой ход: 1... f6-g5",
    );
    reply.received = at("2026-12-03");
    let (h, sent) = post.handle(&reply, "2026-12-03");
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Judged { .. },
                ..
            }
        ),
        "{h:?}"
    );
    let fwd = one(&sent, "forward", ALICE);
    assert!(fwd.text.contains("1... f6-g5"), "{}", fwd.text);
    assert!(
        fwd.text.contains("Время (белые/чёрные): 0/2"),
        "two days for black: {}",
        fwd.text
    );
}

#[test]
fn clause_10_2_9_a_missing_repetition_stops_play_with_six_penalty_days() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let (h, sent) = post.letter(
        BOB,
        "2026-12-02",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1... f6-g5",
    );
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Judged { .. },
                ..
            }
        ),
        "{h:?}"
    );
    let rej = one(&sent, "rejected", BOB);
    assert!(rej.text.contains("10.2.9"), "{}", rej.text);
    assert!(
        rej.text.contains("1. c3-d4"),
        "tells what the partner's move was: {}",
        rej.text
    );
    assert!(
        rej.text.contains("Штраф: 6 дней (п. 10.2.11)"),
        "{}",
        rej.text
    );
    assert!(
        !sent.iter().any(|s| s.kind == "forward"),
        "nothing forwarded: {sent:#?}"
    );
}

#[test]
fn an_unknown_sender_gets_one_short_answer_a_day() {
    let mut post = two();
    let (h, sent) = post.letter("stranger@example.com", "2026-12-01", "Мой ход: 1. c3-d4");
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::SetAside { .. },
                ..
            }
        ),
        "{h:?}"
    );
    one(&sent, "unknown_sender", "stranger@example.com");
    let (_, sent) = post.letter("stranger@example.com", "2026-12-01", "ещё раз");
    assert!(sent.is_empty(), "no second answer the same day: {sent:#?}");
    let (_, sent) = post.letter("stranger@example.com", "2026-12-02", "и ещё");
    one(&sent, "unknown_sender", "stranger@example.com");
}

#[test]
fn automatic_mail_is_kept_but_never_answered() {
    let mut post = two();
    let m = post.raw(
        ALICE,
        "Auto-Submitted: auto-replied\r\n",
        "Я в отпуске до 10 декабря.",
    );
    let (h, sent) = post.handle(&m, "2026-12-01");
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Ignored { .. },
                ..
            }
        ),
        "{h:?}"
    );
    assert!(sent.is_empty());
    let own = post.raw("zaochka@tournament.test", "", "Ход партнёра: 1. c3-d4");
    let (h, sent) = post.handle(&own, "2026-12-01");
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Ignored { .. },
                ..
            }
        ),
        "{h:?}"
    );
    assert!(sent.is_empty());
}

#[test]
fn a_player_cannot_move_in_someone_elses_game() {
    let mut post = Post::new(&[
        ("Иванов Иван", ALICE),
        ("Петров Пётр", BOB),
        ("Сидоров Сидор", "carol@players.test"),
        ("Кузнецов Кузьма", "dave@players.test"),
    ]);
    let carol_games = post
        .store
        .read(|tx| {
            let p = tx.players_by_email("carol@players.test")?;
            tx.games_of_player(p[0].id)
        })
        .unwrap();
    let not_hers = (1..=6u32)
        .find(|n| !carol_games.iter().any(|g| g.number == *n))
        .unwrap();
    let (h, sent) = post.letter(
        "carol@players.test",
        "2026-12-01",
        &format!("Шифр: ЗШ-2026-1\nПартия {not_hers}\nМой ход: 1. c3-d4"),
    );
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::SetAside { .. },
                ..
            }
        ),
        "{h:?}"
    );
    let r = one(&sent, "refused", "carol@players.test");
    assert!(r.text.contains("не ваша партия"), "{}", r.text);
    assert_eq!(sent.len(), 1, "{sent:#?}");
}

#[test]
fn clause_10_3_4_an_unanswered_move_is_repeated_after_forty_days_once() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let fired = post
        .office
        .sweep(&mut post.store, at("2027-01-05"))
        .unwrap();
    let sent = post.take();
    assert!(
        !sent.iter().any(|s| s.kind == "repeat"),
        "no repeat before 40 days: {fired} {sent:#?}"
    );
    post.office
        .sweep(&mut post.store, at("2027-01-12"))
        .unwrap();
    let sent = post.take();
    let rep = one(&sent, "repeat", BOB);
    assert!(rep.subject.contains("ПОВТОР"), "{}", rep.subject);
    assert!(rep.text.contains("1. c3-d4"), "{}", rep.text);
    one(&sent, "repeat_sender", ALICE);
    post.office
        .sweep(&mut post.store, at("2027-01-13"))
        .unwrap();
    assert!(
        !post.take().iter().any(|s| s.kind.starts_with("repeat")),
        "fires once"
    );
}

#[test]
fn clause_10_3_6_an_overstep_suspends_the_game_and_the_arbiter_gets_table_2() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    // Black writes once (forgetting the repetition, so play stops) and then goes silent.
    post.letter(
        BOB,
        "2026-12-03",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1... f6-g5",
    );
    post.office
        .sweep(&mut post.store, at("2027-02-15"))
        .unwrap();
    let sent = post.take();
    let arb = one(&sent, "overstep_arbiter", "arbiter@federation.test");
    assert_eq!(
        arb.attachments, 2,
        "the board picture and black's one letter (10.3.6)"
    );
    assert!(arb.text.contains("Петров Пётр"), "{}", arb.text);
    assert!(arb.text.contains("(п. 10.3.5)"), "{}", arb.text);
    one(&sent, "overstep_player", BOB);
    let game = post
        .store
        .read(|tx| {
            let t = tx.find_tournament(CIPHER)?.unwrap();
            tx.find_game(t.id, 1)
        })
        .unwrap()
        .unwrap();
    assert_eq!(game.status, GameStatus::Suspended);
    post.office
        .sweep(&mut post.store, at("2027-02-16"))
        .unwrap();
    assert!(
        !post.take().iter().any(|s| s.kind.starts_with("overstep")),
        "fires once"
    );
}

#[test]
fn a_tournaments_own_points_rule_its_table_and_the_config_fills_in_the_rest() {
    let office = Office::new(config());
    let mut t = Tournament {
        id: crate::store::TournamentId(1),
        cipher: CIPHER.into(),
        variant: "russian".into(),
        name: String::new(),
        start: NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(),
        end: NaiveDate::from_ymd_opt(2027, 11, 30).unwrap(),
        tz: "Europe/Moscow".into(),
        settings: r#"{"standings":{"points":{"win":3,"draw":1,"loss":0}}}"#.into(),
        status: TournamentStatus::Playing,
        created: at("2026-11-20"),
    };
    assert_eq!(office.standings_settings(&t).points.win, 3);
    t.settings = "{}".into();
    assert_eq!(
        office.standings_settings(&t).points.win,
        office.config.rules.points_win
    );
    assert_eq!(
        office.settings(&t).days_per_period,
        office.config.rules.days_per_10_moves
    );
}

#[test]
fn the_friendly_warning_names_the_days_used_and_the_limit() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    post.office
        .sweep(&mut post.store, at("2027-01-16"))
        .unwrap();
    let sent = post.take();
    let w = one(&sent, "warning", BOB);
    assert!(w.text.contains(" из 50 дней"), "{}", w.text);
    assert!(!w.text.contains("затратили 0 из 0"), "{}", w.text);
}

// ---------------------------------------------------------------- who may move a game

fn status_of_game_1(post: &Post) -> GameStatus {
    post.store
        .read(|tx| {
            let t = tx.find_tournament(CIPHER)?.unwrap();
            tx.find_game(t.id, 1).map(|g| g.unwrap().status)
        })
        .unwrap()
}

fn set_aside_reason(h: &Handled) -> String {
    match h {
        Handled::New {
            outcome: Outcome::SetAside { reason, .. },
            ..
        } => reason.clone(),
        other => panic!("not set aside: {other:?}"),
    }
}

#[test]
fn a_forged_arbiter_result_finishes_nothing_and_the_arbiter_is_told_once_a_day() {
    use crate::mail::auth::AuthResult;
    let mut post = two();
    post.auth = unproven(AuthResult::Fail);
    for from in [
        "arbiter@federation.test",
        "ARBITER@Federation.Test",
        "\"Главный судья\" <arbiter@federation.test>",
    ] {
        let (h, sent) = post.letter(
            from,
            "2026-12-01",
            "Шифр: ЗШ-2026-1\nПартия 1\nРезультат: 1-0",
        );
        let reason = set_aside_reason(&h);
        assert!(reason.contains("sender not proven"), "{reason}");
        assert!(reason.contains("arbiter"), "{reason}");
        assert_eq!(status_of_game_1(&post), GameStatus::Playing, "{from}");
        if from == "arbiter@federation.test" {
            let n = one(&sent, "unauthenticated", "arbiter@federation.test");
            assert!(n.text.contains("п. 10.1.3"), "{}", n.text);
            assert!(n.text.contains("цифровая подпись"), "{}", n.text);
        } else {
            assert!(sent.is_empty(), "one notice a day: {sent:#?}");
        }
    }
    let (_, sent) = post.letter(
        "arbiter@federation.test",
        "2026-12-02",
        "Шифр: ЗШ-2026-1\nПартия 1\nРезультат: 1-0",
    );
    one(&sent, "unauthenticated", "arbiter@federation.test");
    // The stored letter keeps what the check found.
    let last = post
        .store
        .read(|tx| tx.letter_in(crate::store::LetterInId(4)))
        .unwrap();
    assert!(last.auth.unwrap().contains("\"result\":\"fail\""));
}

#[test]
fn a_forged_resignation_from_a_players_address_ends_nothing() {
    use crate::mail::auth::AuthResult;
    let mut post = two();
    post.auth = unproven(AuthResult::None);
    let (h, sent) = post.letter(BOB, "2026-12-01", "Шифр: ЗШ-2026-1\nПартия 1\nСдаюсь");
    assert!(set_aside_reason(&h).contains("a player's address"));
    assert_eq!(status_of_game_1(&post), GameStatus::Playing);
    let n = one(&sent, "unauthenticated", BOB);
    assert!(n.text.contains("Петров Пётр"), "{}", n.text);
    assert!(n.text.contains("обычного почтового ящика"), "{}", n.text);
    assert_eq!(sent.len(), 1, "nothing to the partner: {sent:#?}");
}

#[test]
fn an_unknown_sender_whose_letter_is_not_proven_gets_no_answer() {
    use crate::mail::auth::AuthResult;
    let mut post = two();
    post.auth = unproven(AuthResult::None);
    let (h, sent) = post.letter("stranger@example.com", "2026-12-01", "Мой ход: 1. c3-d4");
    assert!(set_aside_reason(&h).contains("not answered"));
    assert!(sent.is_empty(), "no backscatter: {sent:#?}");
}

#[test]
fn unsigned_domains_let_players_move_on_the_address_alone_but_never_officials() {
    use crate::mail::auth::AuthResult;
    let mut post = two();
    post.office.config.auth.unsigned_domains =
        vec!["players.test".into(), "federation.test".into()];
    post.auth = unproven(AuthResult::None);
    let (h, sent) = post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Judged { .. },
                ..
            }
        ),
        "{h:?}"
    );
    one(&sent, "forward", BOB);
    let (h, _) = post.letter(
        "arbiter@federation.test",
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nРезультат: 0-1",
    );
    assert!(set_aside_reason(&h).contains("sender not proven"));
    assert_eq!(status_of_game_1(&post), GameStatus::Playing);
}

#[test]
fn a_letter_with_two_from_fields_or_a_from_list_is_never_a_command_nor_a_move() {
    let mut post = two();
    // Proven or not: a letter with several senders is refused before anything else.
    for (from, headers) in [
        ("arbiter@federation.test", "From: evil@example.net\r\n"),
        ("evil@example.net", "From: arbiter@federation.test\r\n"),
        ("arbiter@federation.test, evil@example.net", ""),
        ("bob@players.test, alice@players.test", ""),
    ] {
        let m = post.raw(
            from,
            headers,
            "Шифр: ЗШ-2026-1\nПартия 1\nРезультат: 1-0\nСдаюсь",
        );
        let (h, sent) = post.handle(&m, "2026-12-01");
        assert!(
            set_aside_reason(&h).contains("2 From addresses"),
            "{from} {headers}: {h:?}"
        );
        assert!(sent.is_empty(), "{sent:#?}");
        assert_eq!(status_of_game_1(&post), GameStatus::Playing);
    }
}

// ---------------------------------------------------------------- hostile and careless mail

#[test]
fn a_forward_quotes_at_most_100_lines_of_the_senders_words() {
    let mut post = two();
    let mut body = String::from("Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4\n");
    for i in 0..100_000 {
        body.push_str(&format!("строка журнала {i}\n"));
    }
    assert!(body.len() > 2_000_000);
    let (h, sent) = post.letter(ALICE, "2026-12-01", &body);
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Judged { .. },
                ..
            }
        ),
        "{h:?}"
    );
    let fwd = one(&sent, "forward", BOB);
    assert!(fwd.text.contains("Ход партнёра: 1. c3-d4"), "{}", fwd.text);
    assert!(fwd.text.contains("строка журнала 96\n"), "{}", fwd.text);
    assert!(!fwd.text.contains("строка журнала 97\n"), "{}", fwd.text);
    // 100 lines quoted: the three lines of business and 97 of the log.
    assert!(
        fwd.text.contains("[… 99903 строки не показаны]"),
        "{}",
        fwd.text
    );
    assert!(fwd.text.len() < 30_000, "{} bytes", fwd.text.len());
}

#[test]
fn a_letter_over_the_size_limit_is_kept_unread_and_answered_once_a_day() {
    let mut post = two();
    post.office.config.limits.letter_bytes = 4096;
    let body = format!(
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4\n{}",
        "x\n".repeat(3000)
    );
    let (h, sent) = post.letter(ALICE, "2026-12-01", &body);
    assert!(
        set_aside_reason(&h).contains("limits.letter_bytes"),
        "{h:?}"
    );
    let Handled::New { id, .. } = h else {
        unreachable!()
    };
    let kept = post.store.read(|tx| tx.letter_in(id)).unwrap();
    assert!(kept.raw.len() > 6000, "kept whole: {}", kept.raw.len());
    let answer = one(&sent, "refused", ALICE);
    assert_eq!(sent.len(), 1, "not judged, nothing forwarded: {sent:#?}");
    assert!(
        answer.text.contains("письмо слишком большое") && answer.text.contains("п. 10.2.3"),
        "{}",
        answer.text
    );
    assert!(answer.text.contains("Иванов Иван"), "{}", answer.text);
    let (h, sent) = post.letter(ALICE, "2026-12-01", &body);
    assert!(
        set_aside_reason(&h).contains("one such answer a day"),
        "{h:?}"
    );
    assert!(sent.is_empty(), "{sent:#?}");
    // A bounce that carries a big letter back is never answered.
    let mut m = post.raw(
        "MAILER-DAEMON@players.test",
        "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n",
        &body,
    );
    m.received = at("2026-12-02");
    let (h, sent) = post.handle(&m, "2026-12-02");
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Ignored { .. },
                ..
            }
        ),
        "{h:?}"
    );
    assert!(sent.is_empty(), "{sent:#?}");
}

#[test]
fn a_large_letter_from_an_unknown_unproven_sender_is_not_answered() {
    use crate::mail::auth::AuthResult;
    let mut post = two();
    post.office.config.limits.letter_bytes = 4096;
    let body = format!("Мой ход: 1. c3-d4\n{}", "x\n".repeat(3000));
    post.auth = unproven(AuthResult::None);
    let (h, sent) = post.letter("stranger@example.com", "2026-12-01", &body);
    let reason = set_aside_reason(&h);
    assert!(
        reason.contains("limits.letter_bytes") && reason.contains("not proven"),
        "{reason}"
    );
    assert!(sent.is_empty(), "no backscatter: {sent:#?}");
    // A registered player's letter is answered at the registered address, proven or not.
    let (_, sent) = post.letter(BOB, "2026-12-01", &body);
    one(&sent, "refused", BOB);
    // A stranger whose provider signed the letter is told too.
    post.auth = proven();
    let (_, sent) = post.letter("stranger@players.test", "2026-12-01", &body);
    one(&sent, "refused", "stranger@players.test");
}

#[test]
fn vacation_replies_quoting_zaochka_get_one_answer_a_day() {
    let mut post = two();
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let fwd = one(&sent, "forward", BOB);
    let reply = format!(
        "Я в отпуске до 20 декабря, отвечу по возвращении.\n\n\
         01.12.2026 12:00, zaochka@tournament.test пишет:\n> {}",
        fwd.text.replace('\n', "\n> ")
    );
    let mut answers = 0;
    for _ in 0..20 {
        let (h, sent) = post.letter(BOB, "2026-12-01", &reply);
        assert!(set_aside_reason(&h).contains("no move"), "{h:?}");
        answers += sent.len();
    }
    assert_eq!(answers, 1, "one 'nothing read' answer in a day, not 20");
    let (_, sent) = post.letter(BOB, "2026-12-02", &reply);
    one(&sent, "refused", BOB);
}

#[test]
fn precedence_auto_reply_and_no_reply_bounces_are_never_answered() {
    let mut post = two();
    let m = post.raw(ALICE, "Precedence: auto_reply\r\n", "Меня нет на месте.");
    let (h, sent) = post.handle(&m, "2026-12-01");
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Ignored { .. },
                ..
            }
        ),
        "{h:?}"
    );
    assert!(sent.is_empty(), "{sent:#?}");
    let m = post.raw(
        "no-reply@mail.players.test",
        "",
        "Your message to bob@players.test could not be delivered.",
    );
    let (h, sent) = post.handle(&m, "2026-12-01");
    assert!(
        matches!(
            h,
            Handled::New {
                outcome: Outcome::Ignored { .. },
                ..
            }
        ),
        "{h:?}"
    );
    assert!(sent.is_empty(), "{sent:#?}");
}

#[test]
fn a_folded_message_id_is_answered_with_a_plain_in_reply_to() {
    let mut post = two();
    let raw = "From: alice@players.test\r\nTo: zaochka@tournament.test\r\nSubject: ?\r\n\
               Message-ID:\r\n <folded.1\r\n @players.test>\r\n\
               Content-Type: text/plain; charset=utf-8\r\n\r\nЗдравствуйте!\r\n";
    let m = IncomingMail {
        id: MailId::Memory(900),
        raw: raw.as_bytes().to_vec(),
        received: at("2026-12-01"),
    };
    post.office
        .handle(&mut post.store, &m, &post.auth, at("2026-12-01"))
        .unwrap();
    let out = post
        .store
        .read(|tx| tx.due_outgoing(at("2030-01-01"), 10))
        .unwrap();
    assert_eq!(out.len(), 1, "the 'nothing read' answer");
    let raw = String::from_utf8(out[0].raw.clone()).unwrap();
    assert!(
        raw.contains("In-Reply-To: <folded.1@players.test>\r\n"),
        "{raw}"
    );
    assert!(
        raw.contains("References: <folded.1@players.test>\r\n"),
        "{raw}"
    );
}

#[test]
fn names_with_bidi_controls_reach_partners_without_them() {
    let post = Post::new(&[
        ("Иванов\u{202E}наВИ\u{202C}", ALICE),
        ("Петров\u{2067} Пётр", BOB),
    ]);
    let games = post.store.read(|tx| {
        let t = tx.find_tournament(CIPHER)?.unwrap();
        tx.games(t.id)
    });
    let g = &games.unwrap()[0];
    let state = state_of(g).unwrap();
    assert_eq!(state.players.white.name, "ИвановнаВИ");
    assert_eq!(state.players.black.name, "Петров Пётр");
}

/// Latin words in a Russian text, leaving out notation, addresses and the cipher.
fn latin_words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '«' | '»' | '"'))
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ':' | '!' | '?' | '<' | '>')))
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .filter(|w| !w.contains('@'))
        .filter(|w| {
            // c3-d4, c3:e5, 1.c3-d4
            !w.split(['-', ':', '.']).filter(|p| !p.is_empty()).all(|p| {
                p.chars().all(|c| c.is_ascii_digit())
                    || p.len() == 2 && p.as_bytes()[1].is_ascii_digit()
            })
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_bare_move_line_is_played_as_the_senders_own_move() {
    let mut post = two();
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nХод: 1. c3-d4",
    );
    let fw = one(&sent, "forward", BOB);
    assert!(fw.text.contains("Ход партнёра: 1. c3-d4"), "{}", fw.text);
    one(&sent, "receipt", ALICE);
}

#[test]
fn a_bare_move_line_out_of_turn_is_explained_in_russian() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-02",
        "Шифр: ЗШ-2026-1\nПартия 1\nХод: 1... f6-g5",
    );
    let rej = one(&sent, "rejected", ALICE);
    assert!(rej.text.contains("«Мой ход:»"), "{}", rej.text);
    assert!(rej.text.contains("(п. 10.2.3)"), "{}", rej.text);
    assert!(!rej.text.contains("Штраф"), "{}", rej.text);
    assert_eq!(latin_words(&rej.text), Vec::<String>::new(), "{}", rej.text);
}

#[test]
fn moves_without_any_keyword_are_refused_in_russian() {
    let mut post = two();
    let (_, sent) = post.letter(ALICE, "2026-12-01", "Шифр: ЗШ-2026-1\nПартия 1\n1. c3-d4");
    let refusal = sent
        .iter()
        .find(|s| s.to.iter().any(|t| t == ALICE))
        .expect("an answer");
    assert!(refusal.text.contains("«Мой ход:»"), "{}", refusal.text);
    assert_eq!(
        latin_words(&refusal.text),
        Vec::<String>::new(),
        "{}",
        refusal.text
    );
}

#[test]
fn an_impossible_short_move_cites_both_clauses_once() {
    let mut post = two();
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. cd4",
    );
    let rej = one(&sent, "rejected", ALICE);
    assert!(rej.text.contains("(п. 10.2.2, 10.2.10)"), "{}", rej.text);
    assert!(!rej.text.contains(") (п."), "{}", rej.text);
}

#[test]
fn a_right_repetition_with_an_impossible_move_asks_for_no_moves_to_repeat() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let (_, sent) = post.letter(
        BOB,
        "2026-12-02",
        "Шифр: ЗШ-2026-1\nПартия 1\nВаш ход: 1. c3-d4\nМой ход: 1... a7-b6",
    );
    let rej = one(&sent, "rejected", BOB);
    assert!(rej.text.contains("10.2.10"), "{}", rej.text);
    assert!(!rej.text.contains("нужно повторить"), "{}", rej.text);
}

#[path = "tests_dates.rs"]
mod dates;

#[path = "tests_hundred.rs"]
mod hundred;

#[test]
fn a_players_new_address_moves_his_games_and_the_old_one_no_longer_does() {
    const NEW: &str = "ivanov.new@players.test";
    let mut post = two();
    // An early letter from the old address, kept as his (10.3.6 attaches it).
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let change = post
        .office
        .set_player_email(
            &mut post.store,
            "ЗШ-2026-1",
            "иванов  иван",
            NEW,
            at("2026-12-02"),
        )
        .unwrap();
    assert!(
        matches!(&change, AddressChange::Changed { former, games: 1, .. } if former == ALICE),
        "{change:?}"
    );
    let sent = post.take();
    for to in [ALICE, NEW] {
        let note = one(&sent, "note", to);
        assert_eq!(note.subject, "ЗШ-2026-1: адрес для писем изменён");
        assert!(
            note.text
                .contains(&format!("прежний — {ALICE}, новый — {NEW}")),
            "{}",
            note.text
        );
    }
    // The same again changes nothing and tells nobody.
    let again = post
        .office
        .set_player_email(
            &mut post.store,
            "ЗШ-2026-1",
            "Иванов Иван",
            NEW,
            at("2026-12-02"),
        )
        .unwrap();
    assert_eq!(again, AddressChange::Unchanged);
    assert!(post.take().is_empty());
    // Bob answers; only the new address may make White's second move.
    let (_, sent) = post.letter(
        BOB,
        "2026-12-03",
        "Шифр: ЗШ-2026-1\nПартия 1\nХод партнёра: 1. c3-d4\nМой ход: 1... f6-g5",
    );
    one(&sent, "forward", NEW);
    let body = "Шифр: ЗШ-2026-1\nПартия 1\nХод партнёра: 1... f6-g5\nМой ход: 2. g3-f4";
    let (_, sent) = post.letter(ALICE, "2026-12-04", body);
    assert!(sent.iter().all(|s| s.kind != "forward"), "{sent:#?}");
    let (_, sent) = post.letter(NEW, "2026-12-04", body);
    one(&sent, "forward", BOB);
    // His letters from both addresses are his (the one from the old address after the change
    // is a stranger's: kept, but about no game).
    let letters = post
        .store
        .read(|tx| {
            let t = tx.find_tournament("ЗШ-2026-1")?.unwrap();
            let g = tx.find_game(t.id, 1)?.unwrap();
            let me = tx.find_player(t.id, NEW)?.unwrap();
            tx.letters_of(g.id, me.id)
        })
        .unwrap();
    let senders: Vec<&str> = letters.iter().map(|l| l.sender.as_str()).collect();
    assert_eq!(senders, [ALICE, NEW], "{senders:?}");
    // Another player's address and an unknown name are refused, and nothing changes.
    for (name, email) in [("Иванов Иван", BOB), ("Сидоров Сидор", "s@players.test")]
    {
        let e = post
            .office
            .set_player_email(&mut post.store, "ЗШ-2026-1", name, email, at("2026-12-05"))
            .unwrap_err();
        assert!(matches!(e, OfficeError::Refused(_)), "{e:?}");
    }
    assert!(post.take().is_empty());
}
