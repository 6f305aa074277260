//! YARN Fair Scheduler allocation files (`fair-scheduler.xml`) into the tree form.
//!
//! | YARN | tree form |
//! |---|---|
//! | `<queue name>` (alias `<pool>`), nested; `type="parent"` without children | pool (an empty pool) |
//! | a queue without child queues | leaf (idle unless demands are given) |
//! | `weight` | `weight` |
//! | `minResources` (absolute) | `guarantee` |
//! | `maxResources`, else `queueMaxResourcesDefault` (not on `root`) | `limit` (capped at the capacity) |
//! | `schedulingPolicy` / `defaultQueueSchedulingPolicy` `fifo` on a leaf | `mode: fifo` once the leaf's applications are given as jobs |
//!
//! Resource values are read in both of YARN's forms: `"X mb, Y vcores"` and
//! `"vcores=X, memory-mb=Y"` (other resource types by name), or percentages of the cluster
//! (`"X%"`, `"X% cpu, Y% memory"`, `"vcores=X%, memory-mb=Y%"`), which need `--capacity`
//! and are truncated to integers as YARN truncates them (`ConfigurableResource.getResource`).
//! Unspecified resources are 0 in `minResources` and unlimited in `maxResources` (new form;
//! the old form sets them to 0), as the documentation states.
//!
//! Where YARN has a rule of its own the import follows it and says so: a `maxResources`
//! below `minResources` is raised to it per resource (`FSQueue.getMaxShare`); `fifo` is
//! allowed on leaves only and `drf` not under a `fair` parent (`isChildPolicyAllowed`).
//! Where the tree form cannot follow YARN, the import fails: children whose `minResources`
//! sum to more than their parent's (YARN overcommits; a tree's guarantees must fit), a
//! percentage `minResources` (YARN keeps only absolute ones). Elements without a tree
//! equivalent (ACLs, `maxRunningApps`, `maxAMShare`, preemption timeouts, placement rules,
//! `<user>` limits, `maxChildResources`, …) are listed in the warnings; unknown elements are
//! errors naming their path.
//!
//! YARN's `fair` policy compares memory alone; the tree's policies compare every resource
//! (a warning names the queues concerned). How YARN combines guarantees with fair shares
//! (a lower clamp, `max(w·R, min)`) is for the policy to choose, not the import.
//!
//! # References
//! Apache Hadoop, *Fair Scheduler*, "Allocation file format":
//! <https://hadoop.apache.org/docs/stable/hadoop-yarn/hadoop-yarn-site/FairScheduler.html>;
//! parser `AllocationFileQueueParser` and `FairSchedulerConfiguration.parseResourceConfigValue`
//! in <https://github.com/apache/hadoop> (`hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-resourcemanager/src/main/java/org/apache/hadoop/yarn/server/resourcemanager/scheduler/fair/`).

use leontief_solver::hierarchy::MAX_DEPTH;
use leontief_solver::{Rational, SolverError};
use quick_xml::escape::resolve_xml_entity;
use quick_xml::events::Event;
use quick_xml::Reader;

use super::{
    capped, decimal, listed, non_negative, positive_weight, sum, Imported, ImportedNode, DROPPED,
};

/// An XML element: name, attributes, text, child elements.
#[derive(Debug, Clone)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    text: String,
    children: Vec<Element>,
}

/// The field that errors about the whole document name.
pub const DOCUMENT: &str = "allocation file";

fn xml_error(message: String) -> SolverError {
    SolverError::invalid(DOCUMENT, message)
}

/// Resolves an entity or character reference (`lt`, `#38`, `#x26`).
fn entity(name: &str) -> Option<char> {
    let Some(number) = name.strip_prefix('#') else {
        return resolve_xml_entity(name)?.chars().next();
    };
    let code = match number.strip_prefix('x') {
        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
        None => number.parse().ok()?,
    };
    char::from_u32(code)
}

