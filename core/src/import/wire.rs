//! Reading Kafka's wire types from a byte slice: big-endian fixed-width integers and the zig-zag
//! varints of `ByteUtils`, every read bounds-checked and every failure naming the absolute byte
//! position in the file it came from.

use std::fmt;

/// A read past the end of the data, or a malformed varint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WireError {
    /// Absolute byte position (in the file) where the read started.
    pub(crate) position: u64,
    /// What was being read, e.g. `"key length"`.
    pub(crate) what: &'static str,
    /// Lowercase reason.
    pub(crate) reason: &'static str,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {}: {}",
            self.what, self.position, self.reason
        )
    }
}

/// A cursor over `buf`, whose first byte sits at absolute file position `origin`.
pub(crate) struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
    origin: u64,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(buf: &'a [u8], origin: u64) -> Cursor<'a> {
        Cursor {
            buf,
            pos: 0,
            origin,
        }
    }

    /// Absolute position of the next byte.
    pub(crate) fn position(&self) -> u64 {
        self.origin + self.pos as u64
    }

    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    fn fail(&self, what: &'static str, reason: &'static str) -> WireError {
        WireError {
            position: self.position(),
            what,
            reason,
        }
    }

    pub(crate) fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], WireError> {
        if self.remaining() < n {
            return Err(self.fail(what, "the data ends before it"));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], WireError> {
        let s = self.bytes(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub(crate) fn i8(&mut self, what: &'static str) -> Result<i8, WireError> {
        Ok(i8::from_be_bytes(self.array(what)?))
    }
    pub(crate) fn i16(&mut self, what: &'static str) -> Result<i16, WireError> {
        Ok(i16::from_be_bytes(self.array(what)?))
    }
    pub(crate) fn i32(&mut self, what: &'static str) -> Result<i32, WireError> {
        Ok(i32::from_be_bytes(self.array(what)?))
    }
    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, WireError> {
        Ok(u32::from_be_bytes(self.array(what)?))
    }
    pub(crate) fn i64(&mut self, what: &'static str) -> Result<i64, WireError> {
        Ok(i64::from_be_bytes(self.array(what)?))
    }

    /// The unsigned value of a varint of at most `max_bytes` bytes, the cursor left after it
    /// (or where it was, on error).
    fn raw_varint(&mut self, what: &'static str, max_bytes: u32) -> Result<u64, WireError> {
        let start = self.pos;
        let mut value: u64 = 0;
        for i in 0..max_bytes {
            let Some(&b) = self.buf.get(self.pos) else {
                self.pos = start;
                return Err(self.fail(what, "the data ends inside a varint"));
            };
            self.pos += 1;
            value |= ((b & 0x7f) as u64) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.pos = start;
        Err(self.fail(
            what,
            if max_bytes == 5 {
                "varint longer than 5 bytes"
            } else {
                "varint longer than 10 bytes"
            },
        ))
    }

    /// `ByteUtils.readUnsignedVarint`: at most 5 bytes, no zig-zag (the metadata log's frame,
    /// compact string lengths, tagged field counts).
    pub(crate) fn uvarint(&mut self, what: &'static str) -> Result<u32, WireError> {
        Ok(self.raw_varint(what, 5)? as u32)
    }

    /// `ByteUtils.readVarlong`: at most 10 bytes, zig-zag decoded.
    pub(crate) fn varlong(&mut self, what: &'static str) -> Result<i64, WireError> {
        let v = self.raw_varint(what, 10)?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// `ByteUtils.readVarint`: at most 5 bytes, zig-zag decoded (bits past 32 dropped, as
    /// Java's int arithmetic does).
    pub(crate) fn varint(&mut self, what: &'static str) -> Result<i32, WireError> {
        let v = self.raw_varint(what, 5)? as u32;
        Ok(((v >> 1) as i32) ^ -((v & 1) as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_decode_zigzag() {
        let mut c = Cursor::new(&[0x00, 0x01, 0x02, 0xfe, 0x01, 0x80], 100);
        assert_eq!(c.varint("a").unwrap(), 0);
        assert_eq!(c.varint("b").unwrap(), -1);
        assert_eq!(c.varint("c").unwrap(), 1);
        assert_eq!(c.varlong("d").unwrap(), 127);
        let e = c.varint("e").unwrap_err();
        assert_eq!(e.position, 105);
        assert_eq!(
            e.to_string(),
            "e at byte 105: the data ends inside a varint"
        );
        let mut c = Cursor::new(&[0xff; 12], 0);
        assert!(c.varlong("x").is_err());
        let mut c = Cursor::new(&[0x7f], 0);
        assert_eq!(c.i16("h").unwrap_err().reason, "the data ends before it");
    }
}
