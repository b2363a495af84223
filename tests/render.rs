//! Pictures: `render` and `solve --svg`. The SVG is parsed as XML and checked against the
//! instance and the JSON answer (one triangle per face, no overlaps, a peg disc with the right
//! name and value at every corner of every face, the right number of dots at each corner), and
//! rasterised by a real renderer (librsvg's rsvg-convert) whose pixels are sampled where the
//! SVG says things are.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::process::Output;

use common::{root, sokuc, which};

fn run(args: &[&str]) -> Output {
    sokuc().args(args).current_dir(root()).output().expect("run sokuc")
}

type Pt = (f64, f64);

fn points(s: &str) -> Vec<Pt> {
    s.split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

fn dist(a: Pt, b: Pt) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

fn attr(n: &roxmltree::Node, a: &str) -> String {
    n.attribute(a).unwrap_or_else(|| panic!("no {a} on {n:?}")).to_string()
}

fn num(n: &roxmltree::Node, a: &str) -> f64 {
    attr(n, a).parse().unwrap()
}

/// A solved answer drawn: what the SVG shows, read back.
struct Drawn {
    /// face label -> its triangle, corners in face order
    faces: HashMap<String, Vec<Pt>>,
    fills: HashMap<String, String>,
    /// (centre, vertex name, peg text)
    pegs: Vec<(Pt, String, String)>,
    dots: HashMap<String, Vec<Pt>>,
    /// Weights written as numbers: (position, value).
    numbers: HashMap<String, Vec<(Pt, u64)>>,
    texts: Vec<String>,
}

fn read_svg(svg: &str) -> Drawn {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"));
    let rootn = doc.root_element();
    assert_eq!(rootn.tag_name().name(), "svg");
    assert_eq!(rootn.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let mut d = Drawn {
        faces: HashMap::new(),
        fills: HashMap::new(),
        pegs: Vec::new(),
        dots: HashMap::new(),
        numbers: HashMap::new(),
        texts: Vec::new(),
    };
    for n in doc.descendants() {
        match (n.tag_name().name(), n.attribute("class")) {
            ("polygon", Some("face")) => {
                let label = attr(&n, "data-face");
                assert!(
                    d.faces.insert(label.clone(), points(&attr(&n, "points"))).is_none(),
                    "{label} twice"
                );
                d.fills.insert(label, attr(&n, "fill"));
            }
            ("g", Some("peg")) => {
                let c = n.children().find(|c| c.has_tag_name("circle")).unwrap();
                let value = n
                    .children()
                    .find(|c| c.attribute("class") == Some("peg-value"))
                    .unwrap();
                d.pegs.push((
                    (num(&c, "cx"), num(&c, "cy")),
                    attr(&n, "data-vertex"),
                    value.text().unwrap().to_string(),
                ));
            }
            ("g", Some("tile")) => {
                let dots = n
                    .children()
                    .filter(|c| c.attribute("class") == Some("dot"))
                    .map(|c| (num(&c, "cx"), num(&c, "cy")))
                    .collect();
                d.dots.insert(attr(&n, "data-face"), dots);
                let numbers = n
                    .children()
                    .filter(|c| c.attribute("class") == Some("weight"))
                    .map(|c| ((num(&c, "x"), num(&c, "y")), c.text().unwrap().parse().unwrap()))
                    .collect();
                d.numbers.insert(attr(&n, "data-face"), numbers);
            }
            ("text", _) => d.texts.push(n.text().unwrap_or("").to_string()),
            _ => {}
        }
    }
    d
}

/// Checks a drawn solution against the JSON answer of the same solve.
fn check_solution_picture(d: &Drawn, json: &serde_json::Value) {
    let vertices = common::strings(&json["vertices"]);
    let caps = common::u64s(&json["capacities"]);
    let short = vertices.iter().all(|v| v.chars().count() == 1);
    let placements = json["placements"].as_array().unwrap();
    assert_eq!(d.faces.len(), placements.len(), "one triangle per face");
    let side = {
        let t = d.faces.values().next().unwrap();
        dist(t[0], t[1])
    };
    let mut centres = Vec::new();
    for p in placements {
        let face: Vec<&str> = p["face"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        // The variant's face label: names joined by ',' when they are longer than one character.
        let label = face.join(if short { "" } else { "," });
        let t = &d.faces[&label];
        assert_eq!(t.len(), 3, "{label}");
        for i in 0..3 {
            assert!(
                (dist(t[i], t[(i + 1) % 3]) - side).abs() < 0.05,
                "{label} is not equilateral"
            );
        }
        // y points down on screen: clockwise to the eye is a positive cross product here.
        let cross = (t[1].0 - t[0].0) * (t[2].1 - t[0].1) - (t[2].0 - t[0].0) * (t[1].1 - t[0].1);
        assert!(cross > 0.0, "{label} is not drawn clockwise");
        centres.push(((t[0].0 + t[1].0 + t[2].0) / 3.0, (t[0].1 + t[1].1 + t[2].1) / 3.0));
        // A peg disc at each corner, naming this corner's vertex and its capacity.
        for i in 0..3 {
            let peg = d.pegs.iter().find(|(c, _, _)| dist(*c, t[i]) < 0.5);
            let (_, name, value) = peg.unwrap_or_else(|| panic!("no peg at corner {i} of {label}"));
            assert_eq!(name, face[i], "{label}");
            let vi = vertices.iter().position(|v| v == face[i]).unwrap();
            assert_eq!(value, &caps[vi].to_string(), "peg of {}", face[i]);
        }
        // Each corner's dots sit nearest that corner, as many as its weight.
        let corners = common::u64s(&p["corners"]);
        let dots = &d.dots[&label];
        let numbers = &d.numbers[&label];
        if !numbers.is_empty() {
            // Numbers: one per corner, nearest its corner, saying the corner's weight.
            assert!(dots.is_empty(), "{label}: dots and numbers mixed");
            assert_eq!(numbers.len(), 3, "{label}");
            for (i, &c) in corners.iter().enumerate() {
                let (_, shown) = numbers
                    .iter()
                    .min_by(|a, b| dist(a.0, t[i]).total_cmp(&dist(b.0, t[i])))
                    .unwrap();
                assert_eq!(*shown, c, "{label} corner {i}");
            }
            continue;
        }
        for (i, &c) in corners.iter().enumerate() {
            let near = dots
                .iter()
                .filter(|&&q| (0..3).min_by(|&a, &b| dist(q, t[a]).total_cmp(&dist(q, t[b]))) == Some(i))
                .count();
            assert_eq!(near as u64, c, "{label} corner {i}");
        }
    }
    // Equilateral triangles of one size with distinct centres on one lattice cannot overlap;
    // distinct centres at least a third of a side apart show they are different cells.
    for i in 0..centres.len() {
        for j in 0..i {
            assert!(dist(centres[i], centres[j]) > side / 3.0, "faces {i} and {j} overlap");
        }
    }
}

fn solve_with_svg(inst: &str, backend: &str, out: &Path) -> serde_json::Value {
    let o = run(&[
        "solve",
        inst,
        "--backend",
        backend,
        "--format",
        "json",
        "--svg",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn solutions_are_drawn_face_by_face_with_pegs_and_dots() {
    let dir = tempfile::tempdir().unwrap();
    for inst in [
        "instances/icosoku-seed.toml",
        "instances/octasoku.toml",
        "instances/tetrasoku-seed.toml",
    ] {
        for backend in ["sat", "search"] {
            let out = dir.path().join("a.svg");
            let json = solve_with_svg(inst, backend, &out);
            let d = read_svg(&std::fs::read_to_string(&out).unwrap());
            check_solution_picture(&d, &json);
            assert!(d.texts.iter().any(|t| t.contains("solution, verified")), "{inst}");
        }
    }
}

#[test]
fn every_deltahedron_and_long_names_draw_in_one_piece() {
    let dir = tempfile::tempdir().unwrap();
    let mut variants: Vec<String> = sokuc::model::builtin::DELTAHEDRA
        .iter()
        .map(|s| s.to_string())
        .collect();
    variants.push("bipyramid-40".into());
    for (k, variant) in variants.iter().enumerate() {
        let path = common::generate_3soku(
            dir.path(),
            &format!("{variant}.toml"),
            &["--variant", variant, "--seed", &k.to_string()],
        );
        let out = dir.path().join(format!("{variant}.svg"));
        let json = solve_with_svg(&path, "sat", &out);
        let d = read_svg(&std::fs::read_to_string(&out).unwrap());
        check_solution_picture(&d, &json);
        assert!(
            !d.texts.iter().any(|t| t.contains("pieces")),
            "{variant} did not unfold into one piece"
        );
    }
}

#[test]
fn heavy_tiles_are_written_as_numbers_throughout() {
    let dir = tempfile::tempdir().unwrap();
    let inst = common::generate_3soku(
        dir.path(),
        "heavy.toml",
        &["--variant", "snub-disphenoid", "--max-weight", "9", "--seed", "4"],
    );
    let out = dir.path().join("heavy.svg");
    let json = solve_with_svg(&inst, "sat", &out);
    let d = read_svg(&std::fs::read_to_string(&out).unwrap());
    assert!(
        d.numbers.values().all(|n| n.len() == 3),
        "every tile written as numbers"
    );
    check_solution_picture(&d, &json);
    // --numbers forces numbers on light tiles too.
    let light = dir.path().join("light.svg");
    let j = run(&["solve", "instances/icosoku-seed.toml", "--format", "json"]);
    std::fs::write(dir.path().join("sol.json"), &j.stdout).unwrap();
    let sol = dir.path().join("sol.json");
    let o = run(&[
        "render",
        "instances/icosoku-seed.toml",
        "--solution",
        sol.to_str().unwrap(),
        "--numbers",
        "-o",
        light.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let d = read_svg(&std::fs::read_to_string(&light).unwrap());
    check_solution_picture(&d, &serde_json::from_slice(&j.stdout).unwrap());
    assert!(d.dots.values().all(Vec::is_empty));
}

#[test]
fn the_empty_instance_shows_pegs_and_fixed_tiles() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fixed.svg");
    let o = run(&["render", "instances/icosoku-fixed.toml", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let d = read_svg(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(d.faces.len(), 20);
    // ABC carries tile 20 (3,3,3) with a free turn; GKL tile 6 (0,1,2) turned once.
    let fixed: Vec<&String> = {
        let mut f: Vec<&String> = d
            .fills
            .iter()
            .filter(|(_, c)| *c == "#cfe3f7")
            .map(|(l, _)| l)
            .collect();
        f.sort();
        f
    };
    assert_eq!(fixed, ["ABC", "GKL"]);
    assert!(d.fills.values().filter(|c| *c == "#eeeeee").count() == 18);
    assert!(d.dots["ABC"].is_empty());
    // Tiles are named by their weights, as the text output names them.
    assert!(d.texts.iter().any(|t| t == "(3,3,3)"), "{:?}", d.texts);
    assert!(!d.texts.iter().any(|t| t.starts_with('#')), "{:?}", d.texts);
    assert!(d.texts.iter().any(|t| t == "any turn"));
    assert_eq!(d.dots["GKL"].len(), 3);
    // Pegs as in the file, at every copy of every vertex.
    let j = run(&["solve", "instances/icosoku-fixed.toml", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    let caps = common::u64s(&json["capacities"]);
    for (_, name, value) in &d.pegs {
        let i = (name.as_bytes()[0] - b'A') as usize;
        assert_eq!(value, &caps[i].to_string(), "{name}");
    }
    let names: std::collections::BTreeSet<&str> = d.pegs.iter().map(|p| p.1.as_str()).collect();
    assert_eq!(names.len(), 12);
}

#[test]
fn an_invalid_solution_is_drawn_but_refused() {
    let dir = tempfile::tempdir().unwrap();
    let sol = dir.path().join("sol.json");
    let o = run(&["solve", "instances/tetrasoku-seed.toml", "--format", "json"]);
    let mut json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let r = json["placements"][0]["rotation"].as_u64().unwrap();
    json["placements"][0]["rotation"] = ((r + 1) % 3).into();
    json["placements"][0].as_object_mut().unwrap().remove("corners");
    std::fs::write(&sol, json.to_string()).unwrap();
    let out = dir.path().join("bad.svg");
    let o = run(&[
        "render",
        "instances/tetrasoku-seed.toml",
        "--solution",
        sol.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3));
    let d = read_svg(&std::fs::read_to_string(&out).unwrap());
    assert!(d.texts.iter().any(|t| t.contains("INVALID")));
}

#[test]
fn bad_render_requests_are_usage_errors_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.svg");
    let o_str = out.to_str().unwrap();
    for args in [
        vec!["render", "instances/nope.toml", "-o", o_str],
        vec![
            "solve",
            "instances/icosoku-seed.toml",
            "--emit",
            "dimacs",
            "--svg",
            o_str,
        ],
        vec![
            "solve",
            "../shared/instances/trickytriple/feup-lekinasa-4x4-01.tt",
            "--svg",
            o_str,
        ],
        vec![
            "render",
            "instances/icosoku-seed.toml",
            "--solution",
            "Cargo.toml",
            "-o",
            o_str,
        ],
    ] {
        let o = run(&args);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!out.exists(), "{args:?} left a file");
    }
}

/// Samples the PNG at a point: RGB.
fn pixel(img: &[u8], width: usize, channels: usize, p: Pt) -> [u8; 3] {
    let (x, y) = (p.0.round() as usize, p.1.round() as usize);
    let i = (y * width + x) * channels;
    [img[i], img[i + 1], img[i + 2]]
}

fn hex(c: &str) -> [u8; 3] {
    let v = u32::from_str_radix(c.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 12)
}

#[test]
#[ignore = "needs rsvg-convert (Debian librsvg2-bin); scripts/test.sh installs it and runs ignored tests"]
fn a_real_renderer_draws_what_the_svg_says() {
    let rsvg = which("rsvg-convert").expect("rsvg-convert on PATH (apt-get install librsvg2-bin)");
    let dir = tempfile::tempdir().unwrap();
    for inst in ["instances/icosoku-seed.toml", "instances/icosoku-fixed.toml"] {
        let svg = dir.path().join("p.svg");
        let png_path = dir.path().join("p.png");
        let o = if inst.ends_with("seed.toml") {
            run(&["solve", inst, "--svg", svg.to_str().unwrap()])
        } else {
            run(&["render", inst, "-o", svg.to_str().unwrap()])
        };
        assert_eq!(o.status.code(), Some(0));
        let st = std::process::Command::new(&rsvg)
            .args([svg.to_str().unwrap(), "-o", png_path.to_str().unwrap()])
            .status()
            .unwrap();
        assert!(st.success(), "rsvg-convert failed on {inst}");
        let decoder = png::Decoder::new(std::fs::File::open(&png_path).unwrap());
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.color_type.samples();
        let text = std::fs::read_to_string(&svg).unwrap();
        let d = read_svg(&text);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let w: f64 = doc.root_element().attribute("width").unwrap().parse().unwrap();
        assert_eq!(info.width as f64, w, "rendered at the declared size");
        for (label, t) in &d.faces {
            // Between the centre and the edge midpoint farthest up or down: inside the face,
            // clear of the centre label, the corner marks and the pegs.
            let c = ((t[0].0 + t[1].0 + t[2].0) / 3.0, (t[0].1 + t[1].1 + t[2].1) / 3.0);
            let m = (0..3)
                .map(|i| ((t[i].0 + t[(i + 1) % 3].0) / 2.0, (t[i].1 + t[(i + 1) % 3].1) / 2.0))
                .max_by(|a, b| (a.1 - c.1).abs().total_cmp(&(b.1 - c.1).abs()))
                .unwrap();
            let p = ((c.0 + m.0) / 2.0, (c.1 + m.1) / 2.0);
            let got = pixel(&buf, info.width as usize, channels, p);
            assert!(
                close(got, hex(&d.fills[label])),
                "{inst} face {label}: {got:?} at {p:?}, fill {}",
                d.fills[label]
            );
        }
        for (c, name, _) in &d.pegs {
            // Beside the disc's text, inside the disc.
            let got = pixel(&buf, info.width as usize, channels, (c.0 + 13.0, c.1));
            assert!(close(got, hex("#1f3b63")), "{inst} peg {name}: {got:?}");
        }
        for (label, dots) in &d.dots {
            for q in dots {
                let got = pixel(&buf, info.width as usize, channels, *q);
                assert!(got.iter().all(|&x| x < 80), "{inst} dot on {label}: {got:?}");
            }
        }
    }
}

#[test]
fn the_readme_picture_is_current() {
    // docs/src/img/icosoku-seed.svg is the README's picture; it must be what sokuc draws today.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("seed.svg");
    let o = run(&["solve", "instances/icosoku-seed.toml", "--svg", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let now = std::fs::read_to_string(&out).unwrap();
    let committed = std::fs::read_to_string(root().join("docs/src/img/icosoku-seed.svg")).unwrap();
    assert!(
        now == committed,
        "docs/src/img/icosoku-seed.svg is stale: run `sokuc solve instances/icosoku-seed.toml --svg docs/src/img/icosoku-seed.svg`"
    );
}

#[test]
fn pool_answers_are_drawn_with_the_pegs_found() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pool.svg");
    let o = run(&[
        "solve",
        "instances/icosoku-free-pegs.toml",
        "--format",
        "json",
        "--svg",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = read_svg(&std::fs::read_to_string(&out).unwrap());
    // The pool JSON uses the 3SoKu schema: `capacities` are the pegs found, and each
    // placement names its face's vertices.
    let pegs = common::u64s(&json["capacities"]);
    let vertices = common::strings(&json["vertices"]);
    assert_eq!(d.faces.len(), 20);
    for (_, name, value) in &d.pegs {
        let i = vertices.iter().position(|v| v == name).unwrap();
        assert_eq!(value, &pegs[i].to_string(), "{name}");
    }
    let placements = json["placements"].as_array().unwrap();
    assert_eq!(placements.len(), 20);
    for f in placements {
        let label = common::strings(&f["face"]).concat();
        let total: u64 = common::u64s(&f["corners"]).iter().sum();
        assert_eq!(d.dots[&label].len() as u64, total, "{label}");
    }
}

#[test]
fn labels_draw_the_vertex_names_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("labels.svg");
    let o = run(&[
        "render",
        "instances/icosoku-fixed.toml",
        "--labels",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&out).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    // One label per face, naming its vertices in the variant's (clockwise) order.
    let faces: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("face-label"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(faces.len(), 20);
    assert!(faces.contains(&"ABC") && faces.contains(&"GKL"));
    // Every disc names its vertex; no pegs, no tiles (not even the fixed ones).
    let names: std::collections::BTreeSet<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("vertex-name"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(names.len(), 12);
    for class in ["peg-value", "tile", "dot", "fixed-mark"] {
        assert!(
            !doc.descendants().any(|n| n.attribute("class") == Some(class)),
            "a {class} in the map of names"
        );
    }
    // A map of names has no solution to draw.
    let o = run(&[
        "render",
        "instances/icosoku-seed.toml",
        "--labels",
        "--solution",
        "x.json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}
