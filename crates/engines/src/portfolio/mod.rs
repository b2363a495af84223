//! The portfolio: `auto`, which picks engines for a formula by a fixed rule ([`auto`]), and
//! the coordinator that races several of them on one formula (`race/`), with who races
//! whom (`field.rs`) and the second opinion on a claimed optimum (`second_opinion.rs`).
//!
//! Dependencies run one way: the portfolio uses the engines (looked up through
//! [`super::engines`], never through the registry that holds `auto`) and the backend trait;
//! no engine uses anything of the portfolio.

pub mod auto;
mod field;
#[cfg(test)]
mod lies;
pub mod race;
mod second_opinion;
