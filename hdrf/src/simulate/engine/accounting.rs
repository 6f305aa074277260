//! Per-node accounting over settled states: time-average shares, minimum in the steady-state
//! window, time below the guarantee, the time series, and the summary at the horizon.

use leontief_solver::Rational;

use super::queue::Kind;
use super::{Engine, Outcome};
use crate::simulate::{NodeSummary, Record, Sample};

/// Per-node accounting over settled states (the state after all events at a time).
#[derive(Clone)]
pub(super) struct Stat {
    pub(super) share: Rational,
    pub(super) below: bool,
    /// Unmet demand in the settled state (for the time series).
    pub(super) unmet: bool,
    pub(super) since: Rational,
    pub(super) integral: Rational,
    pub(super) min_window: Option<Rational>,
    pub(super) below_total: Rational,
    pub(super) below_since: Option<Rational>,
    pub(super) longest: Rational,
}

impl Engine {
    pub(super) fn close(&mut self, v: usize, end: &Rational) {
        let warmup = &self.p.warmup;
        let st = &mut self.stat[v];
        let dt = end - &st.since;
        if dt.is_positive() {
            st.integral += &st.share * &dt;
            if st.below {
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
        self.series.push(Sample {
            time,
            shares,
            unmet_demand,
        });
    }

    /// Records the state after every event at `t`.
    pub(super) fn settle(&mut self, t: &Rational) {
        match &self.p.record {
            Record::Every(dt) => {
                let dt = dt.clone();
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
        let dirty = std::mem::take(&mut self.dirty);
        let mut due: Vec<(usize, Rational)> = Vec::new();
        for &v in &dirty {
            self.is_dirty[v] = false;
            let below = self.below_now(v);
            self.stat[v].unmet = self.ready[v] > 0;
            if self.stat[v].share == self.dom[v] && self.stat[v].below == below {
                continue; // the piece goes on
            }
            self.close(v, t);
            let st = &mut self.stat[v];
            st.share = self.dom[v].clone();
            if below && !st.below {
                st.below_since = Some(t.clone());
                due.push((v, t.clone()));
            } else if !below && st.below {
                if let Some(s0) = st.below_since.take() {
                    let spell = t - &s0;
                    if spell > st.longest {
                        st.longest = spell;
                    }
                }
            }
            st.below = below;
        }
        if let Some(timeout) = self.p.preemption.clone() {
            for (v, since) in due {
                let at = &since + &timeout;
                if at < self.p.horizon {
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
        match &self.p.record {
            Record::Events => self.sample(t.clone()),
            Record::Every(dt) if self.next_sample == *t => {
                let dt = dt.clone();
                self.sample(t.clone());
                self.next_sample += &dt;
            }
            _ => {}
        }
    }

    pub(super) fn finish(mut self) -> Outcome {
        let h = self.p.horizon.clone();
        match &self.p.record {
            Record::Every(dt) => {
                let dt = dt.clone();
                while self.next_sample < h {
                    let at = self.next_sample.clone();
                    self.sample(at);
                    self.next_sample += &dt;
                }
            }
            Record::Events if !self.sampled_zero => self.sample(Rational::ZERO),
            _ => {}
        }
        for v in 0..self.n {
            self.close(v, &h);
            let st = &mut self.stat[v];
            if let Some(s0) = st.below_since.take() {
                let spell = &h - &s0;
                if spell > st.longest {
                    st.longest = spell;
                }
            }
        }
        let nodes = (0..self.n)
            .map(|v| {
                let st = &self.stat[v];
                NodeSummary {
                    final_share: st.share.clone(),
                    final_tasks: self.is_leaf[v].then_some(self.running[v]),
                    time_average_share: &st.integral / &h,
                    min_share_steady: st.min_window.clone().unwrap_or(Rational::ZERO),
                    time_below_guarantee: st.below_total.clone(),
                    longest_below_guarantee: st.longest.clone(),
                    starved: st.longest > self.p.tolerance,
                }
            })
            .collect();
        Outcome {
            started: self.started,
            completed: self.completed,
            preempted: self.preempted,
            events: self.events,
            nodes,
            series: self.series,
        }
    }
}
