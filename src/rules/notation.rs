//! Move notation as players write it, parsed without any position (10.2.2).
//!
//! [`MoveText`] is pure syntax: the squares in the order written and whether the move was
//! written as a capture. Whether it is legal, impossible or ambiguous is decided later
//! against a position (`MoveText::to_move`, in the rules' resolution code).
//!
//! Normal form (what [`std::fmt::Display`] writes, and what `FromStr` reads back):
//! lower-case Latin letters, `-` between the two squares of a quiet move, `:` between the
//! squares of a capture, each square as the player wrote it (numeric stays numeric).

use std::fmt;

/// One square as written, before any board is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareText {
    /// Algebraic: a file letter (`a`..=`h`, or `a`..=`k` without `j` on 10x10) and a rank
    /// (1..=10), e.g. `c3`, `k10`. The file is stored as the lower-case Latin letter.
    Alg {
        /// The file letter, lower-case Latin.
        file: char,
        /// The rank, 1-based.
        rank: u8,
    },
    /// Numeric (PDN / FMJD numbering): 1..=32 on 8x8, 1..=50 on 10x10.
    Num(u8),
}

/// A move as written in full notation: every square named, in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The starting square, then each landing square (for a quiet move: from, to).
    pub squares: Vec<SquareText>,
    /// Written with `:` (or `x`): a capture.
    pub is_capture: bool,
}

/// Why a text is not a move in full notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Short or semi-short notation (`cd4`, `c:e5`), which 10.2.2 counts as impossible.
    #[error("short notation '{0}' (10.2.2: moves are written in full notation)")]
    Short(String),
    /// Not a move at all.
    #[error("cannot read move '{0}'")]
    Unreadable(String),
}

impl ParseMoveError {
    /// The text that failed to parse, as the player wrote it.
    pub fn text(&self) -> &str {
        match self {
            ParseMoveError::Short(t) | ParseMoveError::Unreadable(t) => t,
        }
    }
}

/// How a square separator was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    /// Any dash: a quiet move.
    Quiet,
    /// `:`, `x` (Latin or Cyrillic), `×`: a capture.
    Capture,
}

/// Maps one character of a move to its normal form: the Latin file letter (Cyrillic
/// look-alikes а в с е к н of either case are read as a b c e k h), a digit, or a separator.
/// `None` for a character that has no place in a move.
fn normalise(c: char) -> Option<Norm> {
    Some(match c {
        'a'..='h' | 'i' | 'k' => Norm::File(c),
        'A'..='H' | 'I' | 'K' => Norm::File(c.to_ascii_lowercase()),
        'а' | 'А' => Norm::File('a'),
        'в' | 'В' => Norm::File('b'),
        'с' | 'С' => Norm::File('c'),
        'е' | 'Е' => Norm::File('e'),
        'к' | 'К' => Norm::File('k'),
        'н' | 'Н' => Norm::File('h'),
        '0'..='9' => Norm::Digit(c as u8 - b'0'),
        // Hyphen-minus, hyphen, non-breaking hyphen, figure dash, en dash, em dash,
        // horizontal bar, minus sign: players type whatever their keyboard gives.
        '-' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
        | '\u{2212}' => Norm::Sep(Sep::Quiet),
        ':' | 'x' | 'X' | 'х' | 'Х' | '×' => Norm::Sep(Sep::Capture),
        _ => return None,
    })
}

/// A normalised character of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Norm {
    File(char),
    Digit(u8),
    Sep(Sep),
}

/// One part of a move between separators, as far as syntax goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// A whole square.
    Square(SquareText),
    /// Letters and at most a rank, but not one square: `c`, `cd`, `cd4` (short notation).
    Short,
    /// Nothing between two separators, or before the first: `:e5` (short notation).
    Empty,
}

