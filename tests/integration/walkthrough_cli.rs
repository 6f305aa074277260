//! The README's walk-through for scheduler engineers, run exactly as written: the commands
//! between `<!-- walkthrough -->` and `<!-- /walkthrough -->` (a `> FILE` redirection writes
//! standard output to a scratch file that the later commands read).

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;

/// The walk-through's commands, as the README writes them.
fn commands() -> Vec<String> {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let start = readme
        .find("<!-- walkthrough -->")
        .expect("walk-through start");
    let end = readme
        .find("<!-- /walkthrough -->")
        .expect("walk-through end");
    readme[start..end]
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("leontief "))
        .map(str::to_string)
        .collect()
}

/// Runs every command in order; returns each one's standard output, keyed by its subcommand.
fn run_all() -> HashMap<String, String> {
    let mut files: HashMap<String, PathBuf> = HashMap::new();
    let mut outputs = HashMap::new();
    for line in commands() {
        let (cmd, redirect) = match line.split_once(" > ") {
            Some((c, f)) => (c.to_string(), Some(f.trim().to_string())),
            None => (line.clone(), None),
        };
        let args: Vec<String> = cmd
            .split_whitespace()
            .skip(1)
            .map(|a| match files.get(a) {
                Some(p) => p.to_string_lossy().into_owned(),
                None => a.to_string(),
            })
            .collect();
        let out = common::run_with(&args, None);
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        if let Some(name) = redirect {
            let path = common::scratch_path("walkthrough", &name);
            std::fs::write(&path, &stdout).unwrap();
            files.insert(name, path);
        }
        outputs.insert(args[0].clone(), stdout);
    }
    outputs
}

/// The policies `command --policy` accepts but `all`, in the flag's order (from its error).
fn policies(command: &str) -> Vec<String> {
    let mut names = common::listed_names(
        &[command, "--policy", "fair", "-"],
        "error: --policy: unknown policy \"fair\" (expected ",
        ')',
    );
    assert_eq!(names.pop().as_deref(), Some("all"));
    names
}

/// A row of a table whose first column is `node` (by the whole first cell).
fn row<'a>(table: &'a str, node: &str) -> Vec<&'a str> {
    table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cells| cells.first() == Some(&node))
        .unwrap_or_else(|| panic!("no row {node} in\n{table}"))
}

/// The facts the README states, derived by hand:
/// - import: YARN's weights 8 (parentA) and 1 (parentB, default) give guaranteed shares 4/5,
///   1/10, 1/10; childB1 is one of parentB's two queues: 1/20.
/// - simulate: childB2 holds two tasks of 4096 MB for 1000 > the horizon 100, so parentB's
///   dominant share is at least 8192/32768 = 1/4 throughout; parentA's weighted share is at
///   most (20/20)/8 = 1/8 < 1/4, so naive HDRF gives every free vcore to parentA and childB1
///   never runs: time-average 0, at least one task (1/20 = its guarantee) below for all of
///   [0, 100): STARVED (tolerance 10). Min-satisfaction HDRF serves childB1 (its satisfaction
///   0 is the smallest whenever it is not running), so it is not starved there.
/// - order: parentA's weighted share (18/20)/8 = 9/80 < parentB's 1/4: childA1 is offered
///   first, then childB1; childB2 holds its two tasks (its cap) and is not offered.
#[test]
fn readme_walkthrough_runs_and_says_what_the_readme_says() {
    assert_eq!(commands().len(), 4, "{:?}", commands());
    let out = run_all();
    // Static: every policy gives childB1 a positive share (its fill starts with every
    // leaf growing from zero).
    let tree = &out["hdrf"];
    let b1 = tree
        .lines()
        .find(|l| l.contains(" childB1 "))
        .unwrap_or_else(|| panic!("no childB1 in\n{tree}"))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(b1.contains("childB1 1/20"), "{b1}");
    let static_cells: Vec<&str> = b1.split("1/20 ").nth(1).unwrap().split(' ').collect();
    // "share (satisfaction)" for every policy of `hdrf` but `all`.
    let static_policies = policies("hdrf");
    for share in static_cells.iter().step_by(2) {
        assert!(*share != "0", "{b1}");
    }
    assert_eq!(static_cells.len(), 2 * static_policies.len(), "{b1}");

    let sim = &out["simulate"];
    let header = row(sim, "node");
    assert_eq!(header[..2], ["node", "g"]);
    assert_eq!(header[2..], policies("simulate")[..]);
    // "avg / longest [STARVED]" per policy, in the header's order: splitting at " / ", the
    // piece after policy k's avg starts with its longest time below its guarantee.
    let line = row(sim, "root/parentB/childB1").join(" ");
    let cells: Vec<&str> = line.split(" / ").collect();
    let longest = |policy: &str| {
        let k = header[2..]
            .iter()
            .position(|h| *h == policy)
            .expect("a column");
        cells[k + 1]
    };
    assert!(cells[0].starts_with("root/parentB/childB1 1/20 "), "{line}");
    let naive = header[2..]
        .iter()
        .position(|h| *h == "naive")
        .expect("naive");
    assert!(
        cells[naive].ends_with(" 0") && longest("naive").starts_with("100 STARVED"),
        "naive: {line}"
    );
    assert!(
        longest("min-satisfaction").starts_with("0 "),
        "min-satisfaction: {line}"
    );
    assert!(longest("hdrf").starts_with("100 STARVED"), "hdrf: {line}");

    let order = &out["order"];
    assert!(
        order.contains("offer order: root/parentA/childA1, root/parentB/childB1"),
        "{order}"
    );
    assert_eq!(row(order, "parentA")[4], "9/80"); // the weighted share
    assert_eq!(row(order, "parentB")[4], "1/4");
}
