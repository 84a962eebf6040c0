//! Who sent a letter: the proof a letter gives of its `From` address, on top of coming from
//! a registered address (`[auth]` in the config, [`crate::config::Senders`]).
//!
//! - `dkim`: a DKIM signature (RSA or Ed25519, verified here with mail-auth) that covers the
//!   `From` field, covers the whole body, and was made by the From address's domain: `d=`
//!   equal to it, or aligned with it as that domain's DMARC record says (relaxed: the same
//!   organisational domain, RFC 9989's tree walk, as mail-auth does it). Only a pass counts:
//!   a changed body, a changed `From`, a missing key, a key of another domain all fail.
//!   `rsa-sha1` (RFC 8301) and `l=` (a signature over part of the body: text appended after
//!   signing would be read as moves) never pass.
//! - `authres`: the Authentication-Results fields the federation's own MX added, found by
//!   their authserv-id in the block of fields at the top of the header only.
//! - `address`: the address alone.
//!
//! DNS: every TXT record the check needs is looked up first, through the system's resolver
//! or in a fixed table ([`DnsTable`], the `dns_records` file), and mail-auth then verifies
//! from those answers alone, so it never goes to the network itself and a failure is seen
//! for what it is: NXDOMAIN and "no such record" are final, SERVFAIL and timeouts are
//! [`AuthResult::TempError`] (the daemon leaves the letter for a later pass).
//!
//! Knows mail only: what the office does with the result (who may command, who is told) is
//! not decided here.

use std::borrow::{Borrow, Cow};
use std::collections::{BTreeSet, HashMap};
use std::hash::Hash;
use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use mail_auth::common::crypto::{Algorithm, DkimKey, Ed25519Key, RsaKey, Sha256};
use mail_auth::common::headers::HeaderWriter;
use mail_auth::common::parse::TxtRecordParser;
use mail_auth::common::verify::DomainKey;
use mail_auth::dkim::{DkimSigner, Done};
use mail_auth::dmarc::Dmarc;
use mail_auth::dmarc::verify::DmarcParameters;
use mail_auth::hickory_resolver::TokioResolver;
use mail_auth::hickory_resolver::config::{NameServerConfig, ResolverConfig, ResolverOpts};
use mail_auth::hickory_resolver::net::runtime::TokioRuntimeProvider;
use mail_auth::hickory_resolver::net::{DnsError, NetError};
use mail_auth::hickory_resolver::proto::op::ResponseCode;
use mail_auth::hickory_resolver::proto::rr::RData;
use mail_auth::{
    AuthenticatedMessage, DkimOutput, DkimResult, DmarcResult, MessageAuthenticator, Parameters,
    RecordSet, ResolverCache, SpfOutput, Txt,
};
use serde::Serialize;

use crate::config::{AuthConfig, Senders};

/// What the check found, kept with the stored letter and shown by `zaochka letter read`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Authentication {
    /// The mode it was checked in.
    pub mode: Senders,
    /// The result.
    pub result: AuthResult,
    /// The signing domain (`d=` of the signature that passed, else of the first one found;
    /// in "authres" the `header.d` or `header.from` that was believed).
    pub domain: Option<String>,
    /// Why, in a few words for the admin (English).
    pub reason: String,
}

/// The result of a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthResult {
    /// The sender is proven (in "address" mode: not asked).
    Pass,
    /// A proof was offered and it is false, or it proves another domain.
    Fail,
    /// No proof at all: no signature, no field of our MX.
    None,
    /// The DNS did not answer (SERVFAIL, timeout): it may pass later.
    #[serde(rename = "temperror")]
    TempError,
}

impl std::fmt::Display for AuthResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AuthResult::Pass => "pass",
            AuthResult::Fail => "fail",
            AuthResult::None => "none",
            AuthResult::TempError => "temperror",
        })
    }
}

impl Authentication {
    fn new(mode: Senders, result: AuthResult, domain: Option<&str>, reason: String) -> Self {
        Authentication {
            mode,
            result,
            domain: domain.map(str::to_ascii_lowercase),
            reason,
        }
    }

    /// What "address" mode finds: the address alone is believed.
    pub fn address_only() -> Self {
        Self::new(
            Senders::Address,
            AuthResult::Pass,
            None,
            "address mode: the registered address alone".into(),
        )
    }

    /// Whether the sender is proven.
    pub fn is_pass(&self) -> bool {
        self.result == AuthResult::Pass
    }

