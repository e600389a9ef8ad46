//! The stream lane's drawing: reads coloured by fate, the consumer's position, each window's
//! bar. It paints with the explorer's canvas helpers ([`crate::draw`]: the theme, the fitted
//! context, lines) and the layout of [`super::lane`].

use web_sys::HtmlCanvasElement;

use super::lane::{LaneFate, LaneScene, READS_H, ROW_H};
use crate::draw::{line, open};

/// Paints the stream lane: the strip of reads coloured by fate (a cross on dropped ones, so not
/// by colour alone), the consumer's position, and each window's bar from its first record to
/// the read that closed it (an open window's bar ends in a dashed edge at the position).
pub(super) fn stream_lane(canvas: &HtmlCanvasElement, scene: &LaneScene, dark: bool) {
    let Some((c, p, _, h)) = open(canvas, (scene.width, scene.height), dark) else {
        return;
    };
    let top = 4.0;
    for cell in &scene.cells {
        let colour = match cell.fate {
            LaneFate::Counted => p.fresh,
            LaneFate::LateAccepted => p.warning,
            LaneFate::Late => p.danger,
            LaneFate::Skipped => p.grid,
        };
        let gap = if cell.w > 4.0 { 1.0 } else { 0.0 };
        let cw = (cell.w - gap).max(1.0);
        c.set_fill_style_str(colour);
        c.fill_rect(cell.x, top, cw, READS_H);
        if cell.fate == LaneFate::Late && cw >= 8.0 {
            c.set_stroke_style_str(p.bg);
            c.set_line_width(2.0);
            let (cx, cy, r) = (
                cell.x + cw / 2.0,
                top + READS_H / 2.0,
                (cw.min(READS_H) / 2.0 - 3.0).max(2.0),
            );
            c.begin_path();
            c.move_to(cx - r, cy - r);
            c.line_to(cx + r, cy + r);
            c.move_to(cx + r, cy - r);
            c.line_to(cx - r, cy + r);
            c.stroke();
        }
        if cell.newest {
            c.set_stroke_style_str(p.fg);
            c.set_line_width(2.0);
            c.stroke_rect(cell.x + 1.0, top + 1.0, (cw - 2.0).max(1.0), READS_H - 2.0);
        }
    }
    c.set_font("11px system-ui, sans-serif");
    c.set_text_baseline("middle");
    for b in &scene.bars {
        let (x, y, bw, bh) = (b.x + 0.5, b.y + 2.5, (b.w - 1.0).max(2.0), ROW_H - 5.0);
        c.set_fill_style_str(p.grid);
        c.fill_rect(x, y, bw, bh);
        c.set_stroke_style_str(if b.dropped { p.danger } else { p.accent });
        c.set_line_width(if b.dropped { 2.0 } else { 1.0 });
        if b.closed {
            c.stroke_rect(x, y, bw, bh);
            // the read that closed it: a solid cap
            c.set_fill_style_str(if b.dropped { p.danger } else { p.accent });
            c.fill_rect(x + bw - 3.0, y, 3.0, bh);
        } else {
            c.begin_path();
            c.move_to(x + bw, y);
            c.line_to(x, y);
            c.line_to(x, y + bh);
            c.line_to(x + bw, y + bh);
            c.stroke();
            // still open: a dashed edge where the consumer is
            let dash = js_sys::Array::of2(&3.0.into(), &3.0.into());
            let _ = c.set_line_dash(&dash);
            c.begin_path();
            c.move_to(x + bw, y);
            c.line_to(x + bw, y + bh);
            c.stroke();
            let _ = c.set_line_dash(&js_sys::Array::new());
        }
        if !b.label.is_empty() {
            c.set_fill_style_str(p.fg);
            let _ = c.fill_text(&b.label, x + 5.0, y + bh / 2.0);
        }
    }
    if let Some(x) = scene.cursor_x {
        line(&c, p.accent, (x, 0.0), (x, h));
    }
}
