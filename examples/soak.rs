//! The soak (issue 13, "Must show"): the real `zaochka run` on a real Postfix + Dovecot
//! (started by `scripts/soak.sh`, which passes its `MAILSTACK_*` variables), thousands of
//! players' letters, the daemon killed with SIGKILL at random moments, Postfix stopped for a
//! while, Dovecot restarted once. Then it checks that every letter was judged exactly once
//! (one stored letter per Message-ID, each game's record as long as the letters sent to it),
//! that no answer is missing from its recipient's IMAP mailbox, that nothing was given up or
//! left waiting, and counts the duplicates (a copy sent again after a kill between the SMTP
//! reply and the commit), each of which must carry the same Message-ID as a stored letter.
//!
//! `bash scripts/soak.sh [--letters N] [--kills K] [--players P] [--seed S] [--outage SECS]`
//! (defaults 5000, 50, 20, 1, 45). Exit status 0 when every check held.
//!
//! The letters: a round robin of P players (P·(P−1)/2 games), each letter a legal move
//! chosen by a seeded pseudo-random sequence, repeating the partner's last move (10.2.9);
//! one letter per game in flight (the next one is written when the daemon has judged the
//! last), as correspondence goes. Letters go to the MX port as the players'; while Postfix
//! is stopped they are put straight into the mailbox by IMAP APPEND, as a second MX would.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use zaochka::mail::smtp::{SmtpOutbox, SmtpSettings};
use zaochka::mail::{Outbox, OutgoingMail, TlsMode};
use zaochka::rules::{Position, Variant};

const CIPHER: &str = "ЗШ-SOAK-1";
const BOT: &str = "zaochka@tournament.test";
const BOT_PASSWORD: &str = "zaochkapass";
const OFFICIALS: [&str; 2] = ["arbiter@federation.test", "secretary@federation.test"];

/// The command line.
struct Args {
    letters: usize,
    kills: usize,
    players: usize,
    seed: u64,
    outage: Duration,
}

fn args() -> anyhow::Result<Args> {
    let mut a = Args {
        letters: 5000,
        kills: 50,
        players: 20,
        seed: 1,
        outage: Duration::from_secs(45),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--letters" => a.letters = value.parse()?,
            "--kills" => a.kills = value.parse()?,
            "--players" => a.players = value.parse()?,
            "--seed" => a.seed = value.parse()?,
            "--outage" => a.outage = Duration::from_secs(value.parse()?),
            _ => bail!("unknown option {flag}"),
        }
    }
    Ok(a)
}

/// A small deterministic generator (xorshift64*): the same seed plays the same games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The mail stack `scripts/mailstack/up.sh` started.
struct Stack {
    dir: PathBuf,
    host: String,
    smtp: u16,
    imap: u16,
}

impl Stack {
    fn from_env() -> anyhow::Result<Stack> {
        let v = |k: &str| {
            std::env::var(k).with_context(|| format!("{k} is not set: run scripts/soak.sh"))
        };
        Ok(Stack {
            dir: v("MAILSTACK_DIR")?.into(),
            host: v("MAILSTACK_HOST")?,
            smtp: v("MAILSTACK_SMTP_PORT")?.parse()?,
            imap: v("MAILSTACK_IMAP_PORT")?.parse()?,
        })
    }

    fn run(&self, what: &str, cmd: &mut Command) -> anyhow::Result<()> {
        let status = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .with_context(|| what.to_owned())?;
        anyhow::ensure!(status.success(), "{what}: {status}");
        Ok(())
    }

    fn postfix(&self, action: &str) -> anyhow::Result<()> {
        self.run(
            &format!("postfix {action}"),
            Command::new("postfix")
                .arg("-c")
                .arg(self.dir.join("postfix"))
                .arg(action),
        )
    }

