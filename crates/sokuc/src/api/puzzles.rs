//! A 3SoKu instance built in code.

use std::fmt::Write as _;

use super::instance::Instance;
use crate::error::Error;

/// A 3SoKu instance built in code: a built-in solid, its tiles, a peg for every vertex,
/// and tiles already placed. [`Soku::build`] checks it as an instance file is checked.
///
/// ```
/// use sokuc::{Options, Soku, Status};
///
/// // The octahedron: eight tiles, six pegs (vertices A to F).
/// let octa = Soku::new("octahedron")
///     .tiles(&[[0, 0, 1], [0, 1, 2], [1, 1, 1], [0, 2, 1], [2, 2, 0], [0, 0, 3], [1, 2, 3], [0, 1, 1]])
///     .pegs(&[3, 6, 6, 3, 5, 2])
///     .build()?;
/// let outcome = octa.solve(&Options::new())?;
/// assert_eq!(outcome.status(), Status::Sat);
/// let placements = outcome.placements().expect("a solution");
/// assert_eq!(placements.len(), 8);
/// // Every vertex carries its peg.
/// let mut sums = [0; 6];
/// for p in placements {
///     for (v, w) in p.vertices.iter().zip(p.weights) {
///         sums[*v] += w;
///     }
/// }
/// assert_eq!(sums, [3, 6, 6, 3, 5, 2]);
/// # Ok::<(), sokuc::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Soku {
    variant: String,
    tiles: Option<Vec<[u64; 3]>>,
    tile_set: Option<String>,
    pegs: Vec<u64>,
    fixed: Vec<(usize, usize, Option<u8>)>,
}

impl Soku {
    /// A puzzle on a built-in solid: `tetrahedron`, `octahedron`, `icosahedron`,
    /// `snub-disphenoid`, `triaugmented-triangular-prism`, `gyroelongated-square-bipyramid`
    /// or `bipyramid-N` (N at least 3).
    pub fn new(variant: &str) -> Soku {
        Soku {
            variant: variant.to_string(),
            tiles: None,
            tile_set: None,
            pegs: Vec::new(),
            fixed: Vec::new(),
        }
    }

    /// IcoSoKu: the icosahedron with the game's twenty tiles and these twelve pegs.
    pub fn icosoku(pegs: &[u64]) -> Soku {
        Soku::new("icosahedron").tile_set("icosoku").pegs(pegs)
    }

    /// The tiles, one per face, each as its three corner weights clockwise.
    pub fn tiles(mut self, tiles: &[[u64; 3]]) -> Soku {
        self.tiles = Some(tiles.to_vec());
        self.tile_set = None;
        self
    }

    /// A built-in tile set by name (`icosoku`: the game's twenty tiles).
    pub fn tile_set(mut self, name: &str) -> Soku {
        self.tile_set = Some(name.to_string());
        self.tiles = None;
        self
    }

    /// The peg of every vertex, in the variant's vertex order (A, B, ...).
    pub fn pegs(mut self, pegs: &[u64]) -> Soku {
        self.pegs = pegs.to_vec();
        self
    }

    /// A tile already on a face (both from 0), turned `rotation` times clockwise, or any
    /// way when `None`.
    pub fn fixed(mut self, face: usize, tile: usize, rotation: Option<u8>) -> Soku {
        self.fixed.push((face, tile, rotation));
        self
    }

    /// The instance, checked as an instance file is: the solid exists, there is a tile for
    /// every face and a peg for every vertex, and fixed tiles name real faces and tiles.
    ///
    /// # Errors
    ///
    /// [`Error::Input`] naming what is wrong.
    pub fn build(&self) -> Result<Instance, Error> {
        let source = format!("a {} puzzle built in code", self.variant);
        let mut text = self.toml(&[]);
        if !self.fixed.is_empty() {
            // Fixed tiles name their face by its vertices, which only the solid knows.
            let plain = crate::registry::parse("3soku", &source, &text)?;
            let inst = plain
                .as_any()
                .downcast_ref::<crate::model::Instance>()
                .ok_or_else(|| Error::internal("a 3soku instance of another type"))?;
            let mut faces = Vec::new();
            for &(face, _, _) in &self.fixed {
                let Some(vs) = inst.variant.faces.get(face) else {
                    return Err(Error::Input(crate::input::InputError::new(
                        source,
                        None,
                        format!(
                            "face {face} is not a face of the {} (it has {})",
                            self.variant,
                            inst.variant.faces.len()
                        ),
                    )));
                };
                faces.push(
                    vs.iter()
                        .map(|&v| inst.variant.vertices[v].clone())
                        .collect::<Vec<_>>()
                        .concat(),
                );
            }
            text = self.toml(&faces);
        }
        Ok(Instance::from_puzzle(crate::registry::parse("3soku", &source, &text)?))
    }

    /// The instance file's TOML, with each fixed tile's face named.
    fn toml(&self, faces: &[String]) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "variant = {:?}", self.variant);
        match (&self.tiles, &self.tile_set) {
            (Some(tiles), _) => {
                let list: Vec<String> = tiles
                    .iter()
                    .map(|t| format!("[{}, {}, {}]", t[0], t[1], t[2]))
                    .collect();
                let _ = writeln!(s, "tiles = [{}]", list.join(", "));
            }
            (None, Some(set)) => {
                let _ = writeln!(s, "tiles = {set:?}");
            }
            (None, None) => {}
        }
        let pegs: Vec<String> = self.pegs.iter().map(u64::to_string).collect();
        let _ = writeln!(s, "capacities = [{}]", pegs.join(", "));
        for (name, &(_, tile, rotation)) in faces.iter().zip(&self.fixed) {
            let _ = writeln!(s, "\n[[fixed]]\nface = {name:?}\ntile = {tile}");
            if let Some(r) = rotation {
                let _ = writeln!(s, "rotation = {r}");
            }
        }
        s
    }
}
