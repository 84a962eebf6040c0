//! Short wordings the office puts into letters (refusal reasons, remarks), in Russian and
//! English. Whole letters are templates (`templates/`); these are the sentences that fill
//! their slots.

use chrono::NaiveDate;

use crate::clock::BreakKind;
use crate::game::{Ending, GameState, NoticeKind, Side};
use crate::mail::auth::{AuthResult, Authentication};
use crate::render::Lang;
use crate::render::words::{Noun, count, plural_ru, signed_count};
use crate::rules::Variant;

/// The game's name in a start list.
pub fn variant_name(lang: Lang, v: Variant) -> String {
    match (lang, v) {
        (Lang::Ru, Variant::Russian) => "русские шашки",
        (Lang::Ru, Variant::Hundred) => "стоклеточные шашки",
        (Lang::Ru, Variant::Giveaway) => "обратные шашки (поддавки)",
        (Lang::En, Variant::Russian) => "Russian checkers",
        (Lang::En, Variant::Hundred) => "100-square draughts",
        (Lang::En, Variant::Giveaway) => "give-away checkers",
    }
    .to_string()
}

/// A first move of White and Black's answer, for the start list's example letter, in the
/// notation players of that game write (10.2.2; FMJD numbers on 10x10).
pub fn example_moves(v: Variant) -> (&'static str, &'static str) {
    match v {
        Variant::Russian | Variant::Giveaway => ("c3-d4", "f6-g5"),
        Variant::Hundred => ("32-28", "19-23"),
    }
}

/// A letter naming someone else's game.
/// For a break announced after its first day, why it counts from the day of the
/// announcement (10.4.2); empty when it was announced in time.
pub fn late_break(lang: Lang, asked: NaiveDate, announced: NaiveDate, counts: NaiveDate) -> String {
    if counts <= asked {
        return String::new();
    }
    let d = |d: NaiveDate| d.format("%d.%m.%Y").to_string();
    match lang {
        Lang::Ru => format!(
            "Перерыв с {} объявлен {}, после его начала, поэтому он засчитывается со дня объявления, с {} (п. 10.4.2).",
            d(asked),
            d(announced),
            d(counts)
        ),
        Lang::En => format!(
            "The break from {} was announced on {}, after it began, so it counts from the day of the announcement, {} (10.4.2).",
            d(asked),
            d(announced),
            d(counts)
        ),
    }
}

/// The subject of a refusal: the tournament(s) it concerns and the game when one is named
/// ("ЗШ-2026-1, партия 7: письмо не принято"); the generic one when none is known.
pub fn refused_subject(lang: Lang, ciphers: &[String], number: Option<u32>) -> String {
    let mut what = ciphers.join(", ");
    if let (Some(n), false) = (number, what.is_empty()) {
        what = match lang {
            Lang::Ru => format!("{what}, партия {n}"),
            Lang::En => format!("{what}, game {n}"),
        };
    }
    match (lang, what.is_empty()) {
        (Lang::Ru, true) => "Письмо не принято".into(),
        (Lang::En, true) => "Letter not accepted".into(),
        (Lang::Ru, false) => format!("{what}: письмо не принято"),
        (Lang::En, false) => format!("{what}: letter not accepted"),
    }
}

pub fn not_your_game(lang: Lang, number: u32) -> String {
    match lang {
        Lang::Ru => format!(
            "партия {number} — не ваша партия. Ходы в партии принимаются только от её участников, с адресов, указанных при регистрации."
        ),
        Lang::En => format!(
            "game {number} is not your game. Moves are accepted only from a game's own players, from their registered addresses."
        ),
    }
}

/// A letter whose game cannot be found: the sender's open games listed.
pub fn which_game(lang: Lang, games: &[(String, u32, String)]) -> String {
    let list: Vec<String> = games
        .iter()
        .map(|(c, n, p)| match lang {
            Lang::Ru => format!("{c}, партия {n} (партнёр — {p})"),
            Lang::En => format!("{c}, game {n} (partner {p})"),
        })
        .collect();
    match (lang, list.is_empty()) {
        (Lang::Ru, true) => "у вас нет неоконченных партий.".to_string(),
        (Lang::En, true) => "you have no unfinished games.".to_string(),
        (Lang::Ru, false) => format!(
            "не понятно, к какой партии относится письмо. Укажите шифр и номер партии (п. 10.2.3), например «Шифр: {}» и «Партия {}», или ответьте на письмо с ходом партнёра. Ваши партии: {}.",
            games[0].0,
            games[0].1,
            list.join("; ")
        ),
        (Lang::En, false) => format!(
            "it is not clear which game the letter is for. Name the cipher and the game (10.2.3), e.g. \"Tournament: {}\" and \"Game {}\", or reply to your partner's move. Your games: {}.",
            games[0].0,
            games[0].1,
            list.join("; ")
        ),
    }
}

