//! The daemon under faults (issue 13): junk in the Maildir inbox, sender addresses that
//! cannot be answered, a missing or foreign database, two daemons on one database, two runs
//! at the same `--now`, the log lines — the real binary on a real Maildir with `--now`, as
//! `tests/daemon.rs` drives it; and the SMTP failures against the real Postfix.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::daemon::{B, CIPHER, Scenario, W, find};

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A raw letter dropped into the inbox under `name`.
fn drop_letter(root: &Path, name: &str, from: &str, id: &str, body: &str) {
    let raw = format!(
        "From: {from}\r\nTo: zaochka@localhost\r\nSubject: {CIPHER}\r\nMessage-ID: <{id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{body}\r\n"
    );
    std::fs::write(root.join("mail/inbox/new").join(name), raw).unwrap();
}

/// [`drop_letter`] signed by its From domain (the key published in the scenario's
/// `dns_records`), as the sender's provider would sign it.
fn drop_signed(s: &mut Scenario, name: &str, from: &str, id: &str, body: &str) {
    drop_letter(&s.root, name, from, id, body);
    let path = s.root.join("mail/inbox/new").join(name);
    let signed = s.dkim.sign(&std::fs::read(&path).unwrap());
    std::fs::write(&path, signed).unwrap();
    std::fs::write(s.root.join("dns_records"), s.dkim.file_text()).unwrap();
}

/// One SQL count in the scenario's database, read on its own connection.
fn count(root: &Path, sql: &str, param: &[u8]) -> i64 {
    let conn = rusqlite::Connection::open(root.join("zaochka.sqlite")).unwrap();
    conn.query_row(sql, [param], |r| r.get(0)).unwrap()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout.starts_with(b"0\n"))
        .unwrap_or(false)
}

#[test]
fn junk_in_the_inbox_is_skipped_and_logged_once_and_the_move_still_goes_through() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. c3-d4");
    let new = s.root.join("mail/inbox/new");
    std::fs::create_dir(new.join("a-directory")).unwrap();
    let fifo = new.join("a-fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let secret = s.root.join("secret.txt");
    std::fs::write(&secret, "TOP-SECRET-LINE\n").unwrap();
    std::os::unix::fs::symlink(&secret, new.join("a-link")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/letter", new.join("dangling")).unwrap();
    std::fs::write(
        new.join(std::ffi::OsStr::from_bytes(b"name-\xff\xfe")),
        "From: x@y\r\n\r\nz\r\n",
    )
    .unwrap();
    let unreadable = new.join("unreadable");
    std::fs::write(&unreadable, "From: x@y\r\n\r\nz\r\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&unreadable, std::fs::Permissions::from_mode(0o000)).unwrap();

    // root reads any file: then the daemon runs as nobody, owning everything but that file
    let mut cmd = if is_root() {
        let chown = Command::new("chown")
            .args(["-R", "--no-dereference", "65534:65534"])
            .arg(&s.root)
            .status()
            .unwrap();
        assert!(chown.success());
        let back = Command::new("chown")
            .arg("0:0")
            .arg(&unreadable)
            .status()
            .unwrap();
        assert!(back.success());
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_zaochka"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_zaochka"))
    };
    let mut child = cmd
        .current_dir(&s.root)
        .args([
            "--config",
            "zaochka.toml",
            "--now",
            "2027-01-10T10:00",
            "run",
            "--once",
        ])
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("run --once hangs on the inbox's junk");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("left unhandled 0, not letters 6"),
        "{stdout}"
    );
    assert!(stderr.contains("6 entries in the mailbox"), "{stderr}");
    for why in [
        "a directory",
        "a FIFO",
        "a symbolic link",
        "not UTF-8",
        "cannot be read",
    ] {
        assert!(stderr.contains(why), "{why}: {stderr}");
    }
    assert_eq!(
        stderr.matches("inbox entry skipped").count(),
        6,
        "each logged once: {stderr}"
    );
    // the one line of the real letter names its Message-ID and its mailbox id
    let line = stderr
        .lines()
        .find(|l| l.contains("t1@players.test"))
        .unwrap_or_else(|| panic!("no line for the letter: {stderr}"));
    assert!(
        line.contains("mail=maildir:1.test") && line.contains("Judged"),
        "{line}"
    );

    let out = s.new_out();
    find(&out, B, "ход 1. c3-d4");
    find(&out, W, "принят");
    assert_eq!(
        count(
            &s.root,
            "SELECT count(*) FROM letters_in WHERE instr(raw, ?1) > 0",
            b"TOP-SECRET-LINE"
        ),
        0,
        "a link is never followed into the archive"
    );
    assert_eq!(
        count(
            &s.root,
            "SELECT count(*) FROM letters_in WHERE ?1 = ?1",
            b""
        ),
        1
    );
    for junk in ["a-directory", "a-fifo", "a-link", "dangling", "unreadable"] {
        assert!(
            std::fs::symlink_metadata(new.join(junk)).is_ok(),
            "{junk} is left where it was"
        );
    }
}

