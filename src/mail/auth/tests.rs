//! The verifier with fixed keys and a fixed table of DNS records: no network.

use super::*;

const PLAYERS_RSA: &str = include_str!("../../../tests/data/auth/players.rsa.pem");
const FORGER_RSA: &str = include_str!("../../../tests/data/auth/forger.rsa.pem");
const FEDERATION_SEED: &str = include_str!("../../../tests/data/auth/federation.ed25519.seed");
const FEDERATION_PUB: &str = include_str!("../../../tests/data/auth/federation.ed25519.pub");

fn players() -> Signer {
    Signer::rsa_pem("players.test", "s1", PLAYERS_RSA).unwrap()
}

fn federation() -> Signer {
    Signer::ed25519("federation.test", "ed", FEDERATION_SEED, FEDERATION_PUB).unwrap()
}

fn forger() -> Signer {
    Signer::rsa_pem("forger.test", "s1", FORGER_RSA).unwrap()
}

/// The published keys of the three signers.
fn table() -> DnsTable {
    let mut t = DnsTable::default();
    for s in [players(), federation(), forger()] {
        let line = s.dns_record();
        let (name, text) = line.split_once(' ').unwrap();
        t.insert(name, text);
    }
    t
}

fn dkim() -> AuthConfig {
    AuthConfig::default()
}

fn authres_mode() -> AuthConfig {
    AuthConfig {
        senders: Senders::Authres,
        authserv_id: "mx.tournament.test".into(),
        ..AuthConfig::default()
    }
}