    /// Whether the check may pass when tried again later (the DNS did not answer).
    pub fn is_transient(&self) -> bool {
        self.result == AuthResult::TempError
    }

    /// One line for logs and the archive: `dkim: fail (d=other.test): ...`.
    pub fn summary(&self) -> String {
        match &self.domain {
            Some(d) => format!("{}: {} (d={d}): {}", self.mode, self.result, self.reason),
            None => format!("{}: {}: {}", self.mode, self.result, self.reason),
        }
    }

    /// The JSON the store keeps.
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Why the verifier or a signer could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// The `dns_records` file cannot be read.
    #[error("cannot read the dns_records file '{path}': {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A line of the `dns_records` file that is not `NAME TEXT`.
    #[error("dns_records file '{path}' line {line}: {reason}")]
    Record {
        /// The file (empty for text given directly).
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The system's resolver configuration cannot be used.
    #[error("cannot use the system's DNS resolver ({0}); give [auth] dns_records instead")]
    Resolver(String),
    /// A signing key that cannot be used.
    #[error("dkim signing key: {0}")]
    Key(String),
}

// ---------------------------------------------------------------- the DNS

/// A fixed table of TXT records used instead of DNS: every name not in it does not exist.
///
/// The text form (the `dns_records` file, like OpenDKIM's TestPublicKeys) is one record per
/// line, `NAME TEXT`; the text may be written plain or as quoted strings that are joined,
/// as zone files and `opendkim-genkey` write them. Blank lines and `#` comments are skipped.
///
/// ```
/// use zaochka::mail::auth::DnsTable;
/// let table = DnsTable::parse(
///     "# test keys\n\
///      s1._domainkey.players.test v=DKIM1; k=rsa; p=MIIB\n\
///      _dmarc.players.test. \"v=DMARC1; \" \"p=reject\"\n",
/// )
/// .unwrap();
/// assert_eq!(table.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DnsTable {
    answers: HashMap<String, Answer>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    Records(Vec<String>),
    Failure(&'static str),
}

impl DnsTable {
    /// Reads the text form.
    ///
    /// # Errors
    /// [`AuthError::Record`] for a line without a name and a text.
    pub fn parse(text: &str) -> Result<DnsTable, AuthError> {
        Self::parse_named(text, Path::new(""))
    }

    /// Reads a `dns_records` file.
    ///
    /// # Errors
    /// [`AuthError::Read`] or [`AuthError::Record`].
    pub fn load(path: &Path) -> Result<DnsTable, AuthError> {
        let text = std::fs::read_to_string(path).map_err(|source| AuthError::Read {
            path: path.to_owned(),
            source,
        })?;
        Self::parse_named(&text, path)
    }

    fn parse_named(text: &str, path: &Path) -> Result<DnsTable, AuthError> {
        let mut table = DnsTable::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |reason: &str| AuthError::Record {
                path: path.to_owned(),
                line: n + 1,
                reason: reason.to_owned(),
            };
            let (name, rest) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| bad("want NAME TEXT"))?;
            let value = unquote(rest.trim());
            if value.is_empty() {
                return Err(bad("the record's text is empty"));
            }
            table.insert(name, &value);
        }
        Ok(table)
    }

    /// Adds a TXT record (a name may have several).
    pub fn insert(&mut self, name: &str, text: &str) {
        match self
            .answers
            .entry(fqdn(name))
            .or_insert_with(|| Answer::Records(Vec::new()))
        {
            Answer::Records(r) => r.push(text.to_owned()),
            other => *other = Answer::Records(vec![text.to_owned()]),
        }
    }

    /// Makes a name answer with a server failure (SERVFAIL), as a broken DNS would: for
    /// tests of the "try again later" path.
    pub fn fail(&mut self, name: &str) {
        self.answers
            .insert(fqdn(name), Answer::Failure("SERVFAIL (from the table)"));
    }

    /// How many names the table has.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Whether the table has no name.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }
}

