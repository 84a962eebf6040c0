//! Deflating in the zlib format with a compressor kept for the thread.
//!
//! Making a compressor allocates and zeroes some 300 KB (miniz_oxide's dictionary, hash
//! chains and buffers), which costs more than deflating a letter or the board picture
//! (issue 14: a third of the picture's time went to zeroing fresh memory). Resetting a kept
//! one reuses warm memory. The output is byte for byte what a fresh compressor writes.

use std::cell::RefCell;

use flate2::{Compress, Compression, FlushCompress, Status};

thread_local! {
    static KEPT: RefCell<Option<(u32, Compress)>> = const { RefCell::new(None) };
}

/// `data` deflated in the zlib format at `level` (0–9).
pub fn deflate(data: &[u8], level: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 4 + 64);
    KEPT.with_borrow_mut(|kept| {
        let c = match kept {
            Some((l, c)) if *l == level => {
                c.reset();
                c
            }
            _ => {
                &mut kept
                    .insert((level, Compress::new(Compression::new(level), true)))
                    .1
            }
        };
        loop {
            if out.len() == out.capacity() {
                out.reserve(out.capacity());
            }
            let done = usize::try_from(c.total_in()).map_or(data.len(), |n| n.min(data.len()));
            // a compressor with a level of 0–9 fed a slice into a Vec has nothing to refuse
            let status = c
                .compress_vec(&data[done..], &mut out, FlushCompress::Finish)
                .expect("deflate into a Vec");
            if status == Status::StreamEnd {
                break;
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read as _, Write as _};

    fn fresh(data: &[u8], level: u32) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), Compression::new(level));
        e.write_all(data).expect("deflate");
        e.finish().expect("deflate")
    }

    #[test]
    fn a_kept_compressor_writes_what_a_fresh_one_writes_and_it_inflates_back() {
        let text: Vec<u8> = (0..200_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 % 7 + b'a')
            .collect();
        for (data, level) in [
            (&text[..], 6),
            (&b""[..], 6),
            (&text[..1000], 6),
            (&text[..], 1),
            (&text[..5], 6),
        ] {
            let packed = deflate(data, level);
            assert_eq!(
                packed,
                fresh(data, level),
                "level {level}, {} bytes",
                data.len()
            );
            let mut back = Vec::new();
            flate2::read::ZlibDecoder::new(&packed[..])
                .read_to_end(&mut back)
                .expect("inflate");
            assert_eq!(back, data);
        }
    }
}
