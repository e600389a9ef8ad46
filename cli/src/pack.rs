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
