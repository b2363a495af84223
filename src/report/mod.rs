//! Output for people (text) and programs (JSON, spec §4).

pub mod instruction;
pub mod json;
pub mod text;
