//! Per-node accounting over settled states: time-average shares, minimum in the steady-state
//! window, time below the guarantee, the time series, and the summary at the horizon.

use leontief_solver::Rational;

use super::queue::Kind;
use super::Engine;
use crate::simulate::{NodeSummary, Record, Sample, Simulation};

/// Per-node accounting over settled states (the state after all events at a time).
#[derive(Clone, Default)]
pub(super) struct Stat {
    pub(super) share: Rational,
    /// Below the guarantee with unmet demand.
    pub(super) below: Spell,
    /// Below the guarantee by at least one task (see [`Engine::short_now`]).
    pub(super) short: Spell,
    /// Unmet demand in the settled state (for the time series).
    pub(super) unmet: bool,
    pub(super) since: Rational,
    pub(super) integral: Rational,
    pub(super) min_window: Option<Rational>,
    pub(super) below_total: Rational,
}

/// The spells of a condition: whether it holds, since when, and the longest closed spell.
#[derive(Clone, Default)]
pub(super) struct Spell {
    pub(super) on: bool,
    pub(super) since: Option<Rational>,
    pub(super) longest: Rational,
}

impl Spell {
    /// The condition is `on` from `t`; true when that opens a spell.
    fn set(&mut self, on: bool, t: &Rational) -> bool {
        let opens = on && !self.on;
        if opens {
            self.since = Some(t.clone());
        } else if !on {
            self.close(t);
        }
        self.on = on;
        opens
    }

    /// Ends the open spell, if any, at `t`.
    fn close(&mut self, t: &Rational) {
        if let Some(s0) = self.since.take() {
            let spell = t - &s0;
            if spell > self.longest {
                self.longest = spell;
            }
        }
    }
}

impl Engine {
    /// `v` is at least one task below its guarantee: `g_v - S_v >= t_v`, with `t_v` the
    /// smallest dominant share of one task of a leaf below `v` with work. Less than one task
    /// below, no task `v` could start would keep it within its guarantee, so the gap is the
    /// granularity of tasks, not starvation.
    ///
    /// With explicit guarantees (every node but the root): some leaf below `v` with work to
    /// start could start one task, within the limits up to `v`, and keep `v` within its
    /// guarantee (`U_v + d_l <= G_v` on the resources it demands).
    pub(super) fn short_now(&self, v: usize) -> bool {
        if self.xg[v].is_some() {
            return self.within_guarantee(v, &|l| self.leaf_ready[l] && self.within_limits(l, v));
        }
        self.task_min[v]
            .as_ref()
            .is_some_and(|t| &self.g[v] - &self.dom[v] >= *t)
    }

    pub(super) fn close(&mut self, v: usize, end: &Rational) {
        let warmup = &self.out.warmup;
        let st = &mut self.stat[v];
        let dt = end - &st.since;
        if dt.is_positive() {
            st.integral += &st.share * &dt;
            if st.below.on {
                st.below_total += &dt;
            }
            if end > warmup {
                let better = st.min_window.as_ref().is_none_or(|x| st.share < *x);
                if better {
                    st.min_window = Some(st.share.clone());
                }
            }
        }
        st.since = end.clone();
    }

    pub(super) fn sample(&mut self, time: Rational) {
        let shares = self.stat.iter().map(|s| s.share.clone()).collect();
        let unmet_demand = self.stat.iter().map(|s| s.unmet).collect();
        self.out.series.push(Sample {
            time,
            shares,
            unmet_demand,
        });
    }

    /// Records the samples due before `t`: the grid's below `t`, or the state at 0 when no
    /// event came at 0.
    fn sample_before(&mut self, t: &Rational) {
        match self.record.clone() {
            Record::Every(dt) => {
                while self.next_sample < *t {
                    let at = self.next_sample.clone();
                    self.sample(at);
                    self.next_sample += &dt;
                }
            }
            Record::Events if !self.sampled_zero && t.is_positive() => self.sample(Rational::ZERO),
            _ => {}
        }
        self.sampled_zero = true;
    }

    /// Records the state after every event at `t`.
    pub(super) fn settle(&mut self, t: &Rational) {
        self.sample_before(t);
        let dirty = std::mem::take(&mut self.dirty);
        let mut due: Vec<(usize, Rational)> = Vec::new();
        for &v in &dirty {
            self.is_dirty[v] = false;
            let below = self.below_now(v);
            let short = below && self.short_now(v);
            self.stat[v].unmet = self.ready[v] > 0;
            if self.stat[v].share == self.dom[v]
                && self.stat[v].below.on == below
                && self.stat[v].short.on == short
            {
                continue; // the piece goes on
            }
            self.close(v, t);
            let st = &mut self.stat[v];
            st.share = self.dom[v].clone();
            if st.below.set(below, t) {
                due.push((v, t.clone()));
            }
            st.short.set(short, t);
        }
        if let Some(timeout) = self.out.preemption.clone() {
            for (v, since) in due {
                let at = &since + &timeout;
                if at < self.out.horizon {
                    self.push(
                        at,
                        Kind::Check {
                            node: v as u32,
                            since,
                        },
                    );
                }
            }
        }
        self.dirty = dirty;
        self.dirty.clear();
        match &self.record {
            Record::Events => self.sample(t.clone()),
            Record::Every(dt) if self.next_sample == *t => {
                let dt = dt.clone();
                self.sample(t.clone());
                self.next_sample += &dt;
            }
            _ => {}
        }
    }

    pub(super) fn finish(mut self) -> Simulation {
        let h = self.out.horizon.clone();
        self.sample_before(&h);
        for v in 0..self.stat.len() {
            self.close(v, &h);
            self.stat[v].below.close(&h);
            self.stat[v].short.close(&h);
        }
        self.out.nodes = (0..self.stat.len())
            .map(|v| {
                let st = &self.stat[v];
                NodeSummary {
                    final_share: st.share.clone(),
                    final_tasks: self.is_leaf[v].then_some(self.running[v]),
                    time_average_share: &st.integral / &h,
                    min_share_steady: st.min_window.clone().unwrap_or(Rational::ZERO),
                    time_below_guarantee: st.below_total.clone(),
                    longest_below_guarantee: st.below.longest.clone(),
                    longest_below_by_a_task: st.short.longest.clone(),
                    starved: st.short.longest > self.out.starvation_tolerance,
                }
            })
            .collect();
        self.out
    }
}
