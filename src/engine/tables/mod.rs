//! Endgame tables built in-house by retrograde analysis: win, draw or loss for the side to
//! move, 2 bits a position, one table ("slice") per material with White to move.
//!
//! - [`build`]: the builder ([`build::build`]), resumable through a [`build::TableStore`] the
//!   caller implements (the CLI keeps one file per slice in a folder), and checked: every
//!   entry equals the best over its successors ([`build::check`]).
//! - [`TableSet`]: slices read from bytes, probed by the search ([`Tables`]).
//!
//! The verdicts are those of the rules of play alone: a cycle is a draw (threefold
//! repetition), but the draw rules that count moves (15 king moves; three kings against one
//! by the 15th move; the main road by the 5th; 5/30/60 moves of unchanged balance; on 10x10
//! 25 king moves, 16 and 5 moves) are not in the tables — as in Kingsrow's and Scan's
//! databases. Where one of them could apply to a position, [`count_rule`] names it and the
//! analysis says so. The rule that depends on material alone, three kings against a lone
//! king on the main road (Russian), holds in the verdicts as theory has it: such positions
//! come out drawn unless a shot wins at once.
//!
//! Pure: bytes in, bytes out; no files here.

pub mod build;
pub(crate) mod index;

use std::collections::HashMap;
use std::fmt;

use crate::rules::{Color, Piece, Position, Square, Variant};
use index::Geometry;

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// The value for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    fn code(self) -> u8 {
        match self {
            Wdl::Loss => LOSS,
            Wdl::Draw => DRAW,
            Wdl::Win => WIN,
        }
    }

    fn of_code(c: u8) -> Option<Wdl> {
        match c {
            LOSS => Some(Wdl::Loss),
            DRAW => Some(Wdl::Draw),
            WIN => Some(Wdl::Win),
            _ => None,
        }
    }
}

/// 2-bit codes in a slice's data.
const NONE: u8 = 0;
const LOSS: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 3;

/// What one side has: men and kings of each colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
}

impl Material {
    /// A material.
    pub fn new(white_men: u8, white_kings: u8, black_men: u8, black_kings: u8) -> Material {
        Material {
            white_men,
            white_kings,
            black_men,
            black_kings,
        }
    }

    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        let c = |color, piece| pos.count(color, piece) as u8;
        Material::new(
            c(Color::White, Piece::Man),
            c(Color::White, Piece::King),
            c(Color::Black, Piece::Man),
            c(Color::Black, Piece::King),
        )
    }

    pub(crate) fn of_masks([w, b, k]: [u64; 3]) -> Material {
        let n = |m: u64| m.count_ones() as u8;
        Material::new(n(w & !k), n(w & k), n(b & !k), n(b & k))
    }

    /// All pieces.
    pub fn total(self) -> u32 {
        u32::from(self.white_men + self.white_kings + self.black_men + self.black_kings)
    }

    /// All men.
    pub fn men(self) -> u32 {
        u32::from(self.white_men + self.black_men)
    }

    /// The colours swapped.
    pub fn flipped(self) -> Material {
        Material::new(
            self.black_men,
            self.black_kings,
            self.white_men,
            self.white_kings,
        )
    }

    /// Every material with `2..=pieces` pieces and at least one piece a side, in the order
    /// the builder needs them: fewer pieces first, then fewer men (a crowning turns a man
    /// into a king, a capture takes a piece away).
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        for n in 2..=pieces.min(8) as u8 {
            for wm in 0..=n {
                for wk in 0..=n - wm {
                    for bm in 0..=n - wm - wk {
                        let bk = n - wm - wk - bm;
                        if wm + wk > 0 && bm + bk > 0 {
                            out.push(Material::new(wm, wk, bm, bk));
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.total(), m.men(), *m));
        out
    }
}

impl fmt::Display for Material {
    /// `wm-wk-bm-bk`, e.g. `1-2-0-1`: one white man and two white kings against a black king.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}-{}-{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }
}

/// Why table bytes were not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Not a table of zaochka's.
    #[error("not an endgame table ({0})")]
    Format(String),
    /// The bytes do not match their checksum.
    #[error("table {variant} {material}: checksum mismatch (damaged file)")]
    Checksum {
        /// The game.
        variant: Variant,
        /// The slice.
        material: Material,
    },
    /// Built, but an entry is not the best over its successors.
    #[error("table {variant} {material}: entry {index} is {found:?}, its successors give {want:?}")]
    Inconsistent {
        /// The game.
        variant: Variant,
        /// The slice.
        material: Material,
        /// The entry.
        index: u64,
        /// What it says.
        found: Option<Wdl>,
        /// What its successors say.
        want: Option<Wdl>,
    },
    /// A slice needed to build another is missing.
    #[error("table {variant} {material} is needed first")]
    Missing {
        /// The game.
        variant: Variant,
        /// The slice.
        material: Material,
    },
    /// The caller's store failed.
    #[error("{0}")]
    Store(String),
}

