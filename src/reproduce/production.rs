//! The production schedulers' reference cases (`reference/production.json`): every case's
//! documented value beside ours. A case that cannot be expressed yet is reported as such, with
//! the refusal it meets (the check passes when the refusal is the expected one).
//!
//! Each case is run with the rule its source uses: the static policy (H-DRF; guarantees
//! additive, or YARN's clamp where the case's `semantics` is `clamp`; FIFO pools) for
//! `fair-share` and
//! `limit` questions, `leontief order` for `order` questions (Mesos' sorter for Mesos'
//! cases, YARN's comparator for YARN's and for Mesos' quota, Kueue's share for Kueue's).

use leontief_hdrf::order::{order, Extended, OrderConfig, Rule};
use std::fmt::Display;
use std::str::FromStr;

use leontief_hdrf::{allocate, GuaranteeRule, NodeId, Policy, Rules, Tree, TreeAllocation};
use leontief_solver::Rational;
use serde_json::Value;

use super::*;
use crate::cli::CliError;
use crate::render::joined;

/// The production schedulers' reference cases, with their documented values.
pub const PRODUCTION_REFERENCE: &str = include_str!("../../reference/production.json");

/// The cases not computed, with the reason and a fragment of the refusal they meet.
pub const NOT_EXPRESSIBLE: &[(&str, &str, &str)] = &[(
    "yarn-zero-weight-min-resources",
    "a zero weight is not modelled",
    "weight: must be positive, found 0",
)];

fn internal(what: impl Into<String>) -> CliError {
    CliError::Internal(what.into())
}

fn num(v: &Value) -> Result<Rational, CliError> {
    str_of(v)
        .parse()
        .map_err(|_| internal(format!("reference value {v} is not a number")))
}

fn vector(xs: &[Rational]) -> String {
    format!("({})", joined(xs))
}

/// The documented value, with the exact one beside it when the source rounds.
fn documented(doc: &Value, exact: Option<&Value>) -> String {
    match exact {
        Some(e) if str_of(e) != str_of(doc) => format!("{} (exact {})", str_of(doc), str_of(e)),
        _ => str_of(doc),
    }
}

fn find(tree: &Tree, name: &str) -> Result<NodeId, CliError> {
    let root = tree.node(tree.root()).name();
    tree.find_path(&format!("{root}/{name}"))
        .or_else(|| tree.find(name))
        .ok_or_else(|| internal(format!("no node {name}")))
}

/// The rules a case is run with: YARN's clamp where the case's `semantics` is `clamp`, and
/// the case's `rules` (YTsaurus' scaled guarantees, its guarantee lowered to the limit).
fn rules_of(case: &Value) -> Result<Rules, CliError> {
    const READ: [&str; 2] = ["oversubscribed", "limit-below-guarantee"];
    if let Some(key) = (case["rules"].as_object().into_iter())
        .flat_map(|rules| rules.keys())
        .find(|key| !READ.contains(&key.as_str()))
    {
        return Err(internal(format!(
            "reference rule {key} is not read (only {READ:?})"
        )));
    }
    fn rule<T: FromStr + Default>(case: &Value, key: &str) -> Result<T, CliError> {
        match case["rules"].get(key) {
            None => Ok(T::default()),
            Some(v) => str_of(v)
                .parse()
                .map_err(|_| internal(format!("reference rule {key} {v} is unknown"))),
        }
    }
    Ok(Rules {
        guarantees: if case["semantics"] == "clamp" {
            GuaranteeRule::Clamp
        } else {
            GuaranteeRule::Additive
        },
        oversubscribed: rule(case, "oversubscribed")?,
        limit_below_guarantee: rule(case, "limit-below-guarantee")?,
    })
}

/// A node's allocation over the capacity, resource by resource.
fn shares(tree: &Tree, alloc: &[Rational]) -> Vec<Rational> {
    alloc
        .iter()
        .zip(tree.capacity())
        .map(|(a, r)| a / r)
        .collect()
}

pub(super) fn production() -> Result<Vec<Check>, CliError> {
    let mut checks = Vec::new();
    for case in &reference_cases(PRODUCTION_REFERENCE)? {
        checks.extend(case_checks(case)?);
    }
    Ok(checks)
}

