//! The daemon: fetch → [`Office::handle`] (read, judge, store, queue, in one transaction) →
//! mark processed; fire the clock's deadlines ([`Office::sweep`]); send the outbox; wait for
//! new mail (IMAP IDLE or polling) until the next deadline or retry. One task, one store.
//!
//! Exactly once: a letter is marked processed in the mailbox only after its transaction
//! committed; if the daemon dies in between, the letter comes again and the store knows it
//! (the same mailbox id or Message-ID), so it is not judged twice. Outgoing letters are sent
//! after commit, from the store's outbox, each with its fixed Message-ID: a crash between
//! sending and recording it may send a letter twice, never lose it. A mail server that is
//! down delays letters (retried with backoff, 1 minute doubling to an hour) but never stops
//! the reading.

use std::future::Future;
use std::time::Duration;

use anyhow::Context as _;
use chrono::{DateTime, Utc};
use tracing::{info, warn};

use crate::mail::{Inbox, MailError, Outbox, OutgoingMail};
use crate::office::{Handled, Office};
use crate::store::{Outcome, Store};

/// Where the daemon's clock comes from.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// The system clock.
    System,
    /// A fixed moment (`--now`): scripts and tests drive months of play in seconds.
    Fixed(DateTime<Utc>),
}

impl Clock {
    /// The current moment.
    pub fn now(self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(t) => t,
        }
    }
}

/// What one pass did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    /// Letters handled now.
    pub letters: usize,
    /// Of those, judged in a game.
    pub judged: usize,
    /// Letters seen before (not judged again).
    pub seen: usize,
    /// Deadlines fired.
    pub deadlines: usize,
    /// Letters sent.
    pub sent: usize,
    /// Letters whose sending failed this pass (to be retried, or given up if permanent).
    pub send_failures: usize,
}

impl std::ops::AddAssign for Pass {
    fn add_assign(&mut self, o: Pass) {
        self.letters += o.letters;
        self.judged += o.judged;
        self.seen += o.seen;
        self.deadlines += o.deadlines;
        self.sent += o.sent;
        self.send_failures += o.send_failures;
    }
}

/// The daemon: the office, its store and the two transports.
pub struct Daemon<I, O> {
    /// The post office.
    pub office: Office,
    /// The store.
    pub store: Store,
    /// Where letters come from.
    pub inbox: I,
    /// Where letters go.
    pub outbox: O,
    /// The clock.
    pub clock: Clock,
    /// The longest wait between passes when nothing is due (the poll fallback).
    pub max_wait: Duration,
}

