//! The embedded default transport: two Maildirs under one folder, no server needed.
//!
//! `PATH/inbox` is read: letters delivered to `inbox/new` (and letters in `inbox/cur` without
//! the `S` flag) are fetched; a processed letter is moved to `inbox/cur/<unique>:2,S`.
//! `PATH/outbox` is written: every letter zaochka sends is written to `outbox/tmp` and renamed
//! into `outbox/new` (the Maildir delivery rule: a reader never sees a half-written file).
//!
//! The postmark of a letter is its file's modification time (when it was delivered), unless
//! the transport was given a received override (the CLI's `--now`): then every letter found is
//! received at that moment, so scripts and tests drive months of play in seconds.
//!
//! Only regular files are letters. A directory, FIFO, socket, device, symbolic link (never
//! followed: files are opened with `O_NOFOLLOW`, and `O_NONBLOCK` so that a FIFO put in a
//! file's place cannot hang the daemon), a name that is not UTF-8, or a file that cannot be
//! read is skipped and logged once; the rest of the mail goes on ([`Inbox::skipped`] counts
//! them for `run --once`'s summary).

use std::collections::{HashMap, HashSet, VecDeque};
use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Utc};

use super::{Inbox, IncomingMail, MailError, MailId, Outbox, OutgoingMail};

/// The two Maildirs of the embedded transport; implements [`Inbox`] and [`Outbox`].
#[derive(Debug, Clone)]
pub struct Maildir {
    root: PathBuf,
    received_override: Option<DateTime<Utc>>,
    poll: Duration,
    /// Letters already returned by `fetch_new` (unique name → path), so that `wait_for_mail`
    /// wakes only for letters that are really new and `mark_processed` finds the file without
    /// listing the folder.
    seen: HashMap<String, PathBuf>,
    max_per_fetch: usize,
    /// Entries of the inbox that are not letters, already logged (logged once each).
    logged: HashSet<OsString>,
    /// How many entries the last look at the inbox skipped.
    skipped: usize,
    /// Regular files that could not be read (unique names): tried again at every fetch, but
    /// they do not wake [`Inbox::wait_for_mail`].
    unreadable: HashSet<String>,
    /// A letter was renamed into `outbox/new` since the folder was last synced.
    unsynced: bool,
    /// The rest of the last listing of the inbox, oldest first, not yet returned: a backlog
    /// is listed once, not once a fetch (which cost a listing and a stat of every waiting
    /// letter for every 500 letters judged).
    pending: VecDeque<(String, PathBuf, SystemTime)>,
}

impl Maildir {
    /// Opens (and creates when missing) `root/inbox` and `root/outbox` with their `new`, `cur`
    /// and `tmp` folders.
    ///
    /// # Errors
    /// [`MailError::Io`] when a folder cannot be created.
    pub fn open(root: impl Into<PathBuf>) -> Result<Self, MailError> {
        let root = root.into();
        for side in ["inbox", "outbox"] {
            for sub in ["new", "cur", "tmp"] {
                let dir = root.join(side).join(sub);
                fs::create_dir_all(&dir).map_err(|source| MailError::Io { path: dir, source })?;
            }
        }
        Ok(Maildir {
            root,
            received_override: None,
            poll: Duration::from_millis(500),
            seen: HashMap::new(),
            max_per_fetch: 500,
            logged: HashSet::new(),
            skipped: 0,
            unreadable: HashSet::new(),
            pending: VecDeque::new(),
            unsynced: false,
        })
    }

    /// With `Some(at)`, every letter fetched is received at `at` instead of its file's
    /// modification time (the CLI's `--now`).
    pub fn with_received_override(mut self, at: Option<DateTime<Utc>>) -> Self {
        self.received_override = at;
        self
    }

    /// How often [`Inbox::wait_for_mail`] looks at the inbox (default 0.5 s).
    pub fn with_poll_interval(mut self, poll: Duration) -> Self {
        self.poll = poll.max(Duration::from_millis(10));
        self
    }