/// A letter in which nothing to act on was found; `problems` are what could not be read.
pub fn nothing_read(lang: Lang, problems: &[String]) -> String {
    let list = problems.join("; ");
    match (lang, problems.is_empty()) {
        (Lang::Ru, true) => "в письме не найдено ни хода, ни других сведений по партии. Ход пишется после слов «Мой ход:», повторение хода партнёра — после «Ваш ход:» (п. 10.2.3).".into(),
        (Lang::En, true) => "no move or other business was found in the letter. Write your move after \"My move:\" and your partner's move after \"Your move:\" (10.2.3).".into(),
        (Lang::Ru, false) => format!("{list}. Пожалуйста, пришлите исправленное письмо."),
        (Lang::En, false) => format!("{list}. Please send a corrected letter."),
    }
}

/// How much of the sender's own words a forwarded move quotes below zaochka's rendering:
/// the partner needs the greeting and a remark, not a pasted log.
pub const QUOTED_LINES: usize = 100;
/// The same, in bytes.
pub const QUOTED_BYTES: usize = 20 * 1024;

/// The sender's words as the partner sees them: the first [`QUOTED_LINES`] lines, at most
/// [`QUOTED_BYTES`] bytes, then `[… 12 строк не показаны]`. A first line longer than the
/// whole allowance is cut and counts as not shown.
pub fn quoted_words(lang: Lang, text: &str) -> String {
    let total = text.lines().count();
    let mut out = String::new();
    let mut shown = 0;
    for line in text.split_inclusive('\n') {
        if shown == QUOTED_LINES {
            break;
        }
        if out.len() + line.len() > QUOTED_BYTES {
            if shown == 0 {
                let mut end = QUOTED_BYTES;
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                out.push_str(&line[..end]);
                out.push_str("…\n");
            }
            break;
        }
        out.push_str(line);
        shown += 1;
    }
    let hidden = total - shown;
    if hidden > 0 {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&match lang {
            Lang::Ru => format!(
                "[… {hidden} {}]\n",
                plural_ru(
                    i64::try_from(hidden).unwrap_or(i64::MAX),
                    "строка не показана",
                    "строки не показаны",
                    "строк не показаны"
                )
            ),
            Lang::En if hidden == 1 => "[… 1 line not shown]\n".to_string(),
            Lang::En => format!("[… {hidden} lines not shown]\n"),
        });
    }
    out
}

/// A letter too large to read (`[limits] letter_bytes`): what to do instead.
pub fn too_large(lang: Lang, bytes: usize, limit: usize) -> String {
    let mb = |b: usize| {
        let tenths = (b as u64 * 10).div_ceil(1024 * 1024);
        match tenths % 10 {
            0 => (tenths / 10).to_string(),
            t => format!("{},{t}", tenths / 10),
        }
    };
    match lang {
        Lang::Ru => format!(
            "письмо слишком большое ({} МБ при пределе {} МБ) и поэтому не прочитано. Пришлите, пожалуйста, ходы коротким текстовым письмом, без вложений и без длинной цитаты прежней переписки: шифр, партия, «Ваш ход: …», «Мой ход: …» (п. 10.2.3).",
            mb(bytes),
            mb(limit)
        ),
        Lang::En => format!(
            "the letter is too large ({} MB, the limit is {} MB), so it is not read. Please send your moves in a short text letter, with no attachments and no long quote of earlier letters: the cipher, the game, \"Your move: …\", \"My move: …\" (10.2.3).",
            mb(bytes).replace(',', "."),
            mb(limit).replace(',', ".")
        ),
    }
}

/// Why a break cannot be granted, in the letter's language.
pub fn break_error(lang: Lang, e: &crate::clock::BreakError) -> String {
    use crate::clock::BreakError as E;
    match (lang, e) {
        (Lang::En, _) => e.to_string(),
        (Lang::Ru, E::Reversed { range }) => {
            format!("в перерыве {range} последний день раньше первого (п. 10.4.3)")
        }
        (Lang::Ru, E::TooLong { range, days, max }) => format!(
            "перерыв {range} длится {}, а можно не более {} (п. 10.4.1)",
            crate::render::words::count(Lang::Ru, i64::from(*days), Noun::Day),
            crate::render::words::count(Lang::Ru, i64::from(*max), Noun::Day)
        ),
        (
            Lang::Ru,
            E::AnnouncedAfterEnd {
                range,
                announced_on,
            },
        ) => format!(
            "о перерыве {range} сообщено {}, уже после его последнего дня (п. 10.4.2)",
            announced_on.format("%d.%m.%Y")
        ),
        (
            Lang::Ru,
            E::SecondInYear {
                range,
                year,
                earlier,
            },
        ) => format!(
            "перерыв {range} был бы вторым в {year} году (первый — {earlier}), а в календарный год даётся один перерыв (п. 10.4.1)"
        ),
        (Lang::Ru, E::Overlaps { range, other }) => {
            format!("перерыв {range} пересекается с перерывом {other}")
        }
        (Lang::Ru, E::DifferentDates { range, other }) => format!(
            "перерыв {range} не совпадает с перерывом {other} в другой партии: перерыв один для всех партий (п. 10.4.1)"
        ),
    }
}

