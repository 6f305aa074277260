//! `leontief hdrf`: a hierarchical policy's static allocation on a weighted tree.

use clap::{Args, ValueEnum};
use leontief_hdrf::{
    allocate, render_comparison, render_tree, NodeAllocation, NodeId, Policy, Tree, TreeAllocation,
};
use leontief_solver::Rational;
use serde::Serialize;
use serde_json::Value;

use crate::cli::CliError;
use crate::commands::flags::{NumberFlags, OneOrAll, OneOrAllParser, RulesFlags};
use crate::commands::{csv_line, json_only, one_or_list, to_value, usage, MinMax};
use crate::output::{finish_csv, Numbers};

/// The flags of `leontief hdrf`.
#[derive(Debug, Clone, Args)]
pub struct HdrfArgs {
    /// Tree JSON file, or - for standard input:
    /// {"resources": [..], "capacity": [..], "tree": {"name": "root", "children": [..]}}
    pub file: String,
    /// A policy, or all (side by side: with --format tree, a table of every node's
    /// dominant share and satisfaction under each policy, then each policy's tree; with json,
    /// an array of the allocations).
    #[arg(long, default_value = "min-satisfaction", value_parser = OneOrAllParser(&Policy::ALL))]
    pub policy: OneOrAll<Policy>,
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

/// Runs `leontief hdrf`.
pub fn run(args: HdrfArgs) -> Result<String, CliError> {
    let numbers = args.numbers.numbers()?;
    json_only(args.summary, "--summary", "summary", args.format)?;
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
    Ok(match args.format {
        TreeFormat::Json if args.summary => {
            one_or_list(allocs.iter().map(|a| summary(&tree, a)).collect(), numbers)
        }
        TreeFormat::Json => one_or_list(allocs.iter().map(|a| a.to_json(&tree)).collect(), numbers),
        TreeFormat::Csv => finish_csv(csv(&tree, &allocs), numbers),
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

/// Each node's figures as CSV rows (see [`TreeFormat::Csv`]).
fn csv(tree: &Tree, allocs: &[TreeAllocation]) -> String {
    let mut out = String::new();
    let names = ["policy", "path", "kind", "weight", "guaranteed_share"].map(String::from);
    let figures = ["dominant_share", "satisfaction", "tasks"].map(String::from);
    let resources = tree.resources().iter().cloned();
    csv_line(&mut out, names.into_iter().chain(resources).chain(figures));
    for alloc in allocs {
        for v in tree.nodes() {
            let (n, x) = (tree.node(v), alloc.node(v));
            let kind = if n.is_leaf() { "leaf" } else { "pool" };
            let fields = [
                alloc.policy.name().to_string(),
                tree.path(v),
                kind.into(),
                n.weight().to_string(),
                n.guaranteed_share().to_string(),
            ];
            let figures = [
                x.dominant_share.to_string(),
                x.satisfaction.to_string(),
                x.tasks
                    .as_ref()
                    .map_or_else(String::new, ToString::to_string),
            ];
            let allocation = x.allocation.iter().map(ToString::to_string);
            csv_line(
                &mut out,
                fields.into_iter().chain(allocation).chain(figures),
            );
        }
    }
    out
}

/// One policy's aggregate figures: `{"policy", "computation", "resources", "capacity",
/// "nodes", "leaves", "utilization" (the root's allocation over the capacity), "saturated",
/// "dominant_share": {"min", "max"}, "satisfaction": {"min", "max"}}`, the extremes over the
/// leaves with a leaf attaining each (the first in the tree's order), as exact strings.
fn summary(tree: &Tree, alloc: &TreeAllocation) -> Value {
    let leaves: Vec<NodeId> = tree.nodes().filter(|&v| tree.node(v).is_leaf()).collect();
    let extremes = |figure: fn(&NodeAllocation) -> &Rational| -> MinMax<Extreme> {
        let values = leaves.iter().map(|&v| (figure(alloc.node(v)), v));
        let entry = |(value, v): (&Rational, NodeId)| Extreme {
            node: tree.path(v),
            value: value.clone(),
        };
        MinMax {
            min: values.clone().min_by(|a, b| a.0.cmp(b.0)).map(entry),
            max: values.min_by(|a, b| b.0.cmp(a.0)).map(entry),
        }
    };
    let capacity = tree.capacity();
    to_value(&PolicySummary {
        policy: alloc.policy.name(),
        computation: alloc.computation.label(),
        resources: tree.resources(),
        capacity,
        nodes: tree.nodes().count(),
        leaves: leaves.len(),
        utilization: alloc
            .consumption()
            .iter()
            .zip(capacity)
            .map(|(u, c)| u / c)
            .collect(),
        saturated: alloc
            .saturated(tree)
            .into_iter()
            .map(|j| &tree.resources()[j])
            .collect(),
        dominant_share: extremes(|n| &n.dominant_share),
        satisfaction: extremes(|n| &n.satisfaction),
    })
}

/// One policy's aggregate figures (see [`summary`]).
#[derive(Serialize)]
struct PolicySummary<'a> {
    policy: &'static str,
    computation: String,
    resources: &'a [String],
    capacity: &'a [Rational],
    nodes: usize,
    leaves: usize,
    utilization: Vec<Rational>,
    saturated: Vec<&'a String>,
    dominant_share: MinMax<Extreme>,
    satisfaction: MinMax<Extreme>,
}

/// A value and a node attaining it.
#[derive(Serialize)]
struct Extreme {
    node: String,
    value: Rational,
}
