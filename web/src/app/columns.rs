//! The explorer's two columns: the wide one (the partition, retention and lookup, the charts)
//! and the side one (a lesson's or author mode's pane, the narration, producer and config).

use yew::prelude::*;

use super::view::Frame;
use crate::author::{AuthorAction, AuthorPane, AuthorStart};
use crate::components::charts::{DiskChart, TimestampChart};
use crate::components::config_panel::ConfigPanel;
use crate::components::density_canvas::LiveDensity;
use crate::components::details_panel::DetailsPanel;
use crate::components::live_region::LiveRegion;
use crate::components::lookup_panel::LookupPanel;
use crate::components::partition_view::PartitionView;
use crate::components::producer_panel::ProducerPanel;
use crate::components::retention_panel::RetentionPanel;
use crate::lessons::{self, LessonPane, StreamLane};
use crate::options::Panel;
use crate::shown::unhidden;
use crate::state::ReplayView;
use logtime_lesson::Affordance;

/// The wide column: the partition (and a stream's lane), a record's details, retention and
/// lookup, the charts.
pub(super) fn wide(f: &Frame) -> Html {
    let (st, seen, text, view) = (f.st, f.seen, &f.words.wide, f.view);
    let (hidden, reduced_motion, dark) = (seen.hidden, f.reduced_motion, f.dark);
    let show = |p: Panel| seen.show(p);
    let (retention_shown, lookup_shown) = unhidden(text, hidden);
    let (retention_live, lookup_live) = unhidden(view, hidden);
    let density = LiveDensity {
        replay: ReplayView::of(&view.replay),
        lookup: lookup_live.clone(),
        retention: retention_live,
        viewport: view.viewport,
        neutral: hidden.contains(Affordance::AgeMarks),
    };
    let lesson = seen
        .overlay
        .as_ref()
        .map(|o| o.marks.clone())
        .or_else(|| seen.author_marks.as_ref().map(|m| m.0.clone()));
    let p = f.panel;
    let on_inspect = f.wired.on_inspect.clone();
    html! {
                    <div class="lt-col-wide">
                        if show(Panel::Partition) {
                            <ContextProvider<LiveDensity> context={density}>
                            <PartitionView replay={ReplayView::of(&text.replay)} marks={text.marks.clone()} lookup={lookup_shown.clone()}
                                           retention={retention_shown.clone()} viewport={text.viewport} {reduced_motion} {dark} on_viewport={p.on_viewport.clone()}
                                           {lesson} on_inspect={on_inspect.clone()} on_pick={p.on_pick_answer.clone()} />
                            </ContextProvider<LiveDensity>>
                            if st.replay.stream.is_some() {
                                <StreamLane replay={ReplayView::of(&view.replay)} hidden={hidden.contains(Affordance::StreamVerdicts)} {reduced_motion} {dark} />
                            }
                        }
                        if let Some(i) = st.inspect {
                            <DetailsPanel inspect={i} replay={ReplayView::of(&text.replay)} lookup={lookup_shown.clone()} on_close={p.on_close_details.clone()}
                                          neutral={hidden.contains(Affordance::AgeMarks)} />
                        }
                        if show(Panel::Retention) || show(Panel::Lookup) {
                        <div class="lt-grid-2">
                            if show(Panel::Retention) {
                                <RetentionPanel replay={ReplayView::of(&text.replay)} state={retention_shown.clone()} {reduced_motion} on_command={p.on_command.clone()}
                                                remedies={!hidden.contains(Affordance::Remedies)} compact={!f.standalone} />
                            }
                            if show(Panel::Lookup) {
                                <LookupPanel replay={ReplayView::of(&text.replay)} state={lookup_shown.clone()} {reduced_motion} on_lookup={p.on_lookup.clone()} {on_inspect} />
                            }
                        </div>
                        }
                        if show(Panel::Chart) || show(Panel::Disk) {
                        <div class="lt-grid-2">
                            if show(Panel::Chart) {
                                <TimestampChart replay={ReplayView::of(&view.replay)} lookup={lookup_live} {dark} neutral={hidden.contains(Affordance::AgeMarks)} />
                            }
                            if show(Panel::Disk) {
                                <DiskChart disk={view.disk.clone()} {dark} />
                            }
                        </div>
                        }
                    </div>
    }
}

/// The side column: a lesson's pane, author mode's pane or start card, the narration, the
/// producer and the config.
pub(super) fn side(f: &Frame) -> Html {
    let (st, seen, author, w) = (f.st, f.seen, f.author, f.wired);
    let show = |p: Panel| seen.show(p);
    let clock = f.clock();
    // The author's preview of a draft is not a learner's run: nothing of it is kept.
    let progress_key = match f.nested {
        true => AttrValue::default(),
        false => AttrValue::from(lessons::progress_key(
            seen.current.as_deref().unwrap_or(st.replay.title.as_ref()),
        )),
    };
    let config = st.replay.runner().map(|r| r.partition().config().clone());
    let highlight = seen
        .overlay
        .as_ref()
        .map(|o| o.configs.clone())
        .or_else(|| seen.author_marks.as_ref().map(|m| m.1.clone()))
        .unwrap_or_default();
    html! {
                    <div class="lt-col-side" role="group" aria-label="Narration and controls">
                        if seen.lesson_on() {
                            <LessonPane view={st.lesson.clone()} now={clock.now} playing={st.playback.playing} {progress_key}
                                        on_lesson={f.panel.on_lesson.clone()} on_transport={w.on_transport.clone()}
                                        assign={f.opts.assign.clone().map(AttrValue::from)} />
                        }
                        if let Some(draft) = &author.draft {
                            <AuthorPane draft={draft.clone()} selected={author.selected} pointing={author.pointing}
                                        said={author.said.as_ref().map(|(w, e)| (AttrValue::from(w.clone()), *e))} link={w.link.clone()}
                                        replay={ReplayView::of(&st.replay)} on_command={w.on_command.clone()} on_author={w.on_author.clone()} on_tool={w.on_tool.clone()}
                                        taken={author.taken.clone()} />
                        } else if author.opening {
                            <AuthorStart title={seen.title.clone()} error={author.said.as_ref().filter(|s| s.1).map(|s| AttrValue::from(s.0.clone()))}
                                         on_begin={w.on_begin.clone()} on_close={w.on_author.reform(|()| AuthorAction::Open(false))} />
                        }
                        if show(Panel::Log) { <LiveRegion log={f.words.log.clone()} /> }
                        if show(Panel::Producer) {
                            <ProducerPanel now={f.words.now} loaded={clock.loaded} state={st.producer.clone()} reduced_motion={f.reduced_motion} on_send={f.panel.on_send.clone()} on_use={w.on_use_batch.clone()} />
                        }
                        if show(Panel::Config) {
                            <ConfigPanel {config} state={st.config.clone()} on_version={f.panel.on_version.clone()} on_config={f.panel.on_config.clone()}
                                         {highlight} />
                        }
                    </div>
    }
}
