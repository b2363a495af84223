//! A playing field: named vertices and triangular faces, clockwise seen from outside.

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
    #[error("vertex name {0:?} is not allowed (use letters, digits and '_')")]
    BadVertexName(String),
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

fn valid_vertex_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Variant {
    /// Builds and validates a variant from vertex names and faces given by vertex names.
    pub fn new(name: &str, vertices: Vec<String>, faces: &[Vec<String>]) -> Result<Variant, VariantError> {
        if faces.len() > crate::input::limits::max_faces() {
            return Err(VariantError::TooManyFaces(
                faces.len(),
                crate::input::limits::max_faces(),
            ));
        }
        if vertices.is_empty() || faces.is_empty() {
            return Err(VariantError::Empty);
        }
        let mut index = HashMap::new();
        for (i, v) in vertices.iter().enumerate() {
            if !valid_vertex_name(v) {
                return Err(VariantError::BadVertexName(v.clone()));
            }
            if index.insert(v.as_str(), i).is_some() {
                return Err(VariantError::DuplicateVertex(v.clone()));
            }
        }
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

    /// A face written as "ABC" (one-character names) or "A_B_C".
    pub fn face_label(&self, face: usize) -> String {
        let sep = if self.short_names() { "" } else { "_" };
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

    /// Splits a face string: "ABC" when names are single characters, or "A_B_C"/"A,B,C".
    pub fn split_face_string(&self, s: &str) -> Vec<String> {
        if s.contains(',') || s.contains('_') && !self.short_names() {
            let sep = if s.contains(',') { ',' } else { '_' };
            s.split(sep).map(|p| p.trim().to_string()).collect()
        } else {
            s.chars()
                .filter(|c| !c.is_whitespace())
                .map(|c| c.to_string())
                .collect()
        }
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
