//! The results file of a sweep: a header line describing the sweep, then one record per
//! instance, in order:
//!
//! ```text
//! # sokuc-sweep 3 variant=icosahedron ... block=64 shard=0/1 total=3991680 limit=none
//! 0 1,2,3,4,5,6,7,8,9,10,11,12 sat 1a5b... #1f2e3d4c
//! ```
//!
//! A record is `index capacities status arrangement [evidence] #checksum`. The arrangement
//! lists, per face in variant order, the 1-based tile number followed by its rotation as a
//! letter (`a` = 0, `b` = 1, `c` = 2), or `-` when there is none. An unsat record ends with
//! its evidence, `BY:BACKING` (`search:engine-word`, `presolve:presolve`), or
//! `BY:second-engine:OTHER`: who refuted the instance and what backs it, as the run path's
//! gate accepted it, with no time in it, so that a resumed sweep writes the same bytes.
//! Format 2 (before evidence) is read too: its unsat records have none. The checksum
//! (FNV-1a, 32 bits, over everything before ` #`) catches a torn or corrupted line.

use crate::input::Problem;
use std::fmt::Write as _;

use crate::backend::Status;
use crate::puzzle::evidence::{Backing, Claim, ClaimKind, Evidence};
use crate::soku::Placement;

pub const MAGIC: &str = "# sokuc-sweep 3";

/// The header of format 2, whose unsat records carry no evidence: `sweep-merge` reads it,
/// and `--resume` names it.
pub const MAGIC_2: &str = "# sokuc-sweep 2";

/// Who refuted an unsat instance, and what backs it (the gate's accepted claim).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refuted {
    pub by: String,
    pub backing: Backing,
    /// With [`Backing::SecondEngine`]: the engine that confirmed it.
    pub confirmed_by: Option<String>,
}

impl Refuted {
    /// From the gate's claim.
    pub fn of(c: &Claim) -> Refuted {
        Refuted {
            by: c.by.clone(),
            backing: c.backing,
            confirmed_by: c.confirmed_by.clone(),
        }
    }

    /// The record's evidence field.
    fn field(&self) -> String {
        let mut s = format!("{}:{}", self.by, backing_word(self.backing));
        if let Some(o) = &self.confirmed_by {
            s.push(':');
            s.push_str(o);
        }
        s
    }

    fn parse(f: &str) -> Result<Refuted, Problem> {
        let bad = || Problem(format!("bad evidence {f:?}"));
        let mut parts = f.split(':');
        let by = parts.next().filter(|b| !b.is_empty()).ok_or_else(bad)?;
        let backing = parts.next().and_then(backing_of).ok_or_else(bad)?;
        let confirmed_by = parts.next().map(str::to_string);
        if parts.next().is_some() || (backing == Backing::SecondEngine) != confirmed_by.is_some() {
            return Err(bad());
        }
        Ok(Refuted {
            by: by.to_string(),
            backing,
            confirmed_by,
        })
    }

    /// As the JSON's `evidence` shows it.
    pub fn evidence(&self) -> Evidence {
        let mut c = Claim::new(ClaimKind::Unsat, self.by.clone(), self.backing);
        c.confirmed_by = self.confirmed_by.clone();
        if self.backing == Backing::Certificate {
            c.certificate = Some("farkas");
        }
        Evidence {
            claims: vec![c],
            ..Evidence::default()
        }
    }
}

/// The backings an unsat record may carry, by their names in the JSON.
const BACKINGS: [(Backing, &str); 5] = [
    (Backing::Certificate, "certificate"),
    (Backing::Presolve, "presolve"),
    (Backing::SecondEngine, "second-engine"),
    (Backing::EngineWord, "engine-word"),
    (Backing::External, "external"),
];

fn backing_word(b: Backing) -> &'static str {
    BACKINGS.iter().find(|(x, _)| *x == b).map_or("engine-word", |(_, w)| w)
}

fn backing_of(w: &str) -> Option<Backing> {
    BACKINGS.iter().find(|(_, x)| *x == w).map(|(b, _)| *b)
}

fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// One instance's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub index: u64,
    pub caps: Vec<u64>,
    pub status: Status,
    /// (tile, rotation) per face, 0-based tile.
    pub arrangement: Option<Vec<(usize, u8)>>,
    /// With an unsat status: who refuted it and what backs it (`None` in format 2).
    pub refuted: Option<Refuted>,
}

impl Record {
    pub fn new(index: u64, caps: &[u64], status: Status, placements: Option<&[Placement]>) -> Record {
        Record {
            index,
            caps: caps.to_vec(),
            status,
            arrangement: placements.map(|ps| ps.iter().map(|p| (p.tile, p.rotation)).collect()),
            refuted: None,
        }
    }

    /// An unsat record, with the gate's claim behind it.
    pub fn unsat(index: u64, caps: &[u64], claim: &Claim) -> Record {
        let mut r = Record::new(index, caps, Status::Unsat, None);
        r.refuted = Some(Refuted::of(claim));
        r
    }

