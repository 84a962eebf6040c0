//! The judge against the clauses of 10.2–10.4, one test per clause or worked example.

use chrono::NaiveDate;

use super::board::{Side, move_text};
use super::*;
use crate::rules::ParseMoveError;

fn d(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%d.%m.%Y").expect("test date")
}

fn player(name: &str) -> Player {
    Player {
        id: 1,
        name: name.to_string(),
        email: format!("{name}@example.org"),
    }
}

fn game(variant: Variant, start: &str) -> GameState {
    GameState::new(
        "ЗШ-2026-1",
        7,
        variant,
        player("white"),
        player("black"),
        d(start),
        d("31.12.2027"),
    )
}

fn russian() -> GameState {
    game(Variant::Russian, "01.12.2026")
}

/// Reads `12. c3-d4 f6-g5 13... a7-b6` the way the letter reader would: numbers, sides and
/// moves; `cd4` is short notation (10.2.2), anything else without two squares unreadable.
fn written(text: &str) -> Vec<Written> {
    let mut out = Vec::new();
    let mut number = None;
    let mut side = None;
    for tok in text.split_whitespace() {
        if let Some(n) = tok.strip_suffix("...") {
            number = n.parse().ok();
            side = Some(Side::Black);
            continue;
        }
        if let Some(n) = tok.strip_suffix('.') {
            number = n.parse().ok();
            side = Some(Side::White);
            continue;
        }
        let parts: Vec<&str> = tok.split([':', '-']).collect();
        let is_full = parts.len() >= 2
            && parts.iter().all(|p| {
                p.len() >= 2 && p[1..].chars().all(|c| c.is_ascii_digit())
                    || p.chars().all(|c| c.is_ascii_digit()) && !p.is_empty()
            });
        let text = if is_full {
            Ok(move_text(tok))
        } else if tok.chars().any(|c| c.is_ascii_digit()) {
            Err(ParseMoveError::Short(tok.to_string()))
        } else {
            Err(ParseMoveError::Unreadable(tok.to_string()))
        };
        out.push(Written { number, side, text });
        // `12. c3-d4 f6-g5`: the second move of a numbered pair is black's.
        if side == Some(Side::White) {
            side = Some(Side::Black);
        } else {
            number = None;
            side = None;
        }
    }
    out
}

fn letter(repeated: &str, moves: &str) -> Submission {
    Submission {
        repeated: written(repeated),
        moves: written(moves),
        ..Submission::default()
    }
}

fn with_variant(mut s: Submission, label: &str, moves: &str) -> Submission {
    s.variants.push(WrittenVariant {
        label: Some(label.to_string()),
        moves: written(moves),
    });
    s
}

fn send(st: &GameState, sender: Side, day: &str, sub: &Submission) -> Verdict {
    send_with(st, sender, day, sub, &ClockSettings::default())
}

fn send_with(
    st: &GameState,
    sender: Side,
    day: &str,
    sub: &Submission,
    settings: &ClockSettings,
) -> Verdict {
    let env = Envelope {
        sender,
        received: d(day),
        letter: format!("<{}-{day}@test>", st.moves.len()),
    };
    judge_submission(st, sub, &env, settings)
}

/// Plays letters that must all be accepted; gives the state after.
fn play(mut st: GameState, letters: &[(Side, &str, Submission)]) -> GameState {
    for (side, day, sub) in letters {
        let v = send(&st, *side, day, sub);
        assert_eq!(v.decision, Decision::Accepted, "{sub:?}: {:#?}", v.notices);
        st = v.state;
    }
    st
}

fn texts(st: &GameState) -> Vec<String> {
    st.moves.iter().map(|m| m.text.clone()).collect()
}

fn refused(v: &Verdict) -> (&Vec<Problem>, u32, &Vec<NumberedMove>) {
    v.notices
        .iter()
        .find_map(|n| match &n.kind {
            NoticeKind::Refused {
                problems,
                penalty_days,
                partner_moves,
                ..
            } => Some((problems, *penalty_days, partner_moves)),
            _ => None,
        })
        .expect("a refusal")
}

fn times(v: &Verdict) -> TimeUsed {
    v.notices
        .iter()
        .find_map(|n| match &n.kind {
            NoticeKind::Receipt { times, .. } => Some(*times),
            _ => None,
        })
        .expect("a receipt")
}

fn opening() -> GameState {
    play(
        russian(),
        &[
            (Side::White, "01.12.2026", letter("", "1. c3-d4")),
            (Side::Black, "03.12.2026", letter("1. c3-d4", "1... f6-g5")),
        ],
    )
}

#[test]
fn clause_10_2_3_good_move_is_forwarded_and_sender_gets_a_receipt() {
    let st = russian();
    let v = send(&st, Side::White, "01.12.2026", &letter("", "1. c3-d4"));
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(texts(&v.state), ["c3-d4"]);
    let fw = v
        .notices
        .iter()
        .find_map(|n| match (&n.to, &n.kind) {
            (
                Recipient::Player(Side::Black),
                NoticeKind::ForwardMove {
                    forward, new_moves, ..
                },
            ) => Some((forward, new_moves)),
            _ => None,
        })
        .expect("forwarded to black");
    assert_eq!(fw.1.len(), 1);
    assert_eq!(fw.1[0].to_string(), "1. c3-d4");
    assert_eq!(
        (fw.0.dates.received, fw.0.dates.answered),
        (Some(d("01.12.2026")), Some(d("01.12.2026")))
    );
    assert!(
        v.notices
            .iter()
            .any(|n| n.to == Recipient::Player(Side::White)
                && matches!(n.kind, NoticeKind::Receipt { .. }))
    );
}

#[test]
fn clause_10_3_2_first_move_on_the_start_date_costs_nothing() {
    let v = send(
        &russian(),
        Side::White,
        "01.12.2026",
        &letter("", "1. c3-d4"),
    );
    assert_eq!(times(&v), TimeUsed { white: 0, black: 0 });
    let v = send(
        &russian(),
        Side::White,
        "04.12.2026",
        &letter("", "1. c3-d4"),
    );
    assert_eq!(times(&v), TimeUsed { white: 3, black: 0 });
}

#[test]
fn clause_10_3_2_late_start_list_starts_the_day_after_receipt() {
    let mut st = russian();
    st.late_start.white = Some(d("05.12.2026"));
    let v = send(&st, Side::White, "06.12.2026", &letter("", "1. c3-d4"));
    assert_eq!(times(&v).white, 1);
}

#[test]
fn clause_10_3_1_thinking_days_run_from_receipt_to_answer() {
    let st = opening();
    // Black received c3-d4 on 01.12 and answered on 03.12: 2 days.
    assert_eq!(
        st.times(&ClockSettings::default(), d("03.12.2026")),
        TimeUsed { white: 0, black: 2 }
    );
    let v = send(
        &st,
        Side::White,
        "03.12.2026",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(times(&v), TimeUsed { white: 0, black: 2 });
}

#[test]
fn clause_10_2_9_missing_repetition_stops_play() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let v = send(&st, Side::Black, "02.12.2026", &letter("", "1... f6-g5"));
    assert_eq!(v.decision, Decision::Rejected(Reason::Repetition));
    let (problems, penalty, partner_moves) = refused(&v);
    assert_eq!(problems[0].kind, ProblemKind::RepetitionMissing);
    assert_eq!(problems[0].clause, "10.2.9");
    assert_eq!(penalty, 6);
    assert_eq!(partner_moves[0].to_string(), "1. c3-d4");
    assert!(matches!(
        v.state.status,
        Status::Stopped {
            side: Side::Black,
            ..
        }
    ));
    assert!(v.state.moves.len() == 1, "nothing played");
    assert!(
        !v.notices
            .iter()
            .any(|n| n.to == Recipient::Player(Side::White)),
        "nothing forwarded"
    );
}

#[test]
fn clause_10_2_9_incomplete_repetition_stops_play() {
    // Black's letter played f6-e5 and white's forced d4:f6; white repeats only f6-e5.
    let st = play(
        russian(),
        &[
            (Side::White, "01.12.2026", letter("", "1. c3-d4")),
            (
                Side::Black,
                "02.12.2026",
                letter("1. c3-d4", "1... f6-e5 2. d4:f6 g7:e5"),
            ),
        ],
    );
    let v = send(
        &st,
        Side::White,
        "03.12.2026",
        &letter("1... f6-e5", "3. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Rejected(Reason::Repetition));
    assert_eq!(refused(&v).0[0].kind, ProblemKind::RepetitionIncomplete);
    assert_eq!(refused(&v).2.len(), 3, "all the new moves are shown");
}

#[test]
fn clause_10_2_9_wrong_repetition_stops_play() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let v = send(
        &st,
        Side::Black,
        "02.12.2026",
        &letter("1. c3-b4", "1... f6-g5"),
    );
    assert_eq!(refused(&v).0[0].kind, ProblemKind::RepetitionWrong);
    let v = send(
        &st,
        Side::Black,
        "02.12.2026",
        &letter("1. cd4", "1... f6-g5"),
    );
    assert_eq!(
        refused(&v).0[0].kind,
        ProblemKind::RepetitionWrong,
        "illegible"
    );
}

#[test]
fn clause_10_2_9_repetition_may_repeat_the_whole_move_pair() {
    let st = opening();
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1. c3-d4 f6-g5", "2. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Accepted);
}

