//! Polyhedra (variants) from their TOML text or built in by name, and instances read from
//! memory with one: what a program that must not read the disk (`sokuc serve`) builds on.

use super::instance::Instance;
use crate::error::Error;
use crate::input::variant_file::{Variants, parse_variant, resolve_variant};

/// A polyhedron with triangular faces, the playing field of a 3SoKu puzzle: named vertices
/// and faces, each face its three vertices clockwise seen from outside. Read one from a
/// variant file's text ([`Variant::parse`]) or take a built-in one ([`Variant::builtin`]).
///
/// ```
/// use sokuc::Variant;
///
/// let octa = Variant::builtin("octahedron")?;
/// assert_eq!((octa.vertices().len(), octa.faces().len()), (6, 8));
///
/// let text = "name = \"tetra\"\nvertices = [\"A\", \"B\", \"C\", \"D\"]\nfaces = [\"ABC\", \"ADB\", \"BDC\", \"CDA\"]\n";
/// let tetra = Variant::parse("tetra.toml", text, "tetra")?;
/// assert_eq!(tetra.name(), "tetra");
/// assert_eq!(tetra.find_face(&["B".into(), "C".into(), "A".into()]), Some(0));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub(crate) inner: crate::model::Variant,
}

impl Variant {
    /// Reads a variant file's text (TOML: `name`, `vertices`, `faces`) and checks that it is
    /// a closed, consistently oriented surface. `source` is what error messages call the
    /// text; `default_name` is the variant's name when the text gives none.
    ///
    /// # Errors
    ///
    /// [`Error::Input`], naming `source` and the line, when the text is not a valid variant.
    pub fn parse(source: &str, text: &str, default_name: &str) -> Result<Variant, Error> {
        Ok(Variant {
            inner: parse_variant(source, text, default_name)?,
        })
    }

    /// A built-in variant by its name: one of [`Variant::builtin_names`], or `bipyramid-N`
    /// for any N from 3 (within the limit on faces). Nothing is read from disk.
    ///
    /// # Errors
    ///
    /// [`Error::Input`], naming `variant`, when no built-in variant has that name, or a
    /// bipyramid's faces pass the limit.
    pub fn builtin(name: &str) -> Result<Variant, Error> {
        Ok(Variant {
            inner: resolve_variant(name, Variants::Given(None), ("variant", None))?,
        })
    }

    /// The names of the fixed built-in solids (`icosahedron`, `octahedron`, ...); every
    /// `bipyramid-N` (N >= 3) is built in too.
    pub fn builtin_names() -> Vec<&'static str> {
        crate::model::builtin::VARIANTS.iter().map(|(n, _)| *n).collect()
    }

    /// The variant's name, which an instance's `variant = "..."` gives.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The vertices' names, in the variant's order.
    pub fn vertices(&self) -> &[String] {
        &self.inner.vertices
    }

    /// Each face's three vertices (indices into [`Variant::vertices`]), clockwise seen from
    /// outside.
    pub fn faces(&self) -> &[[usize; 3]] {
        &self.inner.faces
    }

    /// The face with these three vertex names, in any rotation of its clockwise order.
    pub fn find_face(&self, names: &[String]) -> Option<usize> {
        self.inner.find_face(names)
    }
}

impl Instance {
    /// Reads an instance from `text` alone: of `kind` (one of [`crate::kinds`]) when given,
    /// else of the kind `name`'s extension names, else of the kind the text looks like. A
    /// 3SoKu instance's `variant = "..."` is a built-in one or `variant` by its name: no file
    /// is ever read, whatever the text names.
    ///
    /// ```
    /// use sokuc::{Instance, Variant};
    ///
    /// let text = "name = \"tetra\"\nvertices = [\"A\", \"B\", \"C\", \"D\"]\nfaces = [\"ABC\", \"ADB\", \"BDC\", \"CDA\"]\n";
    /// let tetra = Variant::parse("tetra.toml", text, "tetra")?;
    /// let puzzle = "variant = \"tetra\"\ntiles = [[1,1,1],[1,1,1],[1,1,1],[1,1,1]]\ncapacities = [3,3,3,3]\n";
    /// let instance = Instance::parse_with_variant(None, "page.toml", puzzle, Some(&tetra))?;
    /// assert_eq!(instance.kind(), "3soku");
    /// assert_eq!(instance.variant().map(|v| v.faces().len()), Some(4));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when `kind` is not one of the kinds (naming `kind`), the text is not
    /// a valid instance (naming `name` and the line), or it names a variant that is neither
    /// built in nor `variant`.
    pub fn parse_with_variant(
        kind: Option<&str>,
        name: &str,
        text: &str,
        variant: Option<&Variant>,
    ) -> Result<Instance, Error> {
        let puzzle = crate::registry::parse_in_memory(kind, name, text, variant.map(|v| &v.inner))?;
        Ok(Instance::from_puzzle(puzzle))
    }

    /// The polyhedron of a 3SoKu instance; `None` for the other kinds.
    pub fn variant(&self) -> Option<Variant> {
        self.soku().map(|i| Variant {
            inner: i.variant.clone(),
        })
    }

    /// A 3SoKu instance's tiles, in its order, each by the weights on its three corners;
    /// `None` for the other kinds.
    pub fn tiles(&self) -> Option<&[[u64; 3]]> {
        self.soku().map(|i| i.tiles.as_slice())
    }

    /// The step for a person holding a 3SoKu puzzle that places tile `tile` (from 0, in
    /// [`Instance::tiles`]) on face `face` with the weights `corners` on the face's vertices,
    /// as `sokuc solve` prints it: "Put tile (0,1,2) on the face with pegs 1, 5, 11 (ABC),
    /// turned so that 2 touches A". `None` for the other kinds, or a face or tile it does not
    /// have. A [`Placement`](crate::Placement) gives its `face`, `tile` and `weights`.
    ///
    /// ```
    /// use sokuc::{Instance, Options};
    ///
    /// let puzzle = Instance::icosoku("1,5,11,10,7,12,9,2,6,8,4,3")?;
    /// let outcome = puzzle.solve(&Options::new())?;
    /// let p = &outcome.placements().expect("solved")[0];
    /// let step = puzzle.instruction(p.face, p.tile, p.weights).expect("a face and a tile");
    /// assert!(step.starts_with("Put tile ("));
    /// # Ok::<(), sokuc::Error>(())
    /// ```
    pub fn instruction(&self, face: usize, tile: usize, corners: [u64; 3]) -> Option<String> {
        let inst = self.soku()?;
        if face >= inst.variant.num_faces() {
            return None;
        }
        let weights = inst.tiles.get(tile)?;
        Some(crate::render::instruction::sentence(
            &inst.variant,
            face,
            weights,
            &corners,
            &inst.capacities,
        ))
    }

    /// The variables an OPB or CNF instance declares (`None` for the puzzle kinds). Each of
    /// its answers lists a value for every one (`sokuc solve --format json`'s `model`), so
    /// this sizes an answer before any is found: a 20-byte file can declare 33 million.
    pub fn declared_variables(&self) -> Option<u32> {
        self.puzzle()
            .as_any()
            .downcast_ref::<crate::pb::PbFile>()
            .map(|p| p.num_vars)
    }

    fn soku(&self) -> Option<&crate::model::Instance> {
        self.puzzle().as_any().downcast_ref::<crate::model::Instance>()
    }
}
