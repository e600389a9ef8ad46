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
}
