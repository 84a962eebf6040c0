//! The daemon: fetch → [`Office::handle`] (read, judge, store, queue, in one transaction) →
//! mark processed; fire the clock's deadlines ([`Office::sweep`]); send the outbox; wait for
//! new mail (IMAP IDLE or polling) until the next deadline or retry. One task, one store.
//!
//! Exactly once: a letter is marked processed in the mailbox only after its transaction
//! committed (a backlog's letters are committed in batches, up to 100 letters (`BATCH_LETTERS`) or
//! one second (`BATCH_TIME`) a commit, each letter a savepoint that fails alone; a letter that comes
//! alone is committed at once); if the daemon dies in between, the letter comes again and the store knows it
//! (the same mailbox id or Message-ID), so it is not judged twice. Outgoing letters are sent
//! after commit, from the store's outbox, each with its fixed Message-ID: a crash between
//! sending and recording it may send a letter twice, never lose it. A mail server that is
//! down, or refuses the login, delays letters (retried with backoff, 1 minute doubling to an
//! hour, for as long as it takes, each failure logged) but never stops the reading; only a
//! letter the server itself refuses (a 5xx reply to it) is given up.
//!
//! Before a letter is handled its sender is checked ([`Verifier`], `[auth]`). When the DNS
//! does not answer (SERVFAIL, timeout) the letter is not handled nor marked processed: it
//! waits in the mailbox and is checked again (1 minute, doubling to an hour) until the DNS
//! answers or [`GIVE_UP_AFTER`] has passed since it arrived (Postfix's queue lifetime); then
//! it is handled as not proven. Nothing of it is stored meanwhile, so a letter is never
//! archived as refused for a DNS hiccup.

use std::future::Future;
use std::time::Duration;

use anyhow::Context as _;
use chrono::{DateTime, NaiveDate, Utc};
use tracing::{error, info, warn};

use crate::mail::auth::{AuthError, Verifier};
use crate::mail::{Inbox, IncomingMail, MailError, Outbox, OutgoingMail, ResumePoint, SendFailure};
use crate::office::{Handled, Office};
use crate::store::{LetterOutId, MailboxState, Outcome, Store};

/// A backlog's batch is committed after this many letters…
const BATCH_LETTERS: usize = 100;
/// …or once it has been open this long, so that the first letter of a batch is not held
/// long and the write lock is left to the command line between batches.
const BATCH_TIME: Duration = Duration::from_secs(1);

/// The letters judged since the batch began, to be marked processed after its commit.
#[derive(Debug)]
struct Batch {
    /// A batch transaction is open in the store (else each letter was committed alone).
    open: bool,
    since: std::time::Instant,
    held: Vec<(crate::mail::MailId, Kept)>,
}

impl Default for Batch {
    fn default() -> Self {
        Batch {
            open: false,
            since: std::time::Instant::now(),
            held: Vec::new(),
        }
    }
}

/// A letter of the open batch, as it will count once the batch is committed.
#[derive(Clone, Copy, Debug)]
enum Kept {
    New { judged: bool },
    Seen,
}

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
    /// Letters whose sending failed this pass (to be retried, or given up if refused).
    pub send_failures: usize,
    /// Letters that could not be handled (the store or the renderer failed): left in the
    /// mailbox, tried again by the next pass.
    pub unhandled: usize,
    /// Entries of the mailbox that are not letters it can read ([`Inbox::skipped`]).
    pub skipped: usize,
    /// Outgoing letters still waiting after the pass (the server was down, or their retry
    /// is not due yet).
    pub waiting: usize,
    /// Letters left in the mailbox because the DNS did not answer their sender check.
    pub waiting_for_dns: usize,
}

impl Pass {
    /// Whether the pass left letters behind: unhandled letters or unreadable entries in the
    /// mailbox (`run --once` then exits 1).
    pub fn has_unhandled(&self) -> bool {
        self.unhandled + self.skipped > 0
    }
}

impl std::ops::AddAssign for Pass {
    fn add_assign(&mut self, o: Pass) {
        self.letters += o.letters;
        self.judged += o.judged;
        self.seen += o.seen;
        self.deadlines += o.deadlines;
        self.sent += o.sent;
        self.send_failures += o.send_failures;
        self.unhandled += o.unhandled;
        // the state of the mailbox and the outbox after the last pass, not a sum
        self.skipped = o.skipped;
        self.waiting = o.waiting;
        self.waiting_for_dns += o.waiting_for_dns;
    }
}

/// Gives the inbox the resume point the store kept for it, if any; returns it.
fn resume(store: &Store, inbox: &mut impl Inbox) -> Option<ResumePoint> {
    let key = inbox.resume_key()?;
    match store.read(|tx| tx.mailbox_state(&key)) {
        Ok(Some(state)) => {
            let point = ResumePoint {
                key,
                uid_validity: state.uidvalidity,
                last_uid: state.last_uid,
            };
            inbox.resume_from(&point);
            Some(point)
        }
        Ok(None) => None,
        Err(e) => {
            warn!(mailbox = %key, error = %e, "cannot read where the mailbox was read up to; reading it from the start");
            None
        }
    }
}

