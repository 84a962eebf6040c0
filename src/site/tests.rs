//! The public pages from a tournament played through the office on an in-memory store.

use chrono::TimeZone;

use super::*;
use crate::config::{Config, Senders};
use crate::mail::auth::{AuthResult, Authentication};
use crate::mail::{IncomingMail, MailId};
use crate::office::Office;
use crate::store::NewTournament;

pub(crate) const CIPHER: &str = "ЗШ-2026-1";
pub(crate) const WHITE: &str = "ivanov@players.test";
pub(crate) const BLACK: &str = "petrov@players.test";

pub(crate) fn config() -> Config {
    let mut c = Config {
        federation: "Федерация заочных шашек".into(),
        ..Config::default()
    };
    c.auth.senders = Senders::Address;
    c
}

/// Noon in Moscow on `day`.
pub(crate) fn at(day: &str) -> DateTime<Utc> {
    let d = NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
    chrono_tz::Europe::Moscow
        .from_local_datetime(&d.and_hms_opt(12, 0, 0).unwrap())
        .unwrap()
        .with_timezone(&Utc)
}

/// A tournament of `variant` with two players, started on 01.12.2026 (game 1: Иванов has
/// White).
pub(crate) fn started(office: &Office, store: &mut Store, variant: &str) {
    store
        .with_transaction(|tx| {
            let t = tx.add_tournament(
                &NewTournament {
                    cipher: CIPHER,
                    variant,
                    name: "Кубок зимы",
                    start: NaiveDate::from_ymd_opt(2026, 12, 1).unwrap(),
                    end: NaiveDate::from_ymd_opt(2027, 11, 30).unwrap(),
                    tz: "Europe/Moscow",
                    settings: "{}",
                },
                at("2026-11-20"),
            )?;
            tx.add_player(t, "Иванов Иван", WHITE)?;
            tx.add_player(t, "Петров Пётр", BLACK)?;
            Ok::<_, StoreError>(())
        })
        .unwrap();
    assert!(
        office
            .start_tournament(store, CIPHER, at("2026-11-25"))
            .unwrap()
            >= 1
    );
}

/// A player's letter about game 1, received at noon on `day`.
pub(crate) fn letter(n: u64, from: &str, day: &str, body: &str) -> IncomingMail {
    let raw = format!(
        "From: {from}\r\nTo: zaochka@localhost\r\nSubject: ход\r\nMessage-ID: <p{n}@players.test>\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nШифр: {CIPHER}\r\nПартия 1\r\n{body}\r\n"
    );
    IncomingMail {
        id: MailId::Memory(n),
        raw: raw.into_bytes(),
        received: at(day),
    }
}

fn believed() -> Authentication {
    Authentication {
        mode: Senders::Address,
        result: AuthResult::Pass,
        domain: None,
        reason: "the address alone".into(),
    }
}

/// Three plies of game 1: 1. c3-d4 f6-g5 2. b2-c3.
fn played() -> (Office, Store) {
    let office = Office::new(config());
    let mut store = Store::open_in_memory().unwrap();
    started(&office, &mut store, "russian");
    for (n, from, day, body) in [
        (1, WHITE, "2026-12-02", "Мой ход: 1. c3-d4"),
        (
            2,
            BLACK,
            "2026-12-05",
            "Ваш ход: 1. c3-d4\r\nМой ход: 1... f6-g5",
        ),
        (
            3,
            WHITE,
            "2026-12-07",
            "Ваш ход: 1... f6-g5\r\nМой ход: 2. b2-c3",
        ),
    ] {
        office
            .handle(
                &mut store,
                &letter(n, from, day, body),
                &believed(),
                at(day),
            )
            .unwrap();
    }
    (office, store)
}

fn pages(office: &Office, store: &Store, lang: Language) -> Vec<Page> {
    store
        .read(|tx| {
            let t = tx.find_tournament(CIPHER)?.unwrap();
            pages_of(
                tx,
                &t,
                &office.templates,
                &office.config,
                lang,
                at("2026-12-10"),
            )
        })
        .unwrap()
}

fn page<'a>(pages: &'a [Page], file: &str) -> &'a str {
    &pages
        .iter()
        .find(|p| p.file == file)
        .unwrap_or_else(|| panic!("no {file}"))
        .html
}

