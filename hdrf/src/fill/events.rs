//! The engine's clocks and events: reading and setting a pool's clock, the dirty marks,
//! finding the due events, firing them and blocking a leaf that stops.

use leontief_solver::Rational;

use super::Kinetic;
use crate::NodeView;

impl Kinetic<'_> {
    pub(super) fn node(&self, p: usize) -> NodeView<'_> {
        self.tree
            .node(self.tree.node_id(self.node_of[p]).expect("in range"))
    }

    /// Pool `p`'s clock at the current time.
    pub(super) fn clock_of(&mut self, p: usize) -> Rational {
        if self.clock_epoch[p] == self.epoch {
            return self.clock[p].clone();
        }
        let value = match self.parent[p] {
            None => self.now.clone(),
            Some(q) => {
                let pool = &self.pools[p];
                if pool.rho.is_zero() {
                    pool.a.clone()
                } else {
                    let (a, b, rho) = (pool.a.clone(), pool.b.clone(), pool.rho.clone());
                    let cq = self.clock_of(q);
                    a + (cq - b) * rho
                }
            }
        };
        self.set_clock(p, value.clone());
        value
    }

    fn set_clock(&mut self, p: usize, value: Rational) {
        self.clock[p] = value;
        self.clock_epoch[p] = self.epoch;
    }

    pub(super) fn mark_all_dirty(&mut self) {
        for k in 0..self.post.len() {
            let p = self.post[k];
            self.dirty[p] = true;
        }
    }

    fn mark_dirty_path(&mut self, p: usize) {
        let mut at = Some(p);
        while let Some(q) = at {
            if self.dirty[q] {
                break; // its ancestors are marked already
            }
            self.dirty[q] = true;
            at = self.parent[q];
        }
    }

    /// The pools whose own next event is now, found by descending from the root along the
    /// children whose subtree holds the earliest event.
    pub(super) fn due(&mut self) -> Vec<usize> {
        let now = self.now.clone();
        self.set_clock(0, now);
        let mut due = Vec::new();
        let mut stack = vec![0];
        while let Some(p) = stack.pop() {
            let at = self.clock[p].clone();
            if self.pools[p].own_next.as_ref() == Some(&at) {
                due.push(p);
            }
            for k in 0..self.pool_children[p].len() {
                let c = self.pool_children[p][k];
                if self.active[c] && self.pools[c].sub_next_parent.as_ref() == Some(&at) {
                    let own = self.pools[c].sub_next.clone().expect("has an event");
                    self.set_clock(c, own);
                    stack.push(c);
                }
            }
        }
        due
    }

    /// Applies pool `p`'s events now: saturations (the root), caps in its group; marks it.
    pub(super) fn fire(&mut self, p: usize) {
        if !self.active[p] {
            return;
        }
        let cp = self.clock_of(p);
        self.pools[p].rebase(&cp);
        self.mark_dirty_path(p);
        if let Some(room) = self.room[p].clone() {
            for (j, room_j) in room.iter().enumerate() {
                if self.used_up[p][j] || self.pools[p].usage[j] < *room_j {
                    continue;
                }
                self.used_up[p][j] = true;
                if p == 0 {
                    self.saturated[j] = true;
                }
                for k in 0..self.demanders[j].len() {
                    let l = self.demanders[j][k];
                    if self.active[l] && self.is_below(l, p) {
                        self.block(l);
                    }
                }
                if p == 0 && self.effective {
                    // Every effective share ignores the saturated resource from now on.
                    self.mark_all_dirty();
                }
            }
        }
        if !self.active[p] || !self.pools[p].group_grows {
            return;
        }
        loop {
            let at = self.cap_cursor[p];
            match self.caps[p].get(at) {
                Some((key, l)) if !self.active[*l] || *key <= self.pools[p].ell => {
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

    /// Whether node `l` is in the subtree of pool `p`.
    fn is_below(&self, l: usize, p: usize) -> bool {
        std::iter::successors(Some(l), |&q| self.parent[q]).any(|q| q == p)
    }

    /// Stops leaf `l` now: fixes its tasks, removes it from its pool's group, and propagates
    /// inactivity (and satisfaction) upwards.
    fn block(&mut self, l: usize) {
        let p = self.parent[l].expect("a leaf has a parent");
        let cp = self.clock_of(p);
        self.pools[p].rebase(&cp);
        self.active[l] = false;
        let x = &self.pools[p].ell / &self.scale[l];
        for (j, a) in &self.per_key[l] {
            self.group[p][*j].sub(a);
        }
        self.group_changed[p] = true;
        if self.effective {
            // H-DRF counts every stopped child (at its cap or blocked) with its usage.
            for (j, a) in &self.share[l] {
                self.settled[p][*j].add(&(a * &x));
            }
        }
        self.x[l] = &x - &self.base_tasks[l];
        self.active_leaves[p] -= 1;
        self.mark_dirty_path(p);
        let mut q = p;
        loop {
            self.active_children[q] -= 1;
            if self.active_children[q] > 0 {
                break;
            }
            self.active[q] = false;
            let cq = self.clock_of(q);
            self.pools[q].rebase(&cq);
            let pool = &mut self.pools[q];
            pool.own_next = None;
            pool.sub_next = None;
            pool.sub_next_parent = None;
            let Some(pp) = self.parent[q] else { break };
            if self.effective {
                for j in 0..self.m {
                    self.settled[pp][j].add(&self.pools[q].usage[j]);
                }
            }
            q = pp;
        }
    }
}
