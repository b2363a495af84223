//! A [`Scene`] as a standalone SVG 1.1 document: presentation attributes only (no CSS, no
//! scripts, no external fonts or images), so every renderer draws it the same way, librsvg and
//! browsers included.
//!
//! Layout, in edge lengths `E`: each vertex copy gets a disc with the vertex name above its peg;
//! each corner of a tile gets its weight as dots (0 to 3, like the physical tiles) or as a
//! number, placed on the line from the vertex to the face centre so it reads as "this much at
//! that vertex"; the tile's weights, as the text writes them, sit at the centre.

use std::fmt::Write;

use super::net::{Net, unfold};
use super::{FaceDraw, Scene};

/// Edge length in pixels.
pub const EDGE: f64 = 110.0;
const MARGIN: f64 = 0.3 * EDGE;
const TITLE_H: f64 = 44.0;
const LEGEND_H: f64 = 44.0;
const PEG_R: f64 = 0.16 * EDGE;
const DOT_R: f64 = 0.036 * EDGE;
const DOT_GAP: f64 = 0.1 * EDGE;
/// Where a corner's weight sits, as a fraction of the way from the vertex to the centre.
const CORNER_AT: f64 = 0.45;
/// Dots are drawn up to this weight; a picture with a larger weight uses numbers throughout.
pub const MAX_DOTS: u64 = 3;

pub const FILL_EMPTY: &str = "#eeeeee";
pub const FILL_TILE: &str = "#fff3c4";
pub const FILL_FIXED: &str = "#cfe3f7";
pub const PEG_FILL: &str = "#1f3b63";
const INK: &str = "#222222";

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Where things land on the page; shared with tests that sample the rendered picture.
#[derive(Debug)]
pub struct Geometry {
    pub net: Net,
    pub width: f64,
    pub height: f64,
}

impl Geometry {
    pub fn of(scene: &Scene) -> Geometry {
        let net = unfold(scene.variant);
        // Wide enough for the title (bold 18 px: about 11 px a character) and the legend.
        let title = scene.title.chars().count() as f64 * 11.0 + 40.0;
        let width = (net.width * EDGE + 2.0 * MARGIN).max(title).max(380.0).ceil();
        let height = (net.height * EDGE + 2.0 * MARGIN + TITLE_H + LEGEND_H).ceil();
        Geometry { net, width, height }
    }

    /// A net point in page pixels.
    pub fn page(&self, p: (f64, f64)) -> (f64, f64) {
        let x0 = (self.width - self.net.width * EDGE) / 2.0;
        (x0 + p.0 * EDGE, TITLE_H + MARGIN + p.1 * EDGE)
    }

    /// The corners of face `f` in page pixels.
    pub fn face(&self, f: usize) -> [(f64, f64); 3] {
        self.net.corners[f].map(|p| self.page(p))
    }

    pub fn centre(&self, f: usize) -> (f64, f64) {
        let t = self.face(f);
        ((t[0].0 + t[1].0 + t[2].0) / 3.0, (t[0].1 + t[1].1 + t[2].1) / 3.0)
    }

    /// Where corner `i` of face `f` shows its weight.
    pub fn corner_anchor(&self, f: usize, i: usize) -> (f64, f64) {
        let v = self.face(f)[i];
        let c = self.centre(f);
        (v.0 + CORNER_AT * (c.0 - v.0), v.1 + CORNER_AT * (c.1 - v.1))
    }

    /// The dot centres for weight `w` at corner `i` of face `f`: a row across the corner.
    pub fn dots(&self, f: usize, i: usize, w: u64) -> Vec<(f64, f64)> {
        let v = self.face(f)[i];
        let a = self.corner_anchor(f, i);
        let (dx, dy) = (a.0 - v.0, a.1 - v.1);
        let len = (dx * dx + dy * dy).sqrt();
        let (px, py) = (-dy / len, dx / len);
        (0..w)
            .map(|k| {
                let o = (k as f64 - (w as f64 - 1.0) / 2.0) * DOT_GAP;
                (a.0 + o * px, a.1 + o * py)
            })
            .collect()
    }
}

