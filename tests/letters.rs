//! Letters: the golden corpus under tests/data/letters.
//!
//! Each `NNN-name.eml` is a raw message as a real mail client sends it (read as bytes: some
//! are windows-1251 or KOI8-R); `NNN-name.expected` is what `zaochka letter read` prints for
//! it, pretty JSON — easier to check by eye than a `Debug` dump, and the same contract the
//! command keeps. `UPDATE_EXPECT=1 cargo test --test main letters` rewrites the expected
//! files; read the diff before committing. `make_corpus.py` beside them writes the `.eml`.

use std::path::PathBuf;

use zaochka::cli::letter::reading_json;

fn corpus() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/letters");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus folder exists")
        .map(|e| e.expect("readable folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_letter_reads_as_expected() {
    let files = corpus();
    assert!(files.len() >= 60, "the corpus has {} letters", files.len());
    for eml in files {
        let raw = std::fs::read(&eml).expect("readable letter");
        let actual = reading_json(&raw).unwrap_or_else(|e| format!("error: {e}\n"));
        expect_test::expect_file![eml.with_extension("expected")].assert_eq(&actual);
    }
}

#[test]
fn letter_read_command_prints_the_same_json() {
    let eml = corpus().into_iter().next().expect("a letter");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zaochka"))
        .args(["letter", "read"])
        .arg(&eml)
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let expected = std::fs::read_to_string(eml.with_extension("expected")).expect("expected file");
    // The command adds the sender check (the default "dkim"): this corpus letter is unsigned.
    let mut printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let auth = printed
        .as_object_mut()
        .unwrap()
        .remove("authentication")
        .expect("the sender check is shown");
    assert_eq!(auth["mode"], "dkim", "{auth}");
    assert_eq!(auth["result"], "none", "{auth}");
    let expected: serde_json::Value = serde_json::from_str(&expected).unwrap();
    assert_eq!(printed, expected);
}

#[test]
fn letter_read_exits_2_for_a_missing_file_and_1_for_non_mail() {
    let run = |arg: &str, stdin: &[u8]| {
        use std::io::Write;
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_zaochka"))
            .args(["letter", "read", arg])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the binary runs");
        // The command may exit before reading stdin: a broken pipe is fine here.
        let _ = child.stdin.take().expect("piped").write_all(stdin);
        child.wait().expect("exit").code()
    };
    assert_eq!(run("/nonexistent/letter.eml", b""), Some(2));
    assert_eq!(run("-", b""), Some(1));
}

mod properties {
    use proptest::prelude::*;
    use zaochka::letter::{ReadContext, read};
    use zaochka::mail::mime;

    proptest! {
        #[test]
        fn arbitrary_bytes_as_a_mail_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..2000)) {
            let _ = mime::parse(&raw);
            let _ = zaochka::cli::letter::reading_json(&raw);
        }

        #[test]
        fn arbitrary_text_as_a_letter_never_panics(text in "\\PC{0,400}") {
            let _ = read(&text, &ReadContext::default());
        }

        #[test]
        fn letter_shaped_noise_never_panics(
            text in "((Ваш|Мой|мои|your|my) (ход|move)|Если|то|на|предлагаю|Вариант А|Даты|Время|Беру перерыв с|по|Протест|Анализ|Оценка|Шифр|Партия|№|[0-9]{1,3}|\\.\\.\\.|…|\\.|[a-kа-я][0-9]{1,2}|[-:x–—/]|\\n|>| |,){0,60}"
        ) {
            let ctx = ReadContext {
                date: chrono::DateTime::parse_from_rfc3339("2026-12-31T23:00:00+03:00").ok(),
                ..ReadContext::default()
            };
            let _ = read(&text, &ctx);
        }
    }
}
