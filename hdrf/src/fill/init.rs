//! The engine's initial state: the engine pools (tree pools and wrappers) of a tree under a
//! policy and a setup, with their clocks, rooms and leaf groups at the start of the fill.

use leontief_solver::{ExactSum, Mode, Rational};

use super::{leaf_key, Kinetic, Pool, Setup};
use crate::policies::affine::add_scaled;
use crate::policies::Aggregation;
use crate::Policy;
use crate::{NodeId, Tree};

impl<'a> Kinetic<'a> {
    pub(super) fn new(tree: &'a Tree, policy: Policy, setup: &Setup) -> Self {
        let effective = policy.aggregation() == Aggregation::Effective;
        let n = tree.len();
        let m = tree.num_resources();
        let alive = taking_part(tree, setup);
        let held = |i: usize| held_at_start(setup, i);
        let (mut fifo, node_of, wrapper) = wrappers(tree, setup, &alive);
        let total = node_of.len();
        fifo.resize(total, false);
        let mut alive_all = alive.clone();
        alive_all.resize(total, true);
        let mut room = setup.room.clone();
        room.resize(total, None);
        let mut k = Kinetic {
            tree,
            node_of,
            fifo,
            base_tasks: vec![Rational::ZERO; total],
            policy,
            effective,
            m,
            per_key: vec![Vec::new(); total],
            share: vec![Vec::new(); total],
            scale: vec![Rational::ZERO; total],
            post: (n..total)
                .chain(tree.pools().map(NodeId::index).rev())
                .collect(),
            parent: vec![None; total],
            pool_children: vec![Vec::new(); total],
            demanders: vec![Vec::new(); m],
            caps: vec![Vec::new(); total],
            cap_cursor: vec![0; total],
            active: alive_all,
            active_children: vec![0; total],
            active_leaves: vec![0; total],
            x: vec![Rational::ZERO; total],
            group: vec![Vec::new(); total],
            group_changed: vec![true; total],
            settled: vec![Vec::new(); total],
            saturated: Vec::new(),
            room,
            used_up: Vec::new(),
            pools: vec![Pool::default(); total],
            dirty: vec![false; total],
            now: Rational::ZERO,
            clock: vec![Rational::ZERO; total],
            clock_epoch: vec![0; total],
            restructured: vec![0; total],
            epoch: 1,
        };
        for v in tree.nodes() {
            let i = v.index();
            let node = tree.node(v);
            k.parent[i] = node.parent().map(NodeId::index);
            if let Some(w) = wrapper[i] {
                k.parent[w] = k.parent[i];
                k.parent[i] = Some(w);
            }
            if node.is_leaf() && !alive[i] {
                continue;
            }
            if let Some(demand) = node.demand() {
                let p = k.parent[i].expect("the root is a pool");
                let (shares, c) = leaf_key(demand, tree.capacity(), node, policy);
                let inv_c = c.recip().expect("positive");
                k.per_key[i] = shares.iter().map(|(j, a)| (*j, a * &inv_c)).collect();
                for (j, _) in &shares {
                    k.demanders[*j].push(i);
                }
                let offset = held(i).map(|b| b * &c);
                if let Some(t) = &setup.caps[i] {
                    let key = t * &c;
                    k.caps[p].push((offset.as_ref().map_or(key.clone(), |o| o + &key), i));
                }
                if let Some(w) = wrapper[i] {
                    k.open_pool(w);
                    k.active_children[w] = 1;
                    if let Some(o) = offset {
                        k.pools[w].ell = o;
                    }
                }
                // The leaf's group: its pool's (parents come first in pre-order), or its
                // wrapper's.
                for (j, a) in &k.per_key[i] {
                    k.group[p][*j].add(a);
                }
                if let Some(b) = held(i) {
                    k.base_tasks[i] = b.clone();
                }
                k.share[i] = shares;
                k.scale[i] = c;
                k.active_leaves[p] += 1;
            } else {
                k.open_pool(i);
                for c in node.children() {
                    if !tree.node(c).is_leaf() {
                        k.pool_children[i].push(c.index());
                    } else if let Some(w) = wrapper[c.index()] {
                        k.pool_children[i].push(w);
                    }
                }
                k.active_children[i] = node.children().filter(|c| alive[c.index()]).count();
            }
        }
        if let Some(base) = &setup.base {
            k.add_held(base, &alive);
        }
        for list in &mut k.caps {
            list.sort();
        }
        (k.used_up, k.saturated) = used_up_at_start(setup, &k.room, &k.pools, m);
        k
    }

