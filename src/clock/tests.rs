use chrono::{Days, NaiveDate};
use proptest::prelude::*;

use super::*;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).expect("a valid test date")
}

/// A day of 2026.
fn d26(m: u32, day: u32) -> NaiveDate {
    d(2026, m, day)
}

fn plus(day: NaiveDate, n: u64) -> NaiveDate {
    day.checked_add_days(Days::new(n))
        .expect("a representable date")
}

/// The break of the 10.4.3 example: "беру перерыв с 10.10 по 25.10".
fn example_break() -> [DateRange; 1] {
    [DateRange::new(d26(10, 10), d26(10, 25))]
}

// ---- 10.3.1, 10.4.3: thinking days ----

#[test]
fn clause_10_4_3_break_from_10_10_to_25_10_is_16_days() {
    assert_eq!(example_break()[0].len_days(), 16);
}

#[test]
fn clause_10_4_3_received_08_10_answered_27_10_counts_27_minus_8_minus_16_is_3_days() {
    assert_eq!(thinking_days(d26(10, 8), d26(10, 27), &example_break()), 3);
}

#[test]
fn clause_10_4_3_received_08_10_answered_20_10_during_break_counts_9_minus_8_is_1_day() {
    assert_eq!(thinking_days(d26(10, 8), d26(10, 20), &example_break()), 1);
}

#[test]
fn clause_10_4_3_received_10_10_during_break_answered_26_10_counts_26_minus_25_is_1_day() {
    assert_eq!(thinking_days(d26(10, 10), d26(10, 26), &example_break()), 1);
}

#[test]
fn clause_10_3_1_answer_on_the_day_of_receipt_costs_nothing() {
    assert_eq!(thinking_days(d26(3, 5), d26(3, 5), &[]), 0);
    assert_eq!(thinking_days(d26(3, 5), d26(3, 6), &[]), 1);
}

#[test]
fn clause_10_3_1_an_answer_dated_before_receipt_costs_nothing() {
    assert_eq!(thinking_days(d26(3, 5), d26(3, 1), &[]), 0);
}

#[test]
fn clause_10_3_1_days_are_counted_across_month_ends_year_ends_and_leap_days() {
    let cases = [
        // (received, answered, days)
        (d(2026, 1, 30), d(2026, 2, 2), 3),
        (d(2026, 4, 29), d(2026, 5, 1), 2),
        (d(2024, 2, 28), d(2024, 3, 1), 2), // leap year: 29.02 counts
        (d(2026, 2, 28), d(2026, 3, 1), 1),
        (d(2025, 12, 30), d(2026, 1, 2), 3),
        (d(2025, 12, 31), d(2026, 1, 1), 1),
        (d(2024, 1, 1), d(2025, 1, 1), 366),
        (d(2026, 1, 1), d(2027, 1, 1), 365),
    ];
    for (received, answered, days) in cases {
        assert_eq!(
            thinking_days(received, answered, &[]),
            days,
            "{received} → {answered}"
        );
    }
}

#[test]
fn clause_10_4_2_days_on_a_break_of_either_player_count_once_when_breaks_overlap() {
    let off = [
        DateRange::new(d26(5, 10), d26(5, 20)),
        DateRange::new(d26(5, 15), d26(5, 25)),
    ];
    // 01.05 → 31.05: 30 days, less 10.05–25.05 (16 days).
    assert_eq!(thinking_days(d26(5, 1), d26(5, 31), &off), 14);
}

#[test]
fn clause_10_4_2_break_across_month_end_and_leap_day() {
    let off = [DateRange::new(d(2024, 2, 20), d(2024, 3, 5))];
    assert_eq!(off[0].len_days(), 15);
    assert_eq!(thinking_days(d(2024, 2, 15), d(2024, 3, 10), &off), 24 - 15);
}

#[test]
fn nth_thinking_day_skips_break_days() {
    let brk = example_break();
    // Received 08.10: the 1st day is 09.10, the 2nd is 26.10 (after the break).
    assert_eq!(nth_thinking_day(d26(10, 8), 1, &brk), Some(d26(10, 9)));
    assert_eq!(nth_thinking_day(d26(10, 8), 2, &brk), Some(d26(10, 26)));
    assert_eq!(nth_thinking_day(d26(10, 12), 1, &brk), Some(d26(10, 26)));
    assert_eq!(nth_thinking_day(d26(10, 8), 0, &brk), Some(d26(10, 8)));
}

// ---- 10.4: breaks ----

#[test]
fn clause_10_4_1_a_break_of_30_days_is_allowed_and_31_is_not() {
    let s = ClockSettings::default();
    let ok = Break::ordinary(d26(7, 1), d26(7, 30), d26(6, 20));
    assert_eq!(check_break(&ok, &[], &s), Ok(()));
    let long = Break::ordinary(d26(7, 1), d26(7, 31), d26(6, 20));
    assert!(matches!(
        check_break(&long, &[], &s),
        Err(BreakError::TooLong {
            days: 31,
            max: 30,
            ..
        })
    ));
}

#[test]
fn clause_10_4_3_a_break_ending_before_it_begins_is_refused() {
    let b = Break::ordinary(d26(7, 10), d26(7, 1), d26(6, 20));
    assert!(matches!(
        check_break(&b, &[], &ClockSettings::default()),
        Err(BreakError::Reversed { .. })
    ));
}

#[test]
fn clause_10_4_1_one_ordinary_break_per_calendar_year() {
    let s = ClockSettings::default();
    let first = Break::ordinary(d26(3, 1), d26(3, 10), d26(2, 20));
    let second = Break::ordinary(d26(9, 1), d26(9, 10), d26(8, 20));
    let err = check_break(&second, &[first], &s).unwrap_err();
    assert!(matches!(err, BreakError::SecondInYear { year: 2026, .. }));
    assert!(err.to_string().contains("10.4.1"));
    let next_year = Break::ordinary(d(2027, 3, 1), d(2027, 3, 10), d(2027, 2, 20));
    assert_eq!(check_break(&next_year, &[first], &s), Ok(()));
}

#[test]
fn clause_10_4_1_a_break_over_new_year_belongs_to_the_year_of_its_first_day() {
    let s = ClockSettings::default();
    let over_new_year = Break::ordinary(d(2026, 12, 20), d(2027, 1, 10), d(2026, 12, 1));
    assert_eq!(check_break(&over_new_year, &[], &s), Ok(()));
    // Another break in 2026 is refused ...
    let same_year = Break::ordinary(d26(6, 1), d26(6, 5), d26(5, 1));
    assert!(matches!(
        check_break(&same_year, &[over_new_year], &s),
        Err(BreakError::SecondInYear { year: 2026, .. })
    ));
    // ... one beginning in 2027 after it is allowed, one overlapping it is not.
    let next = Break::ordinary(d(2027, 6, 1), d(2027, 6, 5), d(2027, 5, 1));
    assert_eq!(check_break(&next, &[over_new_year], &s), Ok(()));
    let overlapping = Break::ordinary(d(2027, 1, 5), d(2027, 1, 20), d(2026, 12, 1));
    assert!(matches!(
        check_break(&overlapping, &[over_new_year], &s),
        Err(BreakError::Overlaps { .. })
    ));
}

