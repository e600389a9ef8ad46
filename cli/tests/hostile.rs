//! Hostile input to the command (issue 41): what cannot be a segment is refused before it is
//! read, limits are named, and text from the input never reaches the terminal as a control
//! sequence. The files are generated here (sparse where large).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

mod common;
use common::{logtime, stdout};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("logtime-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One line on stderr, exit 1, nothing printed; the line without `logtime: `.
fn refused(args: &[&OsStr]) -> String {
    let out = logtime(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err.trim_end().to_string()
}

fn inspect(p: &Path) -> String {
    refused(&["inspect".as_ref(), p.as_os_str()])
}

/// A v2 batch of one record at `base`, CRC included, as Kafka writes it.
fn one_record(base: i64) -> Vec<u8> {
    const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
    // Length 6 (zigzag 12), attributes, timestamp and offset deltas 0, null key and value, no
    // headers.
    let record = [12u8, 0, 0, 0, 1, 1, 0];
    let mut after = Vec::new();
    after.extend_from_slice(&0i16.to_be_bytes());
    after.extend_from_slice(&0i32.to_be_bytes());
    after.extend_from_slice(&1_804_842_000_000i64.to_be_bytes());
    after.extend_from_slice(&1_804_842_000_000i64.to_be_bytes());
    after.extend_from_slice(&(-1i64).to_be_bytes());
    after.extend_from_slice(&(-1i16).to_be_bytes());
    after.extend_from_slice(&(-1i32).to_be_bytes());
    after.extend_from_slice(&1i32.to_be_bytes());
    after.extend_from_slice(&record[..]);
    let mut b = Vec::new();
    b.extend_from_slice(&base.to_be_bytes());
    b.extend_from_slice(&((9 + after.len()) as i32).to_be_bytes());
    b.extend_from_slice(&0i32.to_be_bytes());
    b.push(2);
    b.extend_from_slice(&CRC32C.checksum(&after).to_be_bytes());
    b.extend_from_slice(&after);
    b
}

/// Finding 6: devices, FIFOs and binary dump text are refused before they are read.
#[cfg(unix)]
#[test]
fn what_cannot_be_a_segment_is_refused() {
    let d = dir("zero");
    std::os::unix::fs::symlink("/dev/zero", d.join("00000000000000000000.log")).unwrap();
    assert!(inspect(&d)
        .ends_with("not a regular file (a device, a FIFO or a socket), so not a segment file"));
    let d = dir("fifo");
    let fifo = d.join("00000000000000000000.log");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    assert!(inspect(&d).contains("not a regular file"));
    let e = inspect(Path::new("/dev/zero"));
    assert!(
        e.contains("not kafka-dump-log output: a nul byte at byte 0"),
        "{e}"
    );
}

/// Finding 6: a sparse 100 GB `.log` damaged at byte 0 ends at once.
#[test]
fn a_damaged_segment_is_not_read_on() {
    let d = dir("sparse");
    let f = std::fs::File::create(d.join("00000000000000000000.log")).unwrap();
    f.set_len(100 << 30).unwrap();
    let t = std::time::Instant::now();
    let out = logtime(&["inspect".as_ref(), d.as_os_str(), "--json".as_ref()]);
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).contains("107374182400"),
        "the file's size is reported"
    );
}

/// Finding 7: an index file past the shared 64 MiB limit is refused by size, not read.
#[test]
fn large_index_files_are_refused_before_reading() {
    let d = dir("index");
    std::fs::write(d.join("00000000000000000000.log"), one_record(0)).unwrap();
    let f = std::fs::File::create(d.join("00000000000000000000.timeindex")).unwrap();
    f.set_len((1 << 31) - 1).unwrap();
    let e = inspect(&d);
    assert!(
        e.ends_with("an index file of 2147483647 bytes, larger than the 67108864 bytes (64 MiB) logtime reads"),
        "{e}"
    );
}

/// Finding 13: two names for one segment, and a name past the largest offset, are refused.
#[test]
fn ambiguous_or_impossible_segment_names_are_refused() {
    let d = dir("names");
    std::fs::write(d.join("00000000000000000001.log"), one_record(1)).unwrap();
    std::fs::write(d.join("1.log"), one_record(1)).unwrap();
    let e = inspect(&d);
    assert!(
        e.contains("are both the .log file of the segment at offset 1: keep one"),
        "{e}"
    );
    let d = dir("range");
    std::fs::write(d.join("00000000000000000000.log"), one_record(0)).unwrap();
    std::fs::write(d.join("99999999999999999999.log"), one_record(0)).unwrap();
    let e = inspect(&d);
    assert!(
        e.contains("99999999999999999999.log: the file name's offset is past the largest offset"),
        "{e}"
    );
}

/// Finding 11: control characters from the input are shown escaped by check and explain.
#[test]
fn terminal_escapes_are_shown_not_obeyed() {
    let d = dir("escapes");
    let p = d.join("t.json");
    std::fs::write(
        &p,
        r#"{"title": "a\u001b[2Jb\u009bc", "description": "x\ry", "start": "2027-03-12T09:00:00Z", "steps": [{"advance": "1s"}]}"#,
    )
    .unwrap();
    let out = logtime(&["explain".as_ref(), p.as_os_str()]);
    let text = stdout(&out);
    assert!(out.status.success());
    assert!(
        text.starts_with("a\\u{1b}[2Jb\\u{9b}c\nx\\u{d}y\n"),
        "{text}"
    );
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'));
    let p = d.join("u.json");
    std::fs::write(
        &p,
        r#"{"start": "2027-03-12T09:00:00Z", "topic": {"no.such\u001b]0;x\u0007": 1}}"#,
    )
    .unwrap();
    let out = logtime(&["check".as_ref(), p.as_os_str()]);
    let text = stdout(&out);
    assert!(text.contains("\\u{1b}]0;x\\u{7}"), "{text}");
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'));
}

/// Finding 13: `--now` at the ends of the 64-bit range is refused, naming the range.
#[test]
fn the_inspection_clock_is_a_plausible_one() {
    let d = dir("now");
    std::fs::write(d.join("00000000000000000000.log"), one_record(0)).unwrap();
    for now in [i64::MIN.to_string(), i64::MAX.to_string(), "-1".into()] {
        let e = refused(&[
            "inspect".as_ref(),
            d.as_os_str(),
            "--now".as_ref(),
            now.as_ref(),
        ]);
        assert!(e.contains("is outside the clocks logtime inspects at, 0 (1970-01-01T00:00:00Z) to 253402300799999"), "{e}");
    }
}