fn unescape(raw: &str) -> Result<String, SolverError> {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let end = rest[at..]
            .find(';')
            .ok_or_else(|| xml_error(format!("unterminated reference in {raw:?}")))?;
        let name = &rest[at + 1..at + end];
        out.push(entity(name).ok_or_else(|| xml_error(format!("unknown entity &{name};")))?);
        rest = &rest[at + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn start(e: &quick_xml::events::BytesStart) -> Result<Element, SolverError> {
    let name = e.name().as_ref().to_string();
    let mut attrs = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| xml_error(format!("<{name}>: bad attribute: {err}")))?;
        let key = a.key.as_ref().to_string();
        let value = unescape(&a.value)?;
        attrs.push((key, value));
    }
    Ok(Element {
        name,
        attrs,
        text: String::new(),
        children: Vec::new(),
    })
}

/// A closed element, under its parent or as the document element.
fn attach(
    stack: &mut [Element],
    root: &mut Option<Element>,
    el: Element,
) -> Result<(), SolverError> {
    match stack.last_mut() {
        Some(parent) => parent.children.push(el),
        None if root.is_none() => *root = Some(el),
        None => return Err(xml_error("more than one document element".into())),
    }
    Ok(())
}

/// Appends text to the open element (text outside the document element is ignored).
fn push_text(stack: &mut [Element], text: &str) {
    if let Some(el) = stack.last_mut() {
        el.text.push_str(text);
    }
}