/// A reason the office itself recorded (a penalty, a ruling of the clock), in the letter's
/// language; a reason the arbiter wrote is shown as written.
pub fn recorded_reason(lang: Lang, reason: &str) -> String {
    if lang == Lang::En {
        return reason.to_string();
    }
    if let Some(rest) = reason.strip_prefix("penalty cancelled: ") {
        return format!("штраф отменён: {}", recorded_reason(lang, rest));
    }
    match reason {
        "moves not repeated (10.2.9)" => "ходы партнёра не повторены (п. 10.2.9)".into(),
        "impossible move (10.2.10)" => "невозможный ход (п. 10.2.10)".into(),
        "dates or time missing again" => "снова не указаны даты или время (п. 10.3.3)".into(),
        "days given back: no overstep" => "дни возвращены: просрочки нет".into(),
        _ => reason.to_string(),
    }
}

/// The reason of a clock entry after its clause (": по решению судьи"), or nothing when the
/// reason is empty or only cites the clause again (the arbiter wrote "Штраф 6 дней белым:
/// п. 10.3.3"), so that the letter does not say "(п. 10.3.3): п. 10.3.3".
fn reason_after(clause: &str, reason: &str) -> String {
    let bare = reason
        .trim()
        .trim_start_matches("п.")
        .trim()
        .trim_end_matches('.');
    if bare.is_empty() || bare == clause {
        String::new()
    } else {
        format!(": {}", reason.trim())
    }
}

/// How a player's clock stands after the arbiter found no overstep (10.3.7): the days given
/// back, the days left in the control and, when he is to move, the last day to answer.
/// "Белым возвращено 11 дней; осталось 10 дней на ходы 1–10, ответ — не позднее 09.02.2027."
fn clock_after_ruling(
    lang: Lang,
    side: Side,
    back: i64,
    left: i64,
    last: Option<&crate::clock::LastDay>,
) -> String {
    let moves = last.map(|l| format!("{}–{}", l.moves.start(), l.moves.end()));
    let date = last.map(|l| l.date.format("%d.%m.%Y").to_string());
    let left_verb = plural_ru(left, "остался", "осталось", "осталось");
    match lang {
        Lang::Ru => {
            let (to, of) = match side {
                Side::White => ("Белым", "белых"),
                Side::Black => ("Чёрным", "чёрных"),
            };
            let mut text = if back > 0 {
                format!(
                    "{to} {} {}; {} {}",
                    plural_ru(back, "возвращён", "возвращено", "возвращено"),
                    count(Lang::Ru, back, Noun::Day),
                    left_verb,
                    count(Lang::Ru, left, Noun::Day),
                )
            } else {
                format!("У {of} {left_verb} {}", count(Lang::Ru, left, Noun::Day),)
            };
            if let Some(m) = moves {
                text.push_str(&format!(" на ходы {m}"));
            }
            if let Some(d) = date {
                text.push_str(&format!(", ответ — не позднее {d}"));
            }
            text + "."
        }
        Lang::En => {
            let who = match side {
                Side::White => "White",
                Side::Black => "Black",
            };
            let mut text = if back > 0 {
                format!(
                    "{who} is given back {}: {} left",
                    count(Lang::En, back, Noun::Day),
                    count(Lang::En, left, Noun::Day)
                )
            } else {
                format!("{who} has {} left", count(Lang::En, left, Noun::Day))
            };
            if let Some(m) = moves {
                text.push_str(&format!(" for moves {m}"));
            }
            if let Some(d) = date {
                text.push_str(&format!(", the answer due by {d}"));
            }
            text + "."
        }
    }
}

/// A break that cannot be granted.
pub fn break_refused(lang: Lang, why: &str) -> String {
    match lang {
        Lang::Ru => format!(
            "{why}, поэтому он не предоставлен. Перерыв — не более 30 дней, один в календарный год, во всех партиях одновременно (п. 10.4.1–10.4.3)."
        ),
        Lang::En => format!(
            "{why}, so it is not granted. A break is at most 30 days, one per calendar year, in all games at once (10.4.1–10.4.3)."
        ),
    }
}

/// An impossible move replaced by the named piece's only move (10.2.10).
pub fn substituted(lang: Lang, written: &str, played: &str) -> String {
    match lang {
        Lang::Ru => format!(
            "ход «{written}» невозможен; у шашки на указанном поле единственный ход, он и сделан: {played} (п. 10.2.10)"
        ),
        Lang::En => format!(
            "the move '{written}' is impossible; the piece on that square has only one move, which is played: {played} (10.2.10)"
        ),
    }
}

/// The proposer's own variant moves played at once after the partner followed the variant.
pub fn continued(lang: Lang, moves: &str) -> String {
    match lang {
        Lang::Ru => format!("по вашему варианту сделано также: {moves} (п. 10.2.13)"),
        Lang::En => format!("following your variant, also played: {moves} (10.2.13)"),
    }
}

