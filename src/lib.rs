//! The `sokuc` command's own library: what the command holds beyond parsing its arguments,
//! kept in a library so that its tests can reach it. Today that is [`serve`], the server of
//! `sokuc serve` and its page. Programs that solve puzzles use the `sokuc` crate instead.

pub mod serve;
