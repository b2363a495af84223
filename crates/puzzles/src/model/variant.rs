//! A playing field: named vertices and triangular faces, clockwise seen from outside.
//!
//! Loading checks that each face has three distinct known vertices, that no face repeats, that
//! every edge is shared by exactly two faces in opposite directions (a closed, consistently
//! oriented surface), and that every vertex is used; an error says which check failed, on
//! which face. Vertex names are 1 to 64 letters (of any script), digits and `_`, never `,` or
//! a space, so that messages can write a face as `ABC` (one-character names) or `x_y,z,w` and
//! no two faces read alike.

use std::collections::HashMap;

/// A validated polyhedron with triangular faces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub vertices: Vec<String>,
    /// Vertex indices of each face, clockwise from outside.
    pub faces: Vec<[usize; 3]>,
}

/// What is wrong with a variant; `face` is the 0-based index of the offending face, if any.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error("a variant needs at least one vertex and one face")]
    Empty,
    #[error("vertex name {} is not allowed: {} (a name is 1 to {MAX_NAME_CHARS} letters, digits or '_', in any script)", shown(.0), name_problem(.0))]
    BadVertexName(String),
    #[error("variant name {0:?} is not allowed: it contains a line break or another control character")]
    BadVariantName(String),
    #[error("vertex {0:?} is listed twice")]
    DuplicateVertex(String),
    #[error("face {face_label} names unknown vertex {vertex:?}")]
    UnknownVertex {
        face: usize,
        face_label: String,
        vertex: String,
    },
    #[error("face {face_label} does not have three distinct vertices")]
    RepeatedVertex { face: usize, face_label: String },
    #[error("face {face_label} is listed twice (also as face #{first})")]
    DuplicateFace {
        face: usize,
        face_label: String,
        first: usize,
    },
    #[error(
        "edge check failed: edge {a}-{b} is used in the same direction by faces {f1} and {f2}; faces must all be clockwise from outside"
    )]
    SameOrientation {
        face: usize,
        a: String,
        b: String,
        f1: String,
        f2: String,
    },
    #[error("edge check failed: edge {a}-{b} of face {f1} is not shared with another face (the surface is not closed)")]
    OpenEdge {
        face: usize,
        a: String,
        b: String,
        f1: String,
    },
    #[error("edge check failed: edge {a}-{b} is shared by more than two faces ({faces})")]
    NonManifoldEdge {
        face: usize,
        a: String,
        b: String,
        faces: String,
    },
    #[error("vertex {0:?} is on no face")]
    UnusedVertex(String),
    #[error("{0} faces is more than the limit of {1} (SOKUC_MAX_FACES raises it)")]
    TooManyFaces(usize, usize),
}

impl VariantError {
    /// The face the error is about, so parsers can point at its line.
    pub fn face(&self) -> Option<usize> {
        match self {
            VariantError::UnknownVertex { face, .. }
            | VariantError::RepeatedVertex { face, .. }
            | VariantError::DuplicateFace { face, .. }
            | VariantError::SameOrientation { face, .. }
            | VariantError::OpenEdge { face, .. }
            | VariantError::NonManifoldEdge { face, .. } => Some(*face),
            _ => None,
        }
    }
}

/// The longest vertex name, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Vertex names are letters and digits of any script, and '_': never ',' or a space, so a
/// face written as "x_y,z,w" names its vertices unambiguously. Exports do not use the names
/// as they are (see `soku::compile`), so non-ASCII letters are safe.
fn name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// What is wrong with a vertex name, or `None` when it is fine.
fn vertex_name_problem(name: &str) -> Option<String> {
    let n = name.chars().count();
    if n == 0 {
        return Some("it is empty".into());
    }
    if n > MAX_NAME_CHARS {
        return Some(format!("it has {n} characters"));
    }
    name.chars()
        .find(|&c| !name_char(c))
        .map(|c| format!("{c:?} (U+{:04X}) is not a letter, a digit or '_'", c as u32))
}

fn name_problem(name: &str) -> String {
    vertex_name_problem(name).unwrap_or_default()
}

/// A name quoted for a message, cut short when it is far too long to be a name.
fn shown(name: &str) -> String {
    if name.chars().count() <= MAX_NAME_CHARS + 16 {
        format!("{name:?}")
    } else {
        format!("{:?}...", name.chars().take(MAX_NAME_CHARS).collect::<String>())
    }
}