/// The checks of one case (see the module docs).
pub(super) fn case_checks(case: &Value) -> Result<Vec<Check>, CliError> {
    let id = case["id"].as_str().unwrap_or("?");
    if let Some(&(_, reason, fragment)) = NOT_EXPRESSIBLE.iter().find(|c| c.0 == id) {
        let err = match Tree::from_json(&case["config"]) {
            Ok(_) => "accepted".to_string(),
            Err(e) => e.to_string(),
        };
        return Ok(vec![Check {
            ok: err.contains(fragment),
            what: format!("{id}: not expressible"),
            computed: format!("refused ({reason}): {err}"),
            source: format!("documented {}", case["expected"]),
        }]);
    }
    let compare = case["compare"].as_str().unwrap_or_default();
    let run =
        runner(compare).ok_or_else(|| internal(format!("reference case {id} has no runner")))?;
    let mut checks = Checks {
        id,
        list: Vec::new(),
    };
    run(case, &mut checks)?;
    Ok(checks.list)
}

/// The runner a case of `reference/production.json` names in its `compare`, which compares
/// our value with the source's figure (each runner's documentation says which with which).
fn runner(compare: &str) -> Option<Runner> {
    Some(match compare {
        "first-resource-allocations" => first_resource_allocations,
        "steady-shares" => steady_shares,
        "instantaneous-shares" => instantaneous_shares,
        "share-vectors" => share_vectors,
        "uniform-share-vectors" => uniform_share_vectors,
        "scaled-guarantees" => scaled_guarantees,
        "agent2-allocations" => agent2_allocations,
        "yarn-comparisons" => yarn_comparisons,
        "mesos-sorter-order" => mesos_sorter_order,
        "needy-first" => needy_first,
        "kueue-shares" => kueue_shares,
        "legacy-min-shares" => legacy_min_shares,
        "fifo-queue" => fifo_queue,
        "fifo-pools" => fifo_pools,
        _ => return None,
    })
}

type Runner = fn(&Value, &mut Checks) -> Result<(), CliError>;

/// The checks of one case, each named after it.
struct Checks<'a> {
    id: &'a str,
    list: Vec<Check>,
}

impl Checks<'_> {
    /// `computed` against the documented value (the exact one when the source rounds).
    fn value(
        &mut self,
        what: impl Display,
        computed: &Rational,
        doc: &Value,
        exact: Option<&Value>,
    ) -> Result<(), CliError> {
        let want = num(exact.unwrap_or(doc))?;
        let source = documented(doc, exact);
        self.decided(what, &want == computed, computed.to_string(), source);
        Ok(())
    }

    /// A computed text against the documented one.
    fn text(&mut self, what: impl Display, computed: String, source: &str) {
        self.decided(what, computed == source, computed, source.into());
    }

    /// A comparison already decided (`ok`), with both sides as they are shown.
    fn decided(&mut self, what: impl Display, ok: bool, computed: String, source: String) {
        let what = format!("{}: {what}", self.id);
        self.list.push(Check::new(what, ok, computed, source));
    }
}

/// A configuration of the case `c` (its own or a variant) under the case's rules, and its
/// static H-DRF allocation.
fn allocated(c: &Value, config: &Value) -> Result<(Tree, TreeAllocation), CliError> {
    let tree = Tree::from_json_with(config, rules_of(c)?)?;
    let alloc = allocate(&tree, Policy::Hdrf)?;
    Ok((tree, alloc))
}

/// Every node an object of the reference names, with its documented value, found in `tree`.
fn named<'v>(
    tree: &Tree,
    section: &'v Value,
) -> Result<Vec<(&'v String, &'v Value, NodeId)>, CliError> {
    let entries = section.as_object().into_iter().flatten();
    entries
        .map(|(name, doc)| Ok((name, doc, find(tree, name)?)))
        .collect()
}