#[test]
fn a_sender_address_lettre_cannot_write_is_stored_and_the_rest_is_answered() {
    let mut s = Scenario::new();
    let odd = [
        "\"a b\"@odd.test",
        "z@[127.0.0.1]",
        "z@odd.test.",
        "<@route.test:z@odd.test>",
    ];
    for (i, from) in odd.iter().enumerate() {
        drop_letter(
            &s.root,
            &format!("odd{i}"),
            from,
            &format!("odd{i}@odd.test"),
            "Добрый день",
        );
    }
    s.letter(W, "Мой ход: 1. c3-d4");
    let out = s.run("2027-01-10T10:00");
    find(&out, B, "ход 1. c3-d4");
    assert_eq!(
        count(
            &s.root,
            "SELECT count(*) FROM letters_in WHERE ?1 = ?1",
            b""
        ),
        5,
        "every letter stored"
    );
    assert_eq!(
        count(
            &s.root,
            "SELECT count(*) FROM letters_in WHERE outcome = 'set aside' AND message_id LIKE 'odd%' AND ?1 = ?1",
            b""
        ),
        4
    );
    let left = std::fs::read_dir(s.root.join("mail/inbox/new"))
        .unwrap()
        .count();
    assert_eq!(left, 0, "nothing stays in new/");
}

#[test]
fn every_command_but_init_refuses_a_missing_empty_or_foreign_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("zaochka.sqlite");
    let zaochka = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_zaochka"))
            .current_dir(dir.path())
            .args(["--config", "/dev/null"])
            .args(args)
            .output()
            .unwrap()
    };
    let commands: [&[&str]; 5] = [
        &["run", "--once"],
        &["tournament", "start", CIPHER],
        &["game", "show", CIPHER, "1"],
        &["table", CIPHER],
        &[
            "player",
            "add",
            CIPHER,
            "--name",
            "Белов Борис",
            "--email",
            W,
        ],
    ];
    let refused = |what: &str| {
        for args in commands {
            let out = zaochka(args);
            let (_, stderr) = text(&out);
            assert_eq!(out.status.code(), Some(2), "{what} {args:?}: {stderr}");
            assert!(
                stderr.contains("zaochka.sqlite") && stderr.contains("zaochka init"),
                "{what} {args:?}: {stderr}"
            );
        }
    };
    refused("missing");
    assert!(!db.exists(), "nothing created");
    std::fs::write(&db, b"").unwrap();
    refused("empty");
    assert_eq!(std::fs::metadata(&db).unwrap().len(), 0);
    std::fs::remove_file(&db).unwrap();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE other_program (x)")
        .unwrap();
    refused("foreign");
    std::fs::remove_file(&db).unwrap();
    assert!(zaochka(&["init"]).status.success());
    let out = zaochka(&["run", "--once"]);
    assert!(out.status.success(), "{:?}", text(&out));
}