/// How a game ended. In give-away checkers the side left without a move or pieces wins.
pub fn ending(lang: Lang, how: &Ending, variant: Variant) -> String {
    let side = |s: &Side| match (lang, s) {
        (Lang::Ru, Side::White) => "белые",
        (Lang::Ru, Side::Black) => "чёрные",
        (Lang::En, Side::White) => "White",
        (Lang::En, Side::Black) => "Black",
    };
    match (lang, how) {
        (Lang::Ru, Ending::Rule) if variant == Variant::Giveaway => {
            "по правилам обратных шашек: у выигравшей стороны не осталось хода".into()
        }
        (Lang::En, Ending::Rule) if variant == Variant::Giveaway => {
            "by the rules of give-away checkers: the winning side has no move left".into()
        }
        (Lang::Ru, Ending::Rule) => "по правилам игры: у проигравшей стороны нет хода".into(),
        (Lang::En, Ending::Rule) => "by the rules: the losing side has no move".into(),
        (Lang::Ru, Ending::Resignation { side: s }) => format!("{} сдались", side(s)),
        (Lang::En, Ending::Resignation { side: s }) => format!("{} resigned", side(s)),
        (Lang::Ru, Ending::Agreement) => "ничья по соглашению".into(),
        (Lang::En, Ending::Agreement) => "draw by agreement".into(),
        (Lang::Ru, Ending::DrawRule { rule_ru, .. }) => format!("ничья: {rule_ru}"),
        (Lang::En, Ending::DrawRule { rule, .. }) => format!("draw: {rule}"),
        (lang, Ending::Arbiter { note })
            if note.starts_with(crate::tournament::adjudication::PROTEST_DECISION) =>
        {
            crate::tournament::adjudication::protest_decision_words(note, lang == Lang::En)
                .unwrap_or_default()
        }
        // no note: the arbiter's bare «Результат: 0-1» (never "decision: " with nothing after)
        (Lang::Ru, Ending::Arbiter { note }) if note.trim().is_empty() => {
            "решение главного судьи".into()
        }
        (Lang::En, Ending::Arbiter { note }) if note.trim().is_empty() => {
            "the chief arbiter's decision".into()
        }
        (Lang::Ru, Ending::Arbiter { note }) => format!("решение главного судьи: {note}"),
        (Lang::En, Ending::Arbiter { note }) => format!("the chief arbiter's decision: {note}"),
        (Lang::Ru, Ending::Overstep { side: s }) => {
            // written inside the result's brackets: no brackets of its own
            format!("{}: просрочка времени, п. 10.3.7", side(s))
        }
        (Lang::En, Ending::Overstep { side: s }) => {
            format!("{}: time limit overstepped, 10.3.7", side(s))
        }
        #[allow(unreachable_patterns)]
        _ => String::new(),
    }
}

/// The last day for the players' analyses after play ends on `end` (10.5.2).
fn analysis_due(end: chrono::NaiveDate) -> chrono::NaiveDate {
    end + chrono::Days::new(crate::tournament::adjudication::ANALYSIS_DAYS)
}

