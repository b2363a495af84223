//! A sweep as the command line asks for it: what to sweep (a variant, or an instance file
//! whose variant, tiles and capacity multiset are swept), with optional tiles, capacities or
//! a pool, turned into a [`Spec`].

use std::path::Path;

use super::error::SweepError;
use super::spec::Spec;
use crate::error::Error;
use crate::input::{InputError, instance_file, lists, variant_file};

impl From<SweepError> for Error {
    fn from(e: SweepError) -> Error {
        match e {
            SweepError::Usage(m) => InputError::new("sweep", None, m).into(),
            SweepError::File { file, line, message } => {
                InputError::new(file, (line > 0).then_some(line), message).into()
            }
            SweepError::Output(o) => o.into(),
            other => Error::internal(other.to_string()),
        }
    }
}

/// Whether `text` is an instance (it has capacities) rather than a variant file.
fn is_instance(text: &str) -> bool {
    toml::from_str::<toml::Table>(text).is_ok_and(|t| t.contains_key("capacities"))
}

/// The spec of `sokuc sweep WHAT [--tiles T] [--caps C] [--pool P]`.
pub fn spec(what: &str, tiles: Option<&str>, caps: Option<&str>, pool: Option<&str>) -> Result<Spec, InputError> {
    let path = Path::new(what);
    let instance_text = match path.extension().is_some_and(|e| e == "toml") && path.is_file() {
        true => Some(crate::input::read_text(path)?).filter(|t| is_instance(t)),
        false => None,
    };
    let (variant, default_tiles, default_caps) = match instance_text {
        Some(text) => {
            let inst = instance_file::parse_instance(what, &text, path.parent())?;
            if !inst.fixed.is_empty() {
                return Err(InputError::new(what, None, "sweep does not take fixed tiles"));
            }
            (inst.variant, Some(inst.tiles), Some(inst.capacities))
        }
        None => {
            let v = variant_file::load_variant(what, None, ("command line", None))?;
            let tiles = (v.num_faces() == 20).then(|| crate::model::builtin::ICOSOKU_TILES.to_vec());
            (v, tiles, None)
        }
    };
    let caps: Vec<u64> = match caps {
        Some(c) => lists::numbers("--caps", c, "capacity")?,
        None => default_caps.unwrap_or_else(|| (1..=variant.num_vertices() as u64).collect()),
    };
    if caps.len() != variant.num_vertices() {
        return Err(InputError::new(
            "--caps",
            None,
            format!("{} capacities for {} vertices", caps.len(), variant.num_vertices()),
        ));
    }
    if let Some(p) = pool {
        let types = if p == "all24" {
            crate::model::pool::all_types()
        } else {
            lists::tiles("--pool", p)?
        };
        if types.len() < variant.num_faces() {
            return Err(InputError::new(
                "--pool",
                None,
                format!("{} types for {} faces", types.len(), variant.num_faces()),
            ));
        }
        let mut spec = Spec::new(variant, types, caps);
        spec.pool = true;
        return Ok(spec);
    }
    let tiles = match tiles {
        Some(t) => lists::tiles("--tiles", t)?,
        None => default_tiles.ok_or_else(|| {
            InputError::new(
                "--tiles",
                None,
                format!("{} has no default tile set: give --tiles", variant.name),
            )
        })?,
    };
    if tiles.len() != variant.num_faces() {
        return Err(InputError::new(
            "--tiles",
            None,
            format!("{} tiles for {} faces", tiles.len(), variant.num_faces()),
        ));
    }
    Ok(Spec::new(variant, tiles, caps))
}
