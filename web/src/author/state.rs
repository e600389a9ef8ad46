//! Author mode's state: the draft core is writing (`logtime_lesson::author::Authoring`, behind
//! `Rc<RefCell<_>>` so that a render never copies its undo stack), what the pane has selected,
//! whether a click in the partition picks a highlight or points a question, and the last thing
//! core said.
//!
//! Every change goes through core's `apply`; its events and errors are shown as core words
//! them. Nothing here knows what a step means.

use std::cell::RefCell;
use std::rc::Rc;

use logtime_lesson::author::{
    AuthorCommand, AuthorEvent, Authoring, BatchSpec, Checked, StepView, VariantPreview,
};
use logtime_lesson::Pick;
use logtime_model::Timestamp;
use yew::Reducible;

use crate::embed::ScenarioSource;

/// A draft being written, compared by its revision (a change bumps it).
#[derive(Clone)]
pub struct Draft {
    authoring: Rc<RefCell<Authoring>>,
    /// Bumped by every change.
    pub rev: u64,
    /// The steps as core lists them (1-based `index`).
    pub steps: Rc<Vec<StepView>>,
    /// Core's check of the draft as it stands.
    pub checked: Rc<Checked>,
    /// Whether undo and redo have something to do.
    pub undo: (bool, bool),
    /// Where recordings go: after this step (0: before the first), `None`: at the end.
    pub recording_at: Option<usize>,
}

impl PartialEq for Draft {
    fn eq(&self, other: &Draft) -> bool {
        Rc::ptr_eq(&self.authoring, &other.authoring) && self.rev == other.rev
    }
}

impl Draft {
    fn of(authoring: Rc<RefCell<Authoring>>, rev: u64) -> Draft {
        let (steps, checked, undo, recording_at) = {
            let a = authoring.borrow();
            let undo = (a.can_undo(), a.can_redo());
            (a.steps(), a.check().clone(), undo, a.recording_at())
        };
        Draft {
            authoring,
            rev,
            steps: Rc::new(steps),
            checked: Rc::new(checked),
            undo,
            recording_at,
        }
    }

    /// Core's author, to read (a form asks it whether an edit would be refused).
    pub(super) fn authoring(&self) -> std::cell::Ref<'_, Authoring> {
        self.authoring.borrow()
    }

    /// The file as core saves it (pretty, RFC 3339 times, human durations).
    pub fn document(&self) -> String {
        self.authoring.borrow().document()
    }

    /// The draft's title (for the file's name).
    pub fn title(&self) -> String {
        let a = self.authoring.borrow();
        a.value()
            .get("title")
            .and_then(|t| t.as_str())
            .unwrap_or_default()
            .to_string()
    }

    /// Whether the draft is a drill (else a walkthrough).
    pub fn is_drill(&self) -> bool {
        let a = self.authoring.borrow();
        a.value().pointer("/lesson/kind").and_then(|k| k.as_str()) == Some("drill")
    }

    /// Whether the draft has `variants` (then two seeds' variants are previewed side by side).
    pub fn has_variants(&self) -> bool {
        let a = self.authoring.borrow();
        a.value()
            .get("variants")
            .and_then(|v| v.as_object())
            .is_some_and(|v| !v.is_empty())
    }

    /// The variant `pick` chooses, as a learner given it gets it (core's check and walk of it).
    pub fn variant_preview(&self, pick: Pick) -> VariantPreview {
        self.authoring.borrow().variant_preview(pick)
    }

    /// How many scenario steps the explorer runs to show the partition after step `k`, or
    /// core's reason it cannot.
    pub fn scenario_steps_to(&self, k: usize) -> Result<usize, String> {
        let a = self.authoring.borrow();
        a.scenario_steps_to(k).map_err(|e| e.to_string())
    }

    /// The batch produce step `i` (1-based) sends, or why it has none (core's words).
    pub fn batch_of_step(&self, i: usize) -> Result<BatchSpec, String> {
        let a = self.authoring.borrow();
        a.batch_of_step(i).map_err(|e| e.to_string())
    }

    /// Step `i` (1-based) as the file has it.
    pub fn step_json(&self, i: usize) -> Rc<serde_json::Value> {
        let a = self.authoring.borrow();
        let step = a
            .value()
            .get("steps")
            .and_then(|s| s.get(i.wrapping_sub(1)))
            .cloned()
            .unwrap_or_default();
        Rc::new(step)
    }
}