/// Notices with no template of their own, as one sentence (`to_arbiter`: worded for the
/// chief arbiter); `None` for those that need no letter.
pub fn short_notice(
    lang: Lang,
    kind: &NoticeKind,
    state: &GameState,
    to_arbiter: bool,
) -> Option<String> {
    let side = |s: &Side| match (lang, s) {
        (Lang::Ru, Side::White) => "белые",
        (Lang::Ru, Side::Black) => "чёрные",
        (Lang::En, Side::White) => "White",
        (Lang::En, Side::Black) => "Black",
    };
    let n = state.number;
    Some(match (lang, kind) {
        (Lang::Ru, NoticeKind::AlreadyMade { moves }) => format!(
            "в партии {n} этот ход уже сделан ({}); отосланный ход изменить нельзя (п. 10.2.8). Ждите ответа партнёра.",
            join(moves)
        ),
        (Lang::En, NoticeKind::AlreadyMade { moves }) => format!(
            "in game {n} this move is already made ({}); a move sent cannot be changed (10.2.8). Please wait for your partner's answer.",
            join(moves)
        ),
        (Lang::Ru, NoticeKind::DrawOffered { by }) => {
            format!("в партии {n} {} предлагают ничью.", side(by))
        }
        (Lang::En, NoticeKind::DrawOffered { by }) => {
            format!("in game {n} {} offer a draw.", side(by))
        }
        (Lang::Ru, NoticeKind::DrawDeclined { by }) => {
            format!(
                "в партии {n} {} не приняли предложение ничьей; игра продолжается.",
                side(by)
            )
        }
        (Lang::En, NoticeKind::DrawDeclined { by }) => {
            format!(
                "in game {n} {} did not accept the draw; play goes on.",
                side(by)
            )
        }
        (Lang::Ru, NoticeKind::NotInPlay { .. }) => format!(
            "партия {n} сейчас не играется (окончена, приостановлена или на присуждении); ход не принят."
        ),
        (Lang::En, NoticeKind::NotInPlay { .. }) => {
            format!(
                "game {n} is not in play now (finished, suspended or adjudicated); the move is not accepted."
            )
        }
        (Lang::Ru, NoticeKind::WrongGame { written }) => {
            format!("в письме указана партия {written}, а это партия {n}; письмо не принято.")
        }
        (Lang::En, NoticeKind::WrongGame { written }) => {
            format!("the letter names game {written}, but this is game {n}; it is not accepted.")
        }
        (Lang::Ru, NoticeKind::Protest { by, text }) => {
            format!("протест ({}) по партии {n}: {text}", side(by))
        }
        (Lang::Ru, NoticeKind::BoardView { from }) => format!(
            "как вы просили, диаграммы партии {n} теперь рисуются со стороны {}.",
            match from {
                Side::White => "белых",
                Side::Black => "чёрных",
            }
        ),
        (Lang::En, NoticeKind::BoardView { from }) => format!(
            "as you asked, the diagrams of game {n} are now drawn from {} side.",
            match from {
                Side::White => "White's",
                Side::Black => "Black's",
            }
        ),
        (Lang::En, NoticeKind::Protest { by, text }) => {
            format!("a protest ({}) in game {n}: {text}", side(by))
        }
        // The players send their analyses to the judge within 10 days (10.5.2); the arbiter
        // is only told, and gets the package when they are in (10.5.4).
        (Lang::Ru, NoticeKind::EndOfPlay { end }) if to_arbiter => format!(
            "срок игры окончен {}; партия {n} остановлена и будет присуждена (п. 10.5.2). Игроки присылают оценку позиции и анализ не позднее {}; затем вы получите материалы партии для присуждения (п. 10.5.4, 10.5.5).",
            end.format("%d.%m.%Y"),
            analysis_due(*end).format("%d.%m.%Y")
        ),
        (Lang::En, NoticeKind::EndOfPlay { end }) if to_arbiter => format!(
            "play ended on {}; game {n} is stopped for adjudication (10.5.2). The players send their evaluations and analyses by {}; then you get the game's papers to adjudicate (10.5.4, 10.5.5).",
            end.format("%d.%m.%Y"),
            analysis_due(*end).format("%d.%m.%Y")
        ),
        (Lang::Ru, NoticeKind::EndOfPlay { end }) => format!(
            "срок игры окончен {}; партия {n} остановлена и будет присуждена (п. 10.5.2). Пришлите, пожалуйста, оценку позиции и анализ («Анализ: … Оценка: …») не позднее {}.",
            end.format("%d.%m.%Y"),
            analysis_due(*end).format("%d.%m.%Y")
        ),
        (Lang::En, NoticeKind::EndOfPlay { end }) => format!(
            "play ended on {}; game {n} is stopped for adjudication (10.5.2). Please send your evaluation and analysis (\"Analysis: … Evaluation: …\") by {}.",
            end.format("%d.%m.%Y"),
            analysis_due(*end).format("%d.%m.%Y")
        ),
        (
            Lang::Ru,
            NoticeKind::OverstepRuling {
                side: s,
                is_confirmed: true,
                ..
            },
        ) => {
            format!(
                "главный судья подтвердил просрочку ({}) в партии {n}: поражение (п. 10.3.7).",
                side(s)
            )
        }
        (
            Lang::En,
            NoticeKind::OverstepRuling {
                side: s,
                is_confirmed: true,
                ..
            },
        ) => {
            format!(
                "the chief arbiter confirmed the overstep ({}) in game {n}: a loss (10.3.7).",
                side(s)
            )
        }
        (
            lang,
            NoticeKind::OverstepRuling {
                side: s,
                is_confirmed: false,
                days_back,
                days_left,
                last_day,
            },
        ) => {
            let clock = clock_after_ruling(lang, *s, *days_back, *days_left, last_day.as_ref());
            match lang {
                Lang::Ru => format!(
                    "главный судья установил, что просрочки ({}) в партии {n} нет; игра продолжается (п. 10.3.7). {clock}",
                    side(s)
                ),
                Lang::En => format!(
                    "the chief arbiter found no overstep ({}) in game {n}; play resumes (10.3.7). {clock}",
                    side(s)
                ),
            }
        }
        (
            Lang::Ru,
            NoticeKind::ClockRuling {
                side: s,
                days,
                clause,
                reason,
            },
        ) => {
            format!(
                "в партии {n} {}: {} (п. {clause}){}",
                side(s),
                signed_count(Lang::Ru, *days, Noun::Day),
                reason_after(clause, &recorded_reason(Lang::Ru, reason))
            )
        }
        (
            Lang::En,
            NoticeKind::ClockRuling {
                side: s,
                days,
                clause,
                reason,
            },
        ) => {
            format!(
                "in game {n}, {}: {} ({clause}){}",
                side(s),
                signed_count(Lang::En, *days, Noun::Day),
                reason_after(clause, reason)
            )
        }
        (Lang::Ru, NoticeKind::BreakRecorded { side: s, grant }) => format!(
            "в партии {n} {} берут перерыв {}–{}.",
            side(s),
            grant.range.from.format("%d.%m.%Y"),
            grant.range.to.format("%d.%m.%Y")
        ),
        (Lang::En, NoticeKind::BreakRecorded { side: s, grant }) => format!(
            "in game {n} {} take a break {} to {}.",
            side(s),
            grant.range.from.format("%d.%m.%Y"),
            grant.range.to.format("%d.%m.%Y")
        ),
        _ => return None,
    })
}

/// What an arbiter's entry on a clock was, for its subject.
#[derive(Clone, Copy)]
enum ClockEntry {
    /// A penalty cancelled.
    Cancelled,
    /// Days given back.
    GivenBack,
    /// Days added to the time used (10.1.7).
    Added,
    /// Penalty days.
    Penalty,
}

