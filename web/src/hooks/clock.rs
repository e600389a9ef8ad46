//! The explorer's timers, all outside the reducer: playback at animation frames, the lookup and
//! retention walks, a long rebuild's next chunk, and the idle-time warm-up of a play's code.

use yew::prelude::*;

use crate::model::timeline;
use crate::state::{Explorer, TransportAction, ViewAction, REBUILD_CHUNK_RECORDS};

/// While `playing`, the steps due at each animation frame at `speed`, one action (and one
/// render) a frame.
#[hook]
pub fn use_playback_frames(d: UseReducerDispatcher<Explorer>, playing: bool, speed: u32) {
    use_effect_with((playing, speed), move |(playing, speed)| {
        let timer = playing.then(|| {
            crate::glue::play_frames(*speed, timeline::most_per_frame(*speed), move |n| {
                d.dispatch(TransportAction::Steps(n as usize).into())
            })
        });
        move || drop(timer)
    });
}

/// The lookup and retention walks: a line at a time at `speed` after each new walk (`revs`), or
/// finished at once with reduced motion.
#[hook]
pub fn use_walk_timer(
    d: UseReducerDispatcher<Explorer>,
    revs: (u64, u64),
    speed: u32,
    reduced_motion: bool,
) {
    use_effect_with((revs, speed), move |(_, speed)| {
        let timer = if reduced_motion {
            d.dispatch(ViewAction::WalkFinish.into());
            None
        } else {
            let delay = timeline::walk_delay_ms(false, *speed);
            Some(gloo_timers::callback::Interval::new(delay, move || {
                d.dispatch(ViewAction::WalkTick.into())
            }))
        };
        move || drop(timer)
    });
}

/// A long rebuild: the next chunk once the browser has drawn this one (`chunk` is the count of
/// chunks run, `None` when no rebuild runs), sized so that a chunk takes about
/// `timeline::CHUNK_MS` (timed here, outside the reducer).
#[hook]
pub fn use_rebuild_chunks(d: UseReducerDispatcher<Explorer>, chunk: Option<u32>) {
    let budget = use_mut_ref(|| REBUILD_CHUNK_RECORDS);
    use_effect_with(chunk, move |chunk| {
        let timer = chunk.map(|_| {
            gloo_timers::callback::Timeout::new(0, move || {
                let records = *budget.borrow();
                let start = js_sys::Date::now();
                d.dispatch(TransportAction::RebuildChunk(records).into());
                let ms = js_sys::Date::now() - start;
                *budget.borrow_mut() = timeline::next_chunk(records, ms);
            })
        });
        move || drop(timer)
    });
}

/// Once a scenario is on screen, the busy code of a play runs once at idle moments
/// (`warm`: the first play of a big scenario would otherwise compile it in its first frames).
#[hook]
pub fn use_warm_up(loaded: bool) {
    use_effect_with(loaded, |loaded| {
        if *loaded {
            crate::warm::start();
        }
    });
}

/// The explorer's timers, of its state now: the idle warm-up once a scenario is loaded, a
/// play's frames, a long rebuild's chunks and a walk's steps.
#[hook]
pub fn use_timers(d: UseReducerDispatcher<Explorer>, st: &Explorer, reduced_motion: bool) {
    use_warm_up(st.replay.is_loaded());
    use_playback_frames(d.clone(), st.playback.playing, st.playback.speed);
    use_rebuild_chunks(d.clone(), st.rebuild.as_ref().map(|r| r.chunks));
    let revs = (st.lookup.rev, st.retention.rev);
    use_walk_timer(d, revs, st.playback.speed, reduced_motion);
}