#[test]
fn clause_10_4_2_a_break_announced_late_counts_from_the_announcement() {
    let b = Break::ordinary(d26(10, 10), d26(10, 25), d26(10, 15));
    assert_eq!(check_break(&b, &[], &ClockSettings::default()), Ok(()));
    assert_eq!(
        b.effective(),
        Some(DateRange::new(d26(10, 15), d26(10, 25)))
    );
    let off = [b.effective().unwrap()];
    // 08.10 → 27.10: 19 days less 15.10–25.10 (11 days) = 8.
    assert_eq!(thinking_days(d26(10, 8), d26(10, 27), &off), 8);
    // Announced in time, it counts in full.
    let early = Break::ordinary(d26(10, 10), d26(10, 25), d26(10, 1));
    assert_eq!(early.effective(), Some(example_break()[0]));
}

#[test]
fn clause_10_4_2_a_break_announced_after_its_last_day_is_refused() {
    let b = Break::ordinary(d26(10, 10), d26(10, 25), d26(10, 26));
    assert_eq!(b.effective(), None);
    assert!(matches!(
        check_break(&b, &[], &ClockSettings::default()),
        Err(BreakError::AnnouncedAfterEnd { .. })
    ));
}

#[test]
fn clause_10_4_5_a_special_break_is_exempt_from_the_limits_and_counts_in_full() {
    let s = ClockSettings::default();
    let ordinary = Break::ordinary(d26(3, 1), d26(3, 10), d26(2, 20));
    // 45 days, granted after it began, a second break in 2026.
    let special = Break::special(d26(5, 1), d26(6, 14), d26(5, 20));
    assert_eq!(check_break(&special, &[ordinary], &s), Ok(()));
    assert_eq!(special.effective(), Some(special.range));
    // And it does not use up the year's ordinary break.
    let later = Break::ordinary(d(2027, 3, 1), d(2027, 3, 10), d(2027, 2, 1));
    assert_eq!(check_break(&later, &[special], &s), Ok(()));
    let this_year = Break::ordinary(d26(9, 1), d26(9, 10), d26(8, 1));
    assert_eq!(check_break(&this_year, &[special], &s), Ok(()));
}

#[test]
fn clause_10_4_1_a_break_has_the_same_dates_in_all_unfinished_games() {
    let a = Break::ordinary(d26(10, 10), d26(10, 25), d26(10, 1));
    let told_late = Break::ordinary(d26(10, 10), d26(10, 25), d26(10, 12));
    assert_eq!(check_same_dates(&[a, told_late]), Ok(()));
    let other = Break::ordinary(d26(10, 11), d26(10, 25), d26(10, 1));
    assert!(matches!(
        check_same_dates(&[a, told_late, other]),
        Err(BreakError::DifferentDates { .. })
    ));
    assert_eq!(check_same_dates(&[]), Ok(()));
}

#[test]
fn clause_10_4_4_a_letter_sent_during_ones_own_break_costs_no_time_and_does_not_end_it() {
    let mut l = Ledger::new(ClockSettings::default(), d26(10, 1), d(2027, 6, 1));
    l.answer(Side::White, d26(10, 1)).unwrap();
    l.receive(Side::Black, 1, d26(10, 8)).unwrap();
    l.add_break(
        Side::Black,
        Break::ordinary(d26(10, 10), d26(10, 25), d26(10, 1)),
    )
    .unwrap();
    // Black answers on 20.10, in the middle of his own break: only 09.10 counts.
    assert_eq!(l.answer(Side::Black, d26(10, 20)).unwrap(), 1);
    // The break goes on: white's clock, received 20.10, starts on 26.10.
    l.receive(Side::White, 2, d26(10, 20)).unwrap();
    assert_eq!(l.running_days(Side::White, d26(10, 25)), 0);
    assert_eq!(l.running_days(Side::White, d26(10, 27)), 2);
    assert_eq!(l.off_days(), example_break().to_vec());
}

#[test]
fn clause_10_4_2_a_refused_break_is_not_added_to_the_game() {
    let mut l = Ledger::new(ClockSettings::default(), d26(1, 10), d26(12, 31));
    l.add_break(
        Side::White,
        Break::ordinary(d26(3, 1), d26(3, 5), d26(2, 1)),
    )
    .unwrap();
    let err = l
        .add_break(
            Side::White,
            Break::ordinary(d26(5, 1), d26(5, 5), d26(4, 1)),
        )
        .unwrap_err();
    assert!(matches!(
        err,
        ClockError::Break(BreakError::SecondInYear { .. })
    ));
    assert_eq!(l.breaks.white.len(), 1);
    // The partner's break in the same year is his own.
    l.add_break(
        Side::Black,
        Break::ordinary(d26(5, 1), d26(5, 5), d26(4, 1)),
    )
    .unwrap();
}

// ---- 10.3.2: the start and the end of play ----

#[test]
fn clause_10_3_2_a_first_move_on_the_start_date_or_earlier_costs_nothing() {
    let start = d26(3, 1);
    for sent in [d26(2, 25), start] {
        let mut l = Ledger::new(ClockSettings::default(), start, d26(12, 31));
        assert_eq!(l.answer(Side::White, sent).unwrap(), 0, "sent {sent}");
    }
    let mut l = Ledger::new(ClockSettings::default(), start, d26(12, 31));
    assert_eq!(l.answer(Side::White, d26(3, 4)).unwrap(), 3);
}

#[test]
fn clause_10_3_2_a_start_list_sent_after_the_start_date_makes_the_next_day_the_start() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.start_list_sent(Side::White, d26(3, 5));
    assert_eq!(l.starts.white, d26(3, 6));
    assert_eq!(l.running_days(Side::White, d26(3, 6)), 0);
    assert_eq!(l.running_days(Side::White, d26(3, 8)), 2);
    // Sent on the start date or before, the start stays.
    l.start_list_sent(Side::Black, d26(3, 1));
    assert_eq!(l.starts.black, d26(3, 1));
    // Black's late start: a move forwarded before it counts from it.
    l.start_list_sent(Side::Black, d26(3, 9));
    l.answer(Side::White, d26(3, 8)).unwrap();
    l.receive(Side::Black, 1, d26(3, 8)).unwrap();
    assert_eq!(l.running_days(Side::Black, d26(3, 12)), 2);
}

#[test]
fn clause_10_3_2_no_day_after_the_end_of_play_date_is_counted() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(5, 31));
    l.answer(Side::White, d26(3, 1)).unwrap();
    l.receive(Side::Black, 1, d26(5, 20)).unwrap();
    assert_eq!(l.running_days(Side::Black, d26(6, 30)), 11);
    assert_eq!(l.answer(Side::Black, d26(7, 15)).unwrap(), 11);
    // Received on the end-of-play date: nothing more counts.
    l.receive(Side::White, 2, d26(5, 31)).unwrap();
    assert_eq!(l.running_days(Side::White, d26(8, 1)), 0);
}