#[test]
fn clause_10_2_9_repetition_on_the_moves_line_is_accepted() {
    let st = opening();
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("", "1... f6-g5 2. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(texts(&v.state).last().map(String::as_str), Some("g3-f4"));
}

#[test]
fn clause_10_2_9_corrected_letter_resumes_play_and_days_kept_running() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let stopped = send(&st, Side::Black, "02.12.2026", &letter("", "1... f6-g5")).state;
    let v = send(
        &stopped,
        Side::Black,
        "05.12.2026",
        &letter("1. c3-d4", "1... f6-g5"),
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(v.state.status, Status::Playing);
    // 4 days from 01.12 (received) to 05.12, plus the 6 penalty days (10.2.11).
    assert_eq!(times(&v).black, 10);
}

#[test]
fn clause_10_2_10_single_move_of_the_named_piece_is_played_and_both_told() {
    // The man on a3 has one move, a3-b4; a3-c5 is impossible.
    let v = send(
        &russian(),
        Side::White,
        "01.12.2026",
        &letter("", "1. a3-c5"),
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(texts(&v.state), ["a3-b4"]);
    assert_eq!(v.state.moves[0].substituted_for.as_deref(), Some("a3-c5"));
    for side in [Side::White, Side::Black] {
        assert!(v.notices.iter().any(|n| n.to == Recipient::Player(side)
            && matches!(&n.kind, NoticeKind::Substituted { written, played }
                if written == "a3-c5" && played.text == "a3-b4")));
    }
    assert!(
        v.state.penalties.is_empty(),
        "the game did not stop: no penalty"
    );
}

#[test]
fn clause_10_2_10_piece_with_several_moves_sender_replaces_with_penalty() {
    let v = send(
        &russian(),
        Side::White,
        "02.12.2026",
        &letter("", "1. c3-e5"),
    );
    assert_eq!(v.decision, Decision::Rejected(Reason::Impossible));
    let (problems, penalty, _) = refused(&v);
    assert_eq!(problems[0].kind, ProblemKind::ImpossibleMove);
    assert_eq!(problems[0].clause, "10.2.10");
    assert_eq!(penalty, 6);
    assert_eq!(v.state.penalties[0].clause, "10.2.11");
    assert!(v.state.moves.is_empty());
    // The days keep running on the sender's clock: the correction counts from the start.
    let v2 = send(&v.state, Side::White, "05.12.2026", &letter("", "1. c3-d4"));
    assert_eq!(times(&v2).white, 4 + 6);
}

#[test]
fn clause_10_2_10_no_piece_or_no_move_on_the_square_sender_replaces() {
    for bad in ["1. d4-e5", "1. h2-g3", "1. f6-g5"] {
        let v = send(&russian(), Side::White, "01.12.2026", &letter("", bad));
        assert_eq!(v.decision, Decision::Rejected(Reason::Impossible), "{bad}");
    }
}

#[test]
fn clause_10_2_11_six_penalty_days_once_per_letter_however_many_errors() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    // Wrong repetition and an impossible move in one letter.
    let v = send(
        &st,
        Side::Black,
        "02.12.2026",
        &letter("1. c3-b4", "1... f6-d4"),
    );
    assert_eq!(v.state.penalties.len(), 1);
    assert_eq!(v.state.penalties[0].days, 6);
    // Both errors are said in the one reply.
    let clauses: Vec<&str> = refused(&v).0.iter().map(|p| p.clause.as_str()).collect();
    assert_eq!(clauses, ["10.2.9", "10.2.10"]);
}

#[test]
fn clause_10_2_2_short_notation_is_an_impossible_move() {
    let v = send(&russian(), Side::White, "01.12.2026", &letter("", "1. cd4"));
    assert_eq!(v.decision, Decision::Rejected(Reason::Impossible));
    // Both clauses cited once, not "(п. 10.2.2) (п. 10.2.10)".
    let p = &refused(&v).0[0];
    assert_eq!(p.clause, "10.2.2, 10.2.10");
    let ru = p.text_ru.as_deref().expect("Russian text");
    assert!(
        !ru.contains("п. 10") && !p.text.contains("10.2"),
        "{ru} / {}",
        p.text
    );
}

#[test]
fn clause_10_2_8_second_letter_for_a_turn_already_made_changes_nothing() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let v = send(&st, Side::White, "02.12.2026", &letter("", "1. c3-b4"));
    assert_eq!(v.decision, Decision::NoChange);
    assert_eq!(v.state, st);
    assert!(v.notices.iter().any(|n| matches!(&n.kind,
        NoticeKind::AlreadyMade { moves } if moves[0].text == "c3-d4")));
}

#[test]
fn clause_10_2_12_variant_is_cut_at_an_impossible_move_without_penalty() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    // Black proposes: 2. g3-h4 (white) b6-a5, then an impossible 3. h4-h5.
    let sub = with_variant(
        letter("1. c3-d4", "1... f6-g5"),
        "А",
        "2. g3-h4 b6-a5 3. h4-h5 a7-b6",
    );
    let v = send(&st, Side::Black, "02.12.2026", &sub);
    assert_eq!(v.decision, Decision::Accepted);
    assert!(v.state.penalties.is_empty());
    assert_eq!(v.state.proposals.len(), 1);
    assert_eq!(v.state.proposals[0].moves, ["g3-h4", "b6-a5"]);
    let problems = v
        .notices
        .iter()
        .find_map(|n| match &n.kind {
            NoticeKind::Receipt { problems, .. } => Some(problems),
            _ => None,
        })
        .expect("receipt");
    assert!(problems.iter().any(|p| p.clause == "10.2.12"));
    let fw_variants = v
        .notices
        .iter()
        .find_map(|n| match &n.kind {
            NoticeKind::ForwardMove { forward, .. } => Some(forward.variants.clone()),
            _ => None,
        })
        .expect("forward");
    assert_eq!(fw_variants[0].moves.len(), 2);
    assert_eq!(fw_variants[0].moves[0].to_string(), "2. g3-h4");
}

fn after_variant() -> GameState {
    play(
        russian(),
        &[
            (Side::White, "01.12.2026", letter("", "1. c3-d4")),
            (
                Side::Black,
                "02.12.2026",
                with_variant(
                    letter("1. c3-d4", "1... f6-g5"),
                    "А",
                    "2. g3-f4 b6-a5 3. h4-h5",
                ),
            ),
        ],
    )
}

#[test]
fn clause_10_2_13_variant_accepted_up_to_the_first_changed_move() {
    let st = after_variant();
    assert_eq!(st.proposals[0].moves, ["g3-f4", "b6-a5"]);
    // White accepts g3-f4 b6-a5 and plays 3. b2-c3: the accepted part and the new move.
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1... f6-g5", "2. g3-f4 b6-a5 3. b2-c3"),
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(texts(&v.state)[2..], ["g3-f4", "b6-a5", "b2-c3"]);
    let b6a5 = &v.state.moves[3];
    assert!(b6a5.is_from_variant && b6a5.by == Side::Black);
    assert!(!v.state.moves[2].is_from_variant, "white's own move");
    // Black must repeat all three.
    let fw = v
        .notices
        .iter()
        .find_map(|n| match &n.kind {
            NoticeKind::ForwardMove { new_moves, .. } => Some(new_moves.len()),
            _ => None,
        })
        .expect("forward");
    assert_eq!(fw, 3);
    // 10.3.5: black's own variant move does not count for the limit.
    assert_eq!(v.state.counted_moves(Side::Black), 1);
}

#[test]
fn clause_10_2_13_changed_move_ends_the_variant() {
    let st = after_variant();
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1... f6-g5", "2. b2-c3"),
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert!(v.state.proposals.is_empty(), "black's variant lapsed");
    assert_eq!(v.state.side_to_move(), Side::Black);
}

#[test]
fn clause_10_2_13_impossible_changed_move_is_handled_as_10_2_10() {
    let st = after_variant();
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1... f6-g5", "2. g3-f4 b6-a5 3. c3-e5"),
    );
    assert_eq!(v.decision, Decision::Rejected(Reason::Impossible));
    assert_eq!(refused(&v).1, 6);
    assert_eq!(v.state.moves.len(), 2, "nothing of the letter is played");
}

#[test]
fn clause_10_2_13_a_move_for_the_partner_outside_the_variant_is_refused() {
    let st = after_variant();
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1... f6-g5", "2. g3-f4 a7-b6 3. b2-c3"),
    );
    assert_eq!(v.decision, Decision::Rejected(Reason::Impossible));
    assert_eq!(refused(&v).0[0].kind, ProblemKind::NotPartnersMove);
}

#[test]
fn clause_10_2_8_accepted_variant_continues_by_itself() {
    // White writes only 2. g3-f4: black's variant answer b6-a5 is played at once.
    let st = after_variant();
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(texts(&v.state)[2..], ["g3-f4", "b6-a5"]);
    assert_eq!(v.state.side_to_move(), Side::White);
    assert!(v.notices.iter().any(|n| matches!(&n.kind,
        NoticeKind::Receipt { continued, .. } if continued.len() == 1)));
    // White answers next; the repetition is b6-a5.
    let v = send(
        &v.state,
        Side::White,
        "05.12.2026",
        &letter("2... b6-a5", "3. b2-c3"),
    );
    assert_eq!(v.decision, Decision::Accepted);
}

#[test]
fn clause_10_2_4_forced_move_of_the_partner_written_and_answered() {
    // 1... f6-e5 forces 2. d4:f6 (white's only move); black answers in the same letter.
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let v = send(
        &st,
        Side::Black,
        "02.12.2026",
        &letter("1. c3-d4", "1... f6-e5 2. d4:f6 g7:e5"),
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(texts(&v.state), ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]);
    assert!(v.state.moves[2].is_forced && v.state.moves[2].by == Side::White);
    // 10.3.5: the forced move counts for white.
    assert_eq!(v.state.counted_moves(Side::White), 2);
}

