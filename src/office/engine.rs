//! The engine's side that touches the world: endgame tables read from the config's folder,
//! and the wall clock that time-boxes a search (the engine itself is pure: `crate::engine`).
//!
//! Tables live in `DIR/<game>/<material>.ztb`, one file a slice, as `zaochka tables build`
//! writes them (see [`table_file`]).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::clock::Side;
use crate::engine::{Deadline, Limits, Material, TableSet};
use crate::game::{GameState, Score};
use crate::render::Lang;
use crate::render::arbiter::EngineBlock;
use crate::rules::{Color, GameRecord, Position, Variant};

/// A deadline on the wall clock.
#[derive(Clone, Copy, Debug)]
pub struct Until(pub Instant);

impl Until {
    /// `seconds` from now.
    pub fn seconds_from_now(seconds: u32) -> Until {
        Until(Instant::now() + Duration::from_secs(u64::from(seconds)))
    }
}

impl Deadline for Until {
    fn is_over(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// The file of one slice.
pub fn table_file(dir: &Path, variant: Variant, material: Material) -> PathBuf {
    dir.join(variant.name()).join(format!("{material}.ztb"))
}

/// What reading a tables folder gave.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The slices that read back whole.
    pub tables: TableSet,
    /// Files that did not, with why.
    pub problems: Vec<String>,
}

/// Reads every slice of `variant` in `dir` (a missing folder is no tables). A file that does
/// not read back whole is left out and named in [`Loaded::problems`].
///
/// # Errors
/// An I/O error listing the folder.
pub fn load_tables(dir: &Path, variant: Variant) -> std::io::Result<Loaded> {
    let mut out = Loaded::default();
    let folder = dir.join(variant.name());
    let entries = match std::fs::read_dir(&folder) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(e),
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ztb"))
        .collect();
    paths.sort();
    for p in paths {
        let bytes = std::fs::read(&p)?;
        if let Err(e) = out.tables.insert_bytes(&bytes) {
            out.problems.push(format!("{}: {e}", p.display()));
        }
    }
    Ok(out)
}

/// The limits the config sets: its depth, a table of 2^22 entries (64 MiB).
pub fn limits(config: &crate::config::EngineConfig) -> Limits {
    Limits {
        depth: config.depth,
        tt_bits: 22,
        ..Limits::default()
    }
}

/// The engine's view of a game's final position as the store keeps it (a decision record
/// `engine verdict`), so that `game show` shows what the arbiter got.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EngineNote {
    /// The position (FEN).
    pub fen: String,
    /// `win`, `draw` or `loss` for the side to move.
    pub verdict: String,
    /// Whose move it is.
    pub side_to_move: Side,
    /// Proven (tables, or a search to the end of the game or the tables).
    pub proven: bool,
    /// `game_over`, `tables` or `search`.
    pub basis: String,
    /// The score for the side to move.
    pub score: i32,
    /// The depth of the last completed iteration, in plies.
    pub depth: u32,
    /// The line, full notation (numbers on 10x10).
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// The move-count draw rule the verdict does not count, in Russian and English, and its
    /// number of moves.
    pub count_rule: Option<(String, String, u32)>,
    /// In the line, the move of the side to move on which the balance of forces changes.
    #[serde(default)]
    pub balance_changes_in: Option<u32>,
}

impl EngineNote {
    /// The result the engine gives: the side to move's win or loss, or a draw.
    pub fn score_of_game(&self) -> Score {
        match self.verdict.as_str() {
            "win" => Score::win(self.side_to_move),
            "loss" => Score::win(self.side_to_move.other()),
            _ => Score::Draw,
        }
    }
}

/// The game's moves replayed from its start position, as far as they replay (a stored move
/// that does not replay ends the record there).
pub fn record_of(state: &GameState) -> GameRecord {
    let variant = state.variant;
    let start = state
        .initial
        .as_deref()
        .and_then(|f| Position::from_fen(variant, f).ok())
        .unwrap_or_else(|| Position::start(variant));
    let mut record = GameRecord::new(start);
    for m in &state.moves {
        let pos = *record.position();
        let found = pos.legal_moves().into_iter().find(|mv| {
            let text = if variant == Variant::Hundred {
                mv.to_numeric()
            } else {
                mv.to_string()
            };
            text == m.text
        });
        let Some(mv) = found else { break };
        if record.push(mv).is_err() {
            break;
        }
    }
    record
}

