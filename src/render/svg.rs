//! The board as an SVG picture, for the public pages (`zaochka export html`): the same
//! drawing on every page, 8x8 or 10x10, from [`Board`] like the letters' text and PNG
//! diagrams. Pure: a string in, a string out; no file, font or script is referred to.
//!
//! The picture is two layers: the squares with their coordinates ([`to_svg`]), and the
//! pieces ([`pieces`]), a `<g id="pieces">` of `<use>` elements, one per piece, each naming
//! its square (`data-square="c3"`) and what stands there (`data-piece`: `w` White man, `W`
//! White king, `b` Black man, `B` Black king). The step-through of a game page swaps the
//! pieces layer for the one of another ply, drawn by this same function.

use std::fmt::Write as _;

use super::{Board, Man};

/// The side of one square, in SVG units.
const CELL: usize = 40;
/// Room for the rank numbers on the left and the file letters below.
const MARGIN: usize = 20;
/// A little room on the other two sides, so the border is not cut.
const EDGE: usize = 4;
/// The light and the dark squares: the colours of the letters' PNG picture.
const LIGHT: &str = "#eeeed2";
const DARK: &str = "#769656";

/// The piece a cell holds, as `data-piece` writes it.
fn code(man: Man) -> char {
    match (man.is_white, man.is_king) {
        (true, false) => 'w',
        (true, true) => 'W',
        (false, false) => 'b',
        (false, true) => 'B',
    }
}

/// The square's name: `c3` (files a–h, or a–k without j on 10x10).
fn square_name(board: &Board, row: usize, col: usize) -> String {
    let file = board.files().get(col).copied().unwrap_or('?');
    format!("{file}{}", board.size - row)
}

/// Where the board's `(row, col)` (White's view) is drawn: its display row and column.
fn drawn_at(board: &Board, row: usize, col: usize) -> (usize, usize) {
    if board.is_flipped {
        (board.size - 1 - row, board.size - 1 - col)
    } else {
        (row, col)
    }
}

/// The pieces layer alone: `<g id="pieces">` with one `<use>` per piece. The page's
/// step-through puts the layer of each ply in place of the one [`to_svg`] drew.
pub fn pieces(board: &Board) -> String {
    let mut out = String::from("<g id=\"pieces\">");
    out.push_str(&piece_uses(board));
    out.push_str("</g>");
    out
}

/// The `<use>` elements of the pieces, without their group: what the step-through puts
/// inside `<g id="pieces">` for each ply.
pub fn piece_uses(board: &Board) -> String {
    let mut out = String::new();
    for row in 0..board.size {
        for col in 0..board.size {
            let Some(man) = board.cells.get(row * board.size + col).copied().flatten() else {
                continue;
            };
            let (r, c) = drawn_at(board, row, col);
            let piece = code(man);
            let _ = write!(
                out,
                "<use href=\"#zp-{piece}\" x=\"{}\" y=\"{}\" data-square=\"{}\" data-piece=\"{piece}\"/>",
                MARGIN + c * CELL,
                EDGE + r * CELL,
                square_name(board, row, col),
            );
        }
    }
    out
}

/// The piece shapes, drawn once in `<defs>` and placed by `<use>`: a man is a disc with a
/// ring; a king the same with a crown on it. Each shape fills one square from its corner.
fn defs() -> String {
    let h = CELL / 2;
    let r = CELL * 38 / 100;
    let ring = CELL * 26 / 100;
    // a three-pointed crown across the middle of the disc
    let crown = format!(
        "M{a} {b}L{c} {d}L{e} {f}L{h} {d2}L{g} {f}L{i} {d}L{j} {b}Z",
        a = h - 10,
        b = h + 6,
        c = h - 11,
        d = h - 6,
        e = h - 5,
        f = h,
        d2 = h - 8,
        g = h + 5,
        i = h + 11,
        j = h + 10,
    );
    let mut out = String::from("<defs>");
    for (id, fill, rim, mark) in [
        ("w", "#fafaf5", "#3c3c3c", "#3c3c3c"),
        ("b", "#1e1e1e", "#000000", "#d2d2d2"),
    ] {
        let _ = write!(
            out,
            "<g id=\"zp-{id}\"><circle cx=\"{h}\" cy=\"{h}\" r=\"{r}\" fill=\"{fill}\" stroke=\"{rim}\" stroke-width=\"2\"/>\
             <circle cx=\"{h}\" cy=\"{h}\" r=\"{ring}\" fill=\"none\" stroke=\"{mark}\" stroke-width=\"1.2\"/></g>"
        );
        let king = id.to_ascii_uppercase();
        let _ = write!(
            out,
            "<g id=\"zp-{king}\"><use href=\"#zp-{id}\"/><path d=\"{crown}\" fill=\"{mark}\"/></g>"
        );
    }
    out.push_str("</defs>");
    out
}

