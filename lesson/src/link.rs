//! A documentation link as a browser will open it, so that the allow-list is checked against
//! where the link goes rather than how it is spelled.
//!
//! Browsers resolve `.` and `..` path segments (also spelled `%2e`, WHATWG URL "single-dot" and
//! "double-dot" segments) before they load a page, so `https://github.com/apache/kafka/../../x`
//! opens `https://github.com/x`; and characters that change how text is shown without being
//! seen (bidirectional overrides, zero-width joiners) make a link read as somewhere it is not.

/// `url` with its path's dot segments resolved (RFC 3986 §5.2.4), or why it cannot be a link.
pub(super) fn normalise(url: &str) -> Result<String, String> {
    if let Some(c) = url.chars().find(|c| !c.is_ascii()) {
        return Err(format!(
            "link {url:?} contains {c:?} (U+{:04X}): a link is ASCII, with anything else percent-encoded",
            c as u32
        ));
    }
    let Some((scheme, rest)) = url.split_once("://") else {
        return Ok(url.to_string());
    };
    let (authority, tail) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => return Ok(url.to_string()),
    };
    let end = tail.find(['?', '#']).unwrap_or(tail.len());
    let (path, suffix) = tail.split_at(end);
    Ok(format!(
        "{scheme}://{authority}{}{suffix}",
        remove_dot_segments(path)
    ))
}

/// Whether a path segment is `.` or `..` once `%2e` is read as the dot it stands for.
fn dots(segment: &str) -> usize {
    let s = segment.to_ascii_lowercase().replace("%2e", ".");
    match s.as_str() {
        "." => 1,
        ".." => 2,
        _ => 0,
    }
}

/// An absolute path with its `.` and `..` segments resolved.
fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match dots(seg) {
            1 => {
                if last {
                    out.push("");
                }
            }
            2 => {
                out.pop();
                if last {
                    out.push("");
                }
            }
            _ => out.push(seg),
        }
    }
    format!("/{}", out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::normalise;

    #[test]
    fn dot_segments_resolve_as_a_browser_resolves_them() {
        let n = |u: &str| normalise(u).unwrap();
        assert_eq!(
            n("https://github.com/apache/kafka/../../evil/phish"),
            "https://github.com/evil/phish"
        );
        assert_eq!(
            n("https://github.com/apache/kafka/%2e%2e/%2E%2e/evil"),
            "https://github.com/evil"
        );
        assert_eq!(
            n("https://kafka.apache.org/./a/./b/.."),
            "https://kafka.apache.org/a/"
        );
        assert_eq!(
            n("https://kafka.apache.org/documentation/#topicconfigs_retention.ms"),
            "https://kafka.apache.org/documentation/#topicconfigs_retention.ms"
        );
        assert_eq!(
            n("https://kafka.apache.org/a?x=/../.."),
            "https://kafka.apache.org/a?x=/../.."
        );
        assert_eq!(
            n("https://kafka.apache.org/../../.."),
            "https://kafka.apache.org/"
        );
        assert_eq!(
            n("https://cwiki.apache.org/confluence/display/KAFKA/KIP-937%3A+Improve"),
            "https://cwiki.apache.org/confluence/display/KAFKA/KIP-937%3A+Improve"
        );
    }

    #[test]
    fn invisible_and_reordering_characters_are_refused() {
        for c in ['\u{202e}', '\u{200b}', '\u{2066}', '\u{feff}', 'é'] {
            let e = normalise(&format!("https://kafka.apache.org/a{c}b")).unwrap_err();
            assert!(e.contains("a link is ASCII"), "{e}");
        }
    }
}
