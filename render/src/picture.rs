//! The picture of a moment, as an SVG document: a heading, the partition (segment cards, and a
//! density strip of the whole log when it holds many records), the chosen panels and the link
//! that reopens the moment live. Text stays `<text>`, so it can be selected, searched and read.

use crate::cards::{self, Card};
use crate::error::RenderError;
use crate::marks::LookupMarks;
use crate::panels;
use crate::svg::{fit, Font, Svg};
use crate::theme::{Palette, Theme};
use logtime_core::scenario::narrate;
use logtime_lesson::stream::{StreamConfig, StreamReport};
use logtime_model::retention::RetentionReport;
use logtime_model::{Lookup, Partition};

/// The panels a picture may add below the partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PicturePanel {
    /// `lookup`: the lookup's answer and trace.
    Lookup,
    /// `retention`: every segment's retention verdict.
    Retention,
    /// `happened`: what the last step did.
    Happened,
    /// `lane`: the event-time lane of a lesson's downstream stream processor (drawn only when
    /// the moment has one).
    Lane,
}

impl PicturePanel {
    /// Every panel, in the order pictures draw them.
    pub const ALL: [PicturePanel; 4] = [
        PicturePanel::Lookup,
        PicturePanel::Retention,
        PicturePanel::Happened,
        PicturePanel::Lane,
    ];

    /// Its name in `--panels` and `panels=`.
    pub fn key(self) -> &'static str {
        match self {
            PicturePanel::Lookup => "lookup",
            PicturePanel::Retention => "retention",
            PicturePanel::Happened => "happened",
            PicturePanel::Lane => "lane",
        }
    }

    /// Names separated by spaces or commas (`partition`, which every picture shows, and `all`
    /// are accepted too).
    pub fn parse_list(v: &str) -> Result<Vec<PicturePanel>, RenderError> {
        let mut out = Vec::new();
        for name in v.split([' ', ',']).filter(|n| !n.is_empty()) {
            match name {
                "all" => out = PicturePanel::ALL.to_vec(),
                "partition" => {}
                _ => {
                    let p = PicturePanel::ALL
                        .into_iter()
                        .find(|p| p.key() == name)
                        .ok_or_else(|| {
                            RenderError::Panel(format!(
                                "unknown panel {name:?} (expected partition, lookup, retention, happened, lane or all)"
                            ))
                        })?;
                    if !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// How to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Width in px ([`MIN_WIDTH`] to [`MAX_WIDTH`]).
    pub width: f64,
    /// Light or dark.
    pub theme: Theme,
    /// Panels below the partition.
    pub panels: Vec<PicturePanel>,
    /// A caption around the picture gives its title and link (a printed explorer's figure): the
    /// picture leaves out its title line and its link line, so that each is printed once.
    pub captioned: bool,
}

/// The narrowest picture (a phone's column).
pub const MIN_WIDTH: f64 = 320.0;
/// The widest picture.
pub const MAX_WIDTH: f64 = 4000.0;

impl Options {
    /// Checks the width.
    pub fn check(&self) -> Result<(), RenderError> {
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&self.width) {
            return Err(RenderError::Width(format!(
                "expected {MIN_WIDTH} to {MAX_WIDTH} px"
            )));
        }
        Ok(())
    }
}

/// What to draw: the partition at the moment and the words around it.
pub struct Moment<'a> {
    /// The scenario's title (untrusted: escaped).
    pub title: &'a str,
    /// The partition.
    pub partition: &'a Partition,
    /// The last lookup, if any.
    pub lookup: Option<&'a Lookup>,
    /// What the last step did.
    pub happened: &'a [String],
    /// The downstream stream processor a lesson declares, for the lane panel.
    pub stream: Option<&'a StreamConfig>,
    /// The moment link's query (`?scenario=…`), as the explorer writes it.
    pub query: &'a str,
    /// The page the link opens (`index.html`, or the site's explorer URL).
    pub page: &'a str,
}

/// Space around and between things.
pub(crate) const PAD: f64 = 16.0;

/// The SVG document of `m`, drawn with `o`.
pub fn picture(m: &Moment<'_>, o: &Options) -> Result<String, RenderError> {
    o.check()?;
    let pal = o.theme.palette();
    let p = m.partition;
    let preview = p.preview_retention(p.clock());
    let marks = m
        .lookup
        .map(|l| LookupMarks::new(l, usize::MAX))
        .unwrap_or_default();
    // The lane is drawn only for a moment whose lesson has a stream processor downstream.
    let lane = m
        .stream
        .filter(|_| o.panels.contains(&PicturePanel::Lane))
        .map(|c| crate::lane_panel::report(c, p));
    let mut body = Svg::default();
    let mut y = heading(&mut body, m, o, pal);
    let card_list: Vec<Card> = cards::cards(p, &preview, &marks);
    y = cards::draw_partition(&mut body, p, &card_list, &marks, (o.width, y), pal);
    for panel in &o.panels {
        y = match (panel, &lane) {
            (PicturePanel::Lane, Some(rep)) => {
                crate::lane_panel::draw(&mut body, rep, p.clock(), (o.width, y), pal)
            }
            (PicturePanel::Lane, None) => y,
            _ => panels::draw(&mut body, *panel, m, &preview, (o.width, y), pal),
        };
    }
    if !o.captioned {
        y = footer(&mut body, m, o.width, y, pal);
    }
    Ok(document(m, o, &preview, lane.as_ref(), body, y))
}

/// The root element, title, description and metadata around `body`.
fn document(
    m: &Moment<'_>,
    o: &Options,
    preview: &RetentionReport,
    lane: Option<&StreamReport>,
    body: Svg,
    height: f64,
) -> String {
    let pal = o.theme.palette();
    let mut desc = narrate::describe::moment(m.title, m.partition, preview, m.lookup);
    if let Some(rep) = lane {
        desc.push(' ');
        desc.push_str(&logtime_lesson::stream::lane::describe(rep));
    }
    let (w, h) = (crate::svg::num(o.width), crate::svg::num(height));
    let href = format!("{}{}", m.page, m.query);
    let mut s = Svg::default();
    s.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg".into()),
            ("width", w.clone()),
            ("height", h.clone()),
            ("viewBox", format!("0 0 {w} {h}")),
            ("role", "img".into()),
            ("aria-labelledby", "logtime-title logtime-desc".into()),
            ("data-logtime-moment", m.query.to_string()),
        ],
        false,
    );
    s.open("title", &[("id", "logtime-title".into())], false);
    s.raw(&crate::svg::escape(&format!("{} (Logtime)", m.title)));
    s.close("title");
    s.open("desc", &[("id", "logtime-desc".into())], false);
    s.raw(&crate::svg::escape(&desc));
    s.close("desc");
    s.open("metadata", &[], false);
    s.open(
        "logtime:moment",
        &[
            ("xmlns:logtime", LOGTIME_NS.into()),
            ("page", m.page.to_string()),
        ],
        false,
    );
    s.raw(&crate::svg::escape(m.query));
    s.close("logtime:moment");
    s.close("metadata");
    s.open("a", &[("href", href)], false);
    s.rect(0.0, 0.0, o.width, height, pal.bg, None);
    s.raw(&body.finish());
    s.close("a");
    s.close("svg");
    let mut out = s.finish();
    out.push('\n');
    out
}

