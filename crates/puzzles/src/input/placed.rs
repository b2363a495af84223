//! The tiles a player has already put on a 3SoKu puzzle (`check --partial`), one per line,
//! in the words `solve` prints or shorter:
//!
//! ```text
//! Put tile (0,1,2) on the face with pegs 1, 5, 11 (ABC), turned so that 2 touches C.  [tile #6, rotation 0]
//! Put tile (1,1,1) on the face with pegs 8, 3, 4 (JLK), any way round.
//! ABC: (0,1,2), 2 touches C
//! ACD: tile #9, rotation 0
//! ```
//!
//! A line names a face, a tile and its turn. A person reads the sentence and a program the
//! bracket, so when a line has both they must say the same thing; and when a sentence names
//! pegs they must be this puzzle's. Every mistake is refused with the line it is on: a face
//! or tile that does not exist, a mirrored tile (tiles turn but never flip), a face or a
//! tile used twice, a weight that is not on the tile or a vertex that is not on the face.

use super::InputError;
use crate::model::{Instance, Tile, rotate};

/// One tile the player placed: on `face` (the variant's index), tile `tile` (0-based),
/// `corners[i]` the weight at the face's i-th vertex in the variant's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// 0-based face index in the variant's order.
    pub face: usize,
    /// 0-based index into the instance's tile list.
    pub tile: usize,
    /// The weight at each vertex of the face, in the variant's order of its vertices.
    pub corners: [u64; 3],
    /// The line of the file it was read from (1-based).
    pub line: usize,
}

/// Why a line cannot be read or placed, before the file and line are added.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Unread(String);

/// An [`Unread`] with a formatted message.
macro_rules! unread {
    ($($t:tt)*) => {
        Unread(format!($($t)*))
    };
}

impl From<String> for Unread {
    fn from(s: String) -> Unread {
        Unread(s)
    }
}

impl From<&str> for Unread {
    fn from(s: &str) -> Unread {
        Unread(s.to_string())
    }
}

/// How a line turns its tile.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Turn {
    /// "W touches V".
    Touches(u64, String),
    /// "any way round" (a tile whose three weights are equal).
    AnyWay,
    /// Nothing said.
    Unsaid,
}

/// What one line says, before it is resolved against the puzzle.
struct Said {
    face: String,
    weights: Option<Tile>,
    pegs: Option<Vec<u64>>,
    turn: Turn,
    /// `[tile #N, rotation R]`: 1-based tile, turns relative to the face as written.
    bracket: Option<(i64, i64)>,
}

/// Reads the placed tiles of `text` (the file `file`) on `inst`. Blank lines, comments
/// (`#`) and the other lines of `solve`'s text (its status and `verified:` lines) are
/// skipped, so a person can paste part of an answer.
///
/// # Errors
/// An [`InputError`] naming the line, for a line that cannot be read or that is not a legal
/// placement on this puzzle.
pub fn read_placed(file: &str, text: &str, inst: &Instance) -> Result<Vec<Placed>, InputError> {
    let mut said = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty()
            || line.starts_with('#')
            || ["sat ", "verified:", "unique", "not unique"]
                .iter()
                .any(|p| line.starts_with(p))
        {
            continue;
        }
        if line == "----------" || line == "==========" {
            break;
        }
        let s = parse_line(line).map_err(|m| InputError::new(file, Some(i + 1), m.0))?;
        said.push((i + 1, s));
    }
    resolve(file, &said, inst)
}

