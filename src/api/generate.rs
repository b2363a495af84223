//! Puzzles made by sokuc: what `sokuc generate` writes.

use crate::error::Error;
use crate::generate::{self, SokuRequest};

/// A 3SoKu instance made at random or by a construction, as `sokuc generate 3soku` writes it:
/// a TOML instance file whose first line is the command that makes it again (the same seed
/// gives the same bytes) and whose last says what the construction promises. The file is
/// read back as itself before it is given.
///
/// By default a random solvable instance on the icosahedron with the IcoSoKu tiles; a
/// Partition reduction ([`SokuGenerator::from_partition`]) is solvable exactly when its
/// sizes split into two equal halves.
///
/// ```
/// use sokuc::{Instance, Options, SokuGenerator, Status};
///
/// let text = SokuGenerator::new(7).variant("octahedron").max_weight(3).text()?;
/// let made = Instance::parse("3soku", "made.toml", &text)?;
/// assert_eq!(made.solve(&Options::new())?.status(), Status::Sat);
/// // The same seed makes the same file.
/// assert_eq!(text, SokuGenerator::new(7).variant("octahedron").max_weight(3).text()?);
///
/// // 3 + 1 + 2 = 2 + 2 + 1 + 1: two equal halves, so solvable.
/// let split = SokuGenerator::new(1).from_partition("3,1,2,2,2,1,1").text()?;
/// let split = Instance::parse("3soku", "split.toml", &split)?;
/// assert_eq!(split.solve(&Options::new())?.status(), Status::Sat);
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SokuGenerator {
    seed: u64,
    variant: String,
    tiles: Option<String>,
    max_weight: u64,
    fixed: usize,
    fixed_rotation: bool,
    from_partition: Option<String>,
    random_partition: Option<usize>,
    max_size: u64,
    four_unsat: bool,
}

impl SokuGenerator {
    /// A random solvable instance on the icosahedron from this seed; the setters change it.
    pub fn new(seed: u64) -> SokuGenerator {
        SokuGenerator {
            seed,
            variant: "icosahedron".into(),
            tiles: None,
            max_weight: 3,
            fixed: 0,
            fixed_rotation: false,
            from_partition: None,
            random_partition: None,
            max_size: 20,
            four_unsat: false,
        }
    }

    /// The solid: a built-in variant's name or a variant file.
    pub fn variant(mut self, name_or_file: impl Into<String>) -> SokuGenerator {
        self.variant = name_or_file.into();
        self
    }

    /// The tiles: a built-in set (`icosoku`) or a list such as `"0,1,2;0,0,1;..."`. By
    /// default the IcoSoKu tiles on a 20-face solid, else random tiles.
    pub fn tiles(mut self, spec: impl Into<String>) -> SokuGenerator {
        self.tiles = Some(spec.into());
        self
    }

    /// Random tiles have weights `0..=weight` (3 by default).
    pub fn max_weight(mut self, weight: u64) -> SokuGenerator {
        self.max_weight = weight;
        self
    }

    /// This many tiles placed where the planted solution has them (none by default); with
    /// `keep_rotation`, each keeps its turn too, else the turn is left free.
    pub fn fixed(mut self, tiles: usize, keep_rotation: bool) -> SokuGenerator {
        self.fixed = tiles;
        self.fixed_rotation = keep_rotation;
        self
    }

    /// The Partition reduction for these sizes (`"3,1,1,2,2,1"`): a bipyramid that is
    /// solvable exactly when the sizes split into two equal halves.
    pub fn from_partition(mut self, sizes: impl Into<String>) -> SokuGenerator {
        self.from_partition = Some(sizes.into());
        self
    }

    /// The Partition reduction for `n` random sizes in `1..=max_size` (their total made
    /// even).
    pub fn random_partition(mut self, n: usize, max_size: u64) -> SokuGenerator {
        self.random_partition = Some(n);
        self.max_size = max_size;
        self
    }

    /// The "4-unsat" family: a solvable instance with one capacity raised by 1, and the fixed
    /// tiles (4 unless [`SokuGenerator::fixed`] says otherwise) placed with a free turn.
    pub fn four_unsat(mut self) -> SokuGenerator {
        self.four_unsat = true;
        self
    }

    /// The instance file.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] for settings out of range (the message names the command line's
    /// option), an unknown variant or tile set, or sizes that are not numbers.
    pub fn text(&self) -> Result<String, Error> {
        generate::soku(&SokuRequest {
            seed: self.seed,
            variant: &self.variant,
            tiles: self.tiles.as_deref(),
            max_weight: self.max_weight,
            fixed: self.fixed,
            fixed_rotation: self.fixed_rotation,
            from_partition: self.from_partition.as_deref(),
            random_partition: self.random_partition,
            max_size: self.max_size,
            four_unsat: self.four_unsat,
        })
    }
}

/// A Tricky Triple with exactly one solution, as `sokuc generate trickytriple` writes it: a
/// square grid whose givens are removed while the solution stays unique, the solution
/// verified before the grid is given.
///
/// ```
/// use sokuc::{Instance, Options, Status, TrickyGenerator};
///
/// let text = TrickyGenerator::new(6, 3).black(10).text()?;
/// let grid = Instance::parse("trickytriple", "made.txt", &text)?;
/// let outcome = grid.solve(&Options::new().unique(true))?;
/// assert_eq!((outcome.status(), outcome.unique()), (Status::Sat, Some(true)));
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct TrickyGenerator {
    size: usize,
    seed: u64,
    black: u32,
}

impl TrickyGenerator {
    /// A `size` x `size` grid from this seed, 10% of its cells black.
    pub fn new(size: usize, seed: u64) -> TrickyGenerator {
        TrickyGenerator { size, seed, black: 10 }
    }

    /// The percentage of black cells (at most 50).
    pub fn black(mut self, percent: u32) -> TrickyGenerator {
        self.black = percent;
        self
    }

    /// The grid file.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] when the size is not from 3 to 200 or more than half the cells
    /// would be black; [`Error::Internal`] if the made solution does not verify.
    pub fn text(&self) -> Result<String, Error> {
        generate::tricky(self.size, self.seed, self.black).map(|(text, _)| text)
    }
}
