//! The policy's keys and the scheduling rounds: keys kept along the path of the leaf that
//! changed (H-DRF's recomputed per decision), the descent from the root, skip-and-continue.

use leontief_solver::Rational;

use super::{Engine, NONE};
use crate::policies::hdrf::{effective_vector, Child};
use crate::policies::Aggregation;

impl Engine {
    /// Marks `leaf` blocked for this round (its task fits nowhere) and updates its path.
    /// Returns where the next descent may start: the lowest ancestor whose activity and key
    /// did not change (every choice above it is unchanged), or `NONE` when the root is no
    /// longer active.
    pub(super) fn block(&mut self, leaf: usize) -> usize {
        let follow = self.keys_follow_activity();
        let mut restart = NONE;
        let mut v = leaf;
        while v != NONE {
            let was_active = self.active(v);
            if self.blocked_stamp[v] != self.round {
                self.blocked_stamp[v] = self.round;
                self.blocked[v] = 0;
            }
            self.blocked[v] += 1;
            if restart == NONE {
                let changed = follow && self.recompute_key(v);
                if self.active(v) == was_active && !changed {
                    restart = v;
                }
            }
            v = self.parent[v];
        }
        self.blocked_list.push(leaf);
        if !self.active(0) {
            NONE
        } else if restart == NONE {
            0
        } else {
            restart
        }
    }

    /// The policy's key of `v` from its own aggregates and its children's keys (H-DRF's keys
    /// are computed per decision instead, see [`Engine::schedule_hdrf`]). Whether it changed.
    pub(super) fn recompute_key(&mut self, v: usize) -> bool {
        let leaf = self.is_leaf[v];
        let Some(rule) = self.rule else {
            // FIFO: a leaf's oldest pending submission; a pool is transparent.
            let k = if leaf {
                self.pending[v].head().cloned()
            } else {
                self.min_active_child(v)
            };
            let Some(k) = k else { return false };
            return self.set_key(v, k);
        };
        let k = match rule.aggregation() {
            Aggregation::Effective => return false,
            _ if leaf => &self.dom[v] * &self.inv_norm[v],
            Aggregation::Flattened => match self.min_active_child(v) {
                Some(c) => c,
                None => return false,
            },
            Aggregation::Usage => {
                let own = &self.dom[v] * &self.inv_norm[v];
                let lam = if rule.key_follows_activity() {
                    self.min_active_child(v)
                } else {
                    None
                };
                rule.pool_key(own, lam.as_ref())
            }
        };
        self.set_key(v, k)
    }

    pub(super) fn set_key(&mut self, v: usize, k: Rational) -> bool {
        if self.key[v] == k {
            return false;
        }
        self.key[v] = k;
        true
    }

    /// Whether a pool's key depends on which of its children are active (FIFO's does).
    pub(super) fn keys_follow_activity(&self) -> bool {
        self.rule.is_none_or(|r| r.key_follows_activity())
    }

    pub(super) fn min_active_child(&self, v: usize) -> Option<Rational> {
        self.children[v]
            .iter()
            .filter(|&&c| self.active(c))
            .map(|&c| &self.key[c])
            .min()
            .cloned()
    }

    /// One scheduling round at time `now`: start tasks by the policy until nothing fits.
    pub(super) fn schedule(&mut self, now: &Rational) {
        self.round += 1;
        // Leaves blocked in the last round may fit again: their pools' keys change.
        let blocked = std::mem::take(&mut self.blocked_list);
        if self.keys_follow_activity() {
            for &leaf in &blocked {
                let mut v = leaf;
                while v != NONE {
                    self.recompute_key(v);
                    v = self.parent[v];
                }
            }
        }
        self.blocked_list = blocked;
        self.blocked_list.clear();
        if self
            .rule
            .is_some_and(|r| r.aggregation() == Aggregation::Effective)
        {
            return self.schedule_hdrf(now);
        }
        // A leaf reached by the descent whose task fits nowhere is blocked for the round
        // (resources only shrink within a round) and the descent starts again, from the
        // lowest ancestor whose choices may have changed. For these keys that is the same
        // choice as checking every leaf before each decision.
        let mut from = if self.active(0) { 0 } else { NONE };
        while from != NONE {
            let mut v = from;
            while !self.is_leaf[v] {
                v = self.pick(v, &|c| self.active(c));
            }
            from = match self.fit(v) {
                Some(machine) => {
                    self.start(v, machine, now, None);
                    if self.active(0) {
                        0
                    } else {
                        NONE
                    }
                }
                None => self.block(v),
            };
        }
    }

    /// H-DRF: every decision recomputes blocking (eagerly, as the tests'
    /// `tests/integration/common/discrete.rs` does) and
    /// the effective vectors bottom-up: `O(N·m + L·K·m)` per task started.
    pub(super) fn schedule_hdrf(&mut self, now: &Rational) {
        let (n, m) = (self.parent.len(), self.m);
        let rule = self.rule.expect("H-DRF is a tree policy");
        // 0 satisfied (no pending work or at its cap), 1 blocked, 2 active.
        let mut status = vec![0u8; n];
        let mut place = vec![NONE; n];
        let mut saturated = vec![false; m];
        loop {
            saturated.iter_mut().for_each(|s| *s = false);
            for i in 0..self.leaves.len() {
                let l = self.leaves[i];
                status[l] = if !self.leaf_ready[l] {
                    0
                } else if let Some(k) = self.fit(l) {
                    place[l] = k;
                    2
                } else {
                    for &j in &self.demanded[l] {
                        let x = &self.a[l * m + j];
                        if (0..self.machines).all(|k| *x > self.free[k * m + j]) {
                            saturated[j] = true;
                        }
                    }
                    1
                };
            }
            for v in (0..n).rev() {
                if self.is_leaf[v] {
                    if status[v] == 2 {
                        for j in 0..m {
                            self.eff[v * m + j] = self.usage[v * m + j].clone();
                        }
                        self.key[v] = &self.dom[v] * &self.inv_norm[v];
                    }
                    continue;
                }
                let kids = &self.children[v];
                status[v] = if kids.iter().any(|&c| status[c] == 2) {
                    2
                } else if kids.iter().all(|&c| status[c] == 0) {
                    0
                } else {
                    1
                };
                if status[v] != 2 {
                    continue;
                }
                let (key, eff, usage, status) = (&self.key, &self.eff, &self.usage, &status);
                let children = kids.iter().map(move |&c| {
                    if status[c] == 2 {
                        Child::Active {
                            key: &key[c],
                            vector: &eff[c * m..(c + 1) * m],
                        }
                    } else {
                        // At its cap, without work or blocked: counted as it is.
                        Child::Stopped(&usage[c * m..(c + 1) * m])
                    }
                });
                let (out, e) = effective_vector(children, &saturated);
                self.key[v] = rule.pool_key(e * &self.inv_norm[v], None);
                for (j, o) in out.into_iter().enumerate() {
                    self.eff[v * m + j] = o;
                }
            }
            if status[0] != 2 {
                return;
            }
            let mut v = 0;
            while !self.is_leaf[v] {
                v = self.pick(v, &|c| status[c] == 2);
            }
            self.start(v, place[v], now, None);
        }
    }
}