/// The whole picture: squares, coordinates (ranks on the left, files below; on 10x10 each
/// dark square's number in its corner, as players write their moves in them), and the
/// pieces. `label` is the picture's accessible name (`<title>`), in the page's language.
pub fn to_svg(board: &Board, label: &str) -> String {
    let n = board.size;
    let width = MARGIN + n * CELL + EDGE;
    let height = EDGE + n * CELL + MARGIN;
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 {width} {height}\" \
         role=\"img\" aria-labelledby=\"board-title\" data-size=\"{n}\" \
         font-family=\"sans-serif\"><title id=\"board-title\">{}</title>",
        escape(label)
    );
    out.push_str(&defs());
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\" stroke-width=\"2\"/>",
        MARGIN - 1,
        EDGE - 1,
        n * CELL + 2,
        n * CELL + 2
    );
    out.push_str("<g id=\"squares\">");
    for row in 0..n {
        for col in 0..n {
            let (r, c) = drawn_at(board, row, col);
            let dark = board.is_dark(row, col);
            let _ = write!(
                out,
                "<rect class=\"sq {}\" x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\" data-square=\"{}\"/>",
                if dark { "dark" } else { "light" },
                MARGIN + c * CELL,
                EDGE + r * CELL,
                if dark { DARK } else { LIGHT },
                square_name(board, row, col)
            );
        }
    }
    out.push_str("</g>");
    if board.has_numbers() {
        out.push_str("<g class=\"numbers\" font-size=\"9\" fill=\"#f4f4e8\">");
        for row in 0..n {
            for col in 0..n {
                if let Some(num) = board.number(row, col) {
                    let (r, c) = drawn_at(board, row, col);
                    let _ = write!(
                        out,
                        "<text x=\"{}\" y=\"{}\">{num}</text>",
                        MARGIN + c * CELL + 2,
                        EDGE + r * CELL + 9
                    );
                }
            }
        }
        out.push_str("</g>");
    }
    out.push_str("<g class=\"coords\" font-size=\"12\" fill=\"#333\" text-anchor=\"middle\">");
    for r in 0..n {
        let (row, _) = drawn_at(board, r, 0);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            MARGIN / 2,
            EDGE + r * CELL + CELL / 2 + 4,
            n - row
        );
    }
    let files = board.files();
    for c in 0..n {
        let (_, col) = drawn_at(board, 0, c);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            MARGIN + c * CELL + CELL / 2,
            EDGE + n * CELL + 15,
            files.get(col).copied().unwrap_or('?')
        );
    }
    out.push_str("</g>");
    out.push_str(&pieces(board));
    out.push_str("</svg>");
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, Variant};

    fn count(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    #[test]
    fn an_8x8_board_has_64_squares_32_dark_and_a_piece_where_the_position_has_one() {
        let board = Board::from(&Position::start(Variant::Russian));
        let svg = to_svg(&board, "Начальная позиция");
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>"));
        assert_eq!(count(&svg, "<rect class=\"sq "), 64);
        assert_eq!(count(&svg, "<rect class=\"sq dark\""), 32);
        assert_eq!(count(&svg, "data-piece=\"w\""), 12);
        assert_eq!(count(&svg, "data-piece=\"b\""), 12);
        assert!(svg.contains("data-square=\"c3\" data-piece=\"w\""), "{svg}");
        assert!(svg.contains("data-square=\"f6\" data-piece=\"b\""), "{svg}");
        assert!(
            !svg.contains("data-square=\"d4\" data-piece"),
            "d4 is empty at the start"
        );
        assert!(svg.contains("<title id=\"board-title\">Начальная позиция</title>"));
        // no square numbers on 8x8, files a..h below
        assert!(!svg.contains("class=\"numbers\""));
        assert!(svg.contains(">h</text>"));
    }

    #[test]
    fn a_10x10_board_has_100_squares_the_50_numbers_and_files_without_j() {
        let board = Board::from(&Position::start(Variant::Hundred));
        let svg = to_svg(&board, "x");
        assert_eq!(count(&svg, "<rect class=\"sq "), 100);
        assert_eq!(count(&svg, "<rect class=\"sq dark\""), 50);
        assert_eq!(count(&svg, "data-piece=\"w\""), 20);
        assert_eq!(count(&svg, "data-piece=\"b\""), 20);
        assert!(svg.contains(">50</text>") && svg.contains(">1</text>"));
        assert!(svg.contains(">k</text>") && !svg.contains(">j</text>"));
        assert!(svg.contains("data-square=\"k10\""), "{svg}");
    }

    #[test]
    fn a_king_is_drawn_with_its_own_shape_and_every_drawing_of_a_position_is_the_same() {
        let pos = Position::from_fen(Variant::Russian, "W:WKa1,c3:BKh8,f6").unwrap();
        let board = Board::from(&pos);
        let svg = to_svg(&board, "x");
        assert!(
            svg.contains("href=\"#zp-W\" x=\"20\" y=\"284\" data-square=\"a1\""),
            "{svg}"
        );
        assert!(svg.contains("data-square=\"h8\" data-piece=\"B\""), "{svg}");
        assert_eq!(count(&svg, "data-piece="), 4);
        assert_eq!(svg, to_svg(&Board::from(&pos), "x"));
        assert!(svg.contains(&pieces(&board)));
        assert_eq!(
            pieces(&board),
            format!("<g id=\"pieces\">{}</g>", piece_uses(&board))
        );
    }

    #[test]
    fn the_label_is_escaped_and_nothing_outside_the_picture_is_referred_to() {
        let board = Board::empty(8);
        let svg = to_svg(&board, "<a & \"b\">");
        assert!(svg.contains("&lt;a &amp; &quot;b&quot;&gt;"), "{svg}");
        assert!(
            !svg.contains("http://") || count(&svg, "http://") == 1,
            "only the xmlns"
        );
        assert!(!svg.contains("url("));
        assert_eq!(count(&svg, "data-piece="), 0);
    }
}