/// The subject of a [`short_notice`] sent as a note: what it is about, after the cipher and
/// the game ("ЗШ-2027-1, партия 7: штраф 6 дней белым (п. 10.3.3)").
pub fn short_subject(lang: Lang, cipher: &str, kind: &NoticeKind, state: &GameState) -> String {
    let n = state.number;
    let (white, black) = match lang {
        Lang::Ru => (["белые", "белым", "белых"], ["чёрные", "чёрным", "чёрных"]),
        Lang::En => (["White", "White", "White"], ["Black", "Black", "Black"]),
    };
    // nominative, dative, genitive
    let side = |s: &Side, case: usize| match s {
        Side::White => white[case],
        Side::Black => black[case],
    };
    let date = |d: &chrono::NaiveDate| d.format("%d.%m.%Y").to_string();
    let what = match (lang, kind) {
        (Lang::Ru, NoticeKind::DrawOffered { .. }) => "предложение ничьей".to_string(),
        (Lang::En, NoticeKind::DrawOffered { .. }) => "a draw offer".to_string(),
        (Lang::Ru, NoticeKind::DrawDeclined { .. }) => "ничья не принята".to_string(),
        (Lang::En, NoticeKind::DrawDeclined { .. }) => "the draw is declined".to_string(),
        (Lang::Ru, NoticeKind::Protest { by, .. }) => format!("протест {}", side(by, 2)),
        (Lang::En, NoticeKind::Protest { by, .. }) => format!("a protest by {}", side(by, 0)),
        (Lang::Ru, NoticeKind::BoardView { from }) => format!("доска от {}", side(from, 2)),
        (Lang::En, NoticeKind::BoardView { from }) => {
            format!("the board from {}'s side", side(from, 0))
        }
        (Lang::Ru, NoticeKind::EndOfPlay { .. }) => {
            "срок игры окончен, присуждение (п. 10.5.2)".to_string()
        }
        (Lang::En, NoticeKind::EndOfPlay { .. }) => {
            "play has ended, adjudication (10.5.2)".to_string()
        }
        (
            Lang::Ru,
            NoticeKind::OverstepRuling {
                side: s,
                is_confirmed: true,
                ..
            },
        ) => {
            format!("просрочка {} подтверждена (п. 10.3.7)", side(s, 2))
        }
        (
            Lang::En,
            NoticeKind::OverstepRuling {
                side: s,
                is_confirmed: true,
                ..
            },
        ) => {
            format!("{}'s overstep confirmed (10.3.7)", side(s, 0))
        }
        (Lang::Ru, NoticeKind::OverstepRuling { side: s, .. }) => {
            format!(
                "просрочки {} нет, игра продолжается (п. 10.3.7)",
                side(s, 2)
            )
        }
        (Lang::En, NoticeKind::OverstepRuling { side: s, .. }) => {
            format!("no overstep by {}, play resumes (10.3.7)", side(s, 0))
        }
        (
            lang,
            NoticeKind::ClockRuling {
                side: s,
                days,
                clause,
                reason,
            },
        ) => {
            let days_text = count(lang, days.abs(), Noun::Day);
            let entry = if reason.starts_with("penalty cancelled") {
                ClockEntry::Cancelled
            } else if *days < 0 {
                ClockEntry::GivenBack
            } else if clause == "10.1.7" {
                ClockEntry::Added
            } else {
                ClockEntry::Penalty
            };
            match (lang, entry) {
                (Lang::Ru, ClockEntry::Cancelled) => {
                    format!("штраф {} отменён (п. {clause})", side(s, 2))
                }
                (Lang::Ru, ClockEntry::GivenBack) => format!(
                    "{} {} {days_text} (п. {clause})",
                    side(s, 1),
                    plural_ru(*days, "возвращён", "возвращено", "возвращено")
                ),
                (Lang::Ru, ClockEntry::Added) => format!(
                    "{} {} {days_text} к затраченному времени (п. {clause})",
                    side(s, 1),
                    plural_ru(*days, "добавлен", "добавлено", "добавлено")
                ),
                (Lang::Ru, ClockEntry::Penalty) => {
                    format!("штраф {days_text} {} (п. {clause})", side(s, 1))
                }
                (Lang::En, ClockEntry::Cancelled) => {
                    format!("{}'s penalty cancelled ({clause})", side(s, 0))
                }
                (Lang::En, ClockEntry::GivenBack) => {
                    format!("{days_text} given back to {} ({clause})", side(s, 0))
                }
                (Lang::En, ClockEntry::Added) => {
                    format!("{days_text} added to {}'s time ({clause})", side(s, 0))
                }
                (Lang::En, ClockEntry::Penalty) => {
                    format!("a penalty of {days_text} to {} ({clause})", side(s, 0))
                }
            }
        }
        (Lang::Ru, NoticeKind::BreakRecorded { side: s, grant }) => format!(
            "{} {} {}–{}",
            if grant.kind == BreakKind::Special {
                "особый перерыв"
            } else {
                "перерыв"
            },
            side(s, 2),
            date(&grant.range.from),
            date(&grant.range.to)
        ),
        (Lang::En, NoticeKind::BreakRecorded { side: s, grant }) => format!(
            "{} for {} {} to {}",
            if grant.kind == BreakKind::Special {
                "a special break"
            } else {
                "a break"
            },
            side(s, 0),
            date(&grant.range.from),
            date(&grant.range.to)
        ),
        (
            Lang::Ru,
            NoticeKind::AlreadyMade { .. }
            | NoticeKind::NotInPlay { .. }
            | NoticeKind::WrongGame { .. },
        ) => "письмо не принято".to_string(),
        (
            Lang::En,
            NoticeKind::AlreadyMade { .. }
            | NoticeKind::NotInPlay { .. }
            | NoticeKind::WrongGame { .. },
        ) => "letter not accepted".to_string(),
        (Lang::Ru, _) => "сообщение".to_string(),
        (Lang::En, _) => "a message".to_string(),
    };
    match lang {
        Lang::Ru => format!("{cipher}, партия {n}: {what}"),
        Lang::En => format!("{cipher}, game {n}: {what}"),
    }
}

