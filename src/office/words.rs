//! Short wordings the office puts into letters (refusal reasons, remarks), in Russian and
//! English. Whole letters are templates (`templates/`); these are the sentences that fill
//! their slots.

use crate::game::{Ending, GameState, NoticeKind, Side};
use crate::mail::auth::{AuthResult, Authentication};
use crate::render::Lang;
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

/// A letter naming someone else's game.
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
        (Lang::Ru, false) => format!("в письме не удалось прочитать: {list}. Пожалуйста, пришлите исправленное письмо."),
        (Lang::En, false) => format!("parts of the letter could not be read: {list}. Please send a corrected letter."),
    }
}

/// A break that cannot be granted.
pub fn break_refused(lang: Lang, why: &str) -> String {
    match lang {
        Lang::Ru => format!(
            "перерыв не может быть предоставлен (п. 10.4.1–10.4.3): {why}. Перерыв — не более 30 дней, один в календарный год, во всех партиях одновременно."
        ),
        Lang::En => format!(
            "the break cannot be granted (10.4.1–10.4.3): {why}. A break is at most 30 days, one per calendar year, in all games at once."
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

/// How a game ended.
pub fn ending(lang: Lang, how: &Ending) -> String {
    let side = |s: &Side| match (lang, s) {
        (Lang::Ru, Side::White) => "белые",
        (Lang::Ru, Side::Black) => "чёрные",
        (Lang::En, Side::White) => "White",
        (Lang::En, Side::Black) => "Black",
    };
    match (lang, how) {
        (Lang::Ru, Ending::Rule) => "по правилам игры: у проигравшей стороны нет хода".into(),
        (Lang::En, Ending::Rule) => "by the rules: the losing side has no move".into(),
        (Lang::Ru, Ending::Resignation { side: s }) => format!("{} сдались", side(s)),
        (Lang::En, Ending::Resignation { side: s }) => format!("{} resigned", side(s)),
        (Lang::Ru, Ending::Agreement) => "ничья по соглашению".into(),
        (Lang::En, Ending::Agreement) => "draw by agreement".into(),
        (Lang::Ru, Ending::DrawRule { rule_ru, .. }) => format!("ничья: {rule_ru}"),
        (Lang::En, Ending::DrawRule { rule, .. }) => format!("draw: {rule}"),
        (Lang::Ru, Ending::Arbiter { note }) => format!("решение главного судьи: {note}"),
        (Lang::En, Ending::Arbiter { note }) => format!("the chief arbiter's decision: {note}"),
        (Lang::Ru, Ending::Overstep { side: s }) => {
            format!("{}: просрочка времени (п. 10.3.7)", side(s))
        }
        (Lang::En, Ending::Overstep { side: s }) => {
            format!("{}: time limit overstepped (10.3.7)", side(s))
        }
        #[allow(unreachable_patterns)]
        _ => String::new(),
    }
}

/// Notices with no template of their own, as one sentence; `None` for those that need no
/// letter.
pub fn short_notice(lang: Lang, kind: &NoticeKind, state: &GameState) -> Option<String> {
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
        (Lang::En, NoticeKind::Protest { by, text }) => {
            format!("a protest ({}) in game {n}: {text}", side(by))
        }
        (Lang::Ru, NoticeKind::EndOfPlay { end }) => format!(
            "срок игры окончен {}; партия {n} остановлена и будет присуждена (п. 10.5.2). Пришлите, пожалуйста, в течение 10 дней оценку позиции и анализ («Анализ: … Оценка: …»).",
            end.format("%d.%m.%Y")
        ),
        (Lang::En, NoticeKind::EndOfPlay { end }) => format!(
            "play ended on {}; game {n} is stopped for adjudication (10.5.2). Please send your evaluation and analysis within 10 days (\"Analysis: … Evaluation: …\").",
            end.format("%d.%m.%Y")
        ),
        (
            Lang::Ru,
            NoticeKind::OverstepRuling {
                side: s,
                is_confirmed: true,
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
            },
        ) => {
            format!(
                "the chief arbiter confirmed the overstep ({}) in game {n}: a loss (10.3.7).",
                side(s)
            )
        }
        (
            Lang::Ru,
            NoticeKind::OverstepRuling {
                side: s,
                is_confirmed: false,
            },
        ) => {
            format!(
                "главный судья установил, что просрочки ({}) в партии {n} нет; игра продолжается (п. 10.3.7).",
                side(s)
            )
        }
        (
            Lang::En,
            NoticeKind::OverstepRuling {
                side: s,
                is_confirmed: false,
            },
        ) => {
            format!(
                "the chief arbiter found no overstep ({}) in game {n}; play resumes (10.3.7).",
                side(s)
            )
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
                "в партии {n} {}: {days:+} дн. (п. {clause}): {reason}",
                side(s)
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
                "in game {n}, {}: {days:+} days ({clause}): {reason}",
                side(s)
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
