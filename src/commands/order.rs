//! `leontief order`: given what every leaf holds now, each node's exact share and guarantee
//! deficit, and the order in which a scheduler's rule offers the next task
//! ([`leontief_hdrf::order`]).

use std::str::FromStr;

use clap::{Args, ValueEnum};
use leontief_hdrf::order::{check_usage, order, NodeOrder, OrderConfig, OrderOutcome, Rule};
use leontief_hdrf::tiebreak::TieBreaks;
use leontief_hdrf::{allocate, Policy, Tree};
use leontief_solver::Rational;
use serde::Serialize;

use crate::cli::CliError;
use crate::commands::flags::{NameParser, RulesFlags};
use crate::commands::{pretty, usage};
use crate::render::{column_widths, push_row};

/// The flags of `leontief order`.
#[derive(Debug, Clone, Args)]
pub struct OrderArgs {
    /// Tree JSON file, or - for standard input, with "usage" on the leaves that hold
    /// something: {"resources", "capacity", "tree": {"children": [{"name": "a", "demand":
    /// [..], "usage": [..]}, ..]}}
    pub file: String,
    /// The ordering rule: naive (smallest weighted dominant share of the subtree; Mesos' DRF
    /// sorter), yarn (YARN's DRF comparator: below-guarantee first), kueue (smallest share
    /// borrowed beyond the guarantee), ytsaurus (smallest usage over fair share).
    #[arg(long, default_value = "naive", value_parser = NameParser::<Rule>::new("rule"))]
    pub rule: Rule,
    /// Tie-breaks for equal keys, a comma-separated chain of first, count, lru, name (input
    /// order decides last). Default: the rule's system's own: count,name for naive, name for
    /// yarn, first for kueue and ytsaurus.
    #[arg(long, value_name = "CHAIN", value_parser = TieBreaks::from_str)]
    pub tie: Option<TieBreaks>,
    /// The history of offers, oldest first: comma-separated leaf paths (e.g.
    /// root/a,root/b,root/a). Counts (tie-break count) become offers instead of tasks held;
    /// needed by the tie-break lru.
    #[arg(long, value_name = "PATHS")]
    pub served: Option<String>,
    /// With --rule ytsaurus: the policy whose static allocation is every node's fair share.
    #[arg(long, value_name = "POLICY", value_parser = NameParser::<Policy>::new("policy"))]
    pub fair_share: Option<Policy>,
    /// How the tree's guarantees and limits are read (--guarantees: with --rule ytsaurus,
    /// for its static fair share).
    #[command(flatten)]
    pub rules: RulesFlags,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: OrderFormat,
}

/// Output format of `order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderFormat {
    /// JSON: the offer order and every node's figures, as exact strings.
    Json,
    /// A table, one row per node, indented by depth.
    Table,
}

/// The policy whose allocation is the fair share under `--rule ytsaurus` by default: H-DRF,
/// the hierarchical DRF closest to YTsaurus' vector HDRF.
const DEFAULT_FAIR_SHARE: Policy = Policy::Hdrf;

/// Runs `leontief order`.
///
/// # Errors
/// [`CliError::Input`] for an invalid tree (naming the field), a tree without any `usage`,
/// an unknown path in `--served`; [`CliError::Usage`] for `--fair-share` without
/// `--rule ytsaurus`; [`CliError::Read`] for an unreadable file.
pub fn run(args: OrderArgs) -> Result<String, CliError> {
    for (given, flag, why) in [
        (args.fair_share.is_some(), "--fair-share", ""),
        (
            args.rules.guarantees.is_some(),
            "--guarantees",
            " (its static fair share)",
        ),
    ] {
        if given && args.rule != Rule::Ytsaurus {
            let rule = args.rule.name();
            return Err(usage(format!(
                "{flag} applies only to --rule ytsaurus{why}, not --rule {rule}"
            )));
        }
    }
    let lru = args.tie.as_ref().is_some_and(|t| {
        t.rules()
            .contains(&leontief_hdrf::tiebreak::SiblingTieBreak::Lru)
    });
    if lru && args.served.is_none() {
        return Err(usage(
            "--tie lru needs --served (the history of offers, oldest first)",
        ));
    }
    let tree = args.rules.read_tree(&args.file)?;
    check_usage(&tree)?;
    let mut config = OrderConfig::new(args.rule);
    if args.rule == Rule::Ytsaurus {
        let policy = args.fair_share.unwrap_or(DEFAULT_FAIR_SHARE);
        let alloc = allocate(&tree, policy)?;
        let shares = tree.nodes().map(|v| alloc.node(v).allocation.clone());
        config = config.fair_share(shares.collect());
    }
    if let Some(ties) = args.tie {
        config = config.ties(ties);
    }
    if let Some(list) = &args.served {
        config = config.served(served(&tree, list)?);
    }
    let out = order(&tree, &config)?;
    Ok(match args.format {
        OrderFormat::Json => pretty(&OrderDoc {
            rule: out.rule.name(),
            ties: out.ties.to_string(),
            fair_share: (out.rule == Rule::Ytsaurus)
                .then(|| args.fair_share.unwrap_or(DEFAULT_FAIR_SHARE).name()),
            resources: tree.resources(),
            capacity: tree.capacity(),
            offer: out.offer_paths(),
            nodes: &out.nodes,
        }),
        OrderFormat::Table => table(&tree, &out),
    })
}

