//! Lesson tests across modules: parsing, variants, answers, grading, play and every way
//! `logtime check` finds a lesson wrong.
