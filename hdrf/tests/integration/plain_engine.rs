//! A straightforward fluid engine, kept to cross-check the event-driven one
//! ([`leontief_hdrf::fill`]).
//!
//! The same fluid model and the same exact arithmetic as [`leontief_hdrf::fill`], computed the
//! plain way: every phase recomputes every pool's growth set, rates and key bottom-up, every
//! pool's rate top-down, the first event over the whole tree, and advances every driven pool.
//! Its cost is `O(P·(m + c))` big-rational operations per phase whatever changed, where the
//! event-driven engine touches only the pools an event affects, so this one grows faster with
//! the tree (times in BENCHMARKS.md). The tests of `engines.rs` check that both give
//! identical answers.
//!
//! It is an oracle, so it shares no code with what it checks: not the engine of
//! [`leontief_hdrf::fill`] and not the policies' keys of [`leontief_hdrf::policies`]. Its keys
//! are written out here from their definitions (see each policy's docs), with plain helpers;
//! `collapsed` has its own plain progressive fill ([`weighted_drf`]).

use leontief_solver::{ExactSum, Rational};

use leontief_hdrf::{NodeId, NodeView, Policy, SolverError, Tree, TreeAllocation};

type Result<T> = std::result::Result<T, SolverError>;

/// A leaf's shares `d_j / R_j` of the resources it demands, and its key per task: `mu / g`
/// under min-satisfaction, `mu / w` under the other tree policies (naive: `K_v = S_v / w_v`;
/// H-DRF: `K_v = E_v / w_v`, `E_v` the rescaled, blocked-free effective share;
/// min-satisfaction: `K_v = min σ_u` over the active nodes `u` of `v`'s subtree,
/// `σ_u = S_u / g_u`).
fn leaf_key(
    demand: &[Rational],
    capacity: &[Rational],
    node: NodeView<'_>,
    rule: Policy,
) -> (Vec<(usize, Rational)>, Rational) {
    let shares: Vec<(usize, Rational)> = (0..demand.len())
        .filter(|&j| !demand[j].is_zero())
        .map(|j| (j, &demand[j] / &capacity[j]))
        .collect();
    let mu = shares
        .iter()
        .map(|(_, a)| a)
        .max()
        .expect("a positive demand");
    let c = match rule {
        Policy::MinSatisfaction => mu / node.guaranteed_share(),
        _ => mu / node.weight(),
    };
    (shares, c)
}

/// Value and right derivative at `t = 0` of `max_j (values_j + t·slopes_j)` over the `j`
/// with `keep[j]`.
fn max_with_slope(values: &[Rational], slopes: &[Rational], keep: &[bool]) -> (Rational, Rational) {
    let mut value: Option<Rational> = None;
    for j in 0..values.len() {
        if keep[j] && value.as_ref().is_none_or(|v| values[j] > *v) {
            value = Some(values[j].clone());
        }
    }
    let value = value.expect("some resource is kept");
    let mut slope: Option<Rational> = None;
    for j in 0..values.len() {
        if keep[j] && values[j] == value && slope.as_ref().is_none_or(|s| slopes[j] > *s) {
            slope = Some(slopes[j].clone());
        }
    }
    (value, slope.expect("the maximum is attained"))
}

/// The first time `t > 0` at which some entry overtakes the maximum of
/// `values + t·rate·slopes` (entries with `keep[j]`), if any.
fn max_breakpoint(
    values: &[Rational],
    slopes: &[Rational],
    rate: &Rational,
    keep: &[bool],
) -> Option<Rational> {
    let (s, ds) = max_with_slope(values, slopes, keep);
    let mut best = None;
    for j in 0..values.len() {
        if keep[j] && slopes[j] > ds {
            keep_min(&mut best, (&s - &values[j]) / (rate * (&slopes[j] - &ds)));
        }
    }
    best
}

/// `min(a, b)` of two linear functions at `t = 0`: value and right derivative.
fn min_linear(a: (Rational, Rational), b: (Rational, Rational)) -> (Rational, Rational) {
    match a.0.cmp(&b.0) {
        std::cmp::Ordering::Less => a,
        std::cmp::Ordering::Greater => b,
        std::cmp::Ordering::Equal => {
            let slope = if a.1 < b.1 { a.1 } else { b.1 };
            (a.0, slope)
        }
    }
}

