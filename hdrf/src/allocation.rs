//! Allocations on trees: per-node figures, their JSON form and a tree drawing.

use leontief_solver::{ExactSum, Rational};
use serde::Serialize;
use serde_json::Value;

use crate::error::{Result, SolverError};
use crate::Policy;
use crate::{NodeId, Tree};

/// How an allocation was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Computation {
    /// The exact fluid limit, by an event-driven fill of `phases` linear pieces.
    Fluid {
        /// Number of linear phases (events) of the fill.
        phases: usize,
    },
    /// Built from given tasks ([`TreeAllocation::from_tasks`]).
    Given,
}

impl Computation {
    /// A short label: `fluid-exact`, `given`.
    pub fn label(&self) -> String {
        match self {
            Computation::Fluid { .. } => "fluid-exact".into(),
            Computation::Given => "given".into(),
        }
    }
}

/// The figures of one node, in the order of its JSON form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NodeAllocation {
    /// The sum of the bundles `x_l d_l` of the leaves below (the node's own for a leaf), in
    /// resource units.
    pub allocation: Vec<Rational>,
    /// Dominant share of `allocation`: `max_j allocation_j / R_j`.
    pub dominant_share: Rational,
    /// Satisfaction `dominant_share / g_v`.
    pub satisfaction: Rational,
    /// Tasks `x_l` (leaves only).
    pub tasks: Option<Rational>,
}

/// An allocation on a [`Tree`]: the figures of every node, pools included.
///
/// # Example
/// ```
/// use leontief_hdrf::{allocate, Policy, Tree};
/// let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
///     {"name": "A", "demand": [1, 0]},
///     {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
/// let x = allocate(&tree, Policy::Naive).unwrap();
/// let b = tree.find("B").unwrap();
/// assert_eq!(x.node(b).allocation, vec!["1/2".parse().unwrap(), 1.into()]);
/// assert_eq!(x.node(b).satisfaction.to_string(), "2");
/// let json = x.to_json(&tree);
/// assert_eq!(json["nodes"][4]["path"], "root/B/B2");
/// assert_eq!(json["nodes"][4]["tasks"], "1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TreeAllocation {
    /// The policy that produced it.
    pub policy: Policy,
    /// How it was computed.
    pub computation: Computation,
    nodes: Vec<NodeAllocation>,
}

impl TreeAllocation {
    /// The allocation giving the leaves `tasks` (one entry per leaf, in pre-order, as
    /// [`Tree::leaves`] lists them); pools' figures are derived. Checks only the length.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::{NodeSpec, Policy, Tree, TreeAllocation};
    /// let tree = Tree::new(vec![1.into(), 1.into()], NodeSpec::pool("root", [
    ///     NodeSpec::leaf("A", [1, 0]), NodeSpec::leaf("B", [0, 1])])).unwrap();
    /// let x = TreeAllocation::from_tasks(&tree, Policy::Naive, vec![1.into(), "1/4".parse().unwrap()]).unwrap();
    /// assert_eq!(x.node(tree.root()).dominant_share.to_string(), "1");
    /// ```
    pub fn from_tasks(tree: &Tree, policy: Policy, tasks: Vec<Rational>) -> Result<Self> {
        let leaves: Vec<NodeId> = tree.leaves().collect();
        if tasks.len() != leaves.len() {
            return Err(SolverError::invalid(
                "tasks",
                format!(
                    "expected {} entries, one per leaf, found {}",
                    leaves.len(),
                    tasks.len()
                ),
            ));
        }
        let mut per_node = vec![Rational::ZERO; tree.len()];
        for (v, x) in leaves.into_iter().zip(tasks) {
            per_node[v.index()] = x;
        }
        Ok(Self::from_node_tasks(
            tree,
            policy,
            Computation::Given,
            per_node,
        ))
    }

    /// From tasks indexed by node (pools' entries ignored).
    pub(crate) fn from_node_tasks(
        tree: &Tree,
        policy: Policy,
        computation: Computation,
        tasks: Vec<Rational>,
    ) -> Self {
        let m = tree.num_resources();
        let mut sums: Vec<Vec<ExactSum>> = vec![vec![ExactSum::new(); m]; tree.len()];
        for v in tree.leaves() {
            let demand = tree.node(v).demand().expect("a leaf");
            let x = &tasks[v.index()];
            for u in tree.ancestors(v) {
                for (j, d) in demand.iter().enumerate() {
                    if !d.is_zero() {
                        sums[u.index()][j].add(&(d * x));
                    }
                }
            }
        }
        let figures = sums.into_iter().zip(tasks).map(|(mut sums, x)| {
            let allocation: Vec<Rational> = sums.iter_mut().map(ExactSum::value).collect();
            let dominant_share = allocation
                .iter()
                .zip(tree.capacity())
                .map(|(a, r)| a / r)
                .max()
                .expect("m >= 1");
            (allocation, dominant_share, x)
        });
        Self::from_figures(tree, policy, computation, figures)
    }

