//! How `solve --all` writes 3SoKu solutions: the bytes of `text` and `json_fields`, with
//! each placement's line and JSON object made once and kept. An enumeration prints millions
//! of solutions made of the same few hundred placements (on the icosahedron, 20 faces x 20
//! tiles x 3 turns at most), and formatting every sentence anew was a quarter of its time.

use super::print::{VERIFIED, instance_fields, placement_json, push_line, status_line};
use crate::ir::Status;
use crate::model::{Instance, Placement};
use crate::puzzle::writer::{push_fields, push_json};
use crate::puzzle::{Answer, Plain, SolutionWriter};

/// At most this many placements are kept (a table entry per face, tile and turn): the
/// icosahedron needs 1,200; on a large bipyramid the table would not pay, and nothing is
/// kept.
const MAX_KEPT: usize = 1 << 16;

/// One placement's text line and JSON object, for the corners it was made with.
struct Kept {
    corners: [u64; 3],
    line: Box<[u8]>,
    json: Box<[u8]>,
}

pub(super) struct Writer<'a> {
    inst: &'a Instance,
    /// The text's first line of a "sat" answer.
    head: Vec<u8>,
    /// The JSON fields before the placements, up to `"placements":`.
    fields: Vec<u8>,
    /// By (face, tile, turn); empty when the table would hold more than [`MAX_KEPT`].
    kept: Vec<Option<Kept>>,
}

impl<'a> Writer<'a> {
    pub(super) fn new(inst: &'a Instance) -> Writer<'a> {
        let mut fields = Vec::new();
        push_fields(&mut fields, instance_fields(inst));
        fields.extend_from_slice(b",\"placements\":");
        let n = inst
            .variant
            .faces
            .len()
            .saturating_mul(inst.tiles.len())
            .saturating_mul(3);
        let kept = if n <= MAX_KEPT {
            std::iter::repeat_with(|| None).take(n).collect()
        } else {
            Vec::new()
        };
        Writer {
            inst,
            head: status_line(inst, Status::Sat).into_bytes(),
            fields,
            kept,
        }
    }

    /// The kept line and JSON of `p`, made on first use; `None` when it is not kept (the
    /// table is off, or `p` is out of its range).
    fn kept(&mut self, p: &Placement) -> Option<&Kept> {
        let i = (p.face * self.inst.tiles.len() + p.tile) * 3 + p.rotation as usize;
        if p.tile >= self.inst.tiles.len() || p.rotation > 2 || i >= self.kept.len() {
            return None;
        }
        let fresh = match &self.kept[i] {
            Some(k) => k.corners != p.corners,
            None => true,
        };
        if fresh {
            let mut line = String::new();
            push_line(&mut line, self.inst, p);
            let mut json = Vec::new();
            push_json(&mut json, &placement_json(self.inst, p));
            self.kept[i] = Some(Kept {
                corners: p.corners,
                line: line.into_bytes().into(),
                json: json.into(),
            });
        }
        self.kept[i].as_ref()
    }
}

impl SolutionWriter<Vec<Placement>> for Writer<'_> {
    fn text(&mut self, a: &Answer<Vec<Placement>>, out: &mut Vec<u8>) {
        let (Status::Sat, Some(ps), true, None, false) = (a.status, &a.solution, a.verified, a.unique, a.asked_unique)
        else {
            return Plain(self.inst).text(a, out);
        };
        out.extend_from_slice(&self.head);
        for p in ps {
            match self.kept(p) {
                Some(k) => out.extend_from_slice(&k.line),
                None => {
                    let mut line = String::new();
                    push_line(&mut line, self.inst, p);
                    out.extend_from_slice(line.as_bytes());
                }
            }
        }
        out.extend_from_slice(VERIFIED.as_bytes());
    }

    fn json_fields(&mut self, solution: Option<&Vec<Placement>>, out: &mut Vec<u8>) {
        let Some(ps) = solution else {
            return Plain(self.inst).json_fields(solution, out);
        };
        out.extend_from_slice(&self.fields);
        out.push(b'[');
        for (k, p) in ps.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            match self.kept(p) {
                Some(kept) => out.extend_from_slice(&kept.json),
                None => push_json(out, &placement_json(self.inst, p)),
            }
        }
        out.push(b']');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;

    fn seed() -> Instance {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        crate::input::instance_file::read_puzzle(&root.join("instances/icosoku-seed.toml"))
            .map(|p| match p {
                crate::input::instance_file::Puzzle::Classic(i) => i,
                _ => panic!("a classic instance"),
            })
            .unwrap()
    }

    /// The kept bytes are the puzzle's own, for every kind of answer and on repeated use.
    #[test]
    fn writes_what_text_and_json_fields_write() {
        let inst = seed();
        let compiled = inst.compile(&Default::default()).unwrap();
        let mut w = inst.writer();
        let mut solutions = Vec::new();
        let mut b = crate::backend::search::Search;
        let opts = crate::backend::SolveOptions::default();
        let projection = crate::ir::Projection::new(inst.formula(&compiled), inst.primary(&compiled));
        let _ = crate::backend::Algorithms::enumerate(
            &mut b,
            inst.formula(&compiled),
            &projection,
            &opts,
            &mut |x: crate::backend::Found<'_>| {
                solutions.push(inst.decode(&compiled, x.assignment).unwrap());
                if solutions.len() < 50 {
                    std::ops::ControlFlow::Continue(())
                } else {
                    std::ops::ControlFlow::Break(())
                }
            },
        );
        assert_eq!(solutions.len(), 50);
        let mut odd = solutions[0].clone();
        odd[3].corners = [9, 9, 9];
        solutions.push(odd);
        for round in 0..2 {
            for s in &solutions {
                for (status, verified, unique, asked) in [
                    (Status::Sat, true, None, false),
                    (Status::Sat, false, None, false),
                    (Status::Sat, true, Some(true), true),
                    (Status::Sat, true, None, true),
                ] {
                    let mut a = Answer::without_solution(status, None, "search");
                    a.solution = Some(s.clone());
                    (a.verified, a.unique, a.asked_unique) = (verified, unique, asked);
                    let mut out = Vec::new();
                    w.text(&a, &mut out);
                    assert_eq!(String::from_utf8(out).unwrap(), inst.text(&a), "round {round}");
                }
                let mut out = Vec::new();
                w.json_fields(Some(s), &mut out);
                let mut want = Vec::new();
                push_fields(&mut want, inst.json_fields(Some(s)));
                assert_eq!(String::from_utf8(out).unwrap(), String::from_utf8(want).unwrap());
            }
        }
        let none = Answer::without_solution(Status::Unsat, Some("presolve".into()), "search");
        let mut out = Vec::new();
        w.text(&none, &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), inst.text(&none));
        let (mut out, mut want) = (Vec::new(), Vec::new());
        w.json_fields(None, &mut out);
        push_fields(&mut want, inst.json_fields(None));
        assert_eq!(out, want);
    }
}