    /// The record as one line, with its newline.
    pub fn line(&self) -> String {
        let mut s = String::with_capacity(128);
        let _ = write!(s, "{} ", self.index);
        for (i, c) in self.caps.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{c}");
        }
        let _ = write!(s, " {} ", self.status.as_str());
        match &self.arrangement {
            Some(a) => {
                for &(t, r) in a {
                    let _ = write!(s, "{}{}", t + 1, (b'a' + r) as char);
                }
            }
            None => s.push('-'),
        }
        if let Some(r) = &self.refuted {
            s.push(' ');
            s.push_str(&r.field());
        }
        let h = fnv1a(&s);
        let _ = writeln!(s, " #{h:08x}");
        s
    }

    /// Parses a line (without its newline); the error says what is wrong.
    pub fn parse(line: &str) -> Result<Record, Problem> {
        let (body, sum) = line.rsplit_once(" #").ok_or("no checksum")?;
        let want = u32::from_str_radix(sum, 16).map_err(|_| format!("bad checksum field {sum:?}"))?;
        if sum.len() != 8 || fnv1a(body) != want {
            return Err("checksum mismatch (torn or corrupted record)".into());
        }
        let f: Vec<&str> = body.split(' ').collect();
        if f.len() != 4 && f.len() != 5 {
            return Err(format!("expected 4 or 5 fields, found {}", f.len()).into());
        }
        let index = f[0].parse().map_err(|_| format!("bad index {:?}", f[0]))?;
        let caps = f[1]
            .split(',')
            .map(|c| c.parse().map_err(|_| Problem(format!("bad capacity {c:?}"))))
            .collect::<Result<Vec<u64>, Problem>>()?;
        let status = match f[2] {
            "sat" => Status::Sat,
            "unsat" => Status::Unsat,
            "unknown" => Status::Unknown,
            other => return Err(format!("bad status {other:?}").into()),
        };
        let arrangement = if f[3] == "-" {
            None
        } else {
            let mut a = Vec::new();
            let mut num = 0usize;
            let mut digits = 0;
            for ch in f[3].chars() {
                match ch {
                    '0'..='9' => {
                        num = num * 10 + (ch as usize - '0' as usize);
                        digits += 1;
                    }
                    'a'..='c' if digits > 0 && num > 0 => {
                        a.push((num - 1, ch as u8 - b'a'));
                        num = 0;
                        digits = 0;
                    }
                    _ => return Err(format!("bad arrangement {:?}", f[3]).into()),
                }
            }
            if digits > 0 {
                return Err("arrangement ends in the middle of a placement".into());
            }
            Some(a)
        };
        if (status == Status::Sat) != arrangement.is_some() {
            return Err("a sat record needs an arrangement, and only a sat record has one".into());
        }
        let refuted = f.get(4).map(|e| Refuted::parse(e)).transpose()?;
        if refuted.is_some() && status != Status::Unsat {
            return Err("only an unsat record has evidence".into());
        }
        Ok(Record {
            index,
            caps,
            status,
            arrangement,
            refuted,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_damage_is_caught() {
        let r = Record {
            index: 42,
            caps: vec![1, 2, 3, 4],
            status: Status::Sat,
            arrangement: Some(vec![(0, 0), (11, 2), (3, 1), (2, 0)]),
            refuted: None,
        };
        let line = r.line();
        assert!(line.starts_with("42 1,2,3,4 sat 1a12c4b3a #"), "{line}");
        assert_eq!(Record::parse(line.trim_end()).unwrap(), r);
        let u = Record::new(7, &[5, 5, 0, 0], Status::Unsat, None);
        assert_eq!(Record::parse(u.line().trim_end()).unwrap(), u);
        // Every proper prefix of a line is rejected, as is a changed character.
        let t = line.trim_end();
        for k in 0..t.len() {
            assert!(Record::parse(&t[..k]).is_err(), "prefix {k}");
        }
        assert!(Record::parse(&t.replace("12c", "12b")).is_err());
    }

    #[test]
    fn an_unsat_record_carries_its_evidence_and_old_records_still_read() {
        let claim = Claim::new(ClaimKind::Unsat, "search", Backing::EngineWord);
        let u = Record::unsat(7, &[5, 5, 0, 0], &claim);
        let line = u.line();
        assert!(line.starts_with("7 5,5,0,0 unsat - search:engine-word #"), "{line}");
        assert_eq!(Record::parse(line.trim_end()).unwrap(), u);
        let mut c = Claim::new(ClaimKind::Unsat, "sat", Backing::SecondEngine);
        c.confirmed_by = Some("cp".into());
        let r = Record::unsat(8, &[1, 2], &c);
        assert!(r.line().contains(" sat:second-engine:cp #"), "{}", r.line());
        assert_eq!(Record::parse(r.line().trim_end()).unwrap(), r);
        assert_eq!(
            r.refuted.as_ref().unwrap().evidence().claims[0].confirmed_by.as_deref(),
            Some("cp")
        );
        // A format-2 record: no evidence.
        let old = "7 5,5,0,0 unsat -";
        let old = format!("{old} #{:08x}", fnv1a(old));
        assert_eq!(Record::parse(&old).unwrap().refuted, None);
        // Evidence only on unsat, and only well formed.
        for body in [
            "7 5,5,0,0 unknown - search:engine-word",
            "7 5,5,0,0 unsat - search:guess",
            "7 5,5,0,0 unsat - sat:second-engine",
        ] {
            let line = format!("{body} #{:08x}", fnv1a(body));
            assert!(Record::parse(&line).is_err(), "{body}");
        }
    }
}