// ---- penalties, the limit, counted moves ----

#[test]
fn clause_10_2_11_penalty_days_are_added_to_the_total() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.answer(Side::White, d26(3, 3)).unwrap();
    l.receive(Side::Black, 1, d26(3, 3)).unwrap();
    l.charge_penalty(Side::White, 1, d26(3, 4), "10.2.11");
    assert_eq!(l.penalty_days(Side::White), 6);
    assert_eq!(l.total(Side::White, d26(3, 10)), 2 + 6);
    assert_eq!(l.total(Side::Black, d26(3, 10)), 7);
}

#[test]
fn clause_10_3_3_penalty_days_are_configurable_and_the_arbiter_may_give_days_back() {
    let settings = ClockSettings {
        penalty_days: 3,
        ..ClockSettings::default()
    };
    let mut l = Ledger::new(settings, d26(3, 1), d26(12, 31));
    l.charge_penalty(Side::White, 1, d26(3, 2), "10.3.3");
    assert_eq!(l.penalty_days(Side::White), 3);
    l.charge(Penalty {
        side: Side::White,
        move_number: 1,
        on: d26(3, 3),
        days: -2,
        clause: "10.1.7".into(),
    });
    assert_eq!(l.penalty_days(Side::White), 1);
}

#[test]
fn clause_10_3_7_penalty_for_a_wrongly_declared_overstep_is_six_days() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.charge_penalty(Side::Black, 5, d26(4, 1), "10.3.7");
    assert_eq!(l.penalties[0].days, 6);
    assert_eq!(l.penalties[0].clause, "10.3.7");
}

#[test]
fn clause_10_3_5_the_limit_is_50_days_for_every_10_moves_accumulated() {
    let s = ClockSettings::default();
    let table = [
        (0, 50),
        (1, 50),
        (9, 50),
        (10, 100),
        (19, 100),
        (20, 150),
        (35, 200),
    ];
    for (m, limit) in table {
        assert_eq!(s.limit(m), limit, "m = {m}");
    }
    let fast = ClockSettings {
        days_per_period: 30,
        ..ClockSettings::default()
    };
    assert_eq!(fast.limit(10), 60);
}

#[test]
fn clause_10_3_5_own_accepted_variant_moves_do_not_count_but_forced_ones_do() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.answer(Side::White, d26(3, 1)).unwrap();
    assert_eq!(l.counted_moves(Side::White), 1);
    // Black accepts white's variant: white's move 2 is made without a letter of white.
    l.record_move(Side::White, 2, d26(3, 5), false);
    assert_eq!(l.counted_moves(Side::White), 1);
    // A forced move of the variant counts.
    l.record_move(Side::White, 3, d26(3, 5), true);
    assert_eq!(l.counted_moves(Side::White), 2);
    // Such moves cost no days.
    assert_eq!(l.thinking_total(Side::White, d26(3, 5)), 0);
}

#[test]
fn record_move_keeps_the_pending_answer_last() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.answer(Side::White, d26(3, 1)).unwrap();
    l.receive(Side::Black, 1, d26(3, 2)).unwrap();
    l.record_move(Side::White, 2, d26(3, 2), false);
    assert_eq!(l.pending().map(|a| a.side), Some(Side::Black));
    assert!(l.answers.last().unwrap().answered.is_none());
}

#[test]
fn the_ledger_refuses_a_second_pending_answer_and_an_answer_nobody_awaits() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    assert!(matches!(
        l.receive(Side::Black, 1, d26(3, 2)),
        Err(ClockError::AlreadyPending {
            pending: Side::White,
            move_number: 1,
            ..
        })
    ));
    assert_eq!(
        l.answer(Side::Black, d26(3, 2)),
        Err(ClockError::NothingPending { side: Side::Black })
    );
}

// ---- the overstep day, days left, deadlines ----

#[test]
fn clause_10_3_5_the_overstep_day_is_the_first_day_over_50() {
    let start = d26(3, 1);
    let l = Ledger::new(ClockSettings::default(), start, d26(12, 31));
    let day = l.overstep_day(Side::White).unwrap();
    assert_eq!(day, plus(start, 51)); // 21.04
    assert_eq!(day, d26(4, 21));
    assert!(!l.is_overstepped(Side::White, d26(4, 20)));
    assert_eq!(l.days_left(Side::White, d26(4, 20)), 0);
    assert!(l.is_overstepped(Side::White, day));
    assert_eq!(l.overstep_day(Side::Black), None);
}

#[test]
fn clause_10_3_5_the_overstep_day_across_month_ends_leap_years_breaks_and_penalties() {
    // (start, white's break, penalty days charged on the start, expected overstep day)
    let cases = [
        (d(2024, 2, 1), None, 0, d(2024, 3, 23)), // 29.02.2024 counts
        (d(2025, 2, 1), None, 0, d(2025, 3, 24)),
        (d(2025, 12, 1), None, 0, d(2026, 1, 21)), // over New Year
        (d(2024, 2, 1), None, 6, d(2024, 3, 17)),  // 10.2.11: six days sooner
        (
            d(2024, 2, 1),
            Some((d(2024, 2, 28), d(2024, 3, 1))), // 3 days with 29.02
            0,
            d(2024, 3, 26),
        ),
        (
            d(2025, 2, 1),
            Some((d(2025, 2, 28), d(2025, 3, 1))), // 2 days
            6,
            d(2025, 3, 20),
        ),
    ];
    for (start, brk, penalty, expected) in cases {
        let mut l = Ledger::new(ClockSettings::default(), start, plus(start, 365));
        if let Some((from, to)) = brk {
            l.add_break(Side::White, Break::ordinary(from, to, start))
                .unwrap();
        }
        if penalty > 0 {
            l.charge_penalty(Side::White, 1, start, "10.2.11");
        }
        assert_eq!(l.overstep_day(Side::White), Some(expected), "start {start}");
        assert_eq!(l.total(Side::White, expected), 51);
        assert_eq!(l.total(Side::White, expected.pred_opt().unwrap()), 50);
    }
}

#[test]
fn clause_10_3_5_the_overstep_day_moves_past_breaks_of_either_player() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.add_break(
        Side::Black,
        Break::ordinary(d26(4, 1), d26(4, 10), d26(3, 20)),
    )
    .unwrap();
    assert_eq!(l.overstep_day(Side::White), Some(d26(5, 1)));
}

#[test]
fn clause_10_3_5_the_limit_grows_after_the_tenth_counted_move() {
    let mut l = Ledger::new(ClockSettings::default(), d26(1, 1), d26(12, 31));
    let mut day = d26(1, 1);
    // Ten white moves of 4 days each: 40 days; black answers at once.
    for n in 1..=10 {
        if n > 1 {
            l.receive(Side::White, n, day).unwrap();
        }
        day = plus(day, 4);
        l.answer(Side::White, day).unwrap();
        l.receive(Side::Black, n, day).unwrap();
        l.answer(Side::Black, day).unwrap();
    }
    assert_eq!(l.total(Side::White, day), 40);
    assert_eq!(l.limit(Side::White), 100);
    l.receive(Side::White, 11, day).unwrap();
    assert_eq!(l.overstep_day(Side::White), Some(plus(day, 61)));
    assert_eq!(l.days_left(Side::White, plus(day, 53)), 7);
}