/// The namespace of the moment metadata (`<logtime:moment>`), which the explorer looks for in a
/// dropped SVG.
pub const LOGTIME_NS: &str = "https://logtime.invalid/ns/moment";

/// The title (unless a caption gives it) and the clock line; returns the y below them.
fn heading(s: &mut Svg, m: &Moment<'_>, o: &Options, pal: &Palette) -> f64 {
    let p = m.partition;
    let inner = o.width - 2.0 * PAD;
    let title = Font {
        size: 17.0,
        fill: pal.fg,
        bold: true,
        mono: false,
    };
    let top = if o.captioned {
        PAD - 20.0
    } else {
        s.text(PAD, PAD + 16.0, title, &fit(m.title, inner, 17.0));
        PAD
    };
    let small = Font {
        size: 12.0,
        fill: pal.muted,
        bold: false,
        mono: false,
    };
    let line = format!(
        "{} · broker clock {} · log start offset {} · log end offset {} · high watermark {}",
        p.topic_partition(),
        logtime_core::human::date(p.clock().0),
        p.log_start_offset(),
        p.log_end_offset(),
        p.high_watermark()
    );
    let mut y = top + 36.0;
    for l in crate::svg::wrap(&line, inner, 12.0) {
        s.text(PAD, y, small, &l);
        y += 16.0;
    }
    y + 4.0
}

/// The link line; returns the picture's height.
fn footer(s: &mut Svg, m: &Moment<'_>, width: f64, y: f64, pal: &Palette) -> f64 {
    let f = Font {
        size: 11.0,
        fill: pal.accent,
        bold: false,
        mono: false,
    };
    let text = format!("Open this moment live: {}{}", m.page, m.query);
    s.text(PAD, y + 14.0, f, &fit(&text, width - 2.0 * PAD, 11.0));
    y + 14.0 + PAD
}
