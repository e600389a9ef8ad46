//! Output that is written as it is made but shown only when the command succeeds.
//!
//! `logtime run` writes its report step by step, so memory holds one step at a time however
//! long the replay, and a failure at step 900 must still leave stdout empty (one error line on
//! stderr is the contract). So the report goes to a [`Spool`]: memory up to a few MiB, then an
//! unnamed temporary file, copied to stdout once the replay has succeeded.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

/// How much output stays in memory before it moves to a temporary file.
const IN_MEMORY: usize = 8 << 20;

/// Bytes held back until [`Spool::finish`].
#[derive(Default)]
pub(crate) struct Spool {
    memory: Vec<u8>,
    file: Option<File>,
}

impl Spool {
    /// Copies everything written to `out`.
    pub(crate) fn finish(mut self, out: &mut dyn Write) -> io::Result<()> {
        match self.file.take() {
            None => out.write_all(&self.memory)?,
            Some(mut f) => {
                f.write_all(&self.memory)?;
                f.seek(SeekFrom::Start(0))?;
                let mut buf = vec![0u8; 1 << 20];
                loop {
                    let n = f.read(&mut buf)?;
                    if n == 0 {
                        break;
                    }
                    out.write_all(&buf[..n])?;
                }
            }
        }
        out.flush()
    }

    /// A temporary file nobody else can open: created, then unlinked while open.
    fn temporary() -> io::Result<File> {
        let dir = std::env::temp_dir();
        for n in 0..100u32 {
            let path = dir.join(format!("logtime-{}-{n}.spool", std::process::id()));
            match File::options()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(f) => {
                    // Where unlinking an open file is refused, it is left for the system's
                    // temporary-file cleaning.
                    let _ = std::fs::remove_file(&path);
                    return Ok(f);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other("no free temporary file name"))
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.memory.extend_from_slice(buf);
        if self.memory.len() >= IN_MEMORY {
            if self.file.is_none() {
                self.file = Some(Spool::temporary()?);
            }
            let f = self.file.as_mut().expect("just made");
            f.write_all(&self.memory)?;
            self.memory.clear();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A writer that indents every line after the first by `prefix`: a pretty-printed JSON value
/// written inside another one (JSON strings hold no raw newline, so only structure is indented).
pub(crate) struct Indent<'w, W: Write> {
    inner: &'w mut W,
    prefix: &'static [u8],
}

impl<'w, W: Write> Indent<'w, W> {
    pub(crate) fn new(inner: &'w mut W, prefix: &'static [u8]) -> Self {
        Indent { inner, prefix }
    }
}

impl<W: Write> Write for Indent<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            self.inner.write_all(&rest[..=i])?;
            self.inner.write_all(self.prefix)?;
            rest = &rest[i + 1..];
        }
        self.inner.write_all(rest)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_json_is_the_same_as_pretty_printed_whole() {
        let inner = serde_json::json!({"a": [1, {"b": "x\ny"}], "c": []});
        let whole = serde_json::to_string_pretty(&serde_json::json!({ "k": inner })).unwrap();
        let mut out = Vec::new();
        out.extend_from_slice(b"{\n  \"k\": ");
        serde_json::to_writer_pretty(Indent::new(&mut out, b"  "), &inner).unwrap();
        out.extend_from_slice(b"\n}");
        assert_eq!(String::from_utf8(out).unwrap(), whole);
    }

    #[test]
    fn a_spool_past_memory_comes_back_whole() {
        let mut s = Spool::default();
        let chunk: Vec<u8> = (0..1000u32).map(|i| i as u8).collect();
        for _ in 0..(IN_MEMORY / 1000 + 5) {
            s.write_all(&chunk).unwrap();
        }
        assert!(s.file.is_some());
        let mut out = Vec::new();
        s.finish(&mut out).unwrap();
        assert_eq!(out.len(), 1000 * (IN_MEMORY / 1000 + 5));
        assert_eq!(&out[1000..2000], &chunk[..]);
    }
}