/// `"v=DKIM1; " "p=AB"` → `v=DKIM1; p=AB`; plain text as it is; zone-file parentheses
/// dropped.
fn unquote(text: &str) -> String {
    let text = text.trim_start_matches('(').trim_end_matches(')').trim();
    if !text.starts_with('"') {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut inside = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => inside = !inside,
            '\\' if inside => out.extend(chars.next()),
            c if inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// Lower case with the final dot, as mail-auth asks.
fn fqdn(name: &str) -> String {
    let mut n = name.trim().to_ascii_lowercase();
    if !n.ends_with('.') {
        n.push('.');
    }
    n
}

/// One TXT lookup.
#[derive(Clone, Debug)]
enum Lookup {
    Found(Vec<Vec<u8>>),
    NotFound,
    Transient(String),
}

enum Dns {
    Table(DnsTable),
    System(Box<TokioResolver>),
}

impl Dns {
    async fn txt(&self, name: &str) -> Lookup {
        match self {
            Dns::Table(t) => match t.answers.get(name) {
                Some(Answer::Records(r)) => {
                    Lookup::Found(r.iter().map(|t| t.as_bytes().to_vec()).collect())
                }
                Some(Answer::Failure(why)) => Lookup::Transient((*why).to_owned()),
                None => Lookup::NotFound,
            },
            Dns::System(resolver) => match resolver.txt_lookup(name).await {
                Ok(lookup) => Lookup::Found(
                    lookup
                        .answers()
                        .iter()
                        .filter_map(|r| match &r.data {
                            RData::TXT(txt) => Some(txt.txt_data.concat()),
                            _ => None,
                        })
                        .collect(),
                ),
                Err(e) => classify(&e),
            },
        }
    }
}

/// NXDOMAIN and an empty answer are final; everything else (SERVFAIL, REFUSED, timeouts,
/// no server reachable) may pass later.
fn classify(e: &NetError) -> Lookup {
    match e {
        NetError::Dns(DnsError::NoRecordsFound(none))
            if matches!(
                none.response_code,
                ResponseCode::NXDomain | ResponseCode::NoError
            ) =>
        {
            Lookup::NotFound
        }
        other => Lookup::Transient(other.to_string()),
    }
}

/// The answers one letter's check needs, given to mail-auth as its cache: every name it asks
/// for is here (what was not looked up does not exist), so it never goes to the network.
struct Answers {
    txt: HashMap<String, Txt>,
    transient: Vec<String>,
}

impl ResolverCache<Box<str>, Txt> for Answers {
    fn get<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        // The trait hands a generic key; mail-auth's keys are always `str`, which the map's
        // `String` keys are looked up by through `Box<str>`'s own `Borrow<str>`.
        let found = self.txt.iter().find(|(k, _)| {
            let key: Box<str> = k.as_str().into();
            <Box<str> as Borrow<Q>>::borrow(&key) == name
        });
        Some(match found {
            Some((_, txt)) => txt.clone(),
            None => not_found(),
        })
    }

    fn remove<Q>(&self, _: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        None
    }

    fn insert(&self, _: Box<str>, _: Txt, _: std::time::Instant) {}
}

/// Every name exists (DMARC's non-existent-subdomain policy is no business of ours).
struct Exists;

impl ResolverCache<Box<str>, RecordSet<Ipv4Addr>> for Exists {
    fn get<Q>(&self, _: &Q) -> Option<RecordSet<Ipv4Addr>>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        Some(RecordSet {
            rrset: Arc::from([Ipv4Addr::LOCALHOST]),
            dnssec_status: Default::default(),
        })
    }

    fn remove<Q>(&self, _: &Q) -> Option<RecordSet<Ipv4Addr>>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        None
    }

    fn insert(&self, _: Box<str>, _: RecordSet<Ipv4Addr>, _: std::time::Instant) {}
}

fn not_found() -> Txt {
    Txt::Error(mail_auth::Error::Dns(mail_auth::DnsError::RecordNotFound(
        ResponseCode::NXDomain,
    )))
}

/// The `_dmarc` names of a domain's DNS tree walk (RFC 9989 4.10): the domain itself, then
/// at most seven labels, then one label less at a time.
fn dmarc_walk(domain: &str) -> Vec<String> {
    let labels: Vec<&str> = domain.split('.').filter(|l| !l.is_empty()).collect();
    let total = labels.len();
    let mut out = Vec::new();
    if total < 2 {
        return out;
    }
    let mut count = total;
    loop {
        out.push(fqdn(&format!(
            "_dmarc.{}",
            labels[total - count..].join(".")
        )));
        if count == 1 {
            break;
        }
        count = if count >= 8 { 7 } else { count - 1 };
    }
    out
}

// ---------------------------------------------------------------- the verifier

