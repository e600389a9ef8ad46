//! Callbacks of stable identity: a panel whose props did not change is not rendered again,
//! which keeps a fast play's frames to the clock and the canvases.

use yew::prelude::*;

use crate::state::{Action, Explorer};

/// A callback of stable identity that dispatches what `make` makes of its argument.
#[hook]
pub fn use_dispatch<T: 'static, A: Into<Action> + 'static>(
    d: UseReducerDispatcher<Explorer>,
    make: fn(T) -> A,
) -> Callback<T> {
    use_callback(d, move |t, d| d.dispatch(make(t).into()))
}
