//! The reader's commands on the partition ([`CommandAction`]): each goes through the runner,
//! which moves its one clock, and is narrated; a refusal shows in the panel that asked.

use logtime_core::scenario::narrate::{self, Sentence};
use logtime_core::scenario::{ProduceOutcome, StepOutcome, StepReport, ViewMarks};
use logtime_model::{Command, ConfigKey, ConfigValue, Error, OffsetSpec, Timestamp};

use super::{CommandAction, Explorer};
use crate::model::producer::BatchSpec;

impl Explorer {
    /// Reduces a [`CommandAction`].
    pub(super) fn reduce_command(&mut self, a: CommandAction) {
        match a {
            CommandAction::Advance(ms) => {
                let to = Timestamp(self.now().0.saturating_add(ms));
                let error = self.apply_quietly(to, Command::Tick).err();
                self.set_command_error(error.map(|e| e.to_string()));
            }
            CommandAction::Produce(spec) => self.produce(&spec),
            CommandAction::SetConfig(name, value) => self.set_config(name, &value),
            CommandAction::SetVersion(version) => {
                let now = self.now();
                if let Err(e) = self.apply_quietly(now, Command::SetVersion { version }) {
                    self.config.make_mut().error = Some(("version".into(), e.to_string()));
                }
            }
            CommandAction::RunRetention => {
                let now = self.now();
                if let Err(e) = self.apply_quietly(now, Command::RunRetention) {
                    self.set_command_error(Some(e.to_string()));
                }
            }
            CommandAction::DeleteRecords { offset, then_check } => {
                self.delete_records(offset, then_check)
            }
            CommandAction::Remedy { name, value } => self.remedy(name, value),
            CommandAction::Lookup(spec) => self.lookup(spec),
        }
    }

    /// Applies a command at `now` through the runner (which moves its one clock) and narrates
    /// it. `None` when no scenario is loaded.
    pub(crate) fn apply(
        &mut self,
        now: Timestamp,
        cmd: Command,
    ) -> Option<Result<StepReport, Error>> {
        let mut marks = ViewMarks::default();
        let result = self
            .replay
            .make_mut()
            .apply(now, cmd, &mut |e| marks.see(e))?;
        if let Ok(report) = &result {
            self.absorb(marks, report);
            let mut heading = Sentence::plain("at ");
            heading.time(report.now);
            self.narrate(heading, report);
        }
        Some(result)
    }

    /// [`Explorer::apply`] when only an error matters.
    pub(crate) fn apply_quietly(&mut self, now: Timestamp, cmd: Command) -> Result<(), Error> {
        self.apply(now, cmd).map_or(Ok(()), |r| r.map(|_| ()))
    }

    pub(crate) fn set_command_error(&mut self, e: Option<String>) {
        if self.retention.command_error != e {
            self.retention.make_mut().command_error = e;
        }
    }

    pub(crate) fn produce(&mut self, spec: &BatchSpec) {
        let now = self.now();
        let records = match spec.records(now) {
            Ok(records) => records,
            Err(reason) => {
                self.set_command_error(Some(reason));
                return;
            }
        };
        match self.apply(now, Command::Produce { records }) {
            Some(Ok(report)) => {
                let shown = match report.outcome {
                    StepOutcome::Produce(
                        p @ (ProduceOutcome::Appended(_) | ProduceOutcome::Rejected(_)),
                    ) => Some(p),
                    _ => None,
                };
                self.producer.make_mut().set(shown);
            }
            Some(Err(e)) => self.set_command_error(Some(e.to_string())),
            None => {}
        }
    }

    pub(crate) fn set_config(&mut self, name: String, typed: &str) {
        let value = match ConfigKey::find(&name) {
            Some(key) => key.parse_input(typed),
            None => ConfigValue::Text(typed.trim().to_string()),
        };
        let now = self.now();
        let error = match self.apply_quietly(
            now,
            Command::SetConfig {
                name: name.clone(),
                value,
            },
        ) {
            Ok(()) => None,
            Err(e) => {
                self.say(Sentence::plain(format!("Config refused: {e}")));
                Some((name, e.to_string()))
            }
        };
        if self.config.error != error {
            self.config.make_mut().error = error;
        }
    }

    pub(crate) fn delete_records(&mut self, offset: i64, then_check: bool) {
        let now = self.now();
        let refused = match self.apply(now, Command::DeleteRecords { offset }) {
            Some(Ok(report)) => match report.outcome {
                StepOutcome::DeleteRecords { result: Err(e), .. } => Some(Error::DeleteRecords(e)),
                _ => None,
            },
            Some(Err(e)) => Some(e),
            None => return,
        };
        self.set_command_error(refused.as_ref().map(|e| e.to_string()));
        if refused.is_none() && then_check {
            let _ = self.apply_quietly(now, Command::RunRetention);
        }
    }

    pub(crate) fn remedy(&mut self, name: String, value: i64) {
        let now = self.now();
        let set = Command::SetConfig {
            name,
            value: ConfigValue::Number(value),
        };
        match self.apply_quietly(now, set) {
            Ok(()) => {
                let _ = self.apply_quietly(now, Command::RunRetention);
            }
            Err(e) => self.set_command_error(Some(e.to_string())),
        }
    }

    pub(crate) fn lookup(&mut self, spec: OffsetSpec) {
        let Some(result) = self.replay.make_mut().lookup(spec) else {
            return;
        };
        self.show_lookup(spec, result, true);
    }

    pub(crate) fn show_lookup(
        &mut self,
        spec: OffsetSpec,
        result: Result<logtime_model::Lookup, logtime_model::LookupError>,
        narrate: bool,
    ) {
        if narrate {
            let mut line = Sentence::plain("at ");
            line.time(self.now())
                .capitalize()
                .text(": ")
                .append(narrate::lookup(spec, &result));
            self.say(line);
        }
        let panel = self.lookup.make_mut();
        let refused = result.is_err();
        panel.show(result);
        if refused {
            panel.result = None;
        }
    }
}
