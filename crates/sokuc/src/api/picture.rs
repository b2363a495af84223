//! A drawing of a polyhedron puzzle (`sokuc render`).

/// An SVG net of a polyhedron puzzle ([`Instance::picture`](crate::Instance::picture)): the
/// empty puzzle, a solution of it, or the map of its vertex names.
#[derive(Debug, Clone)]
pub struct Picture {
    pub(crate) svg: String,
    pub(crate) invalid: Option<String>,
}

impl Picture {
    pub(crate) fn of(p: crate::run::any::Picture) -> Picture {
        Picture {
            svg: p.svg,
            invalid: p.invalid,
        }
    }

    /// The SVG document.
    pub fn svg(&self) -> &str {
        &self.svg
    }

    /// Why the solution drawn is not a solution, when it is not (it is drawn all the same,
    /// so that one can see what is wrong).
    pub fn invalid(&self) -> Option<&str> {
        self.invalid.as_deref()
    }
}
