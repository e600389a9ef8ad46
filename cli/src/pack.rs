//! A scenario packed for a link's `z=`: raw deflate, then base64url without padding, as the
//! explorer packs one (`CompressionStream("deflate-raw")`), so the explorer unpacks it.

use base64::Engine;
use std::io::Write;

/// `text` deflated and base64url-encoded.
pub fn pack(text: &str) -> String {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = e.write_all(text.as_bytes());
    let bytes = e.finish().unwrap_or_default();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Why [`unpack`] refused a packed text.
#[derive(Debug, PartialEq, Eq)]
pub enum UnpackError {
    /// The text is not base64url.
    NotBase64,
    /// The bytes do not inflate (the text was cut or edited).
    NotDeflate,
    /// It inflates to more than the limit.
    TooLarge,
}

/// The text [`pack`] packed, read up to `limit` bytes (a deflate bomb stops at the limit).
pub fn unpack(packed: &str, limit: u64) -> Result<String, UnpackError> {
    use std::io::Read;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(packed.trim_end_matches('='))
        .map_err(|_| UnpackError::NotBase64)?;
    let mut out = String::new();
    flate2::read::DeflateDecoder::new(&bytes[..])
        .take(limit + 1)
        .read_to_string(&mut out)
        .map_err(|_| UnpackError::NotDeflate)?;
    if out.len() as u64 > limit {
        return Err(UnpackError::TooLarge);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpack_reads_what_pack_wrote_and_stops_at_the_limit() {
        let text = "{\"a\": 1}".repeat(100);
        assert_eq!(unpack(&pack(&text), 10_000).as_deref(), Ok(text.as_str()));
        assert_eq!(unpack(&pack(&text), 10), Err(UnpackError::TooLarge));
        assert_eq!(unpack("not base64!", 10), Err(UnpackError::NotBase64));
        assert_eq!(unpack("AAAA", 10), Err(UnpackError::NotDeflate));
    }
}
