//! Variant files (TOML): `name`, `vertices`, `faces` (clockwise from outside).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::{InputError, line_of, read_text, toml_error};
use crate::model::variant::split_face_text;
use crate::model::{Variant, VariantError, builtin};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantToml {
    name: Option<Spanned<String>>,
    vertices: Spanned<Vec<Spanned<String>>>,
    /// Read as plain values so a face of the wrong shape is reported at its own line.
    faces: Spanned<Vec<Spanned<toml::Value>>>,
}

/// What a face may look like, for the message when one does not.
pub const FACE_SHAPES: &str = "a face is a list of three vertex names, such as [\"A\", \"B\", \"C\"], or a string: \"ABC\" when every vertex name is one character, else \"x_y,z,w\"";

/// A face as a list of vertex names, or as a string ("ABC" of one-character names, or
/// names separated by ',').
enum FaceSpec<'a> {
    List(Vec<String>),
    Str(&'a str),
}

/// The face in `value`, or what is wrong with it.
fn face_spec(value: &toml::Value) -> Result<FaceSpec<'_>, super::Problem> {
    let what = |v: &toml::Value| match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a number",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "a list",
        toml::Value::Table(_) => "a table",
    };
    match value {
        toml::Value::String(s) => Ok(FaceSpec::Str(s)),
        toml::Value::Array(items) => items
            .iter()
            .map(|i| match i {
                toml::Value::String(n) => Ok(n.clone()),
                other => Err(super::Problem(format!(
                    "{FACE_SHAPES}; this list holds {}",
                    what(other)
                ))),
            })
            .collect::<Result<_, _>>()
            .map(FaceSpec::List),
        other => Err(super::Problem(format!("{FACE_SHAPES}; this is {}", what(other)))),
    }
}

/// Parses and validates variant TOML text; `file` names it in errors.
pub fn parse_variant(file: &str, text: &str, default_name: &str) -> Result<Variant, InputError> {
    let raw: VariantToml = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
    let vertices: Vec<String> = raw.vertices.get_ref().iter().map(|v| v.get_ref().clone()).collect();
    // The line of a vertex name: its first listing, or its second when it is listed twice.
    let vertex_line = |name: &str, second: bool| {
        let mut at = raw.vertices.get_ref().iter().filter(|v| v.get_ref() == name);
        let first = at.next();
        let pick = if second { at.next().or(first) } else { first };
        line_of(text, pick.map_or(raw.vertices.span().start, |v| v.span().start))
    };
    let name_error = |e: VariantError| {
        let line = match &e {
            VariantError::DuplicateVertex(n) => vertex_line(n, true),
            VariantError::BadVertexName(n) => vertex_line(n, false),
            _ => line_of(text, raw.vertices.span().start),
        };
        InputError::new(file, Some(line), format!("invalid variant: {e}"))
    };
    // Names first: how a face string splits depends on them.
    Variant::check_vertex_names(&vertices).map_err(name_error)?;
    let faces: Vec<Vec<String>> = raw
        .faces
        .get_ref()
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let at = |m: String| {
                InputError::new(
                    file,
                    Some(line_of(text, f.span().start)),
                    format!("invalid variant: {m}"),
                )
            };
            match face_spec(f.get_ref()).map_err(|m| at(format!("face #{}: {m}", i + 1)))? {
                FaceSpec::List(l) => Ok(l),
                FaceSpec::Str(s) => split_face_text(&vertices, s).map_err(|e| at(e.0)),
            }
        })
        .collect::<Result<_, _>>()?;
    let name = raw
        .name
        .as_ref()
        .map_or_else(|| default_name.to_string(), |n| n.get_ref().clone());
    Variant::new(&name, vertices.clone(), &faces).map_err(|e| {
        let line = match &e {
            VariantError::Empty | VariantError::TooManyFaces(..) => line_of(text, raw.faces.span().start),
            VariantError::BadVariantName(_) => line_of(text, raw.name.as_ref().map_or(0, |n| n.span().start)),
            VariantError::BadVertexName(n) | VariantError::UnusedVertex(n) => vertex_line(n, false),
            VariantError::DuplicateVertex(n) => vertex_line(n, true),
            _ => {
                let fi = e.face().unwrap_or(0);
                let span = raw.faces.get_ref().get(fi).map(|s| s.span().start).unwrap_or(0);
                line_of(text, span)
            }
        };
        InputError::new(file, Some(line), format!("invalid variant: {e}"))
    })
}

