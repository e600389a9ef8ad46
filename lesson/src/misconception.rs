//! The rules a wrong answer misses. [`crate::Question::grade`] classifies a wrong answer into one
//! [`Misconception`] and teaches its rule in core's words (or the author's, from the question's
//! `wrong` object), so that feedback explains the learner's own choice without naming the right
//! one.

use logtime_core::scenario::narrate::Sentence;

/// A class of wrong answer, by the rule it misses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Misconception {
    /// Picked a segment the check deletes as the one that pins retention.
    DeletedSegment,
    /// Picked (or struck) a segment that is kept only because the walk stopped before it.
    BehindPinning,
    /// Picked the active segment as the one that pins retention.
    ActiveSegment,
    /// Struck a segment whose first record is old enough but whose largest timestamp is not.
    FirstStamp,
    /// Struck a segment the check keeps, old enough by no stamp.
    KeptStruck,
    /// Left out segments or records the check deletes.
    MissedDeleted,
    /// Struck part of a segment, as if retention deleted records one by one.
    PartialSegment,
    /// Read a lookup by time as "only records stamped after T", skipping one stamped exactly T.
    StrictlyAfter,
    /// Picked the record whose stamp is closest to T rather than the first in offset order.
    ClosestStamp,
    /// Picked a record stamped before the lookup's target.
    BeforeTarget,
    /// Picked a record in a segment the broker does not search.
    OtherSegment,
    /// Answered that the lookup finds nothing when it finds a record.
    ExpectsNothing,
    /// Picked an offset that holds no record.
    NoRecord,
    /// Misread what a special lookup (`earliest`, `latest`, `max-timestamp`) returns.
    SpecMeaning,
    /// Typed an offset no segment starts at.
    NotASegment,
    /// Gave a value in nanoseconds where the config takes milliseconds.
    NanosForMillis,
    /// Gave a value in seconds where the config takes milliseconds.
    SecondsForMillis,
    /// A value outside the config's valid range.
    InvalidValue,
    /// A value so small the batch that must be accepted is rejected.
    ValueTooSmall,
    /// A value so large the batch that must be rejected is accepted.
    ValueTooLarge,
    /// Named an error the broker does not raise for this action.
    WrongError,
    /// Answered that the broker accepts an action it refuses.
    ExpectsAccept,
    /// Struck a record the stream processor counts in time.
    StruckOnTime,
    /// Left out records the stream processor drops as late.
    MissedLate,
    /// Picked a record whose read does not close the window.
    WrongCloser,
}

impl Misconception {
    /// Every class, in the order of the docs.
    pub const ALL: [Misconception; 25] = [
        Misconception::DeletedSegment,
        Misconception::BehindPinning,
        Misconception::ActiveSegment,
        Misconception::FirstStamp,
        Misconception::KeptStruck,
        Misconception::MissedDeleted,
        Misconception::PartialSegment,
        Misconception::StrictlyAfter,
        Misconception::ClosestStamp,
        Misconception::BeforeTarget,
        Misconception::OtherSegment,
        Misconception::ExpectsNothing,
        Misconception::NoRecord,
        Misconception::SpecMeaning,
        Misconception::NotASegment,
        Misconception::NanosForMillis,
        Misconception::SecondsForMillis,
        Misconception::InvalidValue,
        Misconception::ValueTooSmall,
        Misconception::ValueTooLarge,
        Misconception::WrongError,
        Misconception::ExpectsAccept,
        Misconception::StruckOnTime,
        Misconception::MissedLate,
        Misconception::WrongCloser,
    ];

