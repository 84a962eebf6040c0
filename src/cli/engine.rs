//! `zaochka analyse` and `zaochka tables build`: the arbiter's engine on the command line.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;

use super::{CliError, CliResult, Context, refused};
use crate::config::Language;
use crate::engine::tables::build::{self, Event, Progress, TableStore};
use crate::engine::{self, Analysis, Basis, Limits, Material, Tables, Verdict};
use crate::office::engine::{Until, load_tables, table_file};
use crate::rules::{Position, Variant};

fn variant(game: &str) -> Result<Variant, CliError> {
    game.parse::<Variant>().map_err(refused)
}

/// What `analyse` was asked.
#[derive(Debug, Clone)]
pub struct AnalyseArgs<'a> {
    /// russian, hundred or giveaway.
    pub game: &'a str,
    /// The position.
    pub fen: &'a str,
    /// Seconds (default: the config's).
    pub seconds: Option<u32>,
    /// Depth (default: the config's).
    pub depth: Option<u32>,
    /// The tables folder (default: the config's).
    pub tables: Option<&'a Path>,
    /// JSON instead of text.
    pub json: bool,
}

/// The verdict as a result: whose win, or a draw, and whose move it is.
fn result_words(
    v: Verdict,
    side: crate::rules::Color,
    lang: Language,
) -> (&'static str, &'static str) {
    use crate::rules::Color;
    let winner = match v {
        Verdict::Win => Some(side),
        Verdict::Loss => Some(side.opponent()),
        Verdict::Draw => None,
    };
    let result = match (winner, lang) {
        (Some(Color::White), Language::Ru) => "выигрыш белых",
        (Some(Color::Black), Language::Ru) => "выигрыш чёрных",
        (None, Language::Ru) => "ничья",
        (Some(Color::White), Language::En) => "White wins",
        (Some(Color::Black), Language::En) => "Black wins",
        (None, Language::En) => "draw",
    };
    let to_move = match (side, lang) {
        (Color::White, Language::Ru) => "Ход белых",
        (Color::Black, Language::Ru) => "Ход чёрных",
        (Color::White, Language::En) => "White to move",
        (Color::Black, Language::En) => "Black to move",
    };
    (result, to_move)
}

/// `zaochka analyse --game G --fen FEN [--seconds N] [--depth N] [--tables DIR] [--json]`:
/// the verdict for the side to move, proven or not, and the line.
///
/// # Errors
/// Refused for an unknown game or a bad FEN; broken when the tables folder cannot be read.
pub fn analyse(ctx: &Context, args: &AnalyseArgs<'_>) -> CliResult {
    let variant = variant(args.game)?;
    let pos = Position::from_fen(variant, args.fen).map_err(refused)?;
    let cfg = &ctx.config.engine;
    let seconds = args.seconds.unwrap_or(cfg.seconds);
    if seconds == 0 {
        return Err(refused("--seconds must be at least 1"));
    }
    let depth = args.depth.unwrap_or(cfg.depth);
    if !(1..=100).contains(&depth) {
        return Err(refused("--depth must be 1..100"));
    }
    let dir = args.tables.map(Path::to_path_buf).or(cfg.tables.clone());
    let loaded = match &dir {
        Some(d) => Some(load_tables(d, variant).map_err(|e| {
            CliError::Broken(
                anyhow::Error::new(e).context(format!("read the tables in {}", d.display())),
            )
        })?),
        None => None,
    };
    if let Some(l) = &loaded {
        for p in &l.problems {
            eprintln!("zaochka: table left out: {p}");
        }
    }
    let tables = loaded.as_ref().map(|l| &l.tables as &dyn Tables);
    let limits = Limits {
        depth,
        ..crate::office::engine::limits(cfg)
    };
    let start = Instant::now();
    let a = engine::analyse_position(&pos, limits, &Until::seconds_from_now(seconds), tables);
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (a.nodes as f64 / secs) as u64
    } else {
        0
    };
    let out = if args.json {
        let mut s = serde_json::to_string_pretty(&report_json(variant, &a, nps))
            .map_err(|e| CliError::Broken(e.into()))?;
        s.push('\n');
        s
    } else {
        report_text(&pos, &a, nps, ctx.config.language)
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    Ok(())
}

/// The JSON of `analyse --json`: the keys, then `basis`, `move_count_rule` and
/// `balance_changes_in` (moves of the side to move until a capture or a crowning in the
/// line).
pub fn report_json(variant: Variant, a: &Analysis, nodes_per_second: u64) -> serde_json::Value {
    json!({
        "verdict": a.verdict.name(),
        "proven": a.proven,
        "score": a.score,
        "depth": a.depth,
        "pv": engine::line_text(variant, &a.pv),
        "nodes": a.nodes,
        "nodes_per_second": nodes_per_second,
        "basis": a.basis.name(),
        "move_count_rule": a.count_rule.map(|r| json!({
            "rule": r.en,
            "moves": r.moves,
        })),
        "balance_changes_in": a.balance_changes_in,
    })
}