/// Where an instance's `variant = "..."` may come from.
#[derive(Clone, Copy, Debug)]
pub enum Variants<'a> {
    /// A built-in name, or a variant file on disk (relative paths against the folder).
    Files(Option<&'a Path>),
    /// A built-in name, or this one variant by its name; never the disk (`sokuc serve`,
    /// whose requests must not name files on the user's machine).
    Given(Option<&'a Variant>),
}

/// Finds the variant `spec` names among `variants`.
///
/// `origin` is the file (and line) that named the variant, used when the name is unknown.
pub fn resolve_variant(
    spec: &str,
    variants: Variants<'_>,
    origin: (&str, Option<usize>),
) -> Result<Variant, InputError> {
    match variants {
        Variants::Files(base) => load_variant(spec, base, origin),
        Variants::Given(given) => {
            if let Some(why) = builtin::oversized(spec) {
                return Err(InputError::new(origin.0, origin.1, why));
            }
            if let Some(text) = builtin::variant_text(spec) {
                return parse_variant(&format!("<built-in variant {spec}>"), &text, spec);
            }
            match given {
                Some(v) if v.name == spec => Ok(v.clone()),
                _ => Err(InputError::new(
                    origin.0,
                    origin.1,
                    format!(
                        "unknown variant {spec:?} (built-in: {}{}); variant files are not read from disk here",
                        builtin::variant_names().join(", "),
                        given.map_or(String::new(), |v| format!("; uploaded: {}", v.name))
                    ),
                )),
            }
        }
    }
}

/// Loads a variant by built-in name, or by path (relative paths resolve against `base`).
///
/// `origin` is the file (and line) that named the variant, used when the name is unknown.
pub fn load_variant(spec: &str, base: Option<&Path>, origin: (&str, Option<usize>)) -> Result<Variant, InputError> {
    if let Some(why) = builtin::oversized(spec) {
        return Err(InputError::new(origin.0, origin.1, why));
    }
    if let Some(text) = builtin::variant_text(spec) {
        return parse_variant(&format!("<built-in variant {spec}>"), &text, spec);
    }
    let looks_like_path = spec.contains('/') || spec.ends_with(".toml");
    let path: PathBuf = match base {
        Some(b) if Path::new(spec).is_relative() => b.join(spec),
        _ => PathBuf::from(spec),
    };
    if !looks_like_path && !path.exists() {
        let names = builtin::variant_names();
        return Err(InputError::new(
            origin.0,
            origin.1,
            format!(
                "unknown variant {spec:?} (built-in: {}; or give a path to a .toml file)",
                names.join(", ")
            ),
        ));
    }
    if !path.exists() {
        return Err(InputError::new(
            origin.0,
            origin.1,
            format!("variant file {} does not exist", path.display()),
        ));
    }
    let text = read_text(&path)?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("variant")
        .to_string();
    parse_variant(&path.display().to_string(), &text, &stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_load_and_validate() {
        for (name, _) in builtin::VARIANTS {
            let v = load_variant(name, None, ("test", None)).unwrap();
            assert_eq!(&v.name, name);
        }
        // Bipyramids: 2n faces, n + 2 vertices, apices of degree n, equator of degree 4;
        // bipyramid-4 is the octahedron, face for face.
        for n in [3, 5, 7, 24, 25, 100] {
            let v = load_variant(&format!("bipyramid-{n}"), None, ("test", None)).unwrap();
            assert_eq!((v.num_vertices(), v.num_faces()), (n + 2, 2 * n));
            let mut degrees: Vec<usize> = v.incidence().iter().map(|i| i.len()).collect();
            degrees.sort_unstable();
            let mut want = vec![4; n];
            want.extend([n, n]);
            want.sort_unstable();
            assert_eq!(degrees, want);
        }
        // The eight convex deltahedra: 4, 6, ..., 16 and 20 faces, Euler's formula, and
        // vertex degrees 3 to 5 as for every convex deltahedron.
        for (name, faces) in builtin::DELTAHEDRA.iter().zip([4, 6, 8, 10, 12, 14, 16, 20]) {
            let v = load_variant(name, None, ("test", None)).unwrap();
            assert_eq!(v.num_faces(), faces, "{name}");
            let edges = 3 * faces / 2;
            assert_eq!(v.num_vertices() + faces, edges + 2, "{name}: Euler");
            assert!(v.incidence().iter().all(|i| (3..=5).contains(&i.len())), "{name}");
        }
        let b4 = load_variant("bipyramid-4", None, ("test", None)).unwrap();
        let oct = load_variant("octahedron", None, ("test", None)).unwrap();
        assert_eq!(b4.faces, oct.faces);
        assert_eq!(b4.vertices, oct.vertices);
        for bad in ["bipyramid-2", "bipyramid-x", "bipyramid-"] {
            assert!(load_variant(bad, None, ("test", None)).is_err(), "{bad}");
        }
        let ico = load_variant("icosahedron", None, ("test", None)).unwrap();
        assert_eq!((ico.num_vertices(), ico.num_faces()), (12, 20));
        assert!(ico.incidence().iter().all(|i| i.len() == 5));
    }

    #[test]
    fn orientation_error_names_the_edge_and_line() {
        let text = "vertices = [\"A\",\"B\",\"C\",\"D\"]\nfaces = [\n [\"A\",\"B\",\"C\"],\n [\"A\",\"C\",\"D\"],\n [\"A\",\"B\",\"D\"],\n [\"B\",\"D\",\"C\"],\n]\n";
        let e = parse_variant("t.toml", text, "t").unwrap_err();
        assert_eq!(e.line, Some(5), "{e}");
        assert!(e.message.contains("edge A-B"), "{e}");
    }

    #[test]
    fn open_surface_is_rejected() {
        let text = "vertices = [\"A\",\"B\",\"C\"]\nfaces = [\"ABC\"]\n";
        let e = parse_variant("t.toml", text, "t").unwrap_err();
        assert!(e.message.contains("not shared"), "{e}");
    }
}

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn letters_of_any_script_are_names() {
        let text = "vertices = [\"Ä\", \"ß\", \"中\", \"é_1\"]\nfaces = [\"Äß中\", [\"Ä\", \"中\", \"é_1\"], \"Ä,é_1,ß\", \"ß,é_1,中\"]\n";
        let e = parse_variant("t.toml", text, "t").unwrap_err();
        // "Äß中" is not three names here: é_1 is longer than one character.
        assert_eq!(e.line, Some(2), "{e}");
        let text = text.replace("\"Äß中\"", "\"Ä,ß,中\"");
        let v = parse_variant("t.toml", &text, "t").unwrap();
        assert_eq!(v.vertices, ["Ä", "ß", "中", "é_1"]);
        assert_eq!(v.face_label(1), "Ä,中,é_1");
        let short = "vertices = [\"Ä\", \"ß\", \"中\", \"é\"]\nfaces = [\"Äß中\", \"Ä中é\", \"Äéß\", \"ßé中\"]\n";
        assert_eq!(parse_variant("t.toml", short, "t").unwrap().face_label(0), "Äß中");
    }

    #[test]
    fn a_bad_name_is_shown_with_its_character_and_line() {
        let text = "vertices = [\n  \"A\",\n  \"B-1\",\n  \"C\",\n  \"D\",\n]\nfaces = [\"ABC\"]\n";
        let e = parse_variant("t.toml", text, "t").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(
            e.message.contains("'-' (U+002D) is not a letter, a digit or '_'"),
            "{e}"
        );
        let text = "vertices = [\"A\", \"B\", \"A\"]\nfaces = [\"ABC\"]\n";
        let e = parse_variant("t.toml", text, "t").unwrap_err();
        assert!(e.message.contains("listed twice"), "{e}");
        let long = format!("vertices = [\"{}\"]\nfaces = [\"A\"]\n", "x".repeat(65));
        let e = parse_variant("t.toml", &long, "t").unwrap_err();
        assert!(e.message.contains("65 characters"), "{e}");
        let e = parse_variant("t.toml", "name = \"a\\nb\"\nvertices = [\"A\"]\nfaces = [\"A\"]\n", "t").unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
        assert!(e.message.contains("line break"), "{e}");
    }

    #[test]
    fn a_face_of_the_wrong_shape_says_what_a_face_is() {
        let text = "vertices = [\"A\", \"B\", \"C\", \"D\"]\nfaces = [\n  \"ABC\",\n  [\"A\", 3, \"D\"],\n]\n";
        let e = parse_variant("t.toml", text, "t").unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        assert!(!e.message.contains("untagged"), "{e}");
        assert!(e.message.contains("a face is a list of three vertex names"), "{e}");
    }

    #[test]
    fn underscored_face_strings_are_read_only_when_unambiguous() {
        let names: Vec<String> = ["x_y", "z", "w", "y_z", "x", "v"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let split = |s: &str| split_face_text(&names, s);
        assert_eq!(split("x_y,z,w").unwrap(), ["x_y", "z", "w"]);
        assert_eq!(split("v_x_z").unwrap(), ["v", "x", "z"]);
        let e = split("x_y_z_w").unwrap_err().0;
        assert!(
            e.contains("ambiguous") && e.contains("x_y,z,w") && e.contains("x,y_z,w"),
            "{e}"
        );
        assert!(split("q_r_s").unwrap_err().0.contains("not three vertex names"));
    }
}