/// The text a reader sees: tags, the style sheet and the scripts taken out.
fn visible(html: &str) -> String {
    let mut s = html.to_owned();
    for (open, close) in [("<style>", "</style>"), ("<script", "</script>")] {
        while let Some(i) = s.find(open) {
            let j = s[i..].find(close).map_or(s.len(), |j| i + j + close.len());
            s.replace_range(i..j, " ");
        }
    }
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn the_index_has_the_table_the_games_with_whose_move_and_the_dates() {
    let (office, store) = played();
    let pages = pages(&office, &store, Language::Ru);
    assert_eq!(
        pages.iter().map(|p| p.file.as_str()).collect::<Vec<_>>(),
        ["index.html", "game-1.html"]
    );
    let index = page(&pages, "index.html");
    assert!(
        index.starts_with("<!DOCTYPE html>\n<html lang=\"ru\">"),
        "{index}"
    );
    for part in [
        "<meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        "<title>Кубок зимы (ЗШ-2026-1): турнирная таблица</title>",
        "@media print",
        "Начало 01.12.2026, контрольный срок 30.11.2027",
        "Окончено 0 из 1 партии.",
        "<a href=\"game-1.html\">Иванов Иван</a>",
        "<a href=\"game-1.html\">Петров Пётр</a>",
        "<td>идёт игра</td><td>чёрных</td>",
        "Перерывов не брали.",
        "Положение на 10.12.2026",
    ] {
        assert!(index.contains(part), "no {part:?} in {index}");
    }
    // no address of a player is ever published, nor anything fetched from elsewhere
    assert!(!index.contains(WHITE) && !index.contains(BLACK), "{index}");
    assert!(
        !index.contains("src=") && !index.contains("http"),
        "{index}"
    );
}

#[test]
fn the_russian_pages_have_no_english_words() {
    let (office, store) = played();
    for p in pages(&office, &store, Language::Ru) {
        let text = visible(&p.html);
        // Move notation (c3-d4, 1.cd4) has Latin letters, never a word of three.
        let words: Vec<&str> = text
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() >= 3)
            .collect();
        assert!(words.is_empty(), "{}: {words:?} in {text}", p.file);
    }
}