    /// At most this many letters per [`Inbox::fetch_new`], oldest first (default 500): a full
    /// inbox is read in parts rather than all in memory at once.
    pub fn with_max_per_fetch(mut self, max: usize) -> Self {
        self.max_per_fetch = max.max(1);
        self
    }

    /// The inbox Maildir (`root/inbox`).
    pub fn inbox_dir(&self) -> PathBuf {
        self.root.join("inbox")
    }

    /// The outbox Maildir (`root/outbox`).
    pub fn outbox_dir(&self) -> PathBuf {
        self.root.join("outbox")
    }

    /// Delivers a letter into the inbox as a mail server would (tests and the demo use it).
    ///
    /// # Errors
    /// [`MailError::Io`].
    pub fn deliver_to_inbox(&self, raw: &[u8]) -> Result<PathBuf, MailError> {
        let path = deliver(&self.inbox_dir(), raw, None)?;
        sync_dir(&self.inbox_dir().join("new"))?;
        Ok(path)
    }

    /// Letters waiting in the inbox: `(unique name, path)` of `new/*` and of `cur/*` without
    /// the `S` flag, oldest first. Entries that are not regular files, or whose names are not
    /// UTF-8, are skipped and logged once.
    fn unprocessed(&mut self) -> Result<Vec<(String, PathBuf, SystemTime)>, MailError> {
        let inbox = self.inbox_dir();
        let mut found = Vec::new();
        let mut skipped = Vec::new();
        for sub in ["new", "cur"] {
            let listing = list_all(&inbox.join(sub))?;
            skipped.extend(listing.skipped);
            for (name, path) in listing.files {
                let (unique, flags) = split_info(&name);
                if sub == "cur" && flags.contains('S') {
                    continue;
                }
                // lstat: a symbolic link put in the file's place is not followed
                let modified = match fs::symlink_metadata(&path).and_then(|m| m.modified()) {
                    Ok(t) => t,
                    // moved away between the listing and now: it is not waiting any more
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => {
                        skipped.push((path, format!("cannot be read: {e}")));
                        continue;
                    }
                };
                found.push((unique.to_owned(), path, modified));
            }
        }
        self.skipped = skipped.len();
        for (path, reason) in skipped {
            self.skip(&path, &reason);
        }
        found.sort_by(|a, b| (a.2, &a.0).cmp(&(b.2, &b.0)));
        Ok(found)
    }

    /// Logs an inbox entry that is not a letter, once per entry.
    fn skip(&mut self, path: &Path, reason: &str) {
        if self.logged.insert(path.as_os_str().to_owned()) {
            tracing::warn!(
                path = %path.display(),
                reason,
                "inbox entry skipped: not a letter; the rest of the mail goes on"
            );
        }
    }
}

/// Reads a letter's file without following a symbolic link and without blocking on a FIFO;
/// anything but a regular file is refused.
fn read_letter(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut raw = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.read_to_end(&mut raw)?;
    Ok(raw)
}

impl Inbox for Maildir {
    async fn fetch_new(&mut self) -> Result<Vec<IncomingMail>, MailError> {
        let mut letters = Vec::new();
        let max = self.max_per_fetch;
        if self.pending.is_empty() {
            self.pending = self.unprocessed()?.into();
        }
        while letters.len() < max {
            let Some((unique, path, modified)) = self.pending.pop_front() else {
                break;
            };
            if self.seen.contains_key(&unique) {
                continue;
            }
            let raw = match read_letter(&path) {
                Ok(raw) => raw,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => {
                    // unreadable (permissions), or a link or FIFO put in the file's place
                    self.skipped += 1;
                    self.skip(&path, &format!("cannot be read: {e}"));
                    self.unreadable.insert(unique);
                    continue;
                }
            };
            self.unreadable.remove(&unique);
            let received = self
                .received_override
                .unwrap_or_else(|| DateTime::<Utc>::from(modified));
            self.seen.insert(unique.clone(), path);
            letters.push(IncomingMail {
                id: MailId::Maildir { unique },
                raw,
                received,
            });
        }
        Ok(letters)
    }