/// The engine's view of a game's current position, within the config's time and depth,
/// with the tables of the config's folder (read once per office, see [`TableCache`]).
pub fn note_of(
    config: &crate::config::EngineConfig,
    cache: &TableCache,
    state: &GameState,
) -> EngineNote {
    let record = record_of(state);
    let variant = state.variant;
    let tables = cache.get(config, variant);
    let a = crate::engine::analyse(
        &record,
        limits(config),
        &Until::seconds_from_now(config.seconds),
        tables.map(|t| t as &dyn crate::engine::Tables),
    );
    let pos = record.position();
    EngineNote {
        fen: pos.to_fen(),
        verdict: a.verdict.name().to_string(),
        side_to_move: match pos.side_to_move() {
            Color::White => Side::White,
            Color::Black => Side::Black,
        },
        proven: a.proven,
        basis: a.basis.name().to_string(),
        score: a.score,
        depth: a.depth,
        pv: crate::engine::line_text(variant, &a.pv),
        nodes: a.nodes,
        count_rule: a
            .count_rule
            .map(|r| (r.ru.to_string(), r.en.to_string(), r.moves)),
        balance_changes_in: a.balance_changes_in,
    }
}

/// Tables read from the config's folder, once per game (an office lives as long as the
/// daemon: the files are read at the first package that needs them).
#[derive(Debug, Default)]
pub struct TableCache {
    games: [OnceLock<Option<TableSet>>; 3],
}

impl TableCache {
    fn get(&self, config: &crate::config::EngineConfig, variant: Variant) -> Option<&TableSet> {
        let dir = config.tables.as_deref()?;
        let slot = match variant {
            Variant::Russian => &self.games[0],
            Variant::Hundred => &self.games[1],
            Variant::Giveaway => &self.games[2],
        };
        slot.get_or_init(|| match load_tables(dir, variant) {
            Ok(l) => {
                for p in &l.problems {
                    tracing::warn!(problem = %p, "endgame table left out");
                }
                Some(l.tables)
            }
            Err(e) => {
                tracing::warn!(dir = %dir.display(), error = %e, "endgame tables not read");
                None
            }
        })
        .as_ref()
    }
}

/// `n` with the Russian noun form that agrees with it (`1 полуход`, `3 полухода`,
/// `12 полуходов`).
pub fn ru_count(n: u32, [one, few, many]: [&str; 3]) -> String {
    let word = match (n % 10, n % 100) {
        (_, 11..=14) => many,
        (1, _) => one,
        (2..=4, _) => few,
        _ => many,
    };
    format!("{n} {word}")
}

