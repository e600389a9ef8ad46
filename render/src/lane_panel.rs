//! The lane panel: what a lesson's downstream stream processor did with every record a consumer
//! can read at the moment, as the explorer's lane shows it once it has caught up: the setting,
//! the figures, the strip of reads coloured by fate, each window's bar, the newest windows in
//! words and the key. The layout is [`crate::lane`]'s and every word the lesson crate's
//! ([`logtime_lesson::stream::lane`], [`logtime_lesson::stream::narrate`]).

use crate::lane::{bar_label, Lane, LaneFate, LaneScene, READS_H, ROW_H};
use crate::picture::PAD;
use crate::svg::{num, text_width, wrap, Font, Svg};
use crate::theme::Palette;
use logtime_lesson::stream::{self, lane as words, StreamConfig, StreamReport};
use logtime_model::{Partition, Timestamp};

/// Windows listed in words at most (the newest), as in the explorer.
const LISTED: usize = 8;
/// Text inside the panel starts this far in from its edge.
const INSET: f64 = 8.0;

/// The processor's run over what a consumer reads from `p` now.
pub(crate) fn report(config: &StreamConfig, p: &Partition) -> StreamReport {
    stream::run(config, p)
}

fn font(size: f64, fill: &str, bold: bool) -> Font<'_> {
    Font {
        size,
        fill,
        bold,
        mono: false,
    }
}

