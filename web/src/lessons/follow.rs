//! Narration links: a learner follows a mention of a segment, records or a config in the
//! lesson pane (a click, or Enter on the focused link), and the explorer outlines it with the
//! stop's own highlights, brings it into the partition view's window and scrolls to it.

use logtime_core::scenario::narrate::Mention;
use logtime_lesson::Target;

use crate::model::density::TILE_LIMIT;
use crate::model::viewport::Viewport;
use crate::state::Explorer;

/// What a mention points at in the explorer, when following it can show anything.
pub fn target_of(m: &Mention) -> Option<Target> {
    Some(match m {
        Mention::Segment(o) => Target::Segment(*o),
        Mention::Offset(o) => Target::Offset(*o),
        Mention::Offsets { first, last } => Target::Offsets {
            first: *first,
            last: *last,
        },
        Mention::Config(name) => Target::Config(name.clone()),
        _ => return None,
    })
}

/// The element a followed target is scrolled to, inside the explorer's root.
pub fn selector(t: &Target) -> Option<String> {
    match t {
        Target::Segment(o) => Some(format!("[data-testid=segment-{}]", o.0)),
        Target::Offset(o) | Target::SegmentOf(o) => Some(format!("[data-testid=record-{}]", o.0)),
        // More records than tiles: the window shows them as density bars, in the partition.
        Target::Offsets { first, last } if last.0 - first.0 >= TILE_LIMIT => {
            Some("[data-testid=partition]".into())
        }
        Target::Offsets { first, .. } => Some(format!("[data-testid=record-{}]", first.0)),
        Target::Config(_) => Some(".lt-config-row.lt-hl".into()),
        _ => None,
    }
}

impl Explorer {
    /// Follows a narration link: `t` is outlined (until the next stop) and brought into the
    /// partition view's window: records as tiles around them, a segment among the others.
    pub(crate) fn lesson_follow(&mut self, t: Target) {
        let token = self.lesson.followed.as_ref().map_or(1, |(k, _)| k + 1);
        let window = match &t {
            Target::Offset(o) | Target::SegmentOf(o) => Some((o.0, o.0)),
            Target::Offsets { first, last } => Some((first.0, last.0)),
            _ => None,
        };
        let segment = match &t {
            Target::Segment(o) => self.replay.runner().and_then(|r| {
                r.partition()
                    .segments()
                    .iter()
                    .find(|s| s.base_offset() == *o)
                    .map(|s| (s.base_offset().0, s.next_offset().0))
            }),
            _ => None,
        };
        self.lesson.make_mut().followed = Some((token, t));
        let Some((lo, hi)) = self.bounds() else {
            return;
        };
        if let Some((a, b)) = window {
            self.viewport = Viewport::focus(a, b, lo, hi);
        } else if let Some((base, next)) = segment {
            // A segment outside the window: the whole log, where every segment has its card.
            let (va, vb) = self.viewport.clamped(lo, hi).visible();
            if next <= va || base >= vb {
                self.viewport = Viewport::fit(lo, hi);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use logtime_model::Offset;

    #[test]
    fn mentions_become_targets_and_selectors() {
        let t = target_of(&Mention::Offsets {
            first: Offset(24),
            last: Offset(28),
        })
        .unwrap();
        assert_eq!(selector(&t).unwrap(), "[data-testid=record-24]");
        let many = target_of(&Mention::Offsets {
            first: Offset(1),
            last: Offset(9999),
        })
        .unwrap();
        assert_eq!(selector(&many).unwrap(), "[data-testid=partition]");
        let s = target_of(&Mention::Segment(Offset(20000))).unwrap();
        assert_eq!(selector(&s).unwrap(), "[data-testid=segment-20000]");
        assert_eq!(target_of(&Mention::Time(logtime_model::Timestamp(0))), None);
    }
}
