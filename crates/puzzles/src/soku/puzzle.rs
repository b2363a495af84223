//! 3SoKu through the front-end trait: a classic instance (a tile per face, given
//! capacities) compiles with or without presolve, decodes to placements, and prints one
//! instruction per face (the lines and JSON fields are made in `print`).

use std::fmt::Write;

use serde_json::{Value, json};

use super::compile::Compiled;
use super::print::{VERIFIED, instance_fields, placement_json, sentences, status_line};
use crate::budget::memory::over_limit;
use crate::encode::EncodeError;
use crate::input::{InputError, solution_json};
use crate::ir::{PbFormula, Status};
use crate::model::{Instance, Placement};
use crate::puzzle::{Answer, CompileOptions, Invalid, Puzzle, Refutation, SolutionWriter};
use crate::render::{Scene, titled};

/// Bytes of the compiled model per placement variable (its name, its place in the variable
/// pool, its terms in the face, tile and vertex rows). Measured: 330 on a random
/// bipyramid-2000 (246k variables), 280 on a Partition instance with 400 distinct sizes and
/// presolve off (961k variables).
const MODEL_BYTES_PER_VAR: u64 = 400;

/// Refuses an instance whose compiled model would not fit in `limit` bytes, before it is
/// compiled: every face may take every type in each of its distinct turns (presolve only
/// removes some), so a Partition instance with thousands of distinct sizes has millions of
/// placement variables per face ring.
pub fn check_model_size(inst: &Instance, limit: u64) -> Result<(), EncodeError> {
    let per_face: u64 = inst.types().iter().map(|t| t.rotations.len() as u64).sum();
    let vars = per_face.saturating_mul(inst.variant.num_faces() as u64);
    if let Some(needed) = over_limit(vars.saturating_mul(MODEL_BYTES_PER_VAR), limit) {
        return Err(EncodeError::memory(
            format!("the compiled model (up to {vars} placement variables, before any backend)"),
            needed,
            limit,
            "",
        ));
    }
    Ok(())
}

impl Puzzle for Instance {
    type Compiled = Compiled;
    type Solution = Vec<Placement>;

    fn kind(&self) -> &'static str {
        "3soku"
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn header(&self, opts: &CompileOptions, encoding: Option<&str>) -> Vec<String> {
        let caps: Vec<String> = self.capacities.iter().map(|c| c.to_string()).collect();
        let v = &self.variant;
        let mut h = vec![
            format!("sokuc {} 3SoKu model", env!("CARGO_PKG_VERSION")),
            format!("instance {}", self.source),
            format!(
                "variant {} ({} vertices, {} faces)",
                v.name,
                v.num_vertices(),
                v.num_faces()
            ),
            format!("capacities {}", caps.join(",")),
        ];
        if let Some(e) = encoding {
            h.push(format!("pb-encoding {e}"));
        }
        h.push(format!("presolve {}", if opts.presolve { "on" } else { "off" }));
        h
    }

    fn check_size(&self, max_memory: u64) -> Result<(), EncodeError> {
        check_model_size(self, max_memory)
    }

    fn compile(&self, opts: &CompileOptions) -> Result<Compiled, Refutation> {
        if opts.presolve {
            super::compile::compile(self)
        } else {
            super::compile::plain(self).ok_or_else(Refutation::stopped)
        }
    }

    fn formula<'c>(&self, c: &'c Compiled) -> &'c PbFormula {
        &c.model.formula
    }

    fn names(&self, c: &Compiled) -> Vec<String> {
        c.model.names()
    }

    fn decode(&self, c: &Compiled, assignment: &[bool]) -> Result<Vec<Placement>, Invalid> {
        super::decode::decode(self, c, assignment).map_err(|e| Invalid(e.to_string()))
    }

    fn verify(&self, s: &Vec<Placement>) -> Result<(), Invalid> {
        super::verify::verify(self, s)
    }

    fn text(&self, a: &Answer<Vec<Placement>>) -> String {
        let mut s = status_line(self, a.status);
        match (a.status, &a.solution) {
            (Status::Sat, Some(ps)) => {
                s.push_str(&sentences(self, ps, ""));
                s.push_str(if a.verified { VERIFIED } else { "verified: NO\n" });
                match (a.unique, &a.second) {
                    (Some(true), _) => {
                        let _ = writeln!(s, "unique: the {} backend proved there is no other solution", a.backend);
                    }
                    (Some(false), Some(second)) => {
                        let _ = writeln!(s, "not unique: a second solution is");
                        s.push_str(&sentences(self, second, "  "));
                    }
                    _ if a.asked_unique => {
                        let _ = writeln!(s, "{}", a.uniqueness_unknown());
                    }
                    _ => {}
                }
                a.evidence.push_lines(&mut s, "");
            }
            _ => {
                if let Some(reason) = &a.reason {
                    let _ = writeln!(s, "reason: {reason}");
                }
                a.evidence.push_lines(&mut s, "");
            }
        }
        s
    }

    fn json_fields(&self, solution: Option<&Vec<Placement>>) -> Vec<(String, Value)> {
        let placements: Option<Vec<Value>> = solution.map(|ps| ps.iter().map(|p| placement_json(self, p)).collect());
        let mut fields = instance_fields(self);
        fields.push(("placements".into(), json!(placements)));
        fields
    }

    fn writer(&self) -> Box<dyn SolutionWriter<Vec<Placement>> + '_> {
        Box::new(super::writer::Writer::new(self))
    }

    fn read_solution(&self, file: &str, text: &str) -> Result<Vec<Placement>, InputError> {
        solution_json::parse_solution(file, text, self)
    }

    fn scene(&self, solution: Option<&Vec<Placement>>, what: &str) -> Option<Scene<'_>> {
        let title = titled(&self.source, &self.variant.name, what);
        Some(match solution {
            Some(ps) => Scene::solution(self, ps, title),
            None => Scene::instance(self, title),
        })
    }

    fn valid_summary(&self, s: &Vec<Placement>) -> String {
        format!("{} placements, every vertex sum equals its capacity", s.len())
    }
}
