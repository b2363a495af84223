//! A request's body: the instance (its text, never a path), the variant it may bring, and
//! the options a command line would take.

use std::time::Duration;

use serde::Deserialize;

use super::{Reply, State, error};
use crate::input::variant_file::parse_variant;
use crate::model::Variant;
use crate::run::AnyPuzzle;

/// Every field any route takes; each route reads those it needs.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
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
    /// Seconds.
    pub timeout: Option<f64>,
    pub unique: Option<bool>,
    pub seed: Option<u64>,
    /// The page's name for this request, for `/api/cancel`.
    pub job: Option<String>,
    pub offset: Option<u64>,
    pub limit: Option<u64>,
    pub format: Option<String>,
    /// A solution: the text `sokuc solve` printed, or its JSON.
    pub solution: Option<serde_json::Value>,
    /// A variant file's text (`/api/variant`).
    pub text: Option<String>,
}

impl Body {
    pub(crate) fn parse(bytes: &[u8]) -> Result<Body, Reply> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Body::default());
        }
        serde_json::from_slice(bytes).map_err(|e| error(400, format!("request: {e}")))
    }

    /// The file name messages give the instance.
    pub(crate) fn file_name(&self) -> &str {
        self.name.as_deref().unwrap_or("instance")
    }

    /// The uploaded variant, if any.
    pub(crate) fn variant(&self) -> Result<Option<Variant>, Reply> {
        match &self.variant_text {
            None => Ok(None),
            Some(t) => parse_variant("uploaded variant", t, "uploaded")
                .map(Some)
                .map_err(|e| error(400, e.to_string())),
        }
    }

    /// The instance, read from its text as `sokuc solve` reads a file; its variant is a
    /// built-in or the uploaded one, and nothing is read from disk.
    pub(crate) fn puzzle(&self) -> Result<Box<dyn AnyPuzzle>, Reply> {
        let Some(text) = &self.instance else {
            return Err(error(
                400,
                "request: missing field `instance` (the instance file's text)",
            ));
        };
        let variant = self.variant()?;
        crate::registry::parse_in_memory(self.kind.as_deref(), self.file_name(), text, variant.as_ref())
            .map_err(|e| error(400, e.to_string()))
    }

    /// The run options of a request that solves: its time limit (per solve, as `compare`
    /// gives each backend its own), the server's memory limit, and `stop` (its ticket's
    /// flag) as the interrupt.
    pub(crate) fn run_options(
        &self,
        state: &State,
        stop: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Result<crate::run::RunOptions, Reply> {
        let mut opts = crate::run::RunOptions::default();
        opts.solve.time_limit = Some(self.timeout(state)?);
        opts.solve.interrupt = Some(stop.clone());
        opts.solve.encode.max_memory = state.config.max_memory;
        Ok(opts)
    }

    /// The time limit: the request's, at most the server's longest, else the server's default.
    pub(crate) fn timeout(&self, state: &State) -> Result<Duration, Reply> {
        match self.timeout {
            None => Ok(state.config.default_timeout),
            Some(t) if t.is_finite() && t > 0.0 => Ok(Duration::from_secs_f64(t).min(state.config.max_timeout)),
            Some(t) => Err(error(400, format!("timeout: {t} is not a positive number of seconds"))),
        }
    }
}