/// The document element of an XML text.
fn parse_xml(text: &str) -> Result<Element, SolverError> {
    let mut reader = Reader::from_str(text);
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let pos = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| xml_error(format!("malformed XML near byte {pos}: {e}")))?;
        match event {
            Event::Start(e) => {
                // Trees are at most MAX_DEPTH levels deep; a deeper file is refused here, before
                // any recursion over it.
                if stack.len() > 2 * MAX_DEPTH {
                    return Err(xml_error(format!(
                        "elements nest deeper than {} levels near byte {pos}",
                        2 * MAX_DEPTH
                    )));
                }
                stack.push(start(&e)?)
            }
            Event::Empty(e) => {
                let el = start(&e)?;
                attach(&mut stack, &mut root, el)?;
            }
            Event::End(_) => {
                let el = stack
                    .pop()
                    .ok_or_else(|| xml_error(format!("unbalanced end tag near byte {pos}")))?;
                attach(&mut stack, &mut root, el)?;
            }
            Event::Text(t) => push_text(&mut stack, &t),
            Event::CData(t) => push_text(&mut stack, &t),
            Event::GeneralRef(r) => {
                let name = r.to_string();
                let c = entity(&name)
                    .ok_or_else(|| xml_error(format!("unknown entity &{name}; near byte {pos}")))?;
                push_text(&mut stack, c.encode_utf8(&mut [0; 4]));
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if !stack.is_empty() {
        return Err(xml_error(format!(
            "unclosed element <{}>",
            stack[stack.len() - 1].name
        )));
    }
    root.ok_or_else(|| xml_error("no document element".into()))
}

/// A resource value as written: absolute amounts or percentages of the cluster.
#[derive(Debug, Clone)]
enum Value {
    /// Amounts by resource name; `old` for the `"X mb, Y vcores"` form (others are 0).
    Absolute {
        amounts: Vec<(String, Rational)>,
        old: bool,
    },
    /// Percentages by resource name (new form: unspecified ones unlimited in a maximum).
    Percent(Vec<(String, Rational)>),
    /// One percentage for every resource (`"X%"`).
    PercentAll(Rational),
}

const MEMORY: &str = "memory-mb";
const VCORES: &str = "vcores";

/// The number written just before `unit` in `text` (lower case), for the old form.
fn before(text: &str, unit: &str, at: &str) -> Result<Option<Rational>, SolverError> {
    let Some(i) = text.find(unit) else {
        return Ok(None);
    };
    let head = text[..i].trim_end();
    // After the last character that is not part of a number, whatever its width (found by
    // fuzzing: a two-byte character there was split).
    let start = head
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .map_or(0, |(j, c)| j + c.len_utf8());
    let digits = &head[start..];
    if digits.is_empty() {
        return Err(SolverError::invalid(
            at,
            format!("no number before {unit:?} in {text:?}"),
        ));
    }
    decimal(at, digits).map(Some)
}

/// Reads a resource value (see the module docs).
fn parse_value(raw: &str, at: &str) -> Result<Value, SolverError> {
    let text = raw.trim();
    let bad = |why: &str| SolverError::invalid(at, format!("{why} in {text:?}"));
    let value = if text.contains('=') {
        let mut amounts = Vec::new();
        let mut percent = None;
        for part in text.split(',') {
            let (name, v) = part
                .split_once('=')
                .ok_or_else(|| bad("expected name=value pairs separated by commas"))?;
            let name = name.trim();
            if name.is_empty() {
                return Err(bad("a resource name is empty"));
            }
            if amounts.iter().any(|(n, _): &(String, Rational)| n == name) {
                return Err(bad(&format!("resource {name:?} given twice")));
            }
            let v = v.trim();
            let (v, is_pct) = match v.strip_suffix('%') {
                Some(p) => (p.trim(), true),
                None => (v, false),
            };
            if *percent.get_or_insert(is_pct) != is_pct {
                return Err(bad(
                    "the resource values must all be percentages or all absolute",
                ));
            }
            amounts.push((name.to_string(), decimal(at, v)?));
        }
        if percent == Some(true) {
            Value::Percent(amounts)
        } else {
            Value::Absolute {
                amounts,
                old: false,
            }
        }
    } else {
        let mut lower = text.to_ascii_lowercase();
        if lower.contains('%') {
            // YARN's pattern allows spaces between '%' and the resource: drop them.
            while lower.contains("% ") {
                lower = lower.replace("% ", "%");
            }
            let cpu = before(&lower, "%cpu", at)?;
            let mem = before(&lower, "%memory", at)?;
            match (cpu, mem) {
                (Some(c), Some(m)) => Value::Percent(vec![(MEMORY.into(), m), (VCORES.into(), c)]),
                (None, None) => {
                    let p = lower
                        .strip_suffix('%')
                        .ok_or_else(|| bad("expected \"X%\" or \"X% cpu, Y% memory\""))?;
                    Value::PercentAll(decimal(at, p)?)
                }
                _ => return Err(bad("the old form needs both \"% cpu\" and \"% memory\"")),
            }
        } else {
            let mem = before(&lower, "mb", at)?;
            let cpu = before(&lower, "vcores", at)?;
            match (mem, cpu) {
                (Some(m), Some(c)) => Value::Absolute {
                    amounts: vec![(MEMORY.into(), m), (VCORES.into(), c)],
                    old: true,
                },
                _ => {
                    return Err(bad(
                        "expected \"X mb, Y vcores\" or \"memory-mb=X, vcores=Y\" (or percentages)",
                    ))
                }
            }
        }
    };
    let negative = match &value {
        Value::PercentAll(p) => p
            .is_negative()
            .then(|| ("the percentage".to_string(), p.clone())),
        _ => value
            .named()
            .iter()
            .find(|(_, x)| x.is_negative())
            .map(|(n, x)| (format!("{n:?}"), x.clone())),
    };
    if let Some((what, x)) = negative {
        return Err(SolverError::invalid(
            at,
            format!("{what} must not be negative, found {x}"),
        ));
    }
    Ok(value)
}

impl Value {
    /// The amounts or percentages by resource name (none for one percentage of every one).
    fn named(&self) -> &[(String, Rational)] {
        match self {
            Value::Absolute { amounts, .. } | Value::Percent(amounts) => amounts,
            Value::PercentAll(_) => &[],
        }
    }
}

/// A value as a vector over `resources`; `unspecified` fills resources it does not name
/// (`None`: the capacity, i.e. unlimited).
fn resolve(
    v: &Value,
    resources: &[String],
    capacity: &[Rational],
    unspecified_zero: bool,
) -> Vec<Rational> {
    let hundred = Rational::integer(100);
    let pct = |p: &Rational, c: &Rational| (p.clone() * c.clone() / hundred.clone()).floor();
    resources
        .iter()
        .zip(capacity)
        .map(|(r, c)| {
            // The old form sets the resources it does not name to 0.
            let zero = unspecified_zero || matches!(v, Value::Absolute { old: true, .. });
            match (v, v.named().iter().find(|(n, _)| n == r)) {
                (Value::PercentAll(p), _) | (Value::Percent(_), Some((_, p))) => pct(p, c),
                (_, Some((_, x))) => x.clone(),
                (_, None) if zero => Rational::ZERO,
                (_, None) => c.clone(),
            }
        })
        .collect()
}

/// A queue's or the default's ordering policy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Policy {
    #[default]
    Fair,
    Drf,
    Fifo,
}