    /// The key in a question's `wrong` object.
    pub fn key(self) -> &'static str {
        use Misconception::*;
        match self {
            DeletedSegment => "deleted_segment",
            BehindPinning => "behind_pinning",
            ActiveSegment => "active_segment",
            FirstStamp => "first_stamp",
            KeptStruck => "kept_struck",
            MissedDeleted => "missed_deleted",
            PartialSegment => "partial_segment",
            StrictlyAfter => "strictly_after",
            ClosestStamp => "closest_stamp",
            BeforeTarget => "before_target",
            OtherSegment => "other_segment",
            ExpectsNothing => "expects_nothing",
            NoRecord => "no_record",
            SpecMeaning => "spec_meaning",
            NotASegment => "not_a_segment",
            InvalidValue => "invalid_value",
            NanosForMillis => "nanos_for_millis",
            SecondsForMillis => "seconds_for_millis",
            ValueTooSmall => "value_too_small",
            ValueTooLarge => "value_too_large",
            WrongError => "wrong_error",
            ExpectsAccept => "expects_accept",
            StruckOnTime => "struck_on_time",
            MissedLate => "missed_late",
            WrongCloser => "wrong_closer",
        }
    }

    /// The class with this key.
    pub fn parse(key: &str) -> Result<Misconception, String> {
        Misconception::ALL
            .into_iter()
            .find(|m| m.key() == key)
            .ok_or_else(|| {
                format!(
                    "unknown class of wrong answer {key:?} (expected one of: {})",
                    Misconception::ALL.map(Misconception::key).join(", ")
                )
            })
    }

    /// A short label for a trainer's table, e.g. `picked a segment behind the pinning one`.
    pub fn label(self) -> &'static str {
        use Misconception::*;
        match self {
            DeletedSegment => "picked a segment the check deletes",
            BehindPinning => "picked a segment kept behind the pinning one",
            ActiveSegment => "picked the active segment",
            FirstStamp => "took a segment's first stamp for its largest",
            KeptStruck => "struck a segment that is not old enough",
            MissedDeleted => "left out segments the check deletes",
            PartialSegment => "struck part of a segment",
            StrictlyAfter => "read the lookup as only records after T",
            ClosestStamp => "picked the closest stamp, not the first offset",
            BeforeTarget => "picked a record stamped before T",
            OtherSegment => "picked a record in a segment the broker does not search",
            ExpectsNothing => "expected the lookup to find nothing",
            NoRecord => "picked an offset with no record",
            SpecMeaning => "misread what the special lookup returns",
            NotASegment => "named an offset no segment starts at",
            InvalidValue => "gave a value the config does not take",
            NanosForMillis => "confused nanoseconds and milliseconds",
            SecondsForMillis => "confused seconds and milliseconds",
            ValueTooSmall => "gave a value too small",
            ValueTooLarge => "gave a value too large",
            WrongError => "named an error the broker does not raise here",
            ExpectsAccept => "expected the broker to accept",
            StruckOnTime => "struck a record read in time",
            MissedLate => "left out records dropped as late",
            WrongCloser => "picked a record that does not close the window",
        }
    }

    /// Core's words for the rule the class misses. They teach the rule and never name an answer.
    pub fn teaching(self) -> Sentence {
        use Misconception::*;
        let mut s = Sentence::new();
        match self {
            DeletedSegment => s.text("a segment the check deletes pins nothing: what pins retention is a segment the check keeps while segments after it are old enough to go, or stamped in the future"),
            BehindPinning => s.text("retention walks the segments from the oldest and stops at the first one it keeps; a segment after that point is kept only because the walk never reached it, so it does not pin anything"),
            ActiveSegment => s.text("the active segment is where new records are written: it is kept because its records are young, and nothing behind it waits for it"),
            FirstStamp => s.text("retention compares a segment's largest timestamp with ").config("retention.ms").text(", not its first record's: one young record keeps the whole segment"),
            KeptStruck => s.text("a segment goes only when its largest timestamp is older than ").config("retention.ms").text(" and every segment before it goes too"),
            MissedDeleted => s.text("retention deletes every segment from the oldest up to the first one it keeps: look again at the segments you left"),
            PartialSegment => s.text("retention deletes whole segments, never single records: a segment goes with every record in it, or stays with every record in it"),
            StrictlyAfter => s.text("a lookup by time returns the first record stamped at or after T: a record stamped exactly T counts"),
            ClosestStamp => s.text("a lookup by time returns the first offset, in offset order, whose stamp is at or after T, not the record whose stamp is closest to T: stamps need not grow with offsets"),
            BeforeTarget => s.text("a record stamped before T is never what a lookup by time returns"),
            OtherSegment => s.text("the broker searches only the first segment whose largest timestamp is at or after T, and never reads the others"),
            ExpectsNothing => s.text("a lookup returns -1 only when no segment's largest timestamp is at or after T, or that segment holds no record stamped at or after T"),
            NoRecord => s.text("a lookup returns the offset of a record in the log: an offset with no record cannot be its answer"),
            SpecMeaning => s.text("earliest returns the log start offset, latest the high watermark, and max-timestamp the lowest offset carrying the largest timestamp, wherever it lies in offset order"),
            NotASegment => s.text("a segment is named by its base offset, the first offset it was created at: pick a segment card, or type the number it starts at"),
            InvalidValue => s.text("a config takes only values in its valid range: the broker refuses anything else before a batch is ever checked against it"),
            NanosForMillis => s.config("message.timestamp.*").text(" configs take milliseconds: a value a million times too large is a value in nanoseconds"),
            SecondsForMillis => s.config("message.timestamp.*").text(" configs take milliseconds: a value a thousand times too small is a value in seconds"),
            ValueTooSmall => s.text("at this value the broker refuses the batch that must get through: a larger value accepts more"),
            ValueTooLarge => s.text("at this value the broker accepts the batch that must be refused: a smaller value accepts less"),
            WrongError => s.text("each error code answers one rule the batch breaks: compare each record's stamp with the broker clock and the batch's size with the topic's limits"),
            ExpectsAccept => s.text("the broker checks every batch against the topic's timestamp and size limits before it appends anything"),
            StruckOnTime => s.text("a record is late only when its window has already closed when it is read: the window closes when stream time passes its end (plus any grace)"),
            MissedLate => s.text("a record is late whenever its window closed before it was read, however recent its own stamp looks: look again at the records you left"),
            WrongCloser => s.text("a window closes on the first read that moves stream time (the largest stamp read so far) past its end plus the grace period"),
        };
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_parses_from_its_key_and_an_unknown_key_lists_them() {
        for m in Misconception::ALL {
            assert_eq!(Misconception::parse(m.key()), Ok(m));
            assert!(!m.teaching().is_empty());
        }
        let e = Misconception::parse("nope").unwrap_err();
        assert!(e.starts_with("unknown class of wrong answer \"nope\" (expected one of: deleted_segment, behind_pinning"));
    }
}
