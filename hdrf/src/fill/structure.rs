//! The engine's recomputation of a pool: its growth set, usage rate, key slope, its
//! children's rates and its next event.

use leontief_solver::{ExactSum, Rational};

use super::{add_difference, growth_rate, scaled, Kinetic};
use crate::policies::affine::{add_scaled, keep_min};
use crate::policies::hdrf::FluidEffective;
use crate::policies::FluidPool;

impl Kinetic<'_> {
    /// Recomputes every dirty active pool now, children first, and clears the marks.
    pub(super) fn recompute(&mut self) {
        for k in 0..self.post.len() {
            let p = self.post[k];
            if self.dirty[p] {
                self.dirty[p] = false;
                if self.active[p] {
                    self.restructure(p);
                }
            }
        }
    }

    /// Pool `p` now: rebased; its growth set, rates, key, children's relations and next
    /// events recomputed. Its dirty children are done already.
    fn restructure(&mut self, p: usize) {
        self.restructured[p] = self.epoch;
        let cp = self.clock_of(p);
        // The key and the effective vector are recomputed below (the root's are unused).
        self.pools[p].rebase_with(&cp, false);
        let has_group = self.active_leaves[p] > 0;
        let prev_growth = self.pools[p].growth.clone();
        let prev_degenerate = self.pools[p].degenerate;
        let child_keys = self.child_keys(p, &prev_growth, prev_degenerate);
        let (lam, group_in, growth, degenerate) = self.growth(p, &child_keys, has_group);
        let group_grows = group_in && !degenerate;

        // Usage rate u_p by differences: the group's part and every child whose
        // contribution changed.
        let mut u = std::mem::take(&mut self.pools[p].u);
        let group_rate: Option<Vec<Rational>> =
            has_group.then(|| self.group[p].iter_mut().map(ExactSum::value).collect());
        self.update_group_part(p, &mut u, group_rate.as_deref(), group_grows);
        let previous = (prev_growth.as_slice(), prev_degenerate);
        self.update_child_contributions(p, &mut u, &growth, degenerate, previous);

        let inner = Rational::from(u64::from(!degenerate)); // 0 when degenerate
        let effective = (self.effective && p != 0).then(|| {
            let group_rate = group_rate.as_deref();
            self.effective_vector(p, &lam, &child_keys, group_rate, &growth, degenerate)
        });
        let pool = &mut self.pools[p];
        if let Some((v, dv)) = effective {
            (pool.v, pool.dv) = (v, dv);
        }
        pool.lam = lam;
        pool.u = u;
        pool.growth = growth;
        pool.degenerate = degenerate;
        pool.group_grows = group_grows;
        let (key, kappa) = if p == 0 {
            (Rational::ZERO, Rational::ZERO) // the root's key is compared by nobody
        } else {
            self.policy.fluid_key(&self.fluid_pool(p, &inner))
        };
        self.pools[p].key = key;
        self.pools[p].kappa = kappa;

        self.relate_children(p, &cp);
        let own = self.own_next_event(p);
        let mut sub = own.clone();
        for &c in &self.pool_children[p] {
            if self.active[c]
                && let Some(e) = &self.pools[c].sub_next_parent
            {
                keep_min(&mut sub, e.clone());
            }
        }
        let pool = &mut self.pools[p];
        pool.own_next = own;
        pool.sub_next = sub;
    }

    /// Pool `p`'s active children's keys now: a restructured child's is fresh; a child
    /// growing in a non-degenerate phase (of `p`'s previous growth set) has kept its key
    /// equal to `λ_p`; every other child's is constant.
    fn child_keys(
        &mut self,
        p: usize,
        prev_growth: &[usize],
        prev_degenerate: bool,
    ) -> Vec<(usize, Rational)> {
        let mut child_keys: Vec<(usize, Rational)> = Vec::new();
        for k in 0..self.pool_children[p].len() {
            let c = self.pool_children[p][k];
            if !self.active[c] {
                continue;
            }
            let key = if !self.pools[c].rho.is_zero()
                && !prev_degenerate
                && prev_growth.contains(&c)
                && self.restructured[c] != self.epoch
            {
                self.pools[p].lam.clone()
            } else {
                let cc = self.clock_of(c);
                let child = &self.pools[c];
                &child.key + &(&cc - &child.t0) * &child.kappa
            };
            child_keys.push((c, key));
        }
        child_keys
    }

    /// Pool `p`'s level `λ_p` and growth set from its children's keys and its leaf group's
    /// level `ℓ_p` (when `has_group`): the level (the smallest key among its active children
    /// and its leaf group), whether the leaf group is at the level, the growing pool children
    /// (under degenerate growth, only the degenerate ones), and whether a growing child has
    /// zero key slope (degenerate growth).
    fn growth(
        &self,
        p: usize,
        child_keys: &[(usize, Rational)],
        has_group: bool,
    ) -> (Rational, bool, Vec<usize>, bool) {
        let ell = &self.pools[p].ell;
        let (lam, group_in, mut growth) = if self.fifo[p] {
            // Its leaves are wrapped: only pool children, served one at a time, in order.
            let (c, key) = child_keys
                .first()
                .expect("an active pool has an active child");
            (key.clone(), false, vec![*c])
        } else {
            let mut lam: Option<&Rational> = has_group.then_some(ell);
            for (_, key) in child_keys {
                if lam.is_none_or(|l| key < l) {
                    lam = Some(key);
                }
            }
            let lam = lam.expect("an active pool has an active child").clone();
            let group_in = has_group && *ell == lam;
            let growth: Vec<usize> = child_keys
                .iter()
                .filter(|(_, key)| *key == lam)
                .map(|(c, _)| *c)
                .collect();
            (lam, group_in, growth)
        };
        let degenerate = growth.iter().any(|&c| self.pools[c].kappa.is_zero());
        if degenerate {
            // Degenerate children absorb the growth while their siblings stall.
            growth.retain(|&c| self.pools[c].kappa.is_zero());
        }
        (lam, group_in, growth, degenerate)
    }

    /// Brings the leaf group's part of pool `p`'s usage rate `u` to `group_rate` when the
    /// group grows, to zero otherwise.
    fn update_group_part(
        &mut self,
        p: usize,
        u: &mut [Rational],
        group_rate: Option<&[Rational]>,
        group_grows: bool,
    ) {
        let new_group_part = match (group_rate, group_grows) {
            (Some(a), true) => a.to_vec(),
            _ => vec![Rational::ZERO; self.m],
        };
        if new_group_part != self.pools[p].group_part {
            add_difference(u, &new_group_part, &self.pools[p].group_part);
            self.pools[p].group_part = new_group_part;
        }
        self.group_changed[p] = false;
    }

    /// Brings pool `p`'s usage rate `u` up to date with its pool children's contributions
    /// under the new growth set, visiting only the children whose contribution may have
    /// changed (`previous`: the growth set and degeneracy before).
    fn update_child_contributions(
        &mut self,
        p: usize,
        u: &mut [Rational],
        growth: &[usize],
        degenerate: bool,
        (prev_growth, prev_degenerate): (&[usize], bool),
    ) {
        for k in 0..self.pool_children[p].len() {
            let c = self.pool_children[p][k];
            let grows = self.active[c] && growth.contains(&c);
            let was = self.pools[c].contributes;
            let same_role = grows == prev_growth.contains(&c) && degenerate == prev_degenerate;
            if !grows && !was {
                continue;
            }
            if grows && was && same_role && self.restructured[c] != self.epoch {
                continue; // unchanged: not restructured now, same role
            }
            let new: Vec<Rational> = if grows {
                let rate = self.child_rate(c, degenerate);
                scaled(&self.pools[c].u, &rate)
            } else {
                vec![Rational::ZERO; self.m]
            };
            add_difference(u, &new, &self.pools[c].contrib);
            let child = &mut self.pools[c];
            child.contrib = new;
            child.contributes = grows;
        }
    }

    /// Pool `p`'s active children's relations to its clock (now `cp`), and their earliest
    /// events converted to it.
    fn relate_children(&mut self, p: usize, cp: &Rational) {
        for k in 0..self.pool_children[p].len() {
            let c = self.pool_children[p][k];
            if !self.active[c] {
                continue;
            }
            let pool = &self.pools[p];
            let rho = if pool.growth.contains(&c) {
                self.child_rate(c, pool.degenerate)
            } else {
                Rational::ZERO
            };
            let restructured = self.restructured[c] == self.epoch;
            if rho != self.pools[c].rho {
                let cc = self.clock_of(c);
                if rho.is_zero() {
                    // A stopped child's quantities are read as constants from now on.
                    self.pools[c].rebase(&cc);
                }
                let child = &mut self.pools[c];
                child.a = cc;
                child.b = cp.clone();
                child.rho = rho;
            } else if !restructured {
                continue;
            }
            let child = &self.pools[c];
            let converted = child.sub_next.as_ref().and_then(|e| child.to_parent(e));
            self.pools[c].sub_next_parent = converted;
        }
    }

    /// The clock rate of growing child `c` per unit of its parent's clock: `1/κ_c`, or under
    /// degenerate growth `w_c / max_j u_cj` (see [`growth_rate`]).
    fn child_rate(&self, c: usize, degenerate: bool) -> Rational {
        let child = &self.pools[c];
        growth_rate(&child.u, &child.kappa, self.node(c).weight(), degenerate)
    }

    /// H-DRF's effective vector of pool `p` now and its rate per unit of own clock (see
    /// [`FluidEffective`]): its stopped children's usage, its leaf group, its active pool
    /// children's vectors, brought to the current time.
    fn effective_vector(
        &mut self,
        p: usize,
        lam: &Rational,
        child_keys: &[(usize, Rational)],
        group_rate: Option<&[Rational]>,
        growth: &[usize],
        degenerate: bool,
    ) -> (Vec<Rational>, Vec<Rational>) {
        let settled = self.settled[p].iter_mut().map(ExactSum::value).collect();
        let mut sum = FluidEffective::new(settled, lam, degenerate);
        if let Some(a) = group_rate {
            sum.add_leaf_group(a);
        }
        for (c, key) in child_keys {
            let cc = self.clock_of(*c);
            let child = &self.pools[*c];
            let mut vc = child.v.clone();
            if cc != child.t0 {
                add_scaled(&mut vc, &child.dv, Some(&(&cc - &child.t0)));
            }
            let rate = (key == lam && growth.contains(c)).then(|| self.child_rate(*c, degenerate));
            // A fifo pool's children are not levelled: their vectors count as they are.
            let key = if self.fifo[p] { lam } else { key };
            sum.add_child(&vc, &self.pools[*c].dv, key, rate.as_ref());
        }
        sum.finish()
    }

    /// Pool `p` now as its policy's key reads it (`dlam`: the rate of its level).
    fn fluid_pool<'s>(&'s self, p: usize, dlam: &'s Rational) -> FluidPool<'s> {
        let pool = &self.pools[p];
        let (vector, rate) = if self.effective {
            (&pool.v, &pool.dv)
        } else {
            (&pool.usage, &pool.u)
        };
        FluidPool {
            node: self.node(p),
            vector,
            rate,
            lam: &pool.lam,
            dlam,
            saturated: &self.saturated,
        }
    }

    /// Own clock value of pool `p`'s own next event (its quantities are at `t0`, now).
    fn own_next_event(&mut self, p: usize) -> Option<Rational> {
        let pool = &self.pools[p];
        let mut best: Option<Rational> = None;
        let dlam = Rational::from(u64::from(!pool.degenerate)); // 0 when degenerate
        if p != 0 {
            // The policy's key changes its formula (the root's key is used by nobody).
            if let Some(dt) = self.policy.fluid_breakpoint(&self.fluid_pool(p, &dlam)) {
                keep_min(&mut best, dt);
            }
        }
        if !pool.degenerate && !self.fifo[p] {
            // A waiting child (or the leaf group) is caught up; waiting keys are constant.
            for &c in &self.pool_children[p] {
                if self.active[c] && !pool.growth.contains(&c) {
                    let key = &self.pools[c].key;
                    if *key > pool.lam {
                        keep_min(&mut best, key - &pool.lam);
                    }
                }
            }
            if self.active_leaves[p] > 0 && pool.ell > pool.lam {
                keep_min(&mut best, &pool.ell - &pool.lam);
            }
        }
        if pool.group_grows {
            let list = &self.caps[p];
            let mut at = self.cap_cursor[p];
            while at < list.len() && !self.active[list[at].1] {
                at += 1;
            }
            self.cap_cursor[p] = at;
            if let Some((key, _)) = list.get(at) {
                keep_min(&mut best, key - &pool.ell);
            }
        }
        if let Some(room) = &self.room[p] {
            // A resource of the cluster saturates, or a pool's limit binds.
            for (j, room_j) in room.iter().enumerate() {
                if !self.used_up[p][j] && pool.u[j].is_positive() {
                    keep_min(&mut best, (room_j - &pool.usage[j]) / &pool.u[j]);
                }
            }
        }
        best.map(|dt| &pool.t0 + &dt)
    }
}
