//! Preemption: a node below its guarantee, with unmet demand, for the timeout kills the
//! youngest tasks of the most over-satisfied leaves to start one of its own (see the
//! [simulator's docs](crate::simulate), "Preemption").

use leontief_solver::Rational;

use super::queue::Kind;
use super::{ancestors, Engine};

impl Engine {
    /// `v` is below its guarantee with unmet demand. With explicit guarantees (every node
    /// but the root): some leaf below it with work to start, within the limits up to `v`,
    /// finds `v` below its guarantee on every resource the leaf demands; otherwise its
    /// dominant share is below its guaranteed share `g_v`.
    pub(super) fn below_now(&self, v: usize) -> bool {
        if let Some(g) = &self.xg[v] {
            let m = self.m;
            return (v..v + self.size[v]).any(|l| {
                self.is_leaf[l]
                    && self.leaf_ready[l]
                    && self.within_limits(l, v)
                    && self.demanded[l]
                        .iter()
                        .all(|&j| self.usage[v * m + j] < g[j])
            });
        }
        self.ready[v] > 0 && self.dom[v] < self.g[v]
    }

    /// Serves the due checks: a node below its guarantee, with unmet demand, since at least
    /// the timeout preempts tasks for its neediest leaf until it reaches its guarantee or no
    /// victim is left (see the [parent module](super)).
    pub(super) fn preempt(&mut self, now: &Rational) {
        let mut checks = std::mem::take(&mut self.checks);
        checks.sort_by_key(|c| c.0);
        let Some(timeout) = self.out.preemption.clone() else {
            return;
        };
        let mut any = false;
        for (v, since) in checks {
            if self.stat[v].below.since.as_ref() != Some(&since) {
                continue; // that spell ended; a later one has its own check
            }
            while self.below_now(v) {
                let Some(leaf) = self.neediest_leaf(v) else {
                    break;
                };
                let Some((machine, victims)) = self.plan(leaf, v) else {
                    let again = now + &timeout;
                    if again < self.out.horizon {
                        self.push(
                            again,
                            Kind::Check {
                                node: v as u32,
                                since: since.clone(),
                            },
                        );
                    }
                    break;
                };
                for id in victims {
                    self.release(id as usize, true);
                    self.out.tasks.preempted += 1;
                }
                self.start(leaf, machine, now, None);
                any = true;
            }
        }
        if any {
            self.schedule(now);
        }
    }

    /// The leaf below `v` with work to start and the smallest satisfaction (first in tree
    /// order on ties).
    pub(super) fn neediest_leaf(&self, v: usize) -> Option<usize> {
        let mut best: Option<(Rational, usize)> = None;
        for l in v..v + self.size[v] {
            if !self.is_leaf[l] || !self.leaf_ready[l] {
                continue;
            }
            let s = &self.dom[l] / &self.g[l];
            if best.as_ref().is_none_or(|(b, _)| s < *b) {
                best = Some((s, l));
            }
        }
        best.map(|(_, l)| l)
    }

    pub(super) fn in_subtree(&self, u: usize, v: usize) -> bool {
        v <= u && u < v + self.size[v]
    }

    /// The machine and the victims (fewest victims; lowest machine on ties) that make room
    /// for one task of `leaf`, serving the starving node `v`.
    pub(super) fn plan(&self, leaf: usize, v: usize) -> Option<(usize, Vec<u32>)> {
        let mut best: Option<(usize, Vec<u32>)> = None;
        for k in 0..self.machines {
            if let Some(victims) = self.plan_on(leaf, v, k)
                && best.as_ref().is_none_or(|b| victims.len() < b.1.len())
            {
                let done = victims.is_empty();
                best = Some((k, victims));
                if done {
                    break;
                }
            }
        }
        best
    }

    /// Greedy victims on machine `k`: repeatedly the youngest task (latest start) of the
    /// leaf outside `v`'s subtree that holds a resource still lacking and whose every node
    /// below the common ancestor with `v` stays at or above its guarantee without the task;
    /// among those, the one whose least satisfied such node is the most satisfied (first in
    /// tree order on ties). `None` when the task cannot be made to fit.
    pub(super) fn plan_on(&self, leaf: usize, v: usize, k: usize) -> Option<Vec<u32>> {
        let m = self.m;
        let mut free: Vec<Rational> = self.free[k * m..(k + 1) * m].to_vec();
        let mut usage: Option<Vec<Rational>> = None;
        let mut taken: Vec<u32> = Vec::new();
        loop {
            let lacking: Vec<usize> = self.demanded[leaf]
                .iter()
                .copied()
                .filter(|&j| self.a[leaf * m + j] > free[j])
                .collect();
            if lacking.is_empty() {
                return Some(taken);
            }
            let use_ = usage.get_or_insert_with(|| self.usage.clone());
            let mut best: Option<(Rational, usize, u32)> = None;
            for &u in &self.leaves {
                if self.in_subtree(u, v) || !self.demanded[u].iter().any(|j| lacking.contains(j)) {
                    continue;
                }
                let youngest = self.leaf_tasks[u]
                    .iter()
                    .copied()
                    .filter(|&id| self.tasks[id as usize].machine as usize == k)
                    .filter(|id| !taken.contains(id))
                    .max_by(|&x, &y| {
                        let (tx, ty) = (&self.tasks[x as usize], &self.tasks[y as usize]);
                        tx.start.cmp(&ty.start).then(x.cmp(&y))
                    });
                let Some(id) = youngest else { continue };
                let mut rho: Option<Rational> = None;
                let mut ok = true;
                let below_common =
                    ancestors(&self.parent, u).take_while(|&x| !self.in_subtree(v, x));
                for x in below_common {
                    let after = (0..m)
                        .map(|j| {
                            let cur = &use_[x * m + j];
                            let a = &self.a[u * m + j];
                            if a.is_zero() {
                                cur.clone()
                            } else {
                                cur - a
                            }
                        })
                        .max()
                        .expect("m >= 1");
                    if after < self.g[x] {
                        ok = false;
                        break;
                    }
                    let before = use_[x * m..(x + 1) * m].iter().max().expect("m >= 1");
                    let sigma = before / &self.g[x];
                    rho = Some(match rho {
                        Some(r) => r.min(sigma),
                        None => sigma,
                    });
                }
                let (true, Some(rho)) = (ok, rho) else {
                    continue;
                };
                if best.as_ref().is_none_or(|(b, _, _)| rho > *b) {
                    best = Some((rho, u, id));
                }
            }
            let (_, u, id) = best?;
            taken.push(id);
            for &j in &self.demanded[u] {
                free[j] += &self.a[u * m + j];
            }
            for x in ancestors(&self.parent, u) {
                for &j in &self.demanded[u] {
                    use_[x * m + j] -= &self.a[u * m + j];
                }
            }
        }
    }
}