impl Variant {
    /// Builds and validates a variant from vertex names and faces given by vertex names.
    pub fn new(name: &str, vertices: Vec<String>, faces: &[Vec<String>]) -> Result<Variant, VariantError> {
        if faces.len() > crate::model::limits::max_faces() {
            return Err(VariantError::TooManyFaces(
                faces.len(),
                crate::model::limits::max_faces(),
            ));
        }
        if vertices.is_empty() || faces.is_empty() {
            return Err(VariantError::Empty);
        }
        // The name ends up in comments of every export and in one-line messages.
        if name.chars().any(char::is_control) {
            return Err(VariantError::BadVariantName(name.to_string()));
        }
        Variant::check_vertex_names(&vertices)?;
        let index: HashMap<&str, usize> = vertices.iter().enumerate().map(|(i, v)| (v.as_str(), i)).collect();
        let mut out = Vec::with_capacity(faces.len());
        for (fi, face) in faces.iter().enumerate() {
            let label = face.join(",");
            if face.len() != 3 {
                return Err(VariantError::RepeatedVertex {
                    face: fi,
                    face_label: format!("[{label}] (a face needs exactly three vertices)"),
                });
            }
            let mut ids = [0usize; 3];
            for (k, v) in face.iter().enumerate() {
                ids[k] = *index.get(v.as_str()).ok_or_else(|| VariantError::UnknownVertex {
                    face: fi,
                    face_label: label.clone(),
                    vertex: v.clone(),
                })?;
            }
            out.push(ids);
        }
        let variant = Variant {
            name: name.to_string(),
            vertices,
            faces: out,
        };
        variant.validate()?;
        Ok(variant)
    }

    /// Checks that every vertex name is allowed and listed once.
    pub fn check_vertex_names(vertices: &[String]) -> Result<(), VariantError> {
        let mut seen = std::collections::HashSet::new();
        for v in vertices {
            if vertex_name_problem(v).is_some() {
                return Err(VariantError::BadVertexName(v.clone()));
            }
            if !seen.insert(v.as_str()) {
                return Err(VariantError::DuplicateVertex(v.clone()));
            }
        }
        Ok(())
    }

    /// Checks the structure: distinct vertices per face, no repeated face, every directed
    /// edge used once and its reverse used once (a closed, consistently oriented surface),
    /// and every vertex on some face.
    pub fn validate(&self) -> Result<(), VariantError> {
        let mut seen_faces: HashMap<[usize; 3], usize> = HashMap::new();
        for (fi, f) in self.faces.iter().enumerate() {
            if f[0] == f[1] || f[1] == f[2] || f[0] == f[2] {
                return Err(VariantError::RepeatedVertex {
                    face: fi,
                    face_label: self.face_label(fi),
                });
            }
            // A face is the same face under rotation of its vertex list (and, as a set, under
            // reflection too): key by the sorted triple.
            let mut key = *f;
            key.sort_unstable();
            if let Some(&first) = seen_faces.get(&key) {
                return Err(VariantError::DuplicateFace {
                    face: fi,
                    face_label: self.face_label(fi),
                    first: first + 1,
                });
            }
            seen_faces.insert(key, fi);
        }
        // directed edge -> faces using it
        let mut directed: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (fi, f) in self.faces.iter().enumerate() {
            for k in 0..3 {
                directed.entry((f[k], f[(k + 1) % 3])).or_default().push(fi);
            }
        }
        for (fi, f) in self.faces.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (f[k], f[(k + 1) % 3]);
                let same = &directed[&(a, b)];
                let rev = directed.get(&(b, a)).map(Vec::as_slice).unwrap_or(&[]);
                let name = |v: usize| self.vertices[v].clone();
                if same.len() + rev.len() > 2 {
                    let all: Vec<String> = same.iter().chain(rev).map(|&g| self.face_label(g)).collect();
                    return Err(VariantError::NonManifoldEdge {
                        face: fi,
                        a: name(a),
                        b: name(b),
                        faces: all.join(", "),
                    });
                }
                if same.len() > 1 {
                    let other = same.iter().copied().find(|&g| g != fi).unwrap_or(fi);
                    return Err(VariantError::SameOrientation {
                        face: fi.max(other),
                        a: name(a),
                        b: name(b),
                        f1: self.face_label(fi.min(other)),
                        f2: self.face_label(fi.max(other)),
                    });
                }
                if rev.is_empty() {
                    return Err(VariantError::OpenEdge {
                        face: fi,
                        a: name(a),
                        b: name(b),
                        f1: self.face_label(fi),
                    });
                }
            }
        }
        let mut used = vec![false; self.vertices.len()];
        for f in &self.faces {
            for &v in f {
                used[v] = true;
            }
        }
        if let Some(v) = used.iter().position(|u| !u) {
            return Err(VariantError::UnusedVertex(self.vertices[v].clone()));
        }
        Ok(())
    }

    pub fn num_vertices(&self) -> usize {
        self.vertices.len()
    }

    pub fn num_faces(&self) -> usize {
        self.faces.len()
    }

    /// True when every vertex name is one character, so faces can be written as "ABC".
    pub fn short_names(&self) -> bool {
        self.vertices.iter().all(|v| v.chars().count() == 1)
    }

    /// A face for messages and labels: "ABC" when every vertex name is one character, else
    /// the names joined by ',' ("x_y,z,w"). Names never contain ',', so different faces
    /// always get different labels (joining with '_' would make faces [x_y, z, w] and
    /// [x, y_z, w] both "x_y_z_w"), and a label reads back as a face string.
    pub fn face_label(&self, face: usize) -> String {
        let sep = if self.short_names() { "" } else { "," };
        self.faces[face]
            .iter()
            .map(|&v| self.vertices[v].as_str())
            .collect::<Vec<_>>()
            .join(sep)
    }

    pub fn vertex_index(&self, name: &str) -> Option<usize> {
        self.vertices.iter().position(|v| v == name)
    }

    /// Finds a face from its vertices in any rotation of the clockwise order.
    pub fn find_face(&self, names: &[String]) -> Option<usize> {
        if names.len() != 3 {
            return None;
        }
        let ids: Vec<usize> = names.iter().map(|n| self.vertex_index(n)).collect::<Option<_>>()?;
        self.faces
            .iter()
            .position(|f| (0..3).any(|r| (0..3).all(|k| f[(k + r) % 3] == ids[k])))
    }

    /// Splits a face string into vertex names (see [`split_face_text`]). When the string
    /// cannot be split, it returns the pieces between '_' as they are, so the caller's
    /// lookup reports an unknown vertex or a wrong count.
    pub fn split_face_string(&self, s: &str) -> Vec<String> {
        split_face_text(&self.vertices, s).unwrap_or_else(|_| s.split('_').map(str::to_string).collect())
    }

    /// For each vertex, the (face, position) pairs where it occurs.
    pub fn incidence(&self) -> Vec<Vec<(usize, usize)>> {
        let mut inc = vec![Vec::new(); self.vertices.len()];
        for (fi, f) in self.faces.iter().enumerate() {
            for (k, &v) in f.iter().enumerate() {
                inc[v].push((fi, k));
            }
        }
        inc
    }
}