    async fn mark_processed(&mut self, id: &MailId) -> Result<(), MailError> {
        let MailId::Maildir { unique } = id else {
            return Err(MailError::NotFound { id: id.clone() });
        };
        let inbox = self.inbox_dir();
        // the path fetch_new saw, if the file is still there: no folder listing per letter
        if let Some(path) = self.seen.remove(unique) {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let (_, flags) = split_info(name);
            let to = inbox
                .join("cur")
                .join(format!("{unique}:2,{}", with_seen(flags)));
            match fs::rename(&path, &to) {
                Ok(()) => return Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => return Err(MailError::Io { path, source }),
            }
        }
        for sub in ["new", "cur"] {
            for (name, path) in list(&inbox.join(sub))? {
                let (u, flags) = split_info(&name);
                if u != unique {
                    continue;
                }
                if sub == "cur" && flags.contains('S') {
                    return Ok(());
                }
                let to = inbox
                    .join("cur")
                    .join(format!("{unique}:2,{}", with_seen(flags)));
                fs::rename(&path, &to).map_err(|source| MailError::Io { path, source })?;
                return Ok(());
            }
        }
        Err(MailError::NotFound { id: id.clone() })
    }

    fn skipped(&self) -> usize {
        self.skipped
    }

    async fn wait_for_mail(&mut self, max: Duration) -> Result<(), MailError> {
        let deadline = tokio::time::Instant::now() + max;
        loop {
            let waiting = self.unprocessed()?;
            if waiting.iter().any(|(unique, ..)| {
                !self.seen.contains_key(unique) && !self.unreadable.contains(unique)
            }) {
                return Ok(());
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(());
            }
            tokio::time::sleep(self.poll.min(deadline - now)).await;
        }
    }
}

impl Outbox for Maildir {
    /// Writes the letter to `outbox/new`. The file is named after the Message-ID, so sending
    /// the same letter again (a retry after a crash) leaves one file, not two. Any failure
    /// is [`MailError::Deliver`], transient.
    async fn send(&mut self, mail: &OutgoingMail) -> Result<(), MailError> {
        let name = (!mail.message_id.is_empty()).then(|| file_name_for(&mail.message_id));
        // whatever keeps the letter from being written (a missing folder, a full disk) is
        // put right by an admin: the letter waits, it is never given up for it
        deliver(&self.outbox_dir(), &mail.raw, name.as_deref()).map_err(|e| match e {
            MailError::Io { path, source } => MailError::Deliver { path, source },
            other => other,
        })?;
        self.unsynced = true;
        Ok(())
    }

    /// The letter's data is synced before its rename, but the rename itself is safe only
    /// once `outbox/new` is synced: once per pass, not once per letter.
    fn holds_until_sync(&self) -> bool {
        true
    }

    /// Syncs `outbox/new`, so that every letter renamed into it since the last call survives
    /// a crash. Any failure is [`MailError::Deliver`], transient.
    async fn sync(&mut self) -> Result<(), MailError> {
        if !self.unsynced {
            return Ok(());
        }
        sync_dir(&self.outbox_dir().join("new")).map_err(|e| match e {
            MailError::Io { path, source } => MailError::Deliver { path, source },
            other => other,
        })?;
        self.unsynced = false;
        Ok(())
    }
}

/// Syncs a folder, so that the names renamed into it survive a crash.
fn sync_dir(dir: &Path) -> Result<(), MailError> {
    fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|source| MailError::Io {
            path: dir.to_owned(),
            source,
        })
}

