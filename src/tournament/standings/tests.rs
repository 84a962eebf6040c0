use super::*;

/// A game played out.
fn g(white: u32, black: u32, score: Score) -> GameResult {
    GameResult {
        white,
        black,
        score: Some(score),
        decision: Decision::Played,
    }
}

use Score::{BlackWins, Draw, WhiteWins};

fn only(tie_break: TieBreak) -> StandingsSettings {
    StandingsSettings {
        tie_breaks: vec![tie_break],
        ..StandingsSettings::default()
    }
}

/// Places by start number.
fn places(s: &Standings) -> Vec<(u32, String)> {
    let mut v: Vec<(u32, String)> = s
        .rows
        .iter()
        .map(|r| (r.number, r.place.to_string()))
        .collect();
    v.sort();
    v
}

fn row(s: &Standings, number: u32) -> &Standing {
    s.rows.iter().find(|r| r.number == number).unwrap()
}

/// 1: W 2, L 3, D 4 (3); 2: W 3, W 4 (4); 3: W 1, L 2, D 4 (3); 4: 2.
fn four() -> Vec<GameResult> {
    vec![
        g(1, 2, WhiteWins),
        g(3, 1, WhiteWins),
        g(1, 4, Draw),
        g(2, 3, WhiteWins),
        g(4, 2, BlackWins),
        g(3, 4, Draw),
    ]
}

#[test]
fn points_are_2_1_0_by_default_and_configurable() {
    let s = standings(4, &four(), &StandingsSettings::default());
    let pts: Vec<u32> = (1..=4).map(|n| row(&s, n).points).collect();
    assert_eq!(pts, vec![3, 4, 3, 2]);
    let three = StandingsSettings {
        points: PointsSystem {
            win: 3,
            draw: 1,
            loss: 0,
        },
        ..StandingsSettings::default()
    };
    let s = standings(4, &four(), &three);
    let pts: Vec<u32> = (1..=4).map(|n| row(&s, n).points).collect();
    assert_eq!(pts, vec![4, 6, 4, 2]);
}

#[test]
fn sonneborn_berger_is_the_points_of_the_beaten_plus_half_of_the_drawn() {
    let s = standings(4, &four(), &StandingsSettings::default());
    // 1 beat 2 (4 points) and drew 4 (2 points): 4 + 1 = 5.
    assert_eq!(row(&s, 1).sonneborn_berger, 5.0);
    // 3 beat 1 (3 points) and drew 4: 3 + 1 = 4.
    assert_eq!(row(&s, 3).sonneborn_berger, 4.0);
    // 4 drew 1 and 3: 1.5 + 1.5 = 3.
    assert_eq!(row(&s, 4).sonneborn_berger, 3.0);
    // So 1 is second, ahead of 3, although 3 won their game.
    assert_eq!(
        places(&s),
        vec![
            (1, "2".into()),
            (2, "1".into()),
            (3, "3".into()),
            (4, "4".into())
        ]
    );
    let s = standings(4, &four(), &only(TieBreak::HeadToHead));
    assert_eq!(row(&s, 3).place.first, 2);
    assert_eq!(row(&s, 1).place.first, 3);
}

/// 1: W 2, L 3, D 4 (3 points, 1 win); 4: D, D, D (3 points, no win); 2–3 drawn.
fn wins_apart() -> Vec<GameResult> {
    vec![
        g(1, 2, WhiteWins),
        g(3, 1, WhiteWins),
        g(1, 4, Draw),
        g(4, 2, Draw),
        g(4, 3, Draw),
        g(2, 3, Draw),
    ]
}

#[test]
fn more_wins_go_first_when_wins_break_the_tie() {
    let s = standings(4, &wins_apart(), &only(TieBreak::Wins));
    assert_eq!((row(&s, 1).points, row(&s, 4).points), (3, 3));
    assert_eq!((row(&s, 1).wins, row(&s, 4).wins), (1, 0));
    assert_eq!(row(&s, 1).place, Place { first: 2, last: 2 });
    assert_eq!(row(&s, 4).place, Place { first: 3, last: 3 });
    // The coefficient says the opposite (4 drew everyone, 9/2 against 7/2) ...
    let s = standings(4, &wins_apart(), &only(TieBreak::SonnebornBerger));
    assert_eq!(row(&s, 4).sonneborn_berger, 4.5);
    assert_eq!(row(&s, 1).sonneborn_berger, 3.5);
    assert_eq!(row(&s, 4).place.first, 2);
    // ... and their own game was drawn: the place is shared.
    let s = standings(4, &wins_apart(), &only(TieBreak::HeadToHead));
    assert_eq!(row(&s, 1).place, Place { first: 2, last: 3 });
    assert_eq!(row(&s, 4).place.to_string(), "2–3");
}

