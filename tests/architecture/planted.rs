//! The import graph's checker on small crates written for it, each with a circle planted or
//! hidden where the checker must (or must not) see it.

use super::graph;
use std::path::Path;

/// Writes the files (paths from the source root) into a fresh directory.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The circles of the crate under `root`, each as its sorted files, and their description.
fn circles(root: &Path) -> (Vec<Vec<String>>, String) {
    let krate = graph::load(root);
    let edges = krate.edges();
    let circles = graph::circles(&edges);
    let text = graph::describe(&krate, &edges, &circles);
    let named = circles
        .iter()
        .map(|c| c.iter().map(|&f| krate.files[f].rel.clone()).collect())
        .collect();
    (named, text)
}

/// `from` names an item of `to` (paths from the source root).
fn edge(root: &Path, from: &str, to: &str) -> bool {
    let krate = graph::load(root);
    let (f, t) = (krate.file(from).unwrap(), krate.file(to).unwrap());
    krate.edges()[&f].contains_key(&t)
}

#[test]
fn a_planted_circle_is_found_with_its_edges() {
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::X;\npub struct Y;\n"),
        ("b.rs", "//! b\n\nuse crate::a::Y;\npub struct X;\n"),
        ("c.rs", "use crate::a::Y;\n"),
        ("main.rs", "use sokuc::c;\n"),
    ]);
    let (found, text) = circles(dir.path());
    assert_eq!(found, vec![vec!["a.rs".to_string(), "b.rs".to_string()]], "{text}");
    assert_eq!(
        text,
        "import circle of 2 files: a.rs, b.rs\n  shortest: a.rs -> b.rs -> a.rs\n    a.rs:1 -> b.rs  (crate::b::X)\n    b.rs:3 -> a.rs  (crate::a::Y)\n"
    );
}

#[test]
fn tests_placed_before_production_code_hide_no_circle() {
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        (
            "a.rs",
            "#[cfg(test)]\nmod tests {\n    use crate::c::Z;\n    fn t() { let s = \"}\"; }\n}\n\n\
             pub fn f() -> crate::b::X {\n    todo!()\n}\npub struct Y;\n",
        ),
        ("b.rs", "#[cfg(test)]\nfn early() {}\npub struct X(super::a::Y);\n"),
        ("c.rs", "pub struct Z;\n"),
    ]);
    let (found, text) = circles(dir.path());
    assert_eq!(found, vec![vec!["a.rs".to_string(), "b.rs".to_string()]], "{text}");
    assert!(!edge(dir.path(), "a.rs", "c.rs"), "the test module's use is an edge");
}

#[test]
fn a_circle_through_test_code_alone_is_none() {
    let dir = tree(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::X;\npub struct Y;\n"),
        (
            "b.rs",
            "//! See crate::a::Y, /* and */ crate::a::Y.\n\
             /* crate::a::Y /* nested */ crate::a::Y */\n\
             pub struct X;\n\
             const S: &str = \"crate::a::Y\";\n\
             const R: &str = r#\"crate::a::Y \" crate::a::Y\"#;\n\
             const C: char = '\"';\n\
             fn f<'a>(x: &'a str) -> &'a str { x }\n\
             #[cfg(test)]\nuse crate::a::Y;\n\
             #[cfg(test)]\n#[allow(dead_code)]\npub(crate) fn helper() -> crate::a::Y { crate::a::Y }\n\
             #[cfg(test)]\nimpl X {\n    fn y() -> super::a::Y { super::a::Y }\n}\n\
             #[cfg(all(test, unix))]\nmod unix_tests { use crate::a::Y; }\n\
             #[cfg(test)]\nmod more;\n\
             pub fn g() {}\n",
        ),
        ("b/more.rs", "use crate::a::Y;\nmod deeper;\n"),
        ("b/more/deeper.rs", "use crate::a::Y;\n"),
    ]);
    let (found, text) = circles(dir.path());
    assert!(found.is_empty(), "{text}");
    assert!(edge(dir.path(), "a.rs", "b.rs"));
    let krate = graph::load(dir.path());
    assert!(krate.file("b/more.rs").is_none() && krate.file("b/more/deeper.rs").is_none());
    // What follows the test code is read: b.rs's last function is code.
    assert!(
        krate.files[krate.file("b.rs").unwrap()]
            .source
            .code
            .contains("pub fn g() {}")
    );
}

#[test]
fn paths_are_resolved_through_modules_and_re_exports() {
    let dir = tree(&[
        ("lib.rs", "mod m;\nmod n;\nmod z;\npub use m::Foo;\n"),
        (
            "m/mod.rs",
            "mod bar;\nmod baz;\nmod qux;\npub use bar::Foo;\npub use self::baz::{Baz, Two as Renamed};\n\
             pub mod inline {\n    pub fn h() -> super::qux::Q { todo!() }\n}\n\
             pub fn helper() {}\n",
        ),
        ("m/bar.rs", "use super::Baz;\npub struct Foo(Baz, super::Renamed);\n"),
        ("m/baz.rs", "pub struct Baz;\npub struct Two;\n"),
        (
            "m/qux.rs",
            "pub struct Q;\nfn f() {\n    super::helper();\n    let _ = super::super::z::Z;\n}\n",
        ),
        ("z.rs", "pub struct Z;\n"),
        (
            "n.rs",
            "use crate::m;\npub struct N(m::inline::Unknown);\nfn f() -> crate::Foo { todo!() }\n",
        ),
    ]);
    let root = dir.path();
    // `super::Baz` and `super::Renamed` reach baz.rs through mod.rs's re-exports.
    assert!(edge(root, "m/bar.rs", "m/baz.rs") && !edge(root, "m/bar.rs", "m/mod.rs"));
    // The re-exports themselves, and a path from an inline module.
    assert!(edge(root, "m/mod.rs", "m/bar.rs") && edge(root, "m/mod.rs", "m/baz.rs"));
    assert!(edge(root, "m/mod.rs", "m/qux.rs"));
    assert!(edge(root, "m/qux.rs", "z.rs") && edge(root, "m/qux.rs", "m/mod.rs"));
    // Through a module's `use`, and through the crate root's re-export to the defining file.
    assert!(edge(root, "n.rs", "m/mod.rs") && edge(root, "n.rs", "m/bar.rs"));
    assert!(!edge(root, "n.rs", "lib.rs"));
    let (found, text) = circles(root);
    assert_eq!(
        found,
        vec![vec!["m/mod.rs".to_string(), "m/qux.rs".to_string()]],
        "{text}"
    );
}