/// Splits one line into what it says.
fn parse_line(line: &str) -> Result<Said, Unread> {
    let (body, bracket) = match line.rsplit_once('[') {
        Some((b, tag)) => {
            let tag = tag.trim_end().strip_suffix(']').ok_or("a '[' without its ']'")?;
            (b.trim_end(), Some(parse_bracket(tag)?))
        }
        None => (line, None),
    };
    let body = body.trim_end().trim_end_matches('.').trim_end();
    if let Some(rest) = body.strip_prefix("Put tile ") {
        let (weights, rest) = parse_weights(rest)?;
        let rest = rest
            .trim_start()
            .strip_prefix("on the face with pegs ")
            .ok_or("expected \"on the face with pegs ...\" after the tile")?;
        let (pegs, rest) = rest
            .split_once(" (")
            .ok_or("expected the face's vertices in brackets after its pegs")?;
        let pegs: Vec<u64> = pegs
            .split(',')
            .map(|p| p.trim().parse::<u64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("the pegs {:?} are not numbers", pegs.trim()))?;
        let (face, rest) = rest.split_once(')').ok_or("the face's vertices lack their ')'")?;
        let rest = rest.trim_start().strip_prefix(',').unwrap_or(rest).trim();
        let turn = if rest.is_empty() {
            Turn::Unsaid
        } else if let Some(t) = rest.strip_prefix("turned so that ") {
            parse_touches(t)?
        } else {
            parse_turn(rest)?
        };
        return Ok(Said {
            face: face.trim().to_string(),
            weights: Some(weights),
            pegs: Some(pegs),
            turn,
            bracket,
        });
    }
    let Some((face, rest)) = body.split_once(':') else {
        return Err(match bracket {
            Some(_) => Unread::from("the bracket needs a face before it: \"ABC: [tile #6, rotation 0]\""),
            None => unread!(
                "cannot read {:?}: expected a line as `solve` prints it (\"Put tile ... on the face with pegs ...\"), or a face and a tile (\"ABC: (0,1,2), 2 touches C\" or \"ABC: tile #6, rotation 0\")",
                short(body)
            ),
        });
    };
    let rest = rest.trim();
    if rest.starts_with("tile #") {
        if bracket.is_some() {
            return Err("the tile is named twice on this line".into());
        }
        return Ok(Said {
            face: face.trim().to_string(),
            weights: None,
            pegs: None,
            turn: Turn::Unsaid,
            bracket: Some(parse_bracket(rest)?),
        });
    }
    if rest.is_empty() {
        if bracket.is_none() {
            return Err(unread!("no tile after the face {}", face.trim()));
        }
        return Ok(Said {
            face: face.trim().to_string(),
            weights: None,
            pegs: None,
            turn: Turn::Unsaid,
            bracket,
        });
    }
    let (weights, rest) = parse_weights(rest)?;
    let rest = rest.trim_start().strip_prefix(',').unwrap_or(rest).trim();
    let turn = if rest.is_empty() {
        Turn::Unsaid
    } else {
        parse_turn(rest)?
    };
    Ok(Said {
        face: face.trim().to_string(),
        weights: Some(weights),
        pegs: None,
        turn,
        bracket,
    })
}

fn short(s: &str) -> String {
    s.chars().take(60).collect()
}

/// `(a,b,c)` at the start of `s`, and what follows it.
fn parse_weights(s: &str) -> Result<(Tile, &str), Unread> {
    let inner = s
        .trim_start()
        .strip_prefix('(')
        .ok_or("expected the tile's weights, as (0,1,2)")?;
    let (inner, rest) = inner.split_once(')').ok_or("the tile's weights lack their ')'")?;
    let w: Vec<u64> = inner
        .split(',')
        .map(|x| x.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("the weights ({inner}) are not whole numbers"))?;
    match w[..] {
        [a, b, c] => Ok(([a, b, c], rest)),
        _ => Err(unread!("a tile has three weights, not {} ({inner})", w.len())),
    }
}

/// "turned so that W touches V", "W touches V" or "any way round".
fn parse_turn(s: &str) -> Result<Turn, Unread> {
    let s = s.strip_prefix("turned so that ").unwrap_or(s);
    if s == "any way round" {
        return Ok(Turn::AnyWay);
    }
    parse_touches(s)
}

fn parse_touches(s: &str) -> Result<Turn, Unread> {
    let bad = || {
        unread!(
            "cannot read the turn {:?}: expected \"W touches V\" (a weight of the tile and a vertex of the face) or \"any way round\"",
            short(s)
        )
    };
    let (w, v) = s.split_once(" touches ").ok_or_else(bad)?;
    let w: u64 = w.trim().parse().map_err(|_| bad())?;
    let v = v.trim();
    if v.is_empty() || v.contains(char::is_whitespace) {
        return Err(bad());
    }
    Ok(Turn::Touches(w, v.to_string()))
}

