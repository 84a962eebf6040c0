//! Board diagrams for letters: a monospace text diagram for the plain part and a PNG picture
//! for the HTML part. Both are drawn from [`Board`], a neutral description of a position, so
//! the drawing knows nothing of move generation.

/// What stands on one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Man {
    /// White's piece (else Black's).
    pub is_white: bool,
    /// A king (else a man).
    pub is_king: bool,
}

/// A position as a picture: `size` rows and columns, row 0 at the top (Black's side), column
/// 0 on the left (file `a`), seen from White.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// 8 or 10.
    pub size: usize,
    /// `size * size` cells, row-major from the top-left corner.
    pub cells: Vec<Option<Man>>,
}

impl Board {
    /// An empty board of `size` × `size` squares.
    pub fn empty(size: usize) -> Self {
        Board {
            size,
            cells: vec![None; size * size],
        }
    }

    /// Puts a piece on the square of `row` (0 = top) and `col` (0 = file a).
    pub fn put(&mut self, row: usize, col: usize, man: Man) {
        if row < self.size && col < self.size {
            self.cells[row * self.size + col] = Some(man);
        }
    }

    /// The dark (playing) squares: a1 is dark, so a square is dark when its rank and file
    /// indices have the same parity, i.e. `(row + col)` is odd counted from the top.
    pub fn is_dark(&self, row: usize, col: usize) -> bool {
        (row + col) % 2 == 1
    }

    /// The file letters: a–h on 8x8, a–k without j on 10x10 (the rules of the sport).
    pub fn files(&self) -> Vec<char> {
        "abcdefghik".chars().take(self.size).collect()
    }

    /// A text diagram in the letter's language: men and kings by the initial of the colour
    /// (`б`/`ч` and `Б`/`Ч` in Russian, where a Latin `b` would read as «белые»; `w`/`b` and
    /// `W`/`B` in English), `.` empty dark squares, blanks for light squares, ranks on the
    /// left, files below, and a one-line legend.
    pub fn to_text(&self, lang: super::Lang) -> String {
        let [wm, wk, bm, bk] = match lang {
            super::Lang::Ru => ['б', 'Б', 'ч', 'Ч'],
            super::Lang::En => ['w', 'W', 'b', 'B'],
        };
        let mut out = String::new();
        let border = format!("   +{}+\n", "-".repeat(self.size * 2 + 1));
        out.push_str(&border);
        for row in 0..self.size {
            let rank = self.size - row;
            out.push_str(&format!("{rank:>2} |"));
            for col in 0..self.size {
                let c = match self.cells[row * self.size + col] {
                    Some(Man {
                        is_white: true,
                        is_king: false,
                    }) => wm,
                    Some(Man {
                        is_white: true,
                        is_king: true,
                    }) => wk,
                    Some(Man {
                        is_white: false,
                        is_king: false,
                    }) => bm,
                    Some(Man {
                        is_white: false,
                        is_king: true,
                    }) => bk,
                    None if self.is_dark(row, col) => '.',
                    None => ' ',
                };
                out.push(' ');
                out.push(c);
            }
            out.push_str(" |\n");
        }
        out.push_str(&border);
        out.push_str("    ");
        for f in self.files() {
            out.push(' ');
            out.push(f);
        }
        out.push('\n');
        out.push_str(match lang {
            super::Lang::Ru => {
                "б — белая шашка, Б — белая дамка, ч — чёрная шашка, Ч — чёрная дамка\n"
            }
            super::Lang::En => "w — White man, W — White king, b — Black man, B — Black king\n",
        });
        out
    }