/// The file header: magic, version, game, material, entries, checksum.
const MAGIC: &[u8; 4] = b"ZTB1";
/// The header's length in bytes.
pub const HEADER_LEN: usize = 24;

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Russian => 0,
        Variant::Hundred => 1,
        Variant::Giveaway => 2,
    }
}

fn variant_of_code(c: u8) -> Option<Variant> {
    match c {
        0 => Some(Variant::Russian),
        1 => Some(Variant::Hundred),
        2 => Some(Variant::Giveaway),
        _ => None,
    }
}

/// FNV-1a, 64 bits: enough to tell a damaged or truncated file.
fn checksum(data: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in data {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One material's table: 2 bits an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slice {
    variant: Variant,
    material: Material,
    entries: u64,
    data: Vec<u8>,
}

impl Slice {
    /// The game.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The material.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of entries (indices, holes included).
    pub fn entries(&self) -> u64 {
        self.entries
    }

    fn code(&self, index: u64) -> u8 {
        (self.data[(index / 4) as usize] >> ((index % 4) * 2)) & 3
    }

    /// The entry of an index: `None` for a hole (no position).
    pub(crate) fn get(&self, index: u64) -> Option<Wdl> {
        Wdl::of_code(self.code(index))
    }

    /// A slice of `n` entries, entry `i` being `entry(i)` (`None` for a hole).
    pub(crate) fn from_entries(
        variant: Variant,
        material: Material,
        n: u64,
        entry: impl Fn(u64) -> Option<Wdl>,
    ) -> Slice {
        let mut data = vec![0u8; n.div_ceil(4) as usize];
        for i in 0..n {
            let c = entry(i).map_or(NONE, Wdl::code);
            data[(i / 4) as usize] |= c << ((i % 4) * 2);
        }
        Slice {
            variant,
            material,
            entries: n,
            data,
        }
    }

    /// The slice as file bytes (header and data).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.data.len());
        out.extend_from_slice(MAGIC);
        let m = self.material;
        out.extend_from_slice(&[
            variant_code(self.variant),
            m.white_men,
            m.white_kings,
            m.black_men,
        ]);
        out.extend_from_slice(&[m.black_kings, 0, 0, 0]);
        out.extend_from_slice(&self.entries.to_le_bytes()[..4]);
        out.extend_from_slice(&checksum(&self.data).to_le_bytes());
        out.extend_from_slice(&self.data);
        out
    }

    /// A slice from file bytes, checked against its header and checksum.
    ///
    /// # Errors
    /// [`TableError::Format`] for bytes that are no table or of the wrong size,
    /// [`TableError::Checksum`] for damaged data.
    pub fn from_bytes(bytes: &[u8]) -> Result<Slice, TableError> {
        if bytes.len() < HEADER_LEN || &bytes[..4] != MAGIC {
            return Err(TableError::Format("no ZTB1 header".into()));
        }
        let variant = variant_of_code(bytes[4])
            .ok_or_else(|| TableError::Format(format!("unknown game code {}", bytes[4])))?;
        let material = Material::new(bytes[5], bytes[6], bytes[7], bytes[8]);
        let mut n = [0u8; 8];
        n[..4].copy_from_slice(&bytes[12..16]);
        let entries = u64::from_le_bytes(n);
        let mut c = [0u8; 8];
        c.copy_from_slice(&bytes[16..24]);
        let sum = u64::from_le_bytes(c);
        let data = &bytes[HEADER_LEN..];
        let g = Geometry::new(variant);
        if material.total() < 2 || material.total() > 8 || g.size(material) != entries {
            return Err(TableError::Format(format!(
                "{variant} {material}: {entries} entries do not fit the material"
            )));
        }
        if data.len() as u64 != entries.div_ceil(4) {
            return Err(TableError::Format(format!(
                "{variant} {material}: {} data bytes for {entries} entries (truncated?)",
                data.len()
            )));
        }
        if checksum(data) != sum {
            return Err(TableError::Checksum { variant, material });
        }
        Ok(Slice {
            variant,
            material,
            entries,
            data: data.to_vec(),
        })
    }

    /// The number of wins, draws and losses (holes left out).
    pub fn counts(&self) -> [u64; 3] {
        let mut c = [0u64; 3];
        for i in 0..self.entries {
            match self.get(i) {
                Some(Wdl::Win) => c[0] += 1,
                Some(Wdl::Draw) => c[1] += 1,
                Some(Wdl::Loss) => c[2] += 1,
                None => {}
            }
        }
        c
    }
}