/// One-resource (or memory-reported) fair shares: each named leaf's static H-DRF allocation of
/// the first resource (cpu for Kueue), in the source's units, against `expected[name]`; where
/// the source rounds (YARN's whole megabytes, up), against `exact[name]` and rounded up.
fn first_resource_allocations(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    let (tree, alloc) = allocated(c, &c["config"])?;
    let rule = if c["semantics"] == "clamp" {
        " (clamp)"
    } else {
        ""
    };
    for (name, doc) in c["expected"].as_object().into_iter().flatten() {
        if name.ends_with("_without_borrowing_limit") {
            continue;
        }
        let v = find(&tree, name)?;
        let value = doc.get("cpu").unwrap_or(doc);
        let got = &alloc.node(v).allocation[0];
        let exact = c["exact"].get(name);
        checks.value(format_args!("{name}{rule}"), got, value, exact)?;
        if exact.is_some() {
            // The source rounds (YARN's whole megabytes, up): the exact share, and that it
            // rounds up to the documented value.
            checks.value(format_args!("{name}, rounded up"), &got.ceil(), value, None)?;
        }
    }
    if let Some(alone) = c["expected"].get("team-b-cq_without_borrowing_limit") {
        // Kueue's documentation's second reading: team-b-cq alone (team-a-cq idle) may
        // borrow all of team-a-cq's 9 on top of its 12.
        let mut swapped = c["config"].clone();
        swapped["tree"]["children"][0]["demand"] = Value::from(vec![0]);
        swapped["tree"]["children"][1]["demand"] = Value::from(vec![1]);
        let (tree, alloc) = allocated(c, &swapped)?;
        let v = find(&tree, "team-b-cq")?;
        let doc = &alone["cpu"];
        checks.value(
            "team-b-cq alone, cpu",
            &alloc.node(v).allocation[0],
            doc,
            None,
        )?;
    }
    Ok(())
}

/// YARN's steady fair shares under DRF: each queue's memory and vcores shares of the static
/// allocation against `expected.steady_share`.
fn steady_shares(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    let (tree, alloc) = allocated(c, &c["config"])?;
    for (name, doc, v) in named(&tree, &c["expected"]["steady_share"])? {
        let got = shares(&tree, &alloc.node(v).allocation);
        for (j, res) in ["memory", "vcores"].iter().enumerate() {
            let exact = c["exact"]["steady_share"][name].get(*res);
            checks.value(
                format_args!("{name} {res} share"),
                &got[j],
                &doc[res],
                exact,
            )?;
        }
    }
    Ok(())
}

/// YARN's instantaneous fair shares with idle queues: each queue's first-resource share against
/// `expected.instantaneous_share_percent` (in percent), or `exact.instantaneous_share` when idle.
fn instantaneous_shares(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    let (tree, alloc) = allocated(c, &c["config"])?;
    for (name, e, v) in named(&tree, &c["exact"]["instantaneous_share"])? {
        let got = &shares(&tree, &alloc.node(v).allocation)[0];
        match c["expected"]["instantaneous_share_percent"].get(name) {
            Some(pct) => {
                let percent = got * &Rational::from(100);
                checks.value(format_args!("{name} share, percent"), &percent, pct, None)?;
            }
            None => checks.value(format_args!("{name} share (idle)"), got, e, None)?,
        }
    }
    Ok(())
}

/// YTsaurus' fair-share vectors: each operation's share vector against `expected[name]`.
fn share_vectors(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    let label = " (user_slots, cpu, memory)";
    vector_checks(c, checks, &c["expected"], label, |_, doc, _| {
        // (user_slots, cpu, memory) are entries 0, 1, 3 of the source's vectors over
        // (user_slots, cpu, gpu, memory, network).
        let doc = doc.as_array().ok_or_else(|| internal("a vector"))?;
        let want: Vec<Rational> = [0, 1, 3]
            .iter()
            .map(|&k| num(&doc[k]))
            .collect::<Result<_, _>>()?;
        let source = vector(&want);
        Ok((want, source))
    })
}

/// YTsaurus' guarantees: each node's share vector against `expected[name]`, a value x meaning
/// x·(1, 1, 1).
fn uniform_share_vectors(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    vector_checks(c, checks, &c["expected"], "", |name, doc, m| {
        // A value x is the vector x·(1, 1, 1) over (user_slots, cpu, memory).
        let exact = c["exact"].get(name);
        Ok((vec![num(exact.unwrap_or(doc))?; m], documented(doc, exact)))
    })
}

