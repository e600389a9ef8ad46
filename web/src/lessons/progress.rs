//! A learner's progress on one lesson, kept in the browser's localStorage under
//! [`key`]: the best score and how many times it was finished, as `best/max/runs` (a short,
//! versionless text; anything else reads as no progress).

use logtime_lesson::Scorecard;
use yew::prelude::*;

/// Progress on one lesson.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Best points earned.
    pub best: u32,
    /// Points possible at that best.
    pub max: u32,
    /// Times finished.
    pub runs: u32,
}

/// The storage key of a lesson by its built-in name (or its title when it has none).
pub fn key(lesson: &str) -> String {
    format!("logtime.lesson.{lesson}")
}

impl Progress {
    /// Reads the stored text; damaged or foreign text is no progress.
    pub fn parse(text: &str) -> Option<Progress> {
        let mut it = text.split('/').map(|p| p.parse::<u32>().ok());
        let (best, max, runs) = (it.next()??, it.next()??, it.next()??);
        (it.next().is_none() && best <= max).then_some(Progress { best, max, runs })
    }

    /// The stored text.
    pub fn to_text(self) -> String {
        format!("{}/{}/{}", self.best, self.max, self.runs)
    }

    /// After finishing with `got` of `max` points: one more run, and the better score (by
    /// share of the points, so variants worth different totals compare fairly).
    pub fn finished(self, got: u32, max: u32) -> Progress {
        let better = self.runs == 0
            || u64::from(got) * u64::from(self.max.max(1))
                > u64::from(self.best) * u64::from(max.max(1));
        Progress {
            best: if better { got } else { self.best },
            max: if better { max } else { self.max },
            runs: self.runs.saturating_add(1),
        }
    }

    /// For people: `17 / 30 (finished 2 times)`.
    pub fn describe(self) -> String {
        format!(
            "{} / {} (finished {} time{})",
            self.best,
            self.max,
            self.runs,
            if self.runs == 1 { "" } else { "s" }
        )
    }
}

/// The learner's progress on the lesson stored under `key`, on this device: the best score's
/// words for the pane, and the callback that forgets it. A `finished` run's `card` is recorded
/// once (when the lesson's last item settles). An empty `key` keeps nothing: an author's
/// preview of a draft is not a learner's run, and must not count as one.
#[hook]
pub fn use_progress(
    key: String,
    card: Option<Scorecard>,
    finished: bool,
) -> (Option<AttrValue>, Callback<()>) {
    let best = use_state(|| None::<Progress>);
    {
        let best = best.clone();
        use_effect_with(key.clone(), move |k| {
            if k.is_empty() {
                return;
            }
            best.set(crate::glue::progress_get(k).and_then(|t| Progress::parse(&t)));
        });
    }
    {
        let best = best.clone();
        let finished =
            finished && !key.is_empty() && card.as_ref().is_some_and(|c| !c.items.is_empty());
        use_effect_with((key.clone(), finished), move |(k, finished)| {
            if let (true, Some(card)) = (*finished, card) {
                let (got, max) = card.total();
                let before = crate::glue::progress_get(k)
                    .and_then(|t| Progress::parse(&t))
                    .unwrap_or_default();
                let now = before.finished(got, max);
                crate::glue::progress_set(k, Some(now.to_text()));
                best.set(Some(now));
            }
        });
    }
    let text = best.map(|b| AttrValue::from(b.describe()));
    let on_reset = {
        let best = best.clone();
        Callback::from(move |()| {
            if !key.is_empty() {
                crate::glue::progress_set(&key, None);
            }
            best.set(None);
        })
    };
    (text, on_reset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damaged_text() {
        let p = Progress {
            best: 7,
            max: 10,
            runs: 2,
        };
        assert_eq!(Progress::parse(&p.to_text()), Some(p));
        for bad in ["", "7/10", "7/10/2/1", "x/10/1", "11/10/1", "-1/10/1"] {
            assert_eq!(Progress::parse(bad), None, "{bad}");
        }
        assert_eq!(key("future-drill"), "logtime.lesson.future-drill");
    }

    #[test]
    fn the_best_share_is_kept_and_runs_count() {
        let p = Progress::default().finished(5, 10);
        assert_eq!(
            p,
            Progress {
                best: 5,
                max: 10,
                runs: 1
            }
        );
        let p = p.finished(4, 10);
        assert_eq!(
            p,
            Progress {
                best: 5,
                max: 10,
                runs: 2
            }
        );
        // 9 of 15 (60 %) beats 5 of 10 (50 %)
        let p = p.finished(9, 15);
        assert_eq!((p.best, p.max, p.runs), (9, 15, 3));
        assert_eq!(p.describe(), "9 / 15 (finished 3 times)");
    }
}
