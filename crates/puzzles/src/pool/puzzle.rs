//! Pool instances through the front-end trait. The JSON uses the 3SoKu schema: `capacities`
//! are the pegs (found, when they are free), and each placement's `tile` is the 1-based index
//! of its type in the pool.

use std::fmt::Write;

use serde_json::{Value, json};

use super::{Key, Pegs, PoolInstance, PoolSolution};
use crate::input::{InputError, solution_json};
use crate::ir::{Model, PbFormula, Status, Var};
use crate::model::Placement;
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation};
use crate::render::{FaceDraw, Scene, instruction, titled};

impl PoolInstance {
    fn answer_lines(&self, s: &PoolSolution, indent: &str) -> String {
        let v = &self.variant;
        let mut out = String::new();
        for (f, &(ty, rot, c)) in s.faces.iter().enumerate() {
            let _ = writeln!(
                out,
                "{indent}{}.  [type {:?}, rotation {rot}]",
                instruction::sentence(v, f, &self.pool[ty].tile, &c, &s.pegs),
                self.pool[ty].tile
            );
        }
        out
    }
}

impl Puzzle for PoolInstance {
    type Compiled = Model<Key>;
    type Solution = PoolSolution;

    fn kind(&self) -> &'static str {
        "pool"
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn header(&self, _opts: &CompileOptions, _encoding: Option<&str>) -> Vec<String> {
        vec![
            format!("sokuc {} pool model", env!("CARGO_PKG_VERSION")),
            format!("variant {}", self.variant.name),
        ]
    }

    fn compile(&self, _opts: &CompileOptions) -> Result<Model<Key>, Refutation> {
        Ok(PoolInstance::compile(self))
    }

    fn formula<'c>(&self, c: &'c Model<Key>) -> &'c PbFormula {
        &c.formula
    }

    fn names(&self, c: &Model<Key>) -> Vec<String> {
        c.names()
    }

    /// The placements. A free peg is no choice of its own: its vertex row makes it the
    /// vertex's sum, so answers with the same placements have the same pegs.
    fn primary(&self, c: &Model<Key>) -> Vec<Var> {
        c.pool
            .iter()
            .filter(|(_, k)| matches!(k, Key::Place { .. }))
            .map(|(x, _)| x)
            .collect()
    }

    fn decode(&self, c: &Model<Key>, assignment: &[bool]) -> Result<PoolSolution, Invalid> {
        Ok(PoolInstance::decode(self, c, assignment))
    }

    fn verify(&self, s: &PoolSolution) -> Result<(), Invalid> {
        super::verify::verify(self, s)
    }

    fn text(&self, a: &Answer<PoolSolution>) -> String {
        let v = &self.variant;
        let mut w = String::new();
        let Some(s) = &a.solution else {
            let _ = writeln!(
                w,
                "{}: no solution{}",
                a.status.as_str(),
                if a.status == Status::Unknown {
                    " found before the time limit"
                } else {
                    " exists"
                }
            );
            a.evidence.push_lines(&mut w, "");
            return w;
        };
        let pegs: Vec<String> = v
            .vertices
            .iter()
            .zip(&s.pegs)
            .map(|(n, p)| format!("{n}={p}"))
            .collect();
        let _ = writeln!(w, "sat on the {}: pegs {}", v.name, pegs.join(" "));
        w.push_str(&self.answer_lines(s, ""));
        let _ = writeln!(
            w,
            "verified: every type within its bounds, the pegs as required, every vertex sum equal to its peg"
        );
        match (a.unique, &a.second) {
            (Some(true), _) => {
                let _ = writeln!(w, "unique: the {} backend proved there is no other solution", a.backend);
            }
            (Some(false), Some(second)) => {
                let pegs: Vec<String> = second.pegs.iter().map(|p| p.to_string()).collect();
                let _ = writeln!(w, "not unique: a second solution is, with pegs {}", pegs.join(","));
                w.push_str(&self.answer_lines(second, "  "));
            }
            _ if a.asked_unique => {
                let _ = writeln!(w, "{}", a.uniqueness_unknown());
            }
            _ => {}
        }
        a.evidence.push_lines(&mut w, "");
        w
    }

    fn json_fields(&self, solution: Option<&PoolSolution>) -> Vec<(String, Value)> {
        let v = &self.variant;
        let capacities = match (solution, &self.pegs) {
            (Some(s), _) => Some(s.pegs.clone()),
            (None, Pegs::Fixed(p)) => Some(p.clone()),
            (None, Pegs::Free(_)) => None,
        };
        let placements: Option<Vec<Value>> = solution.map(|s| {
            s.faces
                .iter()
                .enumerate()
                .map(|(f, &(ty, rot, c))| {
                    let face: Vec<&str> = v.faces[f].iter().map(|&x| v.vertices[x].as_str()).collect();
                    json!({
                        "face": face,
                        "tile": ty + 1,
                        "weights": self.pool[ty].tile,
                        "rotation": rot,
                        "corners": c,
                    })
                })
                .collect()
        });
        vec![
            ("variant".into(), json!(v.name)),
            ("vertices".into(), json!(v.vertices)),
            ("capacities".into(), json!(capacities)),
            ("placements".into(), json!(placements)),
        ]
    }

    fn read_solution(&self, file: &str, text: &str) -> Result<PoolSolution, InputError> {
        let tiles: Vec<_> = self.pool.iter().map(|p| p.tile).collect();
        let (placements, caps) = solution_json::parse_placements(file, text, &self.variant, &tiles)?;
        let pegs = match (caps, &self.pegs) {
            (Some(c), _) => c,
            (None, Pegs::Fixed(p)) => p.clone(),
            (None, Pegs::Free(_)) => {
                return Err(InputError::new(
                    file,
                    None,
                    "no capacities: a pool with free pegs needs the pegs the solution chose",
                ));
            }
        };
        let mut faces = vec![(usize::MAX, 0u8, [0u64; 3]); self.variant.num_faces()];
        for Placement {
            face,
            tile,
            rotation,
            corners,
        } in placements
        {
            faces[face] = (tile, rotation, corners);
        }
        Ok(PoolSolution { faces, pegs })
    }

    fn scene(&self, solution: Option<&PoolSolution>, what: &str) -> Option<Scene<'_>> {
        let title = titled(&self.source, &self.variant.name, what);
        let n = self.variant.num_faces();
        let (pegs, faces) = match solution {
            Some(s) => (
                s.pegs.iter().map(|&p| Some(p)).collect(),
                s.faces
                    .iter()
                    .map(|&(ty, _, c)| match self.pool.get(ty) {
                        Some(t) => FaceDraw::Tile {
                            label: crate::render::tile_name(t.tile),
                            weights: t.tile,
                            corners: Some(c),
                            fixed: false,
                        },
                        None => FaceDraw::Empty,
                    })
                    .collect(),
            ),
            None => {
                let pegs = match &self.pegs {
                    Pegs::Fixed(p) => p.iter().map(|&x| Some(x)).collect(),
                    Pegs::Free(_) => vec![None; self.variant.num_vertices()],
                };
                (pegs, vec![FaceDraw::Empty; n])
            }
        };
        Some(Scene {
            variant: &self.variant,
            title,
            pegs,
            faces,
            numbers: false,
            labels: false,
        })
    }

    fn valid_summary(&self, s: &PoolSolution) -> String {
        format!(
            "{} faces, every type within its bounds, every vertex sum equal to its peg",
            s.faces.len()
        )
    }
}