/// What a click in the partition does while author mode is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointing {
    /// Inspects, as in the explorer.
    Off,
    /// Adds the thing clicked to the selected step's highlights.
    Highlights,
    /// Points the question being added (its kind, by index in `ask::KINDS`).
    Question(usize),
}

/// Author mode.
#[derive(Clone, PartialEq)]
pub struct AuthorState {
    /// The draft (`None`: author mode is off).
    pub draft: Option<Draft>,
    /// The step selected in the pane (1-based).
    pub selected: Option<usize>,
    /// What a click in the partition does.
    pub pointing: Pointing,
    /// The last thing core said (an event, or why a command could not apply), and whether it
    /// is an error.
    pub said: Option<(String, bool)>,
    /// Journal entries of the explorer already recorded (or passed over).
    pub recorded: usize,
    /// Where recordings go matches the explorer's moment (false from a start until the
    /// recorder has placed it).
    pub synced: bool,
    /// The scenario an empty partition's draft loaded in the explorer (the page's own source
    /// gives way to it while the draft is written).
    pub loaded: Option<ScenarioSource>,
    /// The start card is open (the Author button, before a draft starts).
    pub opening: bool,
    /// The author left author mode (a page opened with `mode=author` does not start again).
    pub left: bool,
    /// The explorer is being moved to show the partition after a step (`Some(k)`; `None`: at
    /// the end), where recordings go once it does (`place.rs`).
    pub placing: Option<Option<usize>>,
    /// Batches composed in the Produce panel and taken for a question ("Use this batch"),
    /// oldest first.
    pub taken: Rc<Vec<BatchSpec>>,
}

impl Default for AuthorState {
    fn default() -> AuthorState {
        AuthorState {
            draft: None,
            selected: None,
            pointing: Pointing::Off,
            said: None,
            recorded: 0,
            synced: false,
            loaded: None,
            opening: false,
            left: false,
            placing: None,
            taken: Rc::default(),
        }
    }
}

/// What the pane and the recorder ask of author mode.
pub enum AuthorAction {
    /// Writing starts with what core made of the start (or why it could not), the journal's
    /// `recorded` entries passed over, and the scenario it loaded in the explorer, if any.
    Started(
        Result<Box<Authoring>, String>,
        usize,
        Option<ScenarioSource>,
    ),
    /// Opens (or closes) the start card.
    Open(bool),
    /// Leaves author mode (the draft is dropped).
    Stop,
    /// A command for core, at broker time `now`.
    Apply(Timestamp, Box<AuthorCommand>),
    /// Selects a step (1-based).
    Select(Option<usize>),
    /// What a click in the partition does from now on.
    Point(Pointing),
    /// The journal now holds this many entries (all recorded).
    Recorded(usize),
    /// Recordings go where the explorer is, whose journal holds this many entries.
    Synced(usize),
    /// Something the page says (a save, a link made, a refusal).
    Say(String, bool),
    /// Shows the partition after a step in the explorer (`Some(k)`, selected; `None`: the
    /// end), and records after it from then on.
    Show(Option<usize>),
    /// The explorer shows the scenario it was moved to (the draft), its journal holding this
    /// many entries (`None`: it could not be moved, and stays as it was).
    Placed(Option<usize>),
    /// The scenario the explorer loads to show a step (the draft as it stands).
    Showing(ScenarioSource),
    /// A batch composed in the Produce panel, taken for a question about a batch.
    Take(BatchSpec),
}

