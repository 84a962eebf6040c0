//! Reconnecting to an IMAP mailbox that holds many old letters (issue 14): 1,000, 10,000 and
//! 100,000 processed letters in the real Dovecot of `scripts/mailstack`, then 10 new ones.
//! A reconnection that resumes from the kept point (UIDVALIDITY and the last handled UID, as
//! the store keeps them in `mailbox_state`) asks the server about the new letters only; one
//! without it (a first start, a changed UIDVALIDITY) searches the whole mailbox, shown beside
//! it for comparison.
//!
//! ```text
//! bash scripts/mailstack/with-mailstack.sh cargo bench --bench imap                    # 1k, 10k, 100k
//! bash scripts/mailstack/with-mailstack.sh cargo bench --bench imap -- --letters 1000  # one size
//! ```
//!
//! Two layouts: the old letters left in INBOX (`processed_folder` unset), and moved to the
//! processed folder (`processed_folder = "Processed"`), INBOX holding only the new ones. The
//! old letters are written straight into the account's Maildir (`cur/`, seen and marked
//! processed through Dovecot's `dovecot-keywords`), as years of handled mail would lie
//! there; Dovecot indexes them on a first, untimed connection. Each figure is the median of
//! 15 reconnections (a new connection, STARTTLS, login, SELECT, the search and the fetch of
//! the new letters) after 2 warm-up ones: "nothing new" before the 10 letters arrive, then
//! with them.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use zaochka::mail::imap::{ImapInbox, ImapSettings, PROCESSED_KEYWORD};
use zaochka::mail::{Inbox, Password, ResumePoint, TlsMode};

const USER: &str = "box27@tests.test";
const NEW: usize = 10;
const RUNS: usize = 15;

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<usize> = match args.iter().position(|a| a == "--letters") {
        Some(i) => vec![args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(1000)],
        None => vec![1_000, 10_000, 100_000],
    };
    let (Some(dir), Some(host), Some(port), Some(ca)) = (
        env("MAILSTACK_DIR"),
        env("MAILSTACK_HOST"),
        env("MAILSTACK_IMAP_PORT").and_then(|p| p.parse::<u16>().ok()),
        env("MAILSTACK_CA_CERT"),
    ) else {
        eprintln!(
            "no mail stack: run `bash scripts/mailstack/with-mailstack.sh cargo bench --bench imap`"
        );
        std::process::exit(2);
    };
    let (local, domain) = USER.split_once('@').expect("an address");
    let home = Path::new(&dir).join("mail").join(domain).join(local);
    let mut settings = ImapSettings::new(
        host,
        port,
        TlsMode::StartTls,
        USER,
        Password::new(format!("{local}pass")),
    );
    settings.tls_name = Some("localhost".into());
    settings.ca_file = Some(PathBuf::from(ca));
    settings.timeout = Duration::from_secs(120);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    println!(
        "{:>8} {:>10} {:>16} {:>16} {:>16} {:>9}",
        "letters", "old in", "nothing new ms", "10 new ms", "from UID 1 ms", "index s"
    );
    for n in sizes {
        for folder in [None, Some("Processed")] {
            let mut s = settings.clone();
            s.processed_folder = folder.map(str::to_owned);
            rt.block_on(one(&s, &home, n, folder));
        }
    }
}

/// A letter as a player's client writes it, about 1 KB.
fn letter(i: usize) -> String {
    format!(
        "From: Player {i} <p{i}@players.test>\r\nTo: zaochka@tournament.test\r\nSubject: ЗШ-2027-1, партия {i}\r\nMessage-ID: <bench-{i}@players.test>\r\nDate: Mon, 11 Jan 2027 10:00:00 +0300\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nЗдравствуйте!\r\n\r\nПовтор: 11... f6-g5\r\nМой ход: 12. c3-d4\r\nВремя: 12/20\r\n\r\n{}\r\n",
        "С уважением, игрок. ".repeat(30)
    )
}

/// Empties the account's Maildir and fills INBOX, or the processed folder, with `n`
/// processed letters.
fn fill(home: &Path, n: usize, folder: Option<&str>) {
    let md = home.join("Maildir");
    let _ = std::fs::remove_dir_all(&md);
    let old = match folder {
        Some(f) => md.join(format!(".{f}")),
        None => md.clone(),
    };
    for top in [&md, &old] {
        for d in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(top.join(d)).expect("the Maildir");
        }
    }
    // Dovecot's keyword letter `a` is the first line of dovecot-keywords.
    std::fs::write(
        old.join("dovecot-keywords"),
        format!("0 {PROCESSED_KEYWORD}\n"),
    )
    .unwrap();
    for i in 0..n {
        let name = format!("{}.M{i}P1.bench:2,Sa", 1_700_000_000 + i);
        std::fs::write(old.join("cur").join(name), letter(i)).unwrap();
    }
    own_like(home, &md);
}

