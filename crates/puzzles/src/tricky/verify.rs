//! Tricky Triple checker, written from the rule: every window of three consecutive white
//! cells along a row, column or diagonal holds exactly two equal symbols.

// Grids are indexed by (row, column) throughout; index loops read better here.
#![allow(clippy::needless_range_loop)]

use crate::puzzle::Invalid;
use crate::tricky::{Cell, Tricky};

pub fn verify(t: &Tricky, grid: &[Vec<Option<u8>>]) -> Result<(), Invalid> {
    if grid.len() != t.rows || grid.iter().any(|r| r.len() != t.cols) {
        return Err("the grid has the wrong size".into());
    }
    for r in 0..t.rows {
        for c in 0..t.cols {
            match (t.cells[r][c], grid[r][c]) {
                (Cell::White(given), Some(s)) => {
                    if !(1..=3).contains(&s) {
                        return Err(format!("r{}c{}: {s} is not a symbol 1-3", r + 1, c + 1).into());
                    }
                    if given.is_some_and(|g| g != s) {
                        return Err(format!("r{}c{}: the given symbol is changed", r + 1, c + 1).into());
                    }
                }
                (Cell::White(_), None) => return Err(format!("r{}c{}: white cell left empty", r + 1, c + 1).into()),
                (Cell::Black, Some(_)) => return Err(format!("r{}c{}: a symbol in a black cell", r + 1, c + 1).into()),
                (Cell::Black, None) => {}
            }
        }
    }
    let at = |r: i64, c: i64| -> Option<u8> {
        if r < 0 || c < 0 || r >= t.rows as i64 || c >= t.cols as i64 {
            None
        } else {
            grid[r as usize][c as usize]
        }
    };
    for r in 0..t.rows as i64 {
        for c in 0..t.cols as i64 {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (Some(a), Some(b), Some(x)) = (at(r, c), at(r + dr, c + dc), at(r + 2 * dr, c + 2 * dc)) else {
                    continue;
                };
                let equal_pairs = (a == b) as u8 + (a == x) as u8 + (b == x) as u8;
                // Exactly two equal: one equal pair (all equal gives three, all different none).
                if equal_pairs != 1 {
                    return Err(format!(
                        "cells r{}c{} to r{}c{} hold {a},{b},{x}: not exactly two equal",
                        r + 1,
                        c + 1,
                        r + 2 * dr + 1,
                        c + 2 * dc + 1
                    )
                    .into());
                }
            }
        }
    }
    Ok(())
}
