//! Author mode tests.
