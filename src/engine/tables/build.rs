//! The retrograde builder and the checker.
//!
//! Slices are built in the order of [`Material::all_up_to`]; a material and its colours
//! swapped (`1-1-0-1` and `0-1-1-1`) are built together, since a quiet move of one leads into
//! the other. For such a pair:
//! 1. every position is looked at once: no move → lost (won in give-away); a move into an
//!    earlier slice (a capture or a crowning) that leaves the opponent lost → won; the quiet
//!    moves within the pair are counted, and a move into an earlier slice that draws marks
//!    the position as one that cannot lose;
//! 2. from each decided position the quiet moves are taken back (a man one step back, a
//!    king back along any free diagonal; the position before must have had no capture, or the
//!    quiet move was not allowed): the position before a loss is a win; a win takes one off
//!    the count of the position before, and a count that reaches zero with no draw in hand
//!    is a loss;
//! 3. what is left undecided is a draw (neither side can force anything: cycles).
//!
//! [`check`] then recomputes every entry from its successors, forwards: an entry must be the
//! best over its successors (a win if some move leaves the opponent lost, a loss if every move
//! leaves the opponent winning, a draw otherwise).

use super::index::{Geometry, UP};
use super::{Material, Slice, TableError, TableSet, Wdl};
use crate::rules::compact::CMove;
use crate::rules::{Color, Position, Variant};

/// Where the builder keeps finished slices and finds them again when resumed (the CLI: one
/// file per slice in a folder).
pub trait TableStore {
    /// The bytes of a slice built before, if there are any.
    ///
    /// # Errors
    /// The store's own failure, worded.
    fn load(&mut self, variant: Variant, material: Material) -> Result<Option<Vec<u8>>, String>;
    /// Keeps a finished slice.
    ///
    /// # Errors
    /// The store's own failure, worded.
    fn save(&mut self, variant: Variant, material: Material, bytes: &[u8]) -> Result<(), String>;
}

/// A store that keeps nothing (tests that build in memory).
#[derive(Debug, Default)]
pub struct NoStore;

impl TableStore for NoStore {
    fn load(&mut self, _: Variant, _: Material) -> Result<Option<Vec<u8>>, String> {
        Ok(None)
    }

    fn save(&mut self, _: Variant, _: Material, _: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

/// What the builder is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A slice was found in the store, whole and matching its checksum.
    Loaded,
    /// Working on a slice: `done` of `of` positions through the current pass.
    Working {
        /// Positions done.
        done: u64,
        /// Positions in the pass.
        of: u64,
    },
    /// A slice is built and checked: its wins, draws and losses for the side to move.
    Built {
        /// Wins.
        wins: u64,
        /// Draws.
        draws: u64,
        /// Losses.
        losses: u64,
    },
}

/// One progress report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The slice.
    pub material: Material,
    /// Its entries.
    pub entries: u64,
    /// Slices finished before this one.
    pub finished: usize,
    /// Slices in the build.
    pub total: usize,
    /// What happened.
    pub event: Event,
}

/// Every material needed to build `targets`: the targets, their colours swapped, and every
/// material a capture or a crowning can lead to, in build order.
pub fn closure(targets: &[Material]) -> Vec<Material> {
    let max = targets.iter().map(|m| m.total()).max().unwrap_or(0);
    let reach = |x: &Material, m: &Material| {
        x.white_men <= m.white_men
            && x.white_men + x.white_kings <= m.white_men + m.white_kings
            && x.black_men <= m.black_men
            && x.black_men + x.black_kings <= m.black_men + m.black_kings
    };
    Material::all_up_to(max)
        .into_iter()
        .filter(|x| {
            targets
                .iter()
                .any(|m| reach(x, m) || reach(x, &m.flipped()))
        })
        .collect()
}

/// Builds (or loads from `store`) every slice of `variant` with up to `pieces` pieces.
///
/// # Errors
/// [`TableError::Store`] when the store fails, [`TableError::Inconsistent`] when a built slice
/// fails its check (a bug), [`TableError::Format`]/[`TableError::Checksum`] never: a damaged
/// stored slice is built again.
pub fn build(
    variant: Variant,
    pieces: u32,
    store: &mut dyn TableStore,
    progress: &mut dyn FnMut(&Progress),
) -> Result<TableSet, TableError> {
    build_materials(variant, &Material::all_up_to(pieces), store, progress)
}