impl<I: Inbox, O: Outbox> Daemon<I, O> {
    /// Runs until `shutdown` completes (SIGTERM in the binary): the letter in hand is
    /// finished, then the daemon stops. With `once`, one pass and return.
    ///
    /// # Errors
    /// A permanent mailbox error (bad credentials, bad settings) or a store failure.
    pub async fn run(
        &mut self,
        once: bool,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<Pass> {
        let mut shutdown = Stop::new(shutdown);
        let mut total = Pass::default();
        let mut backoff = Duration::from_secs(1);
        loop {
            match self.pass(&mut shutdown).await {
                Ok(p) => {
                    if p.letters + p.deadlines + p.sent > 0 {
                        info!(
                            letters = p.letters,
                            judged = p.judged,
                            deadlines = p.deadlines,
                            sent = p.sent,
                            "pass"
                        );
                    }
                    total += p;
                    backoff = Duration::from_secs(1);
                }
                Err(e) if e.is_transient() && !once => {
                    warn!(error = %e, wait_s = backoff.as_secs(), "mailbox unavailable; backing off");
                    tokio::select! {
                        _ = tokio::time::sleep(backoff) => {}
                        _ = shutdown.wait() => return Ok(total),
                    }
                    backoff = (backoff * 2).min(Duration::from_secs(300));
                    continue;
                }
                Err(e) => return Err(e).context("mailbox"),
            }
            if once || shutdown.is_done().await {
                return Ok(total);
            }
            let wait = self.wait_time();
            tokio::select! {
                r = self.inbox.wait_for_mail(wait) => {
                    if let Err(e) = r {
                        warn!(error = %e, "waiting for mail failed; will reconnect");
                    }
                }
                _ = shutdown.wait() => return Ok(total),
            }
        }
    }

    /// One pass: every new letter, the deadlines due, the outbox.
    ///
    /// # Errors
    /// [`MailError`] from fetching or marking (a store failure is logged and the letter
    /// left in the mailbox for the next pass).
    pub async fn pass<'f>(&mut self, shutdown: &mut Stop<'f>) -> Result<Pass, MailError> {
        let mut p = Pass::default();
        let mail = self.inbox.fetch_new().await?;
        for m in mail {
            if shutdown.is_done().await {
                break;
            }
            match self.office.handle(&mut self.store, &m, self.clock.now()) {
                Ok(Handled::New { id, outcome }) => {
                    p.letters += 1;
                    if matches!(outcome, Outcome::Judged { .. }) {
                        p.judged += 1;
                    }
                    info!(letter = id.0, mail = %m.id, outcome = ?outcome, "letter");
                }
                Ok(Handled::Seen(id)) => {
                    p.seen += 1;
                    info!(letter = id.0, mail = %m.id, "seen before; not judged again");
                }
                Err(e) => {
                    // Nothing of it was kept; it stays in the mailbox and comes again.
                    warn!(mail = %m.id, error = %e, "letter not handled; left in the mailbox");
                    continue;
                }
            }
            self.inbox.mark_processed(&m.id).await?;
        }
        match self.office.sweep(&mut self.store, self.clock.now()) {
            Ok(n) => p.deadlines = n,
            Err(e) => warn!(error = %e, "deadline sweep failed; will try again"),
        }
        let (sent, failed) = self.flush().await;
        p.sent = sent;
        p.send_failures = failed;
        Ok(p)
    }

    /// Sends what the outbox has due; stops at the first transient failure (the server is
    /// down: the rest waits for the retry), gives up a letter on a permanent one.
    async fn flush(&mut self) -> (usize, usize) {
        let now = self.clock.now();
        let due = match self.store.read(|tx| tx.due_outgoing(now, 200)) {
            Ok(d) => d,
            Err(e) => {
                warn!(error = %e, "cannot read the outbox");
                return (0, 0);
            }
        };
        let (mut sent, mut failed) = (0, 0);
        for l in due {
            let mail = OutgoingMail {
                envelope_from: l.envelope_from.clone(),
                recipients: l.recipients.clone(),
                raw: l.raw.clone(),
                message_id: l.message_id.clone(),
            };
            let result = self.outbox.send(&mail).await;
            let at = self.clock.now();
            let recorded = self.store.with_transaction(|tx| match &result {
                Ok(()) => tx.mark_sent(l.id, at),
                Err(e) if e.is_transient() => tx.mark_failed(l.id, &e.to_string(), at).map(|_| ()),
                Err(e) => tx.give_up(l.id, &e.to_string(), at),
            });
            if let Err(e) = recorded {
                warn!(letter = l.id.0, error = %e, "cannot record the sending");
            }
            match result {
                Ok(()) => sent += 1,
                Err(e) if e.is_transient() => {
                    failed += 1;
                    warn!(letter = l.id.0, error = %e, "sending failed; will retry");
                    break;
                }
                Err(e) => {
                    failed += 1;
                    warn!(letter = l.id.0, error = %e, "sending refused; given up");
                }
            }
        }
        (sent, failed)
    }