/// "tile #N, rotation R".
fn parse_bracket(s: &str) -> Result<(i64, i64), Unread> {
    let bad = || unread!("cannot read {:?}: expected \"tile #N, rotation R\"", short(s));
    let rest = s.trim().strip_prefix("tile #").ok_or_else(bad)?;
    let (n, r) = rest.split_once(", rotation ").ok_or_else(bad)?;
    let n: i64 = n.trim().parse().map_err(|_| bad())?;
    let r: i64 = r.trim().parse().map_err(|_| bad())?;
    Ok((n, r))
}

fn weights_text(w: &Tile) -> String {
    format!("({},{},{})", w[0], w[1], w[2])
}

/// Resolves every line against the puzzle: the lines that name their tile claim it first,
/// then the lines that give weights take an unclaimed tile of those weights.
fn resolve(file: &str, said: &[(usize, Said)], inst: &Instance) -> Result<Vec<Placed>, InputError> {
    let v = &inst.variant;
    let mut out: Vec<Placed> = Vec::with_capacity(said.len());
    let mut claimed: Vec<Option<usize>> = vec![None; inst.tiles.len()];
    let mut face_of: Vec<Option<usize>> = vec![None; v.num_faces()];
    // Pass 1: faces, turns, and the tiles named by number.
    let mut pending = Vec::new();
    for (line, s) in said {
        let at = |m: String| InputError::new(file, Some(*line), m);
        let names = v.split_face_string(&s.face);
        let f = v.find_face(&names).ok_or_else(|| {
            at(format!(
                "{} is not a face of {}{}",
                s.face,
                v.name,
                crate::input::instance_file::other_orientation(v, &names, ",")
            ))
        })?;
        if let Some(first) = face_of[f] {
            return Err(at(format!(
                "face {} already has a tile, on line {first}",
                v.face_label(f)
            )));
        }
        face_of[f] = Some(*line);
        // The face's vertices as written, and where each sits in the variant's order.
        let written: Vec<usize> = names.iter().map(|n| v.vertex_index(n).unwrap_or(0)).collect();
        if let Some(pegs) = &s.pegs {
            let here: Vec<u64> = written.iter().map(|&x| inst.capacities[x]).collect();
            if pegs != &here {
                return Err(at(format!(
                    "the sentence says pegs {} for {}, but this puzzle's are {}",
                    join(pegs),
                    s.face,
                    join(&here)
                )));
            }
        }
        let from_bracket = match s.bracket {
            Some((n, r)) => {
                if n < 1 || n as usize > inst.tiles.len() {
                    return Err(at(format!(
                        "tile #{n} does not exist: the tiles are #1 to #{}",
                        inst.tiles.len()
                    )));
                }
                if !(0..=2).contains(&r) {
                    return Err(at(format!("rotation {r} is not 0, 1 or 2")));
                }
                let t = n as usize - 1;
                if let Some(first) = claimed[t] {
                    return Err(at(format!("tile #{n} is already placed, on line {first}")));
                }
                claimed[t] = Some(*line);
                let turned = rotate(inst.tiles[t], r as u8);
                Some((t, in_face_order(v.faces[f], &written, &turned)))
            }
            None => None,
        };
        let from_words = match &s.weights {
            Some(w) => Some((*w, corners_from_words(inst, f, w, &s.turn).map_err(|e| at(e.0))?)),
            None => None,
        };
        match (from_bracket, from_words) {
            (Some((t, c)), Some((w, cw))) => {
                if !same_tile(&inst.tiles[t], &w) || c != cw {
                    return Err(at(format!(
                        "the sentence and its bracket disagree: the sentence puts {} at {}, tile #{} turned {} puts {}",
                        weights_text(&w),
                        corner_text(v, f, &cw),
                        t + 1,
                        s.bracket.map_or(0, |b| b.1),
                        corner_text(v, f, &c)
                    )));
                }
                out.push(Placed {
                    face: f,
                    tile: t,
                    corners: c,
                    line: *line,
                });
            }
            (Some((t, c)), None) => out.push(Placed {
                face: f,
                tile: t,
                corners: c,
                line: *line,
            }),
            (None, Some((w, c))) => pending.push((*line, f, w, c)),
            (None, None) => return Err(at("no tile on this line".into())),
        }
    }
    // Pass 2: a tile of the given weights that no line has taken yet.
    for (line, f, w, c) in pending {
        let same: Vec<usize> = (0..inst.tiles.len())
            .filter(|&t| same_tile(&inst.tiles[t], &w))
            .collect();
        let Some(&t) = same.iter().find(|&&t| claimed[t].is_none()) else {
            return Err(InputError::new(
                file,
                Some(line),
                format!(
                    "this puzzle has {} tile{} {}, and every one is already placed (lines {})",
                    same.len(),
                    if same.len() == 1 { "" } else { "s" },
                    weights_text(&w),
                    same.iter()
                        .filter_map(|&t| claimed[t])
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        claimed[t] = Some(line);
        out.push(Placed {
            face: f,
            tile: t,
            corners: c,
            line,
        });
    }
    out.sort_by_key(|p| p.line);
    Ok(out)
}

fn join(xs: &[u64]) -> String {
    xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

/// Whether tile `t` is the tile `w` (the same weights in the same turning order: tiles turn
/// but never flip).
fn same_tile(t: &Tile, w: &Tile) -> bool {
    (0..3).any(|r| rotate(*t, r) == *w)
}

/// Corners given at the face's vertices as written, in the variant's order of the face.
fn in_face_order(face: [usize; 3], written: &[usize], at_written: &Tile) -> [u64; 3] {
    let mut c = [0; 3];
    for (k, &x) in face.iter().enumerate() {
        let i = written.iter().position(|&y| y == x).unwrap_or(k);
        c[k] = at_written[i];
    }
    c
}

/// "0 at A, 1 at B, 2 at C".
fn corner_text(v: &crate::model::Variant, f: usize, c: &[u64; 3]) -> String {
    v.faces[f]
        .iter()
        .zip(c)
        .map(|(&x, w)| format!("{w} at {}", v.vertices[x]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The corners a tile of weights `w` gets on face `f` turned as `turn` says.
fn corners_from_words(inst: &Instance, f: usize, w: &Tile, turn: &Turn) -> Result<[u64; 3], Unread> {
    let v = &inst.variant;
    if !inst.tiles.iter().any(|t| same_tile(t, w)) {
        let mirrored = [w[0], w[2], w[1]];
        let hint = if inst.tiles.iter().any(|t| same_tile(t, &mirrored)) {
            format!(" (it has {}: tiles turn but never flip)", weights_text(&mirrored))
        } else {
            String::new()
        };
        return Err(unread!("this puzzle has no tile {}{hint}", weights_text(w)));
    }
    let uniform = w[0] == w[1] && w[1] == w[2];
    match turn {
        Turn::AnyWay | Turn::Unsaid if uniform => Ok(*w),
        Turn::AnyWay => Err(unread!(
            "tile {} has three different turns: say which weight touches which vertex (\"{} touches {}\")",
            weights_text(w),
            w[0],
            v.vertices[v.faces[f][0]]
        )),
        Turn::Unsaid => Err(unread!(
            "say how tile {} is turned: which weight touches which vertex (\"{} touches {}\")",
            weights_text(w),
            w[0],
            v.vertices[v.faces[f][0]]
        )),
        Turn::Touches(weight, vertex) => {
            let Some(k) = v.faces[f].iter().position(|&x| v.vertices[x] == *vertex) else {
                return Err(unread!("{vertex} is not a vertex of the face {}", v.face_label(f)));
            };
            let times = w.iter().filter(|&&x| x == *weight).count();
            if times == 0 {
                return Err(unread!("tile {} has no weight {weight}", weights_text(w)));
            }
            if times == 2 {
                let once = w.iter().find(|&&x| x != *weight).copied().unwrap_or(0);
                return Err(unread!(
                    "{weight} is on two corners of tile {}: say where {once}, the weight it has once, touches",
                    weights_text(w)
                ));
            }
            Ok((0..3u8).map(|r| rotate(*w, r)).find(|c| c[k] == *weight).unwrap_or(*w))
        }
    }
}
