//! The OPB front-end against the IR's row limit: what it compiles always fits.

/// The IR's limit on a row's (and an objective's) sum of coefficient magnitudes.
fn fits(total: u128) -> bool {
    total <= i64::MAX as u128
}

/// The proof in `PbFormula::add`'s comment, tried: OPB rows and objectives of every
/// width up to far past 64 bits, with both signs, negated literals, products and
/// repeated variables, compile to rows that fit (`add` would panic otherwise), and each
/// one's magnitude is checked here as well.
#[test]
fn the_pb_front_end_never_builds_a_row_too_wide() {
    use crate::ir::Constraint;
    use crate::puzzle::{CompileOptions, Puzzle};
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // Compiled models seen, and the widest linear row in them.
    let (mut compiled, mut widest) = (0, 0u128);
    for round in 0..60 {
        let bits = [20, 61, 62, 63, 64, 70, 100][round % 7];
        let mut text = String::from("* #variable= 6 #constraint= 3\nmin:");
        let coef = |r: u64| {
            // A number of up to `bits` bits, of either sign.
            let digits = (u128::from(r) << 64 | u128::from(r.rotate_left(17))) >> (128 - bits);
            format!("{}{digits}", if r & 1 == 0 { "+" } else { "-" })
        };
        for v in 1..=6 {
            text.push_str(&format!(" {} x{v}", coef(next())));
        }
        text.push_str(" ;\n");
        for row in 0..3 {
            for k in 0..6 {
                let v = (next() % 6) + 1;
                let neg = if next() & 1 == 0 { "" } else { "~" };
                let product = if k == 5 {
                    format!(" x{}", (v % 6) + 1)
                } else {
                    String::new()
                };
                text.push_str(&format!("{} {neg}x{v}{product} ", coef(next())));
            }
            let cmp = [">=", "<=", "="][row % 3];
            text.push_str(&format!("{cmp} {} ;\n", coef(next() >> 3)));
        }
        let file = crate::pb::read_opb("t.opb", &text).unwrap();
        for presolve in [false, true] {
            let Ok(m) = file.compile(&CompileOptions { presolve }) else {
                continue;
            };
            let f = file.formula(&m);
            compiled += 1;
            for (label, c) in f.constraints() {
                if let Constraint::Linear(lin) = c {
                    assert!(fits(lin.magnitude()), "{label}: {lin:?}\n{text}");
                    widest = widest.max(lin.magnitude());
                }
            }
            if let Some(o) = f.objective() {
                let whole = crate::ir::Linear::new(o.to_vec(), crate::ir::Cmp::Le, 0);
                assert!(fits(whole.magnitude()), "objective {o:?}\n{text}");
            }
        }
    }
    // The rows tried reach the edge: some compiled, some to rows near 2^62.
    assert!(
        compiled > 30 && widest >= 1 << 60,
        "{compiled} models, widest row {widest}"
    );
}