    /// From every node's allocation, dominant share and tasks (pools' ignored), in pre-order.
    fn from_figures(
        tree: &Tree,
        policy: Policy,
        computation: Computation,
        figures: impl Iterator<Item = (Vec<Rational>, Rational, Rational)>,
    ) -> Self {
        let nodes = tree
            .nodes()
            .zip(figures)
            .map(|(v, (allocation, dominant_share, x))| {
                let node = tree.node(v);
                NodeAllocation {
                    satisfaction: &dominant_share / node.guaranteed_share(),
                    allocation,
                    dominant_share,
                    tasks: node.is_leaf().then_some(x),
                }
            })
            .collect();
        TreeAllocation {
            policy,
            computation,
            nodes,
        }
    }

    /// From a fluid fill: leaves' tasks, pools' usage in shares of capacity (the engine's own
    /// exact sums, which spares re-adding every leaf's bundle along its path).
    pub(crate) fn from_fluid(
        tree: &Tree,
        policy: Policy,
        computation: Computation,
        tasks: Vec<Rational>,
        usage: Vec<Vec<Rational>>,
    ) -> Self {
        let figures = tree
            .nodes()
            .zip(tasks.into_iter().zip(usage))
            .map(|(v, (x, shares))| {
                let (allocation, dominant_share) = match tree.node(v).demand() {
                    Some(d) => {
                        let allocation: Vec<Rational> = d.iter().map(|dj| dj * &x).collect();
                        // An idle leaf (no positive demand) holds nothing.
                        let share = tree
                            .task_dominant_share(v)
                            .map_or(Rational::ZERO, |mu| mu * &x);
                        (allocation, share)
                    }
                    None => {
                        let allocation = shares
                            .iter()
                            .zip(tree.capacity())
                            .map(|(s, r)| s * r)
                            .collect();
                        let share = shares.iter().max().expect("m >= 1").clone();
                        (allocation, share)
                    }
                };
                (allocation, dominant_share, x)
            });
        Self::from_figures(tree, policy, computation, figures)
    }

    /// The figures of node `v`.
    ///
    /// # Panics
    /// When `v` belongs to another, larger tree.
    pub fn node(&self, v: NodeId) -> &NodeAllocation {
        &self.nodes[v.index()]
    }

    /// Tasks of leaf `v` (`None` for a pool).
    pub fn tasks(&self, v: NodeId) -> Option<&Rational> {
        self.nodes[v.index()].tasks.as_ref()
    }

    /// Dominant share of node `v`.
    pub fn dominant_share(&self, v: NodeId) -> &Rational {
        &self.nodes[v.index()].dominant_share
    }

    /// Total use of each resource (the root's allocation).
    pub fn consumption(&self) -> &[Rational] {
        &self.nodes[0].allocation
    }

    /// Indices of the resources used to capacity.
    pub fn saturated(&self, tree: &Tree) -> Vec<usize> {
        leontief_solver::saturated_resources(self.consumption(), tree.capacity())
    }

    /// The JSON form: the policy, how it was computed, and every node in pre-order with
    /// `path`, `name`, `kind` (`pool`/`leaf`), `weight`, `guaranteed_share`, `allocation`,
    /// `dominant_share`, `satisfaction` and `tasks` (`null` for pools); numbers are exact
    /// `"p/q"` strings.
    pub fn to_json(&self, tree: &Tree) -> Value {
        let nodes = tree
            .nodes()
            .map(|v| {
                let n = tree.node(v);
                NodeFields {
                    path: tree.path(v),
                    name: n.name(),
                    kind: if n.is_leaf() { "leaf" } else { "pool" },
                    weight: n.weight(),
                    guaranteed_share: n.guaranteed_share(),
                    figures: self.node(v),
                }
            })
            .collect();
        let doc = AllocationDoc {
            policy: self.policy.name(),
            computation: self.computation.label(),
            resources: tree.resources(),
            capacity: tree.capacity(),
            nodes,
            notes: tree.notes(),
        };
        // A document of strings and string-keyed maps always serializes.
        serde_json::to_value(doc).unwrap_or(Value::Null)
    }
}

/// The JSON form of a [`TreeAllocation`] on its tree (see [`TreeAllocation::to_json`]), its
/// fields in output order.
#[derive(Serialize)]
struct AllocationDoc<'a> {
    policy: &'static str,
    computation: String,
    resources: &'a [String],
    capacity: &'a [Rational],
    nodes: Vec<NodeFields<'a>>,
    /// Idle leaves and empty pools get nothing: say so (absent on other trees).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
}

/// One node: where it is, then its figures (`tasks` is `null` for pools).
#[derive(Serialize)]
struct NodeFields<'a> {
    path: String,
    name: &'a str,
    kind: &'static str,
    weight: &'a Rational,
    guaranteed_share: &'a Rational,
    #[serde(flatten)]
    figures: &'a NodeAllocation,
}

