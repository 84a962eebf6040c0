//! Numbers meet nouns: the one place that makes "51 день", "2 партии", "1 game".
//!
//! Rust code calls [`count`] with a [`Noun`]; templates call the `plural` filter with the
//! noun's forms in the template's language:
//! `{{ used | plural("день", "дня", "дней") }}` (three forms: Russian rule) or
//! `{{ total | plural("game", "games") }}` (two forms: English rule). Both write the number
//! and the noun: "51 день", "1 game".

use super::Lang;

/// A noun that zaochka's letters count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Noun {
    /// день / day.
    Day,
    /// партия / game.
    Game,
    /// очко / point.
    Point,
    /// ход / move.
    Move,
    /// строка / line.
    Line,
    /// штрафной день / penalty day.
    PenaltyDay,
}

impl Noun {
    fn ru(self) -> [&'static str; 3] {
        match self {
            Noun::Day => ["день", "дня", "дней"],
            Noun::Game => ["партия", "партии", "партий"],
            Noun::Point => ["очко", "очка", "очков"],
            Noun::Move => ["ход", "хода", "ходов"],
            Noun::Line => ["строка", "строки", "строк"],
            Noun::PenaltyDay => ["штрафной день", "штрафных дня", "штрафных дней"],
        }
    }

    fn en(self) -> [&'static str; 2] {
        match self {
            Noun::Day => ["day", "days"],
            Noun::Game => ["game", "games"],
            Noun::Point => ["point", "points"],
            Noun::Move => ["move", "moves"],
            Noun::Line => ["line", "lines"],
            Noun::PenaltyDay => ["penalty day", "penalty days"],
        }
    }
}

/// The Russian form that agrees with `n`: 1, 21 день; 2–4, 22 дня; 5–20, 25 дней (the sign
/// does not matter: −1 день, −5 дней).
pub fn plural_ru<'a>(n: i64, one: &'a str, few: &'a str, many: &'a str) -> &'a str {
    let n = n.unsigned_abs();
    match (n % 10, n % 100) {
        (1, r) if r != 11 => one,
        (2..=4, r) if !(12..=14).contains(&r) => few,
        _ => many,
    }
}

/// The English form that agrees with `n`: 1 game, 0 games, 2 games.
pub fn plural_en<'a>(n: i64, one: &'a str, many: &'a str) -> &'a str {
    if n.unsigned_abs() == 1 { one } else { many }
}

/// The noun alone, in the form that agrees with `n`.
pub fn noun(lang: Lang, n: i64, noun: Noun) -> &'static str {
    match lang {
        Lang::Ru => {
            let [a, b, c] = noun.ru();
            plural_ru(n, a, b, c)
        }
        Lang::En => {
            let [a, b] = noun.en();
            plural_en(n, a, b)
        }
    }
}

/// The number and the noun: "51 день", "1 game".
pub fn count(lang: Lang, n: i64, what: Noun) -> String {
    format!("{n} {}", noun(lang, n, what))
}

/// The number with its sign and the noun: "+5 дней", "-1 day" (days given or taken back).
pub fn signed_count(lang: Lang, n: i64, what: Noun) -> String {
    format!("{n:+} {}", noun(lang, n, what))
}

/// The template filter `plural`: `n | plural(one, few, many)` (Russian) or
/// `n | plural(one, many)` (English).
pub(super) fn plural_filter(
    n: minijinja::Value,
    forms: minijinja::value::Rest<String>,
) -> Result<String, minijinja::Error> {
    let num = i64::try_from(n.clone()).map_err(|_| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!("plural: '{n}' is not a whole number"),
        )
    })?;
    let word = match forms.as_slice() {
        [one, few, many] => plural_ru(num, one, few, many),
        [one, many] => plural_en(num, one, many),
        _ => {
            return Err(minijinja::Error::new(
                minijinja::ErrorKind::InvalidOperation,
                "plural takes three Russian forms (день, дня, дней) or two English ones (day, days)",
            ));
        }
    };
    Ok(format!("{num} {word}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_nouns_agree_with_the_number() {
        let got: Vec<String> = [
            0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 51, 101, 111, 112, -1, -5,
        ]
        .into_iter()
        .map(|n| count(Lang::Ru, n, Noun::Day))
        .collect();
        assert_eq!(
            got,
            [
                "0 дней",
                "1 день",
                "2 дня",
                "4 дня",
                "5 дней",
                "11 дней",
                "12 дней",
                "14 дней",
                "21 день",
                "22 дня",
                "25 дней",
                "51 день",
                "101 день",
                "111 дней",
                "112 дней",
                "-1 день",
                "-5 дней"
            ]
        );
        assert_eq!(count(Lang::Ru, 3, Noun::Game), "3 партии");
        assert_eq!(count(Lang::Ru, 5, Noun::Point), "5 очков");
        assert_eq!(count(Lang::Ru, 21, Noun::Point), "21 очко");
        assert_eq!(count(Lang::Ru, 10, Noun::Move), "10 ходов");
        assert_eq!(count(Lang::Ru, 2, Noun::Move), "2 хода");
        assert_eq!(count(Lang::Ru, 6, Noun::PenaltyDay), "6 штрафных дней");
        assert_eq!(count(Lang::Ru, 1, Noun::PenaltyDay), "1 штрафной день");
    }

    #[test]
    fn english_nouns_agree_with_the_number() {
        assert_eq!(count(Lang::En, 1, Noun::Game), "1 game");
        assert_eq!(count(Lang::En, 0, Noun::Game), "0 games");
        assert_eq!(count(Lang::En, 2, Noun::Game), "2 games");
        assert_eq!(count(Lang::En, 21, Noun::Day), "21 days");
        assert_eq!(count(Lang::En, -1, Noun::Day), "-1 day");
    }
}