    /// Opens engine pool `p` at the start: an empty leaf group and stopped children's
    /// usage, zero usage and rates (and effective vector, for H-DRF).
    fn open_pool(&mut self, p: usize) {
        self.group[p] = vec![ExactSum::new(); self.m];
        self.settled[p] = vec![ExactSum::new(); self.m];
        let zeros = vec![Rational::ZERO; self.m];
        let (v, dv) = if self.effective {
            (zeros.clone(), zeros.clone())
        } else {
            (Vec::new(), Vec::new())
        };
        self.pools[p] = Pool {
            usage: zeros.clone(),
            u: zeros.clone(),
            group_part: zeros.clone(),
            contrib: zeros,
            v,
            dv,
            ..Pool::default()
        };
    }

    /// What the leaves hold at the start: in their pools' usage (wrappers included), and,
    /// for H-DRF, in the stopped children's usage of the first living pool.
    /// `base` holds the tasks per leaf, `alive` whether each tree node takes part.
    fn add_held(&mut self, base: &[Rational], alive: &[bool]) {
        let capacity = self.tree.capacity();
        for v in self.tree.leaves() {
            let i = v.index();
            let b = &base[i];
            let Some(d) = self.tree.node(v).demand().filter(|_| b.is_positive()) else {
                continue;
            };
            let held: Vec<Rational> = d
                .iter()
                .zip(capacity)
                .map(|(d, r)| {
                    if d.is_zero() {
                        Rational::ZERO
                    } else {
                        d * b / r
                    }
                })
                .collect();
            let mut at = self.parent[i];
            let mut settled_at = (!alive[i]).then_some(());
            while let Some(q) = at {
                add_scaled(&mut self.pools[q].usage, &held, None);
                if self.effective && settled_at.is_some() && self.active[q] {
                    for (s, h) in self.settled[q].iter_mut().zip(&held) {
                        s.add(h);
                    }
                    settled_at = None;
                }
                at = self.parent[q];
            }
        }
    }
}

/// Who takes part, per tree node: a leaf that demands something, is allowed and has room
/// under its cap; a pool with such a leaf below it (children after parents in reverse
/// order).
fn taking_part(tree: &Tree, setup: &Setup) -> Vec<bool> {
    let mut alive = vec![false; tree.len()];
    for v in tree.nodes().rev() {
        let i = v.index();
        let node = tree.node(v);
        alive[i] = setup.alive[i]
            && if node.is_leaf() {
                !node.is_idle() && setup.caps[i].as_ref().is_none_or(Rational::is_positive)
            } else {
                node.children().any(|c| alive[c.index()])
            };
    }
    alive
}

/// The tasks leaf `i` holds at the start, if any.
fn held_at_start(setup: &Setup, i: usize) -> Option<&Rational> {
    setup
        .base
        .as_ref()
        .map(|b| &b[i])
        .filter(|b| b.is_positive())
}

/// The engine pools beyond the tree's nodes: one wrapper per taking-part leaf that must be
/// alone in its group (under a fifo pool, or holding tasks at the start). Returns, per tree
/// node, whether it is a fifo pool (wrappers are not); per engine pool, the tree node it
/// stands for; and per tree node, its wrapper's engine pool.
fn wrappers(
    tree: &Tree,
    setup: &Setup,
    alive: &[bool],
) -> (Vec<bool>, Vec<usize>, Vec<Option<usize>>) {
    let n = tree.len();
    let fifo: Vec<bool> = (0..n)
        .map(|i| {
            let v = tree.node_id(i).expect("in range");
            !tree.node(v).is_leaf() && tree.node(v).mode() == Mode::Fifo
        })
        .collect();
    let mut node_of: Vec<usize> = (0..n).collect();
    let mut wrapper: Vec<Option<usize>> = vec![None; n];
    for v in tree.leaves() {
        let i = v.index();
        let under_fifo = tree.node(v).parent().is_some_and(|p| fifo[p.index()]);
        if alive[i] && (under_fifo || held_at_start(setup, i).is_some()) {
            wrapper[i] = Some(node_of.len());
            node_of.push(i);
        }
    }
    (fifo, node_of, wrapper)
}

/// Per engine pool and resource, whether its room is used up at the start, and per
/// resource whether the cluster is saturated: a room the start already fills is used up
/// from the start (nothing is, when no leaf holds tasks).
fn used_up_at_start(
    setup: &Setup,
    room: &[Option<Vec<Rational>>],
    pools: &[Pool],
    m: usize,
) -> (Vec<Vec<bool>>, Vec<bool>) {
    let mut used_up = vec![vec![false; m]; room.len()];
    let mut saturated = vec![false; m];
    if setup.base.is_some() {
        for (q, r) in room.iter().enumerate() {
            let Some(r) = r else { continue };
            for (j, rj) in r.iter().enumerate() {
                if pools[q].usage[j] >= *rj {
                    used_up[q][j] = true;
                    if q == 0 {
                        saturated[j] = true;
                    }
                }
            }
        }
    }
    (used_up, saturated)
}
