//! Puzzle models: what a 3SoKu game *is*, independent of files and solvers.

pub mod builtin;
pub mod instance;
pub mod limits;
pub mod placement;
pub mod pool;
pub mod tiles;
pub mod variant;

pub use instance::{Fixed, Instance};
pub use placement::Placement;
pub use tiles::{Tile, TileType, rotate};
pub use variant::{Variant, VariantError};