fn letter(from: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Иванов <{from}>\r\nTo: zaochka@tournament.test\r\nSubject: =?UTF-8?B?0J/QsNGA0YLQuNGPIDc=?=\r\n\
         Date: Tue, 01 Dec 2026 10:00:00 +0300\r\nMessage-ID: <m1@players.test>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

async fn check(config: &AuthConfig, table: DnsTable, raw: &[u8]) -> Authentication {
    Verifier::with_table(config, table)
        .unwrap()
        .verify(raw)
        .await
}

fn lf(raw: &[u8]) -> Vec<u8> {
    String::from_utf8(raw.to_vec())
        .unwrap()
        .replace("\r\n", "\n")
        .into_bytes()
}

fn replace(raw: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(raw.to_vec()).unwrap();
    assert!(text.contains(from), "{from} not in the letter");
    text.replacen(from, to, 1).into_bytes()
}

#[tokio::test]
async fn a_letter_signed_by_the_from_domain_passes() {
    let raw = players()
        .sign(&letter("ivanov@players.test", "Мой ход: 1. c3-d4"))
        .unwrap();
    let a = check(&dkim(), table(), &raw).await;
    assert_eq!(a.result, AuthResult::Pass, "{a:?}");
    assert_eq!(a.domain.as_deref(), Some("players.test"));
    assert_eq!(a.mode, Senders::Dkim);
}

#[tokio::test]
async fn a_maildir_file_with_lf_line_ends_verifies_as_the_crlf_message_that_was_signed() {
    let crlf = players()
        .sign(&letter(
            "ivanov@players.test",
            "Мой ход: 1. c3-d4\r\nС уважением",
        ))
        .unwrap();
    let stored = lf(&crlf);
    assert!(!stored.contains(&b'\r'));
    let a = check(&dkim(), table(), &stored).await;
    assert_eq!(a.result, AuthResult::Pass, "{a:?}");
    // Signed as an LF file (the demo writes its letters so): the signature keeps LF too.
    let signed_lf = players()
        .sign(&lf(&letter("ivanov@players.test", "Сдаюсь")))
        .unwrap();
    assert!(!signed_lf.contains(&b'\r'));
    assert_eq!(
        check(&dkim(), table(), &signed_lf).await.result,
        AuthResult::Pass
    );
}

#[tokio::test]
async fn an_ed25519_signature_passes() {
    let raw = federation()
        .sign(&letter("arbiter@federation.test", "Результат: 1-0"))
        .unwrap();
    assert!(String::from_utf8_lossy(&raw).contains("a=ed25519-sha256"));
    let a = check(&dkim(), table(), &raw).await;
    assert_eq!(a.result, AuthResult::Pass, "{a:?}");
    assert_eq!(a.domain.as_deref(), Some("federation.test"));
}

#[tokio::test]
async fn an_unsigned_letter_proves_nothing() {
    let a = check(&dkim(), table(), &letter("ivanov@players.test", "Сдаюсь")).await;
    assert_eq!(a.result, AuthResult::None, "{a:?}");
    assert!(!a.is_pass());
}

#[tokio::test]
async fn another_domains_valid_signature_does_not_prove_the_from_address() {
    let raw = forger()
        .sign(&letter("arbiter@federation.test", "Результат: 1-0"))
        .unwrap();
    let a = check(&dkim(), table(), &raw).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
    assert_eq!(a.domain.as_deref(), Some("forger.test"));
    assert!(a.reason.contains("not the From domain"), "{}", a.reason);
}

#[tokio::test]
async fn a_body_changed_after_signing_fails() {
    let raw = players()
        .sign(&letter("ivanov@players.test", "Мой ход: 1. c3-d4"))
        .unwrap();
    let changed = replace(&raw, "Мой ход: 1. c3-d4", "Сдаюсь");
    let a = check(&dkim(), table(), &changed).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
    assert!(a.reason.contains("body was changed"), "{}", a.reason);
}

#[tokio::test]
async fn a_from_changed_after_signing_fails() {
    let raw = players()
        .sign(&letter("ivanov@players.test", "Мой ход: 1. c3-d4"))
        .unwrap();
    let changed = replace(&raw, "ivanov@players.test", "petrov@players.test");
    let a = check(&dkim(), table(), &changed).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
    assert!(a.reason.contains("does not verify"), "{}", a.reason);
}

#[tokio::test]
async fn a_second_from_field_above_a_signed_letter_fails() {
    let raw = players()
        .sign(&letter("ivanov@players.test", "Сдаюсь"))
        .unwrap();
    let mut forged = b"From: arbiter@players.test\r\n".to_vec();
    forged.extend_from_slice(&raw);
    let a = check(&dkim(), table(), &forged).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
    assert!(a.reason.contains("2 From addresses"), "{}", a.reason);
}

#[tokio::test]
async fn a_subdomains_signature_passes_when_the_dmarc_record_aligns_it() {
    let sub = Signer::rsa_pem("mail.players.test", "s1", PLAYERS_RSA).unwrap();
    let raw = sub
        .sign(&letter("ivanov@players.test", "Мой ход: 1. c3-d4"))
        .unwrap();
    let mut t = table();
    let line = sub.dns_record();
    let (name, text) = line.split_once(' ').unwrap();
    t.insert(name, text);

    // No DMARC record: only d= equal to the From domain counts.
    let a = check(&dkim(), t.clone(), &raw).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");

    // Relaxed alignment (the default): the same organisational domain.
    let mut relaxed = t.clone();
    relaxed.insert("_dmarc.players.test", "v=DMARC1; p=none");
    let a = check(&dkim(), relaxed, &raw).await;
    assert_eq!(a.result, AuthResult::Pass, "{a:?}");
    assert_eq!(a.domain.as_deref(), Some("mail.players.test"));
    assert!(a.reason.contains("aligned"), "{}", a.reason);

    // Strict alignment: the domains must be equal.
    let mut strict = t;
    strict.insert("_dmarc.players.test", "v=DMARC1; p=reject; adkim=s");
    let a = check(&dkim(), strict, &raw).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
}

#[tokio::test]
async fn a_sibling_under_a_public_suffix_is_not_aligned() {
    // club.msk.ru and evil.msk.ru are two organisations under the public suffix msk.ru.
    let evil = Signer::rsa_pem("evil.msk.ru", "s1", FORGER_RSA).unwrap();
    let raw = evil
        .sign(&letter("arbiter@club.msk.ru", "Результат: 1-0"))
        .unwrap();
    let mut t = DnsTable::default();
    let line = evil.dns_record();
    let (name, text) = line.split_once(' ').unwrap();
    t.insert(name, text);
    t.insert("_dmarc.club.msk.ru", "v=DMARC1; p=reject");
    t.insert("_dmarc.evil.msk.ru", "v=DMARC1; p=reject");
    let a = check(&dkim(), t, &raw).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
}

#[tokio::test]
async fn a_server_failure_on_the_key_is_temporary_and_a_missing_key_final() {
    let raw = players()
        .sign(&letter("ivanov@players.test", "Сдаюсь"))
        .unwrap();
    let mut broken = table();
    broken.fail("s1._domainkey.players.test");
    let a = check(&dkim(), broken, &raw).await;
    assert_eq!(a.result, AuthResult::TempError, "{a:?}");
    assert!(a.is_transient());

    let a = check(&dkim(), DnsTable::default(), &raw).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
    assert!(!a.is_transient());
    assert!(a.reason.contains("no DKIM key"), "{}", a.reason);
}

#[tokio::test]
async fn a_server_failure_on_the_dmarc_record_needed_for_alignment_is_temporary() {
    let sub = Signer::rsa_pem("mail.players.test", "s1", PLAYERS_RSA).unwrap();
    let raw = sub.sign(&letter("ivanov@players.test", "Сдаюсь")).unwrap();
    let mut t = DnsTable::default();
    let line = sub.dns_record();
    let (name, text) = line.split_once(' ').unwrap();
    t.insert(name, text);
    t.fail("_dmarc.players.test");
    let a = check(&dkim(), t, &raw).await;
    assert_eq!(a.result, AuthResult::TempError, "{a:?}");
}

#[tokio::test]
async fn a_signature_over_part_of_the_body_proves_nothing() {
    // l= lets anyone append text after the signed part: "Сдаюсь" below a real move.
    let key = RsaKey::<Sha256>::from_key_der({
        use rustls::pki_types::{PrivateKeyDer, pem::PemObject};
        PrivateKeyDer::from_pem_slice(PLAYERS_RSA.as_bytes()).unwrap()
    })
    .unwrap();
    let raw = letter("ivanov@players.test", "Мой ход: 1. c3-d4");
    let sig = DkimSigner::from_key(key)
        .domain("players.test")
        .selector("s1")
        .headers(["From", "To", "Subject"])
        .body_length(true)
        .sign(&raw)
        .unwrap();
    let mut signed = sig.to_header().into_bytes();
    signed.extend_from_slice(&raw);
    signed.extend_from_slice("Сдаюсь\r\n".as_bytes());
    let a = check(&dkim(), table(), &signed).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
    assert!(a.reason.contains("part of the body"), "{}", a.reason);
}

#[tokio::test]
async fn a_signature_that_does_not_cover_from_proves_nothing() {
    let key = RsaKey::<Sha256>::from_key_der({
        use rustls::pki_types::{PrivateKeyDer, pem::PemObject};
        PrivateKeyDer::from_pem_slice(PLAYERS_RSA.as_bytes()).unwrap()
    })
    .unwrap();
    let raw = letter("ivanov@players.test", "Сдаюсь");
    let sig = DkimSigner::from_key(key)
        .domain("players.test")
        .selector("s1")
        .headers(["Subject", "Date"])
        .sign(&raw)
        .unwrap();
    let mut signed = sig.to_header().into_bytes();
    signed.extend_from_slice(&raw);
    let a = check(&dkim(), table(), &signed).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
    assert!(a.reason.contains("From field"), "{}", a.reason);
}

#[tokio::test]
async fn address_mode_believes_the_address() {
    let config = AuthConfig {
        senders: Senders::Address,
        ..AuthConfig::default()
    };
    let a = check(&config, DnsTable::default(), &letter("x@players.test", "x")).await;
    assert_eq!(a, Authentication::address_only());
}

fn with_fields(fields: &str, from: &str) -> Vec<u8> {
    let mut raw = fields.replace('\n', "\r\n").into_bytes();
    raw.extend_from_slice(&letter(from, "Результат: 1-0"));
    raw
}

#[tokio::test]
async fn authres_believes_our_mx_in_the_block_at_the_top() {
    let raw = with_fields(
        "Return-Path: <ivanov@players.test>\nDelivered-To: zaochka@tournament.test\n\
         Authentication-Results: mx.tournament.test;\n\tdkim=pass (2048-bit key; unprotected) header.d=players.test header.i=@players.test header.b=\"AbCd\";\n\tdmarc=none (p=none dis=none) header.from=players.test\n\
         Received: from mail.players.test by mx.tournament.test (Postfix) with ESMTPS id 1\n",
        "ivanov@players.test",
    );
    let a = check(&authres_mode(), DnsTable::default(), &raw).await;
    assert_eq!(a.result, AuthResult::Pass, "{a:?}");
    assert_eq!(a.mode, Senders::Authres);
    assert_eq!(a.domain.as_deref(), Some("players.test"));
}

#[tokio::test]
async fn authres_dmarc_pass_with_header_from_counts() {
    let raw = with_fields(
        "Authentication-Results: MX.tournament.test; dmarc=pass (p=reject dis=none) header.from=federation.test\n",
        "arbiter@federation.test",
    );
    let a = check(&authres_mode(), DnsTable::default(), &raw).await;
    assert_eq!(a.result, AuthResult::Pass, "{a:?}");
}

#[tokio::test]
async fn authres_a_forged_field_below_ours_is_not_read() {
    let raw = with_fields(
        "Authentication-Results: mx.tournament.test; dkim=none; spf=softfail smtp.mailfrom=evil.test\n\
         Received: from evil.test by mx.tournament.test (Postfix) with ESMTP id 2\n\
         Authentication-Results: mx.tournament.test; dkim=pass header.d=federation.test; dmarc=pass header.from=federation.test\n",
        "arbiter@federation.test",
    );
    let a = check(&authres_mode(), DnsTable::default(), &raw).await;
    assert!(!a.is_pass(), "{a:?}");
    // Below a Received even with nothing of ours above it: not ours either.
    let raw = with_fields(
        "Received: from evil.test by mx.tournament.test (Postfix) with ESMTP id 2\n\
         Authentication-Results: mx.tournament.test; dkim=pass header.d=federation.test\n",
        "arbiter@federation.test",
    );
    let a = check(&authres_mode(), DnsTable::default(), &raw).await;
    assert_eq!(a.result, AuthResult::None, "{a:?}");
    // Below another server's field: not ours.
    let raw = with_fields(
        "Authentication-Results: other.example; dkim=fail header.d=federation.test\n\
         Authentication-Results: mx.tournament.test; dkim=pass header.d=federation.test\n",
        "arbiter@federation.test",
    );
    let a = check(&authres_mode(), DnsTable::default(), &raw).await;
    assert_eq!(a.result, AuthResult::None, "{a:?}");
}

#[tokio::test]
async fn authres_a_fail_for_the_from_domain_outweighs_a_pass() {
    let raw = with_fields(
        "Authentication-Results: mx.tournament.test; dkim=pass header.d=federation.test\n\
         Authentication-Results: mx.tournament.test; dkim=fail (bad signature) header.d=federation.test\n",
        "arbiter@federation.test",
    );
    let a = check(&authres_mode(), DnsTable::default(), &raw).await;
    assert_eq!(a.result, AuthResult::Fail, "{a:?}");
}

#[tokio::test]
async fn authres_spf_alone_or_another_domains_pass_never_proves_the_sender() {
    for fields in [
        "Authentication-Results: mx.tournament.test; spf=pass smtp.mailfrom=federation.test\n",
        "Authentication-Results: mx.tournament.test; dkim=pass header.d=forger.test; dmarc=fail header.from=federation.test\n",
        "Authentication-Results: mx.tournament.test; dkim=pass header.d=forger.test\n",
    ] {
        let raw = with_fields(fields, "arbiter@federation.test");
        let a = check(&authres_mode(), DnsTable::default(), &raw).await;
        assert!(!a.is_pass(), "{fields}: {a:?}");
    }
}

#[test]
fn authentication_results_fields_parse_with_comments_and_folding() {
    let (id, r) = parse_authres(
        " mx.example.org 1;\r\n\tdkim=pass (1024-bit key; \"x\") header.d=Example.ORG\r\n header.b=\"a;b\"; spf = pass smtp.mailfrom=x@example.org; none",
    )
    .unwrap();
    assert_eq!(id, "mx.example.org");
    assert_eq!(r.len(), 2);
    assert_eq!(
        (r[0].method.as_str(), r[0].result.as_str()),
        ("dkim", "pass")
    );
    assert_eq!(r[0].domain().as_deref(), Some("example.org"));
    assert_eq!(r[0].prop("header.b"), Some("a;b"));
    assert_eq!(r[1].method, "spf");
}

#[test]
fn the_dns_records_file_reads_plain_and_quoted_text_and_names_a_bad_line() {
    let t = DnsTable::parse(
        "# keys\n\nsel._domainkey.example.org v=DKIM1; k=rsa; p=MIIB\n\
         _dmarc.example.org.  ( \"v=DMARC1; \" \"p=reject\" )\n",
    )
    .unwrap();
    assert_eq!(
        t.answers.get("_dmarc.example.org."),
        Some(&Answer::Records(vec!["v=DMARC1; p=reject".into()]))
    );
    assert_eq!(
        t.answers.get("sel._domainkey.example.org."),
        Some(&Answer::Records(vec!["v=DKIM1; k=rsa; p=MIIB".into()]))
    );
    let err = DnsTable::parse("ok.example.org v=DKIM1\nlonely\n").unwrap_err();
    assert!(err.to_string().contains("line 2"), "{err}");
}

#[test]
fn the_dmarc_walk_goes_down_to_the_top_level_domain() {
    assert_eq!(
        dmarc_walk("a.b.example.org"),
        vec![
            "_dmarc.a.b.example.org.",
            "_dmarc.b.example.org.",
            "_dmarc.example.org.",
            "_dmarc.org."
        ]
    );
    assert_eq!(dmarc_walk("localhost"), Vec::<String>::new());
}

#[test]
fn base64_matches_the_standard_alphabet() {
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
}

#[tokio::test]
async fn authres_reads_a_letter_as_postfix_opendkim_and_dovecot_lmtp_delivered_it() {
    // Delivered by the test stack: Dovecot's LMTP Received on top, then OpenDKIM's field
    // (inserted above Postfix's own Received), then Postfix's Received.
    let raw = include_bytes!("../../../tests/data/auth/opendkim-lmtp-delivered.eml");
    let a = check(&authres_mode(), DnsTable::default(), raw).await;
    assert_eq!(a.result, AuthResult::Pass, "{a:?}");
    assert_eq!(a.domain.as_deref(), Some("dkim.test"));
    // The same field written by a sender below Postfix's Received is not believed.
    let text = String::from_utf8_lossy(raw).into_owned();
    let at = text.find("Authentication-Results").unwrap();
    let end = text[at..].find("\nReceived: from [127.0.0.1]").unwrap() + at + 1;
    let field = &text[at..end];
    let moved = text.replacen(field, "", 1).replacen(
        "From: white@dkim.test",
        &format!("{field}From: white@dkim.test"),
        1,
    );
    let a = check(&authres_mode(), DnsTable::default(), moved.as_bytes()).await;
    assert_eq!(a.result, AuthResult::None, "{a:?}");
    // And OpenDKIM's signature verifies in "dkim" mode, from the key it published.
    let keys = DnsTable::parse(include_str!(
        "../../../tests/data/auth/opendkim-lmtp-delivered.dns"
    ))
    .unwrap();
    let a = check(&dkim(), keys, raw).await;
    assert_eq!(a.result, AuthResult::Pass, "{a:?}");
    assert_eq!(a.domain.as_deref(), Some("dkim.test"));
}