/// Each node that `section` names: its share vector against the documented one, which `want`
/// gives from the node's name, its entry and the number of resources, with how the source
/// shows it; `label` follows "share vector" in the check's name.
fn vector_checks(
    c: &Value,
    checks: &mut Checks,
    section: &Value,
    label: &str,
    want: impl Fn(&str, &Value, usize) -> Result<(Vec<Rational>, String), CliError>,
) -> Result<(), CliError> {
    let (tree, alloc) = allocated(c, &c["config"])?;
    for (name, doc, v) in named(&tree, section)? {
        let got = shares(&tree, &alloc.node(v).allocation);
        let (want, source) = want(name, doc, got.len())?;
        let ok = got == want;
        checks.decided(
            format_args!("{name} share vector{label}"),
            ok,
            vector(&got),
            source,
        );
    }
    Ok(())
}

/// YTsaurus' guarantees over the cluster: each pool's scaled strong guarantee (cpu share)
/// against `expected.strong_guarantee`, and what it gets beyond it against
/// `expected.weight_proportional`.
fn scaled_guarantees(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    let (tree, alloc) = allocated(c, &c["config"])?;
    for (name, doc, v) in named(&tree, &c["expected"]["strong_guarantee"])? {
        let g = &shares(&tree, tree.node(v).guarantee())[1];
        let e = c["exact"]["strong_guarantee"].get(name);
        checks.value(
            format_args!("{name} strong guarantee (cpu share)"),
            g,
            doc,
            e,
        )?;
        // What the node gets beyond its guarantee: the guarantees fill the cluster.
        let beyond = &shares(&tree, &alloc.node(v).allocation)[1] - g;
        let doc = &c["expected"]["weight_proportional"][name];
        let what = format_args!("{name} weight-proportional part (cpu share)");
        checks.value(what, &beyond, doc, None)?;
    }
    Ok(())
}

/// Mesos' quota as a limit: what each role gets from agent2 against
/// `expected.allocated_from_agent2`.
fn agent2_allocations(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    // The static allocation of the whole cluster, less what each role holds on
    // agent1, is what agent2 gives it.
    let (tree, alloc) = allocated(c, &c["config"])?;
    for (name, doc, v) in named(&tree, &c["expected"]["allocated_from_agent2"])? {
        for (j, res) in tree.resources().iter().enumerate() {
            let got = &alloc.node(v).allocation[j] - &tree.node(v).usage()[j];
            let doc = &doc[res.as_str()];
            checks.value(format_args!("{name} {res} from agent2"), &got, doc, None)?;
        }
    }
    Ok(())
}

/// YARN's DRF comparator: which of s1, s2 goes first against `expected.first` (and again with
/// the capacity (8000, 6) where the case gives it).
fn yarn_comparisons(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    yarn_first(checks, &c["config"], &c["expected"]["first"], "")?;
    if let Some(other) = c["expected"].get("with_capacity_8000_6") {
        let mut config = c["config"].clone();
        config["capacity"] = Value::from(vec![8000, 6]);
        yarn_first(checks, &config, &other["first"], ", capacity (8000, 6)")?;
    }
    Ok(())
}

/// Mesos' DRF sorter: the offer order of `leontief order --rule naive` against `expected.order`
/// (`exact.order` where the source's doubles hide a tie).
fn mesos_sorter_order(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    let tree = Tree::from_json(&c["config"])?;
    let mut cfg = OrderConfig::new(Rule::Naive);
    // The allocation counts the tie-break reads: a history with each leaf served
    // its count of times.
    let mut served = Vec::new();
    for (_, count, v) in named(&tree, &c["state"]["allocation_count"])? {
        if tree.node(v).is_leaf() {
            let c = count.as_u64().ok_or_else(|| internal("a count"))?;
            served.extend((0..c).map(|_| v.index()));
        }
    }
    if !served.is_empty() {
        cfg = cfg.served(served);
    }
    let out = order(&tree, &cfg)?;
    let root = format!("{}/", tree.node(tree.root()).name());
    let got: Vec<&str> = out
        .offer_paths()
        .into_iter()
        .map(|p| p.strip_prefix(root.as_str()).unwrap_or(p))
        .collect();
    let doc = &c["expected"]["order"];
    let want = c["exact"].get("order").unwrap_or(doc);
    let want: Vec<String> = want.as_array().into_iter().flatten().map(str_of).collect();
    let source = match c["exact"].get("order") {
        Some(_) => format!(
            "{} (in doubles; exactly a tie broken by count: {})",
            list(doc),
            want.join(", ")
        ),
        None => want.join(", "),
    };
    let what = "offer order (naive = Mesos' DRF sorter)";
    checks.decided(what, got == want, got.join(", "), source);
    Ok(())
}