/// How long a letter whose sender check met a DNS failure is checked again before it is
/// handled as not proven: 5 days, Postfix's `maximal_queue_lifetime`.
pub const GIVE_UP_AFTER: chrono::TimeDelta = chrono::TimeDelta::days(5);

/// A letter waiting for the DNS.
#[derive(Debug)]
struct Waiting {
    mail: IncomingMail,
    tries: u32,
    next: tokio::time::Instant,
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
    /// The sender check.
    pub verifier: Verifier,
    /// Letters whose check is to be tried again.
    waiting: Vec<Waiting>,
    /// The mailbox's resume point as the store has it.
    kept: Option<ResumePoint>,
    /// `[site] dir`: whether the next write is to be of every tournament's (after a
    /// failure), not only of those that changed…
    site_all: bool,
    /// …and the day (in the configuration's zone) the pages were last tried whole: on the
    /// first pass, and on a new day, every page is written again, for the clocks run on every
    /// day (10.3.1).
    site_day: Option<NaiveDate>,
}

impl<I: Inbox, O: Outbox> Daemon<I, O> {
    /// A daemon with the sender check the office's `[auth]` describes.
    ///
    /// # Errors
    /// [`AuthError`] when the `dns_records` file or the system's resolver cannot be used.
    pub fn new(
        office: Office,
        store: Store,
        mut inbox: I,
        outbox: O,
        clock: Clock,
        max_wait: Duration,
    ) -> Result<Self, AuthError> {
        let verifier = Verifier::new(&office.config.auth)?;
        let kept = resume(&store, &mut inbox);
        Ok(Daemon {
            office,
            store,
            inbox,
            outbox,
            clock,
            max_wait,
            verifier,
            waiting: Vec::new(),
            kept,
            site_all: false,
            site_day: None,
        })
    }

    /// How many letters wait for the DNS to answer their sender check.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

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

