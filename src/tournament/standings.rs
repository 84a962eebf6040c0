//! Standings of a round robin: points, places, tie-breaks and the crosstable.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// Points for a win, a draw and a loss. 2/1/0 by default, as usual in Russian checkers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PointsSystem {
    /// Points for a win.
    pub win: u32,
    /// Points for a draw.
    pub draw: u32,
    /// Points for a loss.
    pub loss: u32,
}

impl Default for PointsSystem {
    fn default() -> Self {
        PointsSystem {
            win: 2,
            draw: 1,
            loss: 0,
        }
    }
}

/// A tie-break: what separates players with equal points, applied in the configured order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// The Sonneborn–Berger coefficient (коэффициент Бергера): the points of every opponent
    /// beaten, plus half the points of every opponent drawn (in general: each opponent's
    /// points times the share of a win scored against them).
    SonnebornBerger,
    /// The number of wins.
    Wins,
    /// The result between the tied players: for two, their game; for more, the points of
    /// the mini-table among them only. Applied again within any smaller group it leaves tied.
    HeadToHead,
}

/// How standings are worked out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StandingsSettings {
    /// Points per result.
    pub points: PointsSystem,
    /// Tie-breaks in order. Default: Sonneborn–Berger, wins, the result between the tied.
    pub tie_breaks: Vec<TieBreak>,
}

impl Default for StandingsSettings {
    fn default() -> Self {
        StandingsSettings {
            points: PointsSystem::default(),
            tie_breaks: vec![
                TieBreak::SonnebornBerger,
                TieBreak::Wins,
                TieBreak::HeadToHead,
            ],
        }
    }
}

/// The outcome of a game as the table counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// White won.
    WhiteWins,
    /// A draw.
    Draw,
    /// Black won.
    BlackWins,
    /// "Minus" for both: counted as a loss for each (10.5.8).
    BothLose,
}

/// How a result came about (marked in the crosstable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Played out (or resigned, or drawn by agreement).
    #[default]
    Played,
    /// Adjudicated by the arbiter (10.5.4, 10.5.5).
    Adjudicated,
    /// By default: an overstep confirmed (10.3.7), a withdrawal (10.5.3), records not sent
    /// (10.5.8).
    Defaulted,
}

/// One game for the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// White's start number.
    pub white: u32,
    /// Black's start number.
    pub black: u32,
    /// The result; `None` while the game is unfinished (it counts for nobody).
    pub score: Option<Score>,
    /// How the result came about.
    pub decision: Decision,
}

/// One player's result against one opponent, as the crosstable shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Points scored in that game.
    pub points: u32,
    /// Whether the player won, drew or lost it.
    pub outcome: Outcome,
    /// How the result came about.
    pub decision: Decision,
}

/// A game's outcome for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
    /// "Minus" for both players (10.5.8), a loss.
    Minus,
}

/// A place, shared by tied players: `3` or `3–4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Place {
    /// The best place of the group.
    pub first: u32,
    /// The worst place of the group (equal to `first` when not shared).
    pub last: u32,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}–{}", self.first, self.last)
        }
    }
}

/// One player's line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// Start number.
    pub number: u32,
    /// Points.
    pub points: u32,
    /// Finished games.
    pub games: u32,
    /// Wins (by default included).
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses ("minus" included).
    pub losses: u32,
    /// The Sonneborn–Berger coefficient.
    pub sonneborn_berger: f64,
    /// The coefficient times the points for a win: an integer, compared exactly.
    pub sonneborn_berger_scaled: u64,
    /// The place.
    pub place: Place,
    /// The player's results against each opponent, indexed by the opponent's start number
    /// minus one (empty for the player himself and unfinished games).
    pub results: Vec<Vec<Cell>>,
}

/// The table of a round robin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    /// The settings used.
    pub settings: StandingsSettings,
    /// One line per player, by place (ties by start number).
    pub rows: Vec<Standing>,
}

