//! Round-robin pairings by the Berger tables.

use serde::{Deserialize, Serialize};

/// One game of a round robin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The game's number in the tournament, 1.. in order of rounds and boards.
    pub game: u32,
    /// The round of the Berger table (correspondence play plays all rounds at once; the
    /// round is kept for the record).
    pub round: u32,
    /// The board within the round, 1..
    pub board: u32,
    /// The start number of the player with white.
    pub white: u32,
    /// The start number of the player with black.
    pub black: u32,
}

/// A player free in a round (odd numbers of players).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bye {
    /// The round.
    pub round: u32,
    /// The free player's start number.
    pub player: u32,
}

/// The pairings of a whole round robin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobin {
    /// The number of players.
    pub players: u32,
    /// Every game, in order of game number.
    pub pairings: Vec<Pairing>,
    /// The players free in each round (none when the number of players is even).
    pub byes: Vec<Bye>,
}

impl RoundRobin {
    /// The number of rounds: n − 1 for even n, n for odd n.
    #[must_use]
    pub fn rounds(&self) -> u32 {
        self.pairings
            .iter()
            .map(|p| p.round)
            .chain(self.byes.iter().map(|b| b.round))
            .max()
            .unwrap_or(0)
    }

    /// The games of one round, by board.
    pub fn round(&self, round: u32) -> impl Iterator<Item = &Pairing> {
        self.pairings.iter().filter(move |p| p.round == round)
    }

    /// How many games `player` plays with white.
    #[must_use]
    pub fn whites_of(&self, player: u32) -> usize {
        self.pairings.iter().filter(|p| p.white == player).count()
    }
}

/// Why no pairing can be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// A round robin needs two players at least.
    #[error("a round robin needs at least 2 players, got {players}")]
    TooFew {
        /// The number given.
        players: u32,
    },
    /// More players than a round robin of correspondence games can sensibly hold.
    #[error("a round robin of {players} players is too large (at most {max})")]
    TooMany {
        /// The number given.
        players: u32,
        /// The largest number accepted.
        max: u32,
    },
}

/// The most players [`berger`] accepts (about 500,000 games).
const MAX_PLAYERS: u32 = 1000;