#[test]
fn clause_10_3_5_the_tenth_move_made_on_the_51st_day_is_an_overstep_though_the_limit_grows() {
    let start = d26(1, 1);
    let mut l = Ledger::new(ClockSettings::default(), start, d26(12, 31));
    // Nine moves at once, then the tenth after 51 days.
    for n in 1..=10 {
        if n > 1 {
            l.receive(Side::White, n, start).unwrap();
        }
        let on = if n == 10 { plus(start, 51) } else { start };
        l.answer(Side::White, on).unwrap();
        l.receive(Side::Black, n, on).unwrap();
        l.answer(Side::Black, on).unwrap();
    }
    assert_eq!(l.limit(Side::White), 100);
    assert_eq!(l.limit_on(Side::White, plus(start, 51)), 50);
    assert_eq!(l.total_on(Side::White, plus(start, 51)), 51);
    // The letter came in before the daemon's sweep of that day: the overstep stands.
    assert_eq!(l.overstep_day(Side::White), Some(plus(start, 51)));
    assert!(l.is_overstepped(Side::White, plus(start, 60)));
    assert!(l.deadlines().contains(&Deadline::Overstep {
        side: Side::White,
        move_number: 10,
        day: plus(start, 51)
    }));
    // On the 50th day it would have been in time.
    let mut l = Ledger::new(ClockSettings::default(), start, d26(12, 31));
    for n in 1..=10 {
        if n > 1 {
            l.receive(Side::White, n, start).unwrap();
        }
        let on = if n == 10 { plus(start, 50) } else { start };
        l.answer(Side::White, on).unwrap();
        l.receive(Side::Black, n, on).unwrap();
        l.answer(Side::Black, on).unwrap();
    }
    assert_eq!(l.overstep_day(Side::White), None);
}

#[test]
fn clause_10_3_5_a_penalty_can_overstep_the_player_not_to_move() {
    let mut l = Ledger::new(ClockSettings::default(), d26(1, 1), d26(12, 31));
    l.answer(Side::White, d26(2, 15)).unwrap(); // 45 days
    l.receive(Side::Black, 1, d26(2, 15)).unwrap();
    assert_eq!(l.overstep_day(Side::White), None);
    l.charge_penalty(Side::White, 1, d26(2, 17), "10.2.11");
    assert_eq!(l.overstep_day(Side::White), Some(d26(2, 17)));
    let deadlines = l.deadlines();
    assert!(deadlines.contains(&Deadline::Overstep {
        side: Side::White,
        move_number: 1,
        day: d26(2, 17)
    }));
}

#[test]
fn clause_10_3_2_no_overstep_after_the_end_of_play_date() {
    let l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(4, 20));
    assert_eq!(l.overstep_day(Side::White), None);
    let l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(4, 21));
    assert_eq!(l.overstep_day(Side::White), Some(d26(4, 21)));
}

#[test]
fn the_warning_falls_on_the_first_day_with_7_days_left() {
    let l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    let warning = l
        .deadlines()
        .into_iter()
        .find(|d| matches!(d, Deadline::Warning { .. }))
        .unwrap();
    assert_eq!(
        warning,
        Deadline::Warning {
            side: Side::White,
            move_number: 1,
            days_left: 7,
            day: plus(d26(3, 1), 43)
        }
    );
    assert_eq!(l.days_left(Side::White, warning.day()), 7);
    assert_eq!(l.days_left(Side::White, plus(d26(3, 1), 42)), 8);
}

#[test]
fn the_warning_is_due_at_once_when_a_move_is_received_with_few_days_left() {
    let mut l = Ledger::new(ClockSettings::default(), d26(1, 1), d26(12, 31));
    l.answer(Side::White, d26(1, 1)).unwrap();
    l.receive(Side::Black, 1, d26(1, 1)).unwrap();
    l.answer(Side::Black, d26(2, 16)).unwrap(); // 46 days
    l.receive(Side::White, 2, d26(2, 16)).unwrap();
    l.answer(Side::White, d26(2, 16)).unwrap();
    l.receive(Side::Black, 2, d26(2, 20)).unwrap();
    let w = l
        .deadlines()
        .into_iter()
        .find(|d| matches!(d, Deadline::Warning { .. }))
        .unwrap();
    assert_eq!(w.day(), d26(2, 20));
    assert!(matches!(w, Deadline::Warning { days_left: 4, .. }));
}

#[test]
fn clause_10_3_4_a_move_unanswered_for_40_days_is_repeated() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.answer(Side::White, d26(3, 1)).unwrap();
    l.receive(Side::Black, 1, d26(3, 2)).unwrap();
    let repeat = Deadline::Repeat {
        side: Side::Black,
        move_number: 1,
        forwarded: d26(3, 2),
        day: d26(4, 11),
    };
    assert!(l.deadlines().contains(&repeat));
    assert_eq!(l.next_deadline(), Some(repeat.clone()));
    assert_eq!(l.due(d26(4, 10)), Vec::<Deadline>::new());
    assert_eq!(l.due(d26(4, 11)), vec![repeat]);
}

#[test]
fn clause_10_3_4_break_days_extend_the_40_day_wait() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.answer(Side::White, d26(3, 1)).unwrap();
    l.receive(Side::Black, 1, d26(3, 2)).unwrap();
    l.add_break(
        Side::White,
        Break::ordinary(d26(3, 10), d26(3, 19), d26(3, 1)),
    )
    .unwrap();
    let repeat = l
        .deadlines()
        .into_iter()
        .find(|d| matches!(d, Deadline::Repeat { .. }))
        .unwrap();
    assert_eq!(repeat.day(), d26(4, 21));
}

#[test]
fn clause_10_3_4_no_first_move_30_days_after_the_start_brings_a_query_and_no_repeat() {
    let l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    let all = l.deadlines();
    assert_eq!(all[0], Deadline::FirstMoveQuery { day: d26(3, 31) });
    assert!(!all.iter().any(|d| matches!(d, Deadline::Repeat { .. })));
    // After the first move, no query.
    let mut l = l;
    l.answer(Side::White, d26(3, 2)).unwrap();
    l.receive(Side::Black, 1, d26(3, 2)).unwrap();
    assert!(
        !l.deadlines()
            .iter()
            .any(|d| matches!(d, Deadline::FirstMoveQuery { .. }))
    );
}

#[test]
fn clause_10_3_4_the_first_move_query_counts_from_whites_own_start() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.start_list_sent(Side::White, d26(3, 9));
    assert_eq!(
        l.deadlines()[0],
        Deadline::FirstMoveQuery { day: d26(4, 9) }
    );
}