/// Draws the lane panel at `y`; returns the y below it.
pub(crate) fn draw(
    s: &mut Svg,
    rep: &StreamReport,
    now: Timestamp,
    (width, y): (f64, f64),
    pal: &Palette,
) -> f64 {
    let inner = width - 2.0 * PAD - 2.0 * INSET;
    let x = PAD + INSET;
    let lane = Lane::at(rep, usize::MAX);
    let tally = words::tally(rep, usize::MAX);
    let scene = lane.scene(rep.reads.len(), inner, &|w| bar_label(w, now));
    // Lines above the lane: the setting, then the figures.
    let mut setting = stream::narrate::setting(rep.config());
    setting.capitalize();
    let mut above: Vec<(String, Font<'_>)> = wrap(&format!("{setting}."), inner, 12.0)
        .into_iter()
        .map(|l| (l, font(12.0, pal.muted, false)))
        .collect();
    let figures: Vec<String> = words::figures(rep, &tally)
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    above.extend(
        pairs(&figures, inner, 12.0)
            .into_iter()
            .map(|l| (l, font(12.0, pal.fg, false))),
    );
    // Lines below it: the newest windows, then the key.
    let below = listed(&lane, rep.reads.is_empty(), inner);
    let key_rows = key_lines(inner);
    // heading, the lines above, the lane, the lines below, the key's rows, the bottom margin
    let head = format!("{} · {}", words::HEADING, rep.config().semantics().label());
    let head = wrap(&head, inner, 13.0);
    let rows = head.len() - 1 + above.len() + below.len() + key_rows;
    let h = 46.0 + 16.0 * rows as f64 + scene.height;
    s.open("g", &[("data-panel", "lane".to_string())], false);
    s.rect(PAD, y, width - 2.0 * PAD, h, pal.surface, Some(pal.border));
    let mut ly = y + 19.0;
    for l in &head {
        s.text(x, ly, font(13.0, pal.fg, true), l);
        ly += 16.0;
    }
    ly += 3.0;
    for (l, f) in &above {
        s.text(x, ly, *f, l);
        ly += 16.0;
    }
    let top = ly - 10.0;
    strip(s, &scene, (x, top), pal);
    ly = top + scene.height + 16.0;
    for l in &below {
        s.text(x, ly, font(12.0, pal.fg, false), l);
        ly += 16.0;
    }
    key(s, (x, ly - 6.0), inner, pal);
    s.close("g");
    y + h + PAD
}

/// `items` on lines of at most `width` px at `size`, ` · ` between them, a line breaking only
/// between items (an item wider than a line is wrapped on lines of its own).
fn pairs(items: &[String], width: f64, size: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for item in items {
        let joined = format!("{line} · {item}");
        if line.is_empty() {
            line = item.clone();
        } else if text_width(&joined, size, false) <= width {
            line = joined;
        } else {
            lines.push(std::mem::take(&mut line));
            line = item.clone();
        }
        if text_width(&line, size, false) > width {
            lines.extend(wrap(&std::mem::take(&mut line), width, size));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The newest windows in words (with a line for those before them), or that nothing was read.
fn listed(lane: &Lane, nothing: bool, inner: f64) -> Vec<String> {
    if nothing {
        return wrap(words::NOTHING_READ, inner, 12.0);
    }
    let skip = lane.windows.len().saturating_sub(LISTED);
    let mut out = Vec::new();
    if skip > 0 {
        out.push(words::earlier(skip));
    }
    for w in lane.windows.iter().skip(skip) {
        let mark = if w.closed { "▮" } else { "▯" };
        let line = words::window_line(w.window, w.counted, w.late, w.closed_by);
        out.extend(wrap(&format!("{mark} {line}"), inner, 12.0));
    }
    out
}

/// The strip of reads, the window bars and the consumer's position, at `(x, top)`.
fn strip(s: &mut Svg, scene: &LaneScene, (x, top): (f64, f64), pal: &Palette) {
    s.open("g", &[("data-lane", "reads".to_string())], false);
    for c in &scene.cells {
        let fill = match c.fate {
            LaneFate::Counted => pal.fresh,
            LaneFate::LateAccepted => pal.ageing,
            LaneFate::Late => pal.danger,
            LaneFate::Skipped => pal.border,
        };
        let w = (c.w - if c.w > 4.0 { 1.0 } else { 0.0 }).max(1.0);
        s.rect(x + c.x, top + 4.0, w, READS_H, fill, None);
        if c.fate == LaneFate::Late && w >= 8.0 {
            // a cross on a dropped read, so that it is not told by colour alone
            let (cx, cy) = (x + c.x + w / 2.0, top + 4.0 + READS_H / 2.0);
            let r = (w.min(READS_H) / 2.0 - 3.0).max(2.0);
            s.line((cx - r, cy - r), (cx + r, cy + r), pal.bg, false);
            s.line((cx + r, cy - r), (cx - r, cy + r), pal.bg, false);
        }
    }
    s.close("g");
    for b in &scene.bars {
        let (bx, by, bw, bh) = (
            x + b.x + 0.5,
            top + b.y + 2.5,
            (b.w - 1.0).max(2.0),
            ROW_H - 5.0,
        );
        let edge = if b.dropped { pal.danger } else { pal.accent };
        s.open("g", &[("data-lane", "window".to_string())], false);
        s.open(
            "rect",
            &[
                ("x", num(bx)),
                ("y", num(by)),
                ("width", num(bw)),
                ("height", num(bh)),
                ("fill", pal.accent_soft.to_string()),
                ("stroke", edge.to_string()),
                (
                    "stroke-width",
                    if b.dropped { "2" } else { "1" }.to_string(),
                ),
            ],
            true,
        );
        if b.closed {
            // the read that closed it: a solid cap
            s.rect(bx + bw - 3.0, by, 3.0, bh, edge, None);
        } else {
            // still open: a dashed edge where the consumer is
            s.line((bx + bw, by), (bx + bw, by + bh), pal.bg, false);
            s.line((bx + bw, by), (bx + bw, by + bh), edge, true);
        }
        if !b.label.is_empty() {
            s.text(
                bx + 5.0,
                by + bh / 2.0 + 4.0,
                font(11.0, pal.fg, false),
                &b.label,
            );
        }
        s.close("g");
    }
    if let Some(cx) = scene.cursor_x {
        s.line(
            (x + cx, top),
            (x + cx, top + scene.height),
            pal.accent,
            false,
        );
    }
}

/// The key laid out in `inner` px: for each mark its swatch's place (x from the panel's text
/// edge, row) and its words' lines; marks share a row while they fit, and a mark's words wider
/// than the panel wrap under it. Returns the items and the rows used.
fn key_layout(inner: f64) -> (Vec<(f64, usize, Vec<String>)>, usize) {
    let mut out = Vec::new();
    let (mut cx, mut row) = (0.0, 0);
    for text in words::KEY {
        let w = 14.0 + text_width(text, 11.0, false) + 14.0;
        if cx > 0.0 && cx + w > inner {
            cx = 0.0;
            row += 1;
        }
        let lines = wrap(text, inner - 14.0, 11.0);
        let n = lines.len();
        out.push((cx, row, lines));
        if n > 1 {
            cx = 0.0;
            row += n;
        } else {
            cx += w;
        }
    }
    let rows = if cx > 0.0 { row + 1 } else { row };
    (out, rows)
}

/// The key: a swatch and its words for each mark, from `(x, y)` down.
fn key(s: &mut Svg, (x, y): (f64, f64), inner: f64, pal: &Palette) {
    let swatches = [pal.fresh, pal.danger, pal.accent];
    for (i, (kx, row, lines)) in key_layout(inner).0.into_iter().enumerate() {
        let ky = y + 16.0 * row as f64;
        s.rect(x + kx, ky, 10.0, 10.0, swatches[i], None);
        for (j, l) in lines.iter().enumerate() {
            let f = font(11.0, pal.muted, false);
            s.text(x + kx + 14.0, ky + 9.0 + 16.0 * j as f64, f, l);
        }
    }
}

/// The rows the key takes at `inner` px.
fn key_lines(inner: f64) -> usize {
    key_layout(inner).1
}

#[cfg(test)]
mod tests {
    use crate::{picture, rebuild, Moment, Options, PicturePanel, Theme};
    use logtime_core::scenario::session::{Entry, Source};
    use logtime_lesson::stream::lane as words;
    use logtime_lesson::Pick;

    /// Incident 8's walkthrough at `step`, with the panels `panels`, `width` px wide.
    fn drawn(step: usize, panels: Vec<PicturePanel>, width: f64, theme: Theme) -> String {
        let text = crate::tests::builtin("incidents/08-event-time-downstream-walkthrough.json");
        let c = logtime_lesson::parse(&text)
            .unwrap()
            .instantiate(Pick::Default)
            .unwrap();
        let stream = c.stream;
        let steps = step.min(c.scenario.steps.len());
        let r = rebuild(
            Source::Builtin("x".into()),
            c.scenario,
            &vec![Entry::Step; steps],
            None,
        )
        .unwrap();
        let m = Moment {
            title: "lane",
            partition: r.session.runner().partition(),
            lookup: None,
            happened: &[],
            stream: stream.as_ref(),
            query: "?scenario=x",
            page: "index.html",
        };
        let o = Options {
            width,
            theme,
            panels,
            captioned: false,
        };
        picture(&m, &o).unwrap()
    }

    #[test]
    fn the_lane_panel_says_the_lessons_words_as_text() {
        let doc = drawn(usize::MAX, vec![PicturePanel::Lane], 736.0, Theme::Light);
        let x = roxmltree::Document::parse(&doc).unwrap();
        let texts: Vec<&str> = x
            .descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter_map(|n| n.text())
            .collect();
        assert!(texts.iter().any(|t| t.starts_with(words::HEADING)));
        assert!(texts.iter().any(|t| t.contains("Records read: ")));
        assert!(texts.iter().any(|t| t.contains("closed by record")));
        assert!(texts.contains(&words::KEY[1]));
        let desc = x
            .descendants()
            .find(|n| n.tag_name().name() == "desc")
            .and_then(|n| n.text())
            .unwrap();
        assert!(desc.contains("the event-time lane of the downstream Kafka Streams application"));
        assert!(doc.contains("data-lane=\"window\""));
    }

    #[test]
    fn without_the_panel_or_a_stream_there_is_no_lane() {
        let doc = drawn(4, Vec::new(), 736.0, Theme::Dark);
        assert!(!doc.contains("data-panel=\"lane\"") && !doc.contains("event-time lane"));
    }

    #[test]
    fn every_width_keeps_the_panel_inside_the_picture() {
        for width in [320.0, 375.0, 736.0, 1280.0, 4000.0] {
            for theme in [Theme::Light, Theme::Dark] {
                let doc = drawn(usize::MAX, vec![PicturePanel::Lane], width, theme);
                let x = roxmltree::Document::parse(&doc).unwrap();
                let lane = x
                    .descendants()
                    .find(|n| n.attribute("data-panel") == Some("lane"))
                    .unwrap();
                for t in lane.descendants().filter(|n| n.tag_name().name() == "text") {
                    let at: f64 = t.attribute("x").unwrap().parse().unwrap();
                    let size: f64 = t.attribute("font-size").unwrap().parse().unwrap();
                    let w = crate::svg::text_width(t.text().unwrap_or(""), size, false);
                    assert!(
                        at + w <= width - picture::PAD + 1.0,
                        "{width} px: {:?} runs past the edge",
                        t.text()
                    );
                }
            }
        }
    }
}
