//! In-memory [`Inbox`] and [`Outbox`] for the daemon's tests.
//!
//! [`MemoryMailbox`] is a handle on shared state: clone it, give one clone to the daemon and
//! keep the other to push letters in, read what was sent, and make sending fail for a while
//! (an SMTP server that is down). Waiting uses tokio's clock, so `tokio::time::pause()` works.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::Notify;

use super::{Inbox, IncomingMail, MailError, MailId, Outbox, OutgoingMail};

/// A shared in-memory mailbox; implements both [`Inbox`] and [`Outbox`].
#[derive(Debug, Clone, Default)]
pub struct MemoryMailbox {
    state: Arc<Mutex<State>>,
    arrived: Arc<Notify>,
}

#[derive(Debug, Default)]
struct State {
    next_id: u64,
    /// Letters in, with "processed" and "already returned by fetch_new" (until
    /// `forget_fetched`).
    inbox: Vec<(IncomingMail, bool, bool)>,
    sent: Vec<OutgoingMail>,
    send_failure: Option<Failure>,
    send_attempts: u64,
    /// Letters count as safe only after [`Outbox::sync`], as a Maildir's do.
    holds_until_sync: bool,
    /// Every sync fails (transient).
    sync_fails: bool,
    /// Successful syncs.
    syncs: u64,
    /// Called with each letter as it is marked processed.
    on_mark: Option<OnMark>,
}

/// A test's look at the world at the moment a letter is marked processed.
#[derive(Clone)]
struct OnMark(Arc<dyn Fn(&MailId) + Send + Sync>);

impl std::fmt::Debug for OnMark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnMark")
    }
}

/// How [`MemoryMailbox::fail_sends`] makes sending fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// As if the SMTP server were down (a transient error).
    Transient,
    /// As if the SMTP server refused the letter with a 5xx (a permanent error).
    Permanent,
}

impl MemoryMailbox {
    /// An empty mailbox.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // a test that panicked while holding the lock has failed anyway; keep the state usable
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts a letter into the inbox, received at `received`; returns its id.
    pub fn push(&self, raw: impl Into<Vec<u8>>, received: DateTime<Utc>) -> MailId {
        let id = {
            let mut state = self.lock();
            state.next_id += 1;
            let id = MailId::Memory(state.next_id);
            state.inbox.push((
                IncomingMail {
                    id: id.clone(),
                    raw: raw.into(),
                    received,
                },
                false,
                false,
            ));
            id
        };
        self.arrived.notify_waiters();
        id
    }

    /// Ids of the letters not yet marked processed, in arrival order.
    pub fn unprocessed(&self) -> Vec<MailId> {
        self.lock()
            .inbox
            .iter()
            .filter(|(_, processed, _)| !processed)
            .map(|(m, ..)| m.id.clone())
            .collect()
    }

    /// As if the daemon restarted: every unprocessed letter is fetched again.
    pub fn forget_fetched(&self) {
        for (_, _, returned) in &mut self.lock().inbox {
            *returned = false;
        }
    }

    /// Every letter sent so far, in order.
    pub fn sent(&self) -> Vec<OutgoingMail> {
        self.lock().sent.clone()
    }

    /// Takes the letters sent so far, leaving none.
    pub fn take_sent(&self) -> Vec<OutgoingMail> {
        std::mem::take(&mut self.lock().sent)
    }

    /// How many times [`Outbox::send`] was called, failed calls included.
    pub fn send_attempts(&self) -> u64 {
        self.lock().send_attempts
    }

    /// From now on every send fails this way (`None`: sending works again).
    pub fn fail_sends(&self, failure: Option<Failure>) {
        self.lock().send_failure = failure;
    }

    /// Makes the outbox hold letters until [`Outbox::sync`], as a Maildir does, and every
    /// sync fail (`fails`) or work.
    pub fn hold_until_sync(&self, fails: bool) {
        let mut state = self.lock();
        state.holds_until_sync = true;
        state.sync_fails = fails;
    }

    /// How many syncs succeeded.
    pub fn syncs(&self) -> u64 {
        self.lock().syncs
    }

    /// Calls `f` with each letter as it is marked processed, before it is marked: a test
    /// sees there what was committed by then.
    pub fn on_mark(&self, f: impl Fn(&MailId) + Send + Sync + 'static) {
        self.lock().on_mark = Some(OnMark(Arc::new(f)));
    }
}

impl Inbox for MemoryMailbox {
    async fn fetch_new(&mut self) -> Result<Vec<IncomingMail>, MailError> {
        let mut state = self.lock();
        Ok(state
            .inbox
            .iter_mut()
            .filter(|(_, processed, returned)| !processed && !returned)
            .map(|(mail, _, returned)| {
                *returned = true;
                mail.clone()
            })
            .collect())
    }

