//! Event sinks: where the partition's operations put their [`Event`]s. The rules emit every
//! event through a [`Sink`] as a closure, so a caller that keeps them pays for building them and
//! a replay that only counts them (a step run for its summary, the ten-million-record benchmark)
//! does not: [`Discard`] never calls the closure, and [`Sink::quiet_check`] lets a sink skip the
//! per-segment verdicts of a retention check that changed nothing. What happens to the partition
//! is the same whatever the sink; only what is reported differs.

use crate::event::Event;
use crate::retention::RetentionReport;

/// Where events go: a `Vec` collects them; [`Discard`] skips building them (the hot path).
pub(crate) trait Sink {
    /// Records the event `f` builds (or not).
    fn emit(&mut self, f: impl FnOnce() -> Event);

    /// Records a quiet scheduled retention check (it deleted nothing and found no segment
    /// stamped in the future), whose report `f` builds. A sink that only counts such checks
    /// need not have the report made: listing every segment's verdict is most of a check's
    /// work over a million one-record segments, and nothing else of a quiet check is shown.
    fn quiet_check(&mut self, f: impl FnOnce() -> RetentionReport) {
        self.emit(|| Event::RetentionChecked(f()));
    }
}

impl Sink for Vec<Event> {
    fn emit(&mut self, f: impl FnOnce() -> Event) {
        self.push(f());
    }
}

/// A sink that drops events without building them.
pub(crate) struct Discard;

impl Sink for Discard {
    fn emit(&mut self, _: impl FnOnce() -> Event) {}
}