/// The pairings of a round robin of `players` players by the Berger tables (FIDE Handbook
/// C.05, Annex 1).
///
/// For an even n, player n is fixed. In round r the player facing n is
/// `a = ((r − 1)·n/2 mod (n − 1)) + 1`, with white in odd rounds and black in even ones; the
/// others follow `a` round the circle of 1..n−1 and meet outermost first, the earlier one in
/// that order with white: round 1 of 6 players is 1–6, 2–5, 3–4 and round 2 is 6–4, 5–3, 1–2.
/// For an odd n the table of n + 1 is used and whoever meets n + 1 is free that round.
///
/// Every pair meets once, and every player has white ⌊(n−1)/2⌋ or ⌈(n−1)/2⌉ times.
///
/// ```
/// let rr = zaochka::tournament::berger(4).unwrap();
/// let round_2: Vec<(u32, u32)> = rr.round(2).map(|p| (p.white, p.black)).collect();
/// assert_eq!(round_2, [(4, 3), (1, 2)]);
/// assert_eq!(rr.pairings.len(), 6);
/// ```
///
/// # Errors
/// [`PairingError`] for fewer than 2 players or more than 1000.
pub fn berger(players: u32) -> Result<RoundRobin, PairingError> {
    if players < 2 {
        return Err(PairingError::TooFew { players });
    }
    if players > MAX_PLAYERS {
        return Err(PairingError::TooMany {
            players,
            max: MAX_PLAYERS,
        });
    }
    let n = players + players % 2;
    let m = n - 1;
    let mut pairings = Vec::new();
    let mut byes = Vec::new();
    let mut game = 0;
    for round in 1..=m {
        let a = ((round - 1) * (n / 2)) % m + 1;
        let mut boards: Vec<(u32, u32)> = Vec::with_capacity(usize::try_from(n / 2).unwrap_or(0));
        boards.push(if round % 2 == 1 { (a, n) } else { (n, a) });
        // The others in circle order after `a`.
        let circle: Vec<u32> = (1..m).map(|k| (a - 1 + k) % m + 1).collect();
        let (mut i, mut j) = (0, circle.len());
        while i + 1 < j {
            boards.push((circle[i], circle[j - 1]));
            i += 1;
            j -= 1;
        }
        let mut board = 0;
        for (white, black) in boards {
            if white > players || black > players {
                let player = if white > players { black } else { white };
                byes.push(Bye { round, player });
                continue;
            }
            board += 1;
            game += 1;
            pairings.push(Pairing {
                game,
                round,
                board,
                white,
                black,
            });
        }
    }
    Ok(RoundRobin {
        players,
        pairings,
        byes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rr: &RoundRobin) -> Vec<Vec<(u32, u32)>> {
        (1..=rr.rounds())
            .map(|r| rr.round(r).map(|p| (p.white, p.black)).collect())
            .collect()
    }

    /// FIDE Handbook C.05 Annex 1 (Berger tables), "3 or 4 players"; the same table is
    /// Appendix 1 of the Russian rules of the sport.
    #[test]
    fn berger_table_for_4_players_is_the_published_one() {
        let rr = berger(4).unwrap();
        assert_eq!(
            table(&rr),
            vec![
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)],
            ]
        );
        let numbers: Vec<u32> = rr.pairings.iter().map(|p| p.game).collect();
        assert_eq!(numbers, (1..=6).collect::<Vec<_>>());
    }

    /// FIDE Handbook C.05 Annex 1, "5 or 6 players".
    #[test]
    fn berger_table_for_6_players_is_the_published_one() {
        assert_eq!(
            table(&berger(6).unwrap()),
            vec![
                vec![(1, 6), (2, 5), (3, 4)],
                vec![(6, 4), (5, 3), (1, 2)],
                vec![(2, 6), (3, 1), (4, 5)],
                vec![(6, 5), (1, 4), (2, 3)],
                vec![(3, 6), (4, 2), (5, 1)],
            ]
        );
    }

    /// FIDE Handbook C.05 Annex 1, "7 or 8 players".
    #[test]
    fn berger_table_for_8_players_is_the_published_one() {
        assert_eq!(
            table(&berger(8).unwrap()),
            vec![
                vec![(1, 8), (2, 7), (3, 6), (4, 5)],
                vec![(8, 5), (6, 4), (7, 3), (1, 2)],
                vec![(2, 8), (3, 1), (4, 7), (5, 6)],
                vec![(8, 6), (7, 5), (1, 4), (2, 3)],
                vec![(3, 8), (4, 2), (5, 1), (6, 7)],
                vec![(8, 7), (1, 6), (2, 5), (3, 4)],
                vec![(4, 8), (5, 3), (6, 2), (7, 1)],
            ]
        );
    }

    #[test]
    fn with_an_odd_number_the_player_meeting_the_last_number_is_free() {
        let rr = berger(5).unwrap();
        assert_eq!(rr.rounds(), 5);
        assert_eq!(rr.pairings.len(), 10);
        let free: Vec<u32> = rr.byes.iter().map(|b| b.player).collect();
        assert_eq!(free, vec![1, 4, 2, 5, 3]);
        // Round 1 of the 6-player table without 1–6.
        assert_eq!(
            rr.round(1)
                .map(|p| (p.board, p.white, p.black))
                .collect::<Vec<_>>(),
            vec![(1, 2, 5), (2, 3, 4)]
        );
    }

    #[test]
    fn every_pair_meets_once_and_colours_are_balanced() {
        for n in 2..=21 {
            let rr = berger(n).unwrap();
            let mut met = std::collections::HashSet::new();
            for p in &rr.pairings {
                assert_ne!(p.white, p.black);
                let pair = (p.white.min(p.black), p.white.max(p.black));
                assert!(met.insert(pair), "n = {n}: {pair:?} twice");
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2, "n = {n}");
            for player in 1..=n {
                let w = rr.whites_of(player) as u32;
                assert!(
                    w == (n - 1) / 2 || w == n / 2,
                    "n = {n}: player {player} has white {w} times"
                );
                // At most one game per round.
                for r in 1..=rr.rounds() {
                    let games = rr
                        .round(r)
                        .filter(|p| p.white == player || p.black == player)
                        .count();
                    let free = rr.byes.iter().any(|b| b.round == r && b.player == player);
                    assert_eq!(games + usize::from(free), 1, "n = {n}, round {r}");
                }
            }
        }
    }

    #[test]
    fn fewer_than_two_players_cannot_be_paired() {
        assert_eq!(berger(1), Err(PairingError::TooFew { players: 1 }));
        assert!(berger(1001).is_err());
        assert_eq!(berger(2).unwrap().pairings.len(), 1);
    }
}