    async fn mark_processed(&mut self, id: &MailId) -> Result<(), MailError> {
        let hook = self.lock().on_mark.clone();
        if let Some(OnMark(f)) = hook {
            f(id);
        }
        let mut state = self.lock();
        let letter = state.inbox.iter_mut().find(|(m, ..)| &m.id == id);
        match letter {
            Some((_, processed, _)) => {
                *processed = true;
                Ok(())
            }
            None => Err(MailError::NotFound { id: id.clone() }),
        }
    }

    async fn wait_for_mail(&mut self, max: Duration) -> Result<(), MailError> {
        let notified = self.arrived.notified();
        tokio::pin!(notified);
        // register before looking, so a push between the look and the wait is not missed
        notified.as_mut().enable();
        let has_new = self
            .lock()
            .inbox
            .iter()
            .any(|(_, processed, returned)| !processed && !returned);
        if !has_new {
            let _ = tokio::time::timeout(max, notified).await;
        }
        Ok(())
    }
}

impl Outbox for MemoryMailbox {
    async fn send(&mut self, mail: &OutgoingMail) -> Result<(), MailError> {
        let mut state = self.lock();
        state.send_attempts += 1;
        match state.send_failure {
            None => {
                state.sent.push(mail.clone());
                Ok(())
            }
            Some(failure) => {
                let transient = failure == Failure::Transient;
                Err(MailError::Smtp {
                    server: "memory".into(),
                    code: Some(if transient { 421 } else { 550 }),
                    reason: if transient {
                        "service not available (simulated)".into()
                    } else {
                        "mailbox unavailable (simulated)".into()
                    },
                    transient,
                })
            }
        }
    }

    fn holds_until_sync(&self) -> bool {
        self.lock().holds_until_sync
    }

    async fn sync(&mut self) -> Result<(), MailError> {
        let mut state = self.lock();
        if state.sync_fails {
            return Err(MailError::Deliver {
                path: "memory/outbox".into(),
                source: std::io::Error::other("sync failed (simulated)"),
            });
        }
        state.syncs += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(day: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 10, day, 9, 0, 0).unwrap()
    }

    fn outgoing() -> OutgoingMail {
        OutgoingMail {
            envelope_from: "zaochka@localhost".into(),
            recipients: vec!["bob@players.test".into()],
            raw: b"Subject: x\r\n\r\ny\r\n".to_vec(),
            message_id: "m1@zaochka".into(),
        }
    }

    #[tokio::test]
    async fn a_test_pushes_letters_and_the_daemon_side_fetches_them_until_processed() {
        let test_side = MemoryMailbox::new();
        let mut daemon_side = test_side.clone();
        let id = test_side.push(&b"hello"[..], at(8));
        let got = daemon_side.fetch_new().await.unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].received, at(8));
        assert!(
            daemon_side.fetch_new().await.unwrap().is_empty(),
            "not twice"
        );
        test_side.forget_fetched(); // a restart
        assert_eq!(daemon_side.fetch_new().await.unwrap().len(), 1);
        daemon_side.mark_processed(&id).await.unwrap();
        test_side.forget_fetched();
        assert!(daemon_side.fetch_new().await.unwrap().is_empty());
        assert!(test_side.unprocessed().is_empty());
    }

    #[tokio::test]
    async fn sends_fail_while_the_server_is_down_and_nothing_is_recorded() {
        let test_side = MemoryMailbox::new();
        let mut daemon_side = test_side.clone();
        test_side.fail_sends(Some(Failure::Transient));
        let err = daemon_side.send(&outgoing()).await.unwrap_err();
        assert!(err.is_transient());
        test_side.fail_sends(Some(Failure::Permanent));
        assert!(
            !daemon_side
                .send(&outgoing())
                .await
                .unwrap_err()
                .is_transient()
        );
        test_side.fail_sends(None);
        daemon_side.send(&outgoing()).await.unwrap();
        assert_eq!(test_side.send_attempts(), 3);
        assert_eq!(test_side.take_sent(), vec![outgoing()]);
        assert!(test_side.sent().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn waiting_ends_on_a_push_or_after_max_on_the_paused_clock() {
        let test_side = MemoryMailbox::new();
        let mut daemon_side = test_side.clone();
        let started = tokio::time::Instant::now();
        daemon_side
            .wait_for_mail(Duration::from_secs(3600))
            .await
            .unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(3600));

        let pusher = test_side.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(5)).await;
            pusher.push(&b"x"[..], at(9));
        });
        let started = tokio::time::Instant::now();
        daemon_side
            .wait_for_mail(Duration::from_secs(3600))
            .await
            .unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(5));
    }
}