#[test]
fn clause_10_2_14_numbering_error_is_renumbered_and_both_told() {
    let st = opening();
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1... f6-g5", "3. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Accepted, "nothing stops");
    for side in [Side::White, Side::Black] {
        let told = v.notices.iter().any(|n| {
            n.to == Recipient::Player(side)
                && match &n.kind {
                    NoticeKind::Receipt { problems, .. }
                    | NoticeKind::ForwardMove { problems, .. } => problems
                        .iter()
                        .any(|p| p.clause == "10.2.14" && p.text.contains("2. g3-f4")),
                    _ => false,
                }
        });
        assert!(told, "{side:?} told");
    }
}

#[test]
fn draw_offer_is_forwarded_and_acceptance_ends_the_game() {
    let st = opening();
    let mut sub = letter("1... f6-g5", "2. g3-f4");
    sub.draw = Some(DrawWord::Offer);
    let v = send(&st, Side::White, "04.12.2026", &sub);
    assert_eq!(v.state.draw_offer, Some(Side::White));
    assert!(v.notices.iter().any(|n| matches!(&n.kind,
        NoticeKind::ForwardMove { forward, .. } if forward.is_draw_offered)));
    let accept = Submission {
        draw: Some(DrawWord::Accept),
        ..Submission::default()
    };
    let v = send(&v.state, Side::Black, "05.12.2026", &accept);
    assert_eq!(v.decision, Decision::Accepted);
    let result = v.state.result.clone().expect("finished");
    assert_eq!((result.score, result.how), (Score::Draw, Ending::Agreement));
    let told: Vec<Recipient> = v
        .notices
        .iter()
        .filter(|n| matches!(n.kind, NoticeKind::GameOver { .. }))
        .map(|n| n.to)
        .collect();
    assert_eq!(
        told,
        [
            Recipient::Player(Side::White),
            Recipient::Player(Side::Black),
            Recipient::Secretary
        ]
    );
}

#[test]
fn playing_on_declines_a_draw_offer() {
    let st = opening();
    let mut sub = letter("1... f6-g5", "2. g3-f4");
    sub.draw = Some(DrawWord::Offer);
    let st = send(&st, Side::White, "04.12.2026", &sub).state;
    let v = send(
        &st,
        Side::Black,
        "05.12.2026",
        &letter("2. g3-f4", "2... g5-h4"),
    );
    assert_eq!(v.state.draw_offer, None);
    assert!(
        v.notices
            .iter()
            .any(|n| matches!(n.kind, NoticeKind::DrawDeclined { by: Side::Black }))
    );
    // A later acceptance finds no offer: the problem is said, the game goes on.
    let accept = Submission {
        draw: Some(DrawWord::Accept),
        ..Submission::default()
    };
    let v = send(&v.state, Side::White, "06.12.2026", &accept);
    assert!(v.state.result.is_none());
}

#[test]
fn resignation_ends_the_game_at_any_turn() {
    let st = opening();
    let resign = Submission {
        is_resignation: true,
        ..Submission::default()
    };
    let v = send(&st, Side::Black, "04.12.2026", &resign);
    let result = v.state.result.clone().expect("finished");
    assert_eq!(result.score, Score::WhiteWins);
    assert_eq!(result.how, Ending::Resignation { side: Side::Black });
    let v2 = send(
        &v.state,
        Side::White,
        "05.12.2026",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(v2.decision, Decision::Rejected(Reason::NotInPlay));
}

#[test]
fn clause_10_3_2_after_the_end_of_play_only_a_draw_acceptance_or_resignation() {
    let mut st = opening();
    st.end = d("03.12.2026");
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Rejected(Reason::NotInPlay));
    let resign = Submission {
        is_resignation: true,
        ..Submission::default()
    };
    let v = send(&st, Side::White, "04.12.2026", &resign);
    assert_eq!(v.state.result.map(|r| r.score), Some(Score::BlackWins));
}

#[test]
fn game_ends_by_the_rules_when_the_side_to_move_has_no_move() {
    // White's king takes black's last man.
    let mut st = russian();
    st.initial = Some("W:WKa1:Bc3".to_string());
    let v = send(&st, Side::White, "01.12.2026", &letter("", "1. a1:d4"));
    assert_eq!(v.decision, Decision::Accepted);
    let r = v.state.result.clone().expect("finished");
    assert_eq!((r.score, r.how), (Score::WhiteWins, Ending::Rule));
    // Give-away: losing every piece wins.
    let mut st = game(Variant::Giveaway, "01.12.2026");
    st.initial = Some("W:WKa1:Bc3".to_string());
    let v = send(&st, Side::White, "01.12.2026", &letter("", "1. a1:d4"));
    assert_eq!(v.state.result.map(|r| r.score), Some(Score::BlackWins));
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut st = russian();
    st.initial = Some("W:WKc1:BKh8".to_string());
    let st = play(
        st,
        &[
            (Side::White, "01.12.2026", letter("", "1. c1-d2")),
            (Side::Black, "02.12.2026", letter("1. c1-d2", "1... h8-g7")),
            (Side::White, "03.12.2026", letter("1... h8-g7", "2. d2-c1")),
            (Side::Black, "04.12.2026", letter("2. d2-c1", "2... g7-h8")),
            (Side::White, "05.12.2026", letter("2... g7-h8", "3. c1-d2")),
            (Side::Black, "06.12.2026", letter("3. c1-d2", "3... h8-g7")),
            (Side::White, "07.12.2026", letter("3... h8-g7", "4. d2-c1")),
            (Side::Black, "08.12.2026", letter("4. d2-c1", "4... g7-h8")),
        ],
    );
    let r = st.result.clone().expect("a draw");
    assert_eq!(r.score, Score::Draw);
    assert!(matches!(r.how, Ending::DrawRule { .. }));
}