    fn restart_dovecot(&self) -> anyhow::Result<()> {
        let conf = self.dir.join("dovecot/dovecot.conf");
        self.run(
            "doveadm stop",
            Command::new("doveadm").arg("-c").arg(&conf).arg("stop"),
        )?;
        let pid = self.dir.join("run/dovecot/master.pid");
        let deadline = Instant::now() + Duration::from_secs(20);
        while pid.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(500));
        self.run(
            "dovecot start",
            Command::new("dovecot").arg("-c").arg(&conf),
        )
    }

    async fn session(
        &self,
        user: &str,
        password: &str,
    ) -> anyhow::Result<async_imap::Session<tokio::net::TcpStream>> {
        let tcp = tokio::net::TcpStream::connect((self.host.as_str(), self.imap)).await?;
        let mut client = async_imap::Client::new(tcp);
        client.read_response().await?;
        client
            .login(user, password)
            .await
            .map_err(|(e, _)| anyhow::anyhow!("imap login of {user}: {e}"))
    }

    /// Puts a letter straight into the bot's INBOX (Postfix is down).
    async fn append(&self, raw: &[u8]) -> anyhow::Result<()> {
        let mut s = self.session(BOT, BOT_PASSWORD).await?;
        s.append("INBOX", None, None, raw).await?;
        let _ = s.logout().await;
        Ok(())
    }

    /// Every Message-ID in a user's INBOX, with how many copies.
    async fn message_ids(
        &self,
        user: &str,
        password: &str,
    ) -> anyhow::Result<HashMap<String, usize>> {
        use futures::TryStreamExt;
        let mut s = self.session(user, password).await?;
        let mailbox = s.select("INBOX").await?;
        let mut ids = HashMap::new();
        if mailbox.exists > 0 {
            let fetched: Vec<_> = s
                .uid_fetch("1:*", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]")
                .await?
                .try_collect()
                .await?;
            for f in fetched {
                let id = f
                    .header()
                    .and_then(zaochka::mail::mime::message_id)
                    .unwrap_or_default();
                *ids.entry(id).or_insert(0) += 1;
            }
        }
        let _ = s.logout().await;
        Ok(ids)
    }
}

fn player(i: usize) -> String {
    format!("p{i:02}@players.soak")
}

fn password_of(user: &str) -> String {
    format!("{}pass", user.split('@').next().unwrap_or_default())
}

/// The daemon process.
struct Daemon {
    bin: PathBuf,
    config: PathBuf,
    log: PathBuf,
    child: Option<Child>,
}

impl Daemon {
    fn start(&mut self) -> anyhow::Result<()> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)?;
        let child = Command::new(&self.bin)
            .arg("--config")
            .arg(&self.config)
            .arg("run")
            .env("ZAOCHKA_SOAK_PASSWORD", BOT_PASSWORD)
            .env("RUST_LOG", "info")
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .context("start zaochka run")?;
        self.child = Some(child);
        Ok(())
    }

    fn kill(&mut self) -> anyhow::Result<()> {
        if let Some(mut child) = self.child.take() {
            child.kill()?; // SIGKILL
            let status = child.wait()?;
            anyhow::ensure!(!status.success(), "the daemon exited by itself: {status}");
        }
        Ok(())
    }
}

/// One game as the players see it.
struct Table {
    id: i64,
    number: u32,
    white: String,
    black: String,
    position: Position,
    plies: usize,
    last: Option<String>,
    /// The letter written and not yet judged: its Message-ID and when it was written.
    in_flight: Option<(String, Instant)>,
    finished: bool,
}

fn numbered(ply: usize, text: &str) -> String {
    if ply.is_multiple_of(2) {
        format!("{}. {text}", ply / 2 + 1)
    } else {
        format!("{}... {text}", ply / 2 + 1)
    }
}