/// Checks letters as `[auth]` says.
pub struct Verifier {
    mode: Senders,
    authserv_id: String,
    dns: Dns,
    authenticator: MessageAuthenticator,
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verifier")
            .field("mode", &self.mode)
            .field("authserv_id", &self.authserv_id)
            .field(
                "dns",
                &match &self.dns {
                    Dns::Table(t) => format!("table of {} names", t.len()),
                    Dns::System(_) => "system resolver".into(),
                },
            )
            .finish()
    }
}

impl Verifier {
    /// The verifier `[auth]` describes: in "dkim" mode with the `dns_records` table when
    /// given, else the system's resolver (`/etc/resolv.conf`).
    ///
    /// # Errors
    /// [`AuthError`] when the table cannot be read or the system's resolver cannot be used.
    pub fn new(config: &AuthConfig) -> Result<Verifier, AuthError> {
        let dns = match (&config.dns_records, config.senders) {
            (Some(path), _) => Dns::Table(DnsTable::load(path)?),
            (None, Senders::Dkim) => {
                let (conf, opts) = mail_auth::hickory_resolver::system_conf::read_system_conf()
                    .map_err(|e| AuthError::Resolver(e.to_string()))?;
                Dns::System(Box::new(resolver(conf, opts)?))
            }
            (None, _) => Dns::Table(DnsTable::default()),
        };
        Self::build(config, dns)
    }

    /// A verifier that looks its records up in `table` only (tests, air-gapped servers).
    ///
    /// # Errors
    /// As [`Verifier::new`].
    pub fn with_table(config: &AuthConfig, table: DnsTable) -> Result<Verifier, AuthError> {
        Self::build(config, Dns::Table(table))
    }

    fn build(config: &AuthConfig, dns: Dns) -> Result<Verifier, AuthError> {
        // mail-auth wants a resolver of its own; every answer it needs is handed to it (see
        // `Answers`), so this one is never asked.
        let unused = ResolverConfig::from_parts(
            None,
            vec![],
            vec![NameServerConfig::udp(IpAddr::from(Ipv4Addr::LOCALHOST))],
        );
        let authenticator = MessageAuthenticator(resolver(unused, ResolverOpts::default())?);
        Ok(Verifier {
            mode: config.senders,
            authserv_id: config.authserv_id.clone(),
            dns,
            authenticator,
        })
    }

    /// The mode this verifier checks in.
    pub fn mode(&self) -> Senders {
        self.mode
    }

    /// Checks one raw letter as it arrived (LF or CRLF line ends).
    pub async fn verify(&self, raw: &[u8]) -> Authentication {
        match self.mode {
            Senders::Address => Authentication::address_only(),
            Senders::Authres => authres(raw, &self.authserv_id),
            Senders::Dkim => self.dkim(raw).await,
        }
    }