#[test]
fn clause_10_3_3_strict_mode_points_out_missing_dates_then_charges_a_repeat() {
    let settings = ClockSettings {
        is_strict: true,
        ..ClockSettings::default()
    };
    let st = russian();
    let v = send_with(
        &st,
        Side::White,
        "01.12.2026",
        &letter("", "1. c3-d4"),
        &settings,
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert!(
        v.state.penalties.is_empty(),
        "the first time is only pointed out"
    );
    assert!(v.state.dates_warned.white);
    let st = send_with(
        &v.state,
        Side::Black,
        "02.12.2026",
        &{
            let mut s = letter("1. c3-d4", "1... f6-g5");
            s.dates = vec![d("01.12.2026"), d("01.12.2026"), d("02.12.2026")];
            s.time = Some(TimeUsed { white: 0, black: 1 });
            s
        },
        &settings,
    )
    .state;
    let v = send_with(
        &st,
        Side::White,
        "03.12.2026",
        &letter("1... f6-g5", "2. g3-f4"),
        &settings,
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(v.state.penalties.len(), 1);
    assert_eq!(v.state.penalties[0].clause, "10.3.3");
    assert_eq!(times(&v).white, 1 + 6);
}

#[test]
fn clause_10_3_9_default_mode_corrects_wrong_dates_politely() {
    let st = opening();
    let mut sub = letter("1... f6-g5", "2. g3-f4");
    sub.dates = vec![d("03.12.2026"), d("04.12.2026"), d("04.12.2026")];
    sub.time = Some(TimeUsed { white: 5, black: 2 });
    let v = send(&st, Side::White, "04.12.2026", &sub);
    assert_eq!(v.decision, Decision::Accepted);
    assert!(v.state.penalties.is_empty());
    let problems = v
        .notices
        .iter()
        .find_map(|n| match &n.kind {
            NoticeKind::Receipt { problems, .. } => Some(problems.clone()),
            _ => None,
        })
        .expect("receipt");
    assert!(problems.iter().any(|p| p.clause == "10.3.9"));
    // Missing dates in the default mode cost nothing and say nothing.
    let v = send(
        &st,
        Side::White,
        "04.12.2026",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert!(v.notices.iter().all(|n| !matches!(&n.kind,
        NoticeKind::Receipt { problems, .. } if !problems.is_empty())));
}

fn with_break(mut st: GameState, side: Side, from: &str, to: &str) -> GameState {
    st.breaks[side].push(Break::ordinary(d(from), d(to), d("01.01.2026")));
    st
}

#[test]
fn clause_10_4_3_worked_examples_through_the_judge() {
    // "беру перерыв с 10.10 по 25.10" = 16 days.
    let cases = [
        ("08.10.2026", "27.10.2026", 3),
        ("08.10.2026", "20.10.2026", 1),
        ("10.10.2026", "26.10.2026", 1),
    ];
    for (received, answered, days) in cases {
        let st = with_break(
            game(Variant::Russian, received),
            Side::Black,
            "10.10.2026",
            "25.10.2026",
        );
        let v = send(&st, Side::White, answered, &letter("", "1. c3-d4"));
        assert_eq!(times(&v).white, days, "{received} → {answered}");
    }
}

#[test]
fn clause_10_4_4_a_letter_sent_during_ones_own_break_costs_no_time() {
    let st = with_break(opening(), Side::White, "04.12.2026", "10.12.2026");
    let v = send(
        &st,
        Side::White,
        "06.12.2026",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(times(&v).white, 0);
    assert_eq!(v.state.breaks.white.len(), 1, "the break goes on");
}

#[test]
fn clause_10_3_5_overstep_day_is_the_first_day_over_the_limit() {
    let st = opening();
    // White received f6-g5 on 03.12 with 0 days used: 50 days allowed, the 51st day
    // (28 in December, 23 in January) oversteps.
    let due_day = st
        .ledger(&ClockSettings::default())
        .overstep_day(Side::White);
    assert_eq!(due_day, Some(d("23.01.2027")));
    let fired = due(&st, d("23.01.2027"), &ClockSettings::default());
    let over = fired
        .iter()
        .find(|x| x.kind == DeadlineKind::Overstep)
        .expect("overstep due");
    assert_eq!(over.key, "overstep:white:2:2027-01-23");
    assert!(over.notices.iter().any(|n| n.to == Recipient::Arbiter
        && matches!(&n.kind, NoticeKind::Overstep(f) if f.is_for_arbiter && f.used == 51 && f.limit == 50)));
    assert!(over.notices.iter().any(|n| n.to == Recipient::Secretary));
    let suspended = apply_deadline(&st, over);
    assert!(matches!(
        suspended.status,
        Status::Suspended {
            side: Side::White,
            ..
        }
    ));
    assert!(due(&suspended, d("01.03.2027"), &ClockSettings::default()).is_empty());
    // Not yet due the day before.
    assert!(
        due(&st, d("22.01.2027"), &ClockSettings::default())
            .iter()
            .all(|x| x.kind != DeadlineKind::Overstep)
    );
}

#[test]
fn clause_10_3_6_a_late_letter_over_the_limit_suspends_instead_of_playing() {
    let st = opening();
    let v = send(
        &st,
        Side::White,
        "25.01.2027",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Rejected(Reason::Overstep));
    assert!(matches!(
        v.state.status,
        Status::Suspended {
            side: Side::White,
            ..
        }
    ));
    assert_eq!(v.state.moves.len(), 2);
}

#[test]
fn clause_10_3_4_no_answer_for_40_days_repeats_the_move_and_tells_the_sender() {
    let st = opening();
    let fired = due(&st, d("12.01.2027"), &ClockSettings::default());
    let rep = fired
        .iter()
        .find(|x| x.kind == DeadlineKind::Repeat)
        .expect("repeat due on 12.01.2027 (03.12 + 40)");
    assert_eq!(rep.day, d("12.01.2027"));
    assert!(
        rep.notices
            .iter()
            .any(|n| n.to == Recipient::Player(Side::White)
                && matches!(&n.kind, NoticeKind::ForwardMove { is_repeat: true, forward, .. }
            if forward.dates.answered == Some(d("03.12.2026"))))
    );
    assert!(
        rep.notices
            .iter()
            .any(|n| n.to == Recipient::Player(Side::Black)
                && matches!(n.kind, NoticeKind::Repeated { .. }))
    );
    assert!(
        due(&st, d("11.01.2027"), &ClockSettings::default())
            .iter()
            .all(|x| x.kind != DeadlineKind::Repeat)
    );
}

#[test]
fn clause_10_3_4_no_first_move_for_30_days_queries_white_and_tells_black() {
    let st = russian();
    let fired = due(&st, d("31.12.2026"), &ClockSettings::default());
    let q = fired
        .iter()
        .find(|x| x.kind == DeadlineKind::FirstMoveQuery)
        .expect("query due");
    assert_eq!(q.day, d("31.12.2026"));
    let to: Vec<Recipient> = q.notices.iter().map(|n| n.to).collect();
    assert_eq!(
        to,
        [
            Recipient::Player(Side::White),
            Recipient::Player(Side::Black)
        ]
    );
}

#[test]
fn friendly_warning_at_seven_days_left_and_next_due_day() {
    let st = opening();
    let s = ClockSettings::default();
    // 50 days from 03.12: 7 left on 15.01.2027 (43 used).
    let w = due(&st, d("15.01.2027"), &s)
        .into_iter()
        .find(|x| x.kind == DeadlineKind::Warning)
        .expect("warning");
    assert_eq!(w.day, d("15.01.2027"));
    assert_eq!(
        next_due_day(&st, d("03.12.2026"), &s),
        Some(d("12.01.2027"))
    );
    assert_eq!(
        next_due_day(&st, d("12.01.2027"), &s),
        Some(d("15.01.2027"))
    );
    assert_eq!(
        next_due_day(&st, d("15.01.2027"), &s),
        Some(d("23.01.2027"))
    );
}

#[test]
fn breaks_push_the_deadlines_back() {
    let st = with_break(opening(), Side::Black, "10.12.2026", "19.12.2026");
    let s = ClockSettings::default();
    assert_eq!(
        st.ledger(&s).overstep_day(Side::White),
        Some(d("02.02.2027"))
    );
}

#[test]
fn clause_10_3_7_arbiter_confirms_or_rejects_an_overstep() {
    let st = send(
        &opening(),
        Side::White,
        "25.01.2027",
        &letter("1... f6-g5", "2. g3-f4"),
    )
    .state;
    let r = arbiter::confirm_overstep(&st, d("30.01.2027"));
    let result = r.state.result.clone().expect("a loss");
    assert_eq!(result.score, Score::BlackWins);
    assert_eq!(result.how, Ending::Overstep { side: Side::White });
    let s = ClockSettings::default();
    let r = arbiter::reject_overstep(&st, d("30.01.2027"), 10, &s);
    assert_eq!(r.state.status, Status::Playing);
    // 51 days on the overstep day (23.01), none while suspended: 1 over the limit and 10
    // more given back, so 10 days are left and the letters say so.
    assert!(r.notices.iter().any(|n| matches!(
        n.kind,
        NoticeKind::OverstepRuling {
            is_confirmed: false,
            days_back: 11,
            days_left: 10,
            ..
        }
    )));
    assert_eq!(r.state.times(&s, d("30.01.2027")).white, 40);
    // The same overstep is not declared again: the next one is 11 days on, if no answer.
    assert_eq!(
        r.state.ledger(&s).overstep_day(Side::White),
        Some(d("10.02.2027"))
    );
    assert!(
        due::due(&r.state, d("09.02.2027"), &s)
            .iter()
            .all(|n| n.kind != due::DeadlineKind::Overstep),
        "no overstep is due before 10.02"
    );
    // The move can now be sent again and is played.
    let v = send(
        &r.state,
        Side::White,
        "30.01.2027",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(times(&v).white, 40);
}

#[test]
fn arbiter_penalties_and_days_change_the_totals() {
    let st = opening();
    let r = arbiter::add_penalty(&st, Side::Black, 6, "10.3.7", "delay", d("04.12.2026"));
    assert_eq!(
        r.state
            .times(&ClockSettings::default(), d("04.12.2026"))
            .black,
        2 + 6
    );
    let r = arbiter::cancel_penalty(&r.state, 0);
    assert_eq!(
        r.state
            .times(&ClockSettings::default(), d("04.12.2026"))
            .black,
        2
    );
    let r = arbiter::add_days(&r.state, Side::Black, -2, "mail delay", d("04.12.2026"));
    assert_eq!(
        r.state
            .times(&ClockSettings::default(), d("04.12.2026"))
            .black,
        0
    );
    let r = arbiter::set_result(&r.state, Score::Draw, "adjudicated", d("05.12.2026"));
    assert_eq!(r.state.status, Status::Finished);
}

#[test]
fn time_chart_lists_both_players_answers_with_totals() {
    let st = play(
        opening(),
        &[(Side::White, "05.12.2026", letter("1... f6-g5", "2. g3-f4"))],
    );
    let chart = st.time_chart(&ClockSettings::default(), d("05.12.2026"));
    assert_eq!(chart.rows.len(), 2);
    assert_eq!(chart.rows[0].white.as_ref().map(|a| a.days), Some(0));
    assert_eq!(chart.rows[0].black.as_ref().map(|a| a.days), Some(2));
    assert_eq!(chart.rows[1].white.as_ref().map(|a| a.days), Some(2));
    assert_eq!((chart.totals.white, chart.totals.black), (2, 2));
    let text = chart.to_text(&crate::clock::ChartLabels::ru());
    assert!(text.contains("05.12.2026"), "{text}");
}

#[test]
fn game_state_survives_a_json_round_trip() {
    let st = after_variant();
    let json = serde_json::to_string(&st).expect("serialise");
    assert!(json.contains(r#""variant":"russian""#), "{json}");
    assert!(json.contains(r#""status":"playing""#), "{json}");
    let back: GameState = serde_json::from_str(&json).expect("deserialise");
    assert_eq!(back, st);
}

#[test]
fn wrong_game_number_is_refused() {
    let mut sub = letter("", "1. c3-d4");
    sub.game = Some(8);
    let v = send(&russian(), Side::White, "01.12.2026", &sub);
    assert_eq!(v.decision, Decision::Rejected(Reason::WrongGame));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// A random legal game played through letters is always accepted, and the totals
        /// are the sums of the answers' days.
        #[test]
        fn random_legal_game_through_letters_keeps_consistent_clocks(
            picks in proptest::collection::vec(0usize..64, 1..40),
            gaps in proptest::collection::vec(0u64..4, 40),
        ) {
            let mut st = russian();
            let mut day = d("01.12.2026");
            for (i, pick) in picks.iter().enumerate() {
                if st.result.is_some() {
                    break;
                }
                let pos = st.position();
                let legal = pos.legal_moves();
                let mv = &legal[pick % legal.len()];
                let me = st.side_to_move();
                let rep: Vec<String> = st.new_moves_for(me).iter().map(|m| m.text.clone()).collect();
                let sub = letter(&rep.join(" "), &mv.text(st.variant));
                day = day + chrono::Days::new(gaps[i]);
                let env = Envelope { sender: me, received: day, letter: format!("{i}") };
                let v = judge_submission(&st, &sub, &env, &ClockSettings::default());
                prop_assert_eq!(&v.decision, &Decision::Accepted);
                st = v.state;
            }
            let chart = st.time_chart(&ClockSettings::default(), day);
            let sum = |w: bool| -> i64 {
                chart
                    .rows
                    .iter()
                    .filter_map(|r| if w { r.white.as_ref() } else { r.black.as_ref() })
                    .map(|a| i64::from(a.days))
                    .sum()
            };
            prop_assert_eq!((chart.totals.white, chart.totals.black), (sum(true), sum(false)));
            let json = serde_json::to_string(&st).unwrap();
            let back: GameState = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(back, st);
        }
    }
}

mod through_letters {
    //! The same clauses with letters as players write them, read by `letter::read`.
    use super::*;
    use crate::letter::{ReadContext, read};

    fn send_text(st: &GameState, sender: Side, day: &str, text: &str) -> Verdict {
        let l = read(text, &ReadContext::default());
        let env = Envelope {
            sender,
            received: d(day),
            letter: format!("<{day}-{sender:?}-{}@test>", st.moves.len()),
        };
        judge(st, &l, &env, &ClockSettings::default())
    }

    #[test]
    fn clause_10_2_13_a_russian_letter_game_with_a_variant_plays_through() {
        let st = russian();
        let v = send_text(
            &st,
            Side::White,
            "01.12.2026",
            "Шифр: ЗШ-2026-1, партия 7\nМой ход: 1. c3-d4\n",
        );
        assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
        let v = send_text(
            &v.state,
            Side::Black,
            "02.12.2026",
            "Здравствуйте!\nШифр: ЗШ-2026-1, партия 7\nВаш ход: 1. c3-d4\nМой ход: 1... f6-g5\n\
             Если 2. g3-f4, то 2... b6-a5\nДаты: 01.12.2026 / 01.12.2026 / 02.12.2026\nВремя: 0/1\n",
        );
        assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
        assert_eq!(v.state.proposals.len(), 1);
        assert_eq!(v.state.proposals[0].moves, ["g3-f4", "b6-a5"]);
        let v = send_text(
            &v.state,
            Side::White,
            "04.12.2026",
            "Ваш ход: 1... f6-g5\nМой ход: 2. g3-f4 b6-a5 3. b2-c3\n",
        );
        assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
        assert_eq!(texts(&v.state)[2..], ["g3-f4", "b6-a5", "b2-c3"]);
    }

    #[test]
    fn clause_10_2_9_a_letter_without_the_repetition_is_refused() {
        let st = play(
            russian(),
            &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
        );
        let v = send_text(&st, Side::Black, "02.12.2026", "Мой ход: 1... f6-g5\n");
        assert_eq!(v.decision, Decision::Rejected(Reason::Repetition));
    }

    #[test]
    fn a_break_announcement_alone_is_not_refused() {
        let st = opening();
        let v = send_text(
            &st,
            Side::White,
            "04.12.2026",
            "Беру перерыв с 10.12.2026 по 20.12.2026\n",
        );
        assert_eq!(v.decision, Decision::NoChange);
        assert!(v.notices.is_empty());
    }

    #[test]
    fn resignation_in_words_ends_the_game() {
        let v = send_text(&opening(), Side::White, "04.12.2026", "Сдаюсь.\n");
        assert_eq!(v.state.result.map(|r| r.score), Some(Score::BlackWins));
    }
}

#[test]
fn hundred_is_played_in_numeric_notation_and_algebraic_is_read_too() {
    let st = game(Variant::Hundred, "01.12.2026");
    let v = send(&st, Side::White, "01.12.2026", &letter("", "1. 32-28"));
    assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
    assert_eq!(texts(&v.state), ["32-28"]);
    // 19-23 written algebraically: square 19 is g7, 23 is f6.
    let v = send(
        &v.state,
        Side::Black,
        "02.12.2026",
        &letter("1. 32-28", "1... g7-f6"),
    );
    assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
    assert_eq!(texts(&v.state), ["32-28", "19-23"]);
}

#[test]
fn a_repetition_where_none_is_due_is_ignored() {
    let v = send(
        &russian(),
        Side::White,
        "01.12.2026",
        &letter("1. c3-d4 f6-g5", "1. c3-d4"),
    );
    assert_eq!(v.decision, Decision::Accepted);
}

#[test]
fn a_game_is_on_break_on_either_players_break_days() {
    let st = with_break(opening(), Side::Black, "10.12.2026", "19.12.2026");
    assert!(st.is_on_break(d("10.12.2026")));
    assert!(st.is_on_break(d("19.12.2026")));
    assert!(!st.is_on_break(d("20.12.2026")));
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    fn any_written() -> impl Strategy<Value = Written> {
        let square = prop_oneof![
            (0u8..12, 0u8..12).prop_map(|(f, r)| crate::rules::SquareText::Alg {
                file: (b'a' + f) as char,
                rank: r,
            }),
            (0u8..60).prop_map(crate::rules::SquareText::Num),
        ];
        let text = prop_oneof![
            4 => (proptest::collection::vec(square, 0..5), any::<bool>())
                .prop_map(|(squares, is_capture)| Ok(crate::rules::MoveText { squares, is_capture })),
            1 => "[a-k]{1,2}[0-9]?".prop_map(|s| Err(ParseMoveError::Short(s))),
            1 => ".{0,6}".prop_map(|s| Err(ParseMoveError::Unreadable(s))),
        ];
        (
            proptest::option::of(0u32..40),
            proptest::option::of(any::<bool>()),
            text,
        )
            .prop_map(|(number, black, text)| Written {
                number,
                side: black.map(|b| if b { Side::Black } else { Side::White }),
                text,
            })
    }

    fn any_submission() -> impl Strategy<Value = Submission> {
        (
            proptest::collection::vec(any_written(), 0..4),
            proptest::collection::vec(any_written(), 0..4),
            proptest::collection::vec(proptest::collection::vec(any_written(), 0..4), 0..3),
            proptest::option::of(prop_oneof![Just(DrawWord::Offer), Just(DrawWord::Accept)]),
            proptest::bool::weighted(0.05),
        )
            .prop_map(
                |(repeated, moves, variants, draw, is_resignation)| Submission {
                    repeated,
                    moves,
                    variants: variants
                        .into_iter()
                        .map(|moves| WrittenVariant { label: None, moves })
                        .collect(),
                    draw,
                    is_resignation,
                    ..Submission::default()
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// No letter, however wrong, makes the judge panic; the state it gives always
        /// replays, and the deadlines can be computed from it.
        #[test]
        fn no_letter_makes_the_judge_panic(
            letters in proptest::collection::vec((any::<bool>(), 0u64..30, any_submission()), 1..12),
        ) {
            let mut st = opening();
            let mut day = d("03.12.2026");
            for (black, gap, sub) in letters {
                day = day + chrono::Days::new(gap);
                let sender = if black { Side::Black } else { Side::White };
                let env = Envelope { sender, received: day, letter: "x".into() };
                let v = judge_submission(&st, &sub, &env, &ClockSettings::default());
                prop_assert_eq!(v.state.positions().len(), v.state.moves.len() + 1);
                st = v.state;
                let _ = due(&st, day, &ClockSettings::default());
                let _ = next_due_day(&st, day, &ClockSettings::default());
            }
        }
    }
}

mod random_games {
    use super::*;
    use crate::game::board::Pos;
    use proptest::prelude::*;

    fn after(st: &GameState, texts: &[String]) -> Pos {
        let mut pos = st.position();
        for t in texts {
            let mv = pos.find(t).expect("a legal move of the test");
            pos = pos.play(&mv);
        }
        pos
    }

    fn pick(pos: &Pos, k: usize, variant: Variant) -> Option<String> {
        let legal = pos.legal_moves();
        (!legal.is_empty()).then(|| legal[k % legal.len()].text(variant))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Random games where players accept and propose variants, forget the repetition
        /// now and then and correct it, and write forced moves: every letter gets the
        /// expected decision, and the state stays consistent (replays, clock sums, JSON).
        #[test]
        fn random_games_with_variants_and_mistakes_stay_consistent(
            steps in proptest::collection::vec((0usize..64, 0usize..64, 0u8..10, 0u64..4), 1..40),
        ) {
            let s = ClockSettings::default();
            let mut st = russian();
            let mut day = d("01.12.2026");
            for (i, (k1, k2, action, gap)) in steps.into_iter().enumerate() {
                if st.result.is_some() {
                    break;
                }
                day = day + chrono::Days::new(gap);
                let me = st.side_to_move();
                let rep: Vec<String> =
                    st.new_moves_for(me).iter().map(|m| m.text.clone()).collect();
                let now = st.moves.len();
                let offered: Option<Vec<String>> = st
                    .proposals
                    .iter()
                    .find(|p| p.by == me.other() && p.from_ply == now)
                    .map(|p| p.moves.clone());
                let mut own: Vec<String> = match (&offered, action < 5) {
                    (Some(v), true) => v.clone(),
                    _ => Vec::new(),
                };
                if own.len().is_multiple_of(2) {
                    let pos = after(&st, &own);
                    match pick(&pos, k1, st.variant) {
                        Some(m) => own.push(m),
                        None => break,
                    }
                }
                let mut sub = letter(&rep.join(" "), &own.join(" "));
                if action >= 7 {
                    // A variant: the partner's reply and my answer to it.
                    let mut line = own.clone();
                    let mut v = Vec::new();
                    for k in [k2, k1] {
                        let pos = after(&st, &line);
                        if let Some(m) = pick(&pos, k, st.variant) {
                            line.push(m.clone());
                            v.push(m);
                        }
                    }
                    sub = with_variant(sub, "А", &v.join(" "));
                }
                let env = |n: usize| Envelope { sender: me, received: day, letter: format!("{i}.{n}") };
                if action == 9 && !rep.is_empty() {
                    let mut bad = sub.clone();
                    bad.repeated.clear();
                    bad.moves = written(&own.join(" "));
                    let v = judge_submission(&st, &bad, &env(0), &s);
                    // Unless the moves line itself begins with the repetition.
                    // (A letter that happens to be the sender's last one again is a resend.)
                    if v.decision != Decision::Accepted && v.decision != Decision::NoChange {
                        prop_assert_eq!(&v.decision, &Decision::Rejected(Reason::Repetition));
                        let is_stopped = matches!(v.state.status, Status::Stopped { .. });
                        prop_assert!(is_stopped);
                        st = v.state;
                    }
                }
                let v = judge_submission(&st, &sub, &env(1), &s);
                if v.decision == Decision::Rejected(Reason::Overstep) {
                    break;
                }
                prop_assert_eq!(&v.decision, &Decision::Accepted, "{:?}", v.notices);
                st = v.state;
            }
            prop_assert_eq!(st.positions().len(), st.moves.len() + 1);
            let l = st.ledger(&s);
            for side in [Side::White, Side::Black] {
                prop_assert_eq!(l.counted_moves(side), st.counted_moves(side));
            }
            let chart = st.time_chart(&s, day);
            let penalties = |side: Side| -> i64 {
                st.penalties.iter().filter(|p| p.side == side).map(|p| i64::from(p.days)).sum()
            };
            let days = |w: bool| -> i64 {
                chart
                    .rows
                    .iter()
                    .filter_map(|r| if w { r.white.as_ref() } else { r.black.as_ref() })
                    .map(|c| i64::from(c.days))
                    .sum()
            };
            prop_assert_eq!(chart.totals.white, days(true) + penalties(Side::White));
            prop_assert_eq!(chart.totals.black, days(false) + penalties(Side::Black));
            let json = serde_json::to_string(&st).expect("serialise");
            let back: GameState = serde_json::from_str(&json).expect("deserialise");
            prop_assert_eq!(back, st);
        }
    }
}

#[test]
fn clause_10_3_3_strict_mode_accepts_a_first_move_with_its_dates_and_time() {
    let settings = ClockSettings {
        is_strict: true,
        ..ClockSettings::default()
    };
    let mut sub = letter("", "1. c3-d4");
    sub.dates = vec![d("01.12.2026"), d("01.12.2026"), d("01.12.2026")];
    sub.time = Some(TimeUsed { white: 0, black: 0 });
    let v = send_with(&russian(), Side::White, "01.12.2026", &sub, &settings);
    assert_eq!(v.decision, Decision::Accepted);
    assert!(!v.state.dates_warned.white, "{:#?}", v.notices);
}

#[test]
fn clause_10_3_8_a_protest_goes_to_the_arbiter() {
    let mut sub = letter("1... f6-g5", "2. g3-f4");
    sub.protest = Some("партнёр неверно считает время".to_string());
    let v = send(&opening(), Side::White, "04.12.2026", &sub);
    assert_eq!(v.decision, Decision::Accepted);
    assert!(v.notices.iter().any(|n| n.to == Recipient::Arbiter
        && matches!(&n.kind, NoticeKind::Protest { by: Side::White, text } if text.contains("время"))));
}

/// Not a check: how many letters a second the judge takes in a long game (run with
/// `cargo test --lib game::tests::judge_speed -- --ignored --nocapture`).
#[test]
#[ignore]
fn judge_speed() {
    let s = ClockSettings::default();
    let started = std::time::Instant::now();
    let mut letters = 0u32;
    for seed in 0..20usize {
        let mut st = russian();
        let mut day = d("01.12.2026");
        for i in 0..120usize {
            if st.result.is_some() {
                break;
            }
            let pos = st.position();
            let legal = pos.legal_moves();
            let mv = legal[(i * 7 + seed) % legal.len()].text(st.variant);
            let me = st.side_to_move();
            let rep: Vec<String> = st
                .new_moves_for(me)
                .iter()
                .map(|m| m.text.clone())
                .collect();
            let sub = letter(&rep.join(" "), &mv);
            day = day + chrono::Days::new(1);
            let env = Envelope {
                sender: me,
                received: day,
                letter: String::new(),
            };
            let v = judge_submission(&st, &sub, &env, &s);
            assert_eq!(v.decision, Decision::Accepted);
            st = v.state;
            letters += 1;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{letters} letters in {secs:.3} s: {:.0} letters/s",
        f64::from(letters) / secs
    );
}

#[test]
fn clause_10_2_8_the_same_letter_again_after_the_answer_changes_nothing() {
    let first = letter("", "1. c3-d4");
    let st = play(
        russian(),
        &[
            (Side::White, "01.12.2026", first.clone()),
            (Side::Black, "03.12.2026", letter("1. c3-d4", "1... f6-g5")),
        ],
    );
    let v = send(&st, Side::White, "04.12.2026", &first);
    assert_eq!(v.decision, Decision::NoChange);
    assert!(v.state.penalties.is_empty());
    assert!(v.notices.iter().any(|n| matches!(&n.kind,
        NoticeKind::AlreadyMade { moves } if moves.len() == 1 && moves[0].text == "c3-d4")));
    // The same letter delivered twice (same reference) changes nothing either.
    let env = Envelope {
        sender: Side::Black,
        received: d("03.12.2026"),
        letter: st.moves[1].letter.clone(),
    };
    let v = judge_submission(
        &st,
        &letter("1. c3-d4", "1... f6-g5"),
        &env,
        &ClockSettings::default(),
    );
    assert_eq!(v.decision, Decision::NoChange);
}

#[test]
fn clause_10_5_1_finished_game_gives_the_semi_short_record_and_pdn() {
    let st = play(
        opening(),
        &[(Side::White, "04.12.2026", letter("1... f6-g5", "2. g3-f4"))],
    );
    assert_eq!(st.semi_short().as_deref(), Some("1.cd4 fg5 2.gf4"));
    let resign = Submission {
        is_resignation: true,
        ..Submission::default()
    };
    let v = send(&st, Side::Black, "05.12.2026", &resign);
    assert!(v.notices.iter().any(|n| matches!(&n.kind,
        NoticeKind::GameOver { semi_short: Some(r), .. } if r == "1.cd4 fg5 2.gf4")));
    let pdn = v.state.to_pdn("zaochka");
    assert!(pdn.contains("[Event \"ЗШ-2026-1\"]"), "{pdn}");
    assert!(pdn.contains("[Result \"1-0\"]"), "{pdn}");
    assert!(pdn.contains("[GameType \"25\"]"), "{pdn}");
}

#[test]
fn a_player_is_found_by_address_in_any_case() {
    let st = russian();
    assert_eq!(st.side_of_email("Black@Example.org"), Some(Side::Black));
    assert_eq!(st.side_of_email("white@example.org "), Some(Side::White));
    assert_eq!(st.side_of_email("nobody@example.org"), None);
}

#[test]
fn clause_10_2_7_a_variant_written_from_the_senders_own_move_is_read_from_the_partners_reply() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let sub = with_variant(
        letter("1. c3-d4", "1... f6-g5"),
        "А",
        "1... f6-g5 2. g3-f4 b6-a5",
    );
    let v = send(&st, Side::Black, "02.12.2026", &sub);
    assert_eq!(v.decision, Decision::Accepted);
    assert_eq!(v.state.proposals[0].moves, ["g3-f4", "b6-a5"]);
    assert_eq!(v.state.proposals[0].from_ply, 2);
}

#[test]
fn clause_10_3_6_a_suspended_game_takes_no_moves_but_a_resignation() {
    let st = send(
        &opening(),
        Side::White,
        "25.01.2027",
        &letter("1... f6-g5", "2. g3-f4"),
    )
    .state;
    let v = send(
        &st,
        Side::White,
        "26.01.2027",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(v.decision, Decision::Rejected(Reason::NotInPlay));
    let resign = Submission {
        is_resignation: true,
        ..Submission::default()
    };
    let v = send(&st, Side::White, "26.01.2027", &resign);
    assert_eq!(v.state.result.map(|r| r.score), Some(Score::BlackWins));
}

/// A whole short game as the rules tell it: a variant accepted (10.2.13), a break across an
/// answer (10.4.3), a forgotten repetition (10.2.9, 10.2.11), a draw offered and accepted;
/// Table 2 at the end, checked by hand.
#[test]
fn a_short_game_with_a_variant_a_break_a_penalty_and_a_draw() {
    let s = ClockSettings::default();
    let st = play(
        russian(),
        &[
            (Side::White, "01.12.2026", letter("", "1. c3-d4")),
            (
                Side::Black,
                "05.12.2026",
                with_variant(letter("1. c3-d4", "1... f6-g5"), "А", "2. g3-f4 b6-a5"),
            ),
            (
                Side::White,
                "06.12.2026",
                letter("1... f6-g5", "2. g3-f4 b6-a5 3. b2-c3"),
            ),
        ],
    );
    let st = arbiter::record_break(
        &st,
        Side::Black,
        Break::ordinary(d("10.12.2026"), d("19.12.2026"), d("07.12.2026")),
    )
    .state;
    let stopped = send(&st, Side::Black, "21.12.2026", &letter("", "3... a7-b6"));
    assert_eq!(stopped.decision, Decision::Rejected(Reason::Repetition));
    let mut offer = letter("3... a7-b6", "4. c1-b2");
    offer.draw = Some(DrawWord::Offer);
    let st = play(
        stopped.state,
        &[
            (
                Side::Black,
                "22.12.2026",
                letter("2. g3-f4 b6-a5 3. b2-c3", "3... a7-b6"),
            ),
            (Side::White, "23.12.2026", offer),
        ],
    );
    let accept = Submission {
        draw: Some(DrawWord::Accept),
        ..Submission::default()
    };
    let v = send(&st, Side::Black, "24.12.2026", &accept);
    assert_eq!(
        v.state.result.as_ref().map(|r| (r.score, r.how.clone())),
        Some((Score::Draw, Ending::Agreement))
    );
    // White: 0 (start day) + 1 (05.12 → 06.12) + 1 (22.12 → 23.12) = 2.
    // Black: 4 (01.12 → 05.12) + 6 (06.12 → 22.12 less the 10 break days) + 6 penalty
    // + 1 (the draw accepted on 24.12, the offer received on 23.12) = 17; the clock stops
    // with the result.
    let chart = v.state.time_chart(&s, d("31.12.2026"));
    assert_eq!((chart.totals.white, chart.totals.black), (2, 17));
    // Black's variant move b6-a5 does not count for black (10.3.5).
    assert_eq!(v.state.counted_moves(Side::Black), 2);
    assert_eq!(v.state.counted_moves(Side::White), 4);
}

mod deadlines_agree_with_the_judge {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        /// The overstep day the deadlines give is the first day a letter is too late: a
        /// letter the day before is played, a letter on the day suspends the game; no
        /// deadline falls before the move was received.
        #[test]
        fn overstep_day_is_the_first_day_a_letter_is_too_late(
            gaps in proptest::collection::vec(0u64..6, 1..14),
            pick in 0usize..16,
            with_break in any::<bool>(),
        ) {
            let s = ClockSettings::default();
            let mut st = russian();
            if with_break {
                st.breaks.black.push(Break::ordinary(d("20.12.2026"), d("10.01.2027"), d("01.12.2026")));
            }
            let mut day = d("01.12.2026");
            for (i, gap) in gaps.iter().enumerate() {
                day = day + chrono::Days::new(*gap);
                let me = st.side_to_move();
                let legal = st.position().legal_moves();
                if legal.is_empty() { return Ok(()); }
                let mv = legal[(i + pick) % legal.len()].text(st.variant);
                let rep: Vec<String> = st.new_moves_for(me).iter().map(|m| m.text.clone()).collect();
                let v = send(&st, me, &day.format("%d.%m.%Y").to_string(), &letter(&rep.join(" "), &mv));
                prop_assert_eq!(&v.decision, &Decision::Accepted, "{:?}", v.notices);
                st = v.state;
            }
            if st.result.is_some() { return Ok(()); }
            let me = st.side_to_move();
            let received = st.received_by(me);
            for dl in due(&st, d("31.12.2027"), &s) {
                prop_assert!(dl.day >= received, "{:?} before {}", dl.kind, received);
            }
            let Some(over) = st.ledger(&s).overstep_day(me) else { return Ok(()); };
            let legal = st.position().legal_moves();
            let mv = legal[pick % legal.len()].text(st.variant);
            let rep: Vec<String> = st.new_moves_for(me).iter().map(|m| m.text.clone()).collect();
            let sub = letter(&rep.join(" "), &mv);
            let day_before = over.pred_opt().expect("a day before");
            if day_before >= received {
                let v = send(&st, me, &day_before.format("%d.%m.%Y").to_string(), &sub);
                prop_assert_eq!(v.decision, Decision::Accepted);
            }
            let v = send(&st, me, &over.format("%d.%m.%Y").to_string(), &sub);
            prop_assert_eq!(v.decision, Decision::Rejected(Reason::Overstep));
            let fired = due(&st, over, &s);
            prop_assert!(fired.iter().any(|x| x.kind == DeadlineKind::Overstep && x.day == over));
        }
    }
}

#[test]
fn the_whole_move_pair_on_the_moves_line_is_read_as_the_record() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let v = send(
        &st,
        Side::Black,
        "02.12.2026",
        &letter("1. c3-d4", "1. c3-d4 f6-g5"),
    );
    assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
    assert_eq!(texts(&v.state), ["c3-d4", "f6-g5"]);
    assert!(v.state.penalties.is_empty());
}

#[test]
fn clause_10_5_2_an_analysis_after_the_end_of_play_is_not_refused() {
    let mut st = opening();
    st.end = d("03.12.2026");
    let sub = Submission {
        has_other_business: true,
        ..Submission::default()
    };
    let v = send(&st, Side::White, "05.12.2026", &sub);
    assert_eq!(v.decision, Decision::NoChange);
    assert!(v.notices.is_empty());
}

#[test]
fn clause_10_5_6_a_protest_after_the_result_still_goes_to_the_arbiter() {
    let st =
        arbiter::set_result(&opening(), Score::WhiteWins, "adjudicated", d("05.12.2026")).state;
    let sub = Submission {
        protest: Some("не согласен с присуждением".to_string()),
        ..Submission::default()
    };
    let v = send(&st, Side::Black, "07.12.2026", &sub);
    assert_eq!(v.decision, Decision::NoChange);
    assert_eq!(v.notices.len(), 1);
    assert_eq!(v.notices[0].to, Recipient::Arbiter);
}

#[test]
fn clause_10_2_7_each_variant_is_stored_and_the_partner_may_accept_any() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let sub = with_variant(
        with_variant(letter("1. c3-d4", "1... f6-g5"), "А", "2. g3-f4 b6-a5"),
        "Б",
        "2. g3-h4 b6-a5",
    );
    let st = send(&st, Side::Black, "02.12.2026", &sub).state;
    assert_eq!(st.proposals.len(), 2);
    // White takes variant Б and answers with the compulsory capture.
    let v = send(
        &st,
        Side::White,
        "03.12.2026",
        &letter("1... f6-g5", "2. g3-h4 b6-a5 3. h4:f6"),
    );
    assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
    assert_eq!(texts(&v.state)[2..], ["g3-h4", "b6-a5", "h4:f6"]);
    assert!(v.state.moves[3].is_from_variant);
}

#[test]
fn clause_10_4_2_a_break_announced_late_counts_from_the_announcement() {
    // White received f6-g5 on 03.12; black's break 10.12–19.12 was announced on 15.12, so
    // only 15.12–19.12 (5 days) stop the clocks: 03.12 → 23.12 is 20 days less 5 = 15.
    let mut st = opening();
    st.breaks.black.push(Break::ordinary(
        d("10.12.2026"),
        d("19.12.2026"),
        d("15.12.2026"),
    ));
    let v = send(
        &st,
        Side::White,
        "23.12.2026",
        &letter("1... f6-g5", "2. g3-f4"),
    );
    assert_eq!(times(&v).white, 15);
}

#[test]
fn clause_10_3_1_right_dates_and_time_need_no_correction() {
    let mut sub = letter("1... f6-g5", "2. g3-f4");
    sub.dates = vec![d("03.12.2026"), d("03.12.2026"), d("04.12.2026")];
    sub.time = Some(TimeUsed { white: 1, black: 2 });
    let v = send(&opening(), Side::White, "04.12.2026", &sub);
    assert_eq!(v.decision, Decision::Accepted);
    assert!(
        v.notices.iter().all(|n| !matches!(&n.kind,
        NoticeKind::Receipt { problems, .. } if !problems.is_empty())),
        "{:#?}",
        v.notices
    );
}

fn unlabelled(moves: &str) -> Submission {
    Submission {
        moves: written(moves),
        moves_unlabelled: true,
        ..Submission::default()
    }
}

#[test]
fn a_bare_move_line_is_the_senders_own_move_when_it_can_mean_nothing_else() {
    let v = send(
        &russian(),
        Side::White,
        "01.12.2026",
        &unlabelled("1. c3-d4"),
    );
    assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
    assert_eq!(texts(&v.state), ["c3-d4"]);
    // Black writes the whole move pair after a bare «Ход:»: white's move, then his own.
    let v = send(
        &v.state,
        Side::Black,
        "02.12.2026",
        &unlabelled("1. c3-d4 f6-g5"),
    );
    assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
    assert_eq!(texts(&v.state), ["c3-d4", "f6-g5"]);
}

#[test]
fn a_bare_move_line_that_may_be_the_partners_is_explained_in_russian_without_penalty() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    // White again, out of turn: whose move is meant is unknown.
    let v = send(&st, Side::White, "02.12.2026", &unlabelled("1... f6-g5"));
    assert_eq!(v.decision, Decision::Rejected(Reason::NoMove));
    let (problems, penalty, _) = refused(&v);
    assert_eq!(penalty, 0);
    assert_eq!(problems[0].kind, ProblemKind::UnlabelledMoves);
    assert_eq!(problems[0].clause, "10.2.3");
    let ru = problems[0].text_ru.as_deref().unwrap();
    assert!(
        ru.contains("«Мой ход:»") && ru.contains("«Ваш ход:»"),
        "{ru}"
    );
    // Black, in turn, but the move is not a move of black's: not played, no penalty.
    let v = send(&st, Side::Black, "02.12.2026", &unlabelled("2. g3-h4"));
    assert_eq!(v.decision, Decision::Rejected(Reason::NoMove));
    assert!(v.state.penalties.is_empty());
    assert_eq!(refused(&v).0[0].kind, ProblemKind::UnlabelledMoves);
    assert_eq!(v.state.moves.len(), 1);
}

#[test]
fn a_variant_cut_by_short_notation_cites_10_2_2_and_10_2_12() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let sub = with_variant(letter("1. c3-d4", "1... f6-g5"), "А", "2. g3-h4 ba5");
    let v = send(&st, Side::Black, "02.12.2026", &sub);
    assert_eq!(v.decision, Decision::Accepted);
    let problems = v
        .notices
        .iter()
        .find_map(|n| match &n.kind {
            NoticeKind::Receipt { problems, .. } => Some(problems),
            _ => None,
        })
        .expect("receipt");
    assert_eq!(problems[0].clause, "10.2.2, 10.2.12");
    assert!(
        problems[0]
            .text_ru
            .as_deref()
            .unwrap()
            .contains("сокращённо")
    );
}

#[test]
fn every_problem_of_the_judge_has_a_russian_text() {
    let st = play(
        russian(),
        &[(Side::White, "01.12.2026", letter("", "1. c3-d4"))],
    );
    let cases = [
        letter("1. c3-b4", "1... f6-d4"),
        letter("", "1... f6-g5"),
        letter("1. c3-d4", "3... f6-g5"),
        with_variant(letter("1. c3-d4", "1... f6-g5"), "Б", "2. g3-h4 b6-b5"),
    ];
    let mut seen = 0;
    for sub in &cases {
        let v = send(&st, Side::Black, "03.12.2026", sub);
        for n in &v.notices {
            if let NoticeKind::Refused { problems, .. }
            | NoticeKind::Receipt { problems, .. }
            | NoticeKind::ForwardMove { problems, .. } = &n.kind
            {
                for p in problems {
                    seen += 1;
                    let ru = p.text_ru.as_deref().unwrap_or_else(|| panic!("{p:?}"));
                    assert!(ru.chars().any(|c| ('а'..='я').contains(&c)), "{p:?}");
                    assert!(!ru.contains("(п."), "the clause is cited beside: {ru}");
                }
            }
        }
    }
    assert!(seen >= 5, "{seen}");
}

#[test]
fn the_board_is_drawn_from_the_side_the_player_asks_for_and_the_receipt_says_so() {
    let mut sub = letter("", "1. c3-d4");
    sub.board_from = Some(Side::Black);
    let v = send(&russian(), Side::White, "01.12.2026", &sub);
    assert_eq!(v.decision, Decision::Accepted, "{:#?}", v.notices);
    assert_eq!(v.state.board_from.white, Some(Side::Black));
    assert_eq!(v.state.board_from.black, None);
    let receipt = v
        .notices
        .iter()
        .find_map(|n| match &n.kind {
            NoticeKind::Receipt { problems, .. } if n.to == Recipient::Player(Side::White) => {
                Some(problems)
            }
            _ => None,
        })
        .expect("a receipt to White");
    let note = receipt
        .iter()
        .find(|p| p.kind == ProblemKind::BoardView)
        .expect("the receipt says it");
    assert!(
        note.text_ru
            .as_deref()
            .unwrap()
            .contains("со стороны чёрных"),
        "{note:?}"
    );
    assert!(
        !v.notices
            .iter()
            .any(|n| matches!(n.kind, NoticeKind::BoardView { .. })),
        "said once, in the receipt"
    );
    // Asked again: nothing more to say.
    let again = Submission {
        board_from: Some(Side::Black),
        has_other_business: true,
        ..Submission::default()
    };
    let v2 = send(&v.state, Side::White, "02.12.2026", &again);
    assert!(v2.notices.is_empty(), "{:#?}", v2.notices);
}

#[test]
fn the_board_line_alone_is_granted_in_a_note_of_its_own_and_changes_nothing_else() {
    let st = russian();
    let sub = Submission {
        board_from: Some(Side::Black),
        has_other_business: true,
        ..Submission::default()
    };
    let v = send(&st, Side::Black, "01.12.2026", &sub);
    assert_eq!(v.decision, Decision::NoChange);
    assert_eq!(v.state.board_from.black, Some(Side::Black));
    assert_eq!(v.state.moves, st.moves);
    assert_eq!(
        v.notices,
        vec![Notice {
            to: Recipient::Player(Side::Black),
            kind: NoticeKind::BoardView { from: Side::Black },
        }]
    );
    // And back to White's side.
    let back = Submission {
        board_from: Some(Side::White),
        has_other_business: true,
        ..Submission::default()
    };
    let v = send(&v.state, Side::Black, "02.12.2026", &back);
    assert_eq!(v.state.board_from.black, Some(Side::White));
    assert_eq!(v.notices.len(), 1);
}

#[test]
fn a_state_stored_before_the_board_line_existed_still_loads() {
    let mut json: serde_json::Value = serde_json::to_value(russian()).unwrap();
    json.as_object_mut().unwrap().remove("board_from");
    let st: GameState = serde_json::from_value(json).unwrap();
    assert_eq!(st.board_from.white, None);
    assert_eq!(st.board_from.black, None);
}

mod imported {
    use super::*;
    use crate::clock::Carried;
    use crate::rules::{PdnGame, Position};

    /// The record `1. c3-d4 f6-g5 2. b2-c3 g7-f6` (White to move), 12 and 20 days, 6 of
    /// them Black's penalties, sent to White on 01.12.2026.
    fn imported() -> GameState {
        let pdn = PdnGame::from_pdn("1. c3-d4 f6-g5 2. b2-c3 g7-f6 *").expect("legal record");
        let carried = PerSide {
            white: Carried {
                days: 12,
                penalty_days: 0,
            },
            black: Carried {
                days: 14,
                penalty_days: 6,
            },
        };
        let base = game(Variant::Russian, "01.09.2026");
        import(
            base,
            &GameImport {
                record: &pdn.record,
                carried,
                sent: d("01.12.2026"),
                result: None,
            },
            d("03.12.2026"),
        )
        .expect("imports")
    }

    #[test]
    fn an_imported_games_clock_goes_on_from_the_days_carried_in_from_the_day_after_sending() {
        let st = imported();
        let settings = ClockSettings::default();
        assert_eq!(st.side_to_move(), Side::White);
        // Black's 20 days, penalties included; White's run from 02.12 (10.3.2).
        assert_eq!(
            st.times(&settings, d("01.12.2026")),
            TimeUsed {
                white: 12,
                black: 20
            }
        );
        assert_eq!(st.times(&settings, d("05.12.2026")).white, 16);
        assert_eq!(st.ledger(&settings).penalty_days(Side::Black), 6);
        // Two counted moves each: the first control, 50 days (10.3.5).
        assert_eq!(st.counted_moves(Side::White), 2);
        assert_eq!(st.ledger(&settings).limit(Side::White), 50);
        // 38 days left on 01.12: the last day in time is 08.01.2027.
        let last = st
            .ledger(&settings)
            .last_day(Side::White, d("01.12.2026"))
            .expect("White to move");
        assert_eq!(last.date, d("08.01.2027"));
        assert_eq!(last.days_left, 38);
    }

    #[test]
    fn after_an_import_the_side_to_move_repeats_only_the_partners_last_move_10_2_9() {
        let st = imported();
        assert_eq!(
            st.new_moves_for(Side::White)
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["2... g7-f6"]
        );
        let v = send(
            &st,
            Side::White,
            "05.12.2026",
            &letter("2... g7-f6", "3. c3-b4"),
        );
        assert_eq!(v.decision, Decision::Accepted, "{:?}", v.notices);
        let settings = ClockSettings::default();
        // White thought 02.12–05.12: 4 days on top of the 12; Black's clock runs from 06.12.
        assert_eq!(
            v.state.times(&settings, d("05.12.2026")),
            TimeUsed {
                white: 16,
                black: 20
            }
        );
        assert_eq!(v.state.times(&settings, d("08.12.2026")).black, 23);
        // Without the repetition play stops (10.2.9), as in any game.
        let v = send(&st, Side::White, "05.12.2026", &letter("", "3. c3-b4"));
        assert!(matches!(v.decision, Decision::Rejected(_)));
    }

    #[test]
    fn an_import_refuses_another_games_record_a_game_over_without_its_result_and_a_day_outside() {
        let pdn = PdnGame::from_pdn("[GameType \"20\"]\n1. 32-28 *").expect("legal record");
        let sent = d("01.12.2026");
        let g = |record| GameImport {
            record,
            carried: PerSide::default(),
            sent,
            result: None,
        };
        assert!(matches!(
            import(russian(), &g(&pdn.record), sent),
            Err(ImportError::Variant { .. })
        ));
        // White has no piece left: the game is over by the rules (Position from FEN).
        let fen = "W:W:B1";
        let start = Position::from_fen(Variant::Russian, fen).expect("fen");
        let record = crate::rules::GameRecord::new(start);
        assert_eq!(
            import(russian(), &g(&record), sent).err(),
            Some(ImportError::OverByRule)
        );
        // Sent before the tournament's start.
        let ours = PdnGame::from_pdn("1. c3-d4 *").expect("legal record");
        let early = GameImport {
            sent: d("30.11.2026"),
            ..g(&ours.record)
        };
        assert!(matches!(
            import(russian(), &early, sent),
            Err(ImportError::Sent { .. })
        ));
    }
}
