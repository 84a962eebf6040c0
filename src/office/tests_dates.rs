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
    let mut post = Post::unstarted(
        "russian",
        "",
        "{}",
        &[("Иванов Иван", ALICE), ("Петров Пётр", BOB)],
    );
    post.start("2026-11-25");
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

/// The `Даты:` line of a letter.
fn dates_line(text: &str) -> &str {
    text.lines()
        .find(|l| l.starts_with("Даты:"))
        .unwrap_or_else(|| panic!("no dates in: {text}"))
}

/// Two players in a tournament starting 01.12.2026 whose start lists go out on `sent`.
fn started_on(sent: &str) -> Post {
    started_with(sent, "{}")
}

/// The same with the tournament's clock settings (JSON, as stored when it was added).
fn started_with(sent: &str, settings: &str) -> Post {
    let mut post = Post::unstarted(
        "russian",
        "",
        settings,
        &[("Иванов Иван", ALICE), ("Петров Пётр", BOB)],
    );
    post.start(sent);
    post.take();
    post
}

#[test]
fn clause_10_3_1_a_receipt_shows_the_dates_of_the_letter_it_acknowledges() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let (_, sent) = post.letter(
        BOB,
        "2026-12-10",
        "Шифр: ЗШ-2026-1\nПартия 1\nВаш ход: 1. c3-d4\nМой ход: 1... f6-g5",
    );
    // Black's own letter: white's move came on 01.12, reached black on 01.12, answered 10.12.
    let receipt = one(&sent, "receipt", BOB);
    assert_eq!(
        dates_line(&receipt.text),
        "Даты: 01.12.2026 / 01.12.2026 / 10.12.2026",
        "{}",
        receipt.text
    );
    assert_eq!(
        dates_line(&receipt.text),
        dates_line(&one(&sent, "forward", ALICE).text),
        "the receipt and the forward of one letter carry the same dates"
    );
}

#[test]
fn clause_10_3_2_white_s_first_date_is_the_day_the_start_list_was_sent() {
    let mut post = two();
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let fwd = one(&sent, "forward", BOB);
    assert_eq!(
        dates_line(&fwd.text),
        "Даты: 25.11.2026 / 01.12.2026 / 01.12.2026",
        "{}",
        fwd.text
    );
    assert_eq!(
        dates_line(&one(&sent, "receipt", ALICE).text),
        "Даты: 25.11.2026 / 01.12.2026 / 01.12.2026"
    );
    // The repeat after 40 days carries the same original dates (10.3.4).
    post.office
        .sweep(&mut post.store, at("2027-01-12"))
        .unwrap();
    let sent = post.take();
    let rep = one(&sent, "repeat", BOB);
    assert!(
        rep.text
            .contains("Даты первичного отправления: 25.11.2026 / 01.12.2026 / 01.12.2026"),
        "{}",
        rep.text
    );
}

#[test]
fn clause_10_3_2_a_late_start_list_starts_white_the_day_after_it_was_sent() {
    let mut post = started_on("2026-12-05");
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-07",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    let fwd = one(&sent, "forward", BOB);
    // Sent 05.12: white's own start is 06.12 (10.3.2), so 07.12 costs one day, not six.
    assert_eq!(
        dates_line(&fwd.text),
        "Даты: 05.12.2026 / 06.12.2026 / 07.12.2026",
        "{}",
        fwd.text
    );
    assert!(
        fwd.text.contains("Время (белые/чёрные): 1/0"),
        "{}",
        fwd.text
    );
}

#[test]
fn clause_10_2_13_after_an_accepted_variant_the_dates_are_the_moves_own() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    post.letter(
        BOB,
        "2026-12-02",
        "Шифр: ЗШ-2026-1\nПартия 1\nВаш ход: 1. c3-d4\nМой ход: 1... f6-g5\n\
         Если 2. g3-f4, то 2... b6-a5",
    );
    // White accepts black's variant and moves on: black's move came 02.12, reached white
    // 02.12, answered 04.12 — not three times 04.12.
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-04",
        "Шифр: ЗШ-2026-1\nПартия 1\nВаш ход: 1... f6-g5\nМой ход: 2. g3-f4 b6-a5 3. b2-c3",
    );
    let fwd = one(&sent, "forward", BOB);
    assert!(fwd.text.contains("Принятая часть"), "{}", fwd.text);
    assert_eq!(
        dates_line(&fwd.text),
        "Даты: 02.12.2026 / 02.12.2026 / 04.12.2026",
        "{}",
        fwd.text
    );
    assert_eq!(
        dates_line(&one(&sent, "receipt", ALICE).text),
        "Даты: 02.12.2026 / 02.12.2026 / 04.12.2026"
    );
}

#[test]
fn clause_10_3_4_the_first_move_query_names_the_tournament_s_days() {
    let mut post = started_with("2026-11-25", r#"{"first_move_query_after_days": 21}"#);
    post.office
        .sweep(&mut post.store, at("2026-12-20"))
        .unwrap();
    // Only the weekly digest that the arbiter gets on Mondays may go before that.
    let early = post.take();
    assert!(
        early.iter().all(|s| s.kind == "weekly_digest"),
        "21 days have not passed: {early:?}"
    );
    post.office
        .sweep(&mut post.store, at("2026-12-23"))
        .unwrap();
    let sent = post.take();
    let white = one(&sent, "first_move_query", ALICE);
    assert!(
        white.text.contains("не получен уже 21 день (п. 10.3.4)"),
        "{}",
        white.text
    );
    let black = one(&sent, "first_move_query", BOB);
    assert!(
        black.text.contains("не получен за 21 день после начала"),
        "{}",
        black.text
    );
    assert!(!white.text.contains("30 дней") && !black.text.contains("30 дней"));
}

#[test]
fn a_warning_sent_late_counts_the_days_really_left() {
    let mut post = two();
    post.letter(
        ALICE,
        "2026-12-01",
        "Шифр: ЗШ-2026-1\nПартия 1\nМой ход: 1. c3-d4",
    );
    // The warning fell due with 7 days left (14.01); the daemon was down until 17.01.
    post.office
        .sweep(&mut post.store, at("2027-01-17"))
        .unwrap();
    let sent = post.take();
    let warning = one(&sent, "warning", BOB);
    assert!(
        warning.subject.ends_with("до просрочки осталось 3 дня"),
        "{}",
        warning.subject
    );
    assert!(
        warning.text.contains("вы затратили 47 из 50 дней"),
        "{}",
        warning.text
    );
    assert!(warning.text.contains("просрочка наступит 21.01.2027"));
}