/// The engine's note worded for the adjudication package; `agreed` is the result both
/// players propose (10.5.4), `state` numbers the line as the record.
pub fn block_of(
    note: &EngineNote,
    state: &GameState,
    agreed: Option<Score>,
    lang: Lang,
) -> EngineBlock {
    let ru = lang == Lang::Ru;
    let verdict = match (note.score_of_game(), ru) {
        (Score::WhiteWins, true) => "выигрыш белых",
        (Score::BlackWins, true) => "выигрыш чёрных",
        (_, true) => "ничья",
        (Score::WhiteWins, false) => "White wins",
        (Score::BlackWins, false) => "Black wins",
        (_, false) => "draw",
    };
    let depth = if ru {
        ru_count(note.depth, ["полуход", "полухода", "полуходов"])
    } else if note.depth == 1 {
        "1 ply".to_string()
    } else {
        format!("{} plies", note.depth)
    };
    let basis = match (note.basis.as_str(), note.proven, ru) {
        ("game_over", _, true) => "партия окончена по правилам игры".to_string(),
        ("tables", _, true) => "таблицы окончаний".to_string(),
        (_, true, true) => format!("расчёт до конца партии или до таблиц, {depth}"),
        (_, false, true) => format!("оценка позиции после расчёта на {depth}"),
        ("game_over", _, false) => "the game is over by the rules of play".to_string(),
        ("tables", _, false) => "endgame tables".to_string(),
        (_, true, false) => format!("a search to the end of the game or the tables, {depth}"),
        (_, false, false) => format!("the evaluation after a search of {depth}"),
    };
    // the line numbered as the record goes on
    let mut line = String::new();
    for (i, m) in note.pv.iter().enumerate() {
        let ply = state.moves.len() + i;
        let side = state.side_of_ply(ply);
        let n = state.number_of_ply(ply);
        if !line.is_empty() {
            line.push(' ');
        }
        match side {
            Side::White => line.push_str(&format!("{n}. {m}")),
            Side::Black if i == 0 => line.push_str(&format!("{n}... {m}")),
            Side::Black => line.push_str(m),
        }
    }
    let count_rule = note
        .count_rule
        .as_ref()
        .map(|(r, e, _)| if ru { r.clone() } else { e.clone() })
        .unwrap_or_default();
    let engine_score = note.score_of_game();
    EngineBlock {
        verdict: verdict.to_string(),
        proven: note.proven,
        basis,
        line,
        depth,
        count_rule,
        balance_changes_in: note.balance_changes_in.unwrap_or(0),
        contradicts_agreed: note.proven && agreed.is_some_and(|a| a != engine_score),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use chrono::NaiveDate;

    fn state() -> GameState {
        let day = NaiveDate::from_ymd_opt(2026, 1, 10).unwrap();
        let p = |name: &str| Player {
            id: 1,
            name: name.into(),
            email: format!("{name}@example.org"),
        };
        GameState::new("ЗШ", 1, Variant::Russian, p("a"), p("b"), day, day)
    }

    fn note(verdict: &str, proven: bool) -> EngineNote {
        EngineNote {
            fen: "W:WK29,K30,K31:BK20".into(),
            verdict: verdict.into(),
            side_to_move: Side::White,
            proven,
            basis: "search".into(),
            score: 0,
            depth: 22,
            pv: vec!["a1-e5".into(), "h4-e7".into(), "c1-g5".into()],
            nodes: 1,
            count_rule: None,
            balance_changes_in: None,
        }
    }

    #[test]
    fn russian_counts_agree_with_their_nouns() {
        let w = ["полуход", "полухода", "полуходов"];
        assert_eq!(ru_count(1, w), "1 полуход");
        assert_eq!(ru_count(3, w), "3 полухода");
        assert_eq!(ru_count(12, w), "12 полуходов");
        assert_eq!(ru_count(21, w), "21 полуход");
        assert_eq!(ru_count(111, w), "111 полуходов");
    }

    #[test]
    fn only_a_proven_verdict_against_the_agreed_result_is_a_contradiction_10_5_4() {
        let s = state();
        let b = block_of(&note("win", true), &s, Some(Score::Draw), Lang::Ru);
        assert!(b.contradicts_agreed);
        assert_eq!(b.verdict, "выигрыш белых");
        assert_eq!(b.line, "1. a1-e5 h4-e7 2. c1-g5");
        assert!(!block_of(&note("win", false), &s, Some(Score::Draw), Lang::Ru).contradicts_agreed);
        assert!(
            !block_of(&note("win", true), &s, Some(Score::WhiteWins), Lang::Ru).contradicts_agreed
        );
        assert!(!block_of(&note("win", true), &s, None, Lang::Ru).contradicts_agreed);
        let unproven = block_of(&note("loss", false), &s, None, Lang::Ru);
        assert_eq!(unproven.verdict, "выигрыш чёрных");
        assert_eq!(
            unproven.basis,
            "оценка позиции после расчёта на 22 полухода"
        );
        let en = block_of(&note("draw", false), &s, None, Lang::En);
        assert_eq!(
            (en.verdict.as_str(), en.depth.as_str()),
            ("draw", "22 plies")
        );
    }
}