fn zaochka(bin: &Path, config: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new(bin)
        .arg("--config")
        .arg(config)
        .args(args)
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "zaochka {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let a = args()?;
    let stack = Stack::from_env()?;
    let bin = PathBuf::from(
        std::env::var("ZAOCHKA_BIN").unwrap_or_else(|_| "target/release/zaochka".into()),
    );
    let work = PathBuf::from(
        std::env::var("SOAK_DIR").context("SOAK_DIR is not set: run scripts/soak.sh")?,
    );
    std::fs::create_dir_all(&work)?;
    let db = work.join("zaochka.sqlite");
    let config = work.join("zaochka.toml");
    std::fs::write(
        &config,
        format!(
            "database = \"{db}\"\ntransport = \"imap\"\n[mailbox]\naddress = \"{BOT}\"\n\
             [officials]\narbiter = \"{}\"\nsecretary = \"{}\"\n\
             [imap]\nhost = \"{host}\"\nport = {imap}\ntls = \"none\"\nuser = \"{BOT}\"\n\
             password_env = \"ZAOCHKA_SOAK_PASSWORD\"\nidle_seconds = 60\npoll_seconds = 2\n\
             timeout_seconds = 10\n\
             [smtp]\nhost = \"{host}\"\nport = {smtp}\ntls = \"none\"\ntimeout_seconds = 10\n\
             [auth]\nsenders = \"dkim\"\ndns_records = \"{records}\"\n",
            OFFICIALS[0],
            OFFICIALS[1],
            db = db.display(),
            records = work.join("dns_records").display(),
            host = stack.host,
            imap = stack.imap,
            smtp = stack.smtp,
        ),
    )?;
    // The players' provider signs their letters (the default sender check, "dkim"); its key
    // is published in a dns_records file instead of DNS.
    let signer = zaochka::mail::auth::Signer::rsa_pem(
        "players.soak",
        "soak",
        include_str!("../tests/data/auth/players.rsa.pem"),
    )?;
    std::fs::write(work.join("dns_records"), signer.dns_record() + "\n")?;
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::Moscow)
        .date_naive();
    let end = today + chrono::Days::new(365);
    zaochka(&bin, &config, &["init"])?;
    zaochka(
        &bin,
        &config,
        &[
            "tournament",
            "add",
            CIPHER,
            "--game",
            "russian",
            "--start",
            &today.to_string(),
            "--end",
            &end.to_string(),
        ],
    )?;
    for i in 0..a.players {
        zaochka(
            &bin,
            &config,
            &[
                "player",
                "add",
                CIPHER,
                "--name",
                &format!("Игрок{i:02} Нагрузочный"),
                "--email",
                &player(i),
            ],
        )?;
    }
    zaochka(&bin, &config, &["tournament", "start", CIPHER])?;

    let conn = rusqlite::Connection::open(&db)?;
    conn.busy_timeout(Duration::from_secs(10))?;
    let mut tables: Vec<Table> = {
        let mut stmt = conn.prepare(
            "SELECT g.id, g.number, w.email, b.email FROM games g \
             JOIN players w ON w.id = g.white JOIN players b ON b.id = g.black ORDER BY g.number",
        )?;
        stmt.query_map([], |r| {
            Ok(Table {
                id: r.get(0)?,
                number: r.get(1)?,
                white: r.get(2)?,
                black: r.get(3)?,
                position: Position::start(Variant::Russian),
                plies: 0,
                last: None,
                in_flight: None,
                finished: false,
            })
        })?
        .collect::<Result<_, _>>()?
    };
    println!(
        "soak: {} players, {} games, {} letters, {} kills, seed {}",
        a.players,
        tables.len(),
        a.letters,
        a.kills,
        a.seed
    );

    let mut rng = Rng(a.seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut daemon = Daemon {
        bin: bin.clone(),
        config: config.clone(),
        log: work.join("daemon.log"),
        child: None,
    };
    daemon.start()?;
    let mut mx = SmtpOutbox::new(SmtpSettings {
        host: stack.host.clone(),
        port: stack.smtp,
        tls: TlsMode::None,
        tls_name: None,
        auth: None,
        ca_file: None,
        timeout: Duration::from_secs(10),
    })?;

    let started = Instant::now();
    let mut sent = 0usize;
    let mut appended = 0usize;
    let mut kills = 0usize;
    let mut next_kill = Instant::now() + Duration::from_millis(500 + rng.below(4000) as u64);
    let mut outage: Option<Instant> = None; // Postfix stopped at
    let mut outage_done = false;
    let mut outage_took = Duration::ZERO;
    let mut dovecot_restarted = false;
    let mut judged_ids: HashMap<String, String> = HashMap::new(); // message id → outcome
    let mut last_row = 0i64;
    let mut slowest = Duration::ZERO;
    let deadline = started + Duration::from_secs(3 * 3600);

    loop {
        anyhow::ensure!(
            Instant::now() < deadline,
            "the soak did not finish in 3 hours"
        );
        // what the daemon has stored since the last look
        {
            let mut stmt = conn.prepare_cached(
                "SELECT id, message_id, outcome FROM letters_in WHERE id > ?1 AND outcome IS NOT NULL ORDER BY id",
            )?;
            let rows: Vec<(i64, Option<String>, String)> = stmt
                .query_map([last_row], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<Result<_, _>>()?;
            for (id, message_id, outcome) in rows {
                last_row = id;
                if let Some(m) = message_id {
                    judged_ids.insert(m, outcome);
                }
            }
        }
        for t in tables.iter_mut() {
            if let Some((id, at)) = &t.in_flight
                && judged_ids.contains_key(id)
            {
                slowest = slowest.max(at.elapsed());
                let id = id.clone();
                t.in_flight = None;
                let status: String =
                    conn.query_row("SELECT status FROM games WHERE id = ?1", [t.id], |r| {
                        r.get(0)
                    })?;
                match status.as_str() {
                    "playing" => {}
                    "finished" => t.finished = true,
                    other => bail!("game {} is {other} after letter {id}", t.number),
                }
                if t.position.legal_moves().is_empty() {
                    t.finished = true;
                }
            } else if let Some((id, at)) = &t.in_flight
                && at.elapsed() > Duration::from_secs(600)
            {
                bail!("letter {id} of game {} not judged in 10 minutes", t.number);
            }
        }

        // faults
        if kills < a.kills && Instant::now() >= next_kill {
            daemon.kill()?;
            kills += 1;
            if rng.below(4) == 0 {
                tokio::time::sleep(Duration::from_millis(rng.below(2000) as u64)).await;
            }
            daemon.start()?;
            next_kill = Instant::now() + Duration::from_millis(500 + rng.below(6000) as u64);
        }
        if outage.is_none() && !outage_done && sent >= a.letters * 2 / 5 {
            stack.postfix("stop")?;
            println!("soak: Postfix stopped after {sent} letters");
            outage = Some(Instant::now());
        }
        if let Some(at) = outage
            && at.elapsed() >= a.outage
        {
            stack.postfix("start")?;
            outage_took = at.elapsed();
            println!("soak: Postfix started again after {outage_took:?}");
            outage = None;
            outage_done = true;
        }
        if !dovecot_restarted && outage_done && sent >= a.letters * 7 / 10 {
            stack.restart_dovecot()?;
            println!("soak: Dovecot restarted after {sent} letters");
            dovecot_restarted = true;
        }

        // the players write
        let mut wrote = false;
        for t in tables.iter_mut() {
            if sent >= a.letters || t.finished || t.in_flight.is_some() {
                continue;
            }
            let moves = t.position.legal_moves();
            if moves.is_empty() {
                t.finished = true;
                continue;
            }
            let mv = moves[rng.below(moves.len())].clone();
            let text = numbered(t.plies, &mv.to_text(false).to_string());
            let from = if t.plies.is_multiple_of(2) {
                t.white.clone()
            } else {
                t.black.clone()
            };
            let id = format!("soak-{}-{}.{}@players.soak", t.number, t.plies, a.seed);
            let mut body = format!("Шифр: {CIPHER}\r\nПартия {}\r\n", t.number);
            if let Some(prev) = &t.last {
                body.push_str(&format!("Ваш ход: {prev}\r\n"));
            }
            body.push_str(&format!("Мой ход: {text}\r\n"));
            let raw = format!(
                "From: {from}\r\nTo: {BOT}\r\nSubject: {CIPHER} партия {}\r\nMessage-ID: <{id}>\r\nDate: {}\r\n\
                 MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
                 Content-Transfer-Encoding: 8bit\r\n\r\n{body}",
                t.number,
                chrono::Utc::now().to_rfc2822()
            )
            .into_bytes();
            let raw = signer.sign(&raw)?;
            let delivered = if outage.is_some() {
                let r = stack.append(&raw).await;
                if r.is_ok() {
                    appended += 1;
                }
                r
            } else {
                mx.send(&OutgoingMail {
                    envelope_from: from.clone(),
                    recipients: vec![BOT.to_owned()],
                    raw,
                    message_id: id.clone(),
                })
                .await
                .map_err(anyhow::Error::from)
            };
            if let Err(e) = delivered {
                eprintln!("soak: letter {id} not delivered now ({e}); written again later");
                break;
            }
            t.position = t.position.play(&mv);
            t.plies += 1;
            t.last = Some(text);
            t.in_flight = Some((id, Instant::now()));
            sent += 1;
            wrote = true;
        }

        let waiting: i64 = conn.query_row(
            "SELECT count(*) FROM letters_out WHERE sent_at IS NULL AND gave_up_at IS NULL",
            [],
            |r| r.get(0),
        )?;
        let in_flight = tables.iter().filter(|t| t.in_flight.is_some()).count();
        let playable = tables.iter().any(|t| !t.finished);
        if (sent >= a.letters || !playable) && in_flight == 0 && waiting == 0 && outage.is_none() {
            if kills < a.kills {
                // every letter is in: the kills left fall on the idle daemon
                daemon.kill()?;
                kills += 1;
                daemon.start()?;
                tokio::time::sleep(Duration::from_millis(300)).await;
                continue;
            }
            break;
        }
        if !wrote {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let took = started.elapsed();
    // let the last sends reach the mailboxes, then stop the daemon as systemd would
    tokio::time::sleep(Duration::from_secs(3)).await;
    daemon.kill()?;

    // ---- the checks
    let mut failures = Vec::new();
    let stored: i64 = conn.query_row(
        "SELECT count(*) FROM letters_in WHERE message_id LIKE 'soak-%'",
        [],
        |r| r.get(0),
    )?;
    let distinct: i64 = conn.query_row(
        "SELECT count(DISTINCT message_id) FROM letters_in WHERE message_id LIKE 'soak-%'",
        [],
        |r| r.get(0),
    )?;
    let judged: i64 = conn.query_row(
        "SELECT count(*) FROM letters_in WHERE message_id LIKE 'soak-%' AND outcome = 'judged'",
        [],
        |r| r.get(0),
    )?;
    if stored as usize != sent || distinct != stored || judged != stored {
        failures.push(format!(
            "{sent} letters sent, {stored} stored ({distinct} distinct), {judged} judged"
        ));
    }
    for t in &tables {
        let moves: i64 = conn.query_row(
            "SELECT json_array_length(state, '$.moves') FROM games WHERE id = ?1",
            [t.id],
            |r| r.get(0),
        )?;
        if moves as usize != t.plies {
            failures.push(format!(
                "game {}: {} letters, {moves} moves recorded",
                t.number, t.plies
            ));
        }
    }
    let (given_up, waiting): (i64, i64) = conn.query_row(
        "SELECT count(gave_up_at), count(*) FILTER (WHERE sent_at IS NULL AND gave_up_at IS NULL) FROM letters_out",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if given_up + waiting > 0 {
        failures.push(format!("outbox: {given_up} given up, {waiting} waiting"));
    }
    let retried: i64 = conn.query_row(
        "SELECT count(*) FROM letters_out WHERE attempts > 0",
        [],
        |r| r.get(0),
    )?;
    let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new(); // recipient → ids
    {
        let mut stmt = conn.prepare("SELECT message_id, recipients FROM letters_out")?;
        let rows: Vec<(String, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        for (id, recipients) in rows {
            let recipients: Vec<String> = serde_json::from_str(&recipients)?;
            for r in recipients {
                expected
                    .entry(r.to_ascii_lowercase())
                    .or_default()
                    .push(id.clone());
            }
        }
    }
    let (mut delivered, mut missing, mut duplicates, mut strangers) =
        (0usize, 0usize, 0usize, 0usize);
    for (user, ids) in &expected {
        let got = stack.message_ids(user, &password_of(user)).await?;
        let known: HashSet<&str> = ids.iter().map(String::as_str).collect();
        for id in ids {
            match got.get(id) {
                None | Some(0) => {
                    missing += 1;
                    if missing <= 10 {
                        failures.push(format!("{id} never reached {user}"));
                    }
                }
                Some(n) => {
                    delivered += 1;
                    duplicates += n - 1;
                }
            }
        }
        for (id, n) in &got {
            if !known.contains(id.as_str()) {
                strangers += n;
                failures.push(format!("{user} holds {id}, which zaochka never queued"));
            }
        }
    }
    if missing > 0 {
        failures.push(format!("{missing} answers missing from the mailboxes"));
    }
    let sent_out: i64 = conn.query_row("SELECT count(*) FROM letters_out", [], |r| r.get(0))?;
    println!(
        "RESULT: {sent} letters ({appended} appended while Postfix was down) in {} games, judged exactly once: {}; \
         {kills} SIGKILLs; Postfix down {:?}; Dovecot restarted: {dovecot_restarted}; \
         {sent_out} answers queued, {delivered} delivered, {missing} missing, {duplicates} duplicates \
         (resent copies, same Message-ID), {strangers} unknown; {retried} answers failed at least once and were retried; \
         {given_up} given up; slowest letter judged after {slowest:?}; {:.0} s, {:.1} letters/s",
        tables.len(),
        stored as usize == sent && distinct == stored,
        outage_took,
        took.as_secs_f64(),
        sent as f64 / took.as_secs_f64()
    );
    if failures.is_empty() {
        println!("soak: every check held");
        Ok(())
    } else {
        for f in &failures {
            eprintln!("soak: FAILED: {f}");
        }
        bail!(
            "{} checks failed (daemon log: {})",
            failures.len(),
            work.join("daemon.log").display()
        )
    }
}