fn parse_policy(text: &str, at: &str) -> Result<Policy, SolverError> {
    let t = text.trim();
    let short = t.rsplit('.').next().unwrap_or(t).to_ascii_lowercase();
    match short.as_str() {
        "fair" | "fairsharepolicy" => Ok(Policy::Fair),
        "drf" | "dominantresourcefairnesspolicy" => Ok(Policy::Drf),
        "fifo" | "fifopolicy" => Ok(Policy::Fifo),
        _ => Err(SolverError::invalid(
            at,
            format!("unknown scheduling policy {t:?} (expected fair, drf or fifo)"),
        )),
    }
}

/// Per-queue elements that have no tree equivalent (listed in the warnings).
const QUEUE_DROPPED: &[&str] = &[
    "maxChildResources",
    "maxRunningApps",
    "maxAMShare",
    "maxContainerAllocation",
    "aclSubmitApps",
    "aclAdministerApps",
    "aclAdministerReservations",
    "aclListReservations",
    "aclSubmitReservations",
    "minSharePreemptionTimeout",
    "fairSharePreemptionTimeout",
    "fairSharePreemptionThreshold",
    "allowPreemptionFrom",
    "reservation",
];
/// Per-queue elements the import reads.
const QUEUE_READ: &[&str] = &[
    "queue",
    "pool",
    "weight",
    "minResources",
    "maxResources",
    "schedulingPolicy",
    "schedulingMode",
];
/// Top-level elements that have no tree equivalent (listed in the warnings).
const TOP_DROPPED: &[&str] = &[
    "user",
    "userMaxAppsDefault",
    "queueMaxAppsDefault",
    "queueMaxAMShareDefault",
    "defaultFairSharePreemptionTimeout",
    "defaultMinSharePreemptionTimeout",
    "defaultFairSharePreemptionThreshold",
    "fairSharePreemptionTimeout",
    "queuePlacementPolicy",
    "reservation-agent",
    "reservation-policy",
    "reservation-planner",
];
/// The child elements an element may have: those read, those dropped (listed in the warnings),
/// and what an unknown element's message calls them.
type Known = (
    &'static [&'static str],
    &'static [&'static str],
    &'static str,
);
const QUEUE_ELEMENTS: Known = (QUEUE_READ, QUEUE_DROPPED, "a queue's elements");
const TOP_ELEMENTS: Known = (TOP_READ, TOP_DROPPED, "the allocation file's elements");
/// Top-level elements the import reads.
const TOP_READ: &[&str] = &[
    "queue",
    "pool",
    "queueMaxResourcesDefault",
    "defaultQueueSchedulingPolicy",
    "defaultQueueSchedulingMode",
];

#[derive(Default)]
struct Ctx {
    resources: Vec<String>,
    capacity: Vec<Rational>,
    max_default: Option<Value>,
    default_policy: Policy,
    dropped: Vec<String>,
    fair: Vec<String>,
    fifo_leaves: Vec<String>,
    notes: Vec<String>,
    /// The queues read, the root included.
    queues: usize,
}

impl Ctx {
    /// Refuses the first child of `el` (`name`) that is neither read nor dropped, and records
    /// those the tree cannot express, each once in order, as `name: a, b`.
    fn drop_unread(
        &mut self,
        el: &Element,
        at: &str,
        name: &str,
        (read, dropped, whose): Known,
    ) -> Result<(), SolverError> {
        let mut names: Vec<String> = Vec::new();
        for c in &el.children {
            let child = c.name.as_str();
            if dropped.contains(&child) {
                push_new(&mut names, child);
            } else if !read.contains(&child) {
                return Err(SolverError::invalid(
                    path_of(at, c),
                    format!(
                        "unknown element ({whose}: {}, {})",
                        read.join(", "),
                        dropped.join(", ")
                    ),
                ));
            }
        }
        if !names.is_empty() {
            self.dropped.push(format!("{name}: {}", names.join(", ")));
        }
        Ok(())
    }
}

