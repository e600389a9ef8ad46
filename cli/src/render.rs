//! `logtime render`: the picture of a moment (a built-in or a scenario file, at a step, a
//! lookup or a saved moment) as SVG, or as PNG through resvg.

use crate::builtins;
use logtime_core::scenario::{Entry, Source, MAX_SCENARIO_BYTES};
use logtime_lesson::Pick;
use logtime_render::link::{self, LookupTarget, SourceParam};
use logtime_render::{Options, PicturePanel, Theme};

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    /// A built-in's name or a scenario/lesson file (optional when `--moment` is a whole link).
    pub target: Option<String>,
    /// `--step N` (`--step end`: every step, as `usize::MAX`).
    pub step: Option<usize>,
    /// `--lookup T`.
    pub lookup: Option<LookupTarget>,
    /// `--moment M`: a journal's compact form, or a moment link.
    pub moment: Option<String>,
    /// `--seed N`: a lesson's variant.
    pub seed: Option<u64>,
    /// `--page URL`: the explorer page the picture's link opens.
    pub page: String,
    /// Width, theme and panels.
    pub options: Options,
    /// `lane` was named in `--panels` (not only implied by `all`): an error when the moment has
    /// no stream processor to draw.
    pub lane_asked: bool,
    /// `-o FILE`: `.svg` or `.png`.
    pub out: String,
}

/// The usage lines of `render`, for `--help`.
pub fn usage() -> &'static str {
    "    logtime render SCENARIO|NAME [--step N|end] [--lookup T] [--moment M] [--seed N]
                   [--panels LIST] [--width PX] [--theme light|dark] [--page URL] -o FILE.svg|FILE.png
                                        draw the partition at a moment as a picture; NAME is a
                                        built-in, M a saved moment or a whole moment link; LIST
                                        is lookup, retention, happened, lane (a lesson's
                                        stream processor downstream) or all (default: none)
"
}

fn value<'a>(
    it: &mut std::slice::Iter<'a, String>,
    flag: &str,
    what: &str,
) -> Result<&'a str, String> {
    it.next()
        .map(String::as_str)
        .ok_or_else(|| format!("{flag} needs {what}"))
}

/// Reads the arguments after `render`. Errors name the flag and the reason.
pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        target: None,
        step: None,
        lookup: None,
        moment: None,
        seed: None,
        page: "index.html".into(),
        options: Options {
            width: 960.0,
            theme: Theme::Light,
            panels: Vec::new(),
            captioned: false,
        },
        out: String::new(),
        lane_asked: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--step" => a.step = Some(steps(value(&mut it, "--step", "a number of steps")?)?),
            "--lookup" => {
                let v = value(
                    &mut it,
                    "--lookup",
                    "a time or earliest, latest, max-timestamp",
                )?;
                a.lookup = Some(LookupTarget::parse(v).map_err(|e| format!("--lookup: {e}"))?);
            }
            "--moment" => a.moment = Some(value(&mut it, "--moment", "a saved moment")?.into()),
            "--seed" => {
                let v = value(&mut it, "--seed", "a number")?;
                a.seed = Some(
                    v.parse()
                        .map_err(|_| format!("--seed takes a non-negative integer, not {v:?}"))?,
                );
            }
            "--page" => a.page = value(&mut it, "--page", "a URL")?.into(),
            "--panels" => {
                let v = value(&mut it, "--panels", "a list of panels")?;
                a.options.panels = PicturePanel::parse_list(v).map_err(|e| format!("--{e}"))?;
                a.lane_asked = v.split([' ', ',']).any(|n| n == "lane");
            }
            "--width" => {
                let v = value(&mut it, "--width", "a width in px")?;
                let w: u32 = v
                    .parse()
                    .map_err(|_| format!("--width takes a whole number of px, not {v:?}"))?;
                a.options.width = f64::from(w);
                a.options.check().map_err(|e| format!("--{e}"))?;
            }
            "--theme" => {
                let v = value(&mut it, "--theme", "light or dark")?;
                a.options.theme = Theme::parse(v).map_err(|e| format!("--theme: {e}"))?;
            }
            "-o" | "--output" => a.out = value(&mut it, "-o", "a file name")?.into(),
            s if s.starts_with('-') && s != "-" => {
                return Err(format!("render: unknown flag {s:?}"))
            }
            s => {
                if a.target.replace(s.to_string()).is_some() {
                    return Err("render takes one SCENARIO or NAME".into());
                }
            }
        }
    }
    check_args(&a)?;
    Ok(a)
}

/// `--step`'s value: a whole number of steps, or `end`.
fn steps(v: &str) -> Result<usize, String> {
    if v == "end" {
        Ok(usize::MAX)
    } else {
        v.parse()
            .map_err(|_| format!("--step takes a whole number of steps or end, not {v:?}"))
    }
}

/// What the flags must say together: an output file of a known kind, and either a moment or
/// steps and lookups.
fn check_args(a: &Args) -> Result<(), String> {
    if a.out.is_empty() {
        return Err("render needs -o FILE.svg or -o FILE.png".into());
    }
    if !(a.out.ends_with(".svg") || a.out.ends_with(".png")) {
        return Err(format!("-o: {:?} must end in .svg or .png", a.out));
    }
    if a.moment.is_some() && (a.step.is_some() || a.lookup.is_some()) {
        return Err(
            "--moment already holds the steps and lookups; give either --moment or --step/--lookup"
                .into(),
        );
    }
    Ok(())
}