#[test]
fn clause_10_3_2_no_deadline_falls_after_the_end_of_play_date() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(4, 5));
    l.answer(Side::White, d26(3, 1)).unwrap();
    l.receive(Side::Black, 1, d26(3, 1)).unwrap();
    assert_eq!(l.deadlines(), Vec::<Deadline>::new());
}

#[test]
fn deadlines_come_in_order_of_day() {
    let l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    let days: Vec<_> = l.deadlines().iter().map(Deadline::day).collect();
    let mut sorted = days.clone();
    sorted.sort();
    assert_eq!(days, sorted);
    assert_eq!(days.len(), 3); // query, warning, overstep
}

#[test]
fn deadline_keys_identify_each_deadline_once() {
    let o = Deadline::Overstep {
        side: Side::Black,
        move_number: 12,
        day: d26(5, 3),
    };
    assert_eq!(o.key(), "overstep:black:12:2026-05-03");
    let w = Deadline::Warning {
        side: Side::White,
        move_number: 12,
        days_left: 3,
        day: d26(5, 3),
    };
    assert_eq!(w.key(), "warning:white:12");
    assert_eq!(
        Deadline::FirstMoveQuery { day: d26(1, 1) }.key(),
        "first_move_query"
    );
    let json = serde_json::to_string(&o).unwrap();
    assert_eq!(
        json,
        r#"{"kind":"overstep","side":"black","move_number":12,"day":"2026-05-03"}"#
    );
}

// ---- 10.3.6: Table 2 ----

fn sample_game() -> Ledger {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.answer(Side::White, d26(3, 1)).unwrap();
    l.receive(Side::Black, 1, d26(3, 1)).unwrap();
    l.answer(Side::Black, d26(3, 4)).unwrap();
    l.receive(Side::White, 2, d26(3, 4)).unwrap();
    l.answer(Side::White, d26(3, 10)).unwrap();
    l.record_move(Side::White, 3, d26(3, 12), false);
    l.receive(Side::Black, 2, d26(3, 10)).unwrap();
    l.charge_penalty(Side::Black, 2, d26(3, 12), "10.2.11");
    l
}

#[test]
fn clause_10_3_6_the_time_chart_has_both_players_dates_days_totals_and_penalties() {
    let l = sample_game();
    let chart = l.time_chart(d26(3, 20));
    assert_eq!(chart.rows.len(), 3);
    let r1 = &chart.rows[0];
    assert_eq!(r1.move_number, 1);
    let w1 = r1.white.as_ref().unwrap();
    assert_eq!(
        (w1.received, w1.answered, w1.days, w1.total),
        (d26(3, 1), Some(d26(3, 1)), 0, 0)
    );
    let b1 = r1.black.as_ref().unwrap();
    assert_eq!((b1.days, b1.total), (3, 3));
    let r2 = &chart.rows[1];
    assert_eq!(r2.white.as_ref().unwrap().total, 6);
    let b2 = r2.black.as_ref().unwrap();
    assert_eq!(b2.answered, None);
    assert_eq!(b2.days, 10);
    assert_eq!(b2.penalty_days, 6);
    assert_eq!(b2.penalty_clauses, vec!["10.2.11".to_owned()]);
    assert_eq!(b2.total, 3 + 10 + 6);
    assert!(!chart.rows[2].white.as_ref().unwrap().is_counted);
    assert_eq!(chart.totals.white, l.total(Side::White, d26(3, 20)));
    assert_eq!(chart.totals.black, l.total(Side::Black, d26(3, 20)));
    assert_eq!(chart.limits.white, 50);
}

#[test]
fn clause_10_3_6_the_time_chart_text_is_a_fixed_width_table_in_russian_or_english() {
    let chart = sample_game().time_chart(d26(3, 20));
    let ru = chart.to_text(&ChartLabels::default());
    let expected_ru = "\
График времени на обдумывание (таблица 2, п. 10.3.6), на 20.03.2026
     | Белые                                   | Чёрные
 Ход | Получен    Ответ        Дни Штраф Итого | Получен    Ответ        Дни Штраф Итого
----------------------------------------------------------------------------------------
   1 | 01.03.2026 01.03.2026     0           0 | 01.03.2026 04.03.2026     3           3
   2 | 04.03.2026 10.03.2026     6           6 | 10.03.2026 —             10    +6    19
   3 | 12.03.2026 12.03.2026    0*           6 |
----------------------------------------------------------------------------------------
Итого: Белые 6/50, Чёрные 19/50
(итого/лимит)
* ход варианта, не учитывается (п. 10.3.5)
";
    assert_eq!(ru, expected_ru);
    let en = chart.to_text(&ChartLabels::en());
    assert!(en.starts_with("Time chart (Table 2, clause 10.3.6), as of 20.03.2026"));
    assert!(en.contains("Received   Answered"));
    // Every data line of the table has the same width (chars, not bytes).
    let widths: Vec<usize> = ru
        .lines()
        .skip(2)
        .take(4)
        .map(|l| l.chars().count())
        .collect();
    assert!(widths.iter().all(|w| *w == widths[0]), "{widths:?}");
}

#[test]
fn clause_10_3_6_the_time_chart_lists_breaks_and_suspensions() {
    let mut l = sample_game();
    l.add_break(
        Side::Black,
        Break::ordinary(d26(10, 10), d26(10, 25), d26(10, 12)),
    )
    .unwrap();
    l.add_break(Side::White, Break::special(d26(4, 1), d26(4, 5), d26(4, 2)))
        .unwrap();
    l.suspend(d26(11, 1));
    let chart = l.time_chart(d26(11, 20));
    assert_eq!(
        chart.breaks.black,
        vec![(
            DateRange::new(d26(10, 12), d26(10, 25)),
            BreakKind::Ordinary
        )]
    );
    assert_eq!(
        chart.suspensions,
        vec![DateRange::new(d26(11, 2), d26(11, 20))]
    );
    let text = chart.to_text(&ChartLabels::ru());
    assert!(
        text.contains(
            "Перерывы (п. 10.4): Белые 01.04.2026–05.04.2026 (особый, п. 10.4.5); \
             Чёрные 12.10.2026–25.10.2026\n"
        ),
        "{text}"
    );
    assert!(text.contains("Игра приостановлена (п. 10.3.6): 02.11.2026–20.11.2026\n"));
    let en = chart.to_text(&ChartLabels::en());
    assert!(en.contains("Breaks (10.4): White 01.04.2026–05.04.2026 (special, 10.4.5)"));
}

#[test]
fn clause_10_3_6_the_time_chart_serialises_as_data() {
    let chart = sample_game().time_chart(d26(3, 20));
    let json = serde_json::to_value(&chart).unwrap();
    assert_eq!(json["rows"][1]["black"]["penalty_days"], 6);
    assert_eq!(json["rows"][0]["white"]["received"], "2026-03-01");
    assert_eq!(json["totals"]["black"], 19);
}

// ---- 10.3.1, 10.3.3: claimed dates and times ----