/// Delivers `raw` into the Maildir `dir` by the Maildir rules: written and synced in `tmp`,
/// then renamed into `new`. `name` fixes the unique name (an existing letter of that name in
/// `new` or `cur` is then left alone); `None` makes a fresh one
/// (`<secs>.M<micros>P<pid>Q<n>.<host>`). Returns the path in `new`.
///
/// # Errors
/// [`MailError::Io`].
pub fn deliver(dir: &Path, raw: &[u8], name: Option<&str>) -> Result<PathBuf, MailError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| MailError::Io { path, source }
    };
    let unique = match name {
        Some(name) => {
            let new = dir.join("new").join(name);
            if new.exists() {
                return Ok(new);
            }
            // a reader may have moved it to cur (with flags); an outbox's cur is usually empty
            if let Some((_, path)) = list(&dir.join("cur"))?
                .into_iter()
                .find(|(n, _)| split_info(n).0 == name)
            {
                return Ok(path);
            }
            name.to_owned()
        }
        None => unique_name(),
    };
    let tmp = dir.join("tmp").join(&unique);
    let new = dir.join("new").join(&unique);
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&tmp)
        .map_err(io(&tmp))?;
    file.write_all(raw).map_err(io(&tmp))?;
    // the letter must be on disk before it is visible: a crash leaves it in tmp, never half
    file.sync_all().map_err(io(&tmp))?;
    drop(file);
    fs::rename(&tmp, &new).map_err(io(&new))?;
    Ok(new)
}

/// A fresh Maildir unique name: time, pid, a per-process counter and the host name.
fn unique_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    format!(
        "{}.M{}P{}Q{}.{}",
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
        host_name()
    )
}

fn host_name() -> String {
    let raw = fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| fs::read_to_string("/etc/hostname"))
        .unwrap_or_else(|_| "localhost".into());
    // '/' and ':' cannot appear in a Maildir unique name (Maildir's own escapes)
    let name = raw.trim().replace('/', "\\057").replace(':', "\\072");
    if name.is_empty() {
        "localhost".into()
    } else {
        name
    }
}

/// A Message-ID as a file name: safe characters kept, every other byte as `%XX`, so that two
/// different ids never share a name.
fn file_name_for(message_id: &str) -> String {
    let id = message_id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    let mut name = String::from("msg-");
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || b"._-+=@".contains(&b) {
            name.push(char::from(b));
        } else {
            name.push_str(&format!("%{b:02X}"));
        }
    }
    name
}

/// Maildir flags plus `S`, in ASCII order as Maildir keeps them.
fn with_seen(flags: &str) -> String {
    let mut flags: Vec<char> = flags.chars().chain(['S']).collect();
    flags.sort_unstable();
    flags.dedup();
    flags.into_iter().collect()
}

/// `unique:2,FLAGS` → (`unique`, `FLAGS`); a name without info has no flags.
fn split_info(name: &str) -> (&str, &str) {
    match name.split_once(':') {
        Some((unique, info)) => (unique, info.strip_prefix("2,").unwrap_or("")),
        None => (name, ""),
    }
}

/// A Maildir subfolder's entries: its regular files, and what is not one.
struct Listing {
    /// `(name, path)` of each regular file (dot files left out).
    files: Vec<(String, PathBuf)>,
    /// `(path, why)` of each entry that is not a letter.
    skipped: Vec<(PathBuf, String)>,
}

/// The regular entries of a Maildir subfolder (dot files left out), and the rest.
fn list_all(dir: &Path) -> Result<Listing, MailError> {
    let io = |source| MailError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut listing = Listing {
        files: Vec::new(),
        skipped: Vec::new(),
    };
    for entry in fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let path = entry.path();
        let Ok(name) = entry.file_name().into_string() else {
            listing
                .skipped
                .push((path, "its name is not UTF-8".to_owned()));
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        // the entry's own type: a symbolic link is not followed
        let kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                listing.skipped.push((path, format!("cannot be read: {e}")));
                continue;
            }
        };
        if kind.is_file() {
            listing.files.push((name, path));
        } else {
            listing.skipped.push((path, kind_name(kind).to_owned()));
        }
    }
    Ok(listing)
}

/// What an entry that is not a regular file is, for the log.
fn kind_name(kind: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link (never followed)"
    } else if kind.is_fifo() {
        "a FIFO (never opened)"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a device or other special file"
    }
}

