//! A tournament's own settings: the clock's numbers and the points of its table, fixed
//! when the tournament is added. The office and the command line read them through this one
//! type.

use serde::{Deserialize, Serialize};

use crate::clock::ClockSettings;
use crate::config::RulesConfig;
use crate::store::Tournament;
use crate::tournament::{PointsSystem, StandingsSettings};

/// A tournament's own settings, fixed when it is added: the clock's numbers and the points
/// of the table. Stored as JSON in the tournament's `settings` column; keys left out take
/// the rules' defaults (so `{}` is the rules as written).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TournamentSettings {
    /// The clock: days per 10 moves, penalties, repeats, queries, warnings, strictness.
    pub clock: ClockSettings,
    /// Points per result and tie-breaks.
    pub standings: StandingsSettings,
}

impl TournamentSettings {
    /// The settings the config's `[rules]` section gives.
    pub fn from_config(rules: &RulesConfig) -> Self {
        TournamentSettings {
            clock: ClockSettings {
                days_per_period: rules.days_per_10_moves,
                moves_per_period: 10,
                penalty_days: rules.penalty_days,
                repeat_after_days: rules.repeat_after_days,
                first_move_query_after_days: rules.first_move_query_days,
                warning_days_left: rules.warning_days,
                is_strict: rules.strict_dates,
                ..ClockSettings::default()
            },
            standings: StandingsSettings {
                points: PointsSystem {
                    win: rules.points_win,
                    draw: rules.points_draw,
                    loss: rules.points_loss,
                },
                ..StandingsSettings::default()
            },
        }
    }

    /// The settings stored with a tournament. A bare [`ClockSettings`] document (the clock's
    /// keys at the top) is read too, with the default points.
    ///
    /// # Errors
    /// The JSON error, when the stored document is neither.
    pub fn of(t: &Tournament) -> Result<Self, serde_json::Error> {
        serde_json::from_str(&t.settings).or_else(|e| {
            serde_json::from_str::<ClockSettings>(&t.settings)
                .map(|clock| TournamentSettings {
                    clock,
                    ..TournamentSettings::default()
                })
                .map_err(|_| e)
        })
    }

    /// As JSON, for the `settings` column.
    pub fn to_json(&self) -> String {
        // Plain structs of numbers, booleans and enums: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_from_the_default_config_are_the_rules_defaults() {
        let s = TournamentSettings::from_config(&RulesConfig::default());
        assert_eq!(s, TournamentSettings::default());
    }

    #[test]
    fn settings_round_trip_through_json_and_an_empty_document_is_the_default() {
        let rules = RulesConfig {
            points_win: 3,
            penalty_days: 5,
            ..RulesConfig::default()
        };
        let s = TournamentSettings::from_config(&rules);
        let back: TournamentSettings = serde_json::from_str(&s.to_json()).unwrap();
        assert_eq!(back, s);
        assert_eq!(back.standings.points.win, 3);
        assert_eq!(back.clock.penalty_days, 5);
        let empty: TournamentSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, TournamentSettings::default());
    }

    #[test]
    fn a_bare_clock_document_is_read_with_the_default_points() {
        let t = Tournament {
            id: crate::store::TournamentId(1),
            cipher: "T".into(),
            variant: "russian".into(),
            name: "T".into(),
            start: chrono::NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(),
            end: chrono::NaiveDate::from_ymd_opt(2027, 12, 1).unwrap(),
            tz: "Europe/Moscow".into(),
            settings: r#"{"penalty_days": 4}"#.into(),
            status: crate::store::TournamentStatus::Registration,
            created: chrono::Utc::now(),
        };
        let s = TournamentSettings::of(&t).unwrap();
        assert_eq!(s.clock.penalty_days, 4);
        assert_eq!(s.standings, StandingsSettings::default());
        let bad = Tournament {
            settings: r#"{"penalty_dayz": 4}"#.into(),
            ..t
        };
        assert!(TournamentSettings::of(&bad).is_err());
    }
}
