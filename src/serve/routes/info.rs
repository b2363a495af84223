//! `GET /api/info`: what this build has, and what the page needs from the server: the tile
//! sets, the grid samples and the time limits (the page keeps no copies of them).

use serde_json::{Value, json};

use crate::serve::reply::Reply;
use crate::serve::request::Body;
use crate::serve::state::State;

/// A grid the page offers in its sample picker: a name, the instance's text (web/samples:
/// copies of files in instances/, which the published crate leaves out), and whether the page
/// opens its kind's tab with it.
struct Sample {
    name: &'static str,
    text: &'static str,
    default: bool,
}

const KAKURO_SAMPLES: [Sample; 2] = [
    Sample {
        name: "Small 3x3",
        text: include_str!("../../../web/samples/kakuro-small-3x3.kakuro"),
        default: false,
    },
    Sample {
        name: "Easy 10x12",
        text: include_str!("../../../web/samples/kakuro-easy-10x12.kakuro"),
        default: true,
    },
];

const TRICKY_TRIPLE_SAMPLES: [Sample; 2] = [
    Sample {
        name: "4x4",
        text: include_str!("../../../web/samples/trickytriple-4x4.tt"),
        default: true,
    },
    Sample {
        name: "5x5 with black cells",
        text: include_str!("../../../web/samples/trickytriple-5x5.tt"),
        default: false,
    },
];

/// The samples as the page shows them: an instance file's opening `#` lines (where it comes
/// from) are left out of the text box, as the page has no room for them.
fn samples(list: &[Sample]) -> Value {
    list.iter()
        .map(|s| {
            let text: String = s
                .text
                .split_inclusive('\n')
                .skip_while(|l| l.starts_with('#'))
                .collect();
            json!({"name": s.name, "text": text, "default": s.default})
        })
        .collect()
}

pub(super) fn get(_: &Body, state: &State) -> Result<Reply, Reply> {
    let mut backends = vec!["auto"];
    backends.extend(sokuc::Backend::general().into_iter().map(sokuc::Backend::name));
    // The named solids, then the bipyramids (any `bipyramid-N` is built in; these are the
    // ones a picker can show).
    let mut variants: Vec<String> = sokuc::Variant::builtin_names()
        .into_iter()
        .map(str::to_string)
        .collect();
    variants.extend((3..=12).map(|n| format!("bipyramid-{n}")));
    Ok(Reply::json(&json!({
        "version": env!("CARGO_PKG_VERSION"),
        "backends": backends,
        "kinds": sokuc::kinds(),
        "variants": variants,
        // The page's limits: a solve's time limit between 1 s and the longest (its box starts
        // at the default); a count takes the longest.
        "default_timeout_s": state.config.default_timeout.as_secs_f64(),
        "max_timeout_s": state.config.max_timeout.as_secs_f64(),
        "max_memory": state.config.max_memory,
        // The built-in tile sets a variant can name (`"tile_set"` of /api/variant).
        "tile_sets": {"icosoku": super::variant::icosoku_tiles()},
        "samples": {
            "kakuro": samples(&KAKURO_SAMPLES),
            "trickytriple": samples(&TRICKY_TRIPLE_SAMPLES),
        },
    })))
}

#[cfg(test)]
mod tests {
    use super::{KAKURO_SAMPLES, TRICKY_TRIPLE_SAMPLES, samples};

    /// The page opens a tab on its default sample: each kind has one, and every sample is an
    /// instance of its kind that the library reads, without the provenance lines.
    #[test]
    fn every_sample_is_read_as_its_kind() {
        for (kind, list) in [
            ("kakuro", &KAKURO_SAMPLES[..]),
            ("trickytriple", &TRICKY_TRIPLE_SAMPLES[..]),
        ] {
            assert_eq!(list.iter().filter(|s| s.default).count(), 1, "{kind}");
            for s in samples(list).as_array().unwrap() {
                let text = s["text"].as_str().unwrap();
                assert!(text.starts_with(&format!("{kind} ")), "{text}");
                let i = sokuc::Instance::parse(kind, "sample", text).unwrap();
                assert_eq!(i.kind(), kind);
            }
        }
    }
}
