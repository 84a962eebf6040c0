//! Unit tests of the letter reader: each keyword, Russian and English, and the problems.

use chrono::{DateTime, NaiveDate};

use super::*;

fn ctx(date: &str) -> ReadContext {
    ReadContext {
        date: Some(DateTime::parse_from_rfc3339(date).unwrap()),
        ..ReadContext::default()
    }
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn moves(list: &[MoveItem]) -> Vec<String> {
    list.iter()
        .map(|m| match (m.number, m.side) {
            (Some(n), Some(Side::White)) => format!("{n}. {}", m.normalised()),
            (Some(n), Some(Side::Black)) => format!("{n}... {}", m.normalised()),
            _ => m.normalised(),
        })
        .collect()
}

#[test]
fn english_keywords_read_like_russian_ones() {
    let l = read(
        "Tournament: ZSh-2026-1\nGame 7\nYour move: 12... f8:d6\nMy move: 13. e3-f4\n\
         If 13... g7-h6, then 14. f4-e5\nDates: 01.12.2026, 03.12.2026, 05.12.2026\n\
         Time: 23/17\nI offer a draw\n",
        &ReadContext::default(),
    );
    assert_eq!(l.cipher.as_deref(), Some("ZSh-2026-1"));
    assert_eq!(l.game, Some(7));
    assert_eq!(moves(&l.repeated), ["12... f8:d6"]);
    assert_eq!(moves(&l.moves), ["13. e3-f4"]);
    assert_eq!(moves(&l.variants[0].moves), ["13... g7-h6", "14. f4-e5"]);
    assert_eq!(l.dates.len(), 3);
    assert_eq!(l.draw, Some(Draw::Offer));
    assert!(l.problems.is_empty(), "{:?}", l.problems);
}

#[test]
fn white_then_black_after_one_number_per_10_2_3() {
    let l = read(
        "Мой ход: 13. e3-f4 g7-h6 14. f4-e5",
        &ReadContext::default(),
    );
    assert_eq!(moves(&l.moves), ["13. e3-f4", "13... g7-h6", "14. f4-e5"]);
}

#[test]
fn black_move_alone_in_every_written_form() {
    for text in [
        "12... f8:d6",
        "12… f8:d6",
        "12...f8:d6",
        "12. ... f8:d6",
        "12 ... f8:d6",
    ] {
        let l = read(&format!("Ваш ход: {text}"), &ReadContext::default());
        assert_eq!(moves(&l.repeated), ["12... f8:d6"], "{text}");
    }
}

#[test]
fn a_wrong_number_is_reported_per_10_2_14() {
    let l = read(
        "Ваш ход: 12... f8:d6\nМой ход: 14. e3-f4",
        &ReadContext::default(),
    );
    assert_eq!(
        l.problems[0],
        Problem::Numbering {
            text: "e3-f4".into(),
            expected: (13, Side::White),
            found: (14, Side::White)
        }
    );
}

#[test]
fn variants_in_all_three_phrasings_of_10_2_7_with_labels() {
    let l = read(
        "Мой ход: 13. e3-f4\nВариант А: если 13... g7-h6, то 14. f4-e5\n\
         Вариант Б: на 13... f6-g5 предлагаю 14. f4:h6\n\
         Предлагаю вариант: 13... b6-a5 14. f4-g5",
        &ReadContext::default(),
    );
    let labels: Vec<_> = l.variants.iter().map(|v| v.label.clone()).collect();
    assert_eq!(labels, [Some("А".into()), Some("Б".into()), None]);
    assert_eq!(moves(&l.variants[1].moves), ["13... f6-g5", "14. f4:h6"]);
    assert_eq!(moves(&l.variants[2].moves), ["13... b6-a5", "14. f4-g5"]);
}

#[test]
fn an_unreadable_move_cuts_the_variant_per_10_2_12() {
    let l = read(
        "Мой ход: 13. e3-f4\nЕсли 13... g7-h6, то 14. fe5 15. e5-d6",
        &ReadContext::default(),
    );
    assert_eq!(moves(&l.variants[0].moves), ["13... g7-h6"]);
    assert!(
        matches!(&l.problems[0], Problem::VariantCut { text, is_short: true, .. } if text == "fe5")
    );
    assert_eq!(l.problems[0].clause(), Some("10.2.2, 10.2.12"));
}

#[test]
fn short_notation_in_own_moves_is_a_10_2_2_problem() {
    let l = read("Мой ход: 13. ef4", &ReadContext::default());
    assert_eq!(l.moves[0].normalised(), "ef4");
    assert_eq!(l.problems[0].clause(), Some("10.2.2"));
}

#[test]
fn cyrillic_letters_in_squares_are_read_as_latin() {
    let l = read("Мой ход: 13. е3-f4 14. с3:а5", &ReadContext::default());
    assert_eq!(moves(&l.moves), ["13. e3-f4", "14. c3:a5"]);
}

#[test]
fn year_less_dates_take_the_letter_year_or_the_one_before() {
    let l = read(
        "Даты: 29.12 / 31.12 / 02.01",
        &ctx("2027-01-02T10:00:00+03:00"),
    );
    assert_eq!(
        l.dates,
        [day(2026, 12, 29), day(2026, 12, 31), day(2027, 1, 2)]
    );
    let l = read("Даты: 1.12.26; 3.12.26; 5.12.26", &ReadContext::default());
    assert_eq!(l.dates[0], day(2026, 12, 1));
}

#[test]
fn break_across_new_year_ends_next_year_per_10_4_3() {
    let l = read(
        "Беру перерыв с 28.12 по 05.01",
        &ctx("2026-12-02T10:00:00+03:00"),
    );
    assert_eq!(
        l.break_,
        Some(Break {
            from: day(2026, 12, 28),
            to: day(2027, 1, 5)
        })
    );
    let l = read(
        "I take a break from 10.10 to 25.10",
        &ctx("2026-10-01T10:00:00+03:00"),
    );
    assert_eq!(
        l.break_,
        Some(Break {
            from: day(2026, 10, 10),
            to: day(2026, 10, 25)
        })
    );
}

#[test]
fn draw_acceptance_decline_and_resignation() {
    let r = |t: &str| read(t, &ReadContext::default());
    assert_eq!(r("Ничью принимаю").draw, Some(Draw::Accept));
    assert_eq!(r("Согласна на ничью.").draw, Some(Draw::Accept));
    assert_eq!(r("I accept the draw").draw, Some(Draw::Accept));
    assert_eq!(r("Ничью не принимаю").draw, None);
    assert_eq!(r("не согласен на ничью").draw, None);
    assert!(r("Сдаюсь. Спасибо за игру").resign);
    assert!(!r("Я не сдаюсь!").resign);
    assert!(r("I resign").resign);
}

#[test]
fn protest_and_analysis_swallow_the_keywords_inside_them() {
    let l = read(
        "Протест: партнёр не повторил мой ход 12. c3-d4 и если так, то\nпродолжу.\n\n\
         Анализ: 20. c3-d4 если 20... f6-g5, то ничья.\nОценка: ничья\n\nС уважением",
        &ReadContext::default(),
    );
    assert!(l.moves.is_empty() && l.variants.is_empty());
    assert!(l.protest.as_deref().unwrap().ends_with("продолжу."));
    assert!(l.analysis.as_deref().unwrap().ends_with("Оценка: ничья"));
    assert_eq!(l.evaluation, Some(Evaluation::Draw));
}

#[test]
fn game_by_number_sign_or_by_opponent() {
    assert_eq!(read("Партия №7", &ReadContext::default()).game, Some(7));
    assert_eq!(
        read("Партия с Ивановым", &ReadContext::default())
            .opponent
            .as_deref(),
        Some("Ивановым")
    );
}

#[test]
fn cipher_and_game_come_from_the_subject_when_the_text_has_none() {
    let c = ReadContext {
        subject: Some("Re: ЗШ-2026-1, партия 7".into()),
        ..ReadContext::default()
    };
    let l = read("Сдаюсь", &c);
    assert_eq!((l.cipher.as_deref(), l.game), (Some("ЗШ-2026-1"), Some(7)));
}

#[test]
fn missing_dates_and_time_with_a_move_are_10_3_3_problems() {
    let l = read("Мой ход: 1. c3-d4", &ReadContext::default());
    assert_eq!(l.problems, [Problem::DatesMissing, Problem::TimeMissing]);
}

#[test]
fn quoted_moves_of_zaochka_are_never_read() {
    let l = read(
        "Сдаюсь\n\nOn Mon, 1 Dec 2026 at 10:00, zaochka <z@x> wrote:\n> Мой ход: 1. c3-d4\n",
        &ReadContext::default(),
    );
    assert!(l.moves.is_empty() && l.resign);
}

#[test]
fn words_between_keyword_and_value_are_skipped() {
    let l = read(
        "Ответ на ваш ход 12... f8:d6: отвечаю 13. e3-f4\n\
         Даты получения, ответа и отправки: 01.12.2026 / 03.12.2026 / 05.12.2026\n\
         Время на обдумывание: белые 23, чёрные 17",
        &ReadContext::default(),
    );
    assert_eq!(moves(&l.repeated), ["12... f8:d6"]);
    assert_eq!(moves(&l.moves), ["13. e3-f4"]);
    assert_eq!(l.dates.len(), 3);
    assert_eq!(
        l.time,
        Some(TimeUsed {
            white: 23,
            black: 17
        })
    );
    assert!(l.problems.is_empty(), "{:?}", l.problems);
}

#[test]
fn long_pathological_letters_are_read_in_linear_time() {
    for unit in [
        "на ",
        "анализ ",
        "если 1. ",
        "Вариант А ",
        "> x\n",
        "12. c3-d4 ",
        "Протест\n\n",
    ] {
        let text = unit.repeat(200_000 / unit.len());
        let start = std::time::Instant::now();
        let _ = read(&text, &ReadContext::default());
        assert!(
            start.elapsed().as_secs() < 5,
            "{unit:?} took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn the_word_tournament_in_prose_is_no_cipher() {
    let l = read(
        "Thanks for the tournament. My move: 1. c3-d4",
        &ReadContext::default(),
    );
    assert_eq!(l.cipher, None);
    assert_eq!(
        read("Шифр: КЧР", &ReadContext::default()).cipher.as_deref(),
        Some("КЧР")
    );
}

#[test]
fn the_same_move_line_twice_is_no_problem_but_a_different_one_is() {
    let same = read(
        "Мой ход: 1. c3-d4\nДаты: 01.12.2026 / 02.12.2026 / 03.12.2026\nВремя: 0/0\nМой ход: 1. c3-d4",
        &ReadContext::default(),
    );
    assert!(same.problems.is_empty(), "{:?}", same.problems);
    let other = read(
        "Мой ход: 1. c3-d4\nМой ход: 1. a3-b4",
        &ReadContext::default(),
    );
    assert!(
        other
            .problems
            .contains(&Problem::Duplicate { what: "moves" })
    );
    assert_eq!(other.moves[0].normalised(), "c3-d4");
}

#[test]
fn a_greeting_with_cipher_and_game_has_no_content() {
    assert!(
        !read(
            "Шифр: ЗШ-2026-1, партия 7. Ход во вложении.",
            &ReadContext::default()
        )
        .has_content()
    );
    assert!(read("Сдаюсь", &ReadContext::default()).has_content());
}

#[test]
fn lettered_variants_after_one_keyword_keep_their_labels() {
    let l = read(
        "Ваш ход получен: 12... f8:d6\nОтветный ход: 13. e3-f4\n\
         Варианты: а) если 13... g7-h6, то 14. f4-e5; б) на 13... f6-g5 предлагаю 14. f4:h6.",
        &ReadContext::default(),
    );
    assert_eq!(moves(&l.repeated), ["12... f8:d6"]);
    assert_eq!(moves(&l.moves), ["13. e3-f4"]);
    let labels: Vec<_> = l.variants.iter().map(|v| v.label.as_deref()).collect();
    assert_eq!(labels, [Some("а"), Some("б")]);
    assert_eq!(moves(&l.variants[1].moves), ["13... f6-g5", "14. f4:h6"]);
}

#[test]
fn spaces_around_separators_are_read_as_one_move() {
    let l = read(
        "Мой ход: 13. e3 - f4 g7 -h6 14. f4- e5 h6 : f4 : d2",
        &ReadContext::default(),
    );
    assert_eq!(
        moves(&l.moves),
        ["13. e3-f4", "13... g7-h6", "14. f4-e5", "14... h6:f4:d2"]
    );
}

#[test]
fn a_bare_move_line_is_read_as_unlabelled_moves() {
    for text in [
        "Ход: 1. c3-d4",
        "Ходы: 1. c3-d4",
        "ход 1. c3-d4",
        "Move: 1. c3-d4",
    ] {
        let l = read(text, &ReadContext::default());
        assert_eq!(moves(&l.moves), ["1. c3-d4"], "{text}");
        assert!(l.moves_unlabelled, "{text}");
        assert!(
            !l.problems
                .iter()
                .any(|p| matches!(p, Problem::MovesWithoutKeyword { .. })),
            "{text}: {:?}",
            l.problems
        );
    }
    // «Мой ход» wins over a bare line, and prose about a move is not a move.
    let l = read("Ход за вами.\nМой ход: 1. c3-d4", &ReadContext::default());
    assert_eq!(moves(&l.moves), ["1. c3-d4"]);
    assert!(!l.moves_unlabelled);
    let l = read("Спасибо за ход! Подумаю.", &ReadContext::default());
    assert!(l.moves.is_empty() && !l.moves_unlabelled);
}

#[test]
fn the_bat_initials_quotes_are_quoted_text_not_moves() {
    let l = read(
        "Здравствуйте!\n\nИП> Мой ход: 1. c3-d4\nИП> Даты: 01.12.2026\n\nМой ход: 1... f6-g5\n",
        &ReadContext::default(),
    );
    assert_eq!(moves(&l.moves), ["1... f6-g5"]);
    let l = read("ИП>Мой ход: 1. c3-d4\n", &ReadContext::default());
    assert!(l.moves.is_empty(), "{:?}", l.moves);
}

#[test]
fn a_variant_cut_by_short_notation_cites_10_2_2_as_well() {
    let l = read(
        "Мой ход: 13. e3-f4\nЕсли 13... g7-h6, то 14. fe5",
        &ReadContext::default(),
    );
    assert_eq!(l.problems[0].clause(), Some("10.2.2, 10.2.12"));
    let l = read(
        "Мой ход: 13. e3-f4\nЕсли 13... g7-h6, то 14. ж5-е6",
        &ReadContext::default(),
    );
    assert_eq!(l.problems[0].clause(), Some("10.2.12"));
}

#[test]
fn every_problem_has_russian_text_without_latin_words() {
    let all = [
        Problem::ShortNotation {
            text: "cd4".into(),
            place: Place::Own,
        },
        Problem::UnreadableMove {
            text: "жж".into(),
            place: Place::Repeated,
        },
        Problem::VariantCut {
            label: Some("А".into()),
            index: 0,
            text: "fe5".into(),
            is_short: true,
        },
        Problem::Numbering {
            text: "e3-f4".into(),
            expected: (13, Side::White),
            found: (14, Side::White),
        },
        Problem::DatesMissing,
        Problem::DatesCount { found: 2 },
        Problem::UnreadableDate {
            text: "31.02".into(),
        },
        Problem::TimeMissing,
        Problem::UnreadableBreak {
            text: "Беру перерыв".into(),
        },
        Problem::MovesWithoutKeyword {
            text: "1. c3-d4".into(),
        },
        Problem::Duplicate { what: "moves" },
    ];
    for p in &all {
        let ru = p.text_ru();
        // Latin letters only inside the quoted moves and the notation examples.
        let outside: String = ru
            .split('«')
            .map(|part| part.split_once('»').map_or(part, |(_, after)| after))
            .collect::<Vec<_>>()
            .join(" ");
        let outside = outside
            .replace("c3-d4", "")
            .replace("c3:e5", "")
            .replace("e3-f4", "");
        assert!(
            !outside.chars().any(|c| c.is_ascii_alphabetic()),
            "{p:?}: {ru}"
        );
        assert_ne!(ru, p.to_string());
    }
}

#[test]
fn the_board_line_says_which_side_to_draw_the_board_from() {
    let from = |text: &str| read(text, &ReadContext::default()).board_from;
    for text in [
        "Доска: от чёрных",
        "доска от черных",
        "ДОСКА — со стороны чёрных.",
        "Доска: чёрные",
        "Board: from black",
        "Board: from Black's side",
        "board: from the side of Black",
    ] {
        assert_eq!(from(text), Some(Side::Black), "{text}");
    }
    for text in [
        "Доска: от белых",
        "Board: from white",
        "Доска: со стороны белых",
    ] {
        assert_eq!(from(text), Some(Side::White), "{text}");
    }
    // Prose about a board asks for nothing.
    for text in [
        "Доска у меня стоит на столе.",
        "Доскакал до почты.",
        "Spent the evening at the board.",
    ] {
        assert_eq!(from(text), None, "{text}");
    }
}

#[test]
fn a_letter_with_the_board_line_alone_has_content_and_moves_are_read_beside_it() {
    let l = read(
        "Шифр: ЗШ-2026-1, партия 7\nДоска: от чёрных\nВаш ход: 1. 32-28\nМой ход: 1... 19-23\n",
        &ReadContext::default(),
    );
    assert_eq!(l.board_from, Some(Side::Black));
    assert_eq!(moves(&l.repeated), ["1. 32-28"]);
    assert_eq!(moves(&l.moves), ["1... 19-23"]);
    let alone = read(
        "Шифр: ЗШ-2026-1, партия 7\nДоска: от чёрных\n",
        &ReadContext::default(),
    );
    assert!(alone.has_content());
    assert!(alone.problems.is_empty(), "{:?}", alone.problems);
    let json = serde_json::to_value(&alone).unwrap();
    assert_eq!(json["board"], "black");
    // A letter without the line keeps the JSON of `letter read` as it was.
    let plain = serde_json::to_value(read("Сдаюсь", &ReadContext::default())).unwrap();
    assert!(plain.get("board").is_none(), "{plain}");
}
