//! The mail transports against a real Dovecot (IMAP) and Postfix (SMTP) on loopback.
//!
//! The tests that need the stack are `#[ignore]`d so that a bare `cargo test` passes without
//! one; `scripts/test.sh` starts the stack and runs them with `--include-ignored` and
//! `MAILSTACK_REQUIRED=1`, under which a missing stack fails them. Each test uses its own
//! `boxNN@tests.test` mailboxes, so they run in parallel without reading each other's mail.

use std::time::{Duration, Instant};

use zaochka::mail::imap::{ImapInbox, PROCESSED_KEYWORD};
use zaochka::mail::smtp::SmtpOutbox;
use zaochka::mail::{Inbox, IncomingMail, MailError, MailId, Outbox, Password, TlsMode};

use crate::support::{MailStack, letter, unique_message_id};

/// Fetches until a letter with this Message-ID arrives (10 s at most).
async fn fetch_until(inbox: &mut ImapInbox, message_id: &str) -> IncomingMail {
    let needle = format!("<{message_id}>");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let letters = inbox.fetch_new().await.expect("fetch_new");
        if let Some(found) = letters
            .into_iter()
            .find(|m| contains(&m.raw, needle.as_bytes()))
        {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "{message_id} did not arrive in 10 s"
        );
        inbox
            .wait_for_mail(Duration::from_millis(500))
            .await
            .expect("wait_for_mail");
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A port nothing listens on: bound, then released.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn smtp_submission_with_starttls_and_auth_reaches_the_users_inbox() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let id = unique_message_id("submission");
    let mail = letter(
        "box01@tests.test",
        "box02@tests.test",
        &id,
        "utf-8",
        "Ход: 1. c3-d4".as_bytes(),
    );
    let mut outbox = SmtpOutbox::new(stack.smtp("box01@tests.test", TlsMode::StartTls)).unwrap();
    outbox.send(&mail).await.unwrap();

    let mut inbox = ImapInbox::new(stack.imap("box02@tests.test", TlsMode::StartTls)).unwrap();
    let got = fetch_until(&mut inbox, &id).await;
    // the server adds its trace headers on top; what we sent follows byte for byte, with no
    // empty line added at the end (send_raw's CRLF handling)
    assert!(
        got.raw.ends_with(&mail.raw),
        "{}",
        String::from_utf8_lossy(&got.raw)
    );
    inbox.mark_processed(&got.id).await.unwrap();
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn imap_fetch_keeps_uidvalidity_the_internaldate_postmark_and_8bit_windows_1251_bytes() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    // "Ход: 1. c3-d4 Привет" in windows-1251, sent as 8bit
    let body = b"\xD5\xEE\xE4: 1. c3-d4 \xCF\xF0\xE8\xE2\xE5\xF2";
    let id = unique_message_id("cp1251");
    let mail = letter(
        "alice@players.test",
        "box03@tests.test",
        &id,
        "windows-1251",
        body,
    );
    let before = chrono::Utc::now();
    let mut outbox = SmtpOutbox::new(stack.smtp("box03@tests.test", TlsMode::None)).unwrap();
    outbox.send(&mail).await.unwrap();

    let mut inbox = ImapInbox::new(stack.imap("box03@tests.test", TlsMode::StartTls)).unwrap();
    let got = fetch_until(&mut inbox, &id).await;
    let after = chrono::Utc::now();
    assert!(
        got.raw.ends_with(&mail.raw),
        "8bit bytes changed in transit"
    );
    // INTERNALDATE has whole seconds
    assert!(
        got.received >= before - chrono::Duration::seconds(1) && got.received <= after,
        "postmark {} not between {before} and {after}",
        got.received
    );
    let point = inbox
        .resume_point()
        .expect("resume point known after a fetch");
    let uid_validity = point.uid_validity;
    let MailId::Imap {
        mailbox,
        uid_validity: v,
        uid,
    } = &got.id
    else {
        panic!("not an imap id: {:?}", got.id)
    };
    assert_eq!((mailbox.as_str(), *v), ("INBOX", uid_validity));
    // fetched but not marked: the point stays below it
    assert!(
        point.last_uid < *uid,
        "{point:?} passed unprocessed uid {uid}"
    );
    // the letter is still unprocessed, and `UID FETCH next:*` returns the last message even
    // past the end: the same connection must not hand it out again
    assert!(
        inbox
            .fetch_new()
            .await
            .unwrap()
            .iter()
            .all(|m| m.id != got.id),
        "a fetched letter came again on the same connection"
    );
    // a new inbox resuming from the point finds it: an unprocessed letter is never lost
    let mut again = ImapInbox::new(stack.imap("box03@tests.test", TlsMode::StartTls)).unwrap();
    again.resume_from(&point);
    assert!(
        again
            .fetch_new()
            .await
            .unwrap()
            .iter()
            .any(|m| m.id == got.id)
    );
    again.mark_processed(&got.id).await.unwrap();
    let moved = again.resume_point().unwrap();
    assert!(
        moved.last_uid >= *uid,
        "{moved:?} not past the processed uid {uid}"
    );
    assert!(
        inbox
            .fetch_new()
            .await
            .unwrap()
            .iter()
            .all(|m| m.id != got.id)
    );
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn idle_wakes_within_a_few_seconds_of_a_delivery() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let mut inbox = ImapInbox::new(stack.imap("box04@tests.test", TlsMode::Implicit)).unwrap();
    for old in inbox.fetch_new().await.unwrap() {
        inbox.mark_processed(&old.id).await.unwrap();
    }
    let id = unique_message_id("idle");
    let mail = letter(
        "bob@players.test",
        "box04@tests.test",
        &id,
        "utf-8",
        b"12. gh4",
    );
    let mut outbox = SmtpOutbox::new(stack.smtp("box04@tests.test", TlsMode::None)).unwrap();
    let started = Instant::now();
    let send = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        outbox.send(&mail).await.unwrap();
    };
    let (_, waited) = tokio::join!(send, inbox.wait_for_mail(Duration::from_secs(60)));
    waited.unwrap();
    let woke = started.elapsed();
    assert!(woke < Duration::from_secs(5), "IDLE woke after {woke:?}");
    let got = fetch_until(&mut inbox, &id).await;
    inbox.mark_processed(&got.id).await.unwrap();
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn mark_processed_moves_the_letter_to_the_processed_folder() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let id = unique_message_id("move");
    let mail = letter(
        "carol@players.test",
        "box05@tests.test",
        &id,
        "utf-8",
        b"move me",
    );
    SmtpOutbox::new(stack.smtp("box05@tests.test", TlsMode::None))
        .unwrap()
        .send(&mail)
        .await
        .unwrap();
    let mut settings = stack.imap("box05@tests.test", TlsMode::StartTls);
    settings.processed_folder = Some("Zaochka/Processed".into());
    let mut inbox = ImapInbox::new(settings).unwrap();
    let got = fetch_until(&mut inbox, &id).await;
    inbox.mark_processed(&got.id).await.unwrap();
    inbox.mark_processed(&got.id).await.unwrap(); // idempotent

    let query = format!("HEADER Message-ID \"<{id}>\"");
    assert!(
        stack
            .search("box05@tests.test", "INBOX", &query)
            .await
            .is_empty()
    );
    let moved = stack
        .search(
            "box05@tests.test",
            "Zaochka/Processed",
            &format!("SEEN KEYWORD {PROCESSED_KEYWORD} {query}"),
        )
        .await;
    assert_eq!(
        moved.len(),
        1,
        "the letter is in the folder, seen and flagged"
    );
    assert!(
        inbox
            .fetch_new()
            .await
            .unwrap()
            .iter()
            .all(|m| m.id != got.id)
    );
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn without_a_folder_a_processed_letter_stays_flagged_seen_and_is_not_fetched_again() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let id = unique_message_id("flag");
    let mail = letter(
        "dave@players.test",
        "box06@tests.test",
        &id,
        "utf-8",
        b"flag me",
    );
    SmtpOutbox::new(stack.smtp("box06@tests.test", TlsMode::None))
        .unwrap()
        .send(&mail)
        .await
        .unwrap();
    let mut inbox = ImapInbox::new(stack.imap("box06@tests.test", TlsMode::None)).unwrap();
    let got = fetch_until(&mut inbox, &id).await;
    inbox.mark_processed(&got.id).await.unwrap();
    let query = format!("SEEN KEYWORD {PROCESSED_KEYWORD} HEADER Message-ID \"<{id}>\"");
    assert_eq!(
        stack
            .search("box06@tests.test", "INBOX", &query)
            .await
            .len(),
        1
    );
    let mut fresh = ImapInbox::new(stack.imap("box06@tests.test", TlsMode::None)).unwrap();
    assert!(
        fresh
            .fetch_new()
            .await
            .unwrap()
            .iter()
            .all(|m| m.id != got.id)
    );
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn implicit_tls_on_smtps_and_imaps_works_with_the_test_ca() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let id = unique_message_id("implicit");
    let mail = letter(
        "box07@tests.test",
        "box07@tests.test",
        &id,
        "utf-8",
        b"over TLS",
    );
    SmtpOutbox::new(stack.smtp("box07@tests.test", TlsMode::Implicit))
        .unwrap()
        .send(&mail)
        .await
        .unwrap();
    let mut inbox = ImapInbox::new(stack.imap("box07@tests.test", TlsMode::Implicit)).unwrap();
    let got = fetch_until(&mut inbox, &id).await;
    inbox.mark_processed(&got.id).await.unwrap();
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn a_certificate_for_another_name_is_a_permanent_tls_error() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let mut settings = stack.imap("box08@tests.test", TlsMode::Implicit);
    settings.tls_name = Some("imap.example.org".into());
    let err = ImapInbox::new(settings)
        .unwrap()
        .fetch_new()
        .await
        .unwrap_err();
    assert!(matches!(err, MailError::Tls { .. }), "{err}");
    assert!(!err.is_transient());

    // without the test CA the certificate is not trusted at all
    let mut settings = stack.smtp("box08@tests.test", TlsMode::Implicit);
    settings.ca_file = None;
    let mail = letter(
        "box08@tests.test",
        "box08@tests.test",
        &unique_message_id("ca"),
        "utf-8",
        b"x",
    );
    let err = SmtpOutbox::new(settings)
        .unwrap()
        .send(&mail)
        .await
        .unwrap_err();
    assert!(matches!(err, MailError::Tls { .. }), "{err}");
    assert!(!err.is_transient());
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn a_wrong_password_is_an_auth_error_retried_later_and_never_shown() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let mut settings = stack.imap("box08@tests.test", TlsMode::StartTls);
    settings.password = Password::new("wrong");
    let err = ImapInbox::new(settings)
        .unwrap()
        .fetch_new()
        .await
        .unwrap_err();
    assert!(matches!(err, MailError::Auth { .. }), "{err}");
    assert!(
        err.is_transient(),
        "a rotated password is put right by the admin: {err}"
    );
    assert!(
        !format!("{err} {err:?}").contains("wrong\""),
        "no password in errors"
    );

    let mut settings = stack.smtp("box08@tests.test", TlsMode::StartTls);
    settings.auth = Some(("box08@tests.test".into(), Password::new("wrong")));
    let mail = letter(
        "box08@tests.test",
        "box08@tests.test",
        &unique_message_id("pw"),
        "utf-8",
        b"x",
    );
    let err = SmtpOutbox::new(settings)
        .unwrap()
        .send(&mail)
        .await
        .unwrap_err();
    assert!(matches!(err, MailError::Auth { .. }), "{err}");
    assert!(
        err.is_transient(),
        "a rotated password is put right by the admin: {err}"
    );
    assert_eq!(
        err.send_failure(),
        zaochka::mail::SendFailure::ServerDown,
        "a 535 keeps every letter waiting: {err}"
    );
    assert!(!format!("{err} {err:?}").contains("wrong"), "{err}");
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn an_unknown_recipient_is_a_permanent_error() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let mail = letter(
        "box09@tests.test",
        "nobody@tests.test",
        &unique_message_id("rcpt"),
        "utf-8",
        b"x",
    );
    let err = SmtpOutbox::new(stack.smtp("box09@tests.test", TlsMode::StartTls))
        .unwrap()
        .send(&mail)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            MailError::Smtp {
                code: Some(550),
                ..
            }
        ),
        "{err}"
    );
    assert!(!err.is_transient());
    assert_eq!(err.send_failure(), zaochka::mail::SendFailure::Refused);
}

