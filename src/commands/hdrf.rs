//! `leontief hdrf`: a hierarchical policy's static allocation on a weighted tree.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Args, ValueEnum};
use leontief_hdrf::{allocate, render_comparison, render_tree, Policy, Tree};
use leontief_solver::registry::one_of;
use serde_json::Value;
use strum::VariantNames;

use crate::cli::{read_text, CliError};
use crate::commands::pretty;

/// The flags of `leontief hdrf`.
#[derive(Debug, Clone, Args)]
pub struct HdrfArgs {
    /// Tree JSON file, or - for standard input:
    /// {"resources": [..], "capacity": [..], "tree": {"name": "root", "children": [..]}}
    pub file: String,
    /// A policy, or all (side by side: with --format tree, a table of every node's
    /// dominant share and satisfaction under each policy, then each policy's tree; with json,
    /// an array of the allocations).
    #[arg(long, default_value = "min-satisfaction", value_parser = PoliciesParser)]
    pub policy: Policies,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: TreeFormat,
    /// Also draw the allocations as stacked bars (each leaf's share of each resource, per
    /// policy) into this SVG file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,
}

/// The policies `--policy` names: one, or all of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policies(pub Vec<Policy>);

/// The `--policy` parser: a name derived from [`Policy`], or `all`.
#[derive(Debug, Clone, Copy)]
struct PoliciesParser;

impl TypedValueParser for PoliciesParser {
    type Value = Policies;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Policies, clap::Error> {
        let text = value.to_string_lossy();
        let text = text.trim();
        if text == "all" {
            return Ok(Policies(Policy::ALL.to_vec()));
        }
        text.parse::<Policy>()
            .map(|p| Policies(vec![p]))
            .map_err(|_| {
                let names: Vec<&str> = Policy::VARIANTS.iter().copied().chain(["all"]).collect();
                let message = format!(
                    "--policy: unknown policy {text:?} (expected {})\n",
                    one_of(&names)
                );
                clap::Error::raw(ErrorKind::InvalidValue, message).with_cmd(cmd)
            })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let names = Policy::VARIANTS.iter().copied().chain(["all"]);
        Some(Box::new(names.map(PossibleValue::new)))
    }
}

/// Output format of `hdrf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TreeFormat {
    /// JSON: every node (pools too) with path, guaranteed share, allocation, dominant share,
    /// satisfaction and tasks, as exact strings.
    Json,
    /// The tree drawn on the terminal with those figures.
    Tree,
}

/// Runs `leontief hdrf`.
pub fn run(args: HdrfArgs) -> Result<String, CliError> {
    let text = read_text(&args.file)?;
    let tree = Tree::from_json_str(&text)?;
    let allocs = args
        .policy
        .0
        .iter()
        .map(|&policy| allocate(&tree, policy))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(path) = &args.svg {
        let drawn = crate::plot::stacked_allocations(&tree, &allocs)?;
        std::fs::write(path, drawn).map_err(|e| {
            CliError::Input(leontief_solver::SolverError::invalid(
                "--svg",
                format!("{path}: {e}"),
            ))
        })?;
    }
    Ok(match args.format {
        TreeFormat::Json if allocs.len() == 1 => pretty(&allocs[0].to_json(&tree)),
        TreeFormat::Json => pretty(&Value::Array(
            allocs.iter().map(|a| a.to_json(&tree)).collect(),
        )),
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
            drawn
        }
    })
}
