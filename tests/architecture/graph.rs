//! The library's import graph between files, read from the source alone (this is a test that
//! reads files, it does not link sokuc).
//!
//! A node is a file of the library (every `.rs` under the source root but `main.rs`, `cli/`
//! and `bin/`, and but the files of test-only modules, `#[cfg(test)] mod x;`, with their
//! descendants); `lib.rs` is the crate root. An edge F -> G says that F names an item of G
//! through a path: a `use` (nested braces, `as`, globs) or a qualified path in the code
//! (`crate::x::y`, `super::x`, `self::x`, a child module's `child::x`, or `m::x` through a
//! `use` of the module `m`). Each path is resolved as rustc would: `super` from the file's
//! module (a `mod.rs` or `x.rs` file's module is its directory's), to the deepest prefix
//! that is a module with a file, and then through that module's imports (`pub use bar::Foo;`
//! in mod.rs sends `super::Foo` on to bar.rs) to the file that defines the name. A `mod x;`
//! declaration is no edge. What [`super::source::read`] blanks (comments, literals,
//! test-only items) makes none either.

use super::source::{self, Source};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type ModPath = Vec<String>;

/// A file of the library, read.
pub struct File {
    /// The path from the source root, with `/`.
    pub rel: String,
    /// Its module (`["encode", "cnf"]`; the crate root is `[]`).
    pub module: ModPath,
    pub source: Source,
    /// Names of the items it defines at its top level (`mod x;` included).
    defs: BTreeSet<String>,
    /// Its `use`s, each with what it binds.
    uses: Vec<Use>,
    /// The qualified paths in its code.
    paths: Vec<Named>,
}

/// A path as written, with where it stands.
struct Named {
    segs: Vec<String>,
    /// The inline modules around it (`mod m { ... }`), inside the file's module.
    inline: ModPath,
    pos: usize,
}

struct Use {
    named: Named,
    /// The name it binds (`None` for a glob or `as _`).
    binding: Option<String>,
    glob: bool,
    /// At the file's top level (not inside a function or an inline module): a name other
    /// files can reach through the module.
    top: bool,
    /// Resolved from the crate root; `None` for a path outside the crate.
    abs: Option<ModPath>,
}

/// The library's files, read, and its modules that have a file.
pub struct Crate {
    pub files: Vec<File>,
    by_module: BTreeMap<ModPath, usize>,
}

/// Why an edge is there: the first path in the source file that makes it.
pub struct Edge {
    pub line: usize,
    pub path: String,
}

pub type Edges = BTreeMap<usize, BTreeMap<usize, Edge>>;

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The module a file under the source root is (`a/mod.rs` and `a.rs` are `a`, `lib.rs` the
/// root).
fn module_of(rel: &str) -> ModPath {
    let mut segs: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
    if segs.last().is_some_and(|s| s == "mod") || rel == "lib.rs" {
        segs.pop();
    }
    segs
}

/// Reads the library under the source root `root`.
pub fn load(root: &Path) -> Crate {
    let mut files: Vec<File> = rust_files(root)
        .into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            if rel == "main.rs" || rel.starts_with("cli/") || rel.starts_with("bin/") {
                return None;
            }
            let source = source::read(&std::fs::read_to_string(&p).unwrap());
            Some(parse(rel, source))
        })
        .collect();
    // Test-only modules and everything below them are not built outside tests.
    let mut test_only: Vec<ModPath> = Vec::new();
    for f in &files {
        if f.source.test_only {
            test_only.push(f.module.clone());
        }
        for (name, pos) in &f.source.test_modules {
            let mut m = f.module.clone();
            m.extend(inline_at(&f.source.code, *pos));
            m.push(name.clone());
            test_only.push(m);
        }
    }
    files.retain(|f| !test_only.iter().any(|t| f.module.starts_with(t)));
    let by_module = files.iter().enumerate().map(|(i, f)| (f.module.clone(), i)).collect();
    let mut krate = Crate { files, by_module };
    krate.resolve_uses();
    krate
}

impl Crate {
    /// The file whose path from the source root is `rel`.
    pub fn file(&self, rel: &str) -> Option<usize> {
        self.files.iter().position(|f| f.rel == rel)
    }
}

/// Tokens: words (identifiers, keywords, numbers), `::`, and single punctuation characters.
fn tokens(code: &str) -> Vec<(&str, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            out.push((&code[s..i], s));
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push(("::", i));
            i += 2;
        } else {
            out.push((&code[i..i + 1], i));
            i += 1;
        }
    }
    out
}

