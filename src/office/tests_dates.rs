//! The dates in the letters: the last day to answer (10.3.1, 10.3.5), the three dates
//! (10.3.1), receipts, breaks, rulings.

use super::*;

/// The date a letter names as the last day to answer ("не позднее 20.01.2027").
fn last_day_in(text: &str) -> NaiveDate {
    let at = text
        .find("не позднее ")
        .unwrap_or_else(|| panic!("no last day in: {text}"));
    let date = &text[at + "не позднее ".len()..][..10];
    NaiveDate::parse_from_str(date, "%d.%m.%Y").unwrap()
}

fn day(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// Sweeps on `d` and says whether an overstep of game 1 was declared that day.
fn overstep_declared(post: &mut Post, d: NaiveDate) -> bool {
    post.office.sweep(&mut post.store, at(&day(d))).unwrap();
    post.take().iter().any(|s| s.kind == "overstep_arbiter")
}

/// The last day a letter names is the day before the sweep declares the overstep.
fn check_against_sweep(post: &mut Post, last: NaiveDate) {
    assert!(
        !overstep_declared(post, last),
        "an answer on {last} is still in time"
    );
    assert!(
        overstep_declared(post, last.succ_opt().unwrap()),
        "the day after {last} is the overstep day"
    );
}

#[test]
fn clause_10_3_5_the_start_list_names_whites_last_day_for_the_first_move() {
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
            tx.add_player(t, "Иванов Иван", ALICE)?;
            tx.add_player(t, "Петров Пётр", BOB)?;
            Ok::<_, StoreError>(())
        })
        .unwrap();
    office
        .start_tournament(&mut store, CIPHER, at("2026-11-25"))
        .unwrap();
    let mut post = Post {
        office,
        store,
        n: 0,
        auth: proven(),
    };
    let sent = post.take();
    let white = one(&sent, "start_list", ALICE);
    let black = one(&sent, "start_list", BOB);
    assert!(
        white
            .text
            .contains("первый ход — не позднее 20.01.2027 (осталось 50 дней на ходы 1–10)"),
        "{}",
        white.text
    );
    assert!(
        !black.text.contains("не позднее"),
        "black is not to move: {}",
        black.text
    );
    let last = last_day_in(&white.text);
    check_against_sweep(&mut post, last);
}

#[test]
fn clause_10_3_5_a_forwarded_move_names_the_receivers_last_day() {
    let mut post = two();
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let fwd = one(&sent, "forward", BOB);
    assert!(
        fwd.text
            .contains("Ответить не позднее 20.01.2027 (осталось 50 дней на ходы 1–10, п. 10.3.5)."),
        "{}",
        fwd.text
    );
    assert!(
        !one(&sent, "receipt", ALICE).text.contains("не позднее"),
        "the receipt hands over no move"
    );
    check_against_sweep(&mut post, last_day_in(&fwd.text));
}

#[test]
fn clause_10_3_5_the_last_day_counts_the_days_already_used() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    // Black thinks 9 days; white has used none, so white's day is 50 days on.
    let (_, sent) = post.letter(
        BOB,
        "2026-12-10",
        "Шифр: ЗШ-2026-1\nПартия 1\nВаш ход: 1. c3-d4\nМой ход: 1... f6-g5",
    );
    let fwd = one(&sent, "forward", ALICE);
    assert!(
        fwd.text.contains("не позднее 29.01.2027 (осталось 50 дней"),
        "{}",
        fwd.text
    );
    // White answers after 20 days: black, with 9 used, has 41 left.
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-30",
        "Шифр: ЗШ-2026-1\nПартия 1\nВаш ход: 1... f6-g5\nМой ход: 2. b2-c3",
    );
    let fwd = one(&sent, "forward", BOB);
    assert!(
        fwd.text.contains("(осталось 41 день на ходы 1–10"),
        "{}",
        fwd.text
    );
    check_against_sweep(&mut post, last_day_in(&fwd.text));
}

#[test]
fn clause_10_3_4_the_repeat_names_the_silent_players_last_day() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    post.office
        .sweep(&mut post.store, at("2027-01-12"))
        .unwrap();
    let sent = post.take();
    let rep = one(&sent, "repeat", BOB);
    assert!(
        rep.text
            .contains("Ответить не позднее 20.01.2027 (осталось 8 дней"),
        "{}",
        rep.text
    );
    assert!(
        !one(&sent, "repeat_sender", ALICE)
            .text
            .contains("не позднее")
    );
    check_against_sweep(&mut post, last_day_in(&rep.text));
}
