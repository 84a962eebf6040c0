//! The federation's office (issue 12) through the real binary: `backup` beside a running
//! daemon and the restore the README describes.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::daemon::{B, CIPHER, Scenario, W};

/// `zaochka --config zaochka.toml ARGS` in `dir`.
fn zaochka_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_zaochka"))
        .current_dir(dir)
        .args(["--config", "zaochka.toml"])
        .args(args)
        .output()
        .unwrap()
}

fn ok_in(dir: &Path, args: &[&str]) -> String {
    let o = zaochka_in(dir, args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// A letter as stored: its id, raw bytes and outcome.
type Row = (i64, Vec<u8>, Option<String>);

/// The letters in and out of a database file, in id order (in: id, raw, outcome; out: id,
/// raw, kind).
fn letters(db: &Path) -> (Vec<Row>, Vec<Row>) {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let rows = |sql: &str| -> Vec<Row> {
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    (
        rows("SELECT id, raw, outcome FROM letters_in ORDER BY id"),
        rows("SELECT id, raw, kind FROM letters_out ORDER BY id"),
    )
}

/// Puts a backup in place of the database of a copy of the scenario's folder (the
/// README's restore: the copy as `zaochka.sqlite`, no -wal or -shm beside it).
fn restore(s: &Scenario, backup: &Path, name: &str) -> PathBuf {
    let dir = s.root.join(name);
    std::fs::create_dir(&dir).unwrap();
    for f in ["zaochka.toml", "dns_records"] {
        std::fs::copy(s.root.join(f), dir.join(f)).unwrap();
    }
    std::fs::copy(backup, dir.join("zaochka.sqlite")).unwrap();
    dir
}

#[test]
fn a_backup_taken_while_the_daemon_writes_opens_and_holds_whole_letters_only() {
    const LETTERS: usize = 300;
    let mut s = Scenario::new();
    for i in 0..LETTERS {
        s.letter(if i % 2 == 0 { W } else { B }, "Привет, как дела?");
    }
    let mut daemon = Command::new(env!("CARGO_BIN_EXE_zaochka"))
        .current_dir(&s.root)
        .args([
            "--config",
            "zaochka.toml",
            "--now",
            "2027-01-10T10:00",
            "run",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let inbox = s.root.join("mail/inbox/new");
    let started = Instant::now();
    let mut backups = Vec::new();
    loop {
        let left = std::fs::read_dir(&inbox).unwrap().count();
        if left == 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the daemon left {left} letters"
        );
        let file = s.root.join(format!("backup-{}.sqlite", backups.len()));
        let out = ok_in(&s.root, &["backup", file.to_str().unwrap()]);
        assert!(out.contains("integrity ok"), "{out}");
        backups.push(file);
    }
    // SIGTERM: the daemon finishes the letter in hand and exits
    let killed = Command::new("kill")
        .args(["-TERM", &daemon.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(daemon.wait().unwrap().success());

    let (all_in, all_out) = letters(&s.root.join("zaochka.sqlite"));
    assert_eq!(all_in.len(), LETTERS, "every letter stored once");
    let mut mid_run = 0;
    let mut before = 0;
    for (i, backup) in backups.iter().enumerate() {
        // one file: nothing beside it to copy along
        for side in ["-wal", "-shm", "-journal"] {
            let mut p = backup.as_os_str().to_owned();
            p.push(side);
            assert!(!Path::new(&p).exists(), "{p:?} beside the backup");
        }
        let (copy_in, copy_out) = letters(backup);
        // whole letters only: each stored letter has its outcome and the answers it caused,
        // the same rows as the live database has
        assert!(copy_in.iter().all(|(_, _, outcome)| outcome.is_some()));
        assert_eq!(copy_in[..], all_in[..copy_in.len()], "backup {i}");
        assert_eq!(copy_out[..], all_out[..copy_out.len()], "backup {i}");
        assert!(copy_in.len() >= before, "backups go forward in time");
        before = copy_in.len();
        if !copy_in.is_empty() && copy_in.len() < LETTERS {
            mid_run += 1;
        }
        // it opens as the database: restored, zaochka reads the game from it
        let dir = restore(&s, backup, &format!("restored-{i}"));
        let game: serde_json::Value =
            serde_json::from_str(&ok_in(&dir, &["game", "show", CIPHER, "1", "--json"])).unwrap();
        assert_eq!(game["white"]["email"], W);
    }
    assert!(
        mid_run > 0,
        "no backup was taken while the daemon was writing ({} backups)",
        backups.len()
    );

    // after the daemon stopped: the copy restores to the same state, game and table alike
    let last = s.root.join("final.sqlite");
    ok_in(&s.root, &["backup", last.to_str().unwrap()]);
    assert_eq!(letters(&last), (all_in, all_out));
    let dir = restore(&s, &last, "restored-final");
    for args in [
        &["game", "show", CIPHER, "1", "--json"][..],
        &["table", CIPHER, "--json"][..],
    ] {
        assert_eq!(ok_in(&dir, args), ok_in(&s.root, args), "{args:?}");
    }
    // and the restored database works on: a pass of the daemon runs on it
    ok_in(&dir, &["--now", "2027-01-11T10:00", "run", "--once"]);
}

#[test]
fn a_backup_never_replaces_a_file_and_leaves_nothing_when_refused() {
    let s = Scenario::new();
    let file = s.root.join("copy.sqlite");
    std::fs::write(&file, b"the secretary's notes").unwrap();
    let out = s.cmd(&["backup", "copy.sqlite"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("'copy.sqlite' exists"),
        "{out:?}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"the secretary's notes");
    let out = s.cmd(&["backup", "no/such/folder/copy.sqlite"]);
    assert_eq!(out.status.code(), Some(1));
    // no temporary file left behind
    let names: Vec<String> = std::fs::read_dir(&s.root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}
