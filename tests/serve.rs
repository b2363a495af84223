//! `sokuc serve`'s API without a browser: a server in this process on a free port of
//! 127.0.0.1, spoken to over plain HTTP/1.1. Every solution is checked here (the pegs summed
//! from the placements), the refusals that keep other web pages out are each tried, and 200
//! requests from 8 threads come back whole.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sokuc_cli::serve::{ServeOptions, Server};

/// A server on its own thread, stopped when dropped.
struct Running {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn start() -> Running {
    start_with(ServeOptions::new())
}

fn start_with(options: ServeOptions) -> Running {
    let server = Server::bind(&options).unwrap();
    let url = server.url();
    let port: u16 = url.trim_end_matches('/').rsplit(':').next().unwrap().parse().unwrap();
    assert_eq!(url, format!("http://127.0.0.1:{port}/"));
    let stop = Arc::new(AtomicBool::new(false));
    let thread = std::thread::spawn({
        let stop = stop.clone();
        move || server.run(&stop)
    });
    Running {
        port,
        stop,
        thread: Some(thread),
    }
}

/// One request, as raw bytes after the request line's method and path: the status and body.
fn raw(port: u16, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let mut req = head.as_bytes().to_vec();
    req.extend_from_slice(format!("Content-Length: {}\r\nConnection: close\r\n\r\n", body.len()).as_bytes());
    req.extend_from_slice(body);
    s.write_all(&req).unwrap();
    let mut r = BufReader::new(s);
    let mut status = String::new();
    r.read_line(&mut status).unwrap();
    let code: u16 = status.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut length = None;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse::<usize>().ok();
            }
            if k.eq_ignore_ascii_case("transfer-encoding") && v.trim().eq_ignore_ascii_case("chunked") {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    match length {
        // Long answers come in chunks: a hex size line, the bytes, a blank line; 0 ends.
        _ if chunked => loop {
            let mut size = String::new();
            r.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap();
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        },
        Some(n) => {
            body.resize(n, 0);
            r.read_exact(&mut body).unwrap();
        }
        None => {
            r.read_to_end(&mut body).unwrap();
        }
    }
    (code, String::from_utf8(body).unwrap())
}

fn get(port: u16, path: &str) -> (u16, String) {
    raw(port, &format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"), b"")
}

fn post(port: u16, path: &str, body: &Value) -> (u16, Value) {
    let (code, text) = raw(
        port,
        &format!("POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"),
        body.to_string().as_bytes(),
    );
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (code, v)
}

const SEED_PEGS: [u64; 12] = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3];

fn icosoku(pegs: &[u64]) -> String {
    format!(
        "variant = \"icosahedron\"\ntiles = \"icosoku\"\ncapacities = {:?}\n",
        pegs
    )
}

fn seed_request() -> Value {
    json!({"instance": icosoku(&SEED_PEGS), "name": "page.toml"})
}

/// The pegs a 3SoKu answer's placements add up to (its own arithmetic, not sokuc's).
fn sums(answer: &Value) -> Vec<u64> {
    let names: Vec<&str> = answer["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut s = vec![0; names.len()];
    for p in answer["placements"].as_array().unwrap() {
        for (v, c) in p["face"]
            .as_array()
            .unwrap()
            .iter()
            .zip(p["corners"].as_array().unwrap())
        {
            let i = names.iter().position(|n| *n == v.as_str().unwrap()).unwrap();
            s[i] += c.as_u64().unwrap();
        }
    }
    s
}

/// A solved IcoSoKu answer: every face once, the 20 IcoSoKu tiles once each, the pegs met.
fn assert_solves(answer: &Value, pegs: &[u64]) {
    assert_eq!(answer["status"], "sat", "{answer}");
    assert_eq!(answer["verified"], true);
    assert_eq!(sums(answer), pegs, "{answer}");
    let mut tiles: Vec<u64> = answer["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["tile"].as_u64().unwrap())
        .collect();
    tiles.sort_unstable();
    assert_eq!(tiles, (1..=20).collect::<Vec<u64>>());
}

#[test]
fn solves_on_every_backend_of_this_build_and_answers_the_cli_schema() {
    let s = start();
    let (code, info) = post(s.port, "/api/info", &json!({}));
    assert_eq!(code, 405, "{info}");
    let (code, info) = get(s.port, "/api/info");
    assert_eq!(code, 200);
    let info: Value = serde_json::from_str(&info).unwrap();
    // What the page takes from the server rather than keeping copies.
    let icosoku_tiles = info["tile_sets"]["icosoku"].as_array().unwrap();
    assert_eq!(icosoku_tiles.len(), 20, "{info}");
    assert_eq!(icosoku_tiles[14], json!([1, 2, 3]), "{info}");
    for kind in ["kakuro", "trickytriple"] {
        let samples = info["samples"][kind].as_array().unwrap();
        assert_eq!(
            samples.iter().filter(|s| s["default"] == json!(true)).count(),
            1,
            "{kind}"
        );
        assert!(
            samples.iter().all(|s| s["text"].as_str().unwrap().starts_with(kind)),
            "{kind}"
        );
    }
    assert_eq!(info["default_timeout_s"], json!(10.0));
    assert_eq!(info["max_timeout_s"], json!(120.0));
    let backends: Vec<String> = info["backends"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap().to_string())
        .collect();
    assert_eq!(backends[0], "auto");
    assert_eq!(
        &backends[1..],
        sokuc::backend::general()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    );
    for b in &backends {
        let mut req = seed_request();
        req["backend"] = json!(b);
        let (code, answer) = post(s.port, "/api/solve", &req);
        assert_eq!(code, 200, "{b}: {answer}");
        assert_solves(&answer, &SEED_PEGS);
        assert!(answer["elapsed_ms"].as_f64().unwrap() >= 0.0);
        common::assert_schema("outcome", &answer);
        if b != "auto" {
            assert_eq!(answer["backend"], json!(b));
        }
    }
    // The same JSON object as `sokuc solve --format json` (the schema's fields, in order).
    let (_, answer) = post(
        s.port,
        "/api/solve",
        &json!({"instance": icosoku(&SEED_PEGS), "name": "page.toml", "backend": "sat"}),
    );
    let cli = common::sokuc()
        .args([
            "solve",
            "instances/icosoku-seed.toml",
            "--backend",
            "sat",
            "--format",
            "json",
        ])
        .current_dir(common::root())
        .output()
        .unwrap();
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let mut served = keys(&answer);
    served.retain(|k| k != "elapsed_ms");
    assert_eq!(served, keys(&cli));
}

#[test]
fn unsat_and_bad_input_answer_as_the_command_line_does() {
    let s = start();
    let unsat = std::fs::read_to_string(common::root().join("instances/icosoku-unsat.toml")).unwrap();
    let (code, answer) = post(s.port, "/api/solve", &json!({"instance": unsat, "name": "page.toml"}));
    assert_eq!(code, 200);
    assert_eq!(answer["status"], "unsat");
    common::assert_schema("outcome", &answer);
    assert!(answer["reason"].as_str().is_some_and(|r| !r.is_empty()), "{answer}");
    // A bad peg list: 400 with the command line's one line, naming the file and line.
    let bad = "variant = \"icosahedron\"\ntiles = \"icosoku\"\ncapacities = [1, 2, 3]\n";
    let (code, answer) = post(s.port, "/api/solve", &json!({"instance": bad, "name": "page.toml"}));
    assert_eq!(code, 400, "{answer}");
    common::assert_schema("error", &answer);
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.starts_with("page.toml:3:") && !message.contains('\n'),
        "{message}"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), bad).unwrap();
    let cli = common::sokuc()
        .args(["solve", "bad.toml"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(cli.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&cli.stderr).contains(message.trim_start_matches("page.toml")),
        "{message}"
    );
    // Not JSON, a missing instance, an unknown field, an unknown backend.
    let (code, text) = raw(
        s.port,
        &format!(
            "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n",
            s.port
        ),
        b"{not json",
    );
    assert_eq!(code, 400, "{text}");
    for body in [
        json!({}),
        json!({"instance": icosoku(&SEED_PEGS), "name": "page.toml", "colour": "red"}),
        json!({"instance": icosoku(&SEED_PEGS), "name": "page.toml", "backend": "nope"}),
        json!({"instance": icosoku(&SEED_PEGS), "name": "page.toml", "timeout": -1}),
    ] {
        let (code, answer) = post(s.port, "/api/solve", &body);
        assert_eq!(code, 400, "{body}: {answer}");
        assert!(
            answer["message"].as_str().is_some_and(|e| !e.contains('\n')),
            "{answer}"
        );
    }
}

#[test]
fn only_the_local_page_gets_in() {
    let s = start();
    let port = s.port;
    let body = seed_request().to_string();
    let cases = [
        // DNS rebinding: a name that resolved to 127.0.0.1.
        (
            format!("POST /api/solve HTTP/1.1\r\nHost: evil.example:{port}\r\nContent-Type: application/json\r\n"),
            403,
        ),
        (format!("GET / HTTP/1.1\r\nHost: 127.0.0.1.nip.io:{port}\r\n"), 403),
        // Another port of this machine is another origin.
        (
            format!("GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n", port.wrapping_add(1)),
            403,
        ),
        // No Host at all.
        ("GET /api/info HTTP/1.0\r\n".to_string(), 403),
        // A page elsewhere posting to the API.
        (
            format!(
                "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: https://evil.example\r\nContent-Type: application/json\r\n"
            ),
            403,
        ),
        (
            format!(
                "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: null\r\nContent-Type: application/json\r\n"
            ),
            403,
        ),
        (
            format!(
                "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nSec-Fetch-Site: cross-site\r\nContent-Type: application/json\r\n"
            ),
            403,
        ),
        // A form post (no preflight): not JSON.
        (
            format!("POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: text/plain\r\n"),
            415,
        ),
        // The page's own requests.
        (
            format!(
                "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            ),
            200,
        ),
        (
            format!(
                "POST /api/solve HTTP/1.1\r\nHost: localhost:{port}\r\nOrigin: http://localhost:{port}\r\nContent-Type: application/json; charset=utf-8\r\n"
            ),
            200,
        ),
    ];
    for (head, want) in cases {
        let (code, text) = raw(port, &head, body.as_bytes());
        assert_eq!(code, want, "{head}: {text}");
        if want != 200 {
            let doc: Value = serde_json::from_str(&text).unwrap();
            common::assert_schema("error", &doc);
        }
    }
}

#[test]
fn no_file_is_read_from_disk_and_sizes_are_limited() {
    let s = start_with(ServeOptions::new().max_body(64 * 1024));
    let variant = common::root().join("variants/octahedron.toml");
    for spec in [
        variant.display().to_string(),
        "../variants/octahedron.toml".into(),
        "/etc/passwd".into(),
    ] {
        let inst = format!("variant = {spec:?}\ntiles = [[0,0,1]]\ncapacities = [1]\n");
        let (code, answer) = post(s.port, "/api/solve", &json!({"instance": inst, "name": "page.toml"}));
        assert_eq!(code, 400, "{answer}");
        assert!(
            answer["message"].as_str().unwrap().contains("not read from disk"),
            "{answer}"
        );
    }
    // Pages are embedded; a path is only ever a route.
    for path in ["/../Cargo.toml", "/web/app.js", "/etc/passwd", "/src/main.rs"] {
        assert_eq!(get(s.port, path).0, 404, "{path}");
    }
    let (code, page) = get(s.port, "/");
    assert_eq!(code, 200);
    assert!(page.contains("<html") && page.contains("app.js"), "{page}");
    assert_eq!(get(s.port, "/app.js").0, 200);
    assert_eq!(get(s.port, "/style.css").0, 200);
    // The page's modules, each embedded; only those.
    let (code, module) = get(s.port, "/modules/state.js");
    assert_eq!(code, 200);
    assert!(module.contains("export function setAnswer"), "{module}");
    for path in [
        "/modules/nope.js",
        "/modules/../Cargo.toml",
        "/modules/",
        "/web/modules/state.js",
    ] {
        assert_eq!(get(s.port, path).0, 404, "{path}");
    }
    // A body over the limit, whatever Content-Length says.
    let big = json!({"instance": "x".repeat(100 * 1024), "name": "page.toml"});
    let (code, answer) = post(s.port, "/api/solve", &big);
    assert_eq!(code, 413, "{answer}");
    // An uploaded variant is used from memory.
    let text = std::fs::read_to_string(&variant).unwrap();
    let (code, v) = post(s.port, "/api/variant", &json!({"text": text}));
    assert_eq!(code, 200, "{v}");
    let name = v["name"].as_str().unwrap().to_string();
    let pegs: Vec<u64> = common::u64s(&v["pegs"]);
    let tiles = v["tiles"].to_string();
    let inst = format!("variant = {name:?}\ntiles = {tiles}\ncapacities = {pegs:?}\n");
    let (code, answer) = post(
        s.port,
        "/api/solve",
        &json!({"instance": inst, "name": "page.toml", "variant_text": text}),
    );
    assert_eq!(code, 200, "{answer}");
    assert_eq!(answer["status"], "sat");
    assert_eq!(sums(&answer), pegs);
}

#[test]
fn variants_come_with_a_convex_shape_and_solvable_pegs() {
    let s = start();
    let (_, info) = get(s.port, "/api/info");
    let info: Value = serde_json::from_str(&info).unwrap();
    for name in info["variants"].as_array().unwrap() {
        let (code, v) = post(s.port, "/api/variant", &json!({"name": name}));
        assert_eq!(code, 200, "{v}");
        let n = v["vertices"].as_array().unwrap().len();
        assert_eq!(v["positions"].as_array().unwrap().len(), n);
        assert_eq!(
            v["tiles"].as_array().unwrap().len(),
            v["faces"].as_array().unwrap().len()
        );
        let pegs: Vec<u64> = common::u64s(&v["pegs"]);
        let inst = format!("variant = {name}\ntiles = {}\ncapacities = {pegs:?}\n", v["tiles"]);
        let (code, answer) = post(s.port, "/api/solve", &json!({"instance": inst, "name": "page.toml"}));
        assert_eq!(code, 200, "{answer}");
        assert_eq!(answer["status"], "sat", "{name}: {answer}");
        assert_eq!(sums(&answer), pegs, "{name}");
    }
    let (code, answer) = post(s.port, "/api/variant", &json!({"name": "dodecahedron"}));
    assert_eq!(code, 400, "{answer}");
    let (code, answer) = post(
        s.port,
        "/api/variant",
        &json!({"text": "vertices = [\"A\"]\nfaces = [[\"A\", \"B\", \"C\"]]\n"}),
    );
    assert_eq!(code, 400, "{answer}");
    assert!(
        answer["message"].as_str().unwrap().starts_with("uploaded variant:"),
        "{answer}"
    );
}

#[test]
fn solutions_page_counts_compare_exports_steps_and_checks() {
    let s = start();
    let req = |extra: Value| {
        let mut r = seed_request();
        for (k, v) in extra.as_object().unwrap() {
            r[k] = v.clone();
        }
        r
    };
    // Two pages of solutions: all valid, all different, in the same order every time.
    let (code, first) = post(
        s.port,
        "/api/solutions",
        &req(json!({"offset": 0, "limit": 3, "backend": "sat"})),
    );
    assert_eq!(code, 200, "{first}");
    let (_, second) = post(
        s.port,
        "/api/solutions",
        &req(json!({"offset": 3, "limit": 3, "backend": "sat"})),
    );
    let (_, again) = post(
        s.port,
        "/api/solutions",
        &req(json!({"offset": 0, "limit": 6, "backend": "sat"})),
    );
    let mut seen = Vec::new();
    for page in [&first, &second] {
        assert_eq!(page["more"], true, "{page}");
        common::assert_schema("enumerationSummary", &page["summary"]);
        for sol in page["solutions"].as_array().unwrap() {
            common::assert_schema("enumerationLine", sol);
            assert_solves(sol, &SEED_PEGS);
            seen.push(sol["placements"].to_string());
        }
    }
    assert_eq!(seen.len(), 6);
    let distinct: std::collections::BTreeSet<&String> = seen.iter().collect();
    assert_eq!(distinct.len(), 6);
    let again: Vec<String> = again["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["placements"].to_string())
        .collect();
    assert_eq!(again, seen);
    // The count is the command line's.
    // (On a small instance: IcoSoKu's counts take half a minute.)
    let octa = std::fs::read_to_string(common::root().join("instances/octasoku.toml")).unwrap();
    let (code, count) = post(
        s.port,
        "/api/count",
        &json!({"instance": octa, "name": "page.toml", "timeout": 60}),
    );
    assert_eq!(code, 200, "{count}");
    let cli = common::sokuc()
        .args(["count", "instances/octasoku.toml", "--format", "json"])
        .current_dir(common::root())
        .output()
        .unwrap();
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(count["count"], cli["count"]);
    assert_eq!(count["status"], "counted");
    common::assert_schema("count", &count);
    // Compare: one row per backend, all agreeing.
    let (code, cmp) = post(s.port, "/api/compare", &seed_request());
    assert_eq!(code, 200, "{cmp}");
    common::assert_schema("compare", &cmp);
    let text = cmp.to_string();
    for b in sokuc::backend::general() {
        assert!(text.contains(&format!("\"{b}\"")), "{b}: {text}");
    }
    // Exports: what `sokuc solve --emit` writes, byte for byte.
    for format in ["dimacs", "opb", "lp", "mps", "mzn"] {
        let (code, text) = raw(
            s.port,
            &format!(
                "POST /api/export HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n",
                s.port
            ),
            req(json!({"format": format})).to_string().as_bytes(),
        );
        assert_eq!(code, 200, "{format}");
        let cli = common::sokuc()
            .args(["solve", "instances/icosoku-seed.toml", "--emit", format])
            .current_dir(common::root())
            .output()
            .unwrap();
        let cli = String::from_utf8(cli.stdout).unwrap();
        // The model's comments name its source file; the rest is the same.
        let strip = |t: &str| {
            t.lines()
                .filter(|l| !l.contains("icosoku-seed") && !l.contains("page.toml"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(
            strip(&text) == strip(&cli),
            "{format}: the served model differs from the command line's"
        );
    }
    let (_, answer) = post(s.port, "/api/solve", &seed_request());
    let (code, svg) = raw(
        s.port,
        &format!(
            "POST /api/export HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n",
            s.port
        ),
        req(json!({"format": "svg", "solution": answer})).to_string().as_bytes(),
    );
    assert_eq!(code, 200, "{svg}");
    assert!(svg.contains("<svg") && svg.contains("</svg>"), "{svg}");
    let (code, bad) = post(s.port, "/api/export", &req(json!({"format": "pdf"})));
    assert_eq!(code, 400, "{bad}");
    // Steps: one per placement, in its order.
    let (code, steps) = post(s.port, "/api/instructions", &req(json!({"solution": answer})));
    assert_eq!(code, 200, "{steps}");
    let steps = steps["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 20);
    for (st, p) in steps.iter().zip(answer["placements"].as_array().unwrap()) {
        assert_eq!(st["face"], p["face"]);
        assert!(st["text"].as_str().unwrap().starts_with("Put tile"), "{st}");
    }
    // Check: the answer is valid; with two tiles' corners swapped it is not.
    let (code, checked) = post(s.port, "/api/check", &req(json!({"solution": answer})));
    assert_eq!(code, 200, "{checked}");
    assert_eq!(checked["valid"], true, "{checked}");
    let mut wrong = answer.clone();
    let c0 = wrong["placements"][0]["corners"].clone();
    wrong["placements"][0]["corners"] = wrong["placements"][1]["corners"].clone();
    wrong["placements"][1]["corners"] = c0;
    let (code, checked) = post(s.port, "/api/check", &req(json!({"solution": wrong})));
    assert_eq!(code, 200, "{checked}");
    assert_eq!(checked["valid"], false, "{checked}");
}

#[test]
fn grids_solve_through_the_same_route() {
    let s = start();
    for (file, name) in [
        ("instances/kakuro/gecode-k0-easy.kakuro", "page.kakuro"),
        ("instances/trickytriple/feup-lekinasa-4x4-01.tt", "page.tt"),
    ] {
        let text = std::fs::read_to_string(common::root().join(file)).unwrap();
        let (code, answer) = post(s.port, "/api/solve", &json!({"instance": text, "name": name}));
        assert_eq!(code, 200, "{answer}");
        assert_eq!(answer["status"], "sat", "{file}");
        assert_eq!(answer["verified"], true);
        assert!(answer["grid"].is_array(), "{answer}");
        let (code, checked) = post(
            s.port,
            "/api/check",
            &json!({"instance": text, "name": name, "solution": answer}),
        );
        assert_eq!(code, 200);
        assert_eq!(checked["valid"], true, "{file}: {checked}");
    }
}

/// A request the page stops ("Stop", or leaving the page) ends at once as `unknown`, and two
/// requests run side by side.
#[test]
fn a_running_request_can_be_cancelled_while_another_runs() {
    let s = start();
    let port = s.port;
    // Counting the free-peg instance takes longer than this test allows.
    let hard = std::fs::read_to_string(common::root().join("instances/icosoku-free-pegs.toml")).unwrap();
    let t0 = Instant::now();
    let counting = std::thread::spawn(move || {
        post(
            port,
            "/api/count",
            &json!({"instance": hard, "name": "page.toml", "timeout": 100, "job": "slow-one"}),
        )
    });
    // Meanwhile another request is answered.
    std::thread::sleep(Duration::from_millis(300));
    let (code, answer) = post(port, "/api/solve", &seed_request());
    assert_eq!(code, 200);
    assert_solves(&answer, &SEED_PEGS);
    let (code, cancelled) = post(port, "/api/cancel", &json!({"job": "slow-one"}));
    assert_eq!(code, 200);
    let (code, counted) = counting.join().unwrap();
    assert_eq!(code, 200, "{counted}");
    if cancelled["cancelled"] == true {
        assert_eq!(counted["status"], "unknown", "{counted}");
        assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
    } else {
        // The count finished before the cancel came: then it is a count.
        assert_eq!(counted["status"], "counted", "{counted}");
    }
    let (_, again) = post(port, "/api/cancel", &json!({"job": "slow-one"}));
    assert_eq!(again["cancelled"], false);
}

#[test]
fn a_count_s_progress_is_read_while_it_runs() {
    let s = start();
    let port = s.port;
    let (code, idle) = post(port, "/api/progress", &json!({"job": "nobody"}));
    assert_eq!((code, &idle), (200, &json!({"running": false})));
    // The seed instance: its count takes longer than the first looks at it.
    let counting = std::thread::spawn(move || {
        let mut req = seed_request();
        req["timeout"] = json!(100);
        req["job"] = json!("watched");
        post(port, "/api/count", &req)
    });
    // The counter says how many faces it will place, and how many it has placed so far.
    let t0 = Instant::now();
    let mut seen = None;
    while t0.elapsed() < Duration::from_secs(30) {
        let (_, p) = post(port, "/api/progress", &json!({"job": "watched"}));
        if p["running"] == true && p["total"].as_u64().is_some_and(|t| t > 0) {
            seen = Some(p);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    post(port, "/api/cancel", &json!({"job": "watched"}));
    let (code, counted) = counting.join().unwrap();
    assert_eq!(code, 200, "{counted}");
    let seen = seen.expect("the running count's progress");
    assert_eq!(seen["total"], 20, "{seen}");
    assert!(seen["done"].as_u64().unwrap() <= 20, "{seen}");
    let (_, after) = post(port, "/api/progress", &json!({"job": "watched"}));
    assert_eq!(after["running"], false, "{after}");
}

#[test]
fn the_assistant_answers_as_check_partial_does() {
    let s = start();
    let root = common::root();
    let placed = std::fs::read_to_string(root.join("instances/icosoku-placed.txt")).unwrap();
    let mut req = seed_request();
    req["placed"] = json!(placed);
    let (code, a) = post(s.port, "/api/assist", &req);
    assert_eq!(code, 200, "{a}");
    common::assert_schema_of("assisted", &a, "/api/assist answered a document that");
    assert_eq!(a["assist"], "take-off", "{a}");
    assert_eq!(a["fewest"], true, "{a}");
    // The CLI's answer on the same tiles takes off as many.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sokuc"))
        .args([
            "check",
            "instances/icosoku-seed.toml",
            "instances/icosoku-placed.txt",
            "--partial",
            "--format",
            "json",
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        a["removed"].as_array().unwrap().len(),
        cli["removed"].as_array().unwrap().len(),
        "{a}\n{cli}"
    );
    // The completion keeps every tile not taken off, and its pegs add up.
    assert_solves(&a["outcome"], &SEED_PEGS);
    // No tiles: completable, with a hint; a tile that does not exist: the line, refused.
    req["placed"] = json!("");
    let (code, a) = post(s.port, "/api/assist", &req);
    assert_eq!((code, &a["assist"]), (200, &json!("completable")), "{a}");
    assert!(a["hint"].is_object(), "{a}");
    req["placed"] = json!("ABC: tile #21, rotation 0\n");
    let (code, a) = post(s.port, "/api/assist", &req);
    assert_eq!(code, 400, "{a}");
    let m = a["message"].as_str().unwrap();
    assert!(m.starts_with("placed tiles:1:") && m.contains("21"), "{m}");
    // Kakuro has no tiles.
    let (code, a) = post(
        s.port,
        "/api/assist",
        &json!({"instance": "kakuro 3 3\nX   4\\  6\\\n\\3  .   .\n\\7  .   .\n", "name": "page.kakuro", "placed": ""}),
    );
    assert_eq!(code, 400, "{a}");
}

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// 200 solves from 8 client threads against one server: every answer verified, none lost,
/// memory flat (the second hundred adds little to what the first left).
#[test]
fn two_hundred_requests_from_eight_threads() {
    let s = start();
    let port = s.port;
    let batch = std::fs::read_to_string(common::root().join("instances/batches/icosoku100.txt")).unwrap();
    let pegs: Vec<Vec<u64>> = batch
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            l.split(|c: char| c == ',' || c.is_whitespace())
                .filter_map(|x| x.parse().ok())
                .collect()
        })
        .filter(|p: &Vec<u64>| p.len() == 12)
        .collect();
    assert!(pegs.len() >= 50, "{}", pegs.len());
    let pegs = Arc::new(pegs);
    let t0 = Instant::now();
    let run = |from: usize, to: usize| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let pegs = pegs.clone();
                std::thread::spawn(move || {
                    let mut done = 0;
                    for i in (from + t..to).step_by(8) {
                        let p = &pegs[i % pegs.len()];
                        let (code, answer) = post(
                            port,
                            "/api/solve",
                            &json!({"instance": icosoku(p), "name": "page.toml", "timeout": 60}),
                        );
                        assert_eq!(code, 200, "{answer}");
                        assert_solves(&answer, p);
                        done += 1;
                    }
                    done
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum::<usize>()
    };
    assert_eq!(run(0, 100), 100);
    let after_first = resident_kib();
    assert_eq!(run(100, 200), 100);
    let after_second = resident_kib();
    assert!(
        after_second < after_first + 64 * 1024,
        "memory grew from {after_first} KiB to {after_second} KiB"
    );
    assert!(t0.elapsed() < Duration::from_secs(300), "{:?}", t0.elapsed());
}

/// `sokuc serve --port 0 EXTRA` (with `PATH` replaced if given), and the port it printed on
/// its first line, `sokuc serve: http://127.0.0.1:PORT/`.
fn spawn_serve(extra: &[&str], path: Option<&str>) -> (std::process::Child, u16) {
    let mut cmd = common::sokuc();
    cmd.args(["serve", "--port", "0"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if let Some(p) = path {
        cmd.env("PATH", p);
    }
    let mut child = cmd.spawn().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("sokuc serve: ")
        .expect("the address line")
        .to_string();
    let port: u16 = url.trim_end_matches('/').rsplit(':').next().unwrap().parse().unwrap();
    assert_eq!(url, format!("http://127.0.0.1:{port}/"));
    // Keep the pipe open (and drained) while the server runs.
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut out, &mut std::io::sink());
    });
    (child, port)
}

/// The command: prints its address first, serves the page, and exits 130 on Ctrl-C.
#[test]
fn the_command_prints_its_address_and_stops_on_sigint() {
    let (mut child, port) = spawn_serve(&[], None);
    let (code, page) = get(port, "/");
    assert_eq!(code, 200);
    assert!(page.contains("<html"));
    let pid = child.id().to_string();
    assert!(
        std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let t0 = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "still running after SIGINT");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    // The server's own words, not a solver's "what was found".
    let mut stopped = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stopped).unwrap();
    assert!(
        stopped.contains("sokuc serve: stopped by SIGINT") && !stopped.contains("found"),
        "{stopped}"
    );
    // --open with no opener on PATH: a note, and the server still serves.
    let (mut child, port) = spawn_serve(&["--open"], Some("/nonexistent"));
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut note = String::new();
    err.read_line(&mut note).unwrap();
    assert!(
        note.contains("could not open a browser") && note.contains(&format!(":{port}/")),
        "{note}"
    );
    assert_eq!(get(port, "/").0, 200);
    child.kill().unwrap();
    let _ = child.wait();
    // A port in use is one clear line and exit 2.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy = listener.local_addr().unwrap().port().to_string();
    let o = common::sokuc().args(["serve", "--port", &busy]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&busy), "{err}");
}

/// `/api/parse` reads an instance without solving: ok, or the command line's message.
#[test]
fn parse_checks_an_instance_without_solving() {
    let s = start();
    let (code, ok) = post(s.port, "/api/parse", &seed_request());
    assert_eq!(code, 200, "{ok}");
    assert_eq!(ok["status"], "ok");
    assert_eq!(ok["puzzle"], "3soku");
    let (code, bad) = post(
        s.port,
        "/api/parse",
        &json!({"instance": icosoku(&[1, 2, 3]), "name": "page.toml"}),
    );
    assert_eq!(code, 400, "{bad}");
    common::assert_schema("error", &bad);
    assert!(bad["message"].as_str().unwrap().starts_with("page.toml:3:"), "{bad}");
}

/// A request's body as raw JSON text (for numbers `serde_json::Value` cannot hold).
fn post_text(port: u16, path: &str, body: &str) -> (u16, Value) {
    let (code, text) = raw(
        port,
        &format!("POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"),
        body.as_bytes(),
    );
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (code, v)
}

/// A refusal of a bad value: 400, the error document, one line that names the field first
/// and says what it takes (`range`).
fn assert_refused(what: &str, code: u16, answer: &Value, field: &str, range: &str) {
    assert_eq!(code, 400, "{what}: {answer}");
    common::assert_schema("error", answer);
    let message = answer["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!("{field}: ")) && message.contains(range) && !message.contains('\n'),
        "{what}: {message}"
    );
}

/// Every numeric field on every route: a value out of range, of the wrong type, or too large
/// for any number type is a 400 that names the field and its range, never a 500 or a panic
/// (`"timeout": 1e300` panicked in `Duration::from_secs_f64`, and tiny_http answered 500).
/// The body is read whole before any route looks at it, so each route refuses each field,
/// also one it does not use.
#[test]
fn every_numeric_field_is_range_checked_on_every_route() {
    let s = start();
    let routes = [
        "/api/solve",
        "/api/solutions",
        "/api/count",
        "/api/compare",
        "/api/export",
        "/api/variant",
        "/api/instructions",
        "/api/check",
        "/api/parse",
        "/api/cancel",
        "/api/progress",
        "/api/assist",
    ];
    // Values no field takes, as JSON text: huge, negative, NaN-ish strings, 2^64, not whole,
    // too large for a double, of another type.
    let everywhere = [
        "1e300",
        "-1",
        "\"NaN\"",
        "\"Infinity\"",
        "\"10\"",
        "18446744073709551616",
        "1e400",
        "-1e400",
        "true",
        "[1]",
        "{}",
    ];
    let fields: [(&str, &str, &[&str]); 4] = [
        // 1e-400 is 0 to the JSON reader.
        (
            "timeout",
            "above 0 and at most 120",
            &["0", "-0.5", "120.001", "1e-400"],
        ),
        (
            "seed",
            "from 0 to 18446744073709551615",
            &["1.5", "1e3", "-9223372036854775808"],
        ),
        ("offset", "from 0 to 9999", &["10000", "0.5", "1.0"]),
        ("limit", "from 1 to 100", &["0", "101", "2.5"]),
    ];
    for route in routes {
        for (field, range, own) in fields {
            for value in everywhere.iter().chain(own.iter()) {
                let seed = seed_request();
                let body = format!(
                    r#"{{"instance": {}, "name": "page.toml", "format": "opb", "job": "j", "{field}": {value}}}"#,
                    seed["instance"]
                );
                let (code, answer) = post_text(s.port, route, &body);
                assert_refused(&format!("{route} {field}={value}"), code, &answer, field, range);
            }
        }
    }
    // The numbers inside a solution for steps: the tile (an index into the tiles), its turn,
    // its corners.
    let (_, answer) = post(s.port, "/api/solve", &seed_request());
    assert_eq!(answer["status"], "sat", "{answer}");
    let placement: [(&str, &str, &[Value]); 3] = [
        (
            "tile",
            "from 1 to 20",
            &[
                json!(0),
                json!(21),
                json!(1e300),
                json!(-1),
                json!("3"),
                json!(1.5),
                json!(u64::MAX),
            ],
        ),
        (
            "rotation",
            "0, 1 or 2",
            &[json!(3), json!(-1), json!(1.5), json!("0"), json!(1e300)],
        ),
        (
            "corners",
            "three whole numbers",
            &[
                json!([1, 2]),
                json!([1, 2, -1]),
                json!([1.5, 0, 0]),
                json!([1e300, 0, 0]),
                json!("123"),
            ],
        ),
    ];
    for (key, range, values) in placement {
        for v in values {
            let mut wrong = answer.clone();
            wrong["placements"][4][key] = v.clone();
            let mut req = seed_request();
            req["solution"] = wrong;
            let (code, refused) = post(s.port, "/api/instructions", &req);
            assert_refused(&format!("{key}={v}"), code, &refused, "solution", range);
            let message = refused["message"].as_str().unwrap();
            assert!(message.contains("placement 5") && message.contains(key), "{message}");
        }
    }
    // The size in a built-in variant's name: past the page's, refused before it is built.
    for n in [
        "1001",
        "100000000",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999",
    ] {
        let (code, refused) = post(s.port, "/api/variant", &json!({"name": format!("bipyramid-{n}")}));
        assert_refused(&format!("bipyramid-{n}"), code, &refused, "name", "N from 3 to 1000");
    }
    let (code, drawn) = post(s.port, "/api/variant", &json!({"name": "bipyramid-1000"}));
    assert_eq!(code, 200, "{drawn}");
    // A body that is not an object, and an unknown field: one line each.
    for body in ["[]", "3", "\"timeout\"", r#"{"timeuot": 3}"#] {
        let (code, answer) = post_text(s.port, "/api/solve", body);
        assert_eq!(code, 400, "{body}: {answer}");
        assert!(
            answer["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("request: ") && !m.contains('\n')),
            "{answer}"
        );
    }
    // Values in range still work: the server is up and answers them.
    let mut ok = seed_request();
    ok["timeout"] = json!(120);
    ok["seed"] = json!(u64::MAX);
    let (code, answer) = post(s.port, "/api/solve", &ok);
    assert_eq!(code, 200, "{answer}");
    assert_solves(&answer, &SEED_PEGS);
    let (code, page) = post(
        s.port,
        "/api/solutions",
        &json!({"instance": seed_request()["instance"], "name": "page.toml", "offset": 9999, "limit": 100, "timeout": 0.5, "backend": "sat"}),
    );
    assert_eq!(code, 200, "{page}");
}

/// A large 3SoKu instance's text (a random bipyramid-`n`, `2n` faces and tiles), whose DIMACS
/// export takes seconds: the CNF of bipyramid-200 alone takes 2 s to encode.
fn bipyramid(n: u32) -> String {
    let dir = tempfile::tempdir().unwrap();
    let variant = format!("bipyramid-{n}");
    let path = common::generate_3soku(dir.path(), "big.toml", &["--variant", &variant, "--seed", "1"]);
    std::fs::read_to_string(path).unwrap()
}

fn export_raw(port: u16, body: &Value) -> (u16, String) {
    raw(
        port,
        &format!("POST /api/export HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"),
        body.to_string().as_bytes(),
    )
}

/// An export has the request's time limit, as a solve has: past it, the answer is an error
/// that says so (not the model, and not `unknown`, which the page would save as the file).
/// It used to run to its end, whatever the limit.
#[test]
fn an_export_past_its_deadline_ends_with_a_timeout_answer() {
    let s = start();
    let big = bipyramid(200);
    let t0 = Instant::now();
    let (code, text) = export_raw(
        s.port,
        &json!({"instance": big, "name": "page.toml", "format": "dimacs", "timeout": 0.5}),
    );
    let took = t0.elapsed();
    assert_eq!(code, 503, "{}", &text[..text.len().min(300)]);
    let answer: Value = serde_json::from_str(&text).unwrap();
    common::assert_schema("error", &answer);
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains("time limit of 0.5 s") && !message.contains('\n'),
        "{message}"
    );
    // Gross: the export looks at the deadline as it compiles, encodes and writes.
    assert!(took < Duration::from_secs(4), "{took:?} for a 0.5 s limit");
}

/// `/api/cancel` stops an export by its `job`, as it stops a solve.
#[test]
fn an_export_can_be_cancelled() {
    let s = start();
    let port = s.port;
    let big = bipyramid(500);
    let exporting = std::thread::spawn(move || {
        export_raw(
            port,
            &json!({"instance": big, "name": "page.toml", "format": "dimacs", "timeout": 100, "job": "export-1"}),
        )
    });
    // The cancel finds the job once the server has read the request and started it: until
    // then it answers `cancelled: false`, so it is sent until it finds it (the export takes
    // far longer than reading the request).
    let t0 = Instant::now();
    loop {
        let (code, c) = post(port, "/api/cancel", &json!({"job": "export-1"}));
        assert_eq!(code, 200, "{c}");
        if c["cancelled"] == true {
            break;
        }
        assert!(
            !exporting.is_finished(),
            "the export ended before it could be cancelled"
        );
        assert!(t0.elapsed() < Duration::from_secs(60), "the export never started");
        std::thread::yield_now();
    }
    let cancelled = Instant::now();
    let (code, text) = exporting.join().unwrap();
    let after = cancelled.elapsed();
    assert_eq!(code, 503, "{}", &text[..text.len().min(300)]);
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        answer["message"], "the export was stopped before it was complete",
        "{answer}"
    );
    assert!(after < Duration::from_secs(3), "answered {after:?} after the cancel");
}

/// The export's text counts against the server's memory limit: past it, a clear refusal
/// (413), not a buffer of any size.
#[test]
fn an_export_over_the_memory_limit_is_refused() {
    let s = start_with(ServeOptions::new().max_memory(1 << 20));
    let big = bipyramid(100);
    for format in ["opb", "lp", "mps", "mzn", "dimacs"] {
        let (code, text) = export_raw(s.port, &json!({"instance": big, "name": "page.toml", "format": format}));
        assert_eq!(code, 413, "{format}: {}", &text[..text.len().min(300)]);
        let answer: Value = serde_json::from_str(&text).unwrap();
        common::assert_schema("error", &answer);
        let message = answer["message"].as_str().unwrap();
        assert!(
            message.contains("limit of 1.0 MiB") && !message.contains('\n'),
            "{format}: {message}"
        );
    }
    // Within the limit, the same export is the model.
    let s = start();
    let (code, text) = export_raw(s.port, &json!({"instance": big, "name": "page.toml", "format": "opb"}));
    assert_eq!(code, 200);
    assert!(text.len() > 1 << 20, "{} bytes", text.len());
}

/// `/api/solutions` on a 20-byte CNF that declares 33,554,432 variables: each solution's
/// line would list them all (about 270 MB of text), for up to 10,001 lines. The page was
/// collected whole in memory; it is refused at once, before anything is compiled, with
/// the server's memory limit named. A small one still pages as before.
#[test]
fn a_page_of_solutions_too_large_for_memory_is_refused_at_once() {
    let s = start();
    let before = resident_kib();
    let t0 = Instant::now();
    let (code, answer) = post(
        s.port,
        "/api/solutions",
        &json!({"instance": "p cnf 33554432 0\n", "name": "x.cnf", "timeout": 100}),
    );
    let took = t0.elapsed();
    assert_eq!(code, 413, "{answer}");
    common::assert_schema("error", &answer);
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains("memory limit of 2.0 GiB") && message.contains("smaller page") && !message.contains('\n'),
        "{message}"
    );
    // Gross bounds: answered without compiling 33 million variables (which took over a
    // minute and gigabytes).
    assert!(took < Duration::from_secs(5), "{took:?}");
    let grew = resident_kib().saturating_sub(before);
    assert!(grew < 256 * 1024, "the server grew by {grew} KiB");
    // One page of one solution each still too large: the estimate is per solution.
    let (code, answer) = post(
        s.port,
        "/api/solutions",
        &json!({"instance": "p cnf 33554432 0\n", "name": "x.cnf", "limit": 1}),
    );
    assert_eq!(code, 413, "{answer}");
    // Three free variables: 8 solutions, paged.
    let (code, page) = post(
        s.port,
        "/api/solutions",
        &json!({"instance": "p cnf 3 0\n", "name": "x.cnf", "offset": 2, "limit": 4}),
    );
    assert_eq!(code, 200, "{page}");
    assert_eq!(page["solutions"].as_array().unwrap().len(), 4, "{page}");
    assert_eq!(page["more"], true, "{page}");
    assert_eq!(page["summary"]["solutions"], 7, "{page}");
    assert_eq!(page["solutions"][0]["model"].as_array().unwrap().len(), 3, "{page}");
}

/// What the server sends back on a connection, and how long it took to close it: a
/// connection sent `sent` and then nothing.
fn stalled(port: u16, sent: &[u8]) -> (String, Duration) {
    let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
    // Far past the server's timeout: only a server with none reaches it.
    c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    c.write_all(sent).unwrap();
    let t0 = Instant::now();
    let mut got = Vec::new();
    // An error (a reset, or the client's own timeout) counts as closed, when it came.
    let _ = c.read_to_end(&mut got);
    let took = t0.elapsed();
    (String::from_utf8_lossy(&got).into_owned(), took)
}

/// A client that opens a connection and sends nothing, half a head, or half a body holds
/// its thread only until the server's I/O timeout: the connection is closed, with a 408
/// once part of a request came. They held a thread each for good.
#[test]
fn a_connection_that_sends_half_a_request_is_closed_within_the_timeout() {
    let s = start_with(ServeOptions::new().io_timeout(Duration::from_secs(1)));
    let port = s.port;
    let head = format!("POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n");
    let cases: [(&str, Vec<u8>); 3] = [
        ("nothing", Vec::new()),
        ("half a head", head.as_bytes().to_vec()),
        (
            "half a body",
            format!("{head}Content-Length: 100\r\n\r\n{{\"instance\":").into_bytes(),
        ),
    ];
    let threads: Vec<_> = cases
        .into_iter()
        .map(|(what, sent)| std::thread::spawn(move || (what, sent.is_empty(), stalled(port, &sent))))
        .collect();
    for t in threads {
        let (what, nothing, (answer, took)) = t.join().unwrap();
        assert!(took < Duration::from_secs(8), "{what}: closed after {took:?}");
        if nothing {
            assert_eq!(answer, "", "{what}");
        } else {
            assert!(answer.starts_with("HTTP/1.1 408 "), "{what}: {answer}");
            assert!(answer.contains("did not arrive in time"), "{what}: {answer}");
        }
    }
    // The server still answers.
    let (code, _) = post(port, "/api/parse", &seed_request());
    assert_eq!(code, 200);
}

/// Pigeonhole (10 pigeons in 9 holes) as a CNF: a `sat` solve of it runs until stopped.
fn hard_cnf() -> String {
    common::pigeonhole_cnf(10, 9)
}

/// A solve that holds the server's one turn until cancelled (by `job`), once it runs.
fn hold_the_turn(port: u16, job: &str) -> std::thread::JoinHandle<(u16, Value)> {
    let body = json!({"instance": hard_cnf(), "name": "php.cnf", "backend": "sat", "timeout": 60, "job": job});
    let holding = std::thread::spawn(move || post(port, "/api/solve", &body));
    let t0 = Instant::now();
    loop {
        let (_, p) = post(port, "/api/progress", &json!({"job": job}));
        if p["running"] == true {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(30), "the holder never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    holding
}

/// Requests take turns at the solvers (here one at a time). One that waits past its
/// deadline (its time limit, which counts from its arrival) is answered 503, busy, while
/// the turn is still held; the variant route's layout takes its turn too. They waited as
/// long as the turn was held, and the variant's layout was computed outside any turn.
#[test]
fn a_request_waits_for_a_turn_no_longer_than_its_deadline() {
    let s = start_with(ServeOptions::new().max_running(1));
    let port = s.port;
    let holding = hold_the_turn(port, "hold");
    // However the test ends, the holder is let go (else a server without deadlines would
    // keep every request below waiting until the holder's 60 s).
    let release = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(15));
        post(port, "/api/cancel", &json!({"job": "hold"}));
    });
    let mut easy = seed_request();
    easy["timeout"] = json!(1);
    // At once, so that the turn is held for about a second in all.
    let waiting: Vec<_> = [
        ("/api/solve", easy.clone()),
        ("/api/count", easy.clone()),
        ("/api/variant", json!({"name": "icosahedron", "timeout": 1})),
    ]
    .into_iter()
    .map(|(route, body)| std::thread::spawn(move || (route, post(port, route, &body))))
    .collect();
    for w in waiting {
        let (route, (code, answer)) = w.join().unwrap();
        assert_eq!(code, 503, "{route}: {answer}");
        common::assert_schema("error", &answer);
        let message = answer["message"].as_str().unwrap();
        assert!(
            message.starts_with("the server is busy: no turn at the solvers"),
            "{message}"
        );
    }
    assert!(!holding.is_finished(), "the holder ended first");
    post(port, "/api/cancel", &json!({"job": "hold"}));
    let (code, held) = holding.join().unwrap();
    assert_eq!((code, &held["status"]), (200, &json!("unknown")), "{held}");
    // With the turn free, the same requests are answered.
    let (code, answer) = post(port, "/api/variant", &json!({"name": "icosahedron", "timeout": 1}));
    assert_eq!(code, 200, "{answer}");
    drop(release);
}

/// `/api/solve`'s time limit counts from the request's arrival, as the count's and the
/// export's do: a solve that waited 1.5 s of its 2 s for a turn has 0.5 s left. It got a
/// fresh 2 s once its turn came, so it answered about 3.5 s after it was sent.
#[test]
fn a_solve_s_time_limit_counts_from_its_arrival() {
    let s = start_with(ServeOptions::new().max_running(1));
    let port = s.port;
    let holding = hold_the_turn(port, "first");
    let t0 = Instant::now();
    let late = std::thread::spawn(move || {
        post(
            port,
            "/api/solve",
            &json!({"instance": hard_cnf(), "name": "php.cnf", "backend": "sat", "timeout": 2}),
        )
    });
    std::thread::sleep(Duration::from_millis(1500));
    post(port, "/api/cancel", &json!({"job": "first"}));
    let (code, answer) = late.join().unwrap();
    let took = t0.elapsed();
    assert_eq!((code, &answer["status"]), (200, &json!("unknown")), "{answer}");
    assert!(
        took < Duration::from_millis(3400),
        "answered {took:?} after it was sent"
    );
    let _ = holding.join();
}