    /// A PNG picture of the board with coordinates, about 400 pixels wide.
    pub fn to_png(&self) -> Vec<u8> {
        let cell = if self.size == 8 { 44 } else { 36 };
        let margin = 18;
        let side = self.size * cell + 2 * margin;
        let mut img = Canvas::new(side, side, [255, 255, 255]);
        for row in 0..self.size {
            for col in 0..self.size {
                let (x, y) = (margin + col * cell, margin + row * cell);
                let color = if self.is_dark(row, col) {
                    [118, 150, 86]
                } else {
                    [238, 238, 210]
                };
                img.rect(x, y, cell, cell, color);
                if let Some(man) = self.cells[row * self.size + col] {
                    let (cx, cy) = (x as f32 + cell as f32 / 2.0, y as f32 + cell as f32 / 2.0);
                    let r = cell as f32 * 0.38;
                    let (fill, rim) = if man.is_white {
                        ([250, 250, 245], [60, 60, 60])
                    } else {
                        ([30, 30, 30], [200, 200, 200])
                    };
                    img.disc(cx, cy, r, rim);
                    img.disc(cx, cy, r - 2.0, fill);
                    if man.is_king {
                        img.disc(cx, cy, r * 0.45, [212, 160, 23]);
                    }
                }
            }
        }
        img.frame(margin - 1, margin - 1, self.size * cell + 2, [40, 40, 40]);
        for (i, f) in self.files().into_iter().enumerate() {
            let x = margin + i * cell + cell / 2 - 2;
            img.glyph(x, side - margin + 6, f, [40, 40, 40]);
        }
        for row in 0..self.size {
            let rank = self.size - row;
            let y = margin + row * cell + cell / 2 - 3;
            let text = rank.to_string();
            for (k, ch) in text.chars().enumerate() {
                img.glyph(3 + k * 6, y, ch, [40, 40, 40]);
            }
        }
        img.encode()
    }
}

/// A tiny RGB canvas: enough to draw a board, nothing more.
struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: usize, height: usize, bg: [u8; 3]) -> Self {
        let mut pixels = Vec::with_capacity(width * height * 3);
        for _ in 0..width * height {
            pixels.extend_from_slice(&bg);
        }
        Canvas {
            width,
            height,
            pixels,
        }
    }

    fn set(&mut self, x: usize, y: usize, c: [u8; 3]) {
        if x < self.width && y < self.height {
            let i = (y * self.width + x) * 3;
            self.pixels[i..i + 3].copy_from_slice(&c);
        }
    }

    fn rect(&mut self, x: usize, y: usize, w: usize, h: usize, c: [u8; 3]) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.set(xx, yy, c);
            }
        }
    }

    fn frame(&mut self, x: usize, y: usize, side: usize, c: [u8; 3]) {
        for i in 0..side {
            self.set(x + i, y, c);
            self.set(x + i, y + side - 1, c);
            self.set(x, y + i, c);
            self.set(x + side - 1, y + i, c);
        }
    }

    fn disc(&mut self, cx: f32, cy: f32, r: f32, c: [u8; 3]) {
        let (x0, x1) = ((cx - r).floor().max(0.0) as usize, (cx + r).ceil() as usize);
        let (y0, y1) = ((cy - r).floor().max(0.0) as usize, (cy + r).ceil() as usize);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                if dx * dx + dy * dy <= r * r {
                    self.set(x, y, c);
                }
            }
        }
    }

    /// Draws a 5x7 glyph for a file letter or a digit; other characters draw nothing.
    fn glyph(&mut self, x: usize, y: usize, ch: char, c: [u8; 3]) {
        let Some(rows) = glyph_rows(ch) else { return };
        for (dy, bits) in rows.iter().enumerate() {
            for dx in 0..5 {
                if bits & (0b10000 >> dx) != 0 {
                    self.set(x + dx, y + dy, c);
                }
            }
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.width as u32, self.height as u32);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            // Writing into a Vec cannot fail for I/O reasons, and the header matches the
            // buffer we hand over, so the encoder has nothing left to refuse.
            let mut writer = enc.write_header().expect("png header into a Vec");
            writer
                .write_image_data(&self.pixels)
                .expect("png data of the declared size");
        }
        out
    }
}

