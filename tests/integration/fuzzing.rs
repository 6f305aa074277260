//! The bodies of the fuzz targets in `fuzz/` (run with `cargo fuzz`, see CONTRIBUTING.md;
//! each target includes this file) and the test that replays their corpus on every
//! `cargo test`.
//!
//! Each body takes arbitrary bytes, feeds them to one reader, and panics only when a
//! property fails; a reader's error is a normal outcome. The properties:
//! - the flat reader never panics, its fast path and the strict reader give the same
//!   instance, and an instance read back from its own JSON is equal;
//! - the tree reader never panics, and a tree read back from its own JSON is equal;
//! - the YARN and Kueue importers never panic, and what they import is a valid tree file;
//! - the rational parser never panics, and a number reads back equal from its own text.

use leontief_hdrf::Tree;
use leontief_solver::{Instance, Rational, Rules};

use leontief::import::{kueue, yarn};

/// The text of `data`, when it is UTF-8 (every reader takes text).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// The flat JSON reader (with the tree form it also reads).
pub fn flat_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let fast_or_strict = Instance::from_json_str(text);
    let strict = Instance::from_json_str_with(text, Rules::default());
    match (&fast_or_strict, &strict) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "the fast reader and the strict one disagree");
            let again = Instance::from_json(&a.to_json()).expect("an instance's JSON reads");
            assert_eq!(&again, a, "an instance does not read back from its JSON");
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("the fast reader and the strict one disagree: {fast_or_strict:?} / {strict:?}"),
    }
}

/// The tree JSON reader.
pub fn tree_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(tree) = Tree::from_json_str(text) {
        let json = tree.instance().to_json();
        let again = Instance::from_json(&json).expect("a tree's JSON reads");
        assert_eq!(
            &again,
            tree.instance(),
            "a tree does not read back from its JSON"
        );
    }
}

/// An imported configuration, its leaves idle as `leontief import` writes it without
/// demands, must be a tree file the tree reader accepts.
fn imported_reads(mut imported: leontief::import::Imported) {
    imported
        .apply(&leontief::import::Demands::default())
        .expect("no demands always apply");
    let json = serde_json::to_value(&imported).expect("a tree file serializes");
    if let Err(e) = Tree::from_json(&json) {
        panic!("an imported tree does not read: {e}");
    }
}

/// The YARN Fair Scheduler importer (capacity 4096 MB, 4 vcores).
pub fn yarn_xml(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(imported) = yarn::import(text, "4096,4") {
        imported_reads(imported);
    }
}

/// The Kueue importer.
pub fn kueue_yaml(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(imported) = kueue::import(text) {
        imported_reads(imported);
    }
}

/// The rational parser, in both its forms (`p/q` and decimals).
pub fn rational(data: &[u8]) {
    let Some(text) = text(data) else { return };
    for r in [text.parse::<Rational>(), Rational::from_decimal_str(text)]
        .into_iter()
        .flatten()
    {
        let again: Rational = r.to_string().parse().expect("a rational's text reads");
        assert_eq!(again, r, "{text:?} does not read back from {r}");
    }
}

/// A fuzz target's body.
pub type Body = fn(&[u8]);

/// Every target by its name in `fuzz/fuzz_targets` and `fuzz/corpus`.
pub const TARGETS: &[(&str, Body)] = &[
    ("flat_json", flat_json),
    ("tree_json", tree_json),
    ("yarn_xml", yarn_xml),
    ("kueue_yaml", kueue_yaml),
    ("rational", rational),
];

/// Replays every checked-in input of every target, seeds and the corpus the fuzzer
/// kept (each crash it found was fixed and its input added there).
#[test]
fn corpus_replays() {
    let fuzz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (name, body) in TARGETS {
        let mut inputs = 0;
        for dir in ["seeds", "corpus"] {
            let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(name)) else {
                continue;
            };
            for entry in entries {
                let path = entry.expect("a corpus entry").path();
                let data = std::fs::read(&path).expect("a corpus file reads");
                if std::panic::catch_unwind(|| body(&data)).is_err() {
                    panic!("{name}: {} fails", path.display());
                }
                inputs += 1;
            }
        }
        // Every target has its seeds at least: a missing folder would replay nothing.
        assert!(inputs >= 2, "{name}: only {inputs} inputs");
    }
}