fn keep_min(best: &mut Option<Rational>, t: Rational) {
    if best.as_ref().is_none_or(|b| t < *b) {
        *best = Some(t);
    }
}

/// `acc += factor · v` (or `acc += v`).
fn add_scaled(acc: &mut [Rational], v: &[Rational], factor: Option<&Rational>) {
    for j in 0..acc.len() {
        match factor {
            Some(f) => acc[j] += &v[j] * f,
            None => acc[j] += &v[j],
        }
    }
}

/// The value of `sums`, kept in `cache` until the sums change (the cache is cleared).
fn cached(cache: &mut Option<Vec<Rational>>, sums: &mut [ExactSum]) -> Vec<Rational> {
    cache
        .get_or_insert_with(|| sums.iter_mut().map(ExactSum::value).collect())
        .clone()
}

/// A growing child's rate per unit of its parent's: `1/κ`, so that its key keeps up; for
/// degenerate growth (`κ = 0`) `w / max_j u_j`, the dominant share of its additional
/// allocation rising in proportion to its weight (the convention of [`leontief_hdrf::fill`]).
fn growth_rate(u: &[Rational], kappa: &Rational, weight: &Rational, degenerate: bool) -> Rational {
    if degenerate {
        weight / u.iter().max().expect("m >= 1")
    } else {
        Rational::ONE / kappa
    }
}

/// The fluid allocation of `policy` by the plain engines: the tree policies (`naive`,
/// `min-satisfaction`, `hdrf`) by a plain fluid fill, `collapsed` by [`weighted_drf`].
///
/// # Complexity
/// `O(P·(m + c))` rational operations per phase for `P` pools with `c` children.
pub fn allocate(tree: &Tree, policy: Policy) -> Result<TreeAllocation> {
    let (tasks, _phases) = match policy {
        Policy::Collapsed => weighted_drf(tree),
        _ => fluid(tree, policy)?,
    };
    let leaf_tasks = tree.leaves().map(|l| tasks[l.index()].clone()).collect();
    TreeAllocation::from_tasks(tree, policy, leaf_tasks)
}

/// `collapsed` by a plain progressive fill: every growing leaf holds `x_l = λ g_l / mu_l`
/// as `λ` rises; a resource that saturates stops its demanders, a cap its leaf. Tasks per
/// node index and the number of phases.
///
/// # Complexity
/// `O(n·m)` rational operations per phase for `n` leaves; at most one phase per leaf and
/// per resource.
pub fn weighted_drf(tree: &Tree) -> (Vec<Rational>, usize) {
    let m = tree.num_resources();
    let leaves: Vec<NodeId> = tree.leaves().collect();
    let mut share = Vec::new(); // a_lj = d_lj / R_j per leaf
    let mut speed = Vec::new(); // g_l / mu_l: tasks per unit of λ
    for &l in &leaves {
        let demand = tree.node(l).demand().expect("a leaf");
        let a: Vec<Rational> = (0..m).map(|j| &demand[j] / &tree.capacity()[j]).collect();
        let mu = a.iter().max().expect("m >= 1");
        speed.push(tree.node(l).guaranteed_share() / mu);
        share.push(a);
    }
    let mut x = vec![Rational::ZERO; leaves.len()];
    let mut growing = vec![true; leaves.len()];
    let mut saturated = vec![false; m];
    let mut lam = Rational::ZERO;
    let mut phases = 0;
    while growing.contains(&true) {
        phases += 1;
        let mut used = vec![Rational::ZERO; m];
        let mut rate = vec![Rational::ZERO; m];
        for i in 0..leaves.len() {
            for j in 0..m {
                used[j] += &x[i] * &share[i][j];
                if growing[i] {
                    rate[j] += &speed[i] * &share[i][j];
                }
            }
        }
        let mut step: Option<Rational> = None;
        for j in 0..m {
            if !saturated[j] && rate[j].is_positive() {
                keep_min(&mut step, (Rational::ONE - &used[j]) / &rate[j]);
            }
        }
        for i in 0..leaves.len() {
            if let (true, Some(cap)) = (growing[i], tree.node(leaves[i]).cap()) {
                keep_min(&mut step, cap / &speed[i] - &lam);
            }
        }
        lam += &step.expect("a growing leaf uses an unsaturated resource");
        for i in 0..leaves.len() {
            if growing[i] {
                x[i] = &lam * &speed[i];
            }
        }
        for j in 0..m {
            let mut total = Rational::ZERO;
            for i in 0..leaves.len() {
                total += &x[i] * &share[i][j];
            }
            if total >= Rational::ONE {
                saturated[j] = true;
            }
        }
        for i in 0..leaves.len() {
            let blocked = (0..m).any(|j| saturated[j] && !share[i][j].is_zero());
            let capped = tree.node(leaves[i]).cap().is_some_and(|t| x[i] >= *t);
            if blocked || capped {
                growing[i] = false;
            }
        }
    }
    let mut tasks = vec![Rational::ZERO; tree.len()];
    for (i, l) in leaves.into_iter().enumerate() {
        tasks[l.index()] = x[i].clone();
    }
    (tasks, phases)
}

