//! The environment variables sokuc reads: only here, in the CLI. The library takes options
//! and limits as values ([`sokuc::set_input_limits`], [`sokuc::Options::cp_tuning`] and
//! [`sokuc::Options::cadical_tuning`], `--checker` for `certify`), so a program that
//! embeds it is not steered by its environment.

use sokuc::{InputLimits, set_input_limits};

/// Raises (or lowers) the input limits from `SOKUC_MAX_FILE_BYTES` and `SOKUC_MAX_FACES`;
/// a value that is not a whole number is ignored with a note on stderr.
pub fn apply() {
    let mut l = InputLimits::default();
    for (name, slot) in [
        ("SOKUC_MAX_FILE_BYTES", &mut l.max_file_bytes),
        ("SOKUC_MAX_FACES", &mut l.max_faces),
    ] {
        if let Some(v) = std::env::var_os(name) {
            match v.to_str().and_then(|v| v.trim().parse().ok()) {
                Some(n) => *slot = n,
                None => eprintln!("sokuc: note: {name} is not a whole number; the default limit {slot} stays"),
            }
        }
    }
    set_input_limits(l);
    // Read now, so that its note comes first.
    let _ = tuning();
}

/// The tuning experiments of `SOKUC_CP_OPTS` and `SOKUC_CADICAL_OPTS`, which the command
/// puts into the options of each solve it starts (the library keeps no tuning of its own).
/// Read once, with a note on stderr for each that is set: they change how an engine
/// searches, so a run under one is not a default run.
pub fn tuning() -> Tuning {
    static READ: std::sync::OnceLock<Tuning> = std::sync::OnceLock::new();
    READ.get_or_init(|| {
        let mut t = Tuning::default();
        for (name, slot) in [("SOKUC_CP_OPTS", &mut t.cp), ("SOKUC_CADICAL_OPTS", &mut t.cadical)] {
            if let Some(v) = std::env::var_os(name) {
                let v = v.to_string_lossy().into_owned();
                eprintln!("sokuc: note: {name}={v} (a tuning experiment) is in effect");
                *slot = Some(v);
            }
        }
        t
    })
    .clone()
}

/// The settings of the two tuning variables, as the options take them.
#[derive(Clone, Default)]
pub struct Tuning {
    /// `SOKUC_CP_OPTS`, for [`sokuc::Options::cp_tuning`].
    pub cp: Option<String>,
    /// `SOKUC_CADICAL_OPTS`, for [`sokuc::Options::cadical_tuning`].
    pub cadical: Option<String>,
}

/// `options` with the tuning experiments of [`tuning`], if any is set.
pub fn tuned(mut options: sokuc::Options) -> sokuc::Options {
    let t = tuning();
    if let Some(cp) = t.cp {
        options = options.cp_tuning(cp);
    }
    if let Some(cadical) = t.cadical {
        options = options.cadical_tuning(cadical);
    }
    options
}

/// The DRAT checker named by `SOKUC_DRAT_TRIM`, else `drat-trim` on `PATH`.
pub fn drat_trim() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("SOKUC_DRAT_TRIM").filter(|p| !p.is_empty()) {
        return Some(p.into());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("drat-trim"))
        .find(|p| p.is_file())
}
