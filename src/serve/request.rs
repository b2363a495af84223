//! A request's body: the instance (its text, never a path), the variant it may bring, and
//! the options a command line would take.

use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::reply::{Reply, error, failed};
use super::state::{Config, State};
use sokuc::{Backend, Instance, Options, Variant};

/// The furthest `/api/solutions` pages into the enumeration: `offset` is below it.
pub(crate) const MAX_REACH: u64 = 10_000;
/// The most solutions on one page (`limit`).
pub(crate) const MAX_PAGE: u64 = 100;

/// Every field any route takes; each route reads those it needs. Every field is checked
/// when the body is read, whichever route it came to, so that a value out of range is the
/// same 400 everywhere (never a panic further in, as `Duration::from_secs_f64(1e300)` was).
#[derive(Default)]
pub(crate) struct Body {
    /// The instance file's text.
    pub instance: Option<String>,
    /// A file name for it, whose extension names the kind (`page.toml`, `x.opb`).
    pub name: Option<String>,
    /// The kind, when the name does not say it.
    pub kind: Option<String>,
    /// An uploaded variant file's text, which the instance may name.
    pub variant_text: Option<String>,
    pub backend: Option<String>,
    /// The time limit, within the server's longest.
    pub timeout: Option<Duration>,
    pub unique: Option<bool>,
    pub seed: Option<u64>,
    /// The page's name for this request, for `/api/cancel`.
    pub job: Option<String>,
    /// Below [`MAX_REACH`].
    pub offset: Option<u64>,
    /// 1 to [`MAX_PAGE`].
    pub limit: Option<u64>,
    pub format: Option<String>,
    /// A solution: the text `sokuc solve` printed, or its JSON.
    pub solution: Option<Value>,
    /// A variant file's text (`/api/variant`).
    pub text: Option<String>,
    /// The tiles a player has placed, one per line (`/api/assist`).
    pub placed: Option<String>,
}

/// The fields, for the message that refuses another.
const FIELDS: &str = "instance, name, kind, variant_text, backend, timeout, unique, seed, job, offset, limit, format, solution, text, placed";

impl Body {
    /// Reads a body: a JSON object of the fields above (`null` is the same as leaving a
    /// field out). Each field's type and range is checked here, and a refusal names the
    /// field and what it takes: serde's own messages name neither ("invalid type: floating
    /// point `1.5`, expected u64 at line 1 column 30").
    pub(crate) fn parse(bytes: &[u8], config: &Config) -> Result<Body, Reply> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Body::default());
        }
        let v: Value = serde_json::from_slice(bytes).map_err(|e| unreadable(bytes, &e, config))?;
        let Value::Object(map) = v else {
            return Err(error(400, "request: the body must be a JSON object of fields"));
        };
        Body::from_fields(map, config)
    }

    fn from_fields(map: Map<String, Value>, config: &Config) -> Result<Body, Reply> {
        let mut b = Body::default();
        for (field, v) in map {
            if v.is_null() {
                continue;
            }
            let f = field.as_str();
            match f {
                "instance" => b.instance = Some(string(f, v)?),
                "name" => b.name = Some(string(f, v)?),
                "kind" => b.kind = Some(string(f, v)?),
                "variant_text" => b.variant_text = Some(string(f, v)?),
                "backend" => b.backend = Some(string(f, v)?),
                "timeout" => b.timeout = Some(seconds(f, &v, config.max_timeout)?),
                "unique" => b.unique = Some(boolean(f, &v)?),
                "seed" => b.seed = Some(whole(f, &v, 0..=u64::MAX)?),
                "job" => b.job = Some(string(f, v)?),
                "offset" => b.offset = Some(whole(f, &v, 0..=MAX_REACH - 1)?),
                "limit" => b.limit = Some(whole(f, &v, 1..=MAX_PAGE)?),
                "format" => b.format = Some(string(f, v)?),
                "solution" => b.solution = Some(v),
                "text" => b.text = Some(string(f, v)?),
                "placed" => b.placed = Some(string(f, v)?),
                _ => {
                    return Err(error(
                        400,
                        format!("request: unknown field `{field}` (the API takes {FIELDS})"),
                    ));
                }
            }
        }
        Ok(b)
    }

    /// The file name messages give the instance.
    pub(crate) fn file_name(&self) -> &str {
        self.name.as_deref().unwrap_or("instance")
    }

    /// The uploaded variant, if any.
    pub(crate) fn variant(&self) -> Result<Option<Variant>, Reply> {
        match &self.variant_text {
            None => Ok(None),
            Some(t) => Variant::parse("uploaded variant", t, "uploaded")
                .map(Some)
                .map_err(|e| error(400, e.to_string())),
        }
    }

    /// The instance, read from its text as `sokuc solve` reads a file; its variant is a
    /// built-in or the uploaded one, and nothing is read from disk.
    pub(crate) fn instance(&self) -> Result<Instance, Reply> {
        let Some(text) = &self.instance else {
            return Err(error(
                400,
                "request: missing field `instance` (the instance file's text)",
            ));
        };
        let variant = self.variant()?;
        Instance::parse_with_variant(self.kind.as_deref(), self.file_name(), text, variant.as_ref())
            .map_err(|e| error(400, e.to_string()))
    }

    /// The backend the request names (`auto` when it names none), if this build has it.
    pub(crate) fn backend(&self) -> Result<Backend, Reply> {
        match self.backend.as_deref() {
            None => Ok(Backend::Auto),
            Some(name) => name.parse::<Backend>().and_then(Backend::check).map_err(failed),
        }
    }

    /// The options of a request that solves: its time limit, counted from its arrival at
    /// `started` (the wait for a turn uses it up too), `stop` (its ticket's flag) as the
    /// interrupt, and the server's memory limit and tuning. The backend, uniqueness and seed
    /// are the routes' to add: not every route takes them.
    pub(crate) fn options(&self, state: &State, stop: &Arc<AtomicBool>, started: Instant) -> Options {
        let config = &state.config;
        let mut options = Options::new()
            .timeout(self.timeout(state))
            .clock_started(started)
            .interrupt(stop.clone())
            .max_memory(config.max_memory);
        if let Some(settings) = &config.cp_tuning {
            options = options.cp_tuning(settings.clone());
        }
        if let Some(settings) = &config.cadical_tuning {
            options = options.cadical_tuning(settings.clone());
        }
        options
    }

    /// The time limit: the request's (checked against the server's longest when read), else
    /// the server's default.
    pub(crate) fn timeout(&self, state: &State) -> Duration {
        self.timeout.unwrap_or(state.config.default_timeout)
    }
}

