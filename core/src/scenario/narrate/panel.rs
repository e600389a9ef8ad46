//! The explorer's panels, one name each for every place that names one: an explorer's
//! `panels` option, a lesson's `panel:` targets and markup links (`[the lookup](panel:lookup)`
//! gives a [`super::Mention::Panel`]). The narrator owns the type because a sentence carries
//! it; the explorer and the lesson engine use this one, so the narrator depends on neither.

/// A panel of the explorer, by its documented key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Panel {
    /// The partition view: segments and records.
    Partition,
    /// The offset-for-time lookup and its trace.
    Lookup,
    /// The retention walk, its verdicts and the remedies.
    Retention,
    /// The "What happened" list of narrated events.
    Log,
    /// The producer: send a batch.
    Producer,
    /// The Kafka version and the topic and broker configs.
    Config,
    /// The timestamp chart: each record's timestamp against its offset.
    Chart,
    /// The disk chart: the partition's size over broker time.
    Disk,
    /// Importing a real partition, and the inspection of an imported one.
    Import,
    /// The clock bar: play, pause, step, the scrubber.
    Clock,
}

impl Panel {
    /// Every panel, in the explorer's reading order.
    pub const ALL: [Panel; 10] = [
        Panel::Partition,
        Panel::Lookup,
        Panel::Retention,
        Panel::Log,
        Panel::Producer,
        Panel::Config,
        Panel::Chart,
        Panel::Disk,
        Panel::Import,
        Panel::Clock,
    ];

    /// Its key: `partition`, `lookup`, `retention`, `log`, `producer`, `config`, `chart`,
    /// `disk`, `import`, `clock`.
    pub fn key(self) -> &'static str {
        match self {
            Panel::Partition => "partition",
            Panel::Lookup => "lookup",
            Panel::Retention => "retention",
            Panel::Log => "log",
            Panel::Producer => "producer",
            Panel::Config => "config",
            Panel::Chart => "chart",
            Panel::Disk => "disk",
            Panel::Import => "import",
            Panel::Clock => "clock",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_panel_reads_back_from_its_key() {
        for (i, p) in Panel::ALL.into_iter().enumerate() {
            // The explorer's sets of panels are bits by declaration order.
            assert_eq!(p as usize, i);
            assert_eq!(Panel::parse(p.key()), Ok(p));
        }
        let e = Panel::parse("graph").unwrap_err();
        assert!(
            e.contains("\"graph\"") && e.contains("disk, import, clock"),
            "{e}"
        );
    }
}
