//! The integration tests: one binary (STYLE.md §3).

mod e2e;
mod letters;
mod mail;
mod rules;
mod store;
mod support;
mod templates;
