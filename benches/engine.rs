//! The engine's figures (README "The arbiter's engine"). Plain `std::time::Instant` timing.
//!
//! ```text
//! cargo bench --bench engine                         # nodes/s: start positions and a middlegame
//! cargo bench --bench engine -- selfplay [--depth 6] [--plies 3] [--game russian]
//!                                                    # tuned against untuned weights
//! cargo bench --bench engine -- tune [--depth 4] [--rounds 2] [--plies 3] [--step 6] [--keep 0.53]
//!                                    [--from W] [--game russian]
//!                                                    # the self-play tuning itself
//! cargo bench --bench engine -- match --a W1 --b W2 [--depth 6] [--plies 3] [--game russian]
//!                                                    # two weight lists (comma separated) against each other
//! cargo bench --bench engine -- agreement --tables DIR [--pieces 5] [--positions 1000] [--depth 8]
//!                                                    # searched verdicts against the tables
//! ```

use std::hint::black_box;
use std::time::Instant;

use zaochka::engine::eval::WEIGHT_NAMES;
use zaochka::engine::selfplay::{MatchResult, Player, openings, play_match};
use zaochka::engine::{
    Limits, Material, NoDeadline, Tables, Verdict, Weights, analyse_position, analyse_with,
};
use zaochka::rules::{Color, GameRecord, Piece, Position, Square, Variant};

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.first().map(String::as_str) {
        Some("selfplay") => selfplay(&args),
        Some("tune") => tune(&args),
        Some("match") => weights_match(&args),
        Some("agreement") => agreement(&args),
        _ => speed(),
    }
}

/// The position after `plies` plies of the engine's own play at depth 6 from the start.
fn middlegame(variant: Variant, plies: usize) -> Position {
    let mut rec = GameRecord::new(Position::start(variant));
    for _ in 0..plies {
        let a = analyse_with(
            &rec,
            Limits::depth(6),
            &NoDeadline,
            None,
            Weights::tuned(variant),
        );
        rec.push(a.pv[0].clone())
            .expect("the engine plays legal moves");
    }
    *rec.position()
}

fn speed() {
    println!("search speed, one thread, fixed depth (the best of 3 runs)");
    for (variant, depth) in [
        (Variant::Russian, 12),
        (Variant::Hundred, 9),
        (Variant::Giveaway, 12),
    ] {
        let cases = [
            ("start", Position::start(variant)),
            ("middlegame", middlegame(variant, 16)),
        ];
        for (name, pos) in cases {
            let mut best = f64::MAX;
            let mut nodes = 0;
            for _ in 0..3 {
                let t = Instant::now();
                let a = analyse_position(black_box(&pos), Limits::depth(depth), &NoDeadline, None);
                best = best.min(t.elapsed().as_secs_f64());
                nodes = a.nodes;
            }
            println!(
                "{variant:8} {name:10} depth {depth:2}: {nodes:>10} nodes in {best:6.2} s = {:>5.2} M nodes/s   ({})",
                nodes as f64 / best / 1e6,
                pos.to_fen()
            );
        }
    }
}

fn player(weights: Weights, depth: u32) -> Player {
    Player {
        weights,
        limits: Limits {
            depth,
            tt_bits: 18,
            ..Limits::default()
        },
    }
}

fn report(label: &str, r: &MatchResult) {
    let (p, bar) = r.score();
    println!(
        "{label}: {} games, +{} ={} -{}, score {:.1}/{} = {:.1}% ± {:.1}% (95%), Elo {:+.0} [{:+.0}, {:+.0}]",
        r.games(),
        r.wins,
        r.draws,
        r.losses,
        r.points(),
        r.games(),
        100.0 * p,
        100.0 * bar,
        MatchResult::elo(p),
        MatchResult::elo(p - bar),
        MatchResult::elo(p + bar),
    );
}

/// A weight list `a,b,c,…` given after `name`.
fn weights_arg(args: &[String], name: &str) -> Option<Weights> {
    let text: String = arg(args, name, String::new());
    let p: Vec<i32> = text
        .split(',')
        .filter_map(|x| x.trim().parse().ok())
        .collect();
    let p: [i32; zaochka::engine::eval::WEIGHT_COUNT] = p.try_into().ok()?;
    Some(Weights { p })
}

fn weights_match(args: &[String]) {
    let variant: Variant = arg(args, "--game", Variant::Russian);
    let depth = arg(args, "--depth", 6u32);
    let plies = arg(args, "--plies", 3u32);
    let a = weights_arg(args, "--a").unwrap_or(Weights::tuned(variant));
    let b = weights_arg(args, "--b").unwrap_or(Weights::untuned(variant));
    let open = openings(variant, plies);
    println!(
        "{variant}: {:?} against {:?}, depth {depth}, {} openings ({plies} plies) x 2",
        a.p,
        b.p,
        open.len()
    );
    let t = Instant::now();
    let r = play_match(&player(a, depth), &player(b, depth), &open, None, 200);
    report("a v b", &r);
    println!("{:.0} s", t.elapsed().as_secs_f64());
}

fn selfplay(args: &[String]) {
    let variant: Variant = arg(args, "--game", Variant::Russian);
    let depth = arg(args, "--depth", 6u32);
    let plies = arg(args, "--plies", 3u32);
    let games = arg(args, "--max-plies", 200usize);
    let tuned = player(Weights::tuned(variant), depth);
    let untuned = player(Weights::untuned(variant), depth);
    let open = openings(variant, plies);
    println!(
        "{variant}: tuned against untuned, depth {depth}, {} openings ({plies} plies) each played with both colours, a game drawn after {games} plies",
        open.len()
    );
    let t = Instant::now();
    let r = play_match(&tuned, &untuned, &open, None, games);
    report("tuned v untuned", &r);
    println!("{:.0} s", t.elapsed().as_secs_f64());
}

