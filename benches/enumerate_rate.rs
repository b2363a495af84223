//! Where the time of `solve --all` goes, per solution: the native walk alone, then with the
//! evaluation against the IR, with decoding and verifying (`run::finish`), and with the text
//! or the JSON fields of each solution (not written anywhere). The README's per-solution
//! costs come from this.
//!
//! `cargo bench --bench enumerate_rate -- [INSTANCE.toml [N]]` (default:
//! instances/icosoku-seed.toml, 100,000 solutions).

use std::ops::ControlFlow;
use std::time::Instant;

use sokuc::backend::{Algorithms, Found, SolveOptions};
use sokuc::ir::Projection;
use sokuc::puzzle::{Answer, CompileOptions, Puzzle};

fn main() {
    // `cargo bench` passes `--bench` to a bench without a harness: flags are not ours.
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let file = args.next().unwrap_or_else(|| "instances/icosoku-seed.toml".into());
    let limit: u64 = args
        .next()
        .map_or(100_000, |n| n.parse().expect("a number of solutions"));
    let text = std::fs::read_to_string(&file).expect("the instance");
    let inst = sokuc::input::instance_file::parse_instance(&file, &text, None).expect("a 3SoKu instance");
    let c = inst
        .compile(&CompileOptions::default())
        .expect("not refuted by presolve");
    let f = inst.formula(&c);
    let proj = Projection::new(f, inst.primary(&c));
    for mode in ["walk", "+evaluate", "+finish", "+finish+text", "+finish+json"] {
        let (mut n, mut bytes) = (0u64, 0usize);
        let t = Instant::now();
        let mut visit = |x: Found<'_>| {
            n += 1;
            match mode {
                "+evaluate" => f.evaluate(x.assignment).expect("a model"),
                "+finish" => drop(sokuc::run::finish(&inst, &c, x.assignment).expect("a solution")),
                "+finish+text" | "+finish+json" => {
                    let mut a = Answer::without_solution(sokuc::ir::Status::Sat, None, "search");
                    a.solution = Some(sokuc::run::finish(&inst, &c, x.assignment).expect("a solution"));
                    bytes += if mode == "+finish+text" {
                        inst.text(&a).len()
                    } else {
                        serde_json::to_string(&inst.json_fields(a.solution.as_ref()))
                            .expect("JSON")
                            .len()
                    };
                }
                _ => {}
            }
            if n >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let e = sokuc::backend::search::Search
            .enumerate(f, &proj, &SolveOptions::default(), &mut visit)
            .expect("the search backend");
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{mode}: {n} solutions in {secs:.3} s = {:.0}/s, {:.2} us each ({:?}; {bytes} bytes)",
            n as f64 / secs,
            secs * 1e6 / n as f64,
            e.stats.extra
        );
    }
}