/// A face string that cannot be read as three vertex names, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadFace(pub String);

impl From<String> for BadFace {
    fn from(s: String) -> BadFace {
        BadFace(s)
    }
}

/// Splits a face string over the vertex names `vertices`: "ABC" when every name is one
/// character, or names separated by ',' ("x_y,z,w"). The older form "A_B_C" is accepted
/// when exactly one way of cutting it at two '_' gives three vertex names; `Err` says why a
/// string cannot be read, e.g. "x_y_z_w" when both x_y,z,w and x,y_z,w are vertices.
pub fn split_face_text(vertices: &[String], s: &str) -> Result<Vec<String>, BadFace> {
    let s = s.trim();
    if s.contains(',') {
        return Ok(s.split(',').map(|p| p.trim().to_string()).collect());
    }
    if vertices.iter().all(|v| v.chars().count() == 1) {
        return Ok(s
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_string())
            .collect());
    }
    let known = |n: &str| vertices.iter().any(|v| v == n);
    let cuts: Vec<usize> = s.match_indices('_').map(|(i, _)| i).collect();
    let mut found: Vec<Vec<String>> = Vec::new();
    for (k, &i) in cuts.iter().enumerate() {
        for &j in &cuts[k + 1..] {
            let parts = [&s[..i], &s[i + 1..j], &s[j + 1..]];
            if parts.iter().all(|p| known(p)) {
                found.push(parts.iter().map(|p| p.to_string()).collect());
            }
        }
    }
    match found.len() {
        1 => Ok(found.pop().unwrap_or_default()),
        0 if known(s) => Err(format!(
            "face {s:?} names one vertex; a face is three vertex names, as a list [\"a\", \"b\", \"c\"] or a string \"a,b,c\""
        ).into()),
        0 => Err(format!(
            "face {s:?} is not three vertex names; write it as a list [\"a\", \"b\", \"c\"] or a string \"a,b,c\""
        ).into()),
        _ => Err(format!(
            "face {s:?} is ambiguous: it could be {}; write it as a list or with commas",
            found.iter().map(|f| f.join(",")).collect::<Vec<_>>().join(" or ")
        ).into()),
    }
}