    async fn dkim(&self, raw: &[u8]) -> Authentication {
        let fail = |result, domain: Option<&str>, reason: String| {
            Authentication::new(Senders::Dkim, result, domain, reason)
        };
        let crlf = to_crlf(raw);
        let Some(message) = AuthenticatedMessage::parse(&crlf) else {
            return fail(AuthResult::Fail, None, "not a readable message".into());
        };
        let from_domain = match message.from.as_slice() {
            [one] => match one.rsplit_once('@') {
                Some((_, d)) if !d.is_empty() => d.trim_end_matches('.').to_ascii_lowercase(),
                _ => {
                    return fail(
                        AuthResult::Fail,
                        None,
                        "the From address has no domain".into(),
                    );
                }
            },
            [] => return fail(AuthResult::Fail, None, "no From address".into()),
            many => {
                return fail(
                    AuthResult::Fail,
                    None,
                    format!("{} From addresses: a letter has one sender", many.len()),
                );
            }
        };
        let has_errors = message
            .errors
            .iter()
            .any(|h| matches!(h.header, mail_auth::Error::Dkim(_)));
        if message.dkim_headers.is_empty() && !has_errors {
            return fail(AuthResult::None, None, "no DKIM signature".into());
        }

        // Every record the check may need, looked up first.
        let mut names = BTreeSet::new();
        names.extend(dmarc_walk(&from_domain));
        for h in &message.dkim_headers {
            let s = &h.header;
            names.insert(fqdn(&format!("{}._domainkey.{}", s.s, s.d)));
            names.extend(dmarc_walk(&s.d.to_ascii_lowercase()));
        }
        let names: Vec<String> = names.into_iter().collect();
        let lookups = futures::future::join_all(names.iter().map(|n| self.dns.txt(n))).await;
        let mut answers = Answers {
            txt: HashMap::new(),
            transient: Vec::new(),
        };
        for (name, lookup) in names.iter().zip(lookups) {
            let txt = match lookup {
                Lookup::Found(records) => parse_txt(name, &records),
                Lookup::NotFound => not_found(),
                Lookup::Transient(why) => {
                    answers.transient.push(format!("{name} {why}"));
                    Txt::Error(mail_auth::Error::Dns(mail_auth::DnsError::Resolver(why)))
                }
            };
            answers.txt.insert(name.clone(), txt);
        }

        let outputs = self
            .authenticator
            .verify_dkim(
                Parameters::new(&message)
                    .with_txt_cache(&answers)
                    .with_ipv4_cache(&Exists),
            )
            .await;
        let usable: Vec<DkimOutput<'_>> = outputs
            .iter()
            .filter(|o| o.result() == &DkimResult::Pass && refusal(o).is_none())
            .cloned()
            .collect();
        let domain_of = |o: &DkimOutput<'_>| o.signature().map(|s| s.d.to_ascii_lowercase());
        if let Some(d) = usable
            .iter()
            .filter_map(domain_of)
            .find(|d| *d == from_domain)
        {
            return fail(
                AuthResult::Pass,
                Some(&d),
                "dkim=pass by the From domain".into(),
            );
        }
        if !usable.is_empty() {
            let spf = SpfOutput::new(from_domain.clone());
            let dmarc = self
                .authenticator
                .verify_dmarc(
                    Parameters::new(DmarcParameters::new(&message, &usable, &from_domain, &spf))
                        .with_txt_cache(&answers)
                        .with_ipv4_cache(&Exists),
                )
                .await;
            if dmarc.dkim_result() == &DmarcResult::Pass {
                let d = usable
                    .iter()
                    .filter_map(domain_of)
                    .find(|d| shares_suffix(d, &from_domain));
                return fail(
                    AuthResult::Pass,
                    d.as_deref(),
                    format!("dkim=pass, aligned with {from_domain} by its DMARC record"),
                );
            }
        }
        if !answers.transient.is_empty()
            || outputs
                .iter()
                .any(|o| matches!(o.result(), DkimResult::TempError(_)))
        {
            return fail(
                AuthResult::TempError,
                outputs.iter().find_map(domain_of).as_deref(),
                format!(
                    "the DNS did not answer ({}); tried again later",
                    answers.transient.join(", ")
                ),
            );
        }
        // Why not: the most telling reason first.
        let first = outputs.iter().find_map(domain_of);
        if let Some(o) = outputs
            .iter()
            .find(|o| o.result() == &DkimResult::Pass && refusal(o).is_some())
        {
            return fail(
                AuthResult::Fail,
                domain_of(o).as_deref(),
                refusal(o).unwrap_or_default(),
            );
        }
        if let Some(d) = usable.iter().find_map(domain_of) {
            return fail(
                AuthResult::Fail,
                Some(&d),
                format!(
                    "signed by {d}, which is not the From domain {from_domain} nor aligned with it"
                ),
            );
        }
        let reason = outputs
            .iter()
            .map(|o| explain(o.result()))
            .next()
            .unwrap_or_else(|| "a DKIM signature that cannot be read".into());
        fail(AuthResult::Fail, first.as_deref(), reason)
    }
}

fn resolver(conf: ResolverConfig, opts: ResolverOpts) -> Result<TokioResolver, AuthError> {
    TokioResolver::builder_with_config(conf, TokioRuntimeProvider::default())
        .with_options(opts)
        .build()
        .map_err(|e| AuthError::Resolver(e.to_string()))
}

/// Why a verified signature still proves nothing, if it does not.
fn refusal(o: &DkimOutput<'_>) -> Option<String> {
    let s = o.signature()?;
    if !s.h.iter().any(|h| h.eq_ignore_ascii_case("from")) {
        return Some("the signature does not cover the From field".into());
    }
    if s.l != 0 {
        return Some(
            "the signature covers only part of the body (l=): text may have been added".into(),
        );
    }
    if s.a == Algorithm::RsaSha1 {
        return Some("an rsa-sha1 signature, no longer accepted (RFC 8301)".into());
    }
    None
}