#[tokio::test]
async fn a_refused_connection_is_a_transient_error() {
    let port = closed_port();
    let settings = zaochka::mail::imap::ImapSettings::new(
        "127.0.0.1",
        port,
        TlsMode::None,
        "nobody",
        Password::new("x"),
    );
    let mut inbox = ImapInbox::new(settings).unwrap();
    let err = inbox.fetch_new().await.unwrap_err();
    assert!(matches!(err, MailError::Connect { .. }), "{err}");
    assert!(err.is_transient());
    // the next wait backs off instead of hammering the server
    let started = Instant::now();
    inbox
        .wait_for_mail(Duration::from_millis(300))
        .await
        .unwrap();
    assert!(started.elapsed() >= Duration::from_millis(250));

    let settings = zaochka::mail::smtp::SmtpSettings {
        host: "127.0.0.1".into(),
        port,
        tls: TlsMode::None,
        tls_name: None,
        auth: None,
        ca_file: None,
        timeout: Duration::from_secs(5),
    };
    let mail = letter(
        "a@b.test",
        "c@d.test",
        &unique_message_id("refused"),
        "utf-8",
        b"x",
    );
    let err = SmtpOutbox::new(settings)
        .unwrap()
        .send(&mail)
        .await
        .unwrap_err();
    assert!(err.is_transient(), "{err}");
}

