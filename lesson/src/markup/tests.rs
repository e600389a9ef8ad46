//! Tests of the markup: what parses to which tree, which errors name which character, and how
//! the tree lowers to sentences and plain text.

use super::*;
use logtime_core::scenario::narrate::Panel;
use logtime_model::units::Offset;

fn e(s: &str) -> String {
    Markup::parse(s).unwrap_err().to_string()
}

fn ok(t: &Target) -> Result<Mention, String> {
    Ok(match t {
        Target::Segment(b) | Target::SegmentOf(b) => Mention::Segment(*b),
        Target::Panel(p) => Mention::Panel(*p),
        _ => Mention::Config("x".into()),
    })
}

#[test]
fn paragraphs_code_bold_and_links_make_a_tree() {
    let m = Markup::parse(
            "Segment **[20000](segment:20000)** holds a stamp\nfrom `2030`.\n\n  See [KIP-937](https://cwiki.apache.org/confluence/display/KAFKA/KIP-937) and **the [lookup](panel:lookup) panel**.  ",
        )
        .unwrap();
    assert_eq!(m.paragraphs().len(), 2);
    assert_eq!(
        m.paragraphs()[0],
        vec![
            Inline::Text("Segment ".into()),
            Inline::Strong(vec![Inline::Link {
                text: vec![Inline::Text("20000".into())],
                to: LinkTo::Target(Target::Segment(Offset(20000)))
            }]),
            Inline::Text(" holds a stamp from ".into()),
            Inline::Code("2030".into()),
            Inline::Text(".".into()),
        ]
    );
    assert_eq!(m.targets().len(), 2);
    assert_eq!(
        m.plain(),
        "Segment 20000 holds a stamp from 2030.\n\nSee KIP-937 and the lookup panel."
    );
    let s = m.sentences(&ok).unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].to_string(), "Segment 20000 holds a stamp from 2030.");
    let spans = s[0].spans();
    assert_eq!(spans[1].style, Style::Strong);
    assert_eq!(spans[1].mention, Some(Mention::Segment(Offset(20000))));
    assert_eq!(spans[3].style, Style::Code);
    let links: Vec<&Mention> = s[1].mentions().collect();
    assert_eq!(
        links,
        vec![
            &Mention::Link("https://cwiki.apache.org/confluence/display/KAFKA/KIP-937".into()),
            &Mention::Panel(Panel::Lookup)
        ]
    );
}

#[test]
fn brackets_without_a_target_and_escapes_are_text() {
    let m = Markup::parse(r"within [now - before, now + after] \*\* and \` and a < b").unwrap();
    assert_eq!(
        m.plain(),
        "within [now - before, now + after] ** and ` and a < b"
    );
    assert_eq!(Markup::parse("  \n\n ").unwrap(), Markup::default());
    assert!(Markup::parse("").unwrap().is_empty());
}

#[test]
fn every_malformed_input_names_the_character_and_the_reason() {
    assert_eq!(
            e("a **bold"),
            "malformed markup at character 3: ** is not closed before the paragraph ends (write \\*\\* for literal asterisks)"
        );
    assert_eq!(
            e("a **bold\n\nnext**"),
            "malformed markup at character 3: ** is not closed before the paragraph ends (write \\*\\* for literal asterisks)"
        );
    assert_eq!(
        e("x `code"),
        "malformed markup at character 3: ` is not closed"
    );
    assert_eq!(e("``"), "malformed markup at character 1: empty `code`");
    assert_eq!(e("****"), "malformed markup at character 1: empty **bold**");
    assert_eq!(
            e("<b>bold</b>"),
            "malformed markup at character 1: raw HTML is not allowed: use **bold**, `code` or [text](link) (write \\< for a literal <)"
        );
    assert_eq!(
            e("[x](https://example.com/)"),
            "malformed markup at character 5: links go to Kafka's documentation only (an https URL starting https://kafka.apache.org/, https://cwiki.apache.org/confluence/, https://github.com/apache/kafka/, https://issues.apache.org/jira/browse/KAFKA-), not \"https://example.com/\""
        );
    assert!(e("[x](http://kafka.apache.org/)").contains("documentation only"));
    assert!(e("[x](javascript:alert(1))").contains("not \"javascript:alert(1\""));
    assert_eq!(
        e("[x](segment:abc)"),
        "malformed markup at character 5: expected an offset (an integer ≥ 0), got \"abc\""
    );
    assert_eq!(
        e("[x](segment:1"),
        "malformed markup at character 4: ( of a link is not closed by )"
    );
    assert_eq!(
        e("[](segment:1)"),
        "malformed markup at character 1: a link needs text between [ and ]"
    );
    assert_eq!(
            e("[a [b](segment:1)](segment:2)"),
            "malformed markup at character 4: a link's text cannot hold another [ (write \\[ for a literal bracket)"
        );
    assert_eq!(
            e("[a **b**](segment:1)"),
            "malformed markup at character 4: ** inside a link's text (put the link inside the bold instead)"
        );
    assert_eq!(
        e("[x](https://kafka.apache.org/a b)"),
        "malformed markup at character 5: link \"https://kafka.apache.org/a b\" contains ' '"
    );
}

#[test]
fn a_target_that_does_not_resolve_names_itself() {
    let m = Markup::parse("see [it](segment:5)").unwrap();
    let e = m
        .sentences(&|_| Err("no segment with base offset 5".into()))
        .unwrap_err();
    assert_eq!(e, "segment:5: no segment with base offset 5");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text parses or fails with an error inside it; what parses lowers to sentences
        /// whose text is the plain text, paragraph by paragraph.
        #[test]
        fn any_text_parses_or_names_a_character(text in "[a-z \\n*`\\[\\]()<>\\\\:.0-9segmnt-]{0,80}") {
            match Markup::parse(&text) {
                Ok(m) => {
                    let s = m.sentences(&|_| Ok(Mention::Config("x".into()))).unwrap();
                    let plain: Vec<String> = s.iter().map(|s| s.to_string()).collect();
                    prop_assert_eq!(plain.join("\n\n"), m.plain());
                    prop_assert!(m.paragraphs().iter().all(|p| !p.is_empty()));
                }
                Err(e) => prop_assert!(e.at >= 1 && e.at <= text.chars().count() + 1, "{e}"),
            }
        }
    }
}