#[test]
fn three_tied_are_separated_by_the_mini_table_among_them() {
    let games = vec![
        // Among 1, 2, 3: 1 beats 2, draws 3; 2 beats 3 → 3, 2, 1 points.
        g(1, 2, WhiteWins),
        g(3, 1, Draw),
        g(2, 3, WhiteWins),
        // Against 4 and 5 the tied players make it 4 points each.
        g(4, 1, Draw),
        g(1, 5, BlackWins),
        g(2, 4, Draw),
        g(5, 2, Draw),
        g(3, 4, WhiteWins),
        g(5, 3, Draw),
        g(4, 5, Draw),
    ];
    let s = standings(5, &games, &only(TieBreak::HeadToHead));
    assert_eq!([1, 2, 3].map(|n| row(&s, n).points), [4, 4, 4]);
    assert_eq!(
        places(&s),
        vec![
            (1, "2".into()),
            (2, "3".into()),
            (3, "4".into()),
            (4, "5".into()),
            (5, "1".into())
        ]
    );
}

#[test]
fn the_mini_table_is_played_again_among_those_it_leaves_tied() {
    // A=1, B=2, C=3, D=4 tied on 6; among them A 5, D 3, B 2, C 2; B beat C.
    let games = vec![
        g(1, 2, WhiteWins),
        g(1, 3, Draw),
        g(1, 4, WhiteWins),
        g(2, 3, WhiteWins),
        g(4, 2, WhiteWins),
        g(3, 4, Draw),
        // E=5, F=6.
        g(1, 5, Draw),
        g(6, 1, WhiteWins),
        g(4, 5, WhiteWins),
        g(4, 6, Draw),
        g(2, 5, WhiteWins),
        g(2, 6, WhiteWins),
        g(3, 5, WhiteWins),
        g(3, 6, WhiteWins),
        g(5, 6, Draw),
    ];
    let s = standings(6, &games, &only(TieBreak::HeadToHead));
    assert_eq!([1, 2, 3, 4].map(|n| row(&s, n).points), [6, 6, 6, 6]);
    let order: Vec<u32> = s.rows.iter().map(|r| r.number).collect();
    assert_eq!(order, vec![1, 4, 2, 3, 6, 5]);
}

#[test]
fn players_equal_on_everything_share_the_place() {
    // A cycle: each beats one and loses to one.
    let games = vec![g(1, 2, WhiteWins), g(2, 3, WhiteWins), g(3, 1, WhiteWins)];
    let s = standings(3, &games, &StandingsSettings::default());
    for r in &s.rows {
        assert_eq!(r.place, Place { first: 1, last: 3 });
        assert_eq!(r.place.to_string(), "1–3");
    }
    let order: Vec<u32> = s.rows.iter().map(|r| r.number).collect();
    assert_eq!(order, vec![1, 2, 3]);
}

#[test]
fn clause_10_5_8_minus_for_both_counts_as_a_loss_for_each() {
    let games = vec![
        GameResult {
            white: 1,
            black: 2,
            score: Some(Score::BothLose),
            decision: Decision::Defaulted,
        },
        g(1, 3, Draw),
    ];
    let s = standings(3, &games, &StandingsSettings::default());
    assert_eq!((row(&s, 1).losses, row(&s, 2).losses), (1, 1));
    assert_eq!((row(&s, 1).points, row(&s, 2).points), (1, 0));
    assert_eq!(row(&s, 1).results[1][0].outcome, Outcome::Minus);
}