    /// Until the next outgoing retry or the next deadline day, at most `max_wait`.
    fn wait_time(&self) -> Duration {
        let now = self.clock.now();
        let mut wait = self.max_wait;
        if let Ok(Some(at)) = self.store.read(|tx| tx.next_outgoing_at()) {
            wait = wait.min((at - now).to_std().unwrap_or(Duration::ZERO));
        }
        if let Ok(Some(day)) = self.store.read(|tx| tx.next_due_day()) {
            let at = day.and_hms_opt(0, 0, 1).map(|t| t.and_utc());
            if let Some(at) = at {
                wait = wait.min((at - now).to_std().unwrap_or(Duration::ZERO));
            }
        }
        wait.max(Duration::from_millis(200))
    }
}

/// The shutdown signal, remembered once it came (a completed future is never polled again).
pub struct Stop<'f> {
    fut: std::pin::Pin<Box<dyn Future<Output = ()> + Send + 'f>>,
    is_done: bool,
}

impl<'f> Stop<'f> {
    /// Wraps a shutdown future.
    pub fn new(fut: impl Future<Output = ()> + Send + 'f) -> Self {
        Stop {
            fut: Box::pin(fut),
            is_done: false,
        }
    }

    /// A signal that never comes.
    pub fn never() -> Stop<'static> {
        Stop::new(std::future::pending())
    }

    /// Whether the signal came, without waiting for it.
    pub async fn is_done(&mut self) -> bool {
        if !self.is_done {
            tokio::select! {
                biased;
                _ = self.fut.as_mut() => self.is_done = true,
                _ = std::future::ready(()) => {}
            }
        }
        self.is_done
    }

    /// Waits for the signal.
    pub async fn wait(&mut self) {
        if !self.is_done {
            self.fut.as_mut().await;
            self.is_done = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::mail::memory::MemoryMailbox;
    use crate::mail::{AnyInbox, AnyOutbox};

    fn letter(n: u32) -> String {
        format!(
            "From: stranger{n}@example.com\r\nTo: zaochka@localhost\r\nSubject: hi\r\nMessage-ID: <s{n}@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nДобрый день\r\n"
        )
    }

    fn daemon(mailbox: &MemoryMailbox) -> Daemon<AnyInbox, AnyOutbox> {
        Daemon {
            office: Office::new(Config::default()),
            store: Store::open_in_memory().unwrap(),
            inbox: AnyInbox::Memory(mailbox.clone()),
            outbox: AnyOutbox::Memory(mailbox.clone()),
            clock: Clock::Fixed(Utc::now()),
            max_wait: Duration::from_secs(3600),
        }
    }

    #[tokio::test]
    async fn sigterm_before_a_letter_stops_the_daemon_and_leaves_every_letter_in_the_mailbox() {
        let mailbox = MemoryMailbox::new();
        for n in 0..3 {
            mailbox.push(letter(n), Utc::now());
        }
        let mut d = daemon(&mailbox);
        let pass = d.run(false, std::future::ready(())).await.unwrap();
        assert_eq!(pass.letters, 0, "no letter started after the signal");
        assert_eq!(
            mailbox.unprocessed().len(),
            3,
            "nothing lost, nothing marked"
        );
        // The process restarts: a new connection sees every unprocessed letter again.
        mailbox.forget_fetched();
        let pass = d.run(true, std::future::pending()).await.unwrap();
        assert_eq!(pass.letters, 3);
        assert!(mailbox.unprocessed().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn sigterm_while_waiting_for_mail_ends_the_run_after_the_pass_in_hand() {
        let mailbox = MemoryMailbox::new();
        mailbox.push(letter(1), Utc::now());
        let mut d = daemon(&mailbox);
        let stop = tokio::time::sleep(Duration::from_secs(5));
        let pass = d.run(false, stop).await.unwrap();
        assert_eq!(pass.letters, 1, "the letter in hand was finished");
        assert!(mailbox.unprocessed().is_empty());
        assert_eq!(
            mailbox.sent().len(),
            1,
            "one short answer to the unknown sender"
        );
    }
}
