//! Tricky Triple `--unique` verdicts against brute force, on every backend of the build.
//! Backends with sessions answer `--unique` in one session (the second solve adds only the
//! no-good); the others solve twice. Either way, on small random and degenerate grids
//! (all cells given, none given, one row or column, all black, clashing givens), the
//! status, the verdict and the second solution must agree with an exhaustive count written
//! from the rule alone.

mod common;

use common::Rng;
use sokuc::backend::{self, SolveOptions, Status};
use sokuc::run::{self, RunOptions};
use sokuc::tricky::{Cell, Tricky};

/// Solutions of `t`, counted up to `cap`, by depth-first search over the white cells in
/// reading order; a window is checked once its last cell is filled.
fn count(t: &Tricky, cap: usize) -> usize {
    let cells: Vec<(usize, usize)> = (0..t.rows)
        .flat_map(|r| (0..t.cols).map(move |c| (r, c)))
        .filter(|&(r, c)| t.cells[r][c] != Cell::Black)
        .collect();
    let mut grid = vec![vec![0u8; t.cols]; t.rows];
    fn ok(t: &Tricky, g: &[Vec<u8>], r: usize, c: usize) -> bool {
        // Windows ending at (r, c): the two cells before it along each direction.
        for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
            let p = (r as i64 - dr, c as i64 - dc);
            let q = (r as i64 - 2 * dr, c as i64 - 2 * dc);
            let inside = |(a, b): (i64, i64)| a >= 0 && b >= 0 && (a as usize) < t.rows && (b as usize) < t.cols;
            if !inside(p) || !inside(q) {
                continue;
            }
            let (x, y) = (g[p.0 as usize][p.1 as usize], g[q.0 as usize][q.1 as usize]);
            if x == 0 || y == 0 {
                continue; // a black cell breaks the line
            }
            let v = g[r][c];
            let pairs = (x == y) as u8 + (x == v) as u8 + (y == v) as u8;
            if pairs != 1 {
                return false;
            }
        }
        true
    }
    fn go(t: &Tricky, cells: &[(usize, usize)], i: usize, g: &mut Vec<Vec<u8>>, cap: usize) -> usize {
        if i == cells.len() {
            return 1;
        }
        let (r, c) = cells[i];
        let mut n = 0;
        for s in 1..=3u8 {
            if let Cell::White(Some(given)) = t.cells[r][c]
                && given != s
            {
                continue;
            }
            g[r][c] = s;
            if ok(t, g, r, c) {
                n += go(t, cells, i + 1, g, cap - n);
                if n >= cap {
                    break;
                }
            }
        }
        g[r][c] = 0;
        n
    }
    go(t, &cells, 0, &mut grid, cap)
}

fn grid(rows: usize, cols: usize, f: impl Fn(usize, usize) -> Cell) -> Tricky {
    let mut t = Tricky::empty(rows, cols, &[]);
    for r in 0..rows {
        for c in 0..cols {
            t.cells[r][c] = f(r, c);
        }
    }
    t
}

/// Degenerate boards, then random ones: some black cells and some givens.
fn boards() -> Vec<Tricky> {
    let mut out = vec![
        grid(1, 1, |_, _| Cell::White(None)),
        grid(1, 5, |_, _| Cell::White(None)),
        grid(6, 1, |_, _| Cell::White(None)),
        grid(3, 3, |_, _| Cell::Black),
        grid(3, 3, |_, _| Cell::White(None)),
        grid(1, 3, |_, _| Cell::White(Some(2))),
        grid(1, 3, |_, c| Cell::White(Some(c as u8 + 1))),
        grid(1, 3, |_, c| Cell::White(if c < 2 { Some(1) } else { None })),
        grid(2, 3, |r, c| {
            if r == 1 {
                Cell::Black
            } else {
                Cell::White(Some([1, 1, 3][c]))
            }
        }),
        grid(3, 3, |r, c| {
            if r == 1 && c == 1 {
                Cell::Black
            } else {
                Cell::White(None)
            }
        }),
    ];
    let mut rng = Rng(0x07ea_71e5);
    for k in 0..60 {
        let rows = 1 + rng.below(4) as usize;
        let cols = 1 + rng.below(4) as usize;
        let black = rng.below(4);
        let given = [2, 5, 10][k % 3];
        out.push(grid(rows, cols, |_, _| Cell::White(None)));
        let t = out.last_mut().unwrap();
        for r in 0..rows {
            for c in 0..cols {
                if rng.below(10) < black {
                    t.cells[r][c] = Cell::Black;
                } else if rng.below(10) < given {
                    t.cells[r][c] = Cell::White(Some(1 + rng.below(3) as u8));
                }
            }
        }
    }
    // Fully given boards: every cell of a counted solution, so they are unique.
    for (rows, cols) in [(3, 3), (4, 4), (2, 4)] {
        let mut t = grid(rows, cols, |_, _| Cell::White(None));
        for r in 0..rows {
            for c in 0..cols {
                // The first symbol that still leaves a solution.
                for s in 1..=3 {
                    t.cells[r][c] = Cell::White(Some(s));
                    if count(&t, 1) == 1 {
                        break;
                    }
                }
            }
        }
        assert_eq!(count(&t, 2), 1, "a full grid has one solution");
        out.push(t);
    }
    out
}

#[test]
fn unique_verdicts_agree_with_brute_force_on_every_backend() {
    let boards = boards();
    let expected: Vec<usize> = boards.iter().map(|t| count(t, 2)).collect();
    for want in [0, 1, 2] {
        assert!(expected.contains(&want), "the boards include {want}-solution cases");
    }
    for name in backend::general() {
        let mut b = backend::by_name(name).unwrap();
        let opts = RunOptions {
            solve: SolveOptions::default(),
            unique: true,
            ..Default::default()
        };
        for (t, &n) in boards.iter().zip(&expected) {
            let board = t.render(&vec![vec![None; t.cols]; t.rows]);
            let a = run::solve(t, b.as_mut(), &opts).unwrap().answer;
            match n {
                0 => assert_eq!(a.status, Status::Unsat, "{name}\n{board}"),
                _ => {
                    assert_eq!(a.status, Status::Sat, "{name}\n{board}");
                    assert!(a.verified);
                    assert_eq!(a.unique, Some(n == 1), "{name}\n{board}");
                    let first = a.solution.as_ref().unwrap();
                    sokuc::tricky::verify::verify(t, first).unwrap();
                    match &a.second {
                        Some(second) => {
                            assert!(n >= 2);
                            assert_ne!(first, second, "{name}: the second solution is the first\n{board}");
                            sokuc::tricky::verify::verify(t, second).unwrap();
                        }
                        None => assert_eq!(n, 1, "{name}\n{board}"),
                    }
                }
            }
        }
    }
}