#[test]
fn a_second_daemon_on_the_same_database_is_refused_naming_the_first() {
    let s = Scenario::new();
    let mut first = Command::new(env!("CARGO_BIN_EXE_zaochka"))
        .current_dir(&s.root)
        .args(["--config", "/dev/null", "run"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lock = s.root.join("zaochka.sqlite.lock");
    let pid = first.id().to_string();
    let started = Instant::now();
    while std::fs::read_to_string(&lock).unwrap_or_default().trim() != pid {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the daemon never took its lock"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = s.cmd(&["run", "--once"]);
    let (_, stderr) = text(&out);
    let _ = first.kill();
    let _ = first.wait();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("process {pid}")) && stderr.contains("zaochka.sqlite.lock"),
        "{stderr}"
    );
    // the lock dies with its holder, even killed
    let out = s.cmd(&["run", "--once"]);
    assert!(out.status.success(), "{:?}", text(&out));
}

#[test]
fn two_runs_at_the_same_moment_make_distinct_message_ids_and_handle_every_letter() {
    let mut s = Scenario::new();
    drop_signed(
        &mut s,
        "s1",
        "stranger1@else.test",
        "s1@else.test",
        "Привет",
    );
    let first = s.run("2027-01-10T10:00");
    drop_signed(
        &mut s,
        "s2",
        "stranger2@else.test",
        "s2@else.test",
        "Привет",
    );
    let second = s.run("2027-01-10T10:00");
    assert_eq!(first.len(), 1, "{first:#?}");
    assert_eq!(second.len(), 1, "{second:#?}");
    assert_eq!(second[0].to, "stranger2@else.test");
    assert_eq!(
        count(
            &s.root,
            "SELECT count(*) FROM letters_in WHERE ?1 = ?1",
            b""
        ),
        2
    );
    // each stored letter carries its own id in its header, and a resend sends those bytes
    let conn = rusqlite::Connection::open(s.root.join("zaochka.sqlite")).unwrap();
    let mut stmt = conn
        .prepare("SELECT message_id, raw, raw_zlib FROM letters_out")
        .unwrap();
    let rows: Vec<(String, Vec<u8>)> = stmt
        .query_map([], |r| {
            Ok((r.get(0)?, crate::support::stored_raw(r.get(1)?, r.get(2)?)))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let ids: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(ids.len(), rows.len(), "distinct ids: {ids:?}");
    for (id, raw) in &rows {
        let m = mail_parser::MessageParser::default().parse(raw).unwrap();
        assert_eq!(m.message_id(), Some(id.as_str()));
    }
}

#[test]
fn json_logs_are_one_object_a_line_naming_each_letter() {
    let mut s = Scenario::new();
    s.letter(W, "Мой ход: 1. c3-d4");
    let out = s.cmd(&[
        "--log-format",
        "json",
        "--now",
        "2027-01-10T10:00",
        "run",
        "--once",
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<serde_json::Value> = stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let letter = lines
        .iter()
        .find(|v| v["message"] == "letter")
        .unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(letter["message_id"], "t1@players.test", "{letter}");
    assert_eq!(letter["mail"], "maildir:1.test", "{letter}");
    assert_eq!(letter["level"], "INFO");
}

/// The daemon on an empty in-memory inbox and the real Postfix's submission port.
fn smtp_daemon(
    stack: &crate::support::MailStack,
    bot: &str,
    password: Option<&str>,
    store: zaochka::store::Store,
    at: chrono::DateTime<chrono::Utc>,
) -> zaochka::daemon::Daemon<zaochka::mail::memory::MemoryMailbox, zaochka::mail::smtp::SmtpOutbox>
{
    let mut settings = stack.smtp(bot, zaochka::mail::TlsMode::StartTls);
    if let Some(pw) = password {
        settings.auth = Some((bot.to_owned(), zaochka::mail::Password::new(pw)));
    }
    let mut config = zaochka::config::Config {
        address: bot.into(),
        ..zaochka::config::Config::default()
    };
    // The inbox stays empty: this daemon only sends, no sender is ever checked.
    config.auth.senders = zaochka::config::Senders::Address;
    zaochka::daemon::Daemon::new(
        zaochka::office::Office::new(config),
        store,
        zaochka::mail::memory::MemoryMailbox::new(),
        zaochka::mail::smtp::SmtpOutbox::new(settings).unwrap(),
        zaochka::daemon::Clock::Fixed(at),
        Duration::from_millis(200),
    )
    .unwrap()
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn against_postfix_a_535_keeps_every_letter_waiting_and_a_550_gives_up_only_its_own() {
    use zaochka::daemon::Stop;
    use zaochka::store::{NewLetterOut, StoreError};
    let Some(stack) = crate::support::MailStack::from_env() else {
        return;
    };
    let (bot, a, b) = ("box25@tests.test", "box26@tests.test", "box27@tests.test");
    let now = chrono::Utc::now();
    let mut store = zaochka::store::Store::open_in_memory().unwrap();
    let queue = |store: &mut zaochka::store::Store, to: &str| {
        let id = crate::support::unique_message_id("faults-smtp");
        let mail = crate::support::letter(bot, to, &id, "utf-8", "Проверка".as_bytes());
        store
            .with_transaction(|tx| {
                tx.queue(
                    &NewLetterOut {
                        message_id: &id,
                        kind: "test",
                        game: None,
                        in_reply_to: None,
                        envelope_from: bot,
                        recipients: &[to.to_owned()],
                        raw: &mail.raw,
                    },
                    now,
                )?;
                Ok::<_, StoreError>(())
            })
            .unwrap();
        id
    };
    let to_a = queue(&mut store, a);
    let to_b = queue(&mut store, b);

    // the password was rotated on the server: 535, and nothing is given up
    let mut d = smtp_daemon(&stack, bot, Some("rotated-away"), store, now);
    let pass = d.pass(&mut Stop::never()).await.unwrap();
    assert_eq!((pass.sent, pass.send_failures, pass.waiting), (0, 1, 2));
    let summary = d.store.read(|tx| tx.mail_summary()).unwrap();
    assert_eq!(summary.given_up, 0, "{summary:?}");
    let first = d
        .store
        .read(|tx| tx.find_letter_out(&to_a))
        .unwrap()
        .unwrap();
    let error = first.last_error.unwrap_or_default();
    assert!(error.contains("535"), "{error}");
    assert!(!error.contains("rotated-away"), "{error}");

    // the admin puts the password right; a letter to an unknown mailbox waits behind them
    let mut store = d.store;
    let to_nobody = queue(&mut store, "nobody@tests.test");
    let mut d = smtp_daemon(
        &stack,
        bot,
        None,
        store,
        now + chrono::TimeDelta::minutes(2),
    );
    let pass = d.pass(&mut Stop::never()).await.unwrap();
    assert_eq!((pass.sent, pass.send_failures, pass.waiting), (2, 1, 0));
    let refused = d
        .store
        .read(|tx| tx.find_letter_out(&to_nobody))
        .unwrap()
        .unwrap();
    assert!(refused.gave_up_at.is_some(), "{refused:?}");
    assert!(
        refused.last_error.unwrap_or_default().contains("550"),
        "550 for that letter alone"
    );
    for (user, id) in [(a, &to_a), (b, &to_b)] {
        let query = format!("HEADER Message-ID \"{id}\"");
        let deadline = Instant::now() + Duration::from_secs(10);
        while stack.search(user, "INBOX", &query).await.is_empty() {
            assert!(Instant::now() < deadline, "{id} never reached {user}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}