    /// One pass: every new letter (the inbox is read until it has nothing more to give), the
    /// deadlines due, then the whole outbox that is due.
    ///
    /// # Errors
    /// [`MailError`] from fetching or marking (a store failure is logged and the letter
    /// left in the mailbox for the next pass).
    pub async fn pass<'f>(&mut self, shutdown: &mut Stop<'f>) -> Result<Pass, MailError> {
        let mut p = Pass::default();
        // The games changed by this pass are those updated from now on (`[site] dir`).
        let began = self.clock.now();
        // Letters waiting for the DNS whose time has come; a letter fetched again (a new
        // connection) is checked once.
        let instant = tokio::time::Instant::now();
        let mut again = Vec::new();
        let mut due = Vec::new();
        self.waiting.retain_mut(|w| {
            if w.next <= instant {
                due.push(w.mail.clone());
                again.push((w.mail.id.clone(), w.tries));
                false
            } else {
                true
            }
        });
        'fetch: loop {
            let mut mail = self.inbox.fetch_new().await?;
            p.skipped = self.inbox.skipped();
            for m in &mail {
                if let Some(i) = self.waiting.iter().position(|w| w.mail.id == m.id) {
                    let w = self.waiting.remove(i);
                    again.push((w.mail.id, w.tries));
                }
            }
            for d in due.drain(..) {
                if !mail.iter().any(|m| m.id == d.id) {
                    mail.push(d);
                }
            }
            if mail.is_empty() {
                break;
            }
            // A backlog is judged in batches, one commit for many letters; a letter alone is
            // committed at once.
            let batching = mail.len() > 1;
            let mut batch = Batch::default();
            for m in mail {
                if shutdown.is_done().await {
                    self.end_batch(&mut batch, &mut p).await?;
                    break 'fetch;
                }
                let message_id = crate::mail::mime::message_id(&m.raw);
                let message_id = message_id.as_deref().unwrap_or("-");
                let auth = self.verifier.verify(&m.raw).await;
                if auth.is_transient() && self.clock.now() - m.received < GIVE_UP_AFTER {
                    let tries = again
                        .iter()
                        .find(|(id, _)| *id == m.id)
                        .map_or(0, |(_, t)| *t)
                        + 1;
                    let wait = Duration::from_secs(60 << (tries - 1).min(6))
                        .min(Duration::from_secs(3600));
                    warn!(mail = %m.id, message_id, auth = %auth.summary(), retry_s = wait.as_secs(), "sender check: no answer from the DNS; the letter waits in the mailbox");
                    p.waiting_for_dns += 1;
                    self.waiting.push(Waiting {
                        mail: m,
                        tries,
                        next: tokio::time::Instant::now() + wait,
                    });
                    continue;
                }
                if batching && !batch.open {
                    match self.store.begin_batch() {
                        Ok(()) => {
                            batch.open = true;
                            batch.since = std::time::Instant::now();
                        }
                        // each letter is then committed alone
                        Err(e) => warn!(error = %e, "cannot begin a batch of letters"),
                    }
                }
                match self
                    .office
                    .handle(&mut self.store, &m, &auth, self.clock.now())
                {
                    Ok(Handled::New { id, outcome }) => {
                        let judged = matches!(outcome, Outcome::Judged { .. });
                        info!(letter = id.0, mail = %m.id, message_id, outcome = ?outcome, "letter");
                        batch.held.push((m.id, Kept::New { judged }));
                    }
                    Ok(Handled::Seen(id)) => {
                        info!(letter = id.0, mail = %m.id, message_id, "seen before; not judged again");
                        batch.held.push((m.id, Kept::Seen));
                    }
                    Err(e) => {
                        // Nothing of it was kept; it stays in the mailbox and comes again.
                        p.unhandled += 1;
                        warn!(mail = %m.id, message_id, error = %e, "letter not handled; left in the mailbox");
                        // the failure may have cost the batch too: settle it now
                        self.end_batch(&mut batch, &mut p).await?;
                        continue;
                    }
                }
                if !batch.open
                    || batch.held.len() >= BATCH_LETTERS
                    || batch.since.elapsed() >= BATCH_TIME
                {
                    self.end_batch(&mut batch, &mut p).await?;
                }
            }
            self.end_batch(&mut batch, &mut p).await?;
        }
        self.keep_resume_point();
        match self.office.sweep(&mut self.store, self.clock.now()) {
            Ok(n) => p.deadlines = n,
            Err(e) => warn!(error = %e, "deadline sweep failed; will try again"),
        }
        let (sent, failed) = self.flush().await;
        p.sent = sent;
        p.send_failures = failed;
        p.waiting = self
            .store
            .read(|tx| tx.outbox_waiting())
            .map(|n| n as usize)
            .unwrap_or(0);
        let today = self
            .clock
            .now()
            .with_timezone(&self.office.config.time_zone)
            .date_naive();
        let all = self.site_all || self.site_day != Some(today);
        if p.letters + p.deadlines > 0 || all {
            self.publish(began, today, all);
        }
        Ok(p)
    }

    /// `[site] dir`: rewrites the public pages of the tournaments whose games changed since
    /// `since`, or every tournament's when `all` (the first pass, the first of a new day
    /// `today`, the first change after a failure). A failure is logged, with the folder and the
    /// tournament, and never stops the daemon; the pages are tried again after the next pass
    /// that changes something.
    fn publish(&mut self, since: DateTime<Utc>, today: NaiveDate, all: bool) {
        let Some(dir) = self.office.config.site.dir.clone() else {
            return;
        };
        if all {
            // Tried whole today: a failure is tried again on the next change, not every pass.
            self.site_day = Some(today);
        }
        let ids = if !all {
            match self.store.read(|tx| tx.tournaments_changed_since(since)) {
                Ok(ids) if ids.is_empty() => return,
                Ok(ids) => Some(ids),
                Err(e) => {
                    warn!(dir = %dir.display(), error = %e, "site: cannot tell which tournaments changed; the pages are not rewritten");
                    return;
                }
            }
        } else {
            None
        };
        match crate::site::publish(
            &self.store,
            &self.office.templates,
            &self.office.config,
            &dir,
            ids.as_deref(),
            self.clock.now(),
        ) {
            Ok((written, failed)) => {
                if written.changed > 0 {
                    info!(dir = %dir.display(), pages = written.pages, written = written.changed, "site");
                }
                for (cipher, e) in &failed {
                    warn!(dir = %dir.display(), tournament = %cipher, error = %e, "site: the tournament's pages are not written");
                }
                // After a failure every tournament's pages are written again on the next
                // pass that changes something.
                self.site_all = !failed.is_empty();
            }
            Err(e) => {
                self.site_all = true;
                warn!(dir = %dir.display(), error = %e, "site: the pages are not written");
            }
        }
    }

    /// Commits the open batch of letters, if any, and only then tells the mailbox that its
    /// letters are processed. When the batch cannot be committed nothing of it was kept:
    /// its letters stay in the mailbox and are judged on the next pass.
    ///
    /// # Errors
    /// [`MailError`] from marking a letter (the rest come again and are seen).
    async fn end_batch(&mut self, batch: &mut Batch, p: &mut Pass) -> Result<(), MailError> {
        if std::mem::take(&mut batch.open) {
            // SQLite may have rolled the batch back by itself (a full disk, an I/O error):
            // then nothing of it was kept, and there is nothing to commit.
            let kept = if self.store.in_batch() {
                self.store.commit_batch()
            } else {
                Err(crate::store::StoreError::Invalid {
                    what: "batch",
                    value: "rolled back by SQLite".to_owned(),
                })
            };
            if let Err(e) = kept {
                p.unhandled += batch.held.len();
                warn!(letters = batch.held.len(), error = %e, "a batch of letters could not be kept; they stay in the mailbox");
                batch.held.clear();
                return Ok(());
            }
        }
        for (id, kept) in batch.held.drain(..) {
            match kept {
                Kept::New { judged } => {
                    p.letters += 1;
                    p.judged += usize::from(judged);
                }
                Kept::Seen => p.seen += 1,
            }
            self.inbox.mark_processed(&id).await?;
        }
        Ok(())
    }

    /// Stores the inbox's resume point when it moved: once a pass, in a transaction of its
    /// own (a point kept late only makes the next start read a few processed letters again).
    fn keep_resume_point(&mut self) {
        let Some(p) = self.inbox.resume_point() else {
            return;
        };
        if self.kept.as_ref() == Some(&p) {
            return;
        }
        let state = MailboxState {
            uidvalidity: p.uid_validity,
            last_uid: p.last_uid,
        };
        let at = self.clock.now();
        match self
            .store
            .with_transaction(|tx| tx.set_mailbox_state(&p.key, state, at))
        {
            Ok(()) => self.kept = Some(p),
            Err(e) => {
                warn!(mailbox = %p.key, error = %e, "cannot keep where the mailbox was read up to; the next start reads more")
            }
        }
    }

    /// Sends everything the outbox has due, in the order it was queued. A letter the server
    /// refuses ([`SendFailure::Refused`]) is given up; one it cannot take now
    /// ([`SendFailure::Later`]) is retried later with backoff; when the server cannot be
    /// used at all ([`SendFailure::ServerDown`]: down, the login refused, TLS) the letter is
    /// retried with backoff and the rest of the outbox is put off to the same moment, so
    /// that nothing is given up for it however long it lasts, and every failure is logged.
    ///
    /// An outbox that makes letters durable only at [`Outbox::sync`] (a Maildir) has each
    /// batch synced once and recorded as sent in one transaction after that; a crash before
    /// the record sends those letters again, and the Maildir keeps one file per Message-ID.
    async fn flush(&mut self) -> (usize, usize) {
        const BATCH: usize = 200;
        let (mut sent, mut failed) = (0, 0);
        let holds = self.outbox.holds_until_sync();
        loop {
            let now = self.clock.now();
            let due = match self.store.read(|tx| tx.due_outgoing(now, BATCH)) {
                Ok(d) => d,
                Err(e) => {
                    // one letter that cannot be read back must not stop the whole outbox
                    if self.set_aside_damaged(now, BATCH) > 0 {
                        failed += 1;
                        continue;
                    }
                    warn!(error = %e, "cannot read the outbox");
                    return (sent, failed);
                }
            };
            if due.is_empty() {
                return (sent, failed);
            }
            let mut held: Vec<LetterOutId> = Vec::new();
            let mut stop = false;
            for l in due {
                let mail = OutgoingMail {
                    envelope_from: l.envelope_from.clone(),
                    recipients: l.recipients.clone(),
                    raw: l.raw.clone(),
                    message_id: l.message_id.clone(),
                };
                let result = self.outbox.send(&mail).await;
                let at = self.clock.now();
                if holds && result.is_ok() {
                    held.push(l.id);
                    continue;
                }
                let failure = result.as_ref().err().map(MailError::send_failure);
                let recorded = self.store.with_transaction(|tx| match (&result, failure) {
                    (Ok(()), _) => tx.mark_sent(l.id, at).map(|()| None),
                    (Err(e), Some(SendFailure::Refused)) => {
                        tx.give_up(l.id, &e.to_string(), at).map(|()| None)
                    }
                    (Err(e), Some(SendFailure::ServerDown)) => {
                        let next = tx.mark_failed(l.id, &e.to_string(), at)?;
                        tx.defer_outgoing(next)?;
                        Ok(Some(next))
                    }
                    (Err(e), _) => tx.mark_failed(l.id, &e.to_string(), at).map(Some),
                });
                let next = match recorded {
                    Ok(next) => next,
                    Err(e) => {
                        warn!(letter = l.id.0, error = %e, "cannot record the sending");
                        // without the record the same letter would be tried again at once
                        failed += usize::from(result.is_err());
                        stop = true;
                        break;
                    }
                };
                let Err(e) = result else {
                    sent += 1;
                    continue;
                };
                failed += 1;
                let waiting_h = (at - l.created).num_hours();
                let next = next.map(|t| t.to_rfc3339()).unwrap_or_default();
                match failure {
                    Some(SendFailure::Refused) => {
                        warn!(letter = l.id.0, message_id = %l.message_id, to = ?l.recipients, error = %e, "the server refused the letter; given up")
                    }
                    Some(SendFailure::Later) => {
                        warn!(letter = l.id.0, message_id = %l.message_id, to = ?l.recipients, attempts = l.attempts + 1, waiting_h, next, error = %e, "sending failed; will retry")
                    }
                    _ => {
                        if waiting_h >= 24 {
                            error!(letter = l.id.0, message_id = %l.message_id, attempts = l.attempts + 1, waiting_h, next, error = %e, "the mail server has been unusable for a day or more; the outbox waits")
                        } else {
                            warn!(letter = l.id.0, message_id = %l.message_id, attempts = l.attempts + 1, waiting_h, next, error = %e, "the mail server cannot be used; the outbox waits")
                        }
                        stop = true;
                        break;
                    }
                }
            }
            let (ok, not) = self.settle(&held).await;
            sent += ok;
            failed += not;
            if stop || not > 0 {
                return (sent, failed);
            }
        }
    }

    /// Gives up, with the reason, each due letter that cannot be read back from the database
    /// (its stored bytes damaged: it could never be sent), so that the rest are sent; each is
    /// logged as an error for the admin, and stays in the archive. Returns how many.
    fn set_aside_damaged(&mut self, now: DateTime<Utc>, limit: usize) -> usize {
        let Ok(ids) = self.store.read(|tx| tx.due_outgoing_ids(now, limit)) else {
            return 0;
        };
        let mut set_aside = 0;
        for id in ids {
            let Err(e) = self.store.read(|tx| tx.letter_out(id)) else {
                continue;
            };
            if !e.is_damaged_value() {
                // SQLite or the disk failing is not the letter's fault: it waits
                continue;
            }
            let cause = std::error::Error::source(&e).map_or_else(String::new, |c| c.to_string());
            let reason = format!("damaged in the database, cannot be sent: {e}: {cause}");
            match self
                .store
                .with_transaction(|tx| tx.give_up(id, &reason, now))
            {
                Ok(()) => {
                    error!(letter = id.0, %reason, "a letter in the outbox cannot be read back from the database (its stored bytes are damaged); given up and kept, the rest are sent");
                    set_aside += 1;
                }
                Err(e2) => {
                    warn!(letter = id.0, error = %e2, "cannot set aside a damaged letter");
                }
            }
        }
        set_aside
    }

    /// Syncs the letters the outbox holds and records them as sent in one transaction;
    /// when the sync fails they are recorded as failed, to be sent again after the backoff.
    /// Returns (sent, failed).
    async fn settle(&mut self, held: &[LetterOutId]) -> (usize, usize) {
        if held.is_empty() {
            return (0, 0);
        }
        let synced = self.outbox.sync().await;
        let at = self.clock.now();
        let recorded = self.store.with_transaction(|tx| {
            for &id in held {
                match &synced {
                    Ok(()) => tx.mark_sent(id, at)?,
                    Err(e) => {
                        tx.mark_failed(id, &e.to_string(), at)?;
                    }
                }
            }
            Ok::<_, crate::store::StoreError>(())
        });
        if let Err(e) = &recorded {
            // Unrecorded, the letters go again on the next pass; the Maildir keeps one file
            // per Message-ID, so none is doubled.
            warn!(letters = held.len(), error = %e, "cannot record the sending");
        }
        match synced {
            Ok(()) if recorded.is_ok() => (held.len(), 0),
            Ok(()) => (0, held.len()),
            Err(e) => {
                warn!(letters = held.len(), error = %e, "the outbox could not be synced; those letters go again later");
                (0, held.len())
            }
        }
    }

    /// Until the next outgoing retry or the next deadline day, at most `max_wait`.
    fn wait_time(&self) -> Duration {
        let now = self.clock.now();
        let mut wait = self.max_wait;
        if let Some(next) = self.waiting.iter().map(|w| w.next).min() {
            wait = wait.min(next.saturating_duration_since(tokio::time::Instant::now()));
        }
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

    /// These tests are about stopping, not senders: the address alone is believed.
    fn daemon(mailbox: &MemoryMailbox) -> Daemon<AnyInbox, AnyOutbox> {
        let mut config = Config::default();
        config.auth.senders = crate::config::Senders::Address;
        Daemon::new(
            Office::new(config),
            Store::open_in_memory().unwrap(),
            AnyInbox::Memory(mailbox.clone()),
            AnyOutbox::Memory(mailbox.clone()),
            Clock::Fixed(Utc::now()),
            Duration::from_secs(3600),
        )
        .unwrap()
    }

    #[tokio::test]
    async fn with_a_site_folder_a_pass_that_changed_a_tournament_rewrites_its_pages() {
        use crate::site::tests::{BLACK, CIPHER, WHITE, at, config, letter, started};
        let site = tempfile::tempdir().unwrap();
        let mailbox = MemoryMailbox::new();
        let mut config = config();
        config.site.dir = Some(site.path().to_owned());
        let office = Office::new(config);
        let mut store = Store::open_in_memory().unwrap();
        started(&office, &mut store, "russian");
        let mut d = Daemon::new(
            office,
            store,
            AnyInbox::Memory(mailbox.clone()),
            AnyOutbox::Memory(mailbox.clone()),
            Clock::Fixed(at("2026-12-02")),
            Duration::from_secs(3600),
        )
        .unwrap();
        let folder = site.path().join(CIPHER);
        let (index, game) = (folder.join("index.html"), folder.join("game-1.html"));
        // The first pass writes every tournament's pages, changed or not.
        d.pass(&mut Stop::never()).await.unwrap();
        assert!(
            std::fs::read_to_string(&game)
                .unwrap()
                .contains("Ходов ещё не было.")
        );
        // A pass that changes nothing writes nothing.
        std::fs::remove_file(&index).unwrap();
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.letters + pass.deadlines, 0);
        assert!(!index.exists(), "nothing changed, nothing written");
        // The first pass of a new day writes every page again: White's clock runs on.
        d.clock = Clock::Fixed(at("2026-12-03"));
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.letters + pass.deadlines, 0, "{pass:?}");
        assert!(index.is_file(), "a new day: the pages written again");
        assert!(
            std::fs::read_to_string(&game)
                .unwrap()
                .contains("03.12.2026"),
            "the page is as of the new day"
        );
        // The same day again writes nothing.
        std::fs::remove_file(&index).unwrap();
        d.pass(&mut Stop::never()).await.unwrap();
        assert!(
            !index.exists(),
            "the same day, nothing changed, nothing written"
        );
        // A move: the tournament's pages are rewritten.
        let raw =
            |n, from, body| String::from_utf8(letter(n, from, "2026-12-02", body).raw).unwrap();
        mailbox.push(raw(1, WHITE, "Мой ход: 1. c3-d4"), at("2026-12-02"));
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.judged, 1, "{pass:?}");
        let page = std::fs::read_to_string(&game).unwrap();
        assert!(page.contains("<p class=\"record\">1.cd4</p>"), "{page}");
        assert!(
            index.is_file(),
            "the index of the changed tournament is written again"
        );
        // Pages that cannot be written are logged; the daemon goes on judging letters.
        std::fs::remove_dir_all(&folder).unwrap();
        std::fs::write(&folder, "not a folder").unwrap();
        mailbox.push(
            raw(2, BLACK, "Ваш ход: 1. c3-d4\r\nМой ход: 1... f6-g5"),
            at("2026-12-02"),
        );
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.judged, 1, "{pass:?}");
        // Once the folder can be written again, the next change writes the pages whole.
        std::fs::remove_file(&folder).unwrap();
        mailbox.push(
            raw(3, WHITE, "Ваш ход: 1... f6-g5\r\nМой ход: 2. b2-c3"),
            at("2026-12-02"),
        );
        d.pass(&mut Stop::never()).await.unwrap();
        let page = std::fs::read_to_string(&game).unwrap();
        assert!(
            page.contains("<p class=\"record\">1.cd4 fg5 2.bc3</p>"),
            "{page}"
        );
        assert!(index.is_file());
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

    #[tokio::test]
    async fn held_letters_are_recorded_as_sent_only_after_the_outbox_syncs_once_for_them() {
        let mailbox = MemoryMailbox::new();
        mailbox.hold_until_sync(true);
        for n in 0..3 {
            mailbox.push(letter(n), Utc::now());
        }
        let mut d = daemon(&mailbox);
        d.pass(&mut Stop::never()).await.unwrap();
        let due = |d: &Daemon<_, _>| {
            d.store
                .read(|tx| tx.due_outgoing(Utc::now() + chrono::Duration::days(1), 100))
                .unwrap()
        };
        // The sync failed: nothing is recorded as sent, every letter waits for a retry.
        let waiting = due(&d);
        assert_eq!(waiting.len(), 3, "three short answers, all still due");
        assert!(waiting.iter().all(|l| l.attempts == 1), "{waiting:?}");
        assert_eq!(mailbox.syncs(), 0);
        // The folder syncs again: one sync for the batch, and each letter recorded once.
        mailbox.hold_until_sync(false);
        d.clock = Clock::Fixed(Utc::now() + chrono::Duration::days(1));
        d.pass(&mut Stop::never()).await.unwrap();
        assert!(due(&d).is_empty());
        assert_eq!(mailbox.syncs(), 1);
    }

    #[tokio::test]
    async fn a_backlog_is_committed_in_one_batch_before_the_mailbox_is_told_and_one_letter_alone_at_once()
     {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("z.sqlite");
        let mailbox = MemoryMailbox::new();
        let mut d = daemon(&mailbox);
        d.store = Store::open(&path).unwrap();
        // At each mark, how many letters another connection sees committed.
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (look, at_mark) = (Store::open(&path).unwrap(), seen.clone());
        let look = std::sync::Mutex::new(look);
        mailbox.on_mark(move |_| {
            let n = look
                .lock()
                .unwrap()
                .read(|tx| tx.totals())
                .unwrap()
                .letters_in;
            at_mark.lock().unwrap().push(n);
        });
        for n in 0..5 {
            mailbox.push(letter(n), Utc::now());
        }
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.letters, pass.sent), (5, 5), "{pass:?}");
        assert!(mailbox.unprocessed().is_empty());
        assert_eq!(
            *seen.lock().unwrap(),
            [5, 5, 5, 5, 5],
            "one commit, then the marks"
        );
        // One letter alone: committed and marked at once.
        seen.lock().unwrap().clear();
        mailbox.push(letter(5), Utc::now());
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.letters, 1);
        assert_eq!(*seen.lock().unwrap(), [6]);
        // The same letters again (a new connection): seen, none judged twice, all marked.
        mailbox.forget_fetched();
        for n in 0..3 {
            mailbox.push(letter(n), Utc::now());
        }
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.letters, pass.seen), (0, 3), "{pass:?}");
        assert!(mailbox.unprocessed().is_empty());
    }

    #[tokio::test]
    async fn one_pass_handles_the_whole_backlog_past_every_batch_size() {
        let dir = tempfile::tempdir().unwrap();
        let maildir = crate::mail::maildir::Maildir::open(dir.path())
            .unwrap()
            .with_max_per_fetch(100);
        for n in 0..450 {
            maildir.deliver_to_inbox(letter(n).as_bytes()).unwrap();
        }
        let mailbox = MemoryMailbox::new();
        let mut d = daemon(&mailbox);
        d.inbox = AnyInbox::Maildir(maildir);
        let pass = d.run(true, std::future::pending()).await.unwrap();
        assert_eq!(pass.letters, 450, "{pass:?}");
        assert_eq!(
            pass.sent, 450,
            "one answer each, past the batch of 200: {pass:?}"
        );
        assert_eq!(pass.waiting, 0);
        assert_eq!(mailbox.sent().len(), 450);
    }

    #[tokio::test]
    async fn a_server_down_puts_off_the_outbox_and_gives_nothing_up_and_a_5xx_gives_up_one() {
        use crate::mail::memory::Failure;
        let mailbox = MemoryMailbox::new();
        for n in 0..5 {
            mailbox.push(letter(n), Utc::now());
        }
        mailbox.fail_sends(Some(Failure::Transient));
        let mut d = daemon(&mailbox);
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.letters, pass.sent, pass.send_failures), (5, 0, 1));
        assert_eq!(mailbox.send_attempts(), 1, "the rest waits for the server");
        let summary = d.store.read(|tx| tx.mail_summary()).unwrap();
        assert_eq!((summary.waiting, summary.given_up), (5, 0), "{summary:?}");
        // the next pass before the retry tries nothing
        d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(mailbox.send_attempts(), 1);
        // an hour later the server is back: everything goes, in the order queued
        mailbox.fail_sends(None);
        d.clock = Clock::Fixed(d.clock.now() + chrono::TimeDelta::hours(1));
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.sent, 5);
        let to: Vec<String> = mailbox
            .sent()
            .iter()
            .map(|m| m.recipients[0].clone())
            .collect();
        let want: Vec<String> = (0..5).map(|n| format!("stranger{n}@example.com")).collect();
        assert_eq!(to, want);

        // a letter the server refuses is given up alone
        mailbox.push(letter(7), Utc::now());
        mailbox.fail_sends(Some(Failure::Permanent));
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.send_failures, 1);
        let summary = d.store.read(|tx| tx.mail_summary()).unwrap();
        assert_eq!((summary.waiting, summary.given_up), (0, 1), "{summary:?}");
    }

    #[tokio::test]
    async fn a_letter_damaged_in_the_database_is_given_up_alone_and_the_rest_are_sent() {
        use crate::mail::memory::Failure;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("z.sqlite");
        let mailbox = MemoryMailbox::new();
        let mut d = daemon(&mailbox);
        d.store = Store::open(&path).unwrap();
        for n in 0..3 {
            mailbox.push(letter(n), Utc::now());
        }
        // the answers wait in the outbox while the server is down
        mailbox.fail_sends(Some(Failure::Transient));
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.letters, pass.sent), (3, 0), "{pass:?}");
        // the second answer's stored bytes are damaged on the disk
        let damaged: i64 = {
            let c = rusqlite::Connection::open(&path).unwrap();
            let id = c
                .query_row(
                    "SELECT id FROM letters_out ORDER BY id LIMIT 1 OFFSET 1",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            c.execute(
                "UPDATE letters_out SET raw = x'789c0000' WHERE id = ?1",
                [id],
            )
            .unwrap();
            id
        };
        mailbox.fail_sends(None);
        d.clock = Clock::Fixed(d.clock.now() + chrono::TimeDelta::hours(1));
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.sent, 2, "the other two go: {pass:?}");
        let to: Vec<String> = mailbox
            .sent()
            .iter()
            .map(|m| m.recipients[0].clone())
            .collect();
        assert_eq!(to, ["stranger0@example.com", "stranger2@example.com"]);
        let summary = d.store.read(|tx| tx.mail_summary()).unwrap();
        assert_eq!((summary.waiting, summary.given_up), (0, 1), "{summary:?}");
        // given up with the reason, and still in the archive
        let reason: String = rusqlite::Connection::open(&path)
            .unwrap()
            .query_row(
                "SELECT last_error FROM letters_out WHERE id = ?1 AND gave_up_at IS NOT NULL",
                [damaged],
                |r| r.get(0),
            )
            .unwrap();
        assert!(
            reason.starts_with("damaged in the database") && reason.contains("zlib stream"),
            "{reason}"
        );
        // the next pass has nothing left to do and does not stop on it
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!(pass.sent, 0, "{pass:?}");
    }

    #[tokio::test]
    async fn a_missing_outbox_folder_keeps_the_letters_waiting_until_it_is_back() {
        let dir = tempfile::tempdir().unwrap();
        let maildir = crate::mail::maildir::Maildir::open(dir.path()).unwrap();
        let mailbox = MemoryMailbox::new();
        mailbox.push(letter(1), Utc::now());
        let mut d = daemon(&mailbox);
        d.outbox = AnyOutbox::Maildir(maildir.clone());
        std::fs::remove_dir_all(maildir.outbox_dir()).unwrap();
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.sent, pass.send_failures, pass.waiting), (0, 1, 1));
        let summary = d.store.read(|tx| tx.mail_summary()).unwrap();
        assert_eq!(
            summary.given_up, 0,
            "never given up for a folder: {summary:?}"
        );
        crate::mail::maildir::Maildir::open(dir.path()).unwrap();
        d.clock = Clock::Fixed(d.clock.now() + chrono::TimeDelta::minutes(2));
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.sent, pass.waiting), (1, 0));
        assert_eq!(
            std::fs::read_dir(maildir.outbox_dir().join("new"))
                .unwrap()
                .count(),
            1
        );
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

    const PLAYERS_RSA: &str = include_str!("../tests/data/auth/players.rsa.pem");

    #[tokio::test(start_paused = true)]
    async fn a_letter_whose_key_lookup_fails_waits_in_the_mailbox_and_is_judged_once_the_dns_answers()
     {
        use crate::mail::auth::{DnsTable, Signer, Verifier};
        let signer = Signer::rsa_pem("example.com", "s1", PLAYERS_RSA).unwrap();
        let mailbox = MemoryMailbox::new();
        let now = Utc::now();
        mailbox.push(signer.sign(letter(1).as_bytes()).unwrap(), now);
        let mut d = daemon(&mailbox);
        d.office.config.auth.senders = crate::config::Senders::Dkim;
        let mut broken = DnsTable::default();
        broken.fail("s1._domainkey.example.com");
        d.verifier = Verifier::with_table(&d.office.config.auth, broken).unwrap();

        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.letters, pass.waiting_for_dns), (0, 1));
        assert_eq!(mailbox.unprocessed().len(), 1, "not marked processed");
        assert!(
            d.store
                .read(|tx| tx.letter_in(crate::store::LetterInId(1)))
                .is_err(),
            "nothing stored"
        );
        // Not due yet: the next pass leaves it waiting.
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.letters, d.waiting()), (0, 1));

        // The DNS answers again; after the retry delay the letter is handled, once.
        let mut fixed = DnsTable::default();
        let record = signer.dns_record();
        let (name, text) = record.split_once(' ').unwrap();
        fixed.insert(name, text);
        d.verifier = Verifier::with_table(&d.office.config.auth, fixed).unwrap();
        tokio::time::advance(Duration::from_secs(61)).await;
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.letters, pass.waiting_for_dns), (1, 0));
        assert!(mailbox.unprocessed().is_empty());
        assert_eq!(
            mailbox.sent().len(),
            1,
            "the stranger's signed letter is answered"
        );
    }

    #[tokio::test]
    async fn a_letter_the_dns_never_answers_for_is_handled_as_not_proven_after_five_days() {
        use crate::mail::auth::{DnsTable, Signer, Verifier};
        let signer = Signer::rsa_pem("example.com", "s1", PLAYERS_RSA).unwrap();
        let mailbox = MemoryMailbox::new();
        let now = Utc::now();
        mailbox.push(
            signer.sign(letter(1).as_bytes()).unwrap(),
            now - GIVE_UP_AFTER,
        );
        let mut d = daemon(&mailbox);
        d.office.config.auth.senders = crate::config::Senders::Dkim;
        let mut broken = DnsTable::default();
        broken.fail("s1._domainkey.example.com");
        d.verifier = Verifier::with_table(&d.office.config.auth, broken).unwrap();
        d.clock = Clock::Fixed(now);
        let pass = d.pass(&mut Stop::never()).await.unwrap();
        assert_eq!((pass.letters, pass.waiting_for_dns), (1, 0));
        assert!(mailbox.unprocessed().is_empty());
        assert!(
            mailbox.sent().is_empty(),
            "an unknown, unproven sender is never answered"
        );
        let stored = d
            .store
            .read(|tx| tx.letter_in(crate::store::LetterInId(1)))
            .unwrap();
        assert!(stored.auth.unwrap().contains("temperror"));
    }
}
