//! Plain, natively tested maths for the explorer: formatting, the partition viewport (zoom and
//! pan), aggregation of records into density bars and the canvas scene, the lookup's marks, the
//! charts' samples, the playback timeline and building a producer's batch. No Kafka logic lives
//! here: every Kafka number comes from `logtime-core` events, verdicts and traces.

pub mod chart;
pub mod density;
pub mod disk;
pub mod format;
pub mod import;
pub mod marks;
pub mod moment;
pub mod producer;
pub mod progress;
pub mod scene;
pub mod stream_lane;
pub mod timeline;
pub mod viewport;