/// The words of the events core returned (the step it names is selected).
fn words(events: &[AuthorEvent]) -> (String, Option<usize>) {
    let mut said = Vec::new();
    let mut step = None;
    for e in events {
        match e {
            AuthorEvent::StepAdded { step: s, .. } | AuthorEvent::StepChanged { step: s } => {
                step = Some(*s)
            }
            AuthorEvent::StepMoved { to, .. } => step = Some(*to),
            AuthorEvent::Undone { what } => said.push(format!("Undone: {what}.")),
            AuthorEvent::Redone { what } => said.push(format!("Redone: {what}.")),
            _ => {}
        }
    }
    (said.join(" "), step)
}

impl Reducible for AuthorState {
    type Action = AuthorAction;

    fn reduce(self: Rc<Self>, action: AuthorAction) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            AuthorAction::Started(started, recorded, loaded) => match started {
                Ok(a) => {
                    s.draft = Some(Draft::of(Rc::new(RefCell::new(*a)), 0));
                    s.selected = None;
                    s.pointing = Pointing::Off;
                    s.said = None;
                    s.opening = false;
                    s.recorded = recorded;
                    s.synced = false;
                    s.loaded = loaded;
                    s.placing = None;
                    s.taken = Rc::default();
                }
                Err(e) => s.said = Some((e, true)),
            },
            AuthorAction::Stop => {
                return Rc::new(AuthorState {
                    left: true,
                    ..AuthorState::default()
                })
            }
            AuthorAction::Apply(now, cmd) => {
                let Some(d) = &s.draft else { return self };
                // A step added right where recordings go comes before what is recorded next.
                let follow = match &*cmd {
                    AuthorCommand::AddNote { at, .. }
                    | AuthorCommand::AddQuestion { at, .. }
                    | AuthorCommand::AddTask { at, .. } => {
                        (d.recording_at == Some(at.saturating_sub(1))).then_some(*at)
                    }
                    _ => None,
                };
                let result = d.authoring.borrow_mut().apply(now, *cmd);
                if let (Ok(_), Some(at)) = (&result, follow) {
                    let after = AuthorCommand::RecordAfter(Some(at));
                    let _ = d.authoring.borrow_mut().apply(now, after);
                }
                match result {
                    Ok(events) => {
                        let (w, step) = words(&events);
                        s.draft = Some(Draft::of(d.authoring.clone(), d.rev + 1));
                        let count = s.draft.as_ref().map_or(0, |d| d.steps.len());
                        s.selected = step.or(s.selected).filter(|i| *i >= 1 && *i <= count);
                        s.said = (!w.is_empty()).then_some((w, false));
                    }
                    Err(e) => s.said = Some((e.to_string(), true)),
                }
            }
            AuthorAction::Open(open) => {
                s.opening = open;
                s.said = None;
            }
            AuthorAction::Select(i) => s.selected = i,
            AuthorAction::Point(p) => s.pointing = p,
            AuthorAction::Recorded(n) => s.recorded = n,
            AuthorAction::Synced(n) => {
                s.recorded = n;
                s.synced = true;
            }
            AuthorAction::Say(w, error) => s.said = Some((w, error)),
            AuthorAction::Show(at) => {
                if let Some(i) = at.filter(|i| *i >= 1) {
                    s.selected = Some(i);
                }
                s.placing = Some(at);
            }
            AuthorAction::Placed(entries) => {
                s.placing = None;
                if let Some(n) = entries {
                    s.recorded = n;
                    s.synced = true;
                }
            }
            AuthorAction::Showing(source) => s.loaded = Some(source),
            AuthorAction::Take(b) => {
                let mut taken = (*s.taken).clone();
                let words = b.describe();
                taken.push(b);
                // A few at hand are enough to pick from; the oldest gives way.
                if taken.len() > super::batch::TAKEN_MAX {
                    taken.remove(0);
                }
                s.said = Some((format!("Batch {} taken: {words}.", taken.len()), false));
                s.taken = Rc::new(taken);
            }
        }
        Rc::new(s)
    }
}