/// Whether `el` is a queue (`<queue>`, or its alias `<pool>`).
fn is_queue(el: &Element) -> bool {
    el.name == "queue" || el.name == "pool"
}

/// Adds `name` to `names` unless it is there already.
fn push_new(names: &mut Vec<String>, name: &str) {
    if !names.iter().any(|n| n == name) {
        names.push(name.to_string());
    }
}

/// The element path of `el` below `parent` (`allocations/queue[a]/minResources`).
fn path_of(parent: &str, el: &Element) -> String {
    match el.attrs.iter().find(|(k, _)| k == "name") {
        Some((_, n)) => format!("{parent}/{}[{n}]", el.name),
        None => format!("{parent}/{}", el.name),
    }
}

/// The single child element `name` of `el`, if any (twice is an error).
fn single<'a>(el: &'a Element, name: &str, at: &str) -> Result<Option<&'a Element>, SolverError> {
    let mut found = el.children.iter().filter(|c| c.name == name);
    let first = found.next();
    if found.next().is_some() {
        return Err(SolverError::invalid(
            format!("{at}/{name}"),
            "given more than once",
        ));
    }
    Ok(first)
}

/// The single child element of `el` under a name or its alias (both is an error).
fn aliased<'a>(
    el: &'a Element,
    [name, alias]: [&str; 2],
    at: &str,
) -> Result<Option<&'a Element>, SolverError> {
    match (single(el, name, at)?, single(el, alias, at)?) {
        (Some(_), Some(_)) => Err(SolverError::invalid(
            at,
            format!("give {name} or its alias {alias}, not both"),
        )),
        (a, b) => Ok(a.or(b)),
    }
}

/// Walks the document once to learn every resource name the file uses.
fn collect_names(el: &Element, at: &str, out: &mut Vec<String>) -> Result<(), SolverError> {
    for c in &el.children {
        let here = path_of(at, c);
        if matches!(
            c.name.as_str(),
            "minResources" | "maxResources" | "queueMaxResourcesDefault"
        ) {
            for (n, _) in parse_value(&c.text, &here)?.named() {
                push_new(out, n);
            }
        } else if is_queue(c) {
            collect_names(c, &here, out)?;
        }
    }
    Ok(())
}

/// Reads `--capacity`: YARN's own value syntax, or numbers in resource order.
fn read_capacity(text: &str, resources: &mut Vec<String>) -> Result<Vec<Rational>, SolverError> {
    let at = "--capacity";
    if text.chars().any(|c| c.is_ascii_alphabetic() || c == '=') {
        let Value::Absolute { amounts, .. } = parse_value(text, at)? else {
            return Err(SolverError::invalid(
                at,
                "the capacity must be absolute, not a percentage",
            ));
        };
        for (n, _) in &amounts {
            push_new(resources, n);
        }
        resources
            .iter()
            .map(|r| {
                amounts
                    .iter()
                    .find(|(n, _)| n == r)
                    .map(|(_, x)| x.clone())
                    .ok_or_else(|| {
                        SolverError::invalid(
                            at,
                            format!(
                                "no amount for resource {r:?} (the file uses {})",
                                resources.join(", ")
                            ),
                        )
                    })
            })
            .collect()
    } else {
        let xs: Vec<Rational> = text
            .split(',')
            .enumerate()
            .map(|(j, x)| decimal(&format!("{at}[{j}]"), x))
            .collect::<Result<_, _>>()?;
        if xs.len() != resources.len() {
            return Err(SolverError::invalid(
                at,
                format!(
                    "expected {} entries, one per resource ({}), found {}",
                    resources.len(),
                    resources.join(", "),
                    xs.len()
                ),
            ));
        }
        xs.into_iter().map(|x| non_negative(at, x)).collect()
    }
}

