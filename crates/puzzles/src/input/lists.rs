//! Lists given on the command line: tiles ("0,1,2;0,0,1" or a built-in set name) and
//! comma-separated numbers. Errors name the option.

use super::InputError;
use crate::model::tiles::Tile;

/// A built-in tile set name, or tiles as "a,b,c;a,b,c;...".
pub fn tiles(option: &str, s: &str) -> Result<Vec<Tile>, InputError> {
    if let Some(t) = crate::model::builtin::tile_set(s) {
        return Ok(t);
    }
    let bad = |m: String| InputError::new(option, None, m);
    s.split(';')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let w: Vec<u64> = t
                .split(',')
                .map(|x| {
                    x.trim()
                        .parse()
                        .map_err(|_| bad(format!("{x:?} is not a weight in tile {t:?}")))
                })
                .collect::<Result<_, _>>()?;
            <[u64; 3]>::try_from(w).map_err(|_| bad(format!("tile {t:?} needs three weights")))
        })
        .collect()
}

/// A comma-separated list of non-negative integers; `what` names one ("capacity").
pub fn numbers(option: &str, list: &str, what: &str) -> Result<Vec<u64>, InputError> {
    list.split(',')
        .map(|x| {
            x.trim()
                .parse()
                .map_err(|_| InputError::new(option, None, format!("{x:?} is not a {what}")))
        })
        .collect()
}
