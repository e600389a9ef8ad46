//! The panels a picture adds below the partition, each a titled box of the narrator's
//! sentences: the lookup and its trace, the retention verdicts, what the last step did.

use crate::picture::{Moment, PicturePanel, PAD};
use crate::svg::{wrap, Font, Svg};
use crate::theme::Palette;
use logtime_core::scenario::narrate;
use logtime_model::retention::RetentionReport;

/// Lines a panel shows at most (then `+N more`).
const MAX_LINES: usize = 14;

/// The panel's heading and its sentences.
fn content(
    panel: PicturePanel,
    m: &Moment<'_>,
    preview: &RetentionReport,
) -> (&'static str, Vec<String>) {
    match panel {
        PicturePanel::Lookup => {
            let lines = match m.lookup {
                None => vec!["No lookup at this moment.".to_string()],
                Some(l) => {
                    let mut v = vec![narrate::lookup(l.spec, &Ok(l.clone())).to_string()];
                    v.extend(
                        l.trace
                            .iter()
                            .map(|t| format!("· {}", narrate::trace_step(t, l.spec))),
                    );
                    v
                }
            };
            ("Lookup", lines)
        }
        PicturePanel::Retention => {
            let lines = preview
                .verdicts
                .iter()
                .map(|v| {
                    format!(
                        "Segment {}: {}",
                        crate::format::count(v.base_offset.0),
                        narrate::verdict_brief(v)
                    )
                })
                .collect();
            ("Retention, if it ran now", lines)
        }
        PicturePanel::Happened => {
            let lines = if m.happened.is_empty() {
                vec!["Nothing has happened yet: the scenario is at its start.".to_string()]
            } else {
                m.happened.to_vec()
            };
            ("What happened", lines)
        }
        // The lane has a panel of its own (`lane_panel`), drawn only when there is a stream.
        PicturePanel::Lane => (logtime_lesson::stream::lane::HEADING, Vec::new()),
    }
}

/// Draws one panel at `y`; returns the y below it.
pub(crate) fn draw(
    s: &mut Svg,
    panel: PicturePanel,
    m: &Moment<'_>,
    preview: &RetentionReport,
    (width, y): (f64, f64),
    pal: &Palette,
) -> f64 {
    let (title, sentences) = content(panel, m, preview);
    let inner = width - 2.0 * PAD - 16.0;
    let mut lines: Vec<String> = sentences
        .iter()
        .flat_map(|t| wrap(t, inner, 12.0))
        .collect();
    if lines.len() > MAX_LINES {
        let more = lines.len() - (MAX_LINES - 1);
        lines.truncate(MAX_LINES - 1);
        lines.push(format!("+{more} more lines in the explorer"));
    }
    let h = 30.0 + 16.0 * lines.len() as f64;
    s.open("g", &[("data-panel", panel.key().to_string())], false);
    s.rect(PAD, y, width - 2.0 * PAD, h, pal.surface, Some(pal.border));
    let head = Font {
        size: 13.0,
        fill: pal.fg,
        bold: true,
        mono: false,
    };
    s.text(PAD + 8.0, y + 19.0, head, title);
    let f = Font {
        size: 12.0,
        fill: pal.fg,
        bold: false,
        mono: false,
    };
    for (i, l) in lines.iter().enumerate() {
        s.text(PAD + 8.0, y + 38.0 + 16.0 * i as f64, f, l);
    }
    s.close("g");
    y + h + PAD
}