#[test]
fn a_game_page_has_the_record_both_clocks_the_board_and_every_ply() {
    let (office, store) = played();
    let pages = pages(&office, &store, Language::Ru);
    let game = page(&pages, "game-1.html");
    for part in [
        "<title>ЗШ-2026-1, партия № 1: Иванов Иван — Петров Пётр</title>",
        "<dd class=\"white\">Иванов Иван</dd>",
        "<p class=\"record\">1.cd4 fg5 2.bc3</p>",
        "<a href=\"#ply=3\" data-ply=\"3\">2. b2-c3</a>",
        "<a href=\"#ply=2\" data-ply=\"2\">1... f6-g5</a>",
        "Время на 10.12.2026",
        "<dt>Очередь</dt><dd>ход чёрных</dd>",
        "Позиция после хода 2. b2-c3",
        "<a href=\"index.html\">",
    ] {
        assert!(game.contains(part), "no {part:?} in {game}");
    }
    // the clocks as `game show` has them: white answered on 05→07.12 (2 days) after the
    // first move on 02.12 (1 day); black 02→05.12 (3 days) and 07→10.12 running (3 days)
    assert!(
        game.contains("<th>Белые</th><td class=\"num\">3 дня</td><td class=\"num\">50 дней</td><td class=\"num\">0 дней</td><td class=\"num\">2</td>"),
        "{game}"
    );
    assert!(
        game.contains("<th>Чёрные</th><td class=\"num\">6 дней</td>"),
        "{game}"
    );
    // one board, 64 squares, 24 pieces after 2. b2-c3
    assert_eq!(game.matches("<svg ").count(), 1);
    assert_eq!(game.matches("<rect class=\"sq ").count(), 64);
    let board = &game[game.find("<svg ").unwrap()..game.find("</svg>").unwrap()];
    assert_eq!(board.matches("data-piece=").count(), 24);
    assert!(
        board.contains("data-square=\"c3\" data-piece=\"w\""),
        "{board}"
    );
    assert!(
        board.contains("data-square=\"g5\" data-piece=\"b\""),
        "{board}"
    );
    assert!(!board.contains("data-square=\"b2\" data-piece"), "{board}");
    // the step-through's data: the start and the position after each of the 3 plies, as
    // JSON with no `<` that could end the script
    let start = game
        .find("<script type=\"application/json\" id=\"plies\">")
        .unwrap();
    let json = &game[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    assert!(!json.contains('<'));
    let plies: Vec<serde_json::Value> = serde_json::from_str(json).unwrap();
    assert_eq!(plies.len(), 4);
    assert_eq!(plies[0]["caption"], "Начальная позиция");
    let after_1 = plies[1]["pieces"].as_str().unwrap();
    assert!(
        after_1.contains("data-square=\"d4\" data-piece=\"w\""),
        "{after_1}"
    );
    assert!(
        after_1.contains("data-square=\"f6\" data-piece=\"b\""),
        "{after_1}"
    );
    assert_eq!(
        plies[3]["pieces"].as_str().unwrap(),
        crate::render::svg::piece_uses(&crate::render::Board::from(
            &view::record_of(
                &store
                    .read(|tx| {
                        let t = tx.find_tournament(CIPHER)?.unwrap();
                        let g = tx.find_game(t.id, 1)?.unwrap();
                        Ok::<_, StoreError>(view::state_of(&t, &g).unwrap())
                    })
                    .unwrap()
            )
            .unwrap()
            .position()
            .clone()
        )),
        "the last ply is the picture's position, drawn alike"
    );
    assert!(
        !game.contains(WHITE) && !game.contains(BLACK),
        "no address: {game}"
    );
}

#[test]
fn the_pages_speak_english_when_asked() {
    let (office, store) = played();
    let pages = pages(&office, &store, Language::En);
    let index = page(&pages, "index.html");
    assert!(index.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(index.contains("0 of 1 game finished."), "{index}");
    assert!(index.contains("<td>playing</td><td>Black</td>"), "{index}");
    assert!(
        index.contains("Start 2026-12-01, end of play 2027-11-30"),
        "{index}"
    );
    let game = page(&pages, "game-1.html");
    assert!(game.contains("The position after 2. b2-c3"), "{game}");
    assert!(game.contains("<td class=\"num\">3 days</td>"), "{game}");
    assert!(game.contains("« First"));
}

#[test]
fn a_10x10_game_page_draws_100_squares_with_their_numbers() {
    let office = Office::new(config());
    let mut store = Store::open_in_memory().unwrap();
    started(&office, &mut store, "hundred");
    office
        .handle(
            &mut store,
            &letter(1, WHITE, "2026-12-02", "Мой ход: 1. 32-28"),
            &believed(),
            at("2026-12-02"),
        )
        .unwrap();
    let pages = pages(&office, &store, Language::Ru);
    let game = page(&pages, "game-1.html");
    assert_eq!(game.matches("<rect class=\"sq ").count(), 100);
    assert!(game.contains("class=\"numbers\""));
    assert!(game.contains("<p class=\"record\">1. 32-28</p>"), "{game}");
    assert!(game.contains("стоклеточные шашки"));
}

#[test]
fn pages_are_written_atomically_once_and_a_file_is_no_folder() {
    let (office, store) = played();
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let w = export(
        &store,
        &office.templates,
        &office.config,
        CIPHER,
        &site,
        Language::Ru,
        at("2026-12-10"),
    )
    .unwrap();
    assert_eq!(
        w,
        Written {
            pages: 2,
            changed: 2
        }
    );
    std::fs::write(site.join("notes.txt"), "ours, not zaochka's").unwrap();
    // the same pages again: nothing rewritten; another day: the clocks moved
    let again = |day| {
        export(
            &store,
            &office.templates,
            &office.config,
            CIPHER,
            &site,
            Language::Ru,
            at(day),
        )
        .unwrap()
    };
    assert_eq!(again("2026-12-10").changed, 0);
    assert_eq!(again("2026-12-11").changed, 2);
    let mut names: Vec<String> = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["game-1.html", "index.html", "notes.txt"],
        "no temporary file left"
    );
    let file = dir.path().join("plain");
    std::fs::write(&file, "").unwrap();
    let err = export(
        &store,
        &office.templates,
        &office.config,
        CIPHER,
        &file,
        Language::Ru,
        at("2026-12-10"),
    )
    .unwrap_err();
    assert!(matches!(err, SiteError::NotADirectory(_)), "{err}");
    let err = export(
        &store,
        &office.templates,
        &office.config,
        "НЕТ-1",
        &site,
        Language::Ru,
        at("2026-12-10"),
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "no tournament 'НЕТ-1'");
}

#[test]
fn publish_writes_each_tournament_in_a_folder_of_its_cipher() {
    let (office, store) = played();
    let dir = tempfile::tempdir().unwrap();
    let (w, failed) = publish(
        &store,
        &office.templates,
        &office.config,
        dir.path(),
        None,
        at("2026-12-10"),
    )
    .unwrap();
    assert!(failed.is_empty());
    assert_eq!(w.pages, 2);
    assert!(dir.path().join("ЗШ-2026-1/game-1.html").is_file());
    assert_eq!(folder_name("../a b/"), "_.._a_b_");
    assert_eq!(folder_name("ЗШ-2026-1"), "ЗШ-2026-1");
}

#[test]
fn an_edited_page_template_replaces_the_built_in_one_and_a_bad_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("html/ru")).unwrap();
    std::fs::write(
        dir.path().join("html/ru/index.html"),
        "<!DOCTYPE html><html lang=\"{{ lang }}\"><title>{{ tournament.name }}</title><p>Своя страница</p></html>",
    )
    .unwrap();
    let templates = Templates::load(dir.path()).unwrap();
    assert!(
        templates
            .edited()
            .contains(&"html/ru/index.html".to_owned())
    );
    let (_, store) = played();
    let pages = store
        .read(|tx| {
            let t = tx.find_tournament(CIPHER)?.unwrap();
            pages_of(
                tx,
                &t,
                &templates,
                &config(),
                Language::Ru,
                at("2026-12-10"),
            )
        })
        .unwrap();
    assert!(page(&pages, "index.html").contains("Своя страница"));
    assert!(
        page(&pages, "game-1.html").contains("Позиция после хода"),
        "game page built in"
    );
    std::fs::write(dir.path().join("html/ru/index.html"), "{{ zarplata }}").unwrap();
    let err = Templates::load(dir.path()).unwrap_err().to_string();
    assert!(
        err.contains("uses zarplata, which this page does not have"),
        "{err}"
    );
    std::fs::write(dir.path().join("html/ru/index.html"), "").unwrap();
    std::fs::write(dir.path().join("html/ru/table.html"), "").unwrap();
    let err = Templates::load(dir.path()).unwrap_err().to_string();
    assert!(err.contains("table.html: no page has this name"), "{err}");
}