/// Reads an allocation file. `capacity` is the cluster's size (the file does not state it):
/// YARN's value syntax (`"memory-mb=16384, vcores=10"`, `"16384 mb, 10 vcores"`) or numbers
/// in resource order (`16384,10`).
///
/// # Example
/// ```
/// let xml = r#"<allocations><queue name="a"><weight>2.0</weight>
///   <minResources>1024 mb, 1 vcores</minResources></queue><queue name="b"/></allocations>"#;
/// let t = leontief::import::yarn::import(xml, "4096,4").unwrap();
/// let v = serde_json::to_value(&t).unwrap();
/// assert_eq!(v["tree"]["children"][0]["guarantee"].to_string(), "[1024,1]");
/// ```
///
/// # Errors
/// Malformed XML, unknown elements, malformed values, and the configurations a tree cannot
/// express: errors naming the element path (`allocations/queue[a]/minResources: ...`).
///
/// # Complexity
/// Linear in the file's size times the number of resources.
pub fn import(text: &str, capacity: &str) -> Result<Imported, SolverError> {
    let doc = parse_xml(text)?;
    if doc.name != "allocations" {
        return Err(SolverError::invalid(
            &doc.name,
            "expected the document element <allocations>",
        ));
    }
    let top = "allocations";
    let mut resources = vec![MEMORY.to_string(), VCORES.to_string()];
    collect_names(&doc, top, &mut resources)?;
    let capacity = read_capacity(capacity, &mut resources)?;
    let mut ctx = Ctx {
        resources,
        capacity,
        ..Ctx::default()
    };
    ctx.drop_unread(&doc, top, top, TOP_ELEMENTS)?;
    if let Some(d) = single(&doc, "queueMaxResourcesDefault", top)? {
        ctx.max_default = Some(parse_value(
            &d.text,
            &format!("{top}/queueMaxResourcesDefault"),
        )?);
    }
    let policy_el = aliased(
        &doc,
        ["defaultQueueSchedulingPolicy", "defaultQueueSchedulingMode"],
        top,
    )?;
    if let Some(p) = policy_el {
        ctx.default_policy = parse_policy(&p.text, &path_of(top, p))?;
    }
    let queues: Vec<&Element> = doc.children.iter().filter(|c| is_queue(c)).collect();
    let explicit_root = queues
        .iter()
        .any(|q| q.attrs.iter().any(|(k, v)| k == "name" && v == "root"));
    if explicit_root && queues.len() > 1 {
        return Err(SolverError::invalid(
            top,
            "a <queue name=\"root\"> must be the only top-level queue",
        ));
    }
    // Without a queue named root, the root is the document element itself, its queues the
    // file's top level.
    let (root, synthetic) = if explicit_root {
        (queues[0], false)
    } else {
        (&doc, true)
    };
    let root = queue(root, top, None, Policy::Fair, synthetic, &mut ctx)?;
    let mut warnings: Vec<String> = listed(DROPPED, &ctx.dropped, "; ").into_iter().collect();
    warnings.append(&mut ctx.notes);
    if !ctx.fair.is_empty() {
        let which = if ctx.fair.len() == ctx.queues {
            "every queue".to_string()
        } else {
            ctx.fair.join(", ")
        };
        warnings.push(format!(
            "YARN's fair policy compares memory alone; the tree's policies compare every resource ({which} uses it)."
        ));
    }
    Ok(Imported {
        about: "Imported from a YARN Fair Scheduler allocation file by leontief import yarn: weight, minResources as guarantee, maxResources (or queueMaxResourcesDefault) as limit; leaves are idle unless demands are given.".into(),
        resources: ctx.resources,
        capacity: ctx.capacity,
        root,
        warnings,
        fifo_leaves: ctx.fifo_leaves,
        key_prefix: Some("root.".into()),
    })
}

/// What `children` guarantee as the tree form reads it, summed: each child's own guarantee,
/// or a pool's children's (`None` when none has one).
fn children_guarantee(children: &[ImportedNode], n: usize) -> Option<Vec<Rational>> {
    let given: Vec<Vec<Rational>> = children
        .iter()
        .filter_map(|c| {
            (c.guarantee.clone()).or_else(|| children_guarantee(c.children.as_ref()?, n))
        })
        .collect();
    (!given.is_empty()).then(|| sum(&given, n))
}

