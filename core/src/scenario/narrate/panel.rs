//! The explorer's panels, as narration names them: an authored sentence may point at one
//! (`panel:lookup` in a lesson's markup gives a [`super::Mention::Panel`]). The narrator owns
//! the type because a sentence carries it; the lesson engine parses its `panel:` targets into it,
//! so the narrator does not depend on lessons.

/// A panel of the explorer, by the key lessons use for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Panel {
    /// The partition view: segments and records.
    Partition,
    /// The producer: send a batch.
    Producer,
    /// The topic and broker configs.
    Config,
    /// The offset-for-time lookup and its trace.
    Lookup,
    /// The retention walk, its verdicts and the remedies.
    Retention,
    /// The disk-usage chart.
    Chart,
    /// The clock bar: play, pause, step.
    Clock,
    /// The "What happened" list of narrated events.
    Log,
}

impl Panel {
    /// Every panel, in the explorer's reading order.
    pub const ALL: [Panel; 8] = [
        Panel::Partition,
        Panel::Producer,
        Panel::Config,
        Panel::Lookup,
        Panel::Retention,
        Panel::Chart,
        Panel::Clock,
        Panel::Log,
    ];

    /// The key in lesson files: `partition`, `producer`, `config`, `lookup`, `retention`, `chart`,
    /// `clock`, `log`.
    pub fn key(self) -> &'static str {
        match self {
            Panel::Partition => "partition",
            Panel::Producer => "producer",
            Panel::Config => "config",
            Panel::Lookup => "lookup",
            Panel::Retention => "retention",
            Panel::Chart => "chart",
            Panel::Clock => "clock",
            Panel::Log => "log",
        }
    }

    /// The panel with this key.
    pub fn parse(key: &str) -> Result<Panel, String> {
        Panel::ALL
            .into_iter()
            .find(|p| p.key() == key)
            .ok_or_else(|| {
                format!(
                    "unknown panel {key:?} (expected one of: {})",
                    Panel::ALL.map(Panel::key).join(", ")
                )
            })
    }
}
