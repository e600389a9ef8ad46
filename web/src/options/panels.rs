//! Which panels an explorer shows (`panels`).

use logtime_core::scenario::narrate::Panel;

/// The panels an explorer can show or leave out (`panels`), in display order: every
/// [`Panel`] but the clock bar, which shows whenever a scenario plays outside a lesson.
pub fn shown_panels() -> impl Iterator<Item = Panel> {
    Panel::ALL.into_iter().filter(|p| *p != Panel::Clock)
}

/// A set of panels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panels(u16);

impl Panels {
    /// Every panel.
    pub const ALL: Panels = Panels(((1 << Panel::ALL.len()) - 1) & !Panels::CLOCK);

    /// The clock bar's bit, never set (it is never left out).
    const CLOCK: u16 = 1 << (Panel::Clock as u16);

    /// The panel's bit.
    fn bit(p: Panel) -> u16 {
        (1 << (p as u16)) & !Panels::CLOCK
    }

    /// The given panels.
    pub fn of(panels: &[Panel]) -> Panels {
        Panels(panels.iter().fold(0, |acc, p| acc | Panels::bit(*p)))
    }

    /// Whether `p` is shown.
    pub fn has(self, p: Panel) -> bool {
        self.0 & Panels::bit(p) != 0
    }

    /// The names, space-separated, in display order (`all` for every panel).
    pub fn names(self) -> String {
        if self == Panels::ALL {
            return "all".into();
        }
        shown_panels()
            .filter(|p| self.has(*p))
            .map(Panel::key)
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub(super) fn parse(v: &str) -> Result<Panels, String> {
        let mut set = 0;
        for word in v
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            if word == "all" {
                set = Panels::ALL.0;
                continue;
            }
            let p = shown_panels().find(|p| p.key() == word).ok_or_else(|| {
                format!(
                    "unknown panel {word:?} (expected names from: {}, or all)",
                    shown_panels()
                        .map(Panel::key)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
            set |= Panels::bit(p);
        }
        if set == 0 {
            return Err("name at least one panel".into());
        }
        Ok(Panels(set))
    }
}

/// The panels an embed shows when the page names none: the partition and the narration, plus
/// the panels the scenario's steps use (a lookup step shows the lookup panel, a retention or
/// DeleteRecords step the retention panel, a config step the config panel, a batch written in
/// the wrong unit the producer's verdict).
pub fn default_embed_panels(scenario: &logtime_core::scenario::Scenario) -> Panels {
    use logtime_core::scenario::Step;
    let mut panels = vec![Panel::Partition, Panel::Log];
    for step in &scenario.steps {
        let p = match step {
            Step::Lookup(_) => Panel::Lookup,
            Step::Retention | Step::DeleteRecords(_) => Panel::Retention,
            Step::Config(_) => Panel::Config,
            // A producer's unit mistake: the scenario is about what the broker refuses.
            Step::Produce(b) if b.records.iter().any(|r| r.unit.is_some()) => Panel::Producer,
            _ => continue,
        };
        if !panels.contains(&p) {
            panels.push(p);
        }
    }
    Panels::of(&panels)
}
