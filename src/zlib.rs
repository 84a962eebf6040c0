//! Deflating and inflating in the zlib format with a compressor and a decompressor kept for
//! the thread.
//!
//! Making a compressor allocates and zeroes its window, hash chains and buffers (some 300 KB
//! with miniz_oxide, measured in issue 14: a third of the board picture's time), and a
//! decompressor its window, each time a stored letter is read. Resetting a kept one reuses
//! warm memory. The output is byte for byte what a fresh one writes. The backend is flate2's
//! zlib-rs (see `Cargo.toml`).

use std::cell::RefCell;

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

thread_local! {
    static KEPT: RefCell<Option<(u32, Compress)>> = const { RefCell::new(None) };
    static KEPT_INFLATE: RefCell<Option<Decompress>> = const { RefCell::new(None) };
}

/// `data` deflated in the zlib format at `level` (0–9).
pub fn deflate(data: &[u8], level: u32) -> Vec<u8> {
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
        finish(c, data)
    })
}

/// `data` deflated by `c` in one go, to the end of the stream.
fn finish(c: &mut Compress, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / 4 + 64);
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
            return out;
        }
    }
}

/// The zlib stream `data` inflated; `size_hint` is the room to start with (the output grows
/// as needed, never past `limit` bytes). `data` must be exactly one stream, as [`deflate`]
/// writes it.
///
/// # Errors
/// [`std::io::ErrorKind::InvalidData`] when `data` is not a zlib stream (or its checksum is
/// wrong, or bytes follow its end, or it inflates to more than `limit` bytes: a damaged or
/// hostile blob is refused before it takes the memory),
/// [`std::io::ErrorKind::UnexpectedEof`] when it ends before the stream does.
pub fn inflate(data: &[u8], size_hint: usize, limit: usize) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(size_hint.min(limit.saturating_add(1)));
    let too_big = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("the zlib stream inflates to more than {limit} bytes"),
        )
    };
    KEPT_INFLATE.with_borrow_mut(|kept| {
        let d = kept.get_or_insert_with(|| Decompress::new(true));
        d.reset(true);
        loop {
            if out.len() > limit {
                return Err(too_big());
            }
            if out.len() == out.capacity() {
                // room up to one byte past the limit: enough to see it passed
                out.reserve_exact(
                    out.capacity()
                        .max(64)
                        .min((limit - out.len()).saturating_add(1)),
                );
            }
            let before = (d.total_in(), d.total_out());
            let done = usize::try_from(before.0).map_or(data.len(), |n| n.min(data.len()));
            let status = d
                .decompress_vec(&data[done..], &mut out, FlushDecompress::None)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
            if status == Status::StreamEnd {
                if out.len() > limit {
                    return Err(too_big());
                }
                let read = usize::try_from(d.total_in()).unwrap_or(usize::MAX);
                if read != data.len() {
                    // a stored letter is one stream: anything after it is damage
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!(
                            "{} bytes after the end of the zlib stream",
                            data.len() - read.min(data.len())
                        ),
                    ));
                }
                return Ok(());
            }
            // the loop made room before the call, so none written means none to write
            if (d.total_in(), d.total_out()) == before {
                // nothing read, nothing written, room left, and no end: the stream was cut
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the zlib stream ends early",
                ));
            }
        }
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    /// What a compressor made for `data` alone writes. (zlib-rs's fastest level writes
    /// other bytes when the same data comes in pieces, as through `ZlibEncoder`, so the
    /// fresh one is fed as the kept one is, by `finish`: the comparison proves the reset,
    /// and the inflating back below proves the stream.)
    fn fresh(data: &[u8], level: u32) -> Vec<u8> {
        finish(&mut Compress::new(Compression::new(level), true), data)
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
            (&text[..300], 1),
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
            assert_eq!(inflate(&packed, 0, usize::MAX).expect("inflate"), data);
            assert_eq!(
                inflate(&packed, data.len(), data.len()).expect("inflate"),
                data
            );
        }
    }

    #[test]
    fn a_kept_decompressor_refuses_a_broken_or_cut_stream_and_then_reads_a_good_one() {
        let data = "Ход 1. c3-d4\n".repeat(500).into_bytes();
        let packed = deflate(&data, 6);
        let cut = inflate(&packed[..packed.len() / 2], 16, 1 << 20)
            .map(|v| v.len())
            .expect_err("a cut stream");
        assert_eq!(cut.kind(), std::io::ErrorKind::UnexpectedEof, "{cut}");
        let mut wrong_sum = packed.clone();
        *wrong_sum.last_mut().expect("a checksum") ^= 1;
        let wrong = inflate(&wrong_sum, 16, 1 << 20)
            .map(|v| v.len())
            .expect_err("a wrong checksum");
        assert_eq!(wrong.kind(), std::io::ErrorKind::InvalidData, "{wrong}");
        let not_zlib = inflate(b"not zlib at all", 16, 1 << 20)
            .map(|v| v.len())
            .expect_err("not zlib");
        assert_eq!(
            not_zlib.kind(),
            std::io::ErrorKind::InvalidData,
            "{not_zlib}"
        );
        assert_eq!(
            inflate(&[], 16, 1 << 20)
                .map(|v| v.len())
                .expect_err("nothing")
                .kind(),
            std::io::ErrorKind::UnexpectedEof
        );
        let mut trailing = packed.clone();
        trailing.extend_from_slice(b"junk");
        let after = inflate(&trailing, 16, 1 << 20)
            .map(|v| v.len())
            .expect_err("bytes after the stream");
        assert_eq!(after.kind(), std::io::ErrorKind::InvalidData, "{after}");
        assert!(after.to_string().contains("4 bytes after"), "{after}");
        let big = inflate(&packed, 16, data.len() - 1)
            .map(|v| v.len())
            .expect_err("one byte too many");
        assert_eq!(big.kind(), std::io::ErrorKind::InvalidData, "{big}");
        assert!(big.to_string().contains("more than"), "{big}");
        // a thousandfold bomb stops at the limit, not at the end of its stream
        let bomb = deflate(&vec![0; 64 << 20], 6);
        let stopped = inflate(&bomb, 16, 1 << 20)
            .map(|v| v.len())
            .expect_err("a bomb");
        assert!(
            stopped.to_string().contains("more than 1048576"),
            "{stopped}"
        );
        // the failures leave the kept decompressor usable
        assert_eq!(inflate(&packed, 16, 1 << 20).expect("inflate"), data);
    }
}
