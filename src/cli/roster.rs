//! The secretary's day-to-day register: `tournament list`, `player list`, `player set-email`.

use super::admin::{check_address, open_store};
use super::{CliResult, Context, refused};
use crate::game::{GameState, Side};
use crate::office::AddressChange;
use crate::store::{GameStatus, Store};

/// `zaochka tournament list`: every tournament, one line each: cipher, game, status, dates,
/// players, games finished of all, and its name.
///
/// # Errors
/// Broken when the database cannot be read.
pub fn list_tournaments(ctx: &Context) -> CliResult {
    let store = open_store(ctx)?;
    let rows = store.read(|tx| {
        let mut rows = Vec::new();
        for t in tx.tournaments()? {
            let players = tx.players(t.id)?.len();
            let games = tx.games(t.id)?;
            let finished = games
                .iter()
                .filter(|g| g.status == GameStatus::Finished)
                .count();
            rows.push(vec![
                t.cipher.clone(),
                t.variant.clone(),
                t.status.to_string(),
                format!("{}..{}", t.start, t.end),
                format!("{players} players"),
                format!("{finished}/{} games finished", games.len()),
                t.name.clone(),
            ]);
        }
        Ok::<_, crate::store::StoreError>(rows)
    })?;
    if rows.is_empty() {
        println!("no tournaments yet (zaochka tournament add …)");
    }
    print!("{}", columns(&rows));
    Ok(())
}

/// `zaochka player list CIPHER`: each player of the tournament: name, address, games, how
/// many are finished, in how many he is to move, and former addresses.
///
/// # Errors
/// Refused for an unknown tournament; broken when the database cannot be read.
pub fn list_players(ctx: &Context, cipher: &str) -> CliResult {
    let store = open_store(ctx)?;
    let cipher = cipher.trim();
    let rows = store.read(|tx| {
        let Some(t) = tx.find_tournament(cipher)? else {
            return Ok(None);
        };
        let mut rows = Vec::new();
        for p in tx.players(t.id)? {
            let games = tx.games_of_player(p.id)?;
            let finished = games
                .iter()
                .filter(|g| g.status == GameStatus::Finished)
                .count();
            let to_move = games
                .iter()
                .filter(|g| g.status == GameStatus::Playing)
                .filter(|g| {
                    g.state_as::<GameState>().is_ok_and(|st| {
                        let side = st.side_to_move();
                        let mine = match side {
                            Side::White => g.white,
                            Side::Black => g.black,
                        };
                        mine == p.id
                    })
                })
                .count();
            let former = tx.former_addresses(p.id)?;
            rows.push(vec![
                p.name.clone(),
                p.email.clone(),
                format!("{} games", games.len()),
                format!("{finished} finished"),
                format!("to move in {to_move}"),
                if former.is_empty() {
                    String::new()
                } else {
                    format!("formerly {}", former.join(", "))
                },
            ]);
        }
        Ok::<_, crate::store::StoreError>(Some(rows))
    })?;
    let rows = rows.ok_or_else(|| refused(format!("no tournament '{cipher}'")))?;
    if rows.is_empty() {
        println!("no players in {cipher} yet (zaochka player add …)");
    }
    print!("{}", columns(&rows));
    Ok(())
}

/// `zaochka player set-email CIPHER NAME ADDRESS`: the player's new address, told to him at
/// both addresses (the letters go with the next `zaochka run`).
///
/// # Errors
/// Refused for a bad or an official's address, an unknown tournament or player, or an
/// address another player of the tournament has; broken when the database fails.
pub fn set_email(ctx: &Context, cipher: &str, name: &str, email: &str) -> CliResult {
    let email = email.trim();
    check_address(ctx, email)?;
    let mut store: Store = open_store(ctx)?;
    let office = ctx.office();
    let change = office
        .set_player_email(&mut store, cipher.trim(), name, email, ctx.now())
        .map_err(super::ops::office_error)?;
    match change {
        AddressChange::Unchanged => {
            println!("{name} already has the address {email}; nothing changed");
        }
        AddressChange::Changed {
            name,
            former,
            games,
        } => println!(
            "{name}: address {former} -> {email} in {} ({games} games); both addresses are told (sent by `zaochka run`)",
            cipher.trim()
        ),
    }
    Ok(())
}

/// Rows as left-aligned columns two spaces apart (trailing empty cells dropped).
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            line.push_str(c);
            let pad = widths[i].saturating_sub(c.chars().count());
            line.extend(std::iter::repeat_n(' ', pad + 2));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_by_characters_not_bytes() {
        let rows = vec![
            vec!["Иванов Иван".to_string(), "a@b.c".to_string()],
            vec!["Li".to_string(), "x@y.z".to_string(), String::new()],
        ];
        assert_eq!(columns(&rows), "Иванов Иван  a@b.c\nLi           x@y.z\n");
    }
}