fn exceeds(a: &[Rational], b: &[Rational]) -> bool {
    a.iter().zip(b).any(|(x, y)| x > y)
}

fn show(v: &[Rational]) -> String {
    format!("[{}]", crate::render::joined(v))
}

/// One queue element (recursively). `parent` is the parent's full name (`None` for root);
/// a `synthetic` root is the document element, whose queues are the file's top level.
fn queue(
    el: &Element,
    at_parent: &str,
    parent: Option<&str>,
    parent_policy: Policy,
    synthetic: bool,
    ctx: &mut Ctx,
) -> Result<ImportedNode, SolverError> {
    let (at, (name, parent_type)) = if synthetic {
        (at_parent.to_string(), ("root".to_string(), true))
    } else {
        let at = path_of(at_parent, el);
        let attributes = queue_attributes(el, &at)?;
        (at, attributes)
    };
    let full = match parent {
        None => name.clone(),
        Some(p) => format!("{p}.{name}"),
    };
    if parent.is_some() && name == "root" {
        return Err(SolverError::invalid(
            &at,
            "only the top queue may be named root",
        ));
    }
    if !synthetic {
        ctx.drop_unread(el, &at, &full, QUEUE_ELEMENTS)?;
    }
    let policy = queue_policy(el, &at, ctx)?;
    let child_els: Vec<&Element> = el.children.iter().filter(|c| is_queue(c)).collect();
    // YARN's root is always a parent queue, even with no queue below it (found by fuzzing:
    // a childless root became a leaf, which a tree cannot have as its root).
    let is_pool = parent_type || parent.is_none() || !child_els.is_empty();
    if parent.is_some() && parent_policy == Policy::Fair && policy == Policy::Drf {
        return Err(SolverError::invalid(
            format!("{at}/schedulingPolicy"),
            "YARN rejects a drf queue under a fair parent (FairSharePolicy.isChildPolicyAllowed)",
        ));
    }
    if is_pool && policy == Policy::Fifo {
        return Err(SolverError::invalid(
            format!("{at}/schedulingPolicy"),
            "YARN allows fifo on leaf queues only (FifoPolicy.isChildPolicyAllowed)",
        ));
    }
    let mut node = ImportedNode::new(name, full.clone(), None);
    ctx.queues += 1;
    read_weight(el, &at, &mut node)?;
    read_resources(el, &at, parent.is_some(), &mut node, ctx)?;
    if policy == Policy::Fair {
        ctx.fair.push(full.clone());
    }
    if is_pool {
        let children = queue_children(&child_els, &at, &full, policy, &node, ctx)?;
        node.children = Some(children);
    } else if policy == Policy::Fifo {
        ctx.fifo_leaves.push(full);
    }
    Ok(node)
}

/// A queue's attributes: its name (trimmed, checked) and whether it is declared a parent.
fn queue_attributes(el: &Element, at: &str) -> Result<(String, bool), SolverError> {
    let mut name = None;
    let mut parent_type = false;
    for (k, v) in &el.attrs {
        match k.as_str() {
            "name" => name = Some(v.trim().to_string()),
            "type" if v == "parent" => parent_type = true,
            "type" => {
                return Err(SolverError::invalid(
                    format!("{at}@type"),
                    format!("expected \"parent\", found {v:?}"),
                ))
            }
            _ => {
                return Err(SolverError::invalid(
                    format!("{at}@{k}"),
                    "unknown attribute (a queue has name and type)",
                ))
            }
        }
    }
    let name = name.ok_or_else(|| SolverError::invalid(at, "missing the name attribute"))?;
    if name.is_empty() || name.contains('.') || name.contains('/') {
        return Err(SolverError::invalid(
            format!("{at}@name"),
            "a queue name must be non-empty, without '.' or '/'",
        ));
    }
    Ok((name, parent_type))
}