/// The whole document.
pub fn render(scene: &Scene) -> String {
    let g = Geometry::of(scene);
    let v = scene.variant;
    let mut s = String::new();
    let (w, h) = (g.width, g.height);
    let _ = writeln!(s, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", esc(&scene.title));
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text class="title" x="{:.1}" y="28" font-size="18" font-weight="bold" text-anchor="middle" fill="{INK}">{}</text>"#,
        w / 2.0,
        esc(&scene.title)
    );

    let _ = writeln!(
        s,
        r##"<g class="faces" stroke="#555555" stroke-width="1.5" stroke-linejoin="round">"##
    );
    for f in 0..v.num_faces() {
        let t = g.face(f);
        let fill = match &scene.faces[f] {
            FaceDraw::Empty => FILL_EMPTY,
            FaceDraw::Tile { fixed: true, .. } => FILL_FIXED,
            FaceDraw::Tile { .. } => FILL_TILE,
        };
        let _ = writeln!(
            s,
            r#"<polygon class="face" data-face="{}" points="{:.2},{:.2} {:.2},{:.2} {:.2},{:.2}" fill="{fill}"/>"#,
            esc(&v.face_label(f)),
            t[0].0,
            t[0].1,
            t[1].0,
            t[1].1,
            t[2].0,
            t[2].1
        );
    }
    let _ = writeln!(s, "</g>");

    // The map of names: each face lists its vertices clockwise, as seen from outside.
    if scene.labels {
        let _ = writeln!(s, r##"<g class="face-labels" fill="#555555">"##);
        for f in 0..v.num_faces() {
            let c = g.centre(f);
            let _ = writeln!(
                s,
                r#"<text class="face-label" x="{:.2}" y="{:.2}" font-size="13" text-anchor="middle">{}</text>"#,
                c.0,
                c.1 + 5.0,
                esc(&v.face_label(f))
            );
        }
        let _ = writeln!(s, "</g>");
    }

    // One style per picture: dots when every weight fits in dots, else numbers everywhere.
    let numbers = scene.numbers
        || scene
            .faces
            .iter()
            .any(|f| matches!(f, FaceDraw::Tile { corners: Some(c), .. } if c.iter().any(|&w| w > MAX_DOTS)));
    let _ = writeln!(s, r#"<g class="tiles" fill="{INK}">"#);
    for f in 0..v.num_faces() {
        let FaceDraw::Tile {
            label,
            weights: _,
            corners,
            fixed,
        } = &scene.faces[f]
        else {
            continue;
        };
        let c = g.centre(f);
        let _ = writeln!(s, r#"<g class="tile" data-face="{}">"#, esc(&v.face_label(f)));
        match corners {
            Some(cs) => {
                let _ = writeln!(
                    s,
                    r##"<text class="tile-label" x="{:.2}" y="{:.2}" font-size="11" text-anchor="middle" fill="#777777">{}</text>"##,
                    c.0,
                    c.1 + 4.0,
                    esc(label)
                );
                for (i, &wt) in cs.iter().enumerate() {
                    if !numbers {
                        for (x, y) in g.dots(f, i, wt) {
                            let _ = writeln!(s, r#"<circle class="dot" cx="{x:.2}" cy="{y:.2}" r="{DOT_R:.2}"/>"#);
                        }
                    } else {
                        let a = g.corner_anchor(f, i);
                        let _ = writeln!(
                            s,
                            r#"<text class="weight" x="{:.2}" y="{:.2}" font-size="15" font-weight="bold" text-anchor="middle">{wt}</text>"#,
                            a.0,
                            a.1 + 5.0
                        );
                    }
                }
            }
            None => {
                // A fixed tile whose turn is left to the solver: show the tile, not corners.
                let _ = writeln!(
                    s,
                    r##"<text class="tile-label" x="{:.2}" y="{:.2}" font-size="11" text-anchor="middle" fill="#333333">{}</text>"##,
                    c.0,
                    c.1 + 2.0,
                    esc(label),
                );
                let _ = writeln!(
                    s,
                    r##"<text class="tile-label" x="{:.2}" y="{:.2}" font-size="10" text-anchor="middle" fill="#555555">any turn</text>"##,
                    c.0,
                    c.1 + 15.0
                );
            }
        }
        if *fixed {
            let _ = writeln!(
                s,
                r##"<text class="fixed-mark" x="{:.2}" y="{:.2}" font-size="9" text-anchor="middle" fill="#1f3b63">fixed</text>"##,
                c.0,
                c.1 - 9.0
            );
        }
        let _ = writeln!(s, "</g>");
    }
    let _ = writeln!(s, "</g>");

    // Pegs last, so they sit on top of face edges. One disc per vertex copy in the net.
    let _ = writeln!(s, r#"<g class="pegs">"#);
    let mut drawn = std::collections::HashSet::new();
    for f in 0..v.num_faces() {
        for (i, &p) in g.face(f).iter().enumerate() {
            let key = ((p.0 * 10.0).round() as i64, (p.1 * 10.0).round() as i64);
            if !drawn.insert(key) {
                continue;
            }
            let vx = v.faces[f][i];
            let name = esc(&v.vertices[vx]);
            if scene.labels {
                let _ = writeln!(
                    s,
                    r##"<g class="peg" data-vertex="{name}"><circle cx="{:.2}" cy="{:.2}" r="{PEG_R:.2}" fill="{PEG_FILL}" stroke="#ffffff" stroke-width="1.5"/><text class="vertex-name" x="{:.2}" y="{:.2}" font-size="17" font-weight="bold" text-anchor="middle" fill="#ffffff">{name}</text></g>"##,
                    p.0,
                    p.1,
                    p.0,
                    p.1 + 6.0
                );
                continue;
            }
            let peg = scene.pegs[vx].map_or("?".to_string(), |c| c.to_string());
            let _ = writeln!(
                s,
                r##"<g class="peg" data-vertex="{name}"><circle cx="{:.2}" cy="{:.2}" r="{PEG_R:.2}" fill="{PEG_FILL}" stroke="#ffffff" stroke-width="1.5"/><text x="{:.2}" y="{:.2}" font-size="9" text-anchor="middle" fill="#c8d6ea">{name}</text><text class="peg-value" x="{:.2}" y="{:.2}" font-size="13" font-weight="bold" text-anchor="middle" fill="#ffffff">{peg}</text></g>"##,
                p.0,
                p.1,
                p.0,
                p.1 - 4.0,
                p.0,
                p.1 + 10.0
            );
        }
    }
    let _ = writeln!(s, "</g>");

    let mut legend = [
        "discs: vertex name and peg, at every copy of a vertex".to_string(),
        format!(
            "{}: the weight a tile puts on that vertex; centre: the tile, its weights clockwise",
            if numbers {
                "numbers by a corner"
            } else {
                "dots by a corner"
            }
        ),
    ];
    if scene.labels {
        legend = [
            "discs: vertex names, at every copy of a vertex".to_string(),
            "each face lists its vertices clockwise, as seen from outside".to_string(),
        ];
    }
    if g.net.pieces > 1 {
        legend[0].push_str(&format!("; the net is in {} pieces", g.net.pieces));
    }
    for (k, line) in legend.iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<text class="legend" x="{:.1}" y="{:.1}" font-size="11" text-anchor="middle" fill="#555555">{}</text>"##,
            w / 2.0,
            h - 24.0 + 14.0 * k as f64,
            esc(line)
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}
