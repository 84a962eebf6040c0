//! The office's register of players between the start and the end of a tournament: a
//! player's new address (`zaochka player set-email`).

use chrono::{DateTime, Utc};

use super::{Office, OfficeError, state_of};
use crate::render::Lang;
use crate::render::letters::Refused;
use crate::store::{Player, Store, StoreError};
use crate::tournament::shown_name;

/// A name as compared when an organiser names a player: the shown name, letter case and
/// `ё`/`е` ignored.
pub(super) fn folded(name: &str) -> String {
    shown_name(name).to_lowercase().replace('ё', "е")
}

/// What `set-email` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddressChange {
    /// The player had this address already: nothing changed, nobody was told.
    Unchanged,
    /// The address changed from `former`; the player's games follow it and both addresses
    /// are told.
    Changed {
        /// The player as registered (his name).
        name: String,
        /// The address he had.
        former: String,
        /// The games whose state now carries the new address.
        games: usize,
    },
}

impl Office {
    /// Changes the address of the player `name` of tournament `cipher` to `email` (players
    /// change mailboxes mid-tournament), in one transaction: the register, every game of his
    /// (the state names the players' addresses), and a note to the old address and the new
    /// one. From then on only letters from the new address move his games; the letters he
    /// wrote from the old one stay his (the arbiter's papers still attach them, 10.3.6).
    /// The caller checks that `email` is an address and not an official's.
    ///
    /// # Errors
    /// [`OfficeError::Refused`] for an unknown tournament, an unknown player, or an address
    /// another player of the tournament has; the store's errors otherwise.
    pub fn set_player_email(
        &self,
        store: &mut Store,
        cipher: &str,
        name: &str,
        email: &str,
        now: DateTime<Utc>,
    ) -> Result<AddressChange, OfficeError> {
        store.with_transaction(|tx| {
            let t = tx
                .find_tournament(cipher)?
                .ok_or_else(|| OfficeError::Refused(format!("no tournament '{cipher}'")))?;
            let players = tx.players(t.id)?;
            let wanted = folded(name);
            let p: &Player = players
                .iter()
                .find(|p| folded(&p.name) == wanted)
                .ok_or_else(|| {
                    let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
                    OfficeError::Refused(format!(
                        "no player '{name}' in {}; its players: {}",
                        t.cipher,
                        if names.is_empty() { "none".to_string() } else { names.join(", ") }
                    ))
                })?;
            if p.email.eq_ignore_ascii_case(email) {
                return Ok(AddressChange::Unchanged);
            }
            tx.set_player_email(p.id, email, now).map_err(|e| match e {
                StoreError::PlayerExists { .. } => OfficeError::Refused(format!(
                    "'{email}' is already the address of another player of {}",
                    t.cipher
                )),
                e => e.into(),
            })?;
            let mut games = 0;
            for g in tx.games_of_player(p.id)? {
                let mut state = state_of(&g)?;
                for side in [crate::game::Side::White, crate::game::Side::Black] {
                    if state.players[side].id == p.id.0 {
                        state.players[side].email = email.to_string();
                    }
                }
                tx.update_game_with(
                    g.id,
                    g.status,
                    g.result.as_deref(),
                    &state,
                    g.next_due,
                    now,
                )?;
                games += 1;
            }
            let shown = shown_name(&p.name);
            let (subject, text) = match self.lang() {
                Lang::Ru => (
                    format!("{}: адрес для писем изменён", t.cipher),
                    format!(
                        "ваш адрес в турнире {} изменён: прежний — {}, новый — {email}. С этого дня ходы в ваших партиях принимаются только с нового адреса; партии и все ваши письма сохранены.",
                        t.cipher, p.email
                    ),
                ),
                Lang::En => (
                    format!("{}: your address is changed", t.cipher),
                    format!(
                        "your address in tournament {} is changed: the former one is {}, the new one is {email}. From today moves in your games are accepted only from the new address; your games and all your letters are kept.",
                        t.cipher, p.email
                    ),
                ),
            };
            let ctx = Refused {
                subject,
                to_name: shown.clone(),
                reason: text,
                federation: self.config.federation.clone(),
            };
            for to in [p.email.as_str(), email] {
                self.queue(tx, super::kinds::Outgoing::new(&super::kinds::NOTE, vec![(shown.clone(), to.to_string())]), &ctx, now)?;
            }
            Ok(AddressChange::Changed {
                name: shown,
                former: p.email.clone(),
                games,
            })
        })
    }
}