/// Per-pool quantities of one phase.
#[derive(Clone, Default)]
struct PhasePool {
    lam: Rational,
    key: Rational,
    kappa: Rational,
    u: Vec<Rational>,
    growth: Vec<usize>,
    degenerate: bool,
    group_grows: bool,
    rate: Option<Rational>,
    v: Vec<Rational>,
    dv: Vec<Rational>,
}

struct Fluid<'a> {
    tree: &'a Tree,
    /// The tree policy filled (not `collapsed`, which has its own fill).
    rule: Policy,
    m: usize,
    /// Per leaf: nonzero `a_lj / c_l` (usage in shares per unit of key), sparse.
    per_key: Vec<Vec<(usize, Rational)>>,
    /// Per leaf: nonzero `a_lj = d_lj / R_j`, sparse.
    share: Vec<Vec<(usize, Rational)>>,
    /// Per leaf: `c_l` (key = `x_l c_l`).
    scale: Vec<Rational>,
    /// Pools, children before parents.
    post: Vec<usize>,
    parent: Vec<Option<usize>>,
    pool_children: Vec<Vec<usize>>,
    demanders: Vec<Vec<usize>>,
    /// Per pool: `(cap key, leaf)` of its capped leaf children, sorted, and a cursor.
    caps: Vec<Vec<(Rational, usize)>>,
    cap_cursor: Vec<usize>,

    active: Vec<bool>,
    active_children: Vec<usize>,
    active_leaves: Vec<usize>,
    x: Vec<Rational>,
    ell: Vec<Rational>,
    usage: Vec<Vec<Rational>>,
    /// Per pool: `Σ a_l / c_l` over the active leaf children.
    group: Vec<Vec<ExactSum>>,
    group_val: Vec<Option<Vec<Rational>>>,
    /// Per pool (H-DRF): the usage of its stopped children (at their caps or blocked).
    settled: Vec<Vec<ExactSum>>,
    settled_val: Vec<Option<Vec<Rational>>>,
    saturated: Vec<bool>,

    phase: Vec<PhasePool>,
}

fn fluid(tree: &Tree, rule: Policy) -> Result<(Vec<Rational>, usize)> {
    let mut f = Fluid::new(tree, rule);
    let limit = 10_000 + 100 * tree.len() * (f.m + 1);
    let mut phases = 0;
    while f.active[0] {
        if phases >= limit {
            return Err(SolverError::Mechanism {
                mechanism: rule.to_string(),
                reason: format!("the fluid fill did not finish within {limit} phases"),
            });
        }
        phases += 1;
        f.bottom_up();
        f.top_down();
        let t = f.next_event().ok_or_else(|| SolverError::Mechanism {
            mechanism: rule.to_string(),
            reason: "the fluid fill found no event ahead while leaves were active".into(),
        })?;
        f.advance(&t);
        f.fire_events();
    }
    Ok((f.x, phases))
}

