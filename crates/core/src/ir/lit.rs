use std::fmt;
use std::ops::Not;

/// A Boolean variable, 0-based. DIMACS numbers it `index + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var(pub u32);

impl Var {
    pub fn index(self) -> usize {
        self.0 as usize
    }
    pub fn pos(self) -> Lit {
        Lit::new(self, true)
    }
    pub fn negative(self) -> Lit {
        Lit::new(self, false)
    }
    pub fn dimacs(self) -> i64 {
        self.0 as i64 + 1
    }
}

/// A literal: a variable or its negation, packed as `2 * var + negated`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit(u32);

impl Lit {
    pub fn new(var: Var, positive: bool) -> Lit {
        Lit(var.0 * 2 + u32::from(!positive))
    }
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }
    pub fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }
    /// DIMACS integer: `±(var + 1)`.
    pub fn dimacs(self) -> i64 {
        let v = self.var().dimacs();
        if self.is_positive() { v } else { -v }
    }
    #[cfg(any(test, feature = "testing"))]
    pub fn from_dimacs(x: i64) -> Lit {
        debug_assert!(x != 0);
        Lit::new(Var((x.unsigned_abs() - 1) as u32), x > 0)
    }
    /// The value of this literal under a full assignment of variables.
    pub fn eval(self, assignment: &[bool]) -> bool {
        assignment[self.var().index()] == self.is_positive()
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dimacs())
    }
}