fn is_name(t: &str) -> bool {
    t.bytes()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_' || c >= 0x80)
}

/// For each token: the inline modules around it, and its brace depth.
fn scopes(toks: &[(&str, usize)]) -> Vec<(ModPath, usize)> {
    let mut out = Vec::with_capacity(toks.len());
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    for (k, &(t, _)) in toks.iter().enumerate() {
        match t {
            "{" => {
                depth += 1;
                if k >= 2 && toks[k - 2].0 == "mod" && is_name(toks[k - 1].0) {
                    open.push((toks[k - 1].0.to_string(), depth));
                }
            }
            "}" => {
                if open.last().is_some_and(|o| o.1 == depth) {
                    open.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        out.push((open.iter().map(|o| o.0.clone()).collect(), depth));
    }
    out
}

/// The inline modules around the byte offset `pos` of a file's code.
fn inline_at(code: &str, pos: usize) -> ModPath {
    let toks = tokens(code);
    let k = toks.iter().position(|t| t.1 >= pos).unwrap_or(toks.len());
    if k == 0 {
        Vec::new()
    } else {
        scopes(&toks)[k - 1].0.clone()
    }
}

/// One `use` tree from `toks[*i]`, flattened into paths with what each binds.
fn use_tree(
    toks: &[(&str, usize)],
    i: &mut usize,
    mut segs: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>, bool)>,
) {
    while let Some(&(t, _)) = toks.get(*i) {
        *i += 1;
        match t {
            "::" if segs.is_empty() => segs.push("::".into()),
            "::" => {}
            "{" => {
                while toks.get(*i).is_some_and(|t| t.0 != "}") {
                    use_tree(toks, i, segs.clone(), out);
                    if toks.get(*i).is_some_and(|t| t.0 == ",") {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            "*" => {
                out.push((segs, None, true));
                return;
            }
            name if is_name(name) => {
                if toks.get(*i).is_some_and(|t| t.0 == "::") {
                    segs.push(name.into());
                    continue;
                }
                let mut binding = if name == "self" {
                    segs.last().cloned()
                } else {
                    Some(name.to_string())
                };
                if name != "self" {
                    segs.push(name.into());
                }
                if toks.get(*i).is_some_and(|t| t.0 == "as") {
                    binding = toks.get(*i + 1).map(|t| t.0.to_string()).filter(|b| b != "_");
                    *i += 2;
                }
                out.push((segs, binding, false));
                return;
            }
            _ => return,
        }
    }
}

/// A file's items, `use`s and paths.
fn parse(rel: String, source: Source) -> File {
    let module = module_of(&rel);
    let toks = tokens(&source.code);
    let scope = scopes(&toks);
    let (mut defs, mut uses, mut paths) = (BTreeSet::new(), Vec::new(), Vec::new());
    let mut i = 0;
    while i < toks.len() {
        let (t, pos) = toks[i];
        let (inline, depth) = scope[i].clone();
        let next = |k: usize| toks.get(i + k).map_or("", |t| t.0);
        if t == "use" {
            let mut tree = Vec::new();
            i += 1;
            use_tree(&toks, &mut i, Vec::new(), &mut tree);
            for (segs, binding, glob) in tree {
                let named = Named {
                    segs,
                    inline: inline.clone(),
                    pos,
                };
                uses.push(Use {
                    named,
                    binding,
                    glob,
                    top: depth == 0 && inline.is_empty(),
                    abs: None,
                });
            }
            continue;
        }
        let item = [
            "fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod",
        ];
        let lifetime = i > 0 && toks[i - 1].0 == "'";
        if depth == 0
            && inline.is_empty()
            && !lifetime
            && item.contains(&t)
            && is_name(next(1))
            && !item.contains(&next(1))
        {
            defs.insert(next(1).to_string());
        }
        if t == "macro_rules" && next(1) == "!" {
            defs.insert(next(2).to_string());
        }
        let after_colons = i > 0 && toks[i - 1].0 == "::";
        if is_name(t) && !after_colons && next(1) == "::" && is_name(next(2)) {
            let mut segs = vec![t.to_string()];
            let mut j = i + 1;
            while toks.get(j).is_some_and(|t| t.0 == "::") && toks.get(j + 1).is_some_and(|t| is_name(t.0)) {
                segs.push(toks[j + 1].0.to_string());
                j += 2;
            }
            paths.push(Named { segs, inline, pos });
            i = j;
            continue;
        }
        i += 1;
    }
    File {
        rel,
        module,
        source,
        defs,
        uses,
        paths,
    }
}

/// Where a path leads from the crate root, or `None` when it leaves the crate (or names
/// something local: a type's associated item, a variable's field).
enum Found {
    /// The file that defines the name.
    Defined(usize),
    /// The file of the deepest module on the path, whose names could not all be followed.
    Module(usize),
    Outside,
}

impl Crate {
    /// A path of file `f` from the crate root: through `crate`, `super`, `self`, a child
    /// module, or a name that one of the file's `use`s binds (`binds`, when given). The
    /// second value is the `use` binding the path went through.
    fn absolute(
        &self,
        f: usize,
        named: &Named,
        binds: Option<&BTreeMap<String, ModPath>>,
    ) -> Option<(ModPath, Option<String>)> {
        let mut here = self.files[f].module.clone();
        here.extend(named.inline.iter().cloned());
        let segs = &named.segs;
        let (mut base, mut k) = match segs[0].as_str() {
            "::" => return None,
            "crate" => (Vec::new(), 1),
            "self" => (here, 1),
            "super" => (here, 0),
            first => {
                let mut child = here.clone();
                child.push(first.to_string());
                if self.by_module.contains_key(&child) {
                    (here, 0)
                } else {
                    let target = binds?.get(first)?;
                    let mut p = target.clone();
                    p.extend(segs[1..].iter().cloned());
                    return Some((p, Some(first.to_string())));
                }
            }
        };
        while segs.get(k).is_some_and(|s| s == "super") {
            base.pop()?;
            k += 1;
        }
        base.extend(segs[k..].iter().cloned());
        Some((base, None))
    }

    /// Resolves every `use` to its path from the crate root. A `use` may start from a name
    /// another `use` binds (`use crate::encode; use encode::cnf::Cnf;`), so this repeats.
    fn resolve_uses(&mut self) {
        for _ in 0..4 {
            for f in 0..self.files.len() {
                let binds = self.bindings(f);
                let abs: Vec<Option<ModPath>> = self.files[f]
                    .uses
                    .iter()
                    .map(|u| {
                        let mut b = binds.clone();
                        if let Some(own) = &u.binding {
                            b.remove(own);
                        }
                        self.absolute(f, &u.named, Some(&b)).map(|a| a.0)
                    })
                    .collect();
                for (u, a) in self.files[f].uses.iter_mut().zip(abs) {
                    u.abs = a;
                }
            }
        }
    }

    /// What the `use`s of file `f` bind, from the crate root.
    fn bindings(&self, f: usize) -> BTreeMap<String, ModPath> {
        let uses = self.files[f].uses.iter();
        uses.filter_map(|u| Some((u.binding.clone()?, u.abs.clone()?)))
            .collect()
    }

    /// The file that defines what `path` (from the crate root) names.
    fn find(&self, path: &[String], hops: usize) -> Found {
        let Some((n, &node)) = (0..=path.len())
            .rev()
            .find_map(|n| self.by_module.get(&path[..n]).map(|m| (n, m)))
        else {
            return Found::Outside;
        };
        let Some(name) = path.get(n) else {
            return Found::Module(node);
        };
        let file = &self.files[node];
        if file.defs.contains(name) || hops > 16 {
            return Found::Defined(node);
        }
        let follow = |abs: &ModPath| {
            let mut p = abs.clone();
            p.extend(path[n + 1..].iter().cloned());
            p
        };
        let top = file.uses.iter().filter(|u| u.top);
        if let Some(u) = top.clone().find(|u| u.binding.as_ref() == Some(name)) {
            return match &u.abs {
                Some(abs) => self.find(&follow(abs), hops + 1),
                None => Found::Outside,
            };
        }
        for u in top.filter(|u| u.glob) {
            if let Some(abs) = &u.abs {
                let mut p = abs.clone();
                p.extend(path[n..].iter().cloned());
                if let Found::Defined(g) = self.find(&p, hops + 1) {
                    return Found::Defined(g);
                }
            }
        }
        Found::Module(node)
    }

    /// The graph: for each file, the files it names items of.
    pub fn edges(&self) -> Edges {
        let mut edges: Edges = BTreeMap::new();
        for (f, file) in self.files.iter().enumerate() {
            let out = edges.entry(f).or_default();
            let binds = self.bindings(f);
            let mut via = BTreeSet::new();
            let mut named: Vec<(ModPath, &Named)> = Vec::new();
            for p in &file.paths {
                if let Some((abs, through)) = self.absolute(f, p, Some(&binds)) {
                    via.extend(through);
                    named.push((abs, p));
                }
            }
            for u in &file.uses {
                let Some(abs) = &u.abs else { continue };
                // `use crate::encode;` names a module: what the file names is what it
                // reaches through it (`encode::cnf::Cnf`), unless it never does.
                let module = !u.glob && self.by_module.contains_key(abs);
                if module && u.binding.as_ref().is_some_and(|b| via.contains(b)) {
                    continue;
                }
                named.push((abs.clone(), &u.named));
            }
            named.sort_by_key(|n| n.1.pos);
            for (abs, n) in named {
                let (Found::Defined(g) | Found::Module(g)) = self.find(&abs, 0) else {
                    continue;
                };
                if g != f {
                    let line = file.source.code[..n.pos].matches('\n').count() + 1;
                    out.entry(g).or_insert(Edge {
                        line,
                        path: n.segs.join("::").replace("::::", "::"),
                    });
                }
            }
        }
        edges
    }
}

/// The strongly connected components of more than one file, each sorted, in order.
pub fn circles(edges: &Edges) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        edges: &'a Edges,
        index: BTreeMap<usize, usize>,
        low: BTreeMap<usize, usize>,
        stack: Vec<usize>,
        on: BTreeSet<usize>,
        out: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for &w in self.edges.get(&v).into_iter().flat_map(|e| e.keys()) {
                if !self.index.contains_key(&w) {
                    self.visit(w);
                    self.low.insert(v, self.low[&v].min(self.low[&w]));
                } else if self.on.contains(&w) {
                    self.low.insert(v, self.low[&v].min(self.index[&w]));
                }
            }
            if self.low[&v] == self.index[&v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(&w);
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for &v in edges.keys() {
        if !t.index.contains_key(&v) {
            t.visit(v);
        }
    }
    t.out.sort();
    t.out
}

/// The shortest circle through the files of `c` (a strongly connected component), from its
/// first file round to it again.
fn shortest(edges: &Edges, c: &[usize]) -> Vec<usize> {
    let mut best: Vec<usize> = Vec::new();
    for &start in c {
        // Breadth first from `start`, inside the component, until an edge leads back.
        let mut came: BTreeMap<usize, usize> = BTreeMap::new();
        let mut todo = std::collections::VecDeque::from([start]);
        'search: while let Some(v) = todo.pop_front() {
            for &w in edges[&v].keys().filter(|w| c.contains(w)) {
                if w == start {
                    // Back from `v` to `start`, which no file was reached from.
                    let mut path = vec![v];
                    while let Some(&p) = came.get(path.last().unwrap()) {
                        path.push(p);
                    }
                    path.reverse();
                    path.push(start);
                    if best.is_empty() || path.len() < best.len() {
                        best = path;
                    }
                    break 'search;
                }
                if let std::collections::btree_map::Entry::Vacant(e) = came.entry(w) {
                    e.insert(v);
                    todo.push_back(w);
                }
            }
        }
    }
    best
}

/// Each circle with its edges (`file:line -> file (the path that names it)`), and the
/// shortest way round it.
pub fn describe(krate: &Crate, edges: &Edges, circles: &[Vec<usize>]) -> String {
    let mut s = String::new();
    for c in circles {
        let names: Vec<&str> = c.iter().map(|&f| krate.files[f].rel.as_str()).collect();
        s += &format!("import circle of {} files: {}\n", c.len(), names.join(", "));
        let round: Vec<&str> = shortest(edges, c)
            .iter()
            .map(|&f| krate.files[f].rel.as_str())
            .collect();
        s += &format!("  shortest: {}\n", round.join(" -> "));
        for &f in c {
            for (g, e) in edges[&f].iter().filter(|(g, _)| c.contains(g)) {
                s += &format!(
                    "    {}:{} -> {}  ({})\n",
                    krate.files[f].rel, e.line, krate.files[*g].rel, e.path
                );
            }
        }
    }
    s
}
