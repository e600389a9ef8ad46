//! Scenario files (see docs/scenarios.md): parsing and replay, from `&str` to a report.
