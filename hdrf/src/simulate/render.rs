//! The runs of several policies on one workload as one text table.

use crate::Tree;

use super::Simulation;

/// Every node (by path) with its guaranteed share and, per run, `time-average share / longest
/// spell at least one task below the guarantee`, with `STARVED` when that spell exceeds the
/// starvation tolerance. Columns in the order of `runs`, headed by the policy's name.
///
/// # Example
/// Two identical leaves x, y (tasks of 1/4, duration 1, work from t = 1) contend for the one
/// slot that z (3/4 for the whole run) leaves free; guarantees 1/3 each. With ties to the first
/// child x runs every task: y holds 0 on [1, 4), a gap of 1/3 >= one task. With the default,
/// count, they alternate (x, y, x): y holds 1/4 on [2, 3), time-average 1/16, and its longest
/// spell short of its guarantee by a task is 1, not above the tolerance 1.
/// ```
/// use leontief_hdrf::simulate::{render_comparison, simulate, Scenario, SimConfig, SimPolicy};
/// use leontief_hdrf::tiebreak::TieBreaks;
/// let s = Scenario::from_json_str(r#"{"capacity": [1], "horizon": 4, "tree": {"children": [
///     {"name": "x", "demand": ["1/4"]}, {"name": "y", "demand": ["1/4"]}, {"name": "z", "demand": ["3/4"]}]},
///     "starvation_tolerance": 1,
///     "workload": {"z": {"count": 1, "duration": 100}, "x": {"start": 1}, "y": {"start": 1}}}"#).unwrap();
/// let first = simulate(&s, &SimConfig::new(SimPolicy::Tree(leontief_hdrf::Policy::Naive)).tie(TieBreaks::first())).unwrap();
/// let count = simulate(&s, &SimConfig::new(SimPolicy::Tree(leontief_hdrf::Policy::Naive))).unwrap();
/// let table = render_comparison(&s.tree, &[first, count]);
/// assert_eq!(table.lines().next(), Some("node    g    naive (first)  naive (count)"));
/// assert!(table.contains("root/y  1/3  0 / 3 STARVED  1/16 / 1"), "{table}");
/// ```
pub fn render_comparison(tree: &Tree, runs: &[Simulation]) -> String {
    let ties_differ = runs.windows(2).any(|w| w[0].tie != w[1].tie);
    let mut header = vec!["node".to_string(), "g".to_string()];
    header.extend(runs.iter().map(|r| {
        if ties_differ {
            format!("{} ({})", r.policy.name(), r.tie)
        } else {
            r.policy.name().to_string()
        }
    }));
    let mut rows = vec![header];
    for v in tree.nodes() {
        let mut row = vec![tree.path(v), tree.node(v).guaranteed_share().to_string()];
        row.extend(runs.iter().map(|r| {
            let s = &r.nodes[v.index()];
            format!(
                "{} / {}{}",
                s.time_average_share,
                s.longest_below_by_a_task,
                if s.starved { " STARVED" } else { "" }
            )
        }));
        rows.push(row);
    }
    let mut out = crate::allocation::aligned(&rows);
    if let Some(r) = runs.first() {
        out.push_str(&format!(
            "cells: time-average dominant share / longest spell at least one task below the guarantee with unmet demand; STARVED: longer than {}\n",
            r.starvation_tolerance
        ));
    }
    out
}
