//! Batch files of IcoSoKu instances, one per line (shared/instances/icosoku/README.md):
//! `caps[<TAB>faces<TAB>tiles[<TAB>rotations]]`.

use std::path::Path;

use super::instance_file::{fixed_from, pegs_instance};
use super::{InputError, read_text};
use crate::model::Instance;

/// One instance of a batch, with the line it came from.
#[derive(Debug)]
pub struct BatchItem {
    pub line: usize,
    pub instance: Instance,
}

pub fn read_batch(path: &Path) -> Result<Vec<BatchItem>, InputError> {
    let text = read_text(path)?;
    parse_batch(&path.display().to_string(), &text)
}

pub fn parse_batch(file: &str, text: &str) -> Result<Vec<BatchItem>, InputError> {
    let mut items = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let instance = parse_line(line).map_err(|m| InputError::new(file, Some(i + 1), m))?;
        items.push(BatchItem { line: i + 1, instance });
    }
    Ok(items)
}

/// Parses one batch line into an IcoSoKu instance; the error says what is wrong.
pub fn parse_line(line: &str) -> Result<Instance, crate::input::Problem> {
    let cols: Vec<&str> = line.split('\t').collect();
    if cols.len() > 4 || cols.len() == 2 {
        return Err(format!("expected 1, 3 or 4 tab-separated columns, found {}", cols.len()).into());
    }
    let mut inst = pegs_instance(cols[0]).map_err(|e| e.message)?;
    inst.source = format!("batch line {line:?}");
    if cols.len() >= 3 {
        let faces: Vec<&str> = cols[1].split_whitespace().collect();
        let tiles: Vec<&str> = cols[2].split_whitespace().collect();
        let rots: Vec<&str> = cols.get(3).map(|c| c.split_whitespace().collect()).unwrap_or_default();
        if faces.len() != tiles.len() || (cols.len() == 4 && rots.len() != faces.len()) {
            return Err(format!(
                "{} fixed faces, {} tiles and {} rotations do not match",
                faces.len(),
                tiles.len(),
                if cols.len() == 4 { rots.len() } else { faces.len() }
            )
            .into());
        }
        for (k, (f, t)) in faces.iter().zip(&tiles).enumerate() {
            let tile: i64 = t.parse().map_err(|_| format!("tile {t:?} is not an integer"))?;
            let rotation = match rots.get(k) {
                None | Some(&"-") => None,
                Some(r) => Some(
                    r.parse::<i64>()
                        .map_err(|_| format!("rotation {r:?} is not 0, 1, 2 or -"))?,
                ),
            };
            let names = inst.variant.split_face_string(f);
            inst.fixed
                .push(fixed_from(&inst.variant, inst.tiles.len(), &names, tile, rotation)?);
        }
    }
    Ok(inst)
}
