//! 100-square draughts in the letters: FMJD numeric notation (`32-28`, `19x28`), numbered
//! diagrams, and the board seen from the player's side.

use super::*;

/// A hundred-square tournament of Иванов (White in game 1) and Петров, started 2026-12-01.
fn hundred() -> Post {
    let mut post = Post::unstarted(
        "hundred",
        "Кубок зимы",
        "{}",
        &[("Иванов Иван", ALICE), ("Петров Пётр", BOB)],
    );
    post.start("2026-11-25");
    post.take();
    post
}

const HEAD: &str = "Шифр: ЗШ-2026-1\nПартия 1\n";
const DATES: &str = "Время: 0/0\n";

/// 1. 32-28 19-23, played by mail; the sent letters of Black's answer.
fn opening(post: &mut Post) -> Vec<Sent> {
    post.letter(
        ALICE,
        "2026-12-01",
        &format!("{HEAD}Мой ход: 1. 32-28\n{DATES}"),
    );
    post.letter(
        BOB,
        "2026-12-02",
        &format!("{HEAD}Ваш ход: 1. 32-28\nМой ход: 1... 19-23\n{DATES}"),
    )
    .1
}

#[test]
fn a_hundred_square_capture_is_forwarded_and_receipted_in_fmjd_notation() {
    let mut post = hundred();
    let sent = opening(&mut post);
    assert!(
        one(&sent, "forward", ALICE).text.contains("1... 19-23"),
        "{sent:#?}"
    );
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-03",
        &format!("{HEAD}Ваш ход: 1... 19-23\nМой ход: 2. 28:19\n{DATES}"),
    );
    let fwd = one(&sent, "forward", BOB);
    assert!(fwd.subject.contains("2. 28x19"), "{}", fwd.subject);
    assert!(fwd.text.contains("Ход партнёра: 2. 28x19"), "{}", fwd.text);
    // zaochka's own rendering, above the sender's words (which keep his "28:19")
    let own = &fwd.text[..fwd.text.find("Письмо партнёра:").unwrap()];
    assert!(!own.contains("28:19"), "{own}");
    assert!(own.contains("Ваш ход: 2. 28x19\n"), "{own}");
    let receipt = one(&sent, "receipt", ALICE);
    assert!(receipt.text.contains("2. 28x19"), "{}", receipt.text);
}

#[test]
fn an_impossible_hundred_square_move_is_explained_with_numbers() {
    let mut post = hundred();
    opening(&mut post);
    // A capture is compulsory: 28x19 (10.2.10); the reason names it in numbers.
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-03",
        &format!("{HEAD}Ваш ход: 1... 19-23\nМой ход: 2. 31-27\n{DATES}"),
    );
    let rej = one(&sent, "rejected", ALICE);
    assert!(rej.text.contains("бить обязательно: 28x19"), "{}", rej.text);
}

#[test]
fn a_hundred_square_forward_carries_a_numbered_diagram() {
    let mut post = hundred();
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-01",
        &format!("{HEAD}Мой ход: 1. 32-28\n{DATES}"),
    );
    let fwd = one(&sent, "forward", BOB);
    assert!(fwd.text.contains("Справа — номера полей."), "{}", fwd.text);
    assert!(
        fwd.text
            .contains("10 |   ч   ч   ч   ч   ч |       1     2     3     4     5\n"),
        "{}",
        fwd.text
    );
}

#[test]
fn doska_ot_chyornykh_turns_the_players_diagrams_and_the_receipt_says_so() {
    let mut post = hundred();
    post.letter(
        ALICE,
        "2026-12-01",
        &format!("{HEAD}Мой ход: 1. 32-28\n{DATES}"),
    );
    let (_, sent) = post.letter(
        BOB,
        "2026-12-02",
        &format!("{HEAD}Доска: от чёрных\nВаш ход: 1. 32-28\nМой ход: 1... 19-23\n{DATES}"),
    );
    let receipt = one(&sent, "receipt", BOB);
    assert!(
        receipt.text.contains(
            "Примечание: как вы просили, диаграммы этой партии теперь рисуются со стороны чёрных"
        ),
        "{}",
        receipt.text
    );
    // White's diagram is as ever.
    let to_white = one(&sent, "forward", ALICE);
    assert!(
        !to_white.text.contains("стороны чёрных"),
        "{}",
        to_white.text
    );
    assert!(to_white.text.contains("\n10 |"), "{}", to_white.text);
    // Black's next forward is drawn from his side: rank 1 on top, square 50 top left.
    let (_, sent) = post.letter(
        ALICE,
        "2026-12-03",
        &format!("{HEAD}Ваш ход: 1... 19-23\nМой ход: 2. 28:19\n{DATES}"),
    );
    let fwd = one(&sent, "forward", BOB);
    assert!(
        fwd.text.contains("Доска показана со стороны чёрных."),
        "{}",
        fwd.text
    );
    let first_rank = fwd
        .text
        .lines()
        .find(|l| l.ends_with("50    49    48    47    46"))
        .unwrap_or_else(|| panic!("{}", fwd.text));
    assert!(first_rank.starts_with(" 1 |"), "{first_rank}");
}

#[test]
fn the_board_line_alone_is_answered_with_a_short_note() {
    let mut post = hundred();
    let (_, sent) = post.letter(BOB, "2026-12-01", &format!("{HEAD}Board: from black\n"));
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let note = one(&sent, "note", BOB);
    assert!(
        note.text
            .contains("Как вы просили, диаграммы партии 1 теперь рисуются со стороны чёрных."),
        "{}",
        note.text
    );
}
