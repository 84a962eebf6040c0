use super::*;
use crate::game::{Player, Variant};

fn ctx() -> CommandContext {
    CommandContext {
        today: day(2026, 12, 2),
        subject: None,
    }
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a valid date")
}

fn one(text: &str) -> Command {
    let orders = read(text, &ctx());
    assert!(orders.problems.is_empty(), "{text}: {:?}", orders.problems);
    assert_eq!(orders.items.len(), 1, "{text}");
    orders.items[0].command.clone()
}

fn problem(text: &str) -> CommandError {
    let orders = read(text, &ctx());
    assert!(orders.items.is_empty(), "{text}: {:?}", orders.items);
    orders.problems[0].clone()
}

#[test]
fn the_built_in_patterns_compile() {
    for r in [
        &CIPHER,
        &GAME,
        &CONFIRM,
        &REJECT,
        &RESULT,
        &PENALTY,
        &BREAK,
        &DAYS_RE,
        &WARNING,
        &LOSS,
        &WITHDRAW,
        &CLAUSE,
        &COMMAND_WORD,
    ] {
        assert!(!r.as_str().is_empty());
    }
}

#[test]
fn overstep_confirmed_and_rejected_in_both_languages_10_3_7() {
    assert_eq!(one("Просрочка подтверждена."), Command::ConfirmOverstep);
    assert_eq!(one("Overstep confirmed"), Command::ConfirmOverstep);
    assert_eq!(
        one("Просрочки нет"),
        Command::RejectOverstep { days_left: 10 }
    );
    assert_eq!(
        one("No overstep, give back 2 days"),
        Command::RejectOverstep { days_left: 2 }
    );
    assert_eq!(
        one("Просрочки нет, вернуть 3 дня"),
        Command::RejectOverstep { days_left: 3 }
    );
    assert_eq!(
        one("Просрочки нет, оставить 15 дней"),
        Command::RejectOverstep { days_left: 15 }
    );
    // Nothing left would declare the same overstep the next day: not a guess, a problem.
    assert!(matches!(
        problem("Просрочки нет, оставить 0 дней"),
        CommandError::Unreadable(_)
    ));
}

