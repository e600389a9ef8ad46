//! The one DeleteRecords offset recommended for an imported partition
//! (`import::recommended_delete_records`): the end of the segment that pins expired ones, the
//! same value `inspect` reports, and none when nothing is pinned (never the high watermark,
//! which would delete every record).

use logtime_core::import::{inspect, parse_dump, recommended_delete_records};
use logtime_model::{Config, KafkaVersion, Offset, Timestamp};

fn pinned_retention(clock: Timestamp) -> logtime_model::Partition {
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/import/dump/pinned-retention-closed-1x.txt"),
    )
    .unwrap();
    let text: String = bytes.iter().map(|&b| b as char).collect();
    parse_dump(&text)
        .unwrap()
        .into_import("clicks-0", Config::defaults(KafkaVersion::V4_0))
        .finish(clock, None)
        .unwrap()
        .partition
}

#[test]
fn the_recommendation_frees_the_pinning_segment_and_no_more() {
    let now = Timestamp(1_805_500_000_000); // 2027-03-20: 24 and 30 expired, 18 in the future
    let p = pinned_retention(now);
    let d = recommended_delete_records(&p, now).unwrap();
    assert_eq!(d.pinning_segment, Offset(18));
    assert_eq!(d.offset, Offset(24));
    assert!(d.offset < p.high_watermark());
    assert!(d.refused.is_none());
    // The same value the inspection reports (the CLI, the import panel).
    let imported_view = recommended_delete_records(&p, now);
    assert_eq!(imported_view.map(|d| d.offset), Some(Offset(24)));
}

#[test]
fn nothing_is_recommended_when_nothing_is_pinned() {
    // Before 24 and 30 expire, nothing is pinned.
    let now = Timestamp(1_803_940_000_000);
    assert!(recommended_delete_records(&pinned_retention(now), now).is_none());
}

#[test]
fn inspect_reports_the_same_offset() {
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/import/dump/pinned-retention-closed-1x.txt"),
    )
    .unwrap();
    let text: String = bytes.iter().map(|&b| b as char).collect();
    let now = Timestamp(1_805_500_000_000);
    let imported = parse_dump(&text)
        .unwrap()
        .into_import("clicks-0", Config::defaults(KafkaVersion::V4_0))
        .finish(now, None)
        .unwrap();
    let r = inspect(&imported, now, None);
    assert_eq!(
        r.delete_records.map(|d| d.offset),
        recommended_delete_records(&imported.partition, now).map(|d| d.offset)
    );
}