/// Leaf indices of `--served`, naming a bad entry by its position.
fn served(tree: &Tree, list: &str) -> Result<Vec<usize>, CliError> {
    let root = tree.node(tree.root()).name();
    list.split(',')
        .map(str::trim)
        .enumerate()
        .map(|(k, path)| {
            let v = tree
                .find_path(path)
                .or_else(|| tree.find_path(&format!("{root}/{path}")));
            match v {
                Some(v) if tree.node(v).is_leaf() => Ok(v.index()),
                _ => Err(leontief_solver::SolverError::invalid(
                    format!("--served[{k}]"),
                    format!("{path:?} is not a leaf of the tree"),
                )
                .into()),
            }
        })
        .collect()
}

/// The JSON answer of `leontief order`.
#[derive(Serialize)]
struct OrderDoc<'a> {
    rule: &'static str,
    ties: String,
    /// With `--rule ytsaurus`: the policy whose static allocation is the fair share.
    #[serde(skip_serializing_if = "Option::is_none")]
    fair_share: Option<&'static str>,
    resources: &'a [String],
    capacity: &'a [Rational],
    offer: Vec<&'a str>,
    /// Every node's figures, in the tree's order.
    nodes: &'a [NodeOrder],
}

fn list(v: &[Rational]) -> String {
    format!("({})", crate::render::joined(v))
}

/// One row per node in the tree's order, the name indented by depth; `rank` is the offer
/// position of a leaf (`-` when it is not offered, with the reason at the end of the row).
fn table(tree: &Tree, out: &OrderOutcome) -> String {
    let header = [
        "node", "usage", "dominant", "weighted", "deficit", "needy", "key", "count", "rank",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(ToString::to_string).collect()];
    let mut notes = vec![None];
    for n in &out.nodes {
        let depth = n.path.matches('/').count();
        let name = n.path.rsplit('/').next().unwrap_or_default();
        let key: Vec<String> = n.key.iter().map(ToString::to_string).collect();
        let rank = match (n.leaf, n.rank, n.sibling_rank) {
            (true, Some(r), _) => r.to_string(),
            (false, _, Some(s)) => format!("({s})"),
            _ => "-".into(),
        };
        rows.push(vec![
            format!("{}{name}", "  ".repeat(depth)),
            list(&n.usage),
            n.dominant_share.to_string(),
            n.weighted_share.to_string(),
            list(&n.deficit),
            if n.needy { "yes" } else { "no" }.into(),
            key.join(" "),
            n.count.to_string(),
            rank,
        ]);
        notes.push(n.inactive.clone());
    }
    let widths = column_widths(&rows);
    let mut s = format!(
        "rule {}, ties {} (then input order); resources {}\n",
        out.rule.name(),
        out.ties,
        tree.resources().join(", ")
    );
    s.push_str(&format!("offer order: {}\n", out.offer_paths().join(", ")));
    for (row, note) in rows.iter().zip(notes) {
        push_row(&mut s, row, &widths);
        if let Some(why) = note {
            // The reason a leaf is not offered, after its row.
            s.pop();
            s.push_str(&format!("  {why}\n"));
        }
    }
    s.push_str("rank: a leaf's place in the offer order; (k): a pool's place among its siblings\n");
    if out.rule == Rule::Yarn {
        s.push_str("key: 0 if needy, then usage over guarantee; 1 if not, then weighted shares; each over the node's resources by descending share\n");
    }
    s
}