fn explain(result: &DkimResult) -> String {
    use mail_auth::dkim::DkimError as E;
    match result {
        DkimResult::Neutral(mail_auth::Error::Dkim(E::FailedBodyHashMatch)) => {
            "dkim=neutral: the body was changed after signing".into()
        }
        DkimResult::Neutral(mail_auth::Error::Dkim(E::SignatureLength)) => {
            "the signature covers only part of the body (l=): text may have been added".into()
        }
        DkimResult::Neutral(mail_auth::Error::Dkim(E::SignatureExpired)) => {
            "dkim=neutral: the signature has expired".into()
        }
        DkimResult::Fail(mail_auth::Error::Crypto(_)) => {
            "dkim=fail: the signature does not verify (a signed field was changed, or the key \
             is not the signer's)"
                .into()
        }
        DkimResult::PermError(mail_auth::Error::Dns(_)) => {
            "dkim=permerror: no DKIM key is published for the signature's selector".into()
        }
        other => format!("dkim={other}"),
    }
}

fn shares_suffix(d: &str, from: &str) -> bool {
    let under = |a: &str, b: &str| a == b || a.ends_with(&format!(".{b}"));
    under(d, from) || under(from, d)
}

/// Parses the TXT records of a name as the kind of record the name is for.
fn parse_txt(name: &str, records: &[Vec<u8>]) -> Txt {
    let mut last = mail_auth::Error::Dns(mail_auth::DnsError::InvalidRecordType);
    for r in records {
        let parsed = if name.contains("._domainkey.") {
            DomainKey::parse(r).map(Txt::from)
        } else if name.starts_with("_dmarc.") {
            Dmarc::parse(r).map(Txt::from)
        } else {
            continue;
        };
        match parsed {
            Ok(txt) => return txt,
            Err(e) => last = e,
        }
    }
    Txt::Error(last)
}

/// The message as it was signed: every bare LF as CRLF (Maildir files have LF line ends).
pub fn to_crlf(raw: &[u8]) -> Cow<'_, [u8]> {
    let bare = raw
        .iter()
        .enumerate()
        .any(|(i, b)| *b == b'\n' && (i == 0 || raw[i - 1] != b'\r'));
    if !bare {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 16);
    for (i, b) in raw.iter().enumerate() {
        if *b == b'\n' && (i == 0 || raw[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(*b);
    }
    Cow::Owned(out)
}

// ---------------------------------------------------------------- Authentication-Results

/// One method result of an Authentication-Results field.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ResInfo {
    method: String,
    result: String,
    props: Vec<(String, String)>,
}

