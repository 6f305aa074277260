//! `leontief hdrf`: a hierarchical policy's static allocation on a weighted tree.

use clap::{Args, ValueEnum};
use leontief_hdrf::{allocate, render_comparison, render_tree, Policy};
use serde::Serialize;
use serde_json::Value;

use crate::cli::CliError;
use crate::commands::flags::{NumberFlags, OneOrAll, OneOrAllParser, RulesFlags};
use crate::commands::{json_only, one_or_list, to_value, usage};
use crate::output::{finish_csv, write_csv_field, Numbers};

/// The flags of `leontief hdrf`.
#[derive(Debug, Clone, Args)]
pub struct HdrfArgs {
    /// Tree JSON file, or - for standard input:
    /// {"resources": [..], "capacity": [..], "tree": {"name": "root", "children": [..]}}
    pub file: String,
    /// A policy, or all (side by side: with --format tree, a table of every node's
    /// dominant share and satisfaction under each policy, then each policy's tree; with json,
    /// an array of the allocations).
    #[arg(long, default_value = "min-satisfaction", value_parser = OneOrAllParser::<Policies>::new())]
    pub policy: Policies,
    /// How the tree's guarantees and limits are read and used.
    #[command(flatten)]
    pub rules: RulesFlags,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: TreeFormat,
    /// How numbers are printed (json and csv; the tree is drawn exactly).
    #[command(flatten)]
    pub numbers: NumberFlags,
    /// Print aggregate figures only (JSON), per policy: node and leaf counts, utilization,
    /// the saturated resources, and the smallest and largest leaf dominant share and
    /// satisfaction (with a leaf attaining each).
    #[arg(long)]
    pub summary: bool,
    /// Also draw the allocations as stacked bars (each leaf's share of each resource, per
    /// policy) into this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
}

/// The policies `--policy` names: one, or all of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policies(pub Vec<Policy>);

impl OneOrAll for Policies {
    type Item = Policy;
    const ALL: &'static [Policy] = &Policy::ALL;
    fn from_items(items: Vec<Policy>) -> Self {
        Policies(items)
    }
}

/// Output format of `hdrf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum TreeFormat {
    /// JSON: every node (pools too) with path, guaranteed share, allocation, dominant share,
    /// satisfaction and tasks, as exact strings.
    Json,
    /// The tree drawn on the terminal with those figures.
    Tree,
    /// CSV with a header row, one row per policy and node: policy, path, kind, weight,
    /// guaranteed share, the allocation of each resource, dominant share, satisfaction,
    /// tasks (empty for pools).
    Csv,
}

impl TreeFormat {
    fn name(self) -> &'static str {
        self.into()
    }
}

/// Runs `leontief hdrf`.
pub fn run(args: HdrfArgs) -> Result<String, CliError> {
    let numbers = args.numbers.numbers()?;
    json_only(args.summary, "--summary", "summary", args.format.name())?;
    if numbers != Numbers::Exact && args.format == TreeFormat::Tree {
        return Err(usage(
            "--decimals: the tree is drawn with exact values; use --format json or csv",
        ));
    }
    let tree = args.rules.read_tree(&args.file)?;
    let allocs = args
        .policy
        .0
        .iter()
        .map(|&policy| allocate(&tree, policy))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(path) = &args.svg {
        crate::plot::write_svg(path, crate::plot::stacked_allocations(&tree, &allocs)?)?;
    }
    let mut answers: Vec<Value> = allocs.iter().map(|a| a.to_json(&tree)).collect();
    if args.summary {
        answers = answers.iter().map(summary).collect();
    }
    Ok(match args.format {
        TreeFormat::Json => one_or_list(answers, numbers),
        TreeFormat::Csv => finish_csv(csv(&answers), numbers),
        TreeFormat::Tree => {
            let mut drawn = String::new();
            if allocs.len() > 1 {
                // Side by side first (dominant share and satisfaction), then each in full.
                drawn.push_str("dominant share (satisfaction) by policy\n");
                drawn.push_str(&render_comparison(&tree, &allocs));
                drawn.push('\n');
            }
            for alloc in &allocs {
                drawn.push_str(&format!("{}\n", alloc.policy.name()));
                drawn.push_str(&render_tree(&tree, alloc));
                drawn.push('\n');
            }
            // The nodes that get nothing by the tree's shape, as a footnote.
            let notes = tree.notes();
            if !notes.is_empty() {
                drawn.push_str("notes:\n");
                for note in notes {
                    drawn.push_str(&format!("  {note}\n"));
                }
            }
            drawn
        }
    })
}

