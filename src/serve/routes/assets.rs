//! The page and its assets, compiled into the binary: the server reads no file from disk.
//! The script is ES modules (`web/app.js` and `web/modules/*.js`), each served at its path.

use crate::serve::reply::{Reply, error};

const INDEX: &str = include_str!("../../../web/index.html");
const STYLE: &str = include_str!("../../../web/style.css");

/// The page's JavaScript, by path: the entry module and the modules it imports.
const SCRIPTS: &[(&str, &str)] = &[
    ("/app.js", include_str!("../../../web/app.js")),
    ("/modules/answer.js", include_str!("../../../web/modules/answer.js")),
    ("/modules/api.js", include_str!("../../../web/modules/api.js")),
    ("/modules/dom.js", include_str!("../../../web/modules/dom.js")),
    ("/modules/edits.js", include_str!("../../../web/modules/edits.js")),
    ("/modules/faces.js", include_str!("../../../web/modules/faces.js")),
    ("/modules/grids.js", include_str!("../../../web/modules/grids.js")),
    ("/modules/jobs.js", include_str!("../../../web/modules/jobs.js")),
    ("/modules/link.js", include_str!("../../../web/modules/link.js")),
    ("/modules/mine.js", include_str!("../../../web/modules/mine.js")),
    ("/modules/net.js", include_str!("../../../web/modules/net.js")),
    ("/modules/parse.js", include_str!("../../../web/modules/parse.js")),
    ("/modules/pegs.js", include_str!("../../../web/modules/pegs.js")),
    ("/modules/request.js", include_str!("../../../web/modules/request.js")),
    ("/modules/rotation.js", include_str!("../../../web/modules/rotation.js")),
    (
        "/modules/solutions.js",
        include_str!("../../../web/modules/solutions.js"),
    ),
    ("/modules/state.js", include_str!("../../../web/modules/state.js")),
    ("/modules/steps.js", include_str!("../../../web/modules/steps.js")),
    ("/modules/tabs.js", include_str!("../../../web/modules/tabs.js")),
    ("/modules/tiles.js", include_str!("../../../web/modules/tiles.js")),
    ("/modules/toml.js", include_str!("../../../web/modules/toml.js")),
    ("/modules/tools.js", include_str!("../../../web/modules/tools.js")),
    ("/modules/urlstate.js", include_str!("../../../web/modules/urlstate.js")),
    ("/modules/variant.js", include_str!("../../../web/modules/variant.js")),
    ("/modules/vec.js", include_str!("../../../web/modules/vec.js")),
    ("/modules/view3d.js", include_str!("../../../web/modules/view3d.js")),
    ("/modules/words.js", include_str!("../../../web/modules/words.js")),
];

pub(super) fn get(path: &str) -> Reply {
    match path {
        "/" | "/index.html" => Reply::text("text/html; charset=utf-8", INDEX),
        "/style.css" => Reply::text("text/css; charset=utf-8", STYLE),
        "/favicon.ico" => Reply::text("image/svg+xml", ""),
        _ => match SCRIPTS.iter().find(|(p, _)| *p == path) {
            // Module scripts are refused by the browser under any other type.
            Some((_, text)) => Reply::text("text/javascript; charset=utf-8", *text),
            None => error(404, format!("no such page: {path}")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::SCRIPTS;

    /// A module left out of the table would be a 404 in the browser, and the page would not
    /// start: every file in web/modules and every module a script imports is served.
    #[test]
    fn every_module_is_served() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/modules");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".js"))
            .map(|n| format!("/modules/{n}"))
            .collect();
        files.sort();
        let mut served: Vec<String> = SCRIPTS
            .iter()
            .map(|(p, _)| p.to_string())
            .filter(|p| p.starts_with("/modules/"))
            .collect();
        served.sort();
        assert_eq!(files, served);
        for (path, text) in SCRIPTS {
            for import in text.split(" from '").skip(1) {
                let target = import.split('\'').next().unwrap();
                let name = target.rsplit('/').next().unwrap();
                let full = format!("/modules/{name}");
                assert!(
                    SCRIPTS.iter().any(|(p, _)| *p == full),
                    "{path} imports {target}, which is not served"
                );
            }
        }
    }
}
