//! Kakuro checker, written from the rules: it scans the grid for runs itself rather than
//! using the front-end's run list.

// Grids are indexed by (row, column) throughout; index loops read better here.
#![allow(clippy::needless_range_loop)]

use crate::kakuro::{Cell, Kakuro};
use crate::puzzle::Invalid;

pub fn verify(k: &Kakuro, grid: &[Vec<Option<u8>>]) -> Result<(), Invalid> {
    if grid.len() != k.rows || grid.iter().any(|r| r.len() != k.cols) {
        return Err("the grid has the wrong size".into());
    }
    for r in 0..k.rows {
        for c in 0..k.cols {
            match (k.cells[r][c], grid[r][c]) {
                (Cell::White(given), Some(d)) => {
                    if !(1..=9).contains(&d) {
                        return Err(format!("r{}c{}: {d} is not a digit 1-9", r + 1, c + 1).into());
                    }
                    if given.is_some_and(|g| g != d) {
                        return Err(format!("r{}c{}: the given digit is changed", r + 1, c + 1).into());
                    }
                }
                (Cell::White(_), None) => return Err(format!("r{}c{}: white cell left empty", r + 1, c + 1).into()),
                (_, Some(_)) => return Err(format!("r{}c{}: a digit in a black cell", r + 1, c + 1).into()),
                (_, None) => {}
            }
        }
    }
    for r in 0..k.rows {
        for c in 0..k.cols {
            let Cell::Clue { down, across } = k.cells[r][c] else {
                continue;
            };
            for (sum, dr, dc) in [(across, 0, 1), (down, 1, 0)] {
                let Some(sum) = sum else { continue };
                let mut digits = Vec::new();
                let (mut rr, mut cc) = (r + dr, c + dc);
                while rr < k.rows && cc < k.cols {
                    match grid[rr][cc] {
                        Some(d) => digits.push(d),
                        None => break,
                    }
                    rr += dr;
                    cc += dc;
                }
                let total: u32 = digits.iter().map(|&d| d as u32).sum();
                if total != sum {
                    return Err(format!("clue r{}c{}: the run adds up to {total}, not {sum}", r + 1, c + 1).into());
                }
                let mut seen = [false; 10];
                for &d in &digits {
                    if std::mem::replace(&mut seen[d as usize], true) {
                        return Err(format!("clue r{}c{}: digit {d} repeats in the run", r + 1, c + 1).into());
                    }
                }
            }
        }
    }
    Ok(())
}