impl<'a> Fluid<'a> {
    fn new(tree: &'a Tree, rule: Policy) -> Self {
        let (n, m) = (tree.len(), tree.num_resources());
        let mut f = Fluid {
            tree,
            rule,
            m,
            per_key: vec![Vec::new(); n],
            share: vec![Vec::new(); n],
            scale: vec![Rational::ZERO; n],
            post: tree.pools().map(NodeId::index).rev().collect(),
            parent: tree
                .nodes()
                .map(|v| tree.node(v).parent().map(NodeId::index))
                .collect(),
            pool_children: tree
                .nodes()
                .map(|v| {
                    let pools = tree.node(v).children().filter(|&c| !tree.node(c).is_leaf());
                    pools.map(NodeId::index).collect()
                })
                .collect(),
            demanders: vec![Vec::new(); m],
            caps: vec![Vec::new(); n],
            cap_cursor: vec![0; n],
            active: vec![true; n],
            active_children: tree
                .nodes()
                .map(|v| tree.node(v).children().len())
                .collect(),
            active_leaves: vec![0; n],
            x: vec![Rational::ZERO; n],
            ell: vec![Rational::ZERO; n],
            usage: vec![vec![Rational::ZERO; m]; n],
            group: vec![vec![ExactSum::new(); m]; n],
            group_val: vec![None; n],
            settled: vec![vec![ExactSum::new(); m]; n],
            settled_val: vec![None; n],
            saturated: vec![false; m],
            phase: vec![PhasePool::default(); n],
        };
        for l in tree.leaves() {
            let (i, node) = (l.index(), tree.node(l));
            let p = f.parent[i].expect("the root is a pool");
            let demand = node.demand().expect("a leaf");
            let (shares, c) = leaf_key(demand, tree.capacity(), node, rule);
            let inv_c = c.recip().expect("positive");
            f.per_key[i] = shares.iter().map(|(j, a)| (*j, a * &inv_c)).collect();
            for (j, a) in &f.per_key[i] {
                f.demanders[*j].push(i);
                f.group[p][*j].add(a);
            }
            if let Some(t) = node.cap() {
                f.caps[p].push((t * &c, i));
            }
            f.share[i] = shares;
            f.scale[i] = c;
            f.active_leaves[p] += 1;
        }
        for list in &mut f.caps {
            list.sort();
        }
        f
    }

