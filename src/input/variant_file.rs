//! Variant files (TOML): `name`, `vertices`, `faces` (clockwise from outside).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::{InputError, line_of, read_text, toml_error};
use crate::model::{Variant, VariantError, builtin};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantToml {
    name: Option<String>,
    vertices: Spanned<Vec<String>>,
    faces: Spanned<Vec<Spanned<FaceSpec>>>,
}

/// A face as a list of vertex names, or as a string "ABC" of one-character names.
#[derive(Deserialize)]
#[serde(untagged)]
enum FaceSpec {
    List(Vec<String>),
    Str(String),
}

/// Parses and validates variant TOML text; `file` names it in errors.
pub fn parse_variant(file: &str, text: &str, default_name: &str) -> Result<Variant, InputError> {
    let raw: VariantToml = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
    let faces: Vec<Vec<String>> = raw
        .faces
        .get_ref()
        .iter()
        .map(|f| match f.get_ref() {
            FaceSpec::List(l) => l.clone(),
            FaceSpec::Str(s) => s
                .chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| c.to_string())
                .collect(),
        })
        .collect();
    let name = raw.name.clone().unwrap_or_else(|| default_name.to_string());
    Variant::new(&name, raw.vertices.get_ref().clone(), &faces).map_err(|e| {
        let line = match &e {
            VariantError::Empty | VariantError::TooManyFaces(..) => line_of(text, raw.faces.span().start),
            VariantError::BadVertexName(_) | VariantError::DuplicateVertex(_) | VariantError::UnusedVertex(_) => {
                line_of(text, raw.vertices.span().start)
            }
            _ => {
                let fi = e.face().unwrap_or(0);
                let span = raw.faces.get_ref().get(fi).map(|s| s.span().start).unwrap_or(0);
                line_of(text, span)
            }
        };
        InputError::new(file, Some(line), format!("invalid variant: {e}"))
    })
}

/// Loads a variant by built-in name, or by path (relative paths resolve against `base`).
///
/// `origin` is the file (and line) that named the variant, used when the name is unknown.
pub fn load_variant(spec: &str, base: Option<&Path>, origin: (&str, Option<usize>)) -> Result<Variant, InputError> {
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
