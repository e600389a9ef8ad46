//! A moment rebuilt: a scenario replayed through a journal's entries, with what the picture
//! needs besides the partition (the last lookup, what the last step did).

use crate::error::RenderError;
use crate::link::LookupTarget;
use logtime_core::scenario::session::{Entry, Replayed, Session, Source};
use logtime_core::scenario::{narrate, Scenario};
use logtime_model::Lookup;

/// A scenario at a moment.
pub struct Rebuilt {
    /// The session at the journal's end (its journal is the moment's).
    pub session: Session,
    /// The last lookup answered, if any.
    pub lookup: Option<Lookup>,
    /// What the last step or action did, as the narrator says it (one sentence a clause).
    pub happened: Vec<String>,
}

/// Replays `entries` against `scenario` (the scenario `source` names), then, when `lookup` is
/// given, looks it up at the broker clock the entries leave (recorded in the journal, as the
/// explorer records its own lookups).
pub fn rebuild(
    source: Source,
    scenario: Scenario,
    entries: &[Entry],
    lookup: Option<LookupTarget>,
) -> Result<Rebuilt, RenderError> {
    let mut session = Session::new(source, scenario);
    let mut out_lookup = None;
    let mut happened = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let replayed = session
            .replay_entry(i, entry, &mut |_| {})
            .map_err(|e| RenderError::Replay(e.to_string()))?;
        let config = session.runner().partition().config();
        match replayed {
            Replayed::Step(Ok(r)) | Replayed::Command(r) => {
                happened = narrate::step(&r, config)
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
            }
            Replayed::Step(Err(e)) => return Err(RenderError::Replay(e.to_string())),
            Replayed::Lookup(r) => out_lookup = r.ok(),
        }
    }
    if let Some(target) = lookup {
        let now = session.runner().now().0;
        let spec = target
            .resolve(now)
            .ok_or_else(|| RenderError::Lookup("the time is out of range".into()))?;
        match session.lookup(spec) {
            Ok(l) => out_lookup = Some(l),
            Err(e) => return Err(RenderError::Lookup(e.message)),
        }
    }
    Ok(Rebuilt {
        session,
        lookup: out_lookup,
        happened,
    })
}
