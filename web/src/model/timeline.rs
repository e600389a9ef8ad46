//! Playback: speeds, timer periods and the scrubber's mapping to scenario steps.

/// Playback speeds offered (steps per second at 1x = 1).
pub const SPEEDS: &[u32] = &[1, 2, 4, 8, 16, 32, 64, 128, 256];

/// The most steps playback runs in one animation frame at `speed`: as many as a 60 Hz frame
/// holds, rounded down, at least one. A frame with one more step than usual would be the one
/// that drops, so playback runs at most 60 steps a second at 64× (6 % slower), 240 at 256×,
/// and a page that cannot keep up plays slower instead of in bursts.
pub fn most_per_frame(speed: u32) -> u32 {
    (speed / 60).max(1)
}

/// The next speed up or down the list, clamped.
pub fn next_speed(speed: u32, faster: bool) -> u32 {
    let i = SPEEDS
        .iter()
        .position(|&s| s >= speed)
        .unwrap_or(SPEEDS.len() - 1);
    let j = if faster {
        (i + 1).min(SPEEDS.len() - 1)
    } else {
        i.saturating_sub(1)
    };
    SPEEDS[j]
}

/// The step a scrubber value maps to: `value` in `0..=total`, clamped.
pub fn scrub_to_step(value: f64, total: usize) -> usize {
    if !value.is_finite() || value <= 0.0 {
        return 0;
    }
    (value.round() as usize).min(total)
}

/// Progress through the scenario, 0..=100 %.
pub fn progress_percent(done: usize, total: usize) -> u32 {
    (done.min(total) * 100)
        .checked_div(total)
        .map_or(100, |p| p as u32)
}

/// Where to go for "step back" from `done` steps: one fewer, never below zero.
pub fn step_back(done: usize) -> usize {
    done.saturating_sub(1)
}

/// How long a lookup or retention animation waits between frames of its walk.
pub fn walk_delay_ms(reduced_motion: bool, speed: u32) -> u32 {
    if reduced_motion {
        0
    } else {
        (450 / speed.max(1)).max(40)
    }
}

/// While playing, the page's URL follows the moment at most this often (a history write costs
/// milliseconds, and browsers throttle pages that write it every frame).
pub const URL_EVERY_MS_PLAYING: f64 = 1000.0;

/// Whether the URL should be written now, `now` ms on the page clock, when it was last written
/// at `last`: always when paused, at most every [`URL_EVERY_MS_PLAYING`] while playing.
pub fn url_due(playing: bool, last: f64, now: f64) -> bool {
    !playing || now - last >= URL_EVERY_MS_PLAYING
}

/// How long one chunk of a rebuild should keep the page busy: with the render that follows it
/// (10-20 ms with a million segments) well under the 50 ms of a long task, and long enough
/// that yielding between chunks costs little.
pub const CHUNK_MS: f64 = 20.0;

/// The records the next chunk of a rebuild should replay, after `records` took `ms`: scaled
/// towards [`CHUNK_MS`], at most doubling or halving at a time, between 1,000 and 2,000,000.
pub fn next_chunk(records: i64, ms: f64) -> i64 {
    let scaled = if ms.is_finite() && ms > 0.0 {
        (records as f64 * CHUNK_MS / ms) as i64
    } else {
        records.saturating_mul(2)
    };
    scaled
        .clamp(records / 2, records.saturating_mul(2))
        .clamp(1_000, 2_000_000)
}

/// While playback runs faster than this many steps a second, the panels' words (figures, segment
/// chips, narration) lag the canvases: nobody reads sixty segment lists a second, and laying
/// them out sixty times a second is what made a frame miss its 16.7 ms on a 2-core machine.
pub const TEXT_FOLLOWS_UP_TO: u32 = 10;

/// How often the lagging words catch up with the moment: each of the two groups of panels
/// ([`TextRefresh`]) ten times a second.
pub const TEXT_EVERY_MS: f64 = 100.0;

/// Whether the panels' words may lag the moment: while playing faster than
/// [`TEXT_FOLLOWS_UP_TO`] steps a second. Paused, stepped or scrubbed, they show every moment.
pub fn text_lags(playing: bool, speed: u32) -> bool {
    playing && speed > TEXT_FOLLOWS_UP_TO
}

/// When each of the two groups of text panels (the partition's column and the narration's)
/// last caught up with the moment, on the page clock (ms).
///
/// The groups take turns, half a period apart, so no frame lays out both: a frame that catches
/// one group up costs about half of a frame that redraws every panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextRefresh {
    /// When the partition's column last caught up.
    pub wide: f64,
    /// When the narration's column last caught up.
    pub side: f64,
}

impl Default for TextRefresh {
    fn default() -> Self {
        TextRefresh {
            wide: f64::NEG_INFINITY,
            side: f64::NEG_INFINITY,
        }
    }
}