fn report_text(pos: &Position, a: &Analysis, nps: u64, lang: Language) -> String {
    let ru = lang == Language::Ru;
    let basis = match (a.basis, ru) {
        (Basis::GameOver, true) => "доказано: партия окончена по правилам",
        (Basis::Tables, true) => "доказано: таблицы окончаний",
        (Basis::Search, true) if a.proven => "доказано: расчёт до конца партии или до таблиц",
        (Basis::Search, true) => "не доказано: оценка расчёта",
        (Basis::GameOver, false) => "proven: the game is over by the rules",
        (Basis::Tables, false) => "proven: endgame tables",
        (Basis::Search, false) if a.proven => "proven: search to the end of the game or the tables",
        (Basis::Search, false) => "not proven: the search's evaluation",
    };
    let (result, to_move) = result_words(a.verdict, pos.side_to_move(), lang);
    let line = engine::line_text(pos.variant(), &a.pv).join(" ");
    let mut s = String::new();
    if ru {
        s.push_str(&format!("{to_move}: {result} ({basis})\n"));
        s.push_str(&format!(
            "Оценка для стороны, чей ход: {}\nГлубина: {}\n",
            a.score,
            crate::office::engine::ru_count(a.depth, ["полуход", "полухода", "полуходов"])
        ));
        s.push_str(&format!(
            "Вариант: {}\n",
            if line.is_empty() { "—" } else { &line }
        ));
        s.push_str(&format!(
            "Позиций просчитано: {}, в секунду: {nps}\n",
            a.nodes
        ));
        if let Some(r) = a.count_rule {
            s.push_str(&format!(
                "Счёт ходов не учтён; здесь действует правило: {}.\n",
                r.ru
            ));
        }
    } else {
        s.push_str(&format!("{to_move}: {result} ({basis})\n"));
        s.push_str(&format!(
            "Score for the side to move: {}\nDepth: {} plies\n",
            a.score, a.depth
        ));
        s.push_str(&format!(
            "Line: {}\n",
            if line.is_empty() { "-" } else { &line }
        ));
        s.push_str(&format!("Nodes: {}, per second: {nps}\n", a.nodes));
        if let Some(r) = a.count_rule {
            s.push_str(&format!(
                "Move counts are not taken into account; this rule applies: {}.\n",
                r.en
            ));
        }
    }
    s
}

/// Slices as files in a folder: `DIR/<game>/<material>.ztb`, written to a temporary name
/// and renamed, so that an interrupted build leaves only whole files.
struct DirStore {
    dir: PathBuf,
}

impl TableStore for DirStore {
    fn load(&mut self, variant: Variant, material: Material) -> Result<Option<Vec<u8>>, String> {
        let path = table_file(&self.dir, variant, material);
        match std::fs::read(&path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    }

    fn save(&mut self, variant: Variant, material: Material, bytes: &[u8]) -> Result<(), String> {
        let path = table_file(&self.dir, variant, material);
        let tmp = path.with_extension("ztb.tmp");
        let write = || -> std::io::Result<()> {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(bytes)?;
            f.sync_all()?;
            std::fs::rename(&tmp, &path)
        };
        write().map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// `zaochka tables build --game G --pieces N --dir DIR`: builds (or resumes) the endgame
/// tables to N pieces, each slice checked before it is written; progress on stderr, the
/// summary on stdout.
///
/// # Errors
/// Refused for an unknown game or a piece count outside 2..=5; broken when the folder
/// cannot be written or a slice fails its check.
pub fn build_tables(game: &str, pieces: u32, dir: &Path) -> CliResult {
    let variant = variant(game)?;
    if !(2..=5).contains(&pieces) {
        return Err(refused("--pieces must be 2..5"));
    }
    let mut store = DirStore {
        dir: dir.to_path_buf(),
    };
    let start = Instant::now();
    let mut slice_start = Instant::now();
    let mut last_note = Instant::now();
    let mut built = 0usize;
    let mut loaded = 0usize;
    let mut paired = false;
    let mut report = |p: &Progress| {
        let step = format!("[{}/{}] {variant} {}", p.finished + 1, p.total, p.material);
        match p.event {
            Event::Loaded => {
                loaded += 1;
                eprintln!("{step}: already built, checksum good");
                slice_start = Instant::now();
            }
            Event::Working { done, of } => {
                if last_note.elapsed().as_secs() >= 5 {
                    eprintln!("{step}: {done} of {of}");
                    last_note = Instant::now();
                }
            }
            Event::Built {
                wins,
                draws,
                losses,
            } => {
                built += 1;
                // a slice and its colours swapped are built together: the time is the pair's
                let time = if paired {
                    "with the slice above".to_owned()
                } else {
                    format!("in {:.1} s", slice_start.elapsed().as_secs_f64())
                };
                eprintln!(
                    "{step}: {} positions, built and checked {time} (side to move: {wins} wins, {draws} draws, {losses} losses)",
                    p.entries,
                );
                paired = !paired && p.material.flipped() != p.material;
                slice_start = Instant::now();
            }
        }
    };
    let set = build::build(variant, pieces, &mut store, &mut report)
        .map_err(|e| CliError::Broken(anyhow::anyhow!("{e}")))?;
    let bytes: usize = set.slices().map(|s| s.to_bytes().len()).sum();
    let entries: u64 = set.slices().map(|s| s.entries()).sum();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{variant} to {pieces} pieces: {} slices ({built} built, {loaded} already there), {entries} positions, {bytes} bytes in {}, {:.1} s",
        set.slices().count(),
        dir.join(variant.name()).display(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}
