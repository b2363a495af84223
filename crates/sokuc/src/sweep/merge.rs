//! `sokuc sweep-merge`: shard results files -> one results file and one summary, as if the
//! sweep had run in one piece. Every record is checked again (checksum, place, capacities,
//! arrangement verified), and a missing shard, a shard given twice, a missing or extra record
//! (named with its file and line), or shards of different sweeps are errors.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::error::SweepError;
use super::records::{MAGIC, MAGIC_2, Record};
use super::run::{Summary, check_record};
use super::spec::{Shard, Spec};
use crate::model::Variant;

/// A parsed header: `key=value` fields after the magic.
struct Header {
    fields: Vec<(String, String)>,
}

impl Header {
    fn parse(file: &str, line: &str) -> Result<Header, SweepError> {
        let bad = |m: &str| SweepError::File {
            file: file.to_string(),
            line: 1,
            message: m.to_string(),
        };
        // Shards of format 2 (unsat records without evidence) merge too; the merged file is
        // written in the current format, their records as they were.
        let rest = line
            .strip_prefix(MAGIC)
            .or_else(|| line.strip_prefix(MAGIC_2))
            .ok_or_else(|| bad("not a sokuc sweep results file (no header)"))?;
        let fields = rest
            .split_whitespace()
            .map(|kv| {
                kv.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| bad(&format!("bad header field {kv:?}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Header { fields })
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The header without its shard field: equal for all shards of one sweep.
    fn sweep_identity(&self) -> Vec<(String, String)> {
        self.fields.iter().filter(|(k, _)| k != "shard").cloned().collect()
    }

    /// The block size the sweep was run with.
    fn block(&self, file: &str) -> Result<u64, SweepError> {
        self.get("block")
            .and_then(|b| b.parse().ok())
            .filter(|&b: &u64| b > 0)
            .ok_or_else(|| SweepError::File {
                file: file.to_string(),
                line: 1,
                message: "header has no valid block=".into(),
            })
    }

    fn spec(&self, file: &str) -> Result<Spec, SweepError> {
        let bad = |m: String| SweepError::File {
            file: file.to_string(),
            line: 1,
            message: m,
        };
        let need = |k: &str| self.get(k).ok_or_else(|| bad(format!("header has no {k}=")));
        let vertices: Vec<String> = need("vertices")?.split(',').map(String::from).collect();
        let faces: Vec<Vec<String>> = need("faces")?
            .split(',')
            .map(|f| {
                f.split('.')
                    .map(|i| {
                        i.parse::<usize>()
                            .ok()
                            .and_then(|i| vertices.get(i).cloned())
                            .ok_or_else(|| bad(format!("bad face {f:?}")))
                    })
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        let variant = Variant::new(need("variant")?, vertices.clone(), &faces).map_err(|e| bad(e.to_string()))?;
        let num = |s: &str| s.parse::<u64>().map_err(|_| bad(format!("bad number {s:?}")));
        let tiles = need("tiles")?
            .split(',')
            .map(|t| {
                let w: Vec<u64> = t.split('.').map(num).collect::<Result<_, _>>()?;
                <[u64; 3]>::try_from(w).map_err(|_| bad(format!("bad tile {t:?}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let caps = need("caps")?.split(',').map(num).collect::<Result<Vec<_>, _>>()?;
        Ok(Spec::new(variant, tiles, caps))
    }
}

fn read_header(path: &Path) -> Result<(Header, BufReader<File>), SweepError> {
    let file = path.display().to_string();
    let mut rd = BufReader::new(File::open(path).map_err(|e| SweepError::File {
        file: file.clone(),
        line: 0,
        message: e.to_string(),
    })?);
    crate::output::note_input(path);
    let mut line = String::new();
    rd.read_line(&mut line)?;
    Ok((Header::parse(&file, line.trim_end())?, rd))
}

/// Merges shard files. Writes the combined results to `out` if given, through
/// [`crate::output`]: never onto one of the shards, and a failed merge leaves nothing behind.
pub fn merge(files: &[PathBuf], out: Option<&Path>) -> Result<Summary, SweepError> {
    // The shards are inputs even before they are opened: `-o` may not name one of them.
    for f in files {
        crate::output::note_input(f);
    }
    let pending = out.map(crate::output::Pending::new).transpose()?;
    let summary = merge_into(files, pending.as_ref().map(|p| p.path()))?;
    if let Some(p) = pending {
        p.commit()?;
    }
    Ok(summary)
}

fn merge_into(files: &[PathBuf], out: Option<&Path>) -> Result<Summary, SweepError> {
    if files.is_empty() {
        return Err(SweepError::Usage("sweep-merge: no results files given".into()));
    }
    let mut shards: Vec<(Shard, Header, BufReader<File>, String)> = Vec::new();
    for p in files {
        let (h, rd) = read_header(p)?;
        let name = p.display().to_string();
        let shard = Shard::parse(h.get("shard").unwrap_or("")).map_err(|m| SweepError::File {
            file: name.clone(),
            line: 1,
            message: m.into(),
        })?;
        shards.push((shard, h, rd, name));
    }
    let first = &shards[0];
    let n = first.0.n;
    for (s, h, _, name) in &shards {
        if h.sweep_identity() != first.1.sweep_identity() {
            return Err(SweepError::File {
                file: name.clone(),
                line: 1,
                message: format!("this file is from a different sweep than {}", first.3),
            });
        }
        if s.n != n {
            return Err(SweepError::File {
                file: name.clone(),
                line: 1,
                message: format!("shard {}/{} does not belong to a split into {n}", s.k, s.n),
            });
        }
    }
    if first.1.get("limit") != Some("none") {
        return Err(SweepError::Usage(
            "sweep-merge: shards were run with --limit, so they cannot add up to the whole sweep".into(),
        ));
    }
    shards.sort_by_key(|s| s.0.k);
    for w in shards.windows(2) {
        if w[0].0.k == w[1].0.k {
            return Err(SweepError::Usage(format!(
                "sweep-merge: shard {}/{n} is given twice ({} and {})",
                w[0].0.k, w[0].3, w[1].3
            )));
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|k| !shards.iter().any(|s| s.0.k == *k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(SweepError::Usage(format!(
            "sweep-merge: missing shard(s) {}",
            missing.join(", ")
        )));
    }
    let spec = shards[0].1.spec(&shards[0].3)?;
    let block: u64 = shards[0].1.block(&shards[0].3)?;
    let group = spec.group();
    let (total, all) = super::run::shard_instances(&spec, &group, Shard::ALL, block, None);
    let header = spec.header(group.len(), Shard::ALL, block, total, None);
    let mut w = match out {
        Some(p) => {
            let mut w = BufWriter::new(File::create(p)?);
            writeln!(w, "{header}")?;
            Some(w)
        }
        None => None,
    };
    let mut summary = Summary::default();
    let mut lines = vec![1usize; shards.len()];
    let mut buf = String::new();
    for (index, caps) in &all {
        let k = ((index / block) % n) as usize;
        let (_, _, rd, name) = &mut shards[k];
        buf.clear();
        rd.read_line(&mut buf)?;
        lines[k] += 1;
        let bad = |m: String| SweepError::File {
            file: name.clone(),
            line: lines[k],
            message: m,
        };
        if buf.is_empty() {
            return Err(bad(format!(
                "the shard ends early: instance {index} is missing (was the shard finished? rerun it with --resume)"
            )));
        }
        let r = Record::parse(buf.trim_end()).map_err(|p| bad(p.into()))?;
        check_record(&spec, &r, *index, caps).map_err(|p| bad(p.into()))?;
        summary.count(&r);
        if let Some(w) = w.as_mut() {
            w.write_all(r.line().as_bytes())?;
        }
    }
    for (k, (_, _, rd, name)) in shards.iter_mut().enumerate() {
        buf.clear();
        if rd.read_line(&mut buf)? > 0 {
            return Err(SweepError::File {
                file: name.clone(),
                line: lines[k] + 1,
                message: "extra records after the shard's last instance".into(),
            });
        }
    }
    if let Some(mut w) = w {
        w.flush()?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    }
    Ok(summary)
}