impl TextRefresh {
    /// Which groups show the moment of a render at `now`: `(wide, side)`. When the words do not
    /// lag ([`text_lags`]) both do, and both count as caught up, so that a play that starts
    /// fast shows its first frames' words a period later. While they lag, a group catches up
    /// once its last catch-up is [`TEXT_EVERY_MS`] old and the other's is at least half of that
    /// (the staler first); at most one group a render. A clock that goes back (or a `now`
    /// that is not a number) catches both up, as when not lagging.
    pub fn due(&mut self, lagging: bool, now: f64) -> (bool, bool) {
        let (wide, side) = (now - self.wide, now - self.side);
        if !lagging || !now.is_finite() || wide < 0.0 || side < 0.0 {
            *self = TextRefresh {
                wide: now,
                side: now,
            };
            return (true, true);
        }
        let half = TEXT_EVERY_MS / 2.0;
        let wide_due = wide >= TEXT_EVERY_MS && side >= half;
        let side_due = side >= TEXT_EVERY_MS && wide >= half;
        if wide_due && (!side_due || wide >= side) {
            self.wide = now;
            (true, false)
        } else if side_due {
            self.side = now;
            (false, true)
        } else {
            (false, false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_aim_at_the_chunk_time() {
        assert_eq!(next_chunk(20_000, CHUNK_MS), 20_000);
        assert_eq!(next_chunk(20_000, CHUNK_MS / 2.0), 40_000);
        assert_eq!(next_chunk(20_000, 5.0), 40_000, "at most double");
        assert_eq!(next_chunk(20_000, 120.0), 10_000, "at most halve");
        assert_eq!(next_chunk(20_000, 0.0), 40_000, "too fast to time");
        assert_eq!(next_chunk(1_000, 1000.0), 1_000, "never below 1,000");
        assert_eq!(
            next_chunk(2_000_000, 1.0),
            2_000_000,
            "never above 2,000,000"
        );
        assert_eq!(next_chunk(20_000, f64::NAN), 40_000);
    }

    #[test]
    fn speeds() {
        assert_eq!(next_speed(1, true), 2);
        assert_eq!(next_speed(64, true), 128);
        assert_eq!(next_speed(256, true), 256);
        assert_eq!(next_speed(1000, false), 128);
        assert_eq!(next_speed(1, false), 1);
        assert_eq!(next_speed(8, false), 4);
        assert_eq!(next_speed(5, true), 16);
        assert_eq!(most_per_frame(1), 1);
        assert_eq!(most_per_frame(64), 1);
        assert_eq!(most_per_frame(128), 2);
        assert_eq!(most_per_frame(256), 4);
    }

    #[test]
    fn scrubbing() {
        assert_eq!(scrub_to_step(-3.0, 10), 0);
        assert_eq!(scrub_to_step(4.4, 10), 4);
        assert_eq!(scrub_to_step(99.0, 10), 10);
        assert_eq!(scrub_to_step(f64::NAN, 10), 0);
        assert_eq!(progress_percent(5, 10), 50);
        assert_eq!(progress_percent(0, 0), 100);
        assert_eq!(step_back(0), 0);
        assert_eq!(step_back(3), 2);
    }

    #[test]
    fn the_url_follows_playback_once_a_second() {
        assert!(url_due(false, 10.0, 10.0));
        assert!(url_due(true, f64::NEG_INFINITY, 0.0));
        assert!(!url_due(true, 1000.0, 1999.0));
        assert!(url_due(true, 1000.0, 2000.0));
    }

    #[test]
    fn walk_delays() {
        assert_eq!(walk_delay_ms(true, 1), 0);
        assert_eq!(walk_delay_ms(false, 1), 450);
        assert_eq!(walk_delay_ms(false, 64), 40);
    }

    #[test]
    fn words_lag_only_while_playing_fast() {
        assert!(!text_lags(false, 256));
        assert!(!text_lags(true, 8));
        assert!(text_lags(true, 16));
        assert!(text_lags(true, 64));
    }

    #[test]
    fn the_two_groups_take_turns_half_a_period_apart() {
        let mut r = TextRefresh::default();
        // Not lagging: every render shows the moment, and both count as caught up.
        assert_eq!(r.due(false, 1000.0), (true, true));
        assert_eq!(
            r,
            TextRefresh {
                wide: 1000.0,
                side: 1000.0
            }
        );
        // Lagging at 60 frames a second for two seconds: who catches up, and when.
        let mut wide = Vec::new();
        let mut side = Vec::new();
        for frame in 1..=120 {
            let now = 1000.0 + frame as f64 * 16.7;
            match r.due(true, now) {
                (true, false) => wide.push(now),
                (false, true) => side.push(now),
                (false, false) => {}
                both => panic!("both groups in one frame at {now}: {both:?}"),
            }
        }
        // each group about ten times a second...
        assert!((18..=20).contains(&wide.len()), "{wide:?}");
        assert!((18..=20).contains(&side.len()), "{side:?}");
        for w in wide.windows(2).chain(side.windows(2)) {
            assert!(
                w[1] - w[0] >= TEXT_EVERY_MS && w[1] - w[0] < TEXT_EVERY_MS + 17.0,
                "{w:?}"
            );
        }
        // ...and, once settled, half a period from the other
        let last_wide = *wide.last().unwrap();
        let gap = side
            .iter()
            .map(|s| (s - last_wide).abs())
            .fold(f64::INFINITY, f64::min);
        assert!(gap >= TEXT_EVERY_MS / 2.0 - 17.0, "gap {gap}");
        // the first catch-up comes a period after the play started
        assert!(wide[0] >= 1000.0 + TEXT_EVERY_MS && side[0] >= 1000.0 + TEXT_EVERY_MS);
    }

    #[test]
    fn a_clock_that_goes_back_catches_both_up() {
        let mut r = TextRefresh {
            wide: 500.0,
            side: 520.0,
        };
        assert_eq!(r.due(true, 400.0), (true, true));
        assert_eq!(r.due(true, f64::NAN), (true, true));
        let mut r = TextRefresh::default();
        // a first lagging render with nothing shown yet catches up the wide group first
        assert_eq!(r.due(true, 0.0), (true, false));
        assert_eq!(
            r.due(true, 16.0),
            (false, false),
            "the narration waits half a period"
        );
        assert_eq!(r.due(true, 50.0), (false, true));
    }
}