/// Each node's figures as CSV rows (see [`TreeFormat::Csv`]), from the JSON answers.
fn csv(answers: &[Value]) -> String {
    let cell = |v: &Value| -> String {
        match v {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        }
    };
    let mut out = String::from("policy,path,kind,weight,guaranteed_share");
    if let Some(resources) = answers.first().and_then(|a| a["resources"].as_array()) {
        for r in resources {
            out.push(',');
            write_csv_field(&cell(r), &mut out);
        }
    }
    out.push_str(",dominant_share,satisfaction,tasks\n");
    for answer in answers {
        let policy = cell(&answer["policy"]);
        for node in answer["nodes"].as_array().into_iter().flatten() {
            write_csv_field(&policy, &mut out);
            for key in ["path", "kind", "weight", "guaranteed_share"] {
                out.push(',');
                write_csv_field(&cell(&node[key]), &mut out);
            }
            for x in node["allocation"].as_array().into_iter().flatten() {
                out.push(',');
                out.push_str(&cell(x));
            }
            for key in ["dominant_share", "satisfaction", "tasks"] {
                out.push(',');
                out.push_str(&cell(&node[key]));
            }
            out.push('\n');
        }
    }
    out
}

/// One policy's aggregate figures: `{"policy", "nodes", "leaves", "utilization" (the root's
/// allocation over the capacity), "saturated", "dominant_share": {"min", "max"},
/// "satisfaction": {"min", "max"}}`, the extremes over the leaves with a leaf attaining each
/// (the first in the tree's order), as exact strings.
fn summary(answer: &Value) -> Value {
    use leontief_solver::Rational;
    let read = |v: &Value| v.as_str().and_then(|s| s.parse::<Rational>().ok());
    let nodes = answer["nodes"].as_array().cloned().unwrap_or_default();
    let leaves: Vec<&Value> = nodes.iter().filter(|n| n["kind"] == "leaf").collect();
    let numbers = |v: &Value| -> Vec<Rational> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(read)
            .collect()
    };
    let capacity = numbers(&answer["capacity"]);
    let used = nodes.first().map(|root| numbers(&root["allocation"]));
    let used = used.unwrap_or_default();
    let resources: Vec<String> = answer["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .collect();
    let utilization: Vec<Rational> = used.iter().zip(&capacity).map(|(u, c)| u / c).collect();
    let saturated: Vec<&String> = leontief_solver::saturated_resources(&used, &capacity)
        .into_iter()
        .map(|j| &resources[j])
        .collect();
    let extremes = |key: &str| -> Extremes {
        let values: Vec<(Rational, &str)> = leaves
            .iter()
            .filter_map(|n| Some((read(&n[key])?, n["path"].as_str()?)))
            .collect();
        let entry = |e: Option<&(Rational, &str)>| {
            e.map(|(value, node)| Extreme {
                node: node.to_string(),
                value: value.clone(),
            })
        };
        Extremes {
            min: entry(values.iter().min_by(|a, b| a.0.cmp(&b.0))),
            max: entry(values.iter().min_by(|a, b| b.0.cmp(&a.0))),
        }
    };
    to_value(&PolicySummary {
        policy: &answer["policy"],
        computation: &answer["computation"],
        resources: &resources,
        capacity: &answer["capacity"],
        nodes: nodes.len(),
        leaves: leaves.len(),
        utilization,
        saturated,
        dominant_share: extremes("dominant_share"),
        satisfaction: extremes("satisfaction"),
    })
}

/// One policy's aggregate figures (see [`summary`]).
#[derive(Serialize)]
struct PolicySummary<'a> {
    policy: &'a Value,
    computation: &'a Value,
    resources: &'a [String],
    capacity: &'a Value,
    nodes: usize,
    leaves: usize,
    utilization: Vec<leontief_solver::Rational>,
    saturated: Vec<&'a String>,
    dominant_share: Extremes,
    satisfaction: Extremes,
}

/// The smallest and largest value over the leaves, each with a leaf attaining it.
#[derive(Serialize)]
struct Extremes {
    min: Option<Extreme>,
    max: Option<Extreme>,
}

/// A value and a node attaining it.
#[derive(Serialize)]
struct Extreme {
    node: String,
    value: leontief_solver::Rational,
}