/// Mesos' quota as a guarantee: the node offered first by YARN's comparator (below its
/// guarantee first) against `expected.first`.
fn needy_first(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    // Usage-first: a role below its guarantee is served before fair sharing, YARN's
    // comparator's needy-first rule.
    let tree = Tree::from_json(&c["config"])?;
    let out = order(&tree, &OrderConfig::new(Rule::Yarn))?;
    let first = out
        .offer
        .first()
        .map(|&v| {
            tree.node(tree.node_id(v).expect("a node"))
                .name()
                .to_string()
        })
        .unwrap_or_default();
    let what = "offered first (yarn: below its guarantee first)";
    checks.text(what, first, &str_of(&c["expected"]["first"]));
    Ok(())
}

/// Kueue's dominant resource shares (see `kueue_checks`), and again with weight 1/2 where the
/// case gives it.
fn kueue_shares(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    kueue_checks(checks, &c["config"], &c["expected"], &c["exact"], "")?;
    if let Some(other) = c["expected"].get("with_weight_1/2") {
        let mut config = c["config"].clone();
        config["tree"]["children"][0]["weight"] = Value::from("1/2");
        let exact = &c["exact"]["with_weight_1/2"];
        kueue_checks(checks, &config, other, exact, ", weight 1/2")?;
    }
    Ok(())
}

/// YTsaurus' legacy min share: each pool's clamp allocation against `expected`, with weights
/// 3, 1 and with a third pool C.
fn legacy_min_shares(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    // The legacy rule is the clamp: max(w·x, min share).
    let mut weights_3_1 = c["config"].clone();
    weights_3_1["tree"]["children"][0]["weight"] = Value::from(3);
    let mut with_c = c["config"].clone();
    if let Some(kids) = with_c["tree"]["children"].as_array_mut() {
        kids.push(serde_json::json!({"name": "C", "demand": [1]}));
    }
    let variants = [
        ("", c["config"].clone(), &c["expected"], &c["exact"]),
        (
            "weights 3, 1: ",
            weights_3_1,
            &c["expected"]["with_weights_3_1"],
            &c["exact"]["with_weights_3_1"],
        ),
        (
            "with C, weights 1, 1, 1: ",
            with_c,
            &c["expected"]["with_C_weights_1_1_1"],
            &c["exact"]["with_C_weights_1_1_1"],
        ),
    ];
    for (label, config, doc, ex) in variants {
        let (tree, alloc) = allocated(c, &config)?;
        for name in ["A", "B", "C"] {
            let Some(d) = doc.get(name) else { continue };
            let v = find(&tree, name)?;
            let got = &alloc.node(v).allocation[0];
            checks.value(format_args!("{label}{name} (clamp)"), got, d, ex.get(name))?;
        }
    }
    Ok(())
}

/// YARN's FIFO queue: each application's memory against `exact.allocation`, and the containers
/// in order against `expected.containers`.
fn fifo_queue(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    // A FIFO queue: each application takes all it can before the next.
    let (tree, alloc) = allocated(c, &c["config"])?;
    for (name, e, v) in named(&tree, &c["exact"]["allocation"])? {
        let got = &alloc.node(v).allocation[0];
        checks.value(format_args!("{name} memory"), got, &e[0], None)?;
    }
    let queue = find(&tree, "queue1")?;
    let mut containers = Vec::new();
    for app in tree.node(queue).children() {
        let n = alloc.tasks(app).cloned().unwrap_or(Rational::ZERO);
        let n = n.floor_u64().unwrap_or(0);
        containers.extend((0..n).map(|_| tree.node(app).name().to_string()));
    }
    let source = list(&c["expected"]["containers"]);
    checks.text("containers, in order", containers.join(", "), &source);
    Ok(())
}