/// Endgame tables as the search probes them.
pub trait Tables {
    /// The value for the side to move, when the tables hold the position.
    fn probe(&self, pos: &Position) -> Option<Wdl>;
    /// The most pieces a position of `variant` may have to be held (0: none).
    fn max_pieces(&self, variant: Variant) -> u32;
}

/// Slices of one or more games, keyed by material.
#[derive(Clone, Debug)]
pub struct TableSet {
    slices: HashMap<(Variant, Material), Slice>,
    geometry: Vec<Geometry>,
    max: [u32; 3],
}

impl Default for TableSet {
    fn default() -> TableSet {
        TableSet::new()
    }
}

impl TableSet {
    /// No tables.
    pub fn new() -> TableSet {
        TableSet {
            slices: HashMap::new(),
            geometry: Variant::ALL.iter().map(|&v| Geometry::new(v)).collect(),
            max: [0; 3],
        }
    }

    fn geometry(&self, v: Variant) -> &Geometry {
        &self.geometry[usize::from(variant_code(v))]
    }

    /// Adds a slice (replacing one of the same game and material).
    pub fn insert(&mut self, slice: Slice) {
        self.slices.insert((slice.variant, slice.material), slice);
        self.recount();
    }

    /// Adds a slice from file bytes.
    ///
    /// # Errors
    /// As [`Slice::from_bytes`].
    pub fn insert_bytes(&mut self, bytes: &[u8]) -> Result<(), TableError> {
        self.insert(Slice::from_bytes(bytes)?);
        Ok(())
    }

    /// The slice of a material, if held.
    pub fn slice(&self, variant: Variant, material: Material) -> Option<&Slice> {
        self.slices.get(&(variant, material))
    }

    /// Every slice held, by game and material.
    pub fn slices(&self) -> impl Iterator<Item = &Slice> {
        self.slices.values()
    }

    /// `max` per game: the largest piece count for which every material is held.
    fn recount(&mut self) {
        for v in Variant::ALL {
            let mut n = 0;
            for pieces in 2..=8 {
                let complete = Material::all_up_to(pieces)
                    .into_iter()
                    .filter(|m| m.total() == pieces)
                    .all(|m| self.slices.contains_key(&(v, m)));
                if !complete {
                    break;
                }
                n = pieces;
            }
            self.max[usize::from(variant_code(v))] = n;
        }
    }

    /// The value of a canonical position (White to move) given as square masks.
    pub(crate) fn probe_masks(
        &self,
        variant: Variant,
        material: Material,
        masks: [u64; 3],
    ) -> Option<Wdl> {
        let slice = self.slices.get(&(variant, material))?;
        slice.get(self.geometry(variant).index(material, masks))
    }
}

impl Tables for TableSet {
    fn probe(&self, pos: &Position) -> Option<Wdl> {
        let g = self.geometry(pos.variant());
        let (material, masks) = g.canonical(pos);
        self.probe_masks(pos.variant(), material, masks)
    }

    fn max_pieces(&self, variant: Variant) -> u32 {
        self.max[usize::from(variant_code(variant))]
    }
}

/// A draw rule that counts moves and could apply to a position's material (see the module
/// doc: the tables leave these out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountRule {
    /// The rule, in Russian.
    pub ru: &'static str,
    /// The rule, in English.
    pub en: &'static str,
    /// The moves (of each side, or of the stronger side as the rule says) it allows.
    pub moves: u32,
}