fn join(moves: &[crate::game::NumberedMove]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a letter did not prove its sender, for the sender (a full sentence).
pub fn unauthenticated(lang: Lang, auth: &Authentication) -> String {
    use crate::config::Senders;
    match (lang, auth.mode, auth.result) {
        (Lang::Ru, _, AuthResult::TempError) => "домен отправителя не ответил на проверку подписи, и проверить письмо не удалось.".into(),
        (Lang::En, _, AuthResult::TempError) => "the sender's domain did not answer the signature check, so the letter could not be checked.".into(),
        (Lang::Ru, Senders::Authres, _) => "почтовый сервер федерации не подтвердил, что письмо отправлено с этого адреса.".into(),
        (Lang::En, Senders::Authres, _) => "the federation's mail server did not confirm that the letter was sent from this address.".into(),
        (Lang::Ru, _, AuthResult::None) => "у письма нет цифровой подписи почтового домена отправителя, поэтому нельзя убедиться, что его отправили именно вы.".into(),
        (Lang::En, _, AuthResult::None) => "the letter has no digital signature of the sender's mail domain, so it cannot be confirmed that you sent it.".into(),
        (Lang::Ru, _, _) => "цифровая подпись письма не подтверждает адрес отправителя: письмо изменено в пути или отправлено не с этого адреса.".into(),
        (Lang::En, _, _) => "the letter's digital signature does not confirm the sender's address: the letter was changed on its way or not sent from this address.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_words_stop_after_100_lines_and_say_how_many_are_left_out() {
        let text: String = (1..=123).map(|i| format!("строка {i}\n")).collect();
        let q = quoted_words(Lang::Ru, &text);
        assert!(q.starts_with("строка 1\n"));
        assert!(
            q.contains("строка 100\n") && !q.contains("строка 101"),
            "{q}"
        );
        assert!(q.ends_with("[… 23 строки не показаны]\n"), "{q}");
        let q = quoted_words(Lang::En, &text[..text.find("строка 102").unwrap()]);
        assert!(q.ends_with("[… 1 line not shown]\n"), "{q}");
    }

    #[test]
    fn quoted_words_stop_at_20_kb_and_cut_one_endless_line() {
        let text = format!("{}\n", "ж".repeat(1000)).repeat(50);
        let q = quoted_words(Lang::Ru, &text);
        assert!(q.len() <= QUOTED_BYTES + 100, "{}", q.len());
        assert!(
            q.ends_with("[… 40 строк не показаны]\n"),
            "{}",
            &q[q.len() - 60..]
        );
        let q = quoted_words(Lang::Ru, &"ж".repeat(100_000));
        assert!(q.len() <= QUOTED_BYTES + 100, "{}", q.len());
        assert!(
            q.ends_with("…\n[… 1 строка не показана]\n"),
            "{}",
            &q[q.len() - 60..]
        );
    }

    #[test]
    fn clock_subjects_agree_the_verb_with_the_days() {
        use crate::game::Player;
        let day = |s| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        let state = GameState::new(
            "ЗШ-2026-1",
            7,
            Variant::Russian,
            Player::default(),
            Player::default(),
            day("2026-12-01"),
            day("2027-12-31"),
        );
        let subject = |days: i64, clause: &str| {
            let kind = NoticeKind::ClockRuling {
                side: Side::White,
                days,
                clause: clause.to_string(),
                reason: "ruling".to_string(),
            };
            short_subject(Lang::Ru, "ЗШ-2026-1", &kind, &state)
        };
        assert_eq!(
            subject(-1, "10.3.7"),
            "ЗШ-2026-1, партия 7: белым возвращён 1 день (п. 10.3.7)"
        );
        assert!(subject(-21, "10.3.7").contains("возвращён 21 день"));
        assert!(subject(-11, "10.3.7").contains("возвращено 11 дней"));
        assert!(subject(-3, "10.3.7").contains("возвращено 3 дня"));
        assert!(subject(1, "10.1.7").contains("белым добавлен 1 день к затраченному"));
        assert!(subject(5, "10.1.7").contains("добавлено 5 дней"));
    }

    #[test]
    fn short_words_are_quoted_whole() {
        assert_eq!(
            quoted_words(Lang::Ru, "Привет!\nХод за вами."),
            "Привет!\nХод за вами."
        );
        assert_eq!(quoted_words(Lang::Ru, ""), "");
    }

    #[test]
    fn a_refusal_names_its_tournaments_and_the_game_only_with_its_cipher() {
        let two = ["ЗШ-2026-1".to_string(), "ЗШ-2026-2".to_string()];
        assert_eq!(
            refused_subject(Lang::Ru, &two, None),
            "ЗШ-2026-1, ЗШ-2026-2: письмо не принято"
        );
        assert_eq!(
            refused_subject(Lang::Ru, &two[..1], Some(7)),
            "ЗШ-2026-1, партия 7: письмо не принято"
        );
        assert_eq!(refused_subject(Lang::Ru, &[], Some(7)), "Письмо не принято");
        assert_eq!(refused_subject(Lang::En, &[], None), "Letter not accepted");
    }

    #[test]
    fn the_size_of_a_large_letter_is_told_in_megabytes() {
        let t = too_large(Lang::Ru, 12 * 1024 * 1024 + 1, 10 * 1024 * 1024);
        assert!(t.contains("(12,1 МБ при пределе 10 МБ)"), "{t}");
        assert!(t.contains("п. 10.2.3"));
    }

    #[test]
    fn give_away_is_won_by_the_side_left_without_a_move() {
        let ru = ending(Lang::Ru, &Ending::Rule, Variant::Giveaway);
        assert!(ru.contains("у выигравшей стороны"), "{ru}");
        assert!(ending(Lang::Ru, &Ending::Rule, Variant::Russian).contains("у проигравшей"));
        assert!(ending(Lang::En, &Ending::Rule, Variant::Giveaway).contains("winning side"));
    }

    #[test]
    fn break_refusals_are_russian_in_russian_letters() {
        use crate::clock::{BreakError, DateRange};
        let d = |m, day| chrono::NaiveDate::from_ymd_opt(2026, m, day).unwrap();
        let range = DateRange {
            from: d(10, 1),
            to: d(11, 5),
        };
        for e in [
            BreakError::TooLong {
                range,
                days: 36,
                max: 30,
            },
            BreakError::SecondInYear {
                range,
                year: 2026,
                earlier: range,
            },
            BreakError::Reversed { range },
            BreakError::AnnouncedAfterEnd {
                range,
                announced_on: d(12, 1),
            },
            BreakError::Overlaps {
                range,
                other: range,
            },
            BreakError::DifferentDates {
                range,
                other: range,
            },
        ] {
            let ru = break_error(Lang::Ru, &e);
            assert!(!ru.chars().any(|c| c.is_ascii_alphabetic()), "{ru}");
            assert!(
                !break_refused(Lang::Ru, &ru)
                    .chars()
                    .any(|c| c.is_ascii_alphabetic())
            );
        }
        assert!(
            break_error(
                Lang::Ru,
                &BreakError::TooLong {
                    range,
                    days: 36,
                    max: 30
                }
            )
            .contains("36 дней, а можно не более 30 дней")
        );
    }

    #[test]
    fn recorded_reasons_are_worded_in_russian() {
        assert_eq!(
            recorded_reason(Lang::Ru, "penalty cancelled: moves not repeated (10.2.9)"),
            "штраф отменён: ходы партнёра не повторены (п. 10.2.9)"
        );
        assert_eq!(
            recorded_reason(Lang::Ru, "dates or time missing again"),
            "снова не указаны даты или время (п. 10.3.3)"
        );
        assert_eq!(
            recorded_reason(Lang::Ru, "по решению судьи"),
            "по решению судьи"
        );
        assert_eq!(
            recorded_reason(Lang::En, "impossible move (10.2.10)"),
            "impossible move (10.2.10)"
        );
    }

    #[test]
    fn a_reason_that_only_cites_the_clause_is_not_repeated() {
        assert_eq!(reason_after("10.3.3", "п. 10.3.3"), "");
        assert_eq!(reason_after("10.3.3", " 10.3.3. "), "");
        assert_eq!(reason_after("10.3.3", ""), "");
        assert_eq!(
            reason_after("10.3.3", "по решению судьи"),
            ": по решению судьи"
        );
        assert_eq!(reason_after("10.3.3", "п. 10.2.9"), ": п. 10.2.9");
    }

    #[test]
    fn the_clock_after_no_overstep_agrees_in_number() {
        let d = chrono::NaiveDate::from_ymd_opt(2027, 2, 9).unwrap();
        let last = crate::clock::LastDay {
            date: d,
            days_left: 21,
            moves: 11..=20,
            is_end_of_play: false,
        };
        assert_eq!(
            clock_after_ruling(Lang::Ru, Side::White, 1, 21, Some(&last)),
            "Белым возвращён 1 день; остался 21 день на ходы 11–20, ответ — не позднее 09.02.2027."
        );
        assert_eq!(
            clock_after_ruling(Lang::Ru, Side::Black, 0, 12, None),
            "У чёрных осталось 12 дней."
        );
        assert_eq!(
            clock_after_ruling(Lang::En, Side::White, 1, 2, Some(&last)),
            "White is given back 1 day: 2 days left for moves 11–20, the answer due by 09.02.2027."
        );
    }
}