/// YTsaurus' FIFO pools: each operation's share vector against `exact[name]`.
fn fifo_pools(c: &Value, checks: &mut Checks) -> Result<(), CliError> {
    let label = " (user_slots, cpu, memory)";
    vector_checks(c, checks, &c["exact"], label, |name, e, _| {
        let want: Vec<Rational> = e
            .as_array()
            .into_iter()
            .flatten()
            .map(num)
            .collect::<Result<_, _>>()?;
        let doc = match name {
            "B" | "D" => str_of(&c["expected"][name]),
            _ => str_of(&c["expected"]["every_operation"]),
        };
        let source = format!("{doc} (exact {})", vector(&want));
        Ok((want, source))
    })
}

fn list(v: &Value) -> String {
    joined(v.as_array().into_iter().flatten().map(str_of))
}

/// YARN's comparator on `s1` and `s2`: the smaller key goes first, then the name.
fn yarn_first(
    checks: &mut Checks,
    config: &Value,
    doc: &Value,
    label: &str,
) -> Result<(), CliError> {
    let tree = Tree::from_json(config)?;
    let out = order(&tree, &OrderConfig::new(Rule::Yarn))?;
    let (s1, s2) = (find(&tree, "s1")?, find(&tree, "s2")?);
    let (k1, k2) = (&out.nodes[s1.index()].key, &out.nodes[s2.index()].key);
    let first = if k1 <= k2 { "s1" } else { "s2" };
    let what = format_args!(
        "first of s1 [{}], s2 [{}] (yarn){label}",
        joined(k1),
        joined(k2)
    );
    checks.text(what, first.to_string(), &str_of(doc));
    Ok(())
}

/// Kueue's dominant resource share of every node the case names: Kueue's status value is the
/// share of what the queue holds with no workload pending, so `cq` is written idle (all-zero
/// demand: no nominee's task added). The source reports `ceil(1000 · share)`.
fn kueue_checks(
    checks: &mut Checks,
    config: &Value,
    expected: &Value,
    exact: &Value,
    label: &str,
) -> Result<(), CliError> {
    let mut c = config.clone();
    let m = c["capacity"].as_array().map_or(0, Vec::len);
    c["tree"]["children"][0]["demand"] = Value::from(vec![0; m]);
    let tree = Tree::from_json(&c)?;
    let out = order(&tree, &OrderConfig::new(Rule::Kueue))?;
    let drs = expected.get("dominant_resource_share").unwrap_or(expected);
    let exact = exact.get("dominant_resource_share").unwrap_or(exact);
    let thousand = Rational::from(1000);
    for (name, doc) in drs.as_object().into_iter().flatten() {
        let v = if name == tree.node(tree.root()).name() {
            tree.root()
        } else {
            find(&tree, name)?
        };
        let key = match &out.nodes[v.index()].key[0] {
            Extended::Finite(x) => x.clone(),
            Extended::Infinite => {
                return Err(internal(format!("{}: {name}: infinite share", checks.id)));
            }
        };
        if let Some(e) = exact.get(name) {
            checks.value(format_args!("{name} share{label}"), &key, e, None)?;
        }
        let status = (&key * &thousand).ceil();
        let what = format_args!("{name} status, ceil(1000 · share){label}");
        checks.value(what, &status, doc, None)?;
    }
    if let Some(t) = exact.get("times_1000").and_then(|t| t.get("cq")) {
        let key = match &out.nodes[find(&tree, "cq")?.index()].key[0] {
            Extended::Finite(x) => x.clone(),
            Extended::Infinite => Rational::ZERO,
        };
        let what = "cq 1000 · share before rounding";
        checks.value(what, &(&key * &thousand), t, None)?;
    }
    if let Some(doc) = expected.get("dominant_resource") {
        // The resource on which cq borrows the most, over the lendable capacity.
        let cq = find(&tree, "cq")?;
        let (u, g) = (tree.node(cq).usage(), tree.node(cq).guarantee());
        let mut best: Option<(Rational, usize)> = None;
        for j in 0..tree.num_resources() {
            let b = (&u[j] - &g[j]).max(Rational::ZERO) / &tree.capacity()[j];
            if best.as_ref().is_none_or(|(x, _)| b > *x) {
                best = Some((b, j));
            }
        }
        let name = best.map_or("", |(_, j)| tree.resources()[j].as_str());
        checks.text("cq dominant resource", name.to_string(), &str_of(doc));
    }
    Ok(())
}