/// The figure for the README: from the start of an SMTP send to the letter in hand over IMAP,
/// with the reader waiting in IDLE. Prints the samples and the median.
#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn latency_from_smtp_send_to_imap_fetch_with_idle_is_about_half_a_second() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let mut inbox = ImapInbox::new(stack.imap("box10@tests.test", TlsMode::Implicit)).unwrap();
    let mut outbox = SmtpOutbox::new(stack.smtp("box10@tests.test", TlsMode::StartTls)).unwrap();
    for old in inbox.fetch_new().await.unwrap() {
        inbox.mark_processed(&old.id).await.unwrap();
    }
    let mut samples = Vec::new();
    for n in 0..5 {
        let id = unique_message_id(&format!("latency{n}"));
        let mail = letter(
            "alice@players.test",
            "box10@tests.test",
            &id,
            "utf-8",
            b"1. cd4 fe5",
        );
        let needle = format!("<{id}>");
        let mut sent_at = None;
        let send = async {
            // let the reader enter IDLE first
            tokio::time::sleep(Duration::from_millis(200)).await;
            sent_at = Some(Instant::now());
            outbox.send(&mail).await.unwrap();
        };
        let receive = async {
            loop {
                inbox.wait_for_mail(Duration::from_secs(10)).await.unwrap();
                let letters = inbox.fetch_new().await.unwrap();
                if let Some(m) = letters.iter().find(|m| contains(&m.raw, needle.as_bytes())) {
                    return (Instant::now(), m.id.clone());
                }
            }
        };
        let (_, (got_at, got)) = tokio::join!(send, receive);
        samples.push(got_at - sent_at.expect("sent"));
        inbox.mark_processed(&got).await.unwrap();
    }
    samples.sort();
    let median = samples[samples.len() / 2];
    eprintln!(
        "latency SMTP send -> IMAP fetch (IDLE): samples {:?}, median {median:?}",
        samples
    );
    assert!(median < Duration::from_secs(3), "median {median:?}");
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn transports_recover_after_the_servers_are_stopped_and_started_again() {
    let Some(private) = crate::support::PrivateStack::start("restart") else {
        return;
    };
    let stack = &private.stack;
    let user = "box01@tests.test";
    let mut inbox = ImapInbox::new(stack.imap(user, TlsMode::StartTls)).unwrap();
    let mut outbox = SmtpOutbox::new(stack.smtp(user, TlsMode::StartTls)).unwrap();
    let first = letter(
        "alice@players.test",
        user,
        &unique_message_id("before"),
        "utf-8",
        b"1",
    );
    outbox.send(&first).await.unwrap();
    fetch_until(&mut inbox, &first.message_id).await;

    // SMTP down: sending fails, and says it is worth retrying
    private.stop_smtp();
    let during = letter(
        "alice@players.test",
        user,
        &unique_message_id("during"),
        "utf-8",
        b"2",
    );
    let err = outbox.send(&during).await.unwrap_err();
    assert!(err.is_transient(), "{err}");

    // everything down: IMAP fails transiently too
    private.stop();
    let err = inbox.fetch_new().await.unwrap_err();
    assert!(err.is_transient(), "{err}");

    // back up: the same transports reconnect by themselves, and nothing was lost
    private.restart();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match outbox.send(&during).await {
            Ok(()) => break,
            Err(e) if e.is_transient() && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("send after restart: {e}"),
        }
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut ids = Vec::new();
    while ids.len() < 2 {
        match inbox.fetch_new().await {
            Ok(letters) => {
                for m in letters {
                    for wanted in [&first.message_id, &during.message_id] {
                        if contains(&m.raw, format!("<{wanted}>").as_bytes())
                            && !ids.contains(wanted)
                        {
                            ids.push(wanted.clone());
                        }
                    }
                }
            }
            Err(e) => assert!(e.is_transient(), "{e}"),
        }
        assert!(
            Instant::now() < deadline,
            "after the restart only {ids:?} arrived"
        );
        let _ = inbox.wait_for_mail(Duration::from_millis(500)).await;
    }
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn a_full_mailbox_is_read_in_parts_and_nothing_is_skipped() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let user = "box11@tests.test";
    let mut outbox = SmtpOutbox::new(stack.smtp(user, TlsMode::None)).unwrap();
    let ids: Vec<String> = (0..7)
        .map(|n| unique_message_id(&format!("part{n}")))
        .collect();
    for id in &ids {
        let mail = letter("bob@players.test", user, id, "utf-8", b"x");
        outbox.send(&mail).await.unwrap();
    }
    let last = format!("HEADER Message-ID \"<{}>\"", ids[6]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while stack.search(user, "INBOX", &last).await.is_empty() {
        assert!(Instant::now() < deadline, "letters not delivered");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut settings = stack.imap(user, TlsMode::StartTls);
    settings.max_per_fetch = 3;
    let mut inbox = ImapInbox::new(settings).unwrap();
    let mut seen = Vec::new();
    for _ in 0..10 {
        let letters = inbox.fetch_new().await.unwrap();
        assert!(letters.len() <= 3, "{} letters in one fetch", letters.len());
        if letters.is_empty() {
            break;
        }
        // not marked yet: the parts must follow on from each other by themselves
        for m in letters {
            assert!(
                seen.iter().all(|s: &IncomingMail| s.id != m.id),
                "{} twice",
                m.id
            );
            seen.push(m);
        }
    }
    for m in &seen {
        inbox.mark_processed(&m.id).await.unwrap();
    }
    for id in &ids {
        let needle = format!("<{id}>");
        assert!(
            seen.iter().any(|m| contains(&m.raw, needle.as_bytes())),
            "{id} was skipped"
        );
    }
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn an_idle_that_ran_its_span_ends_and_the_connection_keeps_working() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let user = "box12@tests.test";
    let mut settings = stack.imap(user, TlsMode::StartTls);
    settings.idle_renew = Duration::from_millis(700);
    let mut inbox = ImapInbox::new(settings).unwrap();
    for old in inbox.fetch_new().await.unwrap() {
        inbox.mark_processed(&old.id).await.unwrap();
    }
    // the span (standing in for the 25 minutes) ends the IDLE well before `max`
    let started = Instant::now();
    inbox.wait_for_mail(Duration::from_secs(30)).await.unwrap();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(600) && took < Duration::from_secs(5),
        "{took:?}"
    );
    // DONE left the session usable: it still fetches what arrives
    let id = unique_message_id("renew");
    let mail = letter("alice@players.test", user, &id, "utf-8", b"x");
    let mut outbox = SmtpOutbox::new(stack.smtp(user, TlsMode::None)).unwrap();
    outbox.send(&mail).await.unwrap();
    let got = fetch_until(&mut inbox, &id).await;
    inbox.mark_processed(&got.id).await.unwrap();
}

#[tokio::test]
#[ignore = "needs the mail stack: scripts/test.sh runs them"]
async fn a_resumed_inbox_reads_only_after_its_point_and_a_new_uidvalidity_reads_all() {
    let Some(stack) = MailStack::from_env() else {
        return;
    };
    let user = "box30@tests.test";
    let mut outbox = SmtpOutbox::new(stack.smtp(user, TlsMode::None)).unwrap();
    let old = unique_message_id("resume-old");
    outbox
        .send(&letter("bob@players.test", user, &old, "utf-8", b"old"))
        .await
        .unwrap();
    let mut first = ImapInbox::new(stack.imap(user, TlsMode::None)).unwrap();
    let got = fetch_until(&mut first, &old).await;
    first.mark_processed(&got.id).await.unwrap();
    let point = first.resume_point().expect("a point after a fetch");
    let MailId::Imap { uid, .. } = got.id else {
        panic!("not an imap id")
    };
    assert!(point.last_uid >= uid, "{point:?} not past processed {uid}");
    first.logout().await;
    // the old letter looks unprocessed again: only a search from UID 1 would return it
    stack.unmark(user, "INBOX", uid).await;
    let new = unique_message_id("resume-new");
    outbox
        .send(&letter("bob@players.test", user, &new, "utf-8", b"new"))
        .await
        .unwrap();

    let mut resumed = ImapInbox::new(stack.imap(user, TlsMode::None)).unwrap();
    resumed.resume_from(&point);
    let fresh = fetch_until(&mut resumed, &new).await;
    assert!(
        !contains(&fresh.raw, format!("<{old}>").as_bytes()),
        "the resumed inbox read the letter before its point"
    );
    let again = resumed.fetch_new().await.unwrap();
    assert!(again.iter().all(|m| m.id != got.id), "the old letter came");
    // the same point under another UIDVALIDITY (the mailbox was rebuilt) is forgotten
    let mut rebuilt = ImapInbox::new(stack.imap(user, TlsMode::None)).unwrap();
    let mut stale = point.clone();
    stale.uid_validity = stale.uid_validity.wrapping_add(1);
    rebuilt.resume_from(&stale);
    let all = rebuilt.fetch_new().await.unwrap();
    assert!(
        all.iter().any(|m| m.id == got.id),
        "a changed UIDVALIDITY did not rescan"
    );
    // another account's point is not taken
    let mut other = ImapInbox::new(stack.imap(user, TlsMode::None)).unwrap();
    let mut foreign = point.clone();
    foreign.key = "imap://someone@elsewhere:143/INBOX".into();
    other.resume_from(&foreign);
    assert!(
        other
            .fetch_new()
            .await
            .unwrap()
            .iter()
            .any(|m| m.id == got.id)
    );
}
