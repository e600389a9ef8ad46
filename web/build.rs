//! Minifies Logtime's stylesheets for the wasm: every explorer's shadow root gets them from
//! `lib.rs`'s `STYLES`, so their comments and indentation would be bytes every page loads.
//! Comments go, whitespace runs collapse to one space, and the space around `{ } ; ,` and after
//! `:` goes (a space before `:` is a descendant combinator and stays).

use std::path::Path;

fn minify(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = rest[i + 2..]
            .split_once("*/")
            .map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    let collapsed = out.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut min = String::with_capacity(collapsed.len());
    let mut chars = collapsed.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let next = chars.peek().copied();
            let prev = min.chars().last();
            if matches!(next, Some('{' | '}' | ';' | ','))
                || matches!(prev, Some('{' | '}' | ';' | ',' | ':'))
            {
                continue;
            }
        }
        min.push(c);
    }
    min
}

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut all = String::new();
    for name in ["style.css", "app.css", "embed.css"] {
        let path = Path::new("../static").join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        all.push_str(&minify(
            &std::fs::read_to_string(&path).expect("static/*.css"),
        ));
    }
    std::fs::write(Path::new(&out).join("logtime.min.css"), all).expect("OUT_DIR is writable");
}
