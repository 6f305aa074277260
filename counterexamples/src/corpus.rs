//! Reading JSONL, with `name:line` in errors: the input of `leontief merge` and of the
//! corpus of known counterexamples, `counterexamples/corpus/*.jsonl` (records in the search's
//! output format, see [`mod@crate::record`]), which the tests read and replay
//! (`tests/integration/common`).

use serde_json::Value;

/// The JSON values of a JSONL text (blank lines skipped), with `name:line` in errors.
///
/// # Errors
/// A line that is not JSON.
///
/// # Example
/// ```
/// use leontief_counterexamples::corpus::parse_jsonl;
/// let v = parse_jsonl("x.jsonl", "{\"a\": 1}\n\n{\"a\": 2}\n").unwrap();
/// assert_eq!(v.len(), 2);
/// assert!(parse_jsonl("x.jsonl", "{").unwrap_err().contains("x.jsonl:1"));
/// ```
pub fn parse_jsonl(name: &str, text: &str) -> Result<Vec<(usize, Value)>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(k, l)| {
            leontief_solver::json::parse_strict(l)
                .map(|v| (k + 1, v))
                .map_err(|e| format!("{name}:{}: not JSON: {e}", k + 1))
        })
        .collect()
}
