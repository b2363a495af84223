//! When the search looks at the clock.
//!
//! A node costs about a microsecond on an IcoSoKu instance and several milliseconds on a
//! MIPLIB row over tens of thousands of groups, so a fixed count of nodes between looks
//! either costs the fast searches a clock read per node or lets the slow ones run past
//! their time limit by seconds (one look every 256 nodes overran a 60 s limit by more than
//! a second on nw04). The count between looks adapts instead: it shrinks when the last
//! stretch took long and grows, up to [`MAX_STEP`], when it was short.

use std::time::{Duration, Instant};

/// The most steps between two looks (the fixed count the search used before).
const MAX_STEP: u64 = 256;
/// A stretch longer than this makes the next one a quarter as long (in steps).
const SLOW: Duration = Duration::from_millis(2);
/// A stretch shorter than this makes the next one twice as long.
const FAST: Duration = Duration::from_micros(250);

/// Counts steps (nodes and failures) and says when to look at the clock.
#[derive(Clone, Debug)]
pub struct Pace {
    ticks: u64,
    next: u64,
    step: u64,
    last: Option<Instant>,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            ticks: 0,
            next: 1,
            step: 1,
            last: None,
        }
    }
}

impl Pace {
    /// Counts one step; `true` when the caller should look at the clock now.
    #[inline]
    pub fn due(&mut self) -> bool {
        self.ticks += 1;
        if self.ticks < self.next {
            return false;
        }
        let now = Instant::now();
        if let Some(last) = self.last {
            let took = now.saturating_duration_since(last);
            if took > SLOW {
                self.step = (self.step / 4).max(1);
            } else if took < FAST {
                self.step = (self.step * 2).min(MAX_STEP);
            }
        }
        self.last = Some(now);
        self.next = self.ticks + self.step;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_steps_are_looked_at_rarely_and_slow_ones_often() {
        let mut p = Pace::default();
        let looks = (0..100_000).filter(|_| p.due()).count();
        // Steps that take nothing: the count between looks doubles up to MAX_STEP.
        assert!(looks < 100_000 / 100, "{looks} looks in 100,000 quick steps");
        assert_eq!(p.step, MAX_STEP);
        // A search whose steps take 3 ms each from the start: every look finds the stretch
        // slow, so the step stays at one (a search that turns slow after a fast start still
        // finishes its current stretch of up to MAX_STEP steps first).
        let mut p = Pace::default();
        let mut looks = 0;
        for _ in 0..40 {
            std::thread::sleep(Duration::from_millis(3));
            looks += usize::from(p.due());
        }
        assert_eq!(p.step, 1);
        assert!(looks >= 30, "only {looks} looks in 40 slow steps");
    }
}
