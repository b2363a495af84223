//! Pictures of instances and solutions: the variant unfolded into a flat net (`net`), drawn as
//! SVG (`svg`). Works for every variant; nothing is hand-placed.
//!
//! A [`Scene`] is what to draw, independent of where it came from: a classic instance with or
//! without a solution, or a pool answer. The renderer never looks at a solver or an encoding.
//!
//! An invalid solution is still drawn, marked `INVALID` with the reason in the title, and the
//! command exits 3 (as `check` does).

pub mod instruction;
pub mod net;
pub mod svg;

use crate::model::Placement;
use crate::model::{Instance, Tile, Variant, rotate};

/// A picture's title: "FILE, VARIANT: WHAT", with the file's name only.
pub fn titled(source: &str, variant: &str, what: &str) -> String {
    let name = std::path::Path::new(source)
        .file_name()
        .map_or(source.to_string(), |n| n.to_string_lossy().into_owned());
    format!("{name}, {variant}: {what}")
}

/// A tile as people read it: its corner weights clockwise, `(0,1,2)`.
pub fn tile_name(w: Tile) -> String {
    format!("({},{},{})", w[0], w[1], w[2])
}

/// What one face shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaceDraw {
    Empty,
    Tile {
        /// Short text drawn at the centre: the tile's weights as the text output names it,
        /// `(0,1,2)`, which is what a person holding the tiles can find.
        label: String,
        weights: Tile,
        /// The weight at each corner of the face, or `None` when the rotation is free (a fixed
        /// tile without rotation in an unsolved instance).
        corners: Option<Tile>,
        /// Pre-placed by the instance (drawn in another colour).
        fixed: bool,
    },
}

#[derive(Debug, Clone)]
pub struct Scene<'a> {
    pub variant: &'a Variant,
    pub title: String,
    /// Peg (capacity) per vertex; `None` where it is not known (free pegs, unsolved).
    pub pegs: Vec<Option<u64>>,
    pub faces: Vec<FaceDraw>,
    /// Draw weights as numbers even when dots would do.
    pub numbers: bool,
    /// A map of the vertex names instead of a puzzle: each disc shows its vertex's name
    /// alone, each face its vertex names in clockwise order; pegs and tiles are not drawn.
    pub labels: bool,
}

impl<'a> Scene<'a> {
    /// The empty instance: pegs, and the fixed tiles drawn in.
    pub fn instance(inst: &'a Instance, title: String) -> Scene<'a> {
        let mut faces = vec![FaceDraw::Empty; inst.variant.num_faces()];
        for f in &inst.fixed {
            let w = inst.tiles[f.tile];
            faces[f.face] = FaceDraw::Tile {
                label: tile_name(w),
                weights: w,
                corners: f.rotation.map(|r| rotate(w, r)),
                fixed: true,
            };
        }
        Scene {
            variant: &inst.variant,
            title,
            pegs: inst.capacities.iter().map(|&c| Some(c)).collect(),
            faces,
            numbers: false,
            labels: false,
        }
    }

    /// A solution of a classic instance: every face carries its tile at its corners.
    pub fn solution(inst: &'a Instance, placements: &[Placement], title: String) -> Scene<'a> {
        let mut s = Scene::instance(inst, title);
        for p in placements {
            let fixed = inst.fixed.iter().any(|f| f.face == p.face);
            s.faces[p.face] = FaceDraw::Tile {
                label: tile_name(inst.tiles[p.tile]),
                weights: inst.tiles[p.tile],
                corners: Some(p.corners),
                fixed,
            };
        }
        s
    }
}