/// The move-count draw rule that could apply to this position's material, if any (the rules
/// of `rules::draw`).
pub fn count_rule(pos: &Position) -> Option<CountRule> {
    let variant = pos.variant();
    let m = Material::of(pos);
    let lone = |men: u8, kings: u8| men == 0 && kings == 1;
    let strong = if lone(m.black_men, m.black_kings) {
        Some((m.white_men, m.white_kings))
    } else if lone(m.white_men, m.white_kings) {
        Some((m.black_men, m.black_kings))
    } else {
        None
    };
    let main_road = |p: &Position| {
        let weak = if lone(m.black_men, m.black_kings) {
            Color::Black
        } else {
            Color::White
        };
        (0..8u8).any(|f| {
            Square::from_coords(8, f, f + 1)
                .and_then(|sq| p.piece_at(sq))
                .is_some_and(|(c, k)| c == weak && k == Piece::King)
        })
    };
    match variant {
        Variant::Russian => {
            if let Some((men, kings)) = strong {
                if kings >= 1 && men + kings == 3 && main_road(pos) {
                    return Some(CountRule {
                        ru: "три шашки против одинокой дамки на большой дороге: ничья, если она не взята к 5-му ходу",
                        en: "three pieces against a lone king on the main road: a draw unless it is taken by the 5th move",
                        moves: 5,
                    });
                }
                if kings >= 3 {
                    return Some(CountRule {
                        ru: "три дамки и более против одинокой дамки: ничья, если она не взята к 15-му ходу",
                        en: "three kings or more against a lone king: a draw unless it is taken by the 15th move",
                        moves: 15,
                    });
                }
            }
            let kings_both = m.white_kings > 0 && m.black_kings > 0;
            if kings_both && m.total() <= 7 {
                let moves = match m.total() {
                    0..=3 => 5,
                    4..=5 => 30,
                    _ => 60,
                };
                return Some(CountRule {
                    ru: match moves {
                        5 => {
                            "у обеих сторон дамки: ничья, если соотношение сил не изменится за 5 ходов"
                        }
                        30 => {
                            "у обеих сторон дамки: ничья, если соотношение сил не изменится за 30 ходов"
                        }
                        _ => {
                            "у обеих сторон дамки: ничья, если соотношение сил не изменится за 60 ходов"
                        }
                    },
                    en: match moves {
                        5 => {
                            "kings on both sides: a draw if the balance of forces does not change within 5 moves"
                        }
                        30 => {
                            "kings on both sides: a draw if the balance of forces does not change within 30 moves"
                        }
                        _ => {
                            "kings on both sides: a draw if the balance of forces does not change within 60 moves"
                        }
                    },
                    moves,
                });
            }
            kings_only(m, 15)
        }
        Variant::Hundred => {
            if let Some((men, kings)) = strong
                && kings >= 1
            {
                if men + kings == 3 {
                    return Some(CountRule {
                        ru: "три шашки с дамкой против одинокой дамки: ничья, если она не взята к 16-му ходу",
                        en: "three pieces with a king against a lone king: a draw unless it is taken by the 16th move",
                        moves: 16,
                    });
                }
                if men + kings <= 2 {
                    return Some(CountRule {
                        ru: "две шашки с дамкой или одна дамка против одинокой дамки: ничья, если она не взята к 5-му ходу",
                        en: "two pieces with a king, or a king, against a lone king: a draw unless it is taken by the 5th move",
                        moves: 5,
                    });
                }
            }
            kings_only(m, 25)
        }
        Variant::Giveaway => kings_only(m, 15),
    }
}

fn kings_only(m: Material, moves: u32) -> Option<CountRule> {
    let (ru, en) = if moves == 25 {
        (
            "только дамки: ничья, если 25 ходов ходили только дамками, без взятий",
            "kings only: a draw after 25 moves of kings only, with no capture",
        )
    } else {
        (
            "только дамки: ничья, если 15 ходов ходили только дамками, без взятий",
            "kings only: a draw after 15 moves of kings only, with no capture",
        )
    };
    (m.men() == 0).then_some(CountRule { ru, en, moves })
}

#[cfg(test)]
mod tests;
