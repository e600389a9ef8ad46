//! Where the explorer stands in the draft: the partition after a step is the one the explorer
//! shows once it has run the scenario steps up to it (notes, questions and tasks leave the
//! partition as it is), so an author who steps back records on the right state.

use super::error::AuthorError;
use super::{apply, edit, Authoring};
use crate::Item;

impl Authoring {
    /// How many scenario steps the explorer runs (on this draft, its default variant) to show
    /// the partition after step `after` (1-based; 0: before the first step). An error names a
    /// step the draft does not have, or why the draft cannot be replayed as it is.
    pub fn scenario_steps_to(&self, after: usize) -> Result<usize, AuthorError> {
        let steps = edit::steps(&self.doc)?.len();
        if after > steps {
            return Err(AuthorError::NoSuchStep {
                field: "after",
                step: after,
                steps,
            });
        }
        let c = apply::concrete(&self.doc)?;
        Ok(c.steps
            .iter()
            .take(after)
            .filter(|s| matches!(s.item, Item::Model { .. }))
            .count())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{AuthorCommand, Start};
    use super::*;
    use logtime_core::scenario::Entry;
    use logtime_model::batch::Record;
    use logtime_model::partition::Command;
    use logtime_model::units::Timestamp;

    /// 2027-03-12T09:00:00Z.
    const T: Timestamp = Timestamp(1_804_842_000_000);

    fn batch(a: &mut Authoring, ms_ago: i64) {
        let records = vec![Record::at(Timestamp(T.0 - ms_ago))];
        let e = Entry::Command {
            at: T,
            command: Command::Produce { records },
        };
        a.apply(T, AuthorCommand::Record(e)).unwrap();
    }

    fn drafted() -> Authoring {
        let start = Start::Empty {
            kafka: "4.0".into(),
            configs: vec![("retention.ms".into(), "1d".into())],
            start: T,
        };
        let mut a = Authoring::new(start).unwrap().0;
        for ago in [3, 2, 1] {
            batch(&mut a, ago * 86_400_000);
        }
        a
    }

    fn stamps(a: &Authoring) -> Vec<String> {
        a.value()["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                s.pointer("/produce/records/0/timestamp")
                    .map_or("note".into(), |t| t.to_string())
            })
            .collect()
    }

    #[test]
    fn a_recording_after_a_step_lands_right_after_it_and_the_next_follows_it() {
        let mut a = drafted();
        let ev = a.apply(T, AuthorCommand::RecordAfter(Some(2))).unwrap();
        assert_eq!(ev, vec![super::super::AuthorEvent::RecordingAt(Some(2))]);
        batch(&mut a, 0);
        assert_eq!(a.recording_at(), Some(3));
        batch(&mut a, 60_000);
        assert_eq!(
            stamps(&a),
            [
                "\"now-3d\"",
                "\"now-2d\"",
                "\"now\"",
                "\"now-1m\"",
                "\"now-1d\""
            ]
        );
        // Back at the end: the next recording is the last step.
        a.apply(T, AuthorCommand::RecordAfter(None)).unwrap();
        batch(&mut a, 0);
        assert_eq!(stamps(&a).last().unwrap(), "\"now\"");
        assert_eq!(a.recording_at(), None);
    }

    #[test]
    fn recording_after_a_step_the_draft_lacks_is_refused_and_changes_nothing() {
        let mut a = drafted();
        let e = a.apply(T, AuthorCommand::RecordAfter(Some(4))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "after: there is no step 4 (the lesson has 3 steps)"
        );
        assert_eq!(a.recording_at(), None);
    }

    #[test]
    fn the_explorer_runs_only_the_scenario_steps_up_to_a_step() {
        let mut a = drafted();
        let note = AuthorCommand::AddNote {
            at: 2,
            text: "a note".into(),
        };
        a.apply(T, note).unwrap();
        let runs: Vec<usize> = (0..=4).map(|k| a.scenario_steps_to(k).unwrap()).collect();
        assert_eq!(runs, [0, 1, 1, 2, 3]);
        assert_eq!(
            a.scenario_steps_to(5).unwrap_err().to_string(),
            "after: there is no step 5 (the lesson has 4 steps)"
        );
    }
}