#[test]
fn clause_10_3_1_correct_dates_and_time_pass_the_check() {
    let l = sample_game();
    let claim = Claim {
        dates: ThreeDates {
            partner_sent: Some(d26(3, 10)),
            received: Some(d26(3, 10)),
            answered: Some(d26(3, 15)),
        },
        time: Some(TimeUsed {
            white: 6,
            black: 14,
        }),
    };
    let check = l.check_claim(Side::Black, d26(3, 15), &claim);
    assert!(check.is_clean(), "{check:?}");
}

#[test]
fn clause_10_3_1_wrong_dates_and_time_are_reported_against_the_clocks_own() {
    let l = sample_game();
    let claim = Claim {
        dates: ThreeDates {
            partner_sent: Some(d26(3, 9)),
            received: Some(d26(3, 10)),
            answered: Some(d26(3, 15)),
        },
        time: Some(TimeUsed { white: 6, black: 8 }),
    };
    let check = l.check_claim(Side::Black, d26(3, 15), &claim);
    assert_eq!(
        check.differences,
        vec![
            Difference::Date {
                field: ClaimField::PartnerSent,
                claimed: d26(3, 9),
                actual: d26(3, 10)
            },
            Difference::Time {
                claimed: TimeUsed { white: 6, black: 8 },
                actual: TimeUsed {
                    white: 6,
                    black: 14
                }
            }
        ]
    );
    assert!(check.missing.is_empty());
    // In the default mode a difference is only a polite correction: no penalty.
    assert_eq!(check.penalty_due(&ClockSettings::default(), true), None);
}

#[test]
fn clause_10_3_3_in_strict_mode_missing_dates_are_pointed_out_and_a_repeat_costs_6_days() {
    let l = sample_game();
    let claim = Claim {
        dates: ThreeDates {
            answered: Some(d26(3, 15)),
            ..ThreeDates::default()
        },
        time: None,
    };
    let check = l.check_claim(Side::Black, d26(3, 15), &claim);
    assert_eq!(
        check.missing,
        vec![
            ClaimField::PartnerSent,
            ClaimField::Received,
            ClaimField::Time
        ]
    );
    let lenient = ClockSettings::default();
    assert!(!check.is_incomplete(&lenient));
    let strict = ClockSettings {
        is_strict: true,
        ..ClockSettings::default()
    };
    assert!(check.is_incomplete(&strict));
    assert_eq!(check.penalty_due(&strict, false), None);
    assert_eq!(check.penalty_due(&strict, true), Some(6));
}

#[test]
fn clause_10_3_1_the_claimed_time_is_compared_with_the_totals_on_the_day_of_the_answer() {
    let mut l = sample_game();
    l.answer(Side::Black, d26(3, 15)).unwrap();
    l.receive(Side::White, 3, d26(3, 15)).unwrap();
    l.answer(Side::White, d26(3, 20)).unwrap();
    // Checked after later moves, black's letter of 15.03 still had 6/14 right.
    let claim = Claim {
        dates: ThreeDates {
            partner_sent: Some(d26(3, 10)),
            received: Some(d26(3, 10)),
            answered: Some(d26(3, 15)),
        },
        time: Some(TimeUsed {
            white: 6,
            black: 14,
        }),
    };
    assert!(l.check_claim(Side::Black, d26(3, 25), &claim).is_clean());
}

#[test]
fn clause_10_3_1_whites_first_move_has_no_first_date() {
    let l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    let claim = Claim {
        dates: ThreeDates {
            partner_sent: None,
            received: Some(d26(3, 1)),
            answered: Some(d26(3, 1)),
        },
        time: Some(TimeUsed { white: 0, black: 0 }),
    };
    assert!(l.check_claim(Side::White, d26(3, 1), &claim).is_clean());
}

#[test]
fn clock_settings_read_from_toml_with_the_rules_defaults() {
    let s: ClockSettings = toml::from_str("penalty_days = 3\nis_strict = true").unwrap();
    assert_eq!(s.penalty_days, 3);
    assert!(s.is_strict);
    assert_eq!(s.days_per_period, 50);
    assert!(toml::from_str::<ClockSettings>("penalty = 3").is_err());
}

// ---- properties ----

/// One step of a random game.
#[derive(Debug, Clone)]
enum Step {
    /// The side to move answers after this many days; the move is forwarded after a delay.
    Answer { think: u64, post: u64 },
    /// A variant or forced move of the side that just moved.
    Extra { is_counted: bool },
    /// A penalty to a side.
    Penalty { white: bool, days: i32 },
    /// Play suspended for some days (an overstep before the arbiter), then resumed.
    Suspend { days: u64 },
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0u64..25, 0u64..3).prop_map(|(think, post)| Step::Answer { think, post }),
        1 => any::<bool>().prop_map(|is_counted| Step::Extra { is_counted }),
        1 => (any::<bool>(), -2i32..8).prop_map(|(white, days)| Step::Penalty { white, days }),
        1 => (0u64..20).prop_map(|days| Step::Suspend { days }),
    ]
}

/// A break: offset from the start, length, announcement offset from its first day.
fn brk() -> impl Strategy<Value = (bool, u64, u64, i64)> {
    (any::<bool>(), 0u64..200, 0u64..30, -10i64..10)
}

/// Builds a ledger from a random start, end, breaks and steps; returns it with the day of
/// the last step.
fn build(
    start_offset: u64,
    length: u64,
    breaks: &[(bool, u64, u64, i64)],
    steps: &[Step],
) -> (Ledger, NaiveDate) {
    let start = plus(d(2024, 1, 1), start_offset);
    let end = plus(start, length);
    let mut l = Ledger::new(ClockSettings::default(), start, end);
    for &(white, offset, len, announce) in breaks {
        let from = plus(start, offset);
        let to = plus(from, len);
        let announced = from
            .checked_add_signed(chrono::TimeDelta::days(announce))
            .expect("a representable date");
        let side = if white { Side::White } else { Side::Black };
        let _ = l.add_break(side, Break::ordinary(from, to, announced));
    }
    let mut today = start;
    let mut last_mover: Option<(Side, u32)> = None;
    for s in steps {
        match *s {
            Step::Answer { think, post } => {
                let Some(p) = l.pending().cloned() else { break };
                today = plus(today.max(p.received), think);
                l.answer(p.side, today).expect("pending");
                today = plus(today, post);
                let next = match p.side {
                    Side::White => (Side::Black, p.move_number),
                    Side::Black => (Side::White, p.move_number + 1),
                };
                l.receive(next.0, next.1, today).expect("nothing pending");
                last_mover = Some((p.side, p.move_number));
            }
            Step::Extra { is_counted } => {
                if let Some((side, n)) = last_mover {
                    l.record_move(side, n + 1, today, is_counted);
                }
            }
            Step::Penalty { white, days } => {
                let side = if white { Side::White } else { Side::Black };
                l.charge(Penalty {
                    side,
                    move_number: 1,
                    on: today,
                    days,
                    clause: "10.2.11".into(),
                });
            }
            Step::Suspend { days } => {
                l.suspend(today);
                today = plus(today, days);
                l.resume(today).expect("suspended");
            }
        }
    }
    (l, today)
}