    fn node(&self, p: usize) -> NodeView<'_> {
        self.tree.node(self.tree.node_id(p).expect("in range"))
    }

    /// The resources not saturated yet.
    fn unsaturated(&self) -> Vec<bool> {
        self.saturated.iter().map(|s| !s).collect()
    }

    /// See [`growth_rate`].
    fn child_rate(&self, c: usize, degenerate: bool) -> Rational {
        let child = &self.phase[c];
        growth_rate(&child.u, &child.kappa, self.node(c).weight(), degenerate)
    }

    /// Growth sets, usage rates and keys with their slopes, children before parents.
    fn bottom_up(&mut self) {
        for k in 0..self.post.len() {
            let p = self.post[k];
            if !self.active[p] {
                continue;
            }
            let has_group = self.active_leaves[p] > 0;
            let mut lam: Option<&Rational> = has_group.then(|| &self.ell[p]);
            for &c in &self.pool_children[p] {
                if self.active[c] && lam.is_none_or(|l| self.phase[c].key < *l) {
                    lam = Some(&self.phase[c].key);
                }
            }
            let lam = lam.expect("an active pool has an active child").clone();
            let group_in = has_group && self.ell[p] == lam;
            let mut growth: Vec<usize> = self.pool_children[p]
                .iter()
                .copied()
                .filter(|&c| self.active[c] && self.phase[c].key == lam)
                .collect();
            let degenerate = growth.iter().any(|&c| self.phase[c].kappa.is_zero());
            if degenerate {
                // Degenerate children absorb the growth while their siblings stall.
                growth.retain(|&c| self.phase[c].kappa.is_zero());
            }
            let group_grows = group_in && !degenerate;
            let group_rate = if has_group {
                Some(cached(&mut self.group_val[p], &mut self.group[p]))
            } else {
                None
            };
            let mut u: Vec<Rational> = match (&group_rate, group_grows) {
                (Some(a), true) => a.clone(),
                _ => vec![Rational::ZERO; self.m],
            };
            for &c in &growth {
                let rate = self.child_rate(c, degenerate);
                add_scaled(&mut u, &self.phase[c].u, Some(&rate));
            }
            let (mut v, mut dv) = (Vec::new(), Vec::new());
            let (key, kappa) = if p == 0 {
                (Rational::ZERO, Rational::ZERO) // the root's key is compared by nobody
            } else {
                let node = self.node(p);
                let inner = Rational::from(u64::from(!degenerate)); // 0 when degenerate
                let all = &vec![true; self.m];
                match self.rule {
                    Policy::Naive => {
                        let (s, ds) = max_with_slope(&self.usage[p], &u, all);
                        (s / node.weight(), ds / node.weight())
                    }
                    Policy::MinSatisfaction => {
                        let g = node.guaranteed_share();
                        let (s, ds) = max_with_slope(&self.usage[p], &u, all);
                        min_linear((s / g, ds / g), (lam.clone(), inner))
                    }
                    _ => {
                        // H-DRF (`collapsed` has its own fill).
                        let w = node.weight().clone();
                        (v, dv) = self.effective_vector(
                            p,
                            &lam,
                            group_rate.as_deref(),
                            &growth,
                            degenerate,
                        );
                        let open = self.unsaturated();
                        let (e, de) = max_with_slope(&v, &dv, &open);
                        (e / &w, de / &w)
                    }
                }
            };
            let ph = &mut self.phase[p];
            ph.lam = lam;
            ph.key = key;
            ph.kappa = kappa;
            ph.u = u;
            ph.growth = growth;
            ph.degenerate = degenerate;
            ph.group_grows = group_grows;
            ph.rate = None;
            ph.v = v;
            ph.dv = dv;
        }
    }

    /// H-DRF's effective vector of pool `p` and its rate per unit of inner rate: the usage of
    /// its stopped children as it is, every active child's effective vector rescaled to
    /// the smallest key `λ_p` (`V_c λ_p / K_c`; the leaf group's is `λ_p Σ a_l / c_l`). A
    /// stopped child is at its cap or blocked: both count unscaled, as in the paper.
    fn effective_vector(
        &mut self,
        p: usize,
        lam: &Rational,
        group_rate: Option<&[Rational]>,
        growth: &[usize],
        degenerate: bool,
    ) -> (Vec<Rational>, Vec<Rational>) {
        let mut v = cached(&mut self.settled_val[p], &mut self.settled[p]);
        let mut dv = vec![Rational::ZERO; self.m];
        if let Some(a) = group_rate {
            add_scaled(&mut v, a, Some(lam));
            if !degenerate {
                add_scaled(&mut dv, a, None);
            }
        }
        for &c in &self.pool_children[p] {
            if !self.active[c] {
                continue;
            }
            let child = &self.phase[c];
            if child.key == *lam {
                // At the minimum the rescaling factor is 1.
                add_scaled(&mut v, &child.v, None);
                if growth.contains(&c) {
                    let rate = self.child_rate(c, degenerate);
                    add_scaled(&mut dv, &self.phase[c].dv, Some(&rate));
                }
            } else {
                // Waiting: rescaled by λ_p / K_c, which grows with λ_p.
                let inv_key = child.key.recip().expect("above the minimum: positive");
                add_scaled(&mut v, &child.v, Some(&(lam * &inv_key)));
                if !degenerate {
                    add_scaled(&mut dv, &child.v, Some(&inv_key));
                }
            }
        }
        (v, dv)
    }

    /// Rates of the driven pools, parents before children; the root's is 1.
    fn top_down(&mut self) {
        self.phase[0].rate = Some(Rational::ONE);
        for k in (0..self.post.len()).rev() {
            let p = self.post[k];
            if !self.active[p] {
                continue;
            }
            let Some(rp) = self.phase[p].rate.clone() else {
                continue;
            };
            for idx in 0..self.phase[p].growth.len() {
                let c = self.phase[p].growth[idx];
                let rc = &rp * &self.child_rate(c, self.phase[p].degenerate);
                self.phase[c].rate = Some(rc);
            }
        }
    }

    /// The phase length: the first event along the current direction.
    fn next_event(&mut self) -> Option<Rational> {
        let mut best: Option<Rational> = None;
        for &p in &self.post {
            if !self.active[p] {
                continue;
            }
            let ph = &self.phase[p];
            let Some(rp) = &ph.rate else { continue };
            match self.rule {
                Policy::Naive | Policy::MinSatisfaction => {
                    // The pool's dominant resource changes.
                    if let Some(t) = max_breakpoint(&self.usage[p], &ph.u, rp, &vec![true; self.m])
                    {
                        keep_min(&mut best, t);
                    }
                }
                Policy::Hdrf if p != 0 => {
                    // The effective vector's dominant (unsaturated) resource changes.
                    if let Some(t) = max_breakpoint(&ph.v, &ph.dv, rp, &self.unsaturated()) {
                        keep_min(&mut best, t);
                    }
                }
                _ => {}
            }
            if self.rule == Policy::MinSatisfaction && p != 0 {
                // The pool's own satisfaction and its children's minimum cross.
                let g = self.node(p).guaranteed_share();
                let (s, ds) = max_with_slope(&self.usage[p], &ph.u, &vec![true; self.m]);
                let (sigma, dsigma) = (s / g, ds / g);
                let dlam = Rational::from(u64::from(!ph.degenerate)); // 0 when degenerate
                if sigma < ph.lam && dsigma > dlam {
                    keep_min(&mut best, (&ph.lam - &sigma) / (rp * (dsigma - dlam)));
                } else if ph.lam < sigma && dlam > dsigma {
                    keep_min(&mut best, (&sigma - &ph.lam) / (rp * (dlam - dsigma)));
                }
            }
            if !ph.degenerate {
                // A waiting child (or the leaf group) is caught up.
                for &c in &self.pool_children[p] {
                    if self.active[c] && self.phase[c].key > ph.lam {
                        keep_min(&mut best, (&self.phase[c].key - &ph.lam) / rp);
                    }
                }
                if self.active_leaves[p] > 0 && self.ell[p] > ph.lam {
                    keep_min(&mut best, (&self.ell[p] - &ph.lam) / rp);
                }
            }
            if ph.group_grows {
                let list = &self.caps[p];
                let mut at = self.cap_cursor[p];
                while at < list.len() && !self.active[list[at].1] {
                    at += 1;
                }
                self.cap_cursor[p] = at;
                if let Some((key, _)) = list.get(at) {
                    keep_min(&mut best, (key - &self.ell[p]) / rp);
                }
            }
        }
        let u_root = &self.phase[0].u;
        for ((rate, used), saturated) in u_root.iter().zip(&self.usage[0]).zip(&self.saturated) {
            if !saturated && rate.is_positive() {
                keep_min(&mut best, (Rational::ONE - used) / rate);
            }
        }
        best
    }

    fn advance(&mut self, t: &Rational) {
        for &p in &self.post {
            if !self.active[p] {
                continue;
            }
            let ph = &self.phase[p];
            let Some(rp) = &ph.rate else { continue };
            let step = t * rp;
            add_scaled(&mut self.usage[p], &ph.u, Some(&step));
            if ph.group_grows {
                self.ell[p] += &step;
            }
        }
    }

    fn fire_events(&mut self) {
        for j in 0..self.m {
            if !self.saturated[j] && self.usage[0][j] >= Rational::ONE {
                self.saturated[j] = true;
                for k in 0..self.demanders[j].len() {
                    let l = self.demanders[j][k];
                    if self.active[l] {
                        self.block(l);
                    }
                }
            }
        }
        for k in 0..self.post.len() {
            let p = self.post[k];
            if !self.active[p] || !self.phase[p].group_grows || self.phase[p].rate.is_none() {
                continue;
            }
            loop {
                let at = self.cap_cursor[p];
                match self.caps[p].get(at) {
                    Some((key, l)) if !self.active[*l] || *key <= self.ell[p] => {
                        let l = *l;
                        self.cap_cursor[p] += 1;
                        if self.active[l] {
                            self.block(l);
                        }
                    }
                    _ => break,
                }
            }
        }
    }

    /// Stops leaf `l`: fixes its tasks, removes it from its pool's group, and propagates
    /// inactivity (and satisfaction) upwards.
    fn block(&mut self, l: usize) {
        let p = self.parent[l].expect("a leaf has a parent");
        self.active[l] = false;
        let x = &self.ell[p] / &self.scale[l];
        for (j, a) in &self.per_key[l] {
            self.group[p][*j].sub(a);
        }
        self.group_val[p] = None;
        // H-DRF counts every stopped child (at its cap or blocked) with its usage.
        for (j, a) in &self.share[l] {
            self.settled[p][*j].add(&(a * &x));
        }
        self.settled_val[p] = None;
        self.x[l] = x;
        self.active_leaves[p] -= 1;
        let mut q = p;
        loop {
            self.active_children[q] -= 1;
            if self.active_children[q] > 0 {
                break;
            }
            self.active[q] = false;
            let Some(pp) = self.parent[q] else { break };
            for j in 0..self.m {
                self.settled[pp][j].add(&self.usage[q][j]);
            }
            self.settled_val[pp] = None;
            q = pp;
        }
    }
}