/// Reads one part (the characters between separators).
fn read_part(chars: &[Norm]) -> Option<Part> {
    let files: Vec<char> = chars
        .iter()
        .map_while(|n| match n {
            Norm::File(f) => Some(*f),
            _ => None,
        })
        .collect();
    let digits: Vec<u8> = chars[files.len()..]
        .iter()
        .map(|n| match n {
            Norm::Digit(d) => Some(*d),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if files.is_empty() && digits.is_empty() {
        return Some(Part::Empty);
    }
    if digits.len() > 2 || digits.first() == Some(&0) {
        return None;
    }
    let number = digits.iter().fold(0u8, |n, d| n * 10 + d);
    match files.len() {
        0 if (1..=50).contains(&number) => Some(Part::Square(SquareText::Num(number))),
        0 => None,
        1 if digits.is_empty() => Some(Part::Short),
        1 if (1..=10).contains(&number) => Some(Part::Square(SquareText::Alg {
            file: files[0],
            rank: number,
        })),
        1 => None,
        2 if digits.is_empty() || (1..=10).contains(&number) => Some(Part::Short),
        _ => None,
    }
}

impl std::str::FromStr for MoveText {
    type Err = ParseMoveError;

    /// Reads a move in full notation, as players write it.
    ///
    /// Accepted: upper or lower case, any dash for a quiet move, `:`, `x` or `×` for a
    /// capture, the Cyrillic look-alikes а в с е к н (either case) for a b c e k h, numeric
    /// squares (`32-28`), and spaces around the separators. Files are a..k without j, ranks
    /// 1..=10, numbers 1..=50: whether the square is on the board is for the position to say.
    ///
    /// ```
    /// use zaochka::rules::{MoveText, ParseMoveError};
    /// let m: MoveText = "c3-d4".parse().unwrap();
    /// assert_eq!(m.to_string(), "c3-d4");
    /// assert_eq!("c3:e5:c7".parse::<MoveText>().unwrap().to_string(), "c3:e5:c7");
    /// assert_eq!("C3-D4".parse::<MoveText>().unwrap(), m);
    /// assert_eq!("c3xe5".parse::<MoveText>().unwrap().to_string(), "c3:e5");
    /// for dash in ["c3-d4", "c3–d4", "c3—d4", "c3‒d4", "c3−d4"] {
    ///     assert_eq!(dash.parse::<MoveText>().unwrap(), m);
    /// }
    /// // Cyrillic а в с е к н (either case) are read as a b c e k h.
    /// assert_eq!("с3-в4".parse::<MoveText>().unwrap().to_string(), "c3-b4");
    /// assert_eq!("Е3:Н6".parse::<MoveText>().unwrap().to_string(), "e3:h6");
    /// // Numeric notation stays numeric.
    /// assert_eq!("32-28".parse::<MoveText>().unwrap().to_string(), "32-28");
    /// assert_eq!("19:30".parse::<MoveText>().unwrap().to_string(), "19:30");
    /// assert_eq!("19x30".parse::<MoveText>().unwrap().to_string(), "19:30");
    /// // Short and semi-short notation is an impossible move (10.2.2).
    /// for short in ["cd4", "c:e5", "cd", ":e5"] {
    ///     assert_eq!(short.parse::<MoveText>(), Err(ParseMoveError::Short(short.into())));
    /// }
    /// assert!(matches!("hello".parse::<MoveText>(), Err(ParseMoveError::Unreadable(_))));
    /// ```
    ///
    /// # Errors
    /// [`ParseMoveError::Short`] for short or semi-short notation (10.2.2),
    /// [`ParseMoveError::Unreadable`] for anything else that is not a move.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unreadable = || ParseMoveError::Unreadable(s.to_owned());
        let mut parts: Vec<Part> = Vec::new();
        let mut seps: Vec<Sep> = Vec::new();
        let mut current: Vec<Norm> = Vec::new();
        for c in s.chars().filter(|c| !c.is_whitespace()) {
            match normalise(c).ok_or_else(unreadable)? {
                Norm::Sep(sep) => {
                    parts.push(read_part(&current).ok_or_else(unreadable)?);
                    seps.push(sep);
                    current.clear();
                }
                n => current.push(n),
            }
        }
        parts.push(read_part(&current).ok_or_else(unreadable)?);

        let squares: Vec<SquareText> = parts
            .iter()
            .filter_map(|p| match p {
                Part::Square(sq) => Some(*sq),
                _ => None,
            })
            .collect();
        let is_capture = seps.first() == Some(&Sep::Capture);
        if seps.iter().any(|s| Some(s) != seps.first()) {
            return Err(unreadable());
        }
        if squares.len() == parts.len() && parts.len() >= 2 {
            let numeric = matches!(squares[0], SquareText::Num(_));
            if squares
                .iter()
                .any(|sq| matches!(sq, SquareText::Num(_)) != numeric)
            {
                return Err(unreadable());
            }
            if !is_capture && squares.len() > 2 {
                return Err(unreadable());
            }
            return Ok(MoveText {
                squares,
                is_capture,
            });
        }
        // Not all parts are whole squares: short notation if what is there is made of file
        // letters and algebraic squares only (`cd4`, `c:e5`, `cd`, `:e5`, `e5`); an empty part
        // anywhere but first (`c3-`, `c3--d4`) is just broken.
        let is_short_shape = parts.iter().all(|p| match p {
            Part::Square(SquareText::Alg { .. }) | Part::Short => true,
            Part::Square(SquareText::Num(_)) => false,
            Part::Empty => true,
        }) && !parts[1..].contains(&Part::Empty)
            && parts.iter().any(|p| *p != Part::Empty);
        if is_short_shape {
            Err(ParseMoveError::Short(s.to_owned()))
        } else {
            Err(unreadable())
        }
    }
}

impl fmt::Display for SquareText {
    /// `c3` for algebraic, `32` for numeric.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareText::Alg { file, rank } => write!(f, "{file}{rank}"),
            SquareText::Num(n) => write!(f, "{n}"),
        }
    }
}