/// The regular entries of a Maildir subfolder (dot files skipped).
fn list(dir: &Path) -> Result<Vec<(String, PathBuf)>, MailError> {
    Ok(list_all(dir)?.files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn letter(n: u32) -> Vec<u8> {
        format!("From: a@b\r\nSubject: {n}\r\n\r\nbody {n}\r\n").into_bytes()
    }

    #[test]
    fn opening_creates_both_maildirs() {
        let dir = tempfile::tempdir().unwrap();
        let maildir = Maildir::open(dir.path().join("mail")).unwrap();
        for side in [maildir.inbox_dir(), maildir.outbox_dir()] {
            for sub in ["new", "cur", "tmp"] {
                assert!(side.join(sub).is_dir(), "{}", side.join(sub).display());
            }
        }
    }

    #[test]
    fn delivery_names_are_unique() {
        let dir = tempfile::tempdir().unwrap();
        let maildir = Maildir::open(dir.path()).unwrap();
        let mut names = HashSet::new();
        for n in 0..500 {
            let path = maildir.deliver_to_inbox(&letter(n)).unwrap();
            assert!(names.insert(path.file_name().unwrap().to_owned()));
        }
        assert_eq!(
            fs::read_dir(maildir.inbox_dir().join("new"))
                .unwrap()
                .count(),
            500
        );
        assert_eq!(
            fs::read_dir(maildir.inbox_dir().join("tmp"))
                .unwrap()
                .count(),
            0
        );
    }

    #[tokio::test]
    async fn processed_letters_move_from_new_to_cur_with_the_seen_flag() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap();
        maildir.deliver_to_inbox(&letter(1)).unwrap();
        maildir.deliver_to_inbox(&letter(2)).unwrap();
        let got = maildir.fetch_new().await.unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].raw, letter(1));
        maildir.mark_processed(&got[0].id).await.unwrap();
        // idempotent
        maildir.mark_processed(&got[0].id).await.unwrap();
        let MailId::Maildir { unique } = &got[0].id else {
            panic!("not a maildir id: {:?}", got[0].id)
        };
        assert!(
            maildir
                .inbox_dir()
                .join("cur")
                .join(format!("{unique}:2,S"))
                .is_file()
        );
        assert!(
            maildir.fetch_new().await.unwrap().is_empty(),
            "nothing is returned twice"
        );
        let again = Maildir::open(dir.path())
            .unwrap()
            .fetch_new()
            .await
            .unwrap();
        assert_eq!(
            again.len(),
            1,
            "reopened, the unprocessed letter comes again"
        );
        assert_eq!(again[0].id, got[1].id);
    }

    #[tokio::test]
    async fn unprocessed_letters_in_cur_are_still_read_and_keep_their_flags() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap();
        let cur = maildir.inbox_dir().join("cur");
        fs::write(cur.join("111.abc.host:2,F"), letter(1)).unwrap();
        fs::write(cur.join("222.abc.host:2,S"), letter(2)).unwrap();
        let got = maildir.fetch_new().await.unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].id.to_string(), "maildir:111.abc.host");
        maildir.mark_processed(&got[0].id).await.unwrap();
        assert!(cur.join("111.abc.host:2,FS").is_file());
    }

    #[tokio::test]
    async fn the_postmark_is_the_mtime_unless_overridden() {
        let dir = tempfile::tempdir().unwrap();
        let maildir = Maildir::open(dir.path()).unwrap();
        let path = maildir.deliver_to_inbox(&letter(1)).unwrap();
        let then = SystemTime::UNIX_EPOCH + Duration::from_secs(1_760_000_000);
        fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(then)
            .unwrap();
        let got = maildir.clone().fetch_new().await.unwrap();
        assert_eq!(got[0].received, DateTime::<Utc>::from(then));
        assert!(maildir.seen.is_empty(), "a clone keeps its own memory");

        let now = Utc.with_ymd_and_hms(2026, 10, 8, 12, 0, 0).unwrap();
        let got = maildir
            .with_received_override(Some(now))
            .fetch_new()
            .await
            .unwrap();
        assert_eq!(got[0].received, now);
    }

    #[tokio::test]
    async fn the_outbox_holds_complete_files_named_after_the_message_id() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap();
        let mail = OutgoingMail {
            envelope_from: "zaochka@localhost".into(),
            recipients: vec!["alice@players.test".into()],
            raw: letter(3),
            message_id: "<r1.g2/3@zaochka>".into(),
        };
        maildir.send(&mail).await.unwrap();
        maildir.send(&mail).await.unwrap(); // a retry writes no second copy
        let outbox = maildir.outbox_dir();
        let files: Vec<_> = fs::read_dir(outbox.join("new")).unwrap().collect();
        assert_eq!(files.len(), 1);
        let path = files[0].as_ref().unwrap().path();
        assert_eq!(path.file_name().unwrap(), "msg-r1.g2%2F3@zaochka");
        assert_eq!(fs::read(path).unwrap(), letter(3));
        assert_eq!(fs::read_dir(outbox.join("tmp")).unwrap().count(), 0);
    }

    #[tokio::test]
    async fn a_full_inbox_is_read_in_parts_oldest_first() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap().with_max_per_fetch(2);
        for n in 0..5 {
            let path = maildir.deliver_to_inbox(&letter(n)).unwrap();
            let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_760_000_000 + u64::from(n));
            fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(t)
                .unwrap();
        }
        let mut order = Vec::new();
        loop {
            let got = maildir.fetch_new().await.unwrap();
            assert!(got.len() <= 2);
            if got.is_empty() {
                break;
            }
            for m in got {
                order.push(m.raw.clone());
                maildir.mark_processed(&m.id).await.unwrap();
            }
        }
        assert_eq!(order, (0..5).map(letter).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn a_backlog_is_listed_once_and_a_letter_come_since_waits_for_the_next_listing() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap().with_max_per_fetch(2);
        let at = |path: &Path, secs: u64| {
            let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_760_000_000 + secs);
            fs::File::options()
                .write(true)
                .open(path)
                .unwrap()
                .set_modified(t)
                .unwrap();
        };
        for n in 0..3u32 {
            let path = maildir.deliver_to_inbox(&letter(n)).unwrap();
            at(&path, 10 + u64::from(n));
        }
        let first: Vec<_> = maildir.fetch_new().await.unwrap();
        assert_eq!(first.len(), 2);
        // a letter dated before the rest arrives: a new listing would put it first, but the
        // backlog already listed goes on, and it comes with the next listing
        let late = maildir.deliver_to_inbox(&letter(9)).unwrap();
        at(&late, 1);
        for m in &first {
            maildir.mark_processed(&m.id).await.unwrap();
        }
        let second = maildir.fetch_new().await.unwrap();
        assert_eq!(
            second.iter().map(|m| m.raw.clone()).collect::<Vec<_>>(),
            [letter(2)]
        );
        maildir.mark_processed(&second[0].id).await.unwrap();
        let third = maildir.fetch_new().await.unwrap();
        assert_eq!(
            third.iter().map(|m| m.raw.clone()).collect::<Vec<_>>(),
            [letter(9)]
        );
        maildir.mark_processed(&third[0].id).await.unwrap();
        assert!(maildir.fetch_new().await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn what_is_not_a_regular_file_is_skipped_and_the_rest_of_the_mail_goes_on() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap();
        let new = maildir.inbox_dir().join("new");
        fs::create_dir(new.join("a-directory")).unwrap();
        let fifo = new.join("a-fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let secret = dir.path().join("secret");
        fs::write(&secret, "root:x:0:0\n").unwrap();
        std::os::unix::fs::symlink(&secret, new.join("a-link")).unwrap();
        std::os::unix::fs::symlink("/nonexistent", new.join("dangling")).unwrap();
        fs::write(
            new.join(std::ffi::OsStr::from_bytes(b"bad\xff\xfename")),
            letter(9),
        )
        .unwrap();
        maildir.deliver_to_inbox(&letter(1)).unwrap();

        let got = tokio::time::timeout(Duration::from_secs(5), maildir.fetch_new())
            .await
            .expect("a FIFO must not hang the inbox")
            .unwrap();
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].raw, letter(1));
        assert_eq!(maildir.skipped(), 5);
        maildir.mark_processed(&got[0].id).await.unwrap();
        // what was skipped stays where it was, untouched, and wakes nobody
        assert!(new.join("a-directory").is_dir());
        assert!(
            fs::symlink_metadata(new.join("a-link"))
                .unwrap()
                .is_symlink()
        );
        assert_eq!(fs::read(&secret).unwrap(), b"root:x:0:0\n");
        maildir
            .wait_for_mail(Duration::from_millis(50))
            .await
            .unwrap();
        assert!(maildir.fetch_new().await.unwrap().is_empty());
        assert_eq!(maildir.logged.len(), 5, "each logged once");
    }

    #[test]
    fn a_link_or_fifo_put_in_a_files_place_is_never_read_through() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        fs::write(&target, "secret").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(read_letter(&link).is_err(), "O_NOFOLLOW");
        let fifo = dir.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let err = read_letter(&fifo).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{err}");
        assert_eq!(read_letter(&target).unwrap(), b"secret");
    }

    #[tokio::test]
    async fn a_missing_outbox_folder_is_a_transient_failure() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap();
        fs::remove_dir_all(maildir.outbox_dir()).unwrap();
        let mail = OutgoingMail {
            envelope_from: "zaochka@localhost".into(),
            recipients: vec!["alice@players.test".into()],
            raw: letter(3),
            message_id: "<r1@zaochka>".into(),
        };
        let err = maildir.send(&mail).await.unwrap_err();
        assert!(matches!(err, MailError::Deliver { .. }), "{err}");
        assert!(err.is_transient());
        assert_eq!(err.send_failure(), crate::mail::SendFailure::ServerDown);
    }

    #[tokio::test]
    async fn the_outbox_is_synced_only_after_a_send_and_a_failed_sync_is_transient() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap();
        assert!(maildir.holds_until_sync());
        let mail = OutgoingMail {
            envelope_from: "zaochka@localhost".into(),
            recipients: vec!["alice@players.test".into()],
            raw: letter(4),
            message_id: "<r4@zaochka>".into(),
        };
        maildir.send(&mail).await.unwrap();
        maildir.sync().await.unwrap();
        // Nothing sent since: nothing to sync, even with the folder gone.
        fs::remove_dir_all(maildir.outbox_dir().join("new")).unwrap();
        maildir.sync().await.unwrap();
        // A letter written (here: into a folder put back), then the folder lost before the
        // sync: the sync fails as a transient delivery failure, and the letter waits.
        fs::create_dir(maildir.outbox_dir().join("new")).unwrap();
        maildir.send(&mail).await.unwrap();
        fs::remove_dir_all(maildir.outbox_dir().join("new")).unwrap();
        let err = maildir.sync().await.unwrap_err();
        assert!(matches!(err, MailError::Deliver { .. }), "{err}");
        assert_eq!(err.send_failure(), crate::mail::SendFailure::ServerDown);
    }

    #[tokio::test]
    async fn marking_an_unknown_letter_is_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path()).unwrap();
        let id = MailId::Maildir {
            unique: "nope".into(),
        };
        let err = maildir.mark_processed(&id).await.unwrap_err();
        assert!(matches!(err, MailError::NotFound { .. }), "{err}");
        assert!(!err.is_transient());
    }

    #[tokio::test]
    async fn waiting_wakes_for_a_new_letter_and_not_for_one_already_fetched() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::open(dir.path())
            .unwrap()
            .with_poll_interval(Duration::from_millis(10));
        maildir.deliver_to_inbox(&letter(1)).unwrap();
        maildir.fetch_new().await.unwrap();
        let started = std::time::Instant::now();
        maildir
            .wait_for_mail(Duration::from_millis(150))
            .await
            .unwrap();
        assert!(started.elapsed() >= Duration::from_millis(150));

        let inbox = maildir.inbox_dir();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            deliver(&inbox, &letter(2), None).unwrap();
        });
        let started = std::time::Instant::now();
        maildir
            .wait_for_mail(Duration::from_secs(10))
            .await
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(5));
        writer.join().unwrap();
        let got = maildir.fetch_new().await.unwrap();
        assert_eq!(got.len(), 1, "only the new letter");
        assert_eq!(got[0].raw, letter(2));
    }
}