impl ResInfo {
    fn prop(&self, name: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The domain this result is about: `header.d` (dkim) or `header.from` (dmarc); the
    /// local part of an `@`-form is dropped.
    fn domain(&self) -> Option<String> {
        let v = match self.method.as_str() {
            "dkim" => self.prop("header.d").or(self.prop("header.i")),
            "dmarc" => self.prop("header.from"),
            _ => None,
        }?;
        let d = v.rsplit_once('@').map_or(v, |(_, d)| d);
        Some(d.trim_end_matches('.').to_ascii_lowercase())
    }
}

/// "authres" mode: the block of our MX's fields at the top of the header.
fn authres(raw: &[u8], authserv_id: &str) -> Authentication {
    let done = |result, domain: Option<&str>, reason: String| {
        Authentication::new(Senders::Authres, result, domain, reason)
    };
    let Some(message) = mail_parser::MessageParser::default().parse(raw) else {
        return done(AuthResult::Fail, None, "not a readable message".into());
    };
    let mut froms = Vec::new();
    for h in message.headers() {
        if h.name == mail_parser::HeaderName::From {
            match h.value.as_address() {
                Some(a) => froms.extend(a.iter().map(|m| m.address().unwrap_or("").to_owned())),
                None => froms.push(String::new()),
            }
        }
    }
    let from_domain = match froms.as_slice() {
        [one] => match one.rsplit_once('@') {
            Some((_, d)) if !d.is_empty() => d.trim_end_matches('.').to_ascii_lowercase(),
            _ => {
                return done(
                    AuthResult::Fail,
                    None,
                    "the From address has no domain".into(),
                );
            }
        },
        _ => {
            return done(
                AuthResult::Fail,
                None,
                format!("{} From addresses: a letter has one sender", froms.len()),
            );
        }
    };

    // The top block. Above it may stand only what the final delivery adds after our MX:
    // Return-Path, Delivered-To, X-Original-To, and the Received field of an LMTP hop
    // (Dovecot's). It ends at any other Received (the MX's own, written below the fields its
    // milters insert), at a field of another id, or at any other field.
    let mut ours: Vec<ResInfo> = Vec::new();
    let mut started = false;
    for h in message.headers() {
        let name = h.name.as_str();
        if name.eq_ignore_ascii_case("Authentication-Results") {
            let value = &raw[h.offset_start as usize..h.offset_end as usize];
            match parse_authres(&String::from_utf8_lossy(value)) {
                Some((id, results)) if id.eq_ignore_ascii_case(authserv_id) => {
                    started = true;
                    ours.extend(results);
                    continue;
                }
                _ => break,
            }
        }
        let is_lmtp = name.eq_ignore_ascii_case("Received") && {
            let value =
                String::from_utf8_lossy(&raw[h.offset_start as usize..h.offset_end as usize])
                    .to_ascii_lowercase();
            value
                .split_whitespace()
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| w == ["with", "lmtp"])
        };
        let is_stamp = is_lmtp
            || ["Return-Path", "Delivered-To", "X-Original-To"]
                .iter()
                .any(|s| name.eq_ignore_ascii_case(s));
        if started || !is_stamp {
            break;
        }
    }
    if ours.is_empty() {
        return done(
            AuthResult::None,
            None,
            format!("no Authentication-Results field of {authserv_id} at the top of the header"),
        );
    }
    let about_from = |r: &&ResInfo| r.domain().as_deref() == Some(from_domain.as_str());
    let is_fail = |r: &str| matches!(r, "fail" | "permerror" | "policy" | "neutral");
    if let Some(bad) = ours
        .iter()
        .filter(about_from)
        .find(|r| (r.method == "dkim" || r.method == "dmarc") && is_fail(&r.result))
    {
        return done(
            AuthResult::Fail,
            Some(&from_domain),
            format!("{}={} for {from_domain}", bad.method, bad.result),
        );
    }
    if let Some(good) = ours
        .iter()
        .filter(about_from)
        .find(|r| (r.method == "dkim" || r.method == "dmarc") && r.result == "pass")
    {
        return done(
            AuthResult::Pass,
            Some(&from_domain),
            format!("{}=pass for {from_domain} by {authserv_id}", good.method),
        );
    }
    if ours
        .iter()
        .any(|r| r.method == "dkim" || r.method == "dmarc")
        && ours.iter().any(|r| r.result == "temperror")
    {
        return done(
            AuthResult::Fail,
            None,
            format!("{authserv_id} could not check the letter (temperror)"),
        );
    }
    let said: Vec<String> = ours
        .iter()
        .map(|r| match r.domain() {
            Some(d) => format!("{}={} ({d})", r.method, r.result),
            None => format!("{}={}", r.method, r.result),
        })
        .collect();
    done(
        if ours
            .iter()
            .any(|r| r.method == "dkim" || r.method == "dmarc")
        {
            AuthResult::Fail
        } else {
            AuthResult::None
        },
        None,
        format!(
            "{authserv_id} says {}: no dkim or dmarc pass for {from_domain}",
            said.join(", ")
        ),
    )
}

/// Parses one Authentication-Results value (RFC 8601): the authserv-id and the results.
fn parse_authres(value: &str) -> Option<(String, Vec<ResInfo>)> {
    // Comments out, quoted strings kept whole, ';' separates.
    let mut clean = String::with_capacity(value.len());
    let mut depth = 0usize;
    let mut quoted = false;
    let mut parts = Vec::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted || depth > 0 => {
                let n = chars.next();
                if depth == 0 {
                    clean.extend(n);
                }
            }
            '"' if depth == 0 => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted && depth > 0 => depth -= 1,
            ';' if !quoted && depth == 0 => parts.push(std::mem::take(&mut clean)),
            c if depth == 0 => clean.push(if c.is_whitespace() { ' ' } else { c }),
            _ => {}
        }
    }
    parts.push(clean);
    let mut parts = parts.into_iter();
    let id = parts
        .next()?
        .split_whitespace()
        .next()?
        .to_ascii_lowercase();
    let mut results = Vec::new();
    for part in parts {
        // `a = b` as `a=b`: spaces around '=' are CFWS.
        let part = part.split('=').map(str::trim).collect::<Vec<_>>().join("=");
        let mut words = part.split_whitespace();
        let Some(first) = words.next() else { continue };
        let Some((method, result)) = first.split_once('=') else {
            continue; // "none", or a version number
        };
        let method = method.split('/').next().unwrap_or("").to_ascii_lowercase();
        let props = words
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_ascii_lowercase(), v.to_owned()))
            .collect();
        results.push(ResInfo {
            method,
            result: result.to_ascii_lowercase(),
            props,
        });
    }
    Some((id, results))
}