fn ledger() -> impl Strategy<Value = (Ledger, NaiveDate)> {
    (
        0u64..1500,
        30u64..500,
        prop::collection::vec(brk(), 0..4),
        prop::collection::vec(step(), 0..40),
    )
        .prop_map(|(so, len, b, s)| build(so, len, &b, &s))
}

/// Thinking days by brute force: count the days one by one.
fn brute_days(received: NaiveDate, answered: NaiveDate, off: &[DateRange]) -> u32 {
    let mut n = 0;
    let mut day = received;
    while day < answered {
        day = day.succ_opt().unwrap();
        if !off.iter().any(|r| r.contains(day)) {
            n += 1;
        }
    }
    n
}

proptest! {
    #[test]
    fn thinking_days_are_the_days_after_receipt_outside_breaks_and_never_negative(
        r in 0u64..800, span in -20i64..400,
        offs in prop::collection::vec((0u64..800, 0u64..40), 0..4),
    ) {
        let base = d(2024, 1, 1);
        let received = plus(base, r);
        let answered = received.checked_add_signed(chrono::TimeDelta::days(span)).unwrap();
        let off: Vec<DateRange> =
            offs.iter().map(|&(o, len)| DateRange::new(plus(base, o), plus(base, o + len))).collect();
        let n = thinking_days(received, answered, &off);
        prop_assert_eq!(n, brute_days(received, answered, &off));
        prop_assert!(i64::from(n) <= span.max(0));
    }

    #[test]
    fn a_day_inside_a_break_never_counts(
        r in 0u64..400, from in 0u64..400, len in 0u64..30, inside in 0u64..30,
    ) {
        let base = d(2025, 1, 1);
        let off = [DateRange::new(plus(base, from), plus(base, from + len))];
        let day = plus(base, from + inside.min(len));
        let received = plus(base, r);
        if received < day {
            let before = day.pred_opt().unwrap();
            prop_assert_eq!(
                thinking_days(received, day, &off),
                thinking_days(received, before, &off)
            );
        }
        // An answer dated on a break day after receipt on a break day costs nothing.
        prop_assert_eq!(thinking_days(plus(base, from), day, &off), 0);
    }

    #[test]
    fn nth_thinking_day_is_the_first_day_reaching_n_days(
        r in 0u64..400, n in 0u32..120,
        offs in prop::collection::vec((0u64..500, 0u64..30), 0..4),
    ) {
        let base = d(2025, 1, 1);
        let received = plus(base, r);
        let off: Vec<DateRange> =
            offs.iter().map(|&(o, len)| DateRange::new(plus(base, o), plus(base, o + len))).collect();
        let day = nth_thinking_day(received, n, &off).unwrap();
        prop_assert_eq!(thinking_days(received, day, &off), n);
        if n > 0 {
            prop_assert!(thinking_days(received, day.pred_opt().unwrap(), &off) < n);
        }
    }

    #[test]
    fn the_days_of_the_answers_add_up_to_the_total((l, today) in ledger(), later in 0u64..60) {
        let as_of = plus(today, later);
        let chart = l.time_chart(as_of);
        for side in [Side::White, Side::Black] {
            let days: i64 = l
                .answers
                .iter()
                .filter(|a| a.side == side)
                .map(|a| i64::from(l.days_of(a, as_of)))
                .sum();
            prop_assert_eq!(days + l.penalty_days(side), l.total(side, as_of));
            prop_assert_eq!(chart.totals[side], l.total(side, as_of));
            let cells: i64 = chart
                .rows
                .iter()
                .filter_map(|r| if side == Side::White { r.white.as_ref() } else { r.black.as_ref() })
                .map(|c| i64::from(c.days))
                .sum();
            prop_assert_eq!(cells, l.thinking_total(side, as_of));
        }
    }

    #[test]
    fn the_overstep_day_is_the_first_day_the_total_exceeds_the_limit((l, _) in ledger()) {
        let off = l.off_days();
        for side in [Side::White, Side::Black] {
            // Brute force, day by day from the start (or the last resumption) to the end of
            // play, counting each move's days one by one.
            let start = l.starts[side];
            let from = l
                .suspensions
                .iter()
                .filter_map(|s| s.resumed)
                .fold(start, NaiveDate::max);
            let total_at = |day: NaiveDate| -> i64 {
                let thinking: i64 = l
                    .answers
                    .iter()
                    .filter(|a| a.side == side)
                    .map(|a| {
                        let to = a.answered.unwrap_or(day).min(day).min(l.end_of_play);
                        i64::from(brute_days(a.received.max(start), to, &off))
                    })
                    .sum();
                let penalties: i64 = l
                    .penalties
                    .iter()
                    .filter(|p| p.side == side && p.on <= day)
                    .map(|p| i64::from(p.days))
                    .sum();
                thinking + penalties
            };
            let limit_at = |day: NaiveDate| -> i64 {
                let made = l
                    .answers
                    .iter()
                    .filter(|a| a.side == side && a.is_counted)
                    .filter(|a| a.answered.is_some_and(|on| on < day))
                    .count() as i64;
                50 * (made / 10 + 1)
            };
            let mut expected = None;
            let mut day = from;
            while day <= l.end_of_play {
                if total_at(day) > limit_at(day) {
                    expected = Some(day);
                    break;
                }
                day = day.succ_opt().unwrap();
            }
            prop_assert_eq!(l.overstep_day(side), expected, "{:?}", side);
        }
    }

    #[test]
    fn the_day_after_the_last_day_is_the_day_the_sweep_declares_the_overstep(
        (l, today) in ledger(),
    ) {
        let Some(p) = l.pending().cloned() else { return Ok(()) };
        let side = p.side;
        let last = l.last_day(side, today).expect("a pending answer has a last day");
        prop_assert_eq!(l.last_day(side.other(), today), None);
        prop_assert_eq!(last.days_left, l.days_left(side, today));
        prop_assert_eq!((*last.moves.start() - 1) % 10, 0);
        prop_assert_eq!(*last.moves.end(), *last.moves.start() + 9);
        prop_assert!(last.moves.contains(&(l.counted_moves(side) + 1)));
        // The sweep: the overstep deadline of the side, if any.
        let swept = l.deadlines().into_iter().find_map(|d| match d {
            Deadline::Overstep { side: s, day, .. } if s == side => Some(day),
            _ => None,
        });
        if last.is_end_of_play {
            prop_assert_eq!(last.date, l.end_of_play);
            prop_assert_eq!(swept, None);
        } else {
            prop_assert_eq!(last.date.succ_opt(), swept);
            // An answer on the last day is in time; one on the next day is not.
            let next = last.date.succ_opt().unwrap();
            // (A last day before the last resumption of play means the overstep is due
            // again on the resumption day itself.)
            let cleared = l
                .suspensions
                .iter()
                .filter_map(|s| s.resumed)
                .fold(l.starts[side], NaiveDate::max);
            if last.date >= p.received.max(cleared) {
                prop_assert!(l.total_on(side, last.date) <= l.limit_on(side, last.date));
            }
            prop_assert!(l.total_on(side, next) > l.limit_on(side, next));
            let mut on_time = l.clone();
            if last.date >= p.received.max(cleared) {
                on_time.answer(side, last.date).unwrap();
                prop_assert!(on_time.overstep_day(side).is_none_or(|o| o > last.date));
            }
        }
    }

    #[test]
    fn no_deadline_falls_before_receipt_or_after_the_end((l, _) in ledger()) {
        for dl in l.deadlines() {
            prop_assert!(dl.day() <= l.end_of_play, "{:?}", dl);
            // Repeats, queries and warnings concern the move awaited now.
            if !matches!(dl, Deadline::Overstep { .. }) {
                let p = l.pending().unwrap();
                let receipt = p.received.max(l.starts[p.side]);
                prop_assert!(dl.day() >= receipt, "{:?} before receipt {}", dl, receipt);
            }
            // An overstep falls within (or after) the move it names.
            if let Deadline::Overstep { side, move_number, day } = dl {
                let received = l
                    .answers
                    .iter()
                    .filter(|a| a.side == side && a.move_number == move_number)
                    .map(|a| a.received.max(l.starts[side]))
                    .min();
                prop_assert!(received.is_some_and(|r| r <= day), "{:?}", dl);
            }
            prop_assert!(dl.day() >= l.start);
            if let Deadline::Warning { side, days_left, day, .. } = dl {
                prop_assert_eq!(l.days_left(side, day), days_left);
                prop_assert!(days_left <= 7);
            }
            if let Deadline::Overstep { side, day, .. } = dl {
                prop_assert!(l.is_overstepped(side, day));
            }
            if let Deadline::Repeat { side, forwarded, day, .. } = dl {
                let from = forwarded.max(l.starts[side]);
                prop_assert_eq!(thinking_days(from, day, &l.off_days()), 40);
            }
            if let Deadline::FirstMoveQuery { day } = dl {
                prop_assert_eq!(thinking_days(l.starts.white, day, &l.off_days()), 30);
            }
        }
    }
}