#[test]
fn every_score_form_is_read() {
    let cases = [
        ("Результат: 1-0", Score::WhiteWins),
        ("Результат 0:1", Score::BlackWins),
        ("Результат: ничья", Score::Draw),
        ("Result: 1/2-1/2", Score::Draw),
        ("Результат: ½–½", Score::Draw),
        ("Результат: -/-", Score::BothLose),
        ("Присуждение: выигрыш чёрных", Score::BlackWins),
        ("Result: draw", Score::Draw),
    ];
    for (text, score) in cases {
        match one(text) {
            Command::SetResult { score: s, .. } => assert_eq!(s, score, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn a_result_keeps_its_note() {
    assert_eq!(
        one("Результат: 1-0 (присуждение, 10.5.5)"),
        Command::SetResult {
            score: Score::WhiteWins,
            note: "присуждение, 10.5.5".into()
        }
    );
}

#[test]
fn a_penalty_names_side_days_and_clause_10_3_3() {
    assert_eq!(
        one("Штраф 6 дней белым: п. 10.3.3"),
        Command::Penalty {
            who: Who::Side(Side::White),
            days: 6,
            clause: "10.3.3".into(),
            reason: String::new()
        }
    );
    assert_eq!(
        one("Penalty 12 days to black: clause 10.2.11, two letters"),
        Command::Penalty {
            who: Who::Side(Side::Black),
            days: 12,
            clause: "10.2.11".into(),
            reason: "two letters".into()
        }
    );
}

#[test]
fn a_penalty_without_days_is_the_rules_six() {
    match one("Штраф чёрным: п. 10.3.7") {
        Command::Penalty { days, .. } => assert_eq!(days, PENALTY_DAYS),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_sanction_without_a_clause_is_refused_10_1_10() {
    assert!(matches!(
        problem("Штраф 6 дней белым"),
        CommandError::ClauseMissing(_)
    ));
    assert!(matches!(
        problem("Предупреждение белым: за грубость"),
        CommandError::ClauseMissing(_)
    ));
    assert!(matches!(
        problem("Поражение чёрным"),
        CommandError::ClauseMissing(_)
    ));
}

#[test]
fn a_penalty_is_cancelled_with_or_without_its_details() {
    assert_eq!(
        one("Отменить штраф белым: п. 10.3.3"),
        Command::CancelPenalty {
            who: Who::Side(Side::White),
            days: None,
            clause: Some("10.3.3".into())
        }
    );
    assert_eq!(
        one("Cancel penalty 6 days black"),
        Command::CancelPenalty {
            who: Who::Side(Side::Black),
            days: Some(6),
            clause: None
        }
    );
}

#[test]
fn a_special_break_names_the_player_and_two_dates_10_4_5() {
    assert_eq!(
        one("Особый перерыв Иванову с 01.03 по 20.03"),
        Command::SpecialBreak {
            who: Who::Name("Иванову".into()),
            from: day(2026, 3, 1),
            to: day(2026, 3, 20)
        }
    );
    assert_eq!(
        one("Special break to Petrov from 2026-12-20 to 2027-01-10"),
        Command::SpecialBreak {
            who: Who::Name("Petrov".into()),
            from: day(2026, 12, 20),
            to: day(2027, 1, 10)
        }
    );
}

#[test]
fn a_special_break_over_new_year_ends_next_year() {
    match one("Особый перерыв белым с 20.12 по 10.01") {
        Command::SpecialBreak { from, to, .. } => {
            assert_eq!((from, to), (day(2026, 12, 20), day(2027, 1, 10)));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn impossible_dates_are_a_problem() {
    assert!(matches!(
        problem("Особый перерыв Иванову с 31.02 по 20.03"),
        CommandError::BadDate(_)
    ));
}

#[test]
fn days_are_added_or_given_back() {
    assert_eq!(
        one("Добавить 5 дней чёрным: сбой почты"),
        Command::AddDays {
            who: Who::Side(Side::Black),
            days: 5,
            reason: "сбой почты".into()
        }
    );
    assert_eq!(
        one("Give back 3 days to white: mail outage"),
        Command::AddDays {
            who: Who::Side(Side::White),
            days: -3,
            reason: "mail outage".into()
        }
    );
}

#[test]
fn warnings_remarks_and_losses_carry_the_clause_10_1_9() {
    assert_eq!(
        one("Предупреждение белым: п. 10.2.6"),
        Command::Warning {
            who: Who::Side(Side::White),
            clause: "10.2.6".into(),
            reason: String::new(),
            is_remark: false
        }
    );
    assert!(matches!(
        one("Замечание Сидорову: п. 10.1.11, полемика с партнёром"),
        Command::Warning { is_remark: true, ref reason, .. } if reason == "полемика с партнёром"
    ));
    assert_eq!(
        one("Поражение чёрным: п. 10.1.11"),
        Command::Loss {
            who: Who::Side(Side::Black),
            clause: "10.1.11".into(),
            reason: String::new()
        }
    );
}

#[test]
fn a_withdrawal_says_what_happens_to_both_kinds_of_game_10_5_3() {
    assert_eq!(
        one("Выбыл Иванов: сыгранные засчитать, несыгранные — присуждение"),
        Command::Withdraw {
            who: Who::Name("Иванов".into()),
            finished: FinishedGames::Count,
            unfinished: UnfinishedGames::Adjudicated
        }
    );
    assert_eq!(
        one("Withdrawn Petrov: finished annul, unfinished loss"),
        Command::Withdraw {
            who: Who::Name("Petrov".into()),
            finished: FinishedGames::Annul,
            unfinished: UnfinishedGames::Lost
        }
    );
    assert!(matches!(
        problem("Выбыл Иванов: сыгранные засчитать"),
        CommandError::Unreadable(_)
    ));
}

#[test]
fn game_lines_name_the_game_for_the_commands_below() {
    let orders = read(
        "Добрый день!\nШифр: ЗШ-2026-1, партия 3\nРезультат: 1-0\nПартия 4\nРезультат: ничья\n\nГлавный судья Петров",
        &ctx(),
    );
    assert!(orders.problems.is_empty(), "{:?}", orders.problems);
    let games: Vec<_> = orders
        .items
        .iter()
        .map(|o| (o.cipher.as_deref(), o.game))
        .collect();
    assert_eq!(
        games,
        [(Some("ЗШ-2026-1"), Some(3)), (Some("ЗШ-2026-1"), Some(4))]
    );
}

#[test]
fn the_subject_names_the_game_of_a_reply() {
    let ctx = CommandContext {
        subject: Some("Re: ЗШ-2026-1, партия 7: просрочка".into()),
        ..ctx()
    };
    let orders = read("Просрочка подтверждена", &ctx);
    assert_eq!(orders.items[0].cipher.as_deref(), Some("ЗШ-2026-1"));
    assert_eq!(orders.items[0].game, Some(7));
}

#[test]
fn the_quoted_notice_is_not_read_as_a_command() {
    let orders = read(
        "Просрочки нет\n\n> Просрочка подтверждена?\n> Результат: 1-0\n",
        &ctx(),
    );
    assert_eq!(orders.items.len(), 1);
    assert_eq!(
        orders.items[0].command,
        Command::RejectOverstep { days_left: 10 }
    );
}

#[test]
fn a_letter_without_commands_says_so() {
    assert_eq!(
        read("Здравствуйте, спасибо!", &ctx()).problems,
        [CommandError::NoCommand]
    );
}

#[test]
fn a_command_word_with_nonsense_is_unreadable_not_guessed() {
    assert!(matches!(
        problem("Результат: скоро"),
        CommandError::Unreadable(_)
    ));
}

#[test]
fn dative_surnames_match_the_registered_name() {
    assert!(Who::Name("Иванову".into()).matches("Иванов Иван"));
    assert!(Who::Name("Ивановой".into()).matches("Иванова Анна"));
    assert!(Who::Name("Petrov".into()).matches("Petrov Ivan"));
    assert!(Who::Name("Семёнову".into()).matches("Семенов Олег"));
    assert!(!Who::Name("Иванову".into()).matches("Петров Иван"));
    assert!(!Who::Side(Side::White).matches("Иванов Иван"));
}

fn game() -> GameState {
    let p = |id, name: &str| Player {
        id,
        name: name.into(),
        email: format!("{id}@example.org"),
    };
    GameState::new(
        "ЗШ-2026-1",
        1,
        Variant::Russian,
        p(1, "Иванов Иван"),
        p(2, "Петров Пётр"),
        day(2026, 1, 10),
        day(2026, 12, 31),
    )
}

#[test]
fn a_name_finds_its_side_in_the_game() {
    let g = game();
    assert_eq!(Who::Name("Петрову".into()).side_in(&g), Some(Side::Black));
    assert_eq!(Who::Name("Сидорову".into()).side_in(&g), None);
    assert_eq!(Who::Side(Side::White).side_in(&g), Some(Side::White));
}

#[test]
fn cancelling_finds_the_latest_matching_penalty() {
    let g = game();
    let g = crate::game::arbiter::add_penalty(&g, Side::White, 6, "10.2.11", "x", day(2026, 2, 1))
        .state;
    let g =
        crate::game::arbiter::add_penalty(&g, Side::White, 6, "10.3.3", "y", day(2026, 2, 2)).state;
    let g =
        crate::game::arbiter::add_penalty(&g, Side::Black, 6, "10.3.3", "z", day(2026, 2, 3)).state;
    assert_eq!(find_penalty(&g, Side::White, None, None), Some(1));
    assert_eq!(
        find_penalty(&g, Side::White, None, Some("10.2.11")),
        Some(0)
    );
    assert_eq!(find_penalty(&g, Side::Black, Some(5), None), None);
    let g = crate::game::arbiter::cancel_penalty(&g, 1).state;
    assert_eq!(find_penalty(&g, Side::White, None, None), Some(0));
}

#[test]
fn the_clause_may_follow_the_side_without_a_colon() {
    assert_eq!(
        one("Cancel penalty white 10.3.3"),
        Command::CancelPenalty {
            who: Who::Side(Side::White),
            days: None,
            clause: Some("10.3.3".into())
        }
    );
    assert!(matches!(
        one("Предупреждение белым п. 10.2.6"),
        Command::Warning { ref clause, .. } if clause == "10.2.6"
    ));
}