/// A drawing of the tree with every node's figures: guaranteed share `g`, allocation (one
/// entry per resource), dominant share, satisfaction and, for leaves, tasks; exact values.
/// For `--format tree` on the command line.
///
/// # Example
/// ```
/// use leontief_hdrf::{allocate, render_tree, Policy, Tree};
/// let tree = Tree::from_json_str(r#"{"resources": ["cpu", "mem"], "capacity": [1, 1],
///     "tree": {"children": [{"name": "A", "demand": [1, 0]},
///     {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
/// let text = render_tree(&tree, &allocate(&tree, Policy::Naive).unwrap());
/// assert_eq!(text, "\
/// node        g    allocation (cpu, mem)  dominant share  satisfaction  tasks
/// root        1    (1, 1)                 1               1
/// ├── A       1/2  (1/2, 0)               1/2             1             1/2
/// └── B       1/2  (1/2, 1)               1               2
///     ├── B1  1/4  (1/2, 0)               1/2             2             1/2
///     └── B2  1/4  (0, 1)                 1               4             1
/// ");
/// ```
pub fn render_tree(tree: &Tree, alloc: &TreeAllocation) -> String {
    let columns = vec![
        format!("allocation ({})", tree.resources().join(", ")),
        "dominant share".into(),
        "satisfaction".into(),
        "tasks".into(),
    ];
    drawn_table(tree, columns, |v| {
        let a = alloc.node(v);
        let shown: Vec<String> = a.allocation.iter().map(ToString::to_string).collect();
        let tasks = a.tasks.as_ref().map(ToString::to_string);
        vec![
            format!("({})", shown.join(", ")),
            a.dominant_share.to_string(),
            a.satisfaction.to_string(),
            tasks.unwrap_or_default(),
        ]
    })
}

/// The policies side by side: the tree drawn as in [`render_tree`], each node's guaranteed
/// share `g`, and for every allocation given a column `share (σ)` — the node's dominant share
/// and its satisfaction `share / g`, so that `σ < 1` shows a node below its guarantee. For
/// `--policy all --format tree` on the command line.
///
/// # Example
/// The H-DRF paper's tree: collapsed (flat DRF over the leaves) gives n2's leaf n22 only 1/3.
/// ```
/// use leontief_hdrf::{allocate, render_comparison, Policy, Tree};
/// let tree = Tree::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
///     {"name": "n1", "demand": [0, 1]},
///     {"name": "n2", "children": [{"name": "n21", "demand": [1, 0]}, {"name": "n22", "demand": [0, 1]}]}]}}"#).unwrap();
/// let allocs: Vec<_> = [Policy::Collapsed, Policy::Hdrf]
///     .into_iter()
///     .map(|p| allocate(&tree, p).unwrap())
///     .collect();
/// assert_eq!(render_comparison(&tree, &allocs), "\
/// node         g    collapsed  hdrf
/// root         1    1 (1)      1 (1)
/// ├── n1       1/2  2/3 (4/3)  1/2 (1)
/// └── n2       1/2  1 (2)      1 (2)
///     ├── n21  1/4  1 (4)      1 (4)
///     └── n22  1/4  1/3 (4/3)  1/2 (2)
/// ");
/// ```
pub fn render_comparison(tree: &Tree, allocs: &[TreeAllocation]) -> String {
    let columns = allocs.iter().map(|a| a.policy.to_string()).collect();
    drawn_table(tree, columns, |v| {
        let cell = |a: &TreeAllocation| {
            let n = a.node(v);
            format!("{} ({})", n.dominant_share, n.satisfaction)
        };
        allocs.iter().map(cell).collect()
    })
}

/// The table of [`render_tree`] and [`render_comparison`]: the header `node`, `g` and
/// `columns`, then every node depth-first, its name drawn under its ancestors' branches, its
/// guaranteed share and `cells` of it.
fn drawn_table(tree: &Tree, columns: Vec<String>, cells: impl Fn(NodeId) -> Vec<String>) -> String {
    let mut rows = vec![[vec!["node".to_string(), "g".to_string()], columns].concat()];
    let mut stack: Vec<(NodeId, String, String)> =
        vec![(tree.root(), String::new(), String::new())];
    while let Some((v, lead, cont)) = stack.pop() {
        let drawn = format!("{lead}{}", tree.node(v).name());
        let g = tree.node(v).guaranteed_share().to_string();
        rows.push([vec![drawn, g], cells(v)].concat());
        let count = tree.node(v).children().len();
        for (k, c) in tree.node(v).children().enumerate().rev() {
            let last = k + 1 == count;
            let (branch, next) = if last {
                ("└── ", "    ")
            } else {
                ("├── ", "│   ")
            };
            stack.push((c, format!("{cont}{branch}"), format!("{cont}{next}")));
        }
    }
    aligned(&rows)
}

/// Rows of cells as left-aligned columns two spaces apart, without trailing blanks.
pub(crate) fn aligned(rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        widths.resize(widths.len().max(row.len()), 0);
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (k, cell) in row.iter().enumerate() {
            if k > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            if k + 1 < row.len() {
                line.extend(std::iter::repeat_n(' ', widths[k] - cell.chars().count()));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