/// The scenario's text and how a link names it.
struct Named {
    text: String,
    source: Source,
    param: SourceParam,
}

/// A built-in by name, or a file (its JSON packed into the link, as the explorer packs an
/// edited scenario).
fn named(target: &str, read: &dyn Fn(&str) -> Result<String, String>) -> Result<Named, String> {
    if let Some(text) = builtins::find(target) {
        return Ok(Named {
            text: text.to_string(),
            source: Source::Builtin(target.into()),
            param: SourceParam::Builtin(target.into()),
        });
    }
    if !target.contains(['/', '.']) && target != "-" {
        return Err(format!(
            "{target:?} is not a built-in ({}) nor a file name",
            builtins::names()
        ));
    }
    let text = read(target).map_err(|e| format!("{target}: cannot read the file: {e}"))?;
    let param = SourceParam::Packed(crate::pack::pack(&text));
    Ok(Named {
        source: Source::Inline(text.clone()),
        text,
        param,
    })
}

/// The picture's SVG. `read` reads a scenario file (the command's only input besides flags).
pub fn svg(a: &Args, read: &dyn Fn(&str) -> Result<String, String>) -> Result<String, String> {
    let mut a = a.clone();
    let mut from_link = None;
    if let Some(m) = a.moment.clone().filter(|m| m.contains('=')) {
        let l = link::parse_link(&m).map_err(|e| format!("--moment: {e}"))?;
        if a.target.is_none() {
            a.target = Some(match &l.source {
                SourceParam::Builtin(n) => n.clone(),
                _ => {
                    return Err(
                        "--moment: only a link to a built-in can stand without SCENARIO".into(),
                    )
                }
            });
        }
        a.seed = a.seed.or(l.seed);
        a.lookup = l.lookup;
        from_link = Some(l);
    }
    let target = a
        .target
        .clone()
        .ok_or("render needs a SCENARIO file or a built-in NAME")?;
    let n = named(&target, read)?;
    if n.text.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(format!(
            "{target}: the file is larger than {MAX_SCENARIO_BYTES} bytes"
        ));
    }
    let lesson = logtime_lesson::parse(&n.text).map_err(|e| format!("{target}: {e}"))?;
    let c = lesson
        .instantiate(a.seed.map_or(Pick::Default, Pick::Seed))
        .map_err(|e| format!("--seed: {e}"))?;
    let entries = entries(&a, from_link.as_ref(), &n.text, c.scenario.steps.len())?;
    if c.stream.is_none() && a.lane_asked {
        return Err(format!(
            "--panels: lane shows a lesson's stream processor downstream, and {target} declares none (no \"stream\" section)"
        ));
    }
    let title = c.title().to_string();
    let stream = c.stream;
    let r = logtime_render::rebuild(n.source.clone(), c.scenario, &entries, a.lookup)
        .map_err(|e| e.to_string())?;
    let view: Vec<(&str, String)> = a
        .seed
        .map(|s| ("seed", s.to_string()))
        .into_iter()
        .collect();
    let query = link::query_string(&link::params(&n.param, r.session.journal(), &n.text, &view));
    let m = logtime_render::Moment {
        title: &title,
        partition: r.session.runner().partition(),
        lookup: r.lookup.as_ref(),
        happened: &r.happened,
        stream: stream.as_ref(),
        query: &query,
        page: &a.page,
    };
    logtime_render::picture(&m, &a.options).map_err(|e| e.to_string())
}

/// The journal entries: a saved moment, a link's, or `--step` steps.
fn entries(
    a: &Args,
    from_link: Option<&link::LinkMoment>,
    text: &str,
    steps: usize,
) -> Result<Vec<Entry>, String> {
    if let Some(l) = from_link {
        return link::entries_of(l, text).map_err(|e| format!("--moment: {e}"));
    }
    if let Some(m) = &a.moment {
        return logtime_core::scenario::Journal::entries_from_compact(m, Some(text))
            .map_err(|e| format!("--moment: {e}"));
    }
    let n = match a.step {
        Some(usize::MAX) => steps,
        n => n.unwrap_or(0),
    };
    if n > steps {
        return Err(format!("--step: the scenario has {steps} steps, not {n}"));
    }
    Ok(vec![Entry::Step; n])
}

/// The PNG of an SVG, at twice its size (sharp on high-density screens and slides), drawn with
/// resvg in the DejaVu fonts when the system has them (Debian's `fonts-dejavu-core`), so the same
/// SVG gives the same bytes.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options::default();
    let db = opt.fontdb_mut();
    let dejavu = "/usr/share/fonts/truetype/dejavu";
    if std::path::Path::new(dejavu).is_dir() {
        db.load_fonts_dir(dejavu);
    } else {
        db.load_system_fonts();
    }
    db.set_sans_serif_family("DejaVu Sans");
    db.set_monospace_family("DejaVu Sans Mono");
    let tree =
        usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the SVG does not parse: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width() * 2, size.height() * 2)
        .ok_or("the picture is too large to rasterise")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(2.0, 2.0),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("cannot encode the PNG: {e}"))
}