impl std::str::FromStr for SquareText {
    type Err = ParseMoveError;

    /// Reads one square: `c3`, `C3`, `с3` (Cyrillic), `k10`, `32`.
    ///
    /// ```
    /// use zaochka::rules::SquareText;
    /// assert_eq!("С3".parse::<SquareText>().unwrap(), SquareText::Alg { file: 'c', rank: 3 });
    /// assert_eq!("32".parse::<SquareText>().unwrap(), SquareText::Num(32));
    /// assert!("j3".parse::<SquareText>().is_err());
    /// ```
    ///
    /// # Errors
    /// [`ParseMoveError::Unreadable`] when the text is not one square.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let unreadable = || ParseMoveError::Unreadable(s.to_owned());
        let chars: Vec<Norm> = s
            .trim()
            .chars()
            .map(normalise)
            .collect::<Option<_>>()
            .ok_or_else(unreadable)?;
        if chars.iter().any(|n| matches!(n, Norm::Sep(_))) {
            return Err(unreadable());
        }
        match read_part(&chars) {
            Some(Part::Square(sq)) => Ok(sq),
            _ => Err(unreadable()),
        }
    }
}

impl fmt::Display for MoveText {
    /// The normal form: lower-case Latin, `-` for a quiet move, `:` between the squares of a
    /// capture, numeric squares as numbers. `FromStr` reads it back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture { ':' } else { '-' };
        for (i, sq) in self.squares.iter().enumerate() {
            if i > 0 {
                write!(f, "{sep}")?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

/// A move text in zaochka's full notation (a stored move: `c3:e5:c7`, `19:28`) as zaochka
/// shows it to a reader: a numeric capture has `x` between its squares, as the FMJD numeric
/// notation writes it (`19x28`, `28x19x10`); algebraic and quiet moves are unchanged. Only
/// 10x10 moves are stored numeric, so the text alone says which board it is.
///
/// ```
/// use zaochka::rules::notation::shown;
/// assert_eq!(shown("19:28:37"), "19x28x37");
/// assert_eq!(shown("32-28"), "32-28");
/// assert_eq!(shown("c3:e5:c7"), "c3:e5:c7");
/// ```
pub fn shown(text: &str) -> String {
    if text.starts_with(|c: char| c.is_ascii_digit()) {
        text.replace(':', "x")
    } else {
        text.to_owned()
    }
}

impl MoveText {
    /// The starting square, if any square is named.
    pub fn from_square(&self) -> Option<SquareText> {
        self.squares.first().copied()
    }

    /// The final landing square, if a second square is named.
    pub fn to_square(&self) -> Option<SquareText> {
        if self.squares.len() >= 2 {
            self.squares.last().copied()
        } else {
            None
        }
    }

    /// Whether the squares are written as numbers (`32-28`).
    pub fn is_numeric(&self) -> bool {
        matches!(self.squares.first(), Some(SquareText::Num(_)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<MoveText, ParseMoveError> {
        s.parse()
    }

    #[test]
    fn full_notation_round_trips_through_display() {
        for s in [
            "c3-d4",
            "c3:e5:c7",
            "a1-b2",
            "k10-i9",
            "h8:f6",
            "32-28",
            "19:30",
            "19:28:37:46",
            "e3:c5:a7:c9:e7",
        ] {
            let m = parse(s).unwrap();
            assert_eq!(m.to_string(), s);
            assert_eq!(parse(&m.to_string()).unwrap(), m);
        }
    }

    #[test]
    fn a_shown_numeric_capture_reads_back_as_the_same_move() {
        for stored in ["19:28", "28:19:10", "32-28", "c3:e5:c7", "a1-b2"] {
            assert_eq!(parse(&shown(stored)), parse(stored), "{stored}");
        }
        assert_eq!(shown("28:19:10"), "28x19x10");
    }

    #[test]
    fn letter_e_written_capital_reads_as_e_per_10_2_2() {
        assert_eq!(parse("E3-F4").unwrap().to_string(), "e3-f4");
    }

    #[test]
    fn cyrillic_look_alikes_of_either_case_read_as_latin() {
        assert_eq!(parse("а1-в2").unwrap().to_string(), "a1-b2");
        assert_eq!(parse("С3:Е5").unwrap().to_string(), "c3:e5");
        assert_eq!(parse("к10-н9").unwrap().to_string(), "k10-h9");
        assert_eq!(
            parse("сЗ-d4").map_err(|e| e.text().to_owned()),
            Err("сЗ-d4".into())
        );
    }

    #[test]
    fn capture_may_be_written_with_x_latin_or_cyrillic() {
        assert_eq!(parse("c3xe5xg7").unwrap().to_string(), "c3:e5:g7");
        assert_eq!(parse("c3хe5").unwrap().to_string(), "c3:e5");
        assert_eq!(parse("19×30").unwrap().to_string(), "19:30");
    }

    #[test]
    fn spaces_around_separators_are_ignored() {
        assert_eq!(parse(" c3 - d4 ").unwrap().to_string(), "c3-d4");
    }

    #[test]
    fn short_and_semi_short_notation_is_impossible_per_10_2_2() {
        for s in [
            "cd4", "c:e5", "cd", ":e5", "e5", "C3", "b:d4", "dc5", "gh", "c:e:g5",
        ] {
            assert_eq!(parse(s), Err(ParseMoveError::Short(s.into())), "{s}");
        }
    }

    #[test]
    fn garbage_is_unreadable() {
        for s in [
            "", "hello", "c3-", "c3e5", "j3-k4", "c11-d10", "c0-d1", "51-46", "0-5", "c3-d4-e5",
            "c3:d4-e5", "c3-28", "3228", "c3--d4", "№7", "12.",
        ] {
            assert!(
                matches!(parse(s), Err(ParseMoveError::Unreadable(_))),
                "{s}: {:?}",
                parse(s)
            );
        }
    }

    fn square() -> impl proptest::strategy::Strategy<Value = SquareText> {
        use proptest::prelude::*;
        (
            prop::sample::select(vec!['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'k']),
            1u8..=10,
        )
            .prop_map(|(file, rank)| SquareText::Alg { file, rank })
    }

    proptest::proptest! {
        #[test]
        fn display_then_parse_gives_the_same_move(
            squares in proptest::collection::vec(square(), 2..6),
            numeric in proptest::collection::vec(1u8..=50, 2..6),
            is_capture: bool,
            use_numeric: bool,
        ) {
            let mut squares = if use_numeric {
                numeric.into_iter().map(SquareText::Num).collect()
            } else {
                squares
            };
            if !is_capture {
                squares.truncate(2);
            }
            let m = MoveText { squares, is_capture };
            proptest::prop_assert_eq!(parse(&m.to_string()), Ok(m));
        }

        #[test]
        fn any_text_parses_or_fails_without_panic(s in "\\PC{0,30}") {
            let _ = parse(&s);
        }
    }

    #[test]
    fn squares_off_an_8x8_board_are_still_syntax() {
        assert_eq!(parse("i9-k10").unwrap().squares.len(), 2);
        assert_eq!(
            parse("45-50").unwrap().to_square(),
            Some(SquareText::Num(50))
        );
    }
}
