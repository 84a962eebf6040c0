//! The integration tests: one binary (STYLE.md §3).

mod arbiter;
mod browser;
mod cli;
mod corpus;
mod daemon;
mod e2e;
mod faults;
mod fuzz;
mod import;
mod letters;
mod mail;
mod office;
mod rules;
mod scripts;
mod store;
mod support;
mod templates;