/// A body that is not JSON. A number too large for a double (`1e400`) is refused by the
/// JSON reader itself, before any field is seen; its message then names the field the
/// number belongs to, found before the place the reader stopped.
fn unreadable(bytes: &[u8], e: &serde_json::Error, config: &Config) -> Reply {
    let message = e.to_string();
    if message.starts_with("number out of range")
        && let Some(field) = key_before(bytes, e.line(), e.column())
    {
        return error(
            400,
            format!(
                "{field}: the number is out of range (at line {} column {}); {}",
                e.line(),
                e.column(),
                takes(&field, config)
            ),
        );
    }
    error(400, format!("request: {message}"))
}

/// What `field` takes, for a message; empty for a field of no fixed range.
fn takes(field: &str, config: &Config) -> String {
    match field {
        "timeout" => format!(
            "give a number of seconds above 0 and at most {}",
            config.max_timeout.as_secs_f64()
        ),
        "seed" => format!("give a whole number from 0 to {}", u64::MAX),
        "offset" => format!("give a whole number from 0 to {}", MAX_REACH - 1),
        "limit" => format!("give a whole number from 1 to {MAX_PAGE}"),
        _ => "no number that large is taken".into(),
    }
}

/// The key of the object member in which the reader stopped at `line`, `column` (1-based,
/// as serde_json counts them): the last `"key":` before that place, which is the member
/// whose number did not fit. `None` when there is none (a number in an array).
fn key_before(bytes: &[u8], line: usize, column: usize) -> Option<String> {
    let line_start = if line <= 1 {
        0
    } else {
        bytes
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c == b'\n')
            .nth(line - 2)
            .map(|(i, _)| i + 1)?
    };
    let head = &bytes[..(line_start + column).min(bytes.len())];
    // Back over the number to the separator before it, which must be a member's ':'.
    let colon = head.iter().rposition(|&c| matches!(c, b':' | b',' | b'[' | b'{'))?;
    if head[colon] != b':' {
        return None;
    }
    let before = head[..colon].trim_ascii_end();
    let close = before.len().checked_sub(1).filter(|&i| before[i] == b'"')?;
    let open = before[..close].iter().rposition(|&c| c == b'"')?;
    String::from_utf8(before[open + 1..close].to_vec()).ok()
}

/// A value as a message shows it: the JSON text, shortened.
pub(crate) fn shown(v: &Value) -> String {
    let t = v.to_string();
    match t.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t,
    }
}

fn string(field: &str, v: Value) -> Result<String, Reply> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(error(400, format!("{field}: {} is not a string", shown(&other)))),
    }
}

fn boolean(field: &str, v: &Value) -> Result<bool, Reply> {
    v.as_bool()
        .ok_or_else(|| error(400, format!("{field}: {} is not true or false", shown(v))))
}

/// A whole number in `range`: a JSON integer, not a string of one, not `1.0`.
fn whole(field: &str, v: &Value, range: RangeInclusive<u64>) -> Result<u64, Reply> {
    match v.as_u64() {
        Some(n) if range.contains(&n) => Ok(n),
        _ => Err(error(
            400,
            format!(
                "{field}: {} is not a whole number from {} to {}",
                shown(v),
                range.start(),
                range.end()
            ),
        )),
    }
}

/// Seconds: a JSON number above 0 and at most `max`.
fn seconds(field: &str, v: &Value, max: Duration) -> Result<Duration, Reply> {
    let refused = || {
        error(
            400,
            format!(
                "{field}: {} is not a number of seconds above 0 and at most {} (the server's longest)",
                shown(v),
                max.as_secs_f64()
            ),
        )
    };
    let t = v.as_f64().ok_or_else(refused)?;
    // Compared before converting: `Duration::from_secs_f64` panics past about 1.8e19 s.
    if !(t > 0.0 && t <= max.as_secs_f64()) {
        return Err(refused());
    }
    Duration::try_from_secs_f64(t).map_err(|_| refused())
}
