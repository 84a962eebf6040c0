//! The clock the commands read: the system clock, or `--now DATETIME` (DESIGN.md: RFC 3339,
//! or `YYYY-MM-DD[THH:MM]` in the tournament's time zone).

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

/// Reads `--now`: RFC 3339 (`2026-12-05T10:00:00+03:00`), or a date or date and minute in
/// `tz` (`2026-12-05`, `2026-12-05T10:00`, `2026-12-05 10:00`). A bare date means noon, so
/// that a day given without a time is that day in every zone a tournament may use.
///
/// # Errors
/// A message saying what was expected.
pub fn parse_now(text: &str, tz: Tz) -> Result<DateTime<Utc>, String> {
    let t = text.trim();
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Ok(dt.with_timezone(&Utc));
    }
    let local = if let Ok(d) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        d.and_time(NaiveTime::from_hms_opt(12, 0, 0).unwrap_or_default())
    } else if let Ok(dt) = NaiveDateTime::parse_from_str(&t.replacen(' ', "T", 1), "%Y-%m-%dT%H:%M")
    {
        dt
    } else if let Ok(dt) =
        NaiveDateTime::parse_from_str(&t.replacen(' ', "T", 1), "%Y-%m-%dT%H:%M:%S")
    {
        dt
    } else {
        return Err(format!(
            "cannot read --now '{t}': expected RFC 3339 or YYYY-MM-DD[THH:MM]"
        ));
    };
    // A time skipped by a DST change has no meaning; an ambiguous one takes the earlier.
    tz.from_local_datetime(&local)
        .earliest()
        .map(|dt| dt.with_timezone(&Utc))
        .ok_or_else(|| format!("--now '{t}' does not exist in {tz} (a clock change)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_keeps_its_own_offset() {
        let dt = parse_now("2026-12-05T10:00:00+03:00", chrono_tz::UTC).unwrap();
        assert_eq!(dt.to_rfc3339(), "2026-12-05T07:00:00+00:00");
    }

    #[test]
    fn a_date_and_minute_are_read_in_the_tournament_zone() {
        let dt = parse_now("2026-12-05T10:00", chrono_tz::Europe::Moscow).unwrap();
        assert_eq!(dt.to_rfc3339(), "2026-12-05T07:00:00+00:00");
        let dt = parse_now("2026-12-05 10:00", chrono_tz::Europe::Moscow).unwrap();
        assert_eq!(dt.to_rfc3339(), "2026-12-05T07:00:00+00:00");
    }

    #[test]
    fn a_bare_date_is_noon_of_that_day() {
        let dt = parse_now("2026-12-05", chrono_tz::Asia::Vladivostok).unwrap();
        assert_eq!(
            dt.with_timezone(&chrono_tz::Asia::Vladivostok)
                .date_naive()
                .to_string(),
            "2026-12-05"
        );
    }

    #[test]
    fn nonsense_is_refused_with_the_expected_forms() {
        let e = parse_now("05.12.2026", chrono_tz::UTC).unwrap_err();
        assert!(e.contains("YYYY-MM-DD"), "{e}");
        assert!(parse_now("2026-02-30", chrono_tz::UTC).is_err());
    }
}
