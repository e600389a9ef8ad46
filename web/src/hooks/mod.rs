//! The explorer's behaviour, one named hook each: the root component (`app.rs`) composes them
//! and hands each panel its props.
//!
//! | hook | what it owns |
//! | --- | --- |
//! | [`use_media`] | reduced motion and a dark system scheme, followed |
//! | [`use_loads`] | the source shown, followed from the options; loads (the last choice wins) |
//! | [`use_moment_link`], [`use_url_sync`], [`use_history_moments`], [`use_copy_link`] | the link to the moment: the URL and history, Back and Forward, "Copy link" |
//! | [`use_picture`], [`use_picture_drop`], [`use_print_picture`] | "Save picture" and "Copy picture"; a picture dropped on the explorer reopens its moment; the picture printed in its place |
//! | [`use_unload_guard`] | asking before an embed's reader actions are lost |
//! | [`use_timers`]: [`use_playback_frames`], [`use_walk_timer`], [`use_rebuild_chunks`], [`use_warm_up`] | timers: animation frames, walks, a long rebuild's chunks, the idle warm-up |
//! | [`use_panel_words`] | what the panels draw from during a rebuild and a fast play |
//! | [`use_import`] | the import worker |
//! | [`use_keys`] | keyboard shortcuts |
//! | [`use_page_keys`] | the standalone page's shortcuts before any click |
//! | [`use_dispatch`], [`use_panel_callbacks`] | callbacks of stable identity for the panels |
//! | [`use_scenario_actions`] | picking, cancelling, confirming and saving the scenario |
//! | [`use_pointed_panels`] | a lesson's `panel:` targets, outlined and scrolled into view |
//! | [`use_followed`] | a followed narration link's target, scrolled into view |
//!
//! The lesson plug-in keeps its own hook (`crate::lessons::use_progress`); author mode is wired
//! in by its own (`crate::author::use_author_wiring`).

mod clock;
mod dispatch;
mod import;
mod keys;
mod loads;
mod media;
mod moment;
mod panels;
mod picture;
mod pointing;
mod scenario;
mod unload;
mod words;

pub use clock::{use_playback_frames, use_rebuild_chunks, use_timers, use_walk_timer, use_warm_up};
pub use dispatch::use_dispatch;
pub use import::use_import;
pub use keys::{key_action, use_keys, use_page_keys};
pub use loads::{absolute, restore_of, use_loads, Loads};
pub use media::use_media;
pub use moment::{
    shown_query, use_copy_link, use_history_moments, use_moment_link, use_url_sync, LastUrl,
    MomentLink,
};
pub use panels::{use_panel_callbacks, PanelCallbacks};
pub use picture::{
    moment_of_svg, picture_of, use_picture, use_picture_drop, use_print_picture, PictureAction,
    Shown,
};
pub use pointing::{panel_selector, use_followed, use_pointed_panels, POINTED_ATTR};
pub use scenario::{use_scenario_actions, ScenarioActions};
pub use unload::use_unload_guard;
pub use words::{use_panel_words, PanelState, Words};