/// 5x7 bitmaps (one byte a row, the low five bits) for a–k and 0–9.
fn glyph_rows(ch: char) -> Option<[u8; 7]> {
    Some(match ch {
        'a' => [0, 0, 14, 1, 15, 17, 15],
        'b' => [16, 16, 30, 17, 17, 17, 30],
        'c' => [0, 0, 14, 16, 16, 17, 14],
        'd' => [1, 1, 15, 17, 17, 17, 15],
        'e' => [0, 0, 14, 17, 31, 16, 14],
        'f' => [6, 9, 8, 28, 8, 8, 8],
        'g' => [0, 15, 17, 15, 1, 17, 14],
        'h' => [16, 16, 22, 25, 17, 17, 17],
        'i' => [4, 0, 12, 4, 4, 4, 14],
        'k' => [16, 16, 18, 20, 24, 20, 18],
        '0' => [14, 17, 19, 21, 25, 17, 14],
        '1' => [4, 12, 4, 4, 4, 4, 14],
        '2' => [14, 17, 1, 2, 4, 8, 31],
        '3' => [31, 2, 4, 2, 1, 17, 14],
        '4' => [2, 6, 10, 18, 31, 2, 2],
        '5' => [31, 16, 30, 1, 1, 17, 14],
        '6' => [6, 8, 16, 30, 17, 17, 14],
        '7' => [31, 1, 2, 4, 8, 8, 8],
        '8' => [14, 17, 17, 14, 17, 17, 14],
        '9' => [14, 17, 17, 15, 1, 2, 12],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_8x8() -> Board {
        let mut b = Board::empty(8);
        for row in 0..8 {
            for col in 0..8 {
                if b.is_dark(row, col) && row < 3 {
                    b.put(
                        row,
                        col,
                        Man {
                            is_white: false,
                            is_king: false,
                        },
                    );
                }
                if b.is_dark(row, col) && row > 4 {
                    b.put(
                        row,
                        col,
                        Man {
                            is_white: true,
                            is_king: false,
                        },
                    );
                }
            }
        }
        b
    }

    #[test]
    fn a1_is_a_dark_square_on_both_boards() {
        for size in [8, 10] {
            let b = Board::empty(size);
            assert!(b.is_dark(size - 1, 0), "a1 on {size}x{size}");
            assert!(!b.is_dark(size - 1, 1), "b1 on {size}x{size}");
        }
    }

    #[test]
    fn text_diagram_of_the_start_shows_twelve_men_a_side() {
        let text = start_8x8().to_text(crate::render::Lang::En);
        let board: String = text.lines().take(10).collect();
        assert_eq!(board.matches('w').count(), 12);
        assert_eq!(board.matches('b').count(), 12);
        let rank1 = text
            .lines()
            .find(|l| l.trim_start().starts_with("1 |"))
            .unwrap();
        assert_eq!(rank1, " 1 | w   w   w   w   |");
        assert!(text.contains("     a b c d e f g h\n"));
        assert!(text.ends_with("b — Black man, B — Black king\n"), "{text}");
    }

    #[test]
    fn the_russian_diagram_uses_russian_letters_and_says_what_they_mean() {
        let text = start_8x8().to_text(crate::render::Lang::Ru);
        let rank1 = text
            .lines()
            .find(|l| l.trim_start().starts_with("1 |"))
            .unwrap();
        assert_eq!(rank1, " 1 | б   б   б   б   |");
        let board: String = text.lines().take(10).collect();
        assert_eq!(board.matches('ч').count(), 12);
        let legend = text.lines().last().unwrap();
        assert!(!legend.chars().any(|c| c.is_ascii_alphabetic()), "{legend}");
        assert!(legend.starts_with("б — белая шашка"), "{legend}");
    }

    #[test]
    fn ten_by_ten_files_skip_j() {
        assert_eq!(
            Board::empty(10).files().iter().collect::<String>(),
            "abcdefghik"
        );
    }

    #[test]
    fn png_is_a_valid_picture_of_the_right_size() {
        let mut b = start_8x8();
        b.put(
            4,
            1,
            Man {
                is_white: true,
                is_king: true,
            },
        );
        let bytes = b.to_png();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        let info = reader.info();
        assert_eq!((info.width, info.height), (8 * 44 + 36, 8 * 44 + 36));
    }
}