/// Works out the standings of `players` players (start numbers 1..=players) from `games`.
/// Games naming a start number outside 1..=players are ignored.
///
/// Players are ordered by points, then by each tie-break in `settings.tie_breaks` in turn;
/// players equal on everything share a place.
#[must_use]
pub fn standings(players: u32, games: &[GameResult], settings: &StandingsSettings) -> Standings {
    let n = usize::try_from(players).unwrap_or(0);
    let pts = settings.points;
    let mut rows: Vec<Standing> = (1..=players)
        .map(|number| Standing {
            number,
            points: 0,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            sonneborn_berger: 0.0,
            sonneborn_berger_scaled: 0,
            place: Place { first: 1, last: 1 },
            results: vec![Vec::new(); n],
        })
        .collect();
    let index = |number: u32| -> Option<usize> {
        usize::try_from(number)
            .ok()
            .and_then(|i| i.checked_sub(1))
            .filter(|i| *i < n)
    };
    // (player, opponent, cell) for every finished game, both sides.
    let mut cells: Vec<(usize, usize, Cell)> = Vec::new();
    for g in games {
        let (Some(w), Some(b), Some(score)) = (index(g.white), index(g.black), g.score) else {
            continue;
        };
        if w == b {
            continue;
        }
        let (ow, ob) = match score {
            Score::WhiteWins => (Outcome::Win, Outcome::Loss),
            Score::Draw => (Outcome::Draw, Outcome::Draw),
            Score::BlackWins => (Outcome::Loss, Outcome::Win),
            Score::BothLose => (Outcome::Minus, Outcome::Minus),
        };
        let cell = |outcome| Cell {
            points: match outcome {
                Outcome::Win => pts.win,
                Outcome::Draw => pts.draw,
                Outcome::Loss | Outcome::Minus => pts.loss,
            },
            outcome,
            decision: g.decision,
        };
        cells.push((w, b, cell(ow)));
        cells.push((b, w, cell(ob)));
    }
    for &(p, o, cell) in &cells {
        let row = &mut rows[p];
        row.points += cell.points;
        row.games += 1;
        match cell.outcome {
            Outcome::Win => row.wins += 1,
            Outcome::Draw => row.draws += 1,
            Outcome::Loss | Outcome::Minus => row.losses += 1,
        }
        row.results[o].push(cell);
    }
    let points: Vec<u32> = rows.iter().map(|r| r.points).collect();
    for &(p, o, cell) in &cells {
        rows[p].sonneborn_berger_scaled += u64::from(cell.points) * u64::from(points[o]);
    }
    for row in &mut rows {
        // Exact for 2/1/0 (halves); the scaled value is what is compared.
        row.sonneborn_berger = row.sonneborn_berger_scaled as f64 / f64::from(pts.win.max(1));
    }

    // Order: points, then the tie-breaks group by group.
    let mut by_points: Vec<usize> = (0..n).collect();
    by_points.sort_by_key(|&i| (std::cmp::Reverse(points[i]), i));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in by_points {
        match groups.last_mut() {
            Some(g) if points[g[0]] == points[i] => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut ordered: Vec<Vec<usize>> = Vec::new();
    for g in groups {
        ordered.extend(split(g, &settings.tie_breaks, &rows, &cells));
    }
    let mut place = 1;
    let mut order: Vec<usize> = Vec::with_capacity(n);
    for g in ordered {
        let len = u32::try_from(g.len()).unwrap_or(u32::MAX);
        for &i in &g {
            rows[i].place = Place {
                first: place,
                last: place + len - 1,
            };
        }
        place += len;
        order.extend(g);
    }
    let mut sorted: Vec<Standing> = order.into_iter().map(|i| rows[i].clone()).collect();
    sorted.sort_by_key(|r| (r.place.first, r.number));
    Standings {
        settings: settings.clone(),
        rows: sorted,
    }
}

/// Splits a group tied on points into ordered subgroups by the tie-breaks.
fn split(
    group: Vec<usize>,
    criteria: &[TieBreak],
    rows: &[Standing],
    cells: &[(usize, usize, Cell)],
) -> Vec<Vec<usize>> {
    let Some((&first, rest)) = criteria.split_first() else {
        return vec![group];
    };
    if group.len() < 2 {
        return vec![group];
    }
    let key = |i: usize| -> u64 {
        match first {
            TieBreak::SonnebornBerger => rows[i].sonneborn_berger_scaled,
            TieBreak::Wins => u64::from(rows[i].wins),
            TieBreak::HeadToHead => cells
                .iter()
                .filter(|(p, o, _)| *p == i && group.contains(o))
                .map(|(_, _, c)| u64::from(c.points))
                .sum(),
        }
    };
    let mut keyed: Vec<(u64, usize)> = group.iter().map(|&i| (key(i), i)).collect();
    keyed.sort_by_key(|&(k, i)| (std::cmp::Reverse(k), i));
    let mut subgroups: Vec<Vec<usize>> = Vec::new();
    let mut last_key = None;
    for (k, i) in keyed {
        if last_key == Some(k) {
            if let Some(g) = subgroups.last_mut() {
                g.push(i);
            }
        } else {
            subgroups.push(vec![i]);
            last_key = Some(k);
        }
    }
    let whole = group.len();
    subgroups
        .into_iter()
        .flat_map(|g| {
            // A mini-table that split the group is played again among those still tied.
            if first == TieBreak::HeadToHead && g.len() > 1 && g.len() < whole {
                split(g, criteria, rows, cells)
            } else {
                split(g, rest, rows, cells)
            }
        })
        .collect()
}

/// The wording of the plain-text crosstable, kept in one place. [`CrosstableLabels::ru`] is
/// the default; [`CrosstableLabels::en`] for English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrosstableLabels {
    /// "No." (start number).
    pub number: &'static str,
    /// "Player".
    pub player: &'static str,
    /// "Points".
    pub points: &'static str,
    /// "Wins".
    pub wins: &'static str,
    /// "S-B" (Sonneborn–Berger).
    pub sonneborn_berger: &'static str,
    /// "Place".
    pub place: &'static str,
    /// The suffix of an adjudicated result.
    pub adjudicated: &'static str,
    /// The legend lines under the table.
    pub legend: &'static [&'static str],
}