// ---------------------------------------------------------------- signing

/// Signs letters with DKIM: the demo's players and the tests write letters as a signing
/// mail server would deliver them.
pub struct Signer {
    domain: String,
    selector: String,
    /// `k=` and `p=` of the published key.
    kind: &'static str,
    public: Vec<u8>,
    signer: DkimSigner<DkimKey, Done>,
}

/// The fields a signature covers, as common signing servers choose them.
const SIGNED: [&str; 10] = [
    "From",
    "To",
    "Cc",
    "Subject",
    "Date",
    "Message-ID",
    "In-Reply-To",
    "References",
    "MIME-Version",
    "Content-Type",
];

impl Signer {
    fn with_key(
        domain: &str,
        selector: &str,
        kind: &'static str,
        public: Vec<u8>,
        key: DkimKey,
    ) -> Signer {
        let domain = domain.to_ascii_lowercase();
        Signer {
            signer: DkimSigner::from_key(key)
                .domain(domain.clone())
                .selector(selector)
                .headers(SIGNED),
            domain,
            selector: selector.to_owned(),
            kind,
            public,
        }
    }

    /// An RSA-SHA256 signer from a PEM key (`BEGIN RSA PRIVATE KEY` or `BEGIN PRIVATE KEY`).
    ///
    /// # Errors
    /// [`AuthError::Key`] for a key that cannot be read.
    pub fn rsa_pem(domain: &str, selector: &str, pem: &str) -> Result<Signer, AuthError> {
        use rustls::pki_types::{PrivateKeyDer, pem::PemObject};
        let der = PrivateKeyDer::from_pem_slice(pem.as_bytes())
            .map_err(|e| AuthError::Key(e.to_string()))?;
        let key = RsaKey::<Sha256>::from_key_der(der).map_err(|e| AuthError::Key(e.to_string()))?;
        let public = key.public_key();
        Ok(Self::with_key(domain, selector, "rsa", public, key.into()))
    }

    /// An Ed25519-SHA256 signer (RFC 8463) from the 32-byte seed and public key, base64.
    ///
    /// # Errors
    /// [`AuthError::Key`] for a key that cannot be read.
    pub fn ed25519(
        domain: &str,
        selector: &str,
        seed_base64: &str,
        public_base64: &str,
    ) -> Result<Signer, AuthError> {
        use mail_parser::decoders::base64::base64_decode;
        let bad = || AuthError::Key("not base64".into());
        let seed = base64_decode(seed_base64.trim().as_bytes()).ok_or_else(bad)?;
        let public = base64_decode(public_base64.trim().as_bytes()).ok_or_else(bad)?;
        let key = Ed25519Key::from_seed_and_public_key(&seed, &public)
            .map_err(|e| AuthError::Key(e.to_string()))?;
        Ok(Self::with_key(
            domain,
            selector,
            "ed25519",
            public,
            key.into(),
        ))
    }

    /// The DNS record that publishes the key: `NAME TEXT`, one line of a `dns_records` file.
    pub fn dns_record(&self) -> String {
        format!(
            "{}._domainkey.{} v=DKIM1; k={}; p={}",
            self.selector,
            self.domain,
            self.kind,
            base64(&self.public)
        )
    }

    /// The letter with a `DKIM-Signature` field on top, in the line ends it came with
    /// (a Maildir file keeps its LF).
    ///
    /// # Errors
    /// [`AuthError::Key`] when signing fails (a message without any of the signed fields).
    pub fn sign(&self, raw: &[u8]) -> Result<Vec<u8>, AuthError> {
        let crlf = to_crlf(raw);
        let header = self
            .signer
            .sign(&crlf)
            .map(|s| s.to_header())
            .map_err(|e| AuthError::Key(e.to_string()))?;
        let header = match crlf {
            Cow::Owned(_) => header.replace("\r\n", "\n"),
            Cow::Borrowed(_) => header,
        };
        let mut out = header.into_bytes();
        out.extend_from_slice(raw);
        Ok(out)
    }
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = u32::from(chunk[0]) << 16
            | u32::from(*chunk.get(1).unwrap_or(&0)) << 8
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