/// Builds (or loads) the given materials, which must come in build order with everything
/// they need (see [`closure`]).
///
/// # Errors
/// As [`build`], and [`TableError::Missing`] when a needed slice is not among them.
pub fn build_materials(
    variant: Variant,
    materials: &[Material],
    store: &mut dyn TableStore,
    progress: &mut dyn FnMut(&Progress),
) -> Result<TableSet, TableError> {
    let g = Geometry::new(variant);
    let mut set = TableSet::new();
    let total = materials.len();
    let mut finished = 0usize;
    for &m in materials {
        if set.slice(variant, m).is_some() {
            continue;
        }
        let pair: Vec<Material> = if m.flipped() == m || !materials.contains(&m.flipped()) {
            vec![m]
        } else {
            vec![m, m.flipped()]
        };
        if pair.len() == 1 && m.flipped() != m {
            return Err(TableError::Missing {
                variant,
                material: m.flipped(),
            });
        }
        // resume: take stored slices that read back whole
        let mut stored = Vec::new();
        for &x in &pair {
            let bytes = store.load(variant, x).map_err(TableError::Store)?;
            match bytes.map(|b| Slice::from_bytes(&b)) {
                Some(Ok(s)) if s.variant() == variant && s.material() == x => stored.push(s),
                _ => break,
            }
        }
        if stored.len() == pair.len() {
            for s in stored {
                progress(&Progress {
                    material: s.material(),
                    entries: s.entries(),
                    finished,
                    total,
                    event: Event::Loaded,
                });
                finished += 1;
                set.insert(s);
            }
            continue;
        }
        let slices = build_pair(&g, &set, &pair, &mut |x, done, of| {
            progress(&Progress {
                material: x,
                entries: g.size(x),
                finished,
                total,
                event: Event::Working { done, of },
            });
        })?;
        for s in slices {
            set.insert(s);
        }
        for &x in &pair {
            check(&set, variant, x)?;
            let Some(s) = set.slice(variant, x) else {
                return Err(TableError::Missing {
                    variant,
                    material: x,
                });
            };
            store
                .save(variant, x, &s.to_bytes())
                .map_err(TableError::Store)?;
            let [wins, draws, losses] = s.counts();
            progress(&Progress {
                material: x,
                entries: s.entries(),
                finished,
                total,
                event: Event::Built {
                    wins,
                    draws,
                    losses,
                },
            });
            finished += 1;
        }
    }
    Ok(set)
}

/// Work codes (low 3 bits) and the flag of a position that has a drawing move out of the
/// pair.
const UNKNOWN: u8 = 0;
const LOSS: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 3;
const HOLE: u8 = 4;
const CAN_DRAW: u8 = 0x10;

/// The value of a move's result for the side that moved: the opponent's value read from the
/// tables, or the end of the game when the opponent has no piece left.
fn value_out(g: &Geometry, set: &TableSet, child: &Position) -> Result<Wdl, TableError> {
    let (mc, masks) = g.canonical(child);
    if mc.white_men + mc.white_kings == 0 {
        // the side to move has no piece: it has lost (won in give-away)
        return Ok(if g.variant == Variant::Giveaway {
            Wdl::Loss
        } else {
            Wdl::Win
        });
    }
    set.probe_masks(g.variant, mc, masks)
        .map(Wdl::flip)
        .ok_or(TableError::Missing {
            variant: g.variant,
            material: mc,
        })
}

/// The value of a position with no move for the side to move.
fn no_move(variant: Variant) -> u8 {
    if variant == Variant::Giveaway {
        WIN
    } else {
        LOSS
    }
}

fn build_pair(
    g: &Geometry,
    set: &TableSet,
    pair: &[Material],
    progress: &mut dyn FnMut(Material, u64, u64),
) -> Result<Vec<Slice>, TableError> {
    let partner = |k: usize| if pair.len() == 1 { 0 } else { 1 - k };
    let mut value: Vec<Vec<u8>> = Vec::new();
    let mut count: Vec<Vec<u8>> = Vec::new();
    let mut queue: Vec<u32> = Vec::new();
    let mut buf: Vec<CMove> = Vec::with_capacity(64);
    // 1. every position once
    for (k, &m) in pair.iter().enumerate() {
        let n = g.size(m);
        assert!(n < (1 << 31), "slice {m} too large for the builder's queue");
        let mut val = vec![UNKNOWN; n as usize];
        let mut cnt = vec![0u8; n as usize];
        let inside = pair[partner(k)];
        for i in 0..n {
            if i.is_multiple_of(1 << 20) {
                progress(m, i, n);
            }
            let Some(masks) = g.unindex(m, i) else {
                val[i as usize] = HOLE;
                continue;
            };
            let pos = g.position(masks);
            pos.compact_moves(&mut buf);
            if buf.is_empty() {
                val[i as usize] = no_move(g.variant);
                queue.push(((k as u32) << 31) | i as u32);
                continue;
            }
            let mut internal = 0u32;
            let mut can_draw = false;
            let mut win = false;
            for &mv in buf.iter() {
                let child = pos.play_compact(mv);
                if mv.captured == 0 && !mv.promotes {
                    debug_assert_eq!(g.canonical(&child).0, inside);
                    internal += 1;
                    continue;
                }
                match value_out(g, set, &child)? {
                    Wdl::Win => {
                        win = true;
                        break;
                    }
                    Wdl::Draw => can_draw = true,
                    Wdl::Loss => {}
                }
            }
            let slot = i as usize;
            if win {
                val[slot] = WIN;
                queue.push(((k as u32) << 31) | i as u32);
            } else if internal == 0 {
                if can_draw {
                    val[slot] = DRAW;
                } else {
                    val[slot] = LOSS;
                    queue.push(((k as u32) << 31) | i as u32);
                }
            } else {
                // at most 4 kings x 17 squares on 10x10: fits a byte
                cnt[slot] = internal.min(255) as u8;
                if can_draw {
                    val[slot] = CAN_DRAW;
                }
            }
        }
        value.push(val);
        count.push(cnt);
    }
    // 2. take quiet moves back from every decided position
    let mut head = 0usize;
    let mut done = 0u64;
    let all: u64 = pair.iter().map(|&m| g.size(m)).sum();
    while head < queue.len() {
        let q = queue[head];
        head += 1;
        done += 1;
        if done.is_multiple_of(1 << 20) {
            progress(pair[0], done, all);
        }
        if head > (1 << 22) && head * 2 > queue.len() {
            queue.drain(..head);
            head = 0;
        }
        let k = (q >> 31) as usize;
        let i = u64::from(q & 0x7FFF_FFFF);
        let v = value[k][i as usize] & 7;
        let Some(masks) = g.unindex(pair[k], i) else {
            continue;
        };
        let kp = partner(k);
        let mp = pair[kp];
        for before in unmoves(g, masks) {
            // the position before, Black to move: turned round, White to move, in the partner
            let canon = [
                g.rotate(before[1]),
                g.rotate(before[0]),
                g.rotate(before[2]),
            ];
            let j = g.index(mp, canon) as usize;
            let slot = &mut value[kp][j];
            if *slot & 7 != UNKNOWN {
                continue;
            }
            if v == LOSS {
                *slot = WIN;
                queue.push(((kp as u32) << 31) | j as u32);
            } else if v == WIN {
                let c = &mut count[kp][j];
                *c -= 1;
                if *c == 0 && *slot & CAN_DRAW == 0 {
                    *slot = LOSS;
                    queue.push(((kp as u32) << 31) | j as u32);
                }
            }
        }
    }
    // 3. the rest is drawn
    Ok(pair
        .iter()
        .zip(value)
        .map(|(&m, val)| {
            Slice::from_entries(g.variant, m, val.len() as u64, |i| {
                match val[i as usize] & 7 {
                    HOLE => None,
                    LOSS => Some(Wdl::Loss),
                    WIN => Some(Wdl::Win),
                    _ => Some(Wdl::Draw),
                }
            })
        })
        .collect())
}