/// A queue's scheduling policy: its own (under either name), or the file's default.
fn queue_policy(el: &Element, at: &str, ctx: &Ctx) -> Result<Policy, SolverError> {
    match aliased(el, ["schedulingPolicy", "schedulingMode"], at)? {
        Some(p) => parse_policy(&p.text, &path_of(at, p)),
        None => Ok(ctx.default_policy),
    }
}

/// A queue's weight, which must be positive.
fn read_weight(el: &Element, at: &str, node: &mut ImportedNode) -> Result<(), SolverError> {
    if let Some(w) = single(el, "weight", at)? {
        let field = path_of(at, w);
        // YARN gives a queue of weight 0 no fair share.
        node.weight = positive_weight(&field, non_negative(&field, decimal(&field, &w.text)?)?)?;
    }
    Ok(())
}

/// A queue's minResources as its guarantee and its maxResources (or the file's default, below
/// the root) as its limit, raised to the guarantee as YARN does.
fn read_resources(
    el: &Element,
    at: &str,
    below_root: bool,
    node: &mut ImportedNode,
    ctx: &mut Ctx,
) -> Result<(), SolverError> {
    let full = node.key.clone();
    if let Some(m) = single(el, "minResources", at)? {
        let field = path_of(at, m);
        let v = parse_value(&m.text, &field)?;
        if !matches!(v, Value::Absolute { .. }) {
            return Err(SolverError::invalid(
                field,
                "a percentage minResources has no absolute value in YARN (only maxResources takes percentages)",
            ));
        }
        node.guarantee = Some(resolve(&v, &ctx.resources, &ctx.capacity, true));
    }
    let max = match single(el, "maxResources", at)? {
        Some(m) => Some(parse_value(&m.text, &path_of(at, m))?),
        None if below_root => ctx.max_default.clone(),
        None => None,
    };
    if let Some(v) = max {
        let resolved = resolve(&v, &ctx.resources, &ctx.capacity, false);
        let mut limit = capped(resolved, &ctx.capacity);
        if let Some(g) = &node.guarantee
            && exceeds(g, &limit)
        {
            ctx.notes.push(format!(
                    "{full}: maxResources {} below minResources {} raised to it per resource, as YARN does (FSQueue.getMaxShare).",
                    show(&limit),
                    show(g)
                ));
            limit = limit
                .into_iter()
                .zip(g)
                .map(|(l, g)| l.max(g.clone()))
                .collect();
        }
        if limit != ctx.capacity {
            node.limit = Some(limit);
        }
    }
    Ok(())
}

/// A parent queue's children (recursively), refusing a name defined twice and children whose
/// guarantees sum above the queue's own (or, without one, the capacity).
fn queue_children(
    child_els: &[&Element],
    at: &str,
    full: &str,
    policy: Policy,
    node: &ImportedNode,
    ctx: &mut Ctx,
) -> Result<Vec<ImportedNode>, SolverError> {
    let n = ctx.resources.len();
    let mut children: Vec<ImportedNode> = Vec::new();
    for &c in child_els {
        let child = queue(c, at, Some(full), policy, false, ctx)?;
        if children.iter().any(|x| x.name == child.name) {
            return Err(SolverError::invalid(
                path_of(at, c),
                format!("queue {:?} is defined twice", child.key),
            ));
        }
        children.push(child);
    }
    // A child pool without minResources still guarantees what its own children do
    // (found by fuzzing: the tree reader counts it so).
    let total = children_guarantee(&children, n).unwrap_or_else(|| sum(&[], n));
    // Below a queue without minResources the bound is the capacity (found by fuzzing:
    // such a queue's children could otherwise guarantee more than the cluster has).
    let (bound, what) = match &node.guarantee {
        Some(g) => (g, "this queue's minResources"),
        None => (&ctx.capacity, "the capacity"),
    };
    if exceeds(&total, bound) {
        return Err(SolverError::invalid(
                at,
                format!(
                    "the children's minResources sum to {}, above {what} {}: YARN overcommits (each child keeps its minResources), which a tree's guarantees cannot express",
                    show(&total),
                    show(bound)
                ),
            ));
    }
    Ok(children)
}