impl CrosstableLabels {
    /// Russian (the default).
    #[must_use]
    pub fn ru() -> Self {
        CrosstableLabels {
            number: "№",
            player: "Участник",
            points: "Очки",
            wins: "Побед",
            sonneborn_berger: "Коэф.",
            place: "Место",
            adjudicated: "п",
            legend: &[
                "п — присуждено (п. 10.5.4, 10.5.5); +/− — победа/поражение без игры \
                 (п. 10.3.7, 10.5.3); − у обоих — «минусы» (п. 10.5.8)",
                "Коэф. — коэффициент Бергера (Зонненборна–Бергера)",
            ],
        }
    }

    /// English.
    #[must_use]
    pub fn en() -> Self {
        CrosstableLabels {
            number: "No.",
            player: "Player",
            points: "Pts",
            wins: "Wins",
            sonneborn_berger: "S-B",
            place: "Place",
            adjudicated: "a",
            legend: &[
                "a — adjudicated (10.5.4, 10.5.5); +/− — won/lost by default \
                 (10.3.7, 10.5.3); − for both — \"minus\" (10.5.8)",
                "S-B — Sonneborn–Berger coefficient",
            ],
        }
    }
}

impl Default for CrosstableLabels {
    fn default() -> Self {
        CrosstableLabels::ru()
    }
}

/// A crosstable cell as text: points, `п`/`a` when adjudicated, `+`/`−` by default (the
/// plain-text table's and the public pages' cells).
pub fn cell_text(cells: &[Cell], labels: &CrosstableLabels) -> String {
    if cells.is_empty() {
        return String::new();
    }
    cells
        .iter()
        .map(|c| match (c.decision, c.outcome) {
            (_, Outcome::Minus) => "−".to_owned(),
            (Decision::Defaulted, Outcome::Win) => "+".to_owned(),
            (Decision::Defaulted, Outcome::Loss) => "−".to_owned(),
            (Decision::Adjudicated, _) => format!("{}{}", c.points, labels.adjudicated),
            _ => c.points.to_string(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

impl Standings {
    /// The coefficient as text: whole, or with its fraction (2.5).
    pub fn coefficient(&self, row: &Standing) -> String {
        let win = u64::from(self.settings.points.win.max(1));
        if row.sonneborn_berger_scaled.is_multiple_of(win) {
            (row.sonneborn_berger_scaled / win).to_string()
        } else {
            let s = format!("{:.2}", row.sonneborn_berger);
            s.trim_end_matches('0').to_owned()
        }
    }

    /// The crosstable as fixed-width plain text: one line per player in start-number order,
    /// a column per opponent, then points, wins, the coefficient and the place. `names[i]`
    /// is the name of start number i + 1.
    #[must_use]
    pub fn to_text(&self, names: &[String], labels: &CrosstableLabels) -> String {
        let n = self.rows.len();
        let name = |number: u32| -> String {
            usize::try_from(number)
                .ok()
                .and_then(|i| names.get(i.wrapping_sub(1)))
                .cloned()
                .unwrap_or_default()
        };
        let name_w = self
            .rows
            .iter()
            .map(|r| name(r.number).chars().count())
            .chain([labels.player.chars().count()])
            .max()
            .unwrap_or(0);
        let cell_w = self
            .rows
            .iter()
            .flat_map(|r| {
                r.results
                    .iter()
                    .map(|c| cell_text(c, labels).chars().count())
            })
            .chain([n.to_string().len(), 1])
            .max()
            .unwrap_or(1);
        let num_w = n.to_string().len().max(labels.number.chars().count());
        let mut out = String::new();
        let mut head = format!("{:>num_w$}  {:<name_w$} ", labels.number, labels.player);
        for j in 1..=n {
            let _ = write!(head, " {j:>cell_w$}");
        }
        let _ = write!(
            head,
            " | {:>5} {:>5} {:>6} {:>5}",
            labels.points, labels.wins, labels.sonneborn_berger, labels.place
        );
        let _ = writeln!(out, "{}", head.trim_end());
        let _ = writeln!(out, "{}", "-".repeat(head.trim_end().chars().count()));
        let mut by_number: Vec<&Standing> = self.rows.iter().collect();
        by_number.sort_by_key(|r| r.number);
        for r in by_number {
            let mut line = format!("{:>num_w$}  {:<name_w$} ", r.number, name(r.number));
            for j in 0..n {
                let text = if usize::try_from(r.number).ok() == Some(j + 1) {
                    "×".to_owned()
                } else {
                    r.results
                        .get(j)
                        .map_or_else(String::new, |c| cell_text(c, labels))
                };
                let _ = write!(line, " {text:>cell_w$}");
            }
            let _ = write!(
                line,
                " | {:>5} {:>5} {:>6} {:>5}",
                r.points,
                r.wins,
                self.coefficient(r),
                r.place.to_string()
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
        for l in labels.legend {
            let _ = writeln!(out, "{l}");
        }
        out
    }
}

#[cfg(test)]
mod tests;