#[test]
fn unfinished_games_count_for_nobody() {
    let games = vec![GameResult {
        white: 1,
        black: 2,
        score: None,
        decision: Decision::Played,
    }];
    let s = standings(2, &games, &StandingsSettings::default());
    assert!(s.rows.iter().all(|r| r.games == 0 && r.points == 0));
    assert!(
        s.rows
            .iter()
            .all(|r| r.place == Place { first: 1, last: 2 })
    );
}

fn marked() -> Vec<GameResult> {
    vec![
        g(1, 2, WhiteWins),
        GameResult {
            white: 3,
            black: 1,
            score: Some(Draw),
            decision: Decision::Adjudicated,
        },
        GameResult {
            white: 2,
            black: 3,
            score: Some(BlackWins),
            decision: Decision::Defaulted,
        },
    ]
}

#[test]
fn clause_10_5_3_the_crosstable_marks_adjudicated_and_defaulted_results() {
    let s = standings(3, &marked(), &StandingsSettings::default());
    let names = ["Иванов Иван", "Петров Пётр", "Сидорова Анна"].map(String::from);
    let text = s.to_text(&names, &CrosstableLabels::default());
    // 1 and 3: 3 points, 1 win, 1.5 (1 beat 2 with 0 points, drew 3 with 3), a draw
    // between them: a shared first place.
    let expected = "\
№  Участник        1  2  3 |  Очки Побед  Коэф. Место
-----------------------------------------------------
1  Иванов Иван     ×  2 1п |     3     1    1.5   1–2
2  Петров Пётр     0  ×  − |     0     0      0     3
3  Сидорова Анна  1п  +  × |     3     1    1.5   1–2
п — присуждено (п. 10.5.4, 10.5.5); +/− — победа/поражение без игры (п. 10.3.7, 10.5.3); − у обоих — «минусы» (п. 10.5.8)
Коэф. — коэффициент Бергера (Зонненборна–Бергера)
";
    assert_eq!(text, expected);
    let en = s.to_text(&names, &CrosstableLabels::en());
    assert!(en.contains("1a"), "{en}");
    assert!(en.starts_with("No."));
}

#[test]
fn the_standings_serialise_for_machines() {
    let s = standings(3, &marked(), &StandingsSettings::default());
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["rows"][0]["number"], 1);
    assert_eq!(json["rows"][0]["place"]["first"], 1);
    assert_eq!(json["rows"][0]["results"][2][0]["decision"], "adjudicated");
    assert_eq!(json["settings"]["tie_breaks"][0], "sonneborn_berger");
}

/// The worked example of Sensei's Library, "Sonneborn-Berger" (also fiveinline.com,
/// "Sonneborn-Berger system", example 1): a double round robin of four players, wins only.
/// A, B tie on 4 wins; A's coefficient 4+3+3+1 = 11, B's 4+3+1+1 = 9, C's 6, D's 4.
#[test]
fn sonneborn_berger_matches_the_published_double_round_robin_example() {
    let (a, b, c, d) = (1, 2, 3, 4);
    let games = vec![
        // First cycle.
        g(a, b, WhiteWins),
        g(a, c, WhiteWins),
        g(a, d, WhiteWins),
        g(b, c, WhiteWins),
        g(b, d, WhiteWins),
        g(c, d, WhiteWins),
        // Second cycle.
        g(b, a, WhiteWins),
        g(c, a, BlackWins),
        g(d, a, WhiteWins),
        g(c, b, WhiteWins),
        g(b, d, WhiteWins),
        g(c, d, WhiteWins),
    ];
    let settings = StandingsSettings {
        points: PointsSystem {
            win: 1,
            draw: 0,
            loss: 0,
        },
        tie_breaks: vec![TieBreak::SonnebornBerger],
    };
    let s = standings(4, &games, &settings);
    let got: Vec<(u32, u32, f64)> = s
        .rows
        .iter()
        .map(|r| (r.number, r.points, r.sonneborn_berger))
        .collect();
    assert_eq!(
        got,
        vec![(a, 4, 11.0), (b, 4, 9.0), (c, 3, 6.0), (d, 1, 4.0)]
    );
    assert_eq!(row(&s, a).place.first, 1);
    assert_eq!(row(&s, b).place.first, 2);
    // Both games of a pair show in one crosstable cell.
    assert_eq!(row(&s, a).results[1].len(), 2);
}