/// Gives the files the owner of the mail tree (Dovecot's mail user).
fn own_like(home: &Path, md: &Path) {
    use std::os::unix::fs::MetadataExt;
    let top = home.parent().and_then(Path::parent).expect("DIR/mail");
    let meta = std::fs::metadata(top).expect("the mail tree");
    let (uid, gid) = (meta.uid(), meta.gid());
    let mut stack = vec![home.to_path_buf()];
    while let Some(p) = stack.pop() {
        let _ = std::os::unix::fs::chown(&p, Some(uid), Some(gid));
        if p.is_dir() && (p == home || p.starts_with(md)) {
            // every file of the Maildir, the processed folder's included
            for e in std::fs::read_dir(&p).into_iter().flatten().flatten() {
                stack.push(e.path());
            }
        }
    }
}

/// Delivers `NEW` new letters into `new/`, as the LMTP agent would.
fn deliver(home: &Path, n: usize) {
    let md = home.join("Maildir");
    for i in 0..NEW {
        let name = format!("{}.M{i}P2.bench", 1_800_000_000 + i);
        std::fs::write(md.join("new").join(name), letter(n + i)).unwrap();
    }
    own_like(home, &md);
}

/// One reconnection: a fresh inbox, resumed from `point` when given, fetching until the new
/// letters are in. Returns the time and how many letters came.
async fn reconnect(settings: &ImapSettings, point: Option<&ResumePoint>) -> (Duration, usize) {
    let mut inbox = ImapInbox::new(settings.clone()).expect("the inbox");
    if let Some(p) = point {
        inbox.resume_from(p);
    }
    let t = Instant::now();
    let mut got = 0;
    loop {
        let letters = inbox.fetch_new().await.expect("a fetch");
        if letters.is_empty() {
            break;
        }
        got += letters.len();
    }
    let took = t.elapsed();
    inbox.logout().await;
    (took, got)
}

fn median_ms(mut v: Vec<Duration>) -> f64 {
    v.sort_unstable();
    v[v.len() / 2].as_secs_f64() * 1e3
}

async fn one(settings: &ImapSettings, home: &Path, n: usize, folder: Option<&str>) {
    fill(home, n, folder);
    // The first connection indexes the old letters (untimed as a reconnection).
    let t = Instant::now();
    let (_, none) = reconnect(settings, None).await;
    if let Some(folder) = folder {
        // the processed folder is indexed when it is first opened
        let mut s = settings.clone();
        s.mailbox = folder.to_owned();
        s.processed_folder = None;
        let (_, old) = reconnect(&s, None).await;
        assert_eq!(old, 0, "the old letters are marked processed");
    }
    let index = t.elapsed();
    assert_eq!(none, 0, "the old letters are marked processed");
    // The point the store would have kept: every old letter handled (Dovecot numbers the
    // letters 1..n in the order it indexed them; in the processed-folder layout INBOX's
    // UIDs go on where the moved letters' ended).
    let mut probe = ImapInbox::new(settings.clone()).expect("the inbox");
    probe.fetch_new().await.expect("a fetch");
    let mut point = probe.resume_point().expect("UIDVALIDITY after SELECT");
    probe.logout().await;
    point.last_uid = if folder.is_some() { 0 } else { n as u32 };
    let quiet = runs(|| reconnect(settings, Some(&point)), 0).await;
    deliver(home, n);
    let resumed = runs(|| reconnect(settings, Some(&point)), NEW).await;
    let scanned = runs(|| reconnect(settings, None), NEW).await;
    println!(
        "{:>8} {:>10} {:>16.2} {:>16.2} {:>16.2} {:>9.1}",
        n,
        folder.unwrap_or("INBOX"),
        quiet,
        resumed,
        scanned,
        index.as_secs_f64()
    );
}

/// The median time of `RUNS` reconnections after 2 warm-up ones, each fetching `want`
/// letters.
async fn runs<F, Fut>(mut f: F, want: usize) -> f64
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = (Duration, usize)>,
{
    let mut times = vec![];
    for run in 0..RUNS + 2 {
        let (took, got) = f().await;
        assert_eq!(got, want, "the letters fetched");
        if run >= 2 {
            times.push(took);
        }
    }
    median_ms(times)
}
