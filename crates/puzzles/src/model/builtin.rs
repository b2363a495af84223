//! Built-in variants and tile sets, compiled into the binary from `variants/`.
//!
//! The built-ins are the eight convex deltahedra (`tetrahedron`, `bipyramid-3`, `octahedron`,
//! `bipyramid-5`, `snub-disphenoid`, `triaugmented-triangular-prism`,
//! `gyroelongated-square-bipyramid`, `icosahedron`; `scripts/deltahedra.py` made the three
//! Johnson solids from coordinates) and `bipyramid-N` for any N >= 3, generated and validated
//! like a file.

use super::tiles::Tile;

/// (name, TOML text) of each built-in variant.
pub const VARIANTS: &[(&str, &str)] = &[
    ("icosahedron", include_str!("../../variants/icosahedron.toml")),
    ("octahedron", include_str!("../../variants/octahedron.toml")),
    ("tetrahedron", include_str!("../../variants/tetrahedron.toml")),
    ("snub-disphenoid", include_str!("../../variants/snub-disphenoid.toml")),
    (
        "triaugmented-triangular-prism",
        include_str!("../../variants/triaugmented-triangular-prism.toml"),
    ),
    (
        "gyroelongated-square-bipyramid",
        include_str!("../../variants/gyroelongated-square-bipyramid.toml"),
    ),
];

/// The eight convex deltahedra, by face count (4, 6, ..., 16, 20).
pub const DELTAHEDRA: [&str; 8] = [
    "tetrahedron",
    "bipyramid-3",
    "octahedron",
    "bipyramid-5",
    "snub-disphenoid",
    "triaugmented-triangular-prism",
    "gyroelongated-square-bipyramid",
    "icosahedron",
];

/// The TOML text of a built-in variant: a fixed one, or `bipyramid-N` (N >= 3), generated.
pub fn variant_text(name: &str) -> Option<std::borrow::Cow<'static, str>> {
    if let Some((_, t)) = VARIANTS.iter().find(|(n, _)| *n == name) {
        return Some(std::borrow::Cow::Borrowed(t));
    }
    if oversized(name).is_some() {
        return None;
    }
    let n: usize = name.strip_prefix("bipyramid-")?.parse().ok()?;
    (n >= 3).then(|| std::borrow::Cow::Owned(bipyramid(n)))
}

/// Why `name`, a `bipyramid-N`, is not built: its 2N faces are past the limit on faces (a
/// variant file is held to the same). `None` for every other name. The number is the user's,
/// so it is checked before anything is made from it.
pub fn oversized(name: &str) -> Option<String> {
    let digits = name.strip_prefix("bipyramid-")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let limit = super::limits::max_faces();
    let faces = digits.parse::<usize>().ok().and_then(|n| n.checked_mul(2));
    match faces {
        Some(f) if f <= limit => None,
        Some(f) => Some(format!(
            "{name} has {f} faces, more than the limit of {limit} (SOKUC_MAX_FACES raises it)"
        )),
        None => Some(format!(
            "{name} has 2 x {digits} faces, more than the limit of {limit} (SOKUC_MAX_FACES raises it)"
        )),
    }
}

/// Names of the built-in variants, for messages.
pub fn variant_names() -> Vec<String> {
    let mut v: Vec<String> = VARIANTS.iter().map(|(n, _)| n.to_string()).collect();
    v.push("bipyramid-N (N >= 3)".into());
    v
}

/// The n-gonal bipyramid: apex, an n-gon equator (counter-clockwise seen from above), and a
/// bottom apex; 2n faces, clockwise from outside, laid out as in `variants/octahedron.toml`
/// (which is `bipyramid-4`). Letters while they last (A on top, the last one at the bottom),
/// then N, S and R1..Rn.
fn bipyramid(n: usize) -> String {
    let names: Vec<String> = if n + 2 <= 26 {
        (0..n + 2).map(|i| ((b'A' + i as u8) as char).to_string()).collect()
    } else {
        let mut v = vec!["N".to_string()];
        v.extend((1..=n).map(|i| format!("R{i}")));
        v.push("S".into());
        v
    };
    let (top, bottom) = (&names[0], &names[n + 1]);
    let ring = |i: usize| &names[1 + i % n];
    let q = |s: &str| format!("\"{s}\"");
    let mut faces = Vec::with_capacity(2 * n);
    for i in 0..n {
        faces.push(format!("[{}, {}, {}]", q(top), q(ring(i + 1)), q(ring(i))));
    }
    for i in 0..n {
        faces.push(format!("[{}, {}, {}]", q(bottom), q(ring(i)), q(ring(i + 1))));
    }
    format!(
        "name = \"bipyramid-{n}\"\nvertices = [{}]\nfaces = [\n  {},\n]\n",
        names.iter().map(|s| q(s)).collect::<Vec<_>>().join(", "),
        faces.join(",\n  ")
    )
}

/// The 20 IcoSoKu tiles in the order of spec §1 (the 1-based order used by `fixed`).
pub const ICOSOKU_TILES: [Tile; 20] = [
    [0, 0, 0],
    [0, 0, 1],
    [0, 0, 2],
    [0, 0, 3],
    [0, 1, 1],
    [0, 1, 2],
    [0, 1, 2],
    [0, 1, 2],
    [0, 2, 1],
    [0, 2, 1],
    [0, 2, 1],
    [0, 2, 2],
    [0, 3, 3],
    [1, 1, 1],
    [1, 2, 3],
    [1, 2, 3],
    [1, 3, 2],
    [1, 3, 2],
    [2, 2, 2],
    [3, 3, 3],
];

pub const TILE_SETS: &[&str] = &["icosoku"];

pub fn tile_set(name: &str) -> Option<Vec<Tile>> {
    match name {
        "icosoku" => Some(ICOSOKU_TILES.to_vec()),
        _ => None,
    }
}
