//! `POST /api/export {format}`: the compiled model as `sokuc solve --emit FORMAT` writes it,
//! or the SVG net as `sokuc render` draws it (with `solution`, that solution on it).

use crate::encode::EncodeOptions;
use crate::puzzle::CompileOptions;
use crate::run::emit;
use crate::serve::request::Body;
use crate::serve::{Reply, State, error, failed};

pub(super) fn post(body: &Body, state: &State) -> Result<Reply, Reply> {
    let encode = EncodeOptions {
        max_memory: state.config.max_memory,
        ..EncodeOptions::default()
    };
    let puzzle = body.puzzle()?;
    // Compiling a large model takes a core too.
    let (_ticket, _turn) = state.begin(None)?;
    let format = match body.format.as_deref() {
        Some("dimacs") => emit::Format::Dimacs,
        Some("opb") => emit::Format::Opb,
        Some("lp") => emit::Format::Lp,
        Some("mps") => emit::Format::Mps,
        Some("mzn") => emit::Format::Mzn,
        Some("svg") => {
            let solution = body.solution.as_ref().map(super::check::solution_text);
            let picture = puzzle
                .picture(solution.as_ref().map(|t| ("solution", t.as_str())), false, false)
                .map_err(|e| error(400, e.to_string()))?
                .ok_or_else(|| error(400, format!("a {} puzzle has no net to draw", puzzle.kind())))?;
            return Ok(Reply::text("image/svg+xml; charset=utf-8", picture.svg));
        }
        Some(other) => {
            return Err(error(
                400,
                format!("format: {other:?} is not one of dimacs, opb, lp, mps, mzn, svg"),
            ));
        }
        None => return Err(error(400, "request: missing field `format`")),
    };
    let mut out = Vec::new();
    puzzle
        .emit(format, &CompileOptions::default(), encode, emit::To::Writer(&mut out))
        .map_err(failed)?;
    Ok(Reply::text("text/plain; charset=utf-8", out))
}
