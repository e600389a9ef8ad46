//! Decompressing the records section of a compressed batch.
//!
//! Kafka's codecs (`CompressionType`): gzip is a plain gzip stream; snappy is xerial's framing
//! (`SnappyOutputStream`: an 8-byte magic, two version ints, then big-endian length-prefixed raw
//! snappy blocks; a stream without the magic is one raw block, as xerial's reader accepts); lz4 is
//! an LZ4 frame (`KafkaLZ4BlockOutputStream`), whose header checksum magic-0 messages wrote wrongly
//! (KAFKA-3160) and readers of magic 0 ignore; zstd is a zstd frame.
//!
//! The codecs are behind the `codecs` feature so the browser build can leave them out: without it
//! every compressed batch is [`Unavailable`](Decompressed::Unavailable).

use super::log_batch::Compression;

/// Decompressed output is capped: a batch's records never legitimately exceed this, and the cap
/// keeps a crafted "decompression bomb" from exhausting memory.
pub(crate) const MAX_DECOMPRESSED: usize = 256 << 20;

/// How many times the bytes of a file read so far its batches may decompress to in all (beyond
/// one batch's [`MAX_DECOMPRESSED`]): Kafka's batches rarely pass 10 to 1, while a file of
/// crafted batches each inflating to the per-batch cap took a minute for 826 KB.
pub const MAX_INFLATION: u64 = 64;

/// What the batches of a file read so far may decompress to in all, once `file_bytes` are read.
pub(crate) fn inflation_budget(file_bytes: u64) -> u64 {
    (MAX_DECOMPRESSED as u64).saturating_add(file_bytes.saturating_mul(MAX_INFLATION))
}

