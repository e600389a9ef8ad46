//! The pieces of the `logtime` command that are tested on their own, and the differential
//! testing against Apache Kafka's storage code (`scripts/kafka-diff.sh`): a seeded scenario
//! generator ([`gen`]) and the comparison of a Logtime report with the Kafka oracle's
//! ([`compare`]); `logtime render`'s arguments, SVG and PNG ([`render`]). None of it is part of
//! the web build.

pub mod builtins;
pub mod compare;
pub mod gen;
pub mod oracle;
pub mod pack;
pub mod render;
pub mod schema;
pub mod terminal;