// ---- 10.3.6, 10.3.7: suspension while the arbiter decides ----

#[test]
fn clause_10_3_6_no_clock_runs_and_no_deadline_falls_while_play_is_suspended() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    let overstep = l.overstep_day(Side::White).unwrap();
    assert_eq!(overstep, d26(4, 21));
    l.suspend(overstep);
    assert!(l.is_suspended());
    assert_eq!(l.total(Side::White, d26(4, 21)), 51);
    assert_eq!(l.total(Side::White, d26(5, 30)), 51);
    // Nothing falls after the suspension; what fell before (query, warning, the overstep
    // itself) has fired.
    assert!(l.deadlines().iter().all(|d| d.day() <= overstep));
    assert_eq!(l.upcoming(overstep), None);
}

#[test]
fn clause_10_3_7_play_resumed_runs_the_clock_again_from_the_next_day() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.suspend(d26(4, 21));
    // The arbiter finds the player was owed 10 days (a mail outage) and resumes play.
    l.charge(Penalty {
        side: Side::White,
        move_number: 1,
        on: d26(5, 1),
        days: -10,
        clause: "10.3.7".into(),
    });
    l.resume(d26(5, 1)).unwrap();
    assert!(!l.is_suspended());
    assert_eq!(l.total(Side::White, d26(5, 1)), 41);
    assert_eq!(l.total(Side::White, d26(5, 3)), 43);
    // 9 days left after 01.05: over on the 10th day after it.
    assert_eq!(l.overstep_day(Side::White), Some(d26(5, 11)));
    assert_eq!(l.resume(d26(5, 2)), Err(ClockError::NotSuspended));
}

#[test]
fn clause_10_3_7_resumed_without_days_back_the_overstep_is_due_again_on_that_day() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    l.suspend(d26(4, 21));
    l.resume(d26(5, 1)).unwrap();
    let again = l.upcoming(d26(4, 30)).unwrap();
    assert_eq!(again.day(), d26(5, 1));
    assert!(matches!(again, Deadline::Overstep { .. }));
    assert_ne!(
        again.key(),
        Deadline::Overstep {
            side: Side::White,
            move_number: 1,
            day: d26(4, 21)
        }
        .key()
    );
}

#[test]
fn the_ledger_round_trips_through_json() {
    let mut l = sample_game();
    l.add_break(
        Side::White,
        Break::ordinary(d26(6, 1), d26(6, 10), d26(5, 1)),
    )
    .unwrap();
    l.suspend(d26(7, 1));
    let json = serde_json::to_string(&l).unwrap();
    let back: Ledger = serde_json::from_str(&json).unwrap();
    assert_eq!(back, l);
}

// ---- the last day to answer (10.3.1, 10.3.5) ----

#[test]
fn clause_10_3_5_the_last_day_moves_with_breaks_and_penalties() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(12, 31));
    let plain = l.last_day(Side::White, d26(3, 1)).unwrap();
    assert_eq!(plain.date, d26(4, 20));
    assert_eq!((plain.days_left, plain.moves.clone()), (50, 1..=10));
    assert!(!plain.is_end_of_play);
    // A break of 10 days moves it by 10 days; a penalty of 6 brings it 6 days nearer.
    l.add_break(
        Side::Black,
        Break::ordinary(d26(3, 10), d26(3, 19), d26(3, 5)),
    )
    .unwrap();
    assert_eq!(l.last_day(Side::White, d26(3, 1)).unwrap().date, d26(4, 30));
    l.charge_penalty(Side::White, 1, d26(3, 2), "10.3.3");
    let last = l.last_day(Side::White, d26(3, 2)).unwrap();
    assert_eq!(last.date, d26(4, 24));
    assert_eq!(last.days_left, 50 - 1 - 6);
    assert_eq!(l.overstep_day(Side::White), last.date.succ_opt());
}

#[test]
fn the_last_day_is_the_end_of_play_when_that_comes_first_and_none_while_suspended() {
    let mut l = Ledger::new(ClockSettings::default(), d26(3, 1), d26(3, 31));
    let last = l.last_day(Side::White, d26(3, 1)).unwrap();
    assert_eq!(last.date, d26(3, 31));
    assert!(last.is_end_of_play);
    l.suspend(d26(3, 10));
    assert_eq!(l.last_day(Side::White, d26(3, 11)), None);
}

#[test]
fn the_second_control_is_moves_11_to_20() {
    let mut l = Ledger::new(ClockSettings::default(), d26(1, 1), d26(12, 31));
    for n in 1..=10 {
        l.answer(Side::White, d26(1, 1)).unwrap();
        l.receive(Side::Black, n, d26(1, 1)).unwrap();
        l.answer(Side::Black, d26(1, 1)).unwrap();
        l.receive(Side::White, n + 1, d26(1, 1)).unwrap();
    }
    let last = l.last_day(Side::White, d26(1, 1)).unwrap();
    assert_eq!(last.moves, 11..=20);
    assert_eq!(last.days_left, 100);
}