thread_local! {
    /// What the current [`metered`] call may still decompress (unlimited outside one).
    static ALLOWANCE: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// Runs `f` allowing its decompression `allowance` bytes in all, and says how many it used.
/// A file's reader meters each batch this way, so the budget covers the whole file without a
/// parameter through every parser of every format.
pub(crate) fn metered<T>(allowance: u64, f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOWANCE.with(|a| a.replace(allowance));
    let out = f();
    let left = ALLOWANCE.with(|a| a.replace(before));
    (out, allowance - left.min(allowance))
}

/// The most one decompression may produce now, and whether the file's budget (not the batch's
/// cap) is what limits it.
#[cfg_attr(not(feature = "codecs"), allow(dead_code))]
fn limit() -> (usize, bool) {
    let left = ALLOWANCE.with(|a| a.get());
    if left < MAX_DECOMPRESSED as u64 {
        (left as usize, true)
    } else {
        (MAX_DECOMPRESSED, false)
    }
}

#[cfg_attr(not(feature = "codecs"), allow(dead_code))]
fn spend(n: usize) {
    ALLOWANCE.with(|a| a.set(a.get().saturating_sub(n as u64)));
}

#[cfg_attr(not(feature = "codecs"), allow(dead_code))]
fn too_much(by_file: bool) -> String {
    if by_file {
        format!(
            "the file's batches decompress to more than {MAX_INFLATION} times its bytes (plus {} MiB) in all, the most logtime expands",
            MAX_DECOMPRESSED >> 20
        )
    } else {
        format!("decompresses to more than {} MiB", MAX_DECOMPRESSED >> 20)
    }
}

/// A snappy error without the crate's own `snappy: ` prefix doubled.
#[cfg(feature = "codecs")]
fn snappy_err(e: snap::Error) -> String {
    let text = e.to_string();
    let text = text.strip_prefix("snappy: ").unwrap_or(&text);
    format!("snappy: {text}")
}

/// What decompression gave.
// Without the codecs every batch is `Unavailable`.
#[cfg_attr(not(feature = "codecs"), allow(dead_code))]
pub(crate) enum Decompressed {
    /// The records section, uncompressed.
    Bytes(Vec<u8>),
    /// The codec is not compiled in.
    #[cfg_attr(feature = "codecs", allow(dead_code))]
    Unavailable,
    /// The data is not a valid stream for the codec (lowercase reason).
    Invalid(String),
}

#[cfg(not(feature = "codecs"))]
pub(crate) fn decompress(_codec: Compression, _data: &[u8], _magic: u8) -> Decompressed {
    Decompressed::Unavailable
}

/// Whether this build expands compressed batches.
pub const CODECS_AVAILABLE: bool = cfg!(feature = "codecs");

#[cfg(feature = "codecs")]
pub(crate) fn decompress(codec: Compression, data: &[u8], magic: u8) -> Decompressed {
    use std::io::Read;
    fn read_all(r: impl Read) -> Decompressed {
        let (max, by_file) = limit();
        let mut out = Vec::new();
        let res = r.take(max as u64 + 1).read_to_end(&mut out);
        spend(out.len());
        match res {
            Ok(_) if out.len() > max => Decompressed::Invalid(too_much(by_file)),
            Ok(_) => Decompressed::Bytes(out),
            Err(e) => Decompressed::Invalid(e.to_string().to_lowercase()),
        }
    }
    match codec {
        Compression::None => Decompressed::Bytes(data.to_vec()),
        Compression::Gzip => read_all(flate2::read::GzDecoder::new(data)),
        Compression::Snappy => xerial_snappy(data),
        Compression::Lz4 => {
            let fixed;
            let input = if magic == 0 {
                fixed = fix_lz4_header_checksum(data);
                fixed.as_deref().unwrap_or(data)
            } else {
                data
            };
            read_all(lz4_flex::frame::FrameDecoder::new(input))
        }
        Compression::Zstd => match ruzstd::decoding::StreamingDecoder::new(data) {
            Ok(d) => read_all(d),
            Err(e) => Decompressed::Invalid(format!("zstd: {e}").to_lowercase()),
        },
        Compression::Unknown(id) => Decompressed::Invalid(format!("unknown codec id {id}")),
    }
}

#[cfg(feature = "codecs")]
const XERIAL_MAGIC: [u8; 8] = [0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0];

#[cfg(feature = "codecs")]
fn xerial_snappy(data: &[u8]) -> Decompressed {
    let mut dec = snap::raw::Decoder::new();
    let mut out = Vec::new();
    let (max, by_file) = limit();
    let mut raw_block = |block: &[u8], out: &mut Vec<u8>| -> Result<(), String> {
        let n = snap::raw::decompress_len(block).map_err(snappy_err)?;
        if out.len() + n > max {
            return Err(too_much(by_file));
        }
        out.extend(dec.decompress_vec(block).map_err(snappy_err)?);
        spend(n);
        Ok(())
    };
    if !data.starts_with(&XERIAL_MAGIC) {
        return match raw_block(data, &mut out) {
            Ok(()) => Decompressed::Bytes(out),
            Err(e) => Decompressed::Invalid(e.to_lowercase()),
        };
    }
    let mut rest = match data.get(16..) {
        Some(r) => r,
        None => return Decompressed::Invalid("snappy: xerial header cut short".into()),
    };
    while !rest.is_empty() {
        let Some(len) = rest.get(..4) else {
            return Decompressed::Invalid("snappy: xerial block length cut short".into());
        };
        let len = u32::from_be_bytes([len[0], len[1], len[2], len[3]]) as usize;
        let Some(block) = rest.get(4..4 + len) else {
            return Decompressed::Invalid(format!(
                "snappy: xerial block of {len} bytes, only {} left",
                rest.len() - 4
            ));
        };
        if let Err(e) = raw_block(block, &mut out) {
            return Decompressed::Invalid(e.to_lowercase());
        }
        rest = &rest[4 + len..];
    }
    Decompressed::Bytes(out)
}

/// Magic-0 LZ4 frames carry a header checksum computed over the magic number too (KAFKA-3160);
/// recompute it over the frame descriptor so a standard decoder accepts the frame.
#[cfg(feature = "codecs")]
fn fix_lz4_header_checksum(data: &[u8]) -> Option<Vec<u8>> {
    use std::hash::Hasher;
    let flg = *data.get(4)?;
    let descriptor_len =
        2 + if flg & 0x08 != 0 { 8 } else { 0 } + if flg & 0x01 != 0 { 4 } else { 0 };
    let descriptor = data.get(4..4 + descriptor_len)?;
    let mut h = twox_hash::XxHash32::with_seed(0);
    h.write(descriptor);
    let hc = (h.finish() >> 8) as u8;
    let mut fixed = data.to_vec();
    *fixed.get_mut(4 + descriptor_len)? = hc;
    Some(fixed)
}
