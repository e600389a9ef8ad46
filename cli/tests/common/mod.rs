//! What the command-line test files share: running the built `logtime` binary and reading its
//! output. (Each test file is its own crate and uses only part of this module.)
#![allow(dead_code)]

use std::ffi::OsStr;
use std::process::{Command, Output};

/// Runs the `logtime` binary built for these tests with `args`, waiting for it to finish.
pub(crate) fn logtime(args: &[&OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_logtime"))
        .args(args)
        .output()
        .expect("logtime runs")
}

/// What a run printed on standard output (UTF-8, as `logtime` always writes).
pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("logtime writes UTF-8")
}