/// Coordinate search by self-play: each weight in turn is moved up and down by half its
/// value (at least `--step`); a change is kept when the new weights beat the current ones
/// (a score above `--keep`, 53% by default) in a match from every opening with both colours. A round that keeps
/// nothing ends the search (the matches are deterministic: another would repeat it).
fn tune(args: &[String]) {
    let variant: Variant = arg(args, "--game", Variant::Russian);
    let depth = arg(args, "--depth", 4u32);
    let rounds = arg(args, "--rounds", 2u32);
    let plies = arg(args, "--plies", 3u32);
    let step_min = arg(args, "--step", 6i32);
    let open = openings(variant, plies);
    let keep = arg(args, "--keep", 0.53f64);
    let mut current = weights_arg(args, "--from").unwrap_or(Weights::untuned(variant));
    println!(
        "{variant}: tuning from {:?}, depth {depth}, {} openings x 2",
        current.p,
        open.len()
    );
    let t = Instant::now();
    for round in 1..=rounds {
        let before = current;
        for (i, name) in WEIGHT_NAMES.iter().enumerate() {
            let step = (current.p[i].abs() / 2).max(step_min);
            for sign in [1, -1] {
                let mut cand = current;
                cand.p[i] += sign * step;
                if cand.p[i] == current.p[i] {
                    continue;
                }
                let r = play_match(
                    &player(cand, depth),
                    &player(current, depth),
                    &open,
                    None,
                    160,
                );
                let (p, _) = r.score();
                let kept = p > keep;
                println!(
                    "round {round} {:28} {:>5} -> {:>5}: +{} ={} -{} {:.1}% {}  [{:.0} s]",
                    name,
                    current.p[i],
                    cand.p[i],
                    r.wins,
                    r.draws,
                    r.losses,
                    100.0 * p,
                    if kept { "kept" } else { "" },
                    t.elapsed().as_secs_f64()
                );
                if kept {
                    current = cand;
                    break;
                }
            }
        }
        println!("after round {round}: {:?}", current.p);
        if current == before {
            break;
        }
    }
}

/// Reads the tables with the CLI's reader (the same files `zaochka tables build` writes).
fn agreement(args: &[String]) {
    let variant: Variant = arg(args, "--game", Variant::Russian);
    let pieces = arg(args, "--pieces", 5u32);
    let n = arg(args, "--positions", 1000usize);
    let depth = arg(args, "--depth", 8u32);
    let dir: String = arg(args, "--tables", String::from("tables"));
    let loaded = zaochka::office::engine::load_tables(std::path::Path::new(&dir), variant)
        .expect("the tables folder reads");
    let set = loaded.tables;
    assert!(
        set.max_pieces(variant) >= pieces,
        "the tables in {dir} hold {} pieces",
        set.max_pieces(variant)
    );
    let materials: Vec<Material> = Material::all_up_to(pieces)
        .into_iter()
        .filter(|m| m.total() == pieces)
        .collect();
    let size = variant.board_size();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut agree, mut total, mut proven) = (0usize, 0usize, 0usize);
    let mut by = [[0usize; 3]; 3];
    let t = Instant::now();
    while total < n {
        // a random material, then random squares for its pieces
        let m = materials[(next() % materials.len() as u64) as usize];
        let side = if next() % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::empty(variant, side);
        let mut ok = true;
        for (color, piece, k) in [
            (Color::White, Piece::Man, m.white_men),
            (Color::White, Piece::King, m.white_kings),
            (Color::Black, Piece::Man, m.black_men),
            (Color::Black, Piece::King, m.black_kings),
        ] {
            for _ in 0..k {
                let mut placed = false;
                for _ in 0..100 {
                    let s = (next() % u64::from(variant.square_count())) as u8 + 1;
                    let sq = Square::from_number(size, s).expect("a square number");
                    let crown = if color == Color::White {
                        sq.rank() == size
                    } else {
                        sq.rank() == 1
                    };
                    if pos.piece_at(sq).is_none() && !(piece == Piece::Man && crown) {
                        pos.put(sq, Some((color, piece)));
                        placed = true;
                        break;
                    }
                }
                ok &= placed;
            }
        }
        let Some(want) = ok.then(|| set.probe(&pos)).flatten() else {
            continue;
        };
        let a = analyse_position(
            &pos,
            Limits {
                depth,
                tt_bits: 18,
                ..Limits::default()
            },
            &NoDeadline,
            None,
        );
        let w = match want {
            zaochka::engine::Wdl::Win => Verdict::Win,
            zaochka::engine::Wdl::Draw => Verdict::Draw,
            zaochka::engine::Wdl::Loss => Verdict::Loss,
        };
        let idx = |v: Verdict| match v {
            Verdict::Win => 0,
            Verdict::Draw => 1,
            Verdict::Loss => 2,
        };
        by[idx(w)][idx(a.verdict)] += 1;
        total += 1;
        agree += usize::from(w == a.verdict);
        proven += usize::from(a.proven);
        if a.proven {
            assert_eq!(
                a.verdict,
                w,
                "a proven verdict against the tables: {}",
                pos.to_fen()
            );
        }
    }
    println!(
        "{variant}, {pieces} pieces, {total} random positions, search depth {depth} without the tables: \
         the verdict agrees with the tables in {agree} ({:.1}%), {proven} of them proven by the search; {:.0} s",
        100.0 * agree as f64 / total as f64,
        t.elapsed().as_secs_f64()
    );
    println!("tables (rows: win, draw, loss) against search (columns: win, draw, loss): {by:?}");
}