/// The positions (Black to move, as square masks) from which a quiet move of Black leads to
/// `masks` (White to move): a black man one step back up, a black king back along a free
/// diagonal; only those where Black had no capture (else the quiet move was not allowed).
fn unmoves(g: &Geometry, [white, black, kings]: [u64; 3]) -> Vec<[u64; 3]> {
    let occupied = white | black;
    let mut out = Vec::new();
    let mut b = black;
    while b != 0 {
        let t = b.trailing_zeros() as usize;
        b &= b - 1;
        let tb = 1u64 << t;
        let is_king = kings & tb != 0;
        let dirs: &[usize] = if is_king { &[0, 1, 2, 3] } else { &UP };
        for &d in dirs {
            let mut f = g.next[t][d];
            while f != u8::MAX && occupied & (1u64 << f) == 0 {
                let fb = 1u64 << f;
                let before = [
                    white,
                    (black & !tb) | fb,
                    if is_king { (kings & !tb) | fb } else { kings },
                ];
                let pos = Position::from_square_masks(g.variant, Color::Black, before);
                if !pos.has_capture() {
                    out.push(before);
                }
                if !is_king {
                    break;
                }
                f = g.next[usize::from(f)][d];
            }
        }
    }
    out
}

/// Checks a slice of `set`: every entry equals the best over its successors, and every hole
/// is no position.
///
/// # Errors
/// [`TableError::Inconsistent`] naming the first entry that is not, [`TableError::Missing`]
/// when a slice it needs is not in `set`.
pub fn check(set: &TableSet, variant: Variant, material: Material) -> Result<(), TableError> {
    let g = Geometry::new(variant);
    let Some(slice) = set.slice(variant, material) else {
        return Err(TableError::Missing { variant, material });
    };
    let mut buf = Vec::with_capacity(64);
    for i in 0..slice.entries() {
        let found = slice.get(i);
        let want = match g.unindex(material, i) {
            None => None,
            Some(masks) => Some(best_over_successors(&g, set, &g.position(masks), &mut buf)?),
        };
        if found != want {
            return Err(TableError::Inconsistent {
                variant,
                material,
                index: i,
                found,
                want,
            });
        }
    }
    Ok(())
}

/// The value of a position for the side to move from its successors' values in `set`.
pub(crate) fn best_over_successors(
    g: &Geometry,
    set: &TableSet,
    pos: &Position,
    buf: &mut Vec<CMove>,
) -> Result<Wdl, TableError> {
    pos.compact_moves(buf);
    if buf.is_empty() {
        return Ok(if no_move(g.variant) == WIN {
            Wdl::Win
        } else {
            Wdl::Loss
        });
    }
    let mut best = Wdl::Loss;
    for &mv in buf.iter() {
        let child = pos.play_compact(mv);
        let v = value_out(g, set, &child)?;
        match v {
            Wdl::Win => return Ok(Wdl::Win),
            Wdl::Draw => best = Wdl::Draw,
            Wdl::Loss => {}
        }
    }
    Ok(best)
}
