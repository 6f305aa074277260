//! Knife-edge strata: the extremes of a metric sit where the answer's structure changes — a
//! resource saturated at zero price, a lie that makes a second resource saturate exactly —
//! and a random draw lands there with probability 0 (docs/explore.md §5.1).
//!
//! Four strata; the first two are searched inside each evaluation of the lie metrics
//! (`sp-gain`, `gsp-gain`):
//!
//! - **The tightened instance.** For an exact truthful answer `x`, the same instance with
//!   every resource `j` whose load `L_j = Σ_i x_i d_ij` is positive and below `R_j` cut to
//!   `R_j := L_j`. CEEI's answer stays the same (a slack resource has price 0, and a
//!   saturated resource may keep price 0), but `j` is now saturated: the knife edge on
//!   which a liar's extra demand for `j` moves the prices. DRF's answer may change (its
//!   dominant shares are measured against the new capacities). Either way the answer on
//!   the tightened instance is recomputed, never assumed.
//! - **Lie lines.** For a base instance (the instance, or the tightened one), every user
//!   `i` with tasks and every resource `k` saturated in the base's answer (in use, for an
//!   approximate answer), the
//!   one-parameter family of reports
//!   `d'_i(t) = d_i + t e_k`, `t ∈ [0, T]` with `T = 2 μ_i R_k` (twice the liar's dominant
//!   share of `k`). The value is piecewise in `t` (each piece one support of the lying
//!   answer); its maximum is at a breakpoint or a stationary point of a piece. Every line
//!   is screened at `t = T/16` and `T/4`; the best [`REFINED_LINES`] lines whose screened
//!   value beats the truth's 1 are then maximized by [`golden_max`]: golden-section steps whose probes are the simplest
//!   rationals near the golden points, then the simplest rational of the last bracket —
//!   which is the breakpoint itself when the breakpoint is a rational of small denominator
//!   (as `n / (2n − 1)` is).
//!
//! - **Ties of dominant shares** ([`tie_line`]). For user `i` with dominant resource `a`
//!   (largest share `d_ia / R_a`) and second resource `b` (the largest share among its other
//!   positive entries), the line `d_ib(t) = d_ib + t (d_ia R_b / R_a − d_ib)`, `t ∈ [0, 2]`:
//!   at `t = 1` the two shares tie and past it `b` dominates, so a small lie or change
//!   switches the resource that measures the user (DRF's level, the bottleneck that freezes
//!   it). The instance at `t = 1` is the stratum.
//! - **Binding caps** ([`cap_line`], runs that draw caps): for user `i` with tasks `x_i > 0`
//!   under an exact answer and no cap at or below them, the line `cap_i(t) = t x_i`,
//!   `t ∈ [1/2, 3/2]`: at `t = 1` the cap just binds, the knife edge between a user frozen by
//!   its cap and one frozen by a resource.
//!
//! With [`Knife::All`], the lie metrics search the lie lines of every stratum instance too
//! (each line at its edge `t = 1`): their lines are screened together, at `T/4` alone, and
//! the best [`REFINED_LINES`] of them refined, so the strata add one answer per instance,
//! one probe per line and one refinement. The other metrics ([`instance_strata`]: the metrics that
//! take no scenario, `pm-loss`, `rm-loss`) carry the best scenario of the evaluation onto the
//! tightened instance and onto every stratum instance (an answer and a measurement each),
//! and when an edge beats the instance's own value, the best one's line is optimized along
//! `t` by [`golden_max`]: the value is piecewise in `t` with a kink at the edge, a rational
//! of denominator 1 that the final probe hits exactly. They do so only in a round's first
//! local tasks, as many as the elite pool holds (one restart from each elite when it is
//! full), so that sampling keeps its pace.
//!
//! Every probe is one scenario of the evaluation's budget ([`Ctx::spent`]), exact and
//! re-derived as any other; the strata draw nothing from the random stream, so an
//! evaluation stays a function of its instance and its stream. They take the place of as
//! many steps of the metric's climb, so an evaluation costs more than without them only
//! when they alone take more scenarios than the climb has steps; the lies tried before
//! them are `search`'s own (the same lists from the same stream). [`Knife`] turns them off
//! (`off`) or keeps the first two alone (`tightened`).

use leontief_solver::properties::Scenario;
use leontief_solver::{Allocation, Instance, Mechanism, Rational};

use super::local::q;
use super::metric::{Ctx, Direction, Evaluation, Metric, Subject};

/// Lines refined by golden-section search per base instance (after screening).
pub const REFINED_LINES: usize = 2;

/// Probes of one golden-section search (the last one at the simplest rational of the
/// final bracket).
pub const GOLDEN_PROBES: usize = 20;

pub use crate::prove::witness::simplest_between;

/// The simplest rational within `w/32` of `x`, kept strictly inside `(a, b)` (`w = b − a`;
/// `x` itself when the window holds nothing simpler inside).
fn snap(x: &Rational, a: &Rational, b: &Rational) -> Rational {
    let w = b - a;
    let r = &w * &q(1, 32);
    let lo = (x - &r).max(a.clone());
    let hi = (x + &r).min(b.clone());
    let s = simplest_between(&lo, &hi);
    if s > *a && s < *b {
        s
    } else {
        x.clone()
    }
}

/// The point at `fraction` of `[a, b]`, snapped ([`snap`]).
fn at(a: &Rational, b: &Rational, fraction: &Rational) -> Rational {
    let x = a + &(&(b - a) * fraction);
    snap(&x, a, b)
}

/// Maximizes `f` over the rationals of `[lo, hi]` with at most `probes` calls:
/// golden-section steps (the bracket keeps its best interior point and probes the mirror
/// image of it, snapped to a simple rational), then one probe at the simplest rational of
/// the last bracket. `f` returns the objective of a probe (`None`: no value, below every
/// value); it keeps the best probe itself. For a unimodal `f` the last bracket holds the
/// maximizer; a maximizer at a kink of small denominator is then probed exactly.
pub fn golden_max(
    lo: &Rational,
    hi: &Rational,
    probes: usize,
    f: &mut dyn FnMut(&Rational) -> Option<Rational>,
) {
    if probes == 0 || lo >= hi {
        return;
    }
    // 0.382 and 0.618 to three places; snapping moves the probes anyway.
    let (near, far) = (q(382, 1000), q(618, 1000));
    let mut left = probes - 1; // the last probe is the final snap
    if left < 2 {
        f(&simplest_between(lo, hi));
        return;
    }
    // The bracket's ends and its two interior points (lower, upper) with their values.
    let mut ends = [lo.clone(), hi.clone()];
    let probe_pair = |ends: &[Rational; 2], f: &mut dyn FnMut(&Rational) -> Option<Rational>| {
        let c = at(&ends[0], &ends[1], &near);
        let d = at(&ends[0], &ends[1], &far);
        let (fc, fd) = (f(&c), f(&d));
        [(c, fc), (d, fd)]
    };
    let mut inner = probe_pair(&ends, f);
    left -= 2;
    while left > 0 && inner[0].0 < inner[1].0 {
        // One step, the same on either side: keep the better interior point (the lower on
        // a tie), move the bracket's end on the other side to the worse one, and probe the
        // mirror image of the kept point on the kept side.
        let keep = usize::from(inner[0].1 < inner[1].1);
        let drop = 1 - keep;
        ends[drop] = inner[drop].0.clone();
        inner[drop] = inner[keep].clone();
        let kept = &inner[keep].0;
        let m = snap(&(&(&ends[0] + &ends[1]) - kept), &ends[0], &ends[1]);
        let on_kept_side = if keep == 0 { m < *kept } else { m > *kept };
        if on_kept_side && well_placed(kept, &ends[0], &ends[1]) {
            let fm = f(&m);
            inner[keep] = (m, fm);
            left -= 1;
        } else if left >= 2 {
            inner = probe_pair(&ends, f);
            left -= 2;
        } else {
            break;
        }
    }
    // The last bracket: around the better interior point.
    let (s, e) = if inner[0].1 >= inner[1].1 {
        (&ends[0], &inner[1].0)
    } else {
        (&inner[0].0, &ends[1])
    };
    f(&simplest_between(s, e));
}

/// Whether `x` lies in the middle of `[a, b]` (between 1/5 and 4/5 of it): a kept point
/// that close to an end would make the mirror step shrink the bracket too little.
fn well_placed(x: &Rational, a: &Rational, b: &Rational) -> bool {
    let w = b - a;
    let t = &(x - a) / &w;
    t >= q(1, 5) && t <= q(4, 5)
}

/// The instance with every resource whose load under the exact answer `x` is positive and
/// below its capacity cut to that load (the tightened instance of the module docs); `None`
/// for an approximate answer or when no resource is slack.
pub fn tightened(instance: &Instance, x: &Allocation) -> Option<Instance> {
    if x.tolerance.is_some() {
        return None;
    }
    let load = x.consumption(instance);
    let mut capacity = instance.capacity().to_vec();
    let mut cut = false;
    for (c, l) in capacity.iter_mut().zip(load) {
        if l.is_positive() && l < *c {
            *c = l;
            cut = true;
        }
    }
    cut.then(|| instance.with_capacity(capacity).ok()).flatten()
}

leontief_solver::name_enum! {
    #[unknown("--knife", "knife-edge strata")]
    /// Which knife-edge strata an evaluation searches (`--knife`). Names `off`, `tightened`,
    /// `all`.
    pub enum Knife {
        /// None: the search's scenarios and the climb alone.
        Off,
        /// The lie lines of the lie metrics on the instance and its tightened instance.
        Tightened,
        /// Those, the tie and binding-cap strata of the lie metrics, and every stratum of the
        /// other metrics (module docs).
        All,
    }
}

/// A one-parameter family of instances through a knife edge, which it meets at `t = 1`
/// (module docs): the tie line of a user's two largest shares, or the cap line of a user's
/// truthful allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StratumLine {
    /// The user whose demand or cap moves.
    pub user: usize,
    /// What moves.
    pub kind: StratumKind,
}

/// What a [`StratumLine`] moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StratumKind {
    /// `d_user,resource(t) = from + t (to − from)`: at `t = 1` the share of `resource`
    /// equals the user's dominant share; past it `resource` is the dominant one.
    Tie {
        /// The user's second resource (by share).
        resource: usize,
        /// Its demand in the instance.
        from: Rational,
        /// The demand that ties its share with the dominant one.
        to: Rational,
    },
    /// The user's cap set to `t x_user`: at `t = 1` it just binds.
    Cap {
        /// The user's truthful task count `x_user`.
        tasks: Rational,
    },
}

impl StratumLine {
    /// The parameter's range: `[0, 2]` for a tie (from the instance to the far side of the
    /// tie), `[1/2, 3/2]` for a cap (a cap of 0 would remove the user).
    pub fn range(&self) -> (Rational, Rational) {
        match self.kind {
            StratumKind::Tie { .. } => (Rational::ZERO, Rational::from(2)),
            StratumKind::Cap { .. } => (q(1, 2), q(3, 2)),
        }
    }

    /// The instance at `t`; `None` when it is not an instance (a demand of all zeros).
    pub fn at(&self, instance: &Instance, t: &Rational) -> Option<Instance> {
        match &self.kind {
            StratumKind::Tie { resource, from, to } => {
                let mut d = instance.users()[self.user].demand.clone();
                d[*resource] = from + &(t * &(to - from));
                instance.with_demand(self.user, d).ok()
            }
            StratumKind::Cap { tasks } => {
                let mut users = instance.users().to_vec();
                users[self.user].cap = Some(t * tasks);
                instance.with_users(users).ok()
            }
        }
    }
}

/// The tie line of user `i` (module docs): its dominant resource `a` (largest share
/// `d_ia / R_a`, the first on equal shares) and its second `b` (the largest share among its
/// other positive entries), `d_ib` moving to `d_ia R_b / R_a`; `None` with fewer than two
/// positive entries or when the two shares already tie.
pub fn tie_line(instance: &Instance, i: usize) -> Option<StratumLine> {
    let d = &instance.users()[i].demand;
    let r = instance.capacity();
    let share = |j: usize| &d[j] / &r[j];
    // The largest share, the first index among equals.
    let largest = |js: &mut dyn Iterator<Item = usize>| {
        js.map(|j| (share(j), j))
            .reduce(|x, y| if y.0 > x.0 { y } else { x })
    };
    let positive = || (0..d.len()).filter(|&j| d[j].is_positive());
    let (top, a) = largest(&mut positive())?;
    let (second, b) = largest(&mut positive().filter(|&j| j != a))?;
    if second == top {
        return None;
    }
    Some(StratumLine {
        user: i,
        kind: StratumKind::Tie {
            resource: b,
            from: d[b].clone(),
            to: &top * &r[b],
        },
    })
}

/// The cap line of user `i` under the exact answer `x` (module docs): its cap set to
/// `t x_i`; `None` for an approximate answer, a user without tasks, or one whose cap already
/// binds.
pub fn cap_line(instance: &Instance, x: &Allocation, i: usize) -> Option<StratumLine> {
    let tasks = &x.tasks[i];
    if x.tolerance.is_some() || !tasks.is_positive() {
        return None;
    }
    if instance.users()[i].cap.as_ref().is_some_and(|c| c <= tasks) {
        return None;
    }
    Some(StratumLine {
        user: i,
        kind: StratumKind::Cap {
            tasks: tasks.clone(),
        },
    })
}

/// The stratum lines of `instance` under its exact answer `x`: every user's tie line, then,
/// when `caps` (the run draws caps), every user's cap line.
pub fn stratum_lines(instance: &Instance, x: &Allocation, caps: bool) -> Vec<StratumLine> {
    let n = instance.num_users();
    let ties = (0..n).filter_map(|i| tie_line(instance, i));
    let capped = (0..n)
        .filter(|_| caps)
        .filter_map(|i| cap_line(instance, x, i));
    ties.chain(capped).collect()
}

/// One lie line: user `user` of base `base` reports `d_user + t e_resource` for `t` in
/// `[0, end]`.
struct LieLine {
    base: usize,
    user: usize,
    resource: usize,
    end: Rational,
}

/// The knife-edge lies of a lie metric (module docs) on `instance`, its tightened instance
/// and (with [`Knife::All`]) its tie and binding-cap instances, each probe kept in `best`
/// when it beats it ([`Subject::try_scenario`]). Maximizing metrics only (both lie metrics
/// are).
pub(crate) fn lie_strata(
    metric: &dyn Metric,
    on: &Subject,
    ctx: &mut Ctx,
    best: &mut Option<Evaluation>,
) {
    let (mechanism, instance, truth) = (on.mechanism, on.instance, on.truth);
    debug_assert_eq!(metric.direction(), Direction::Max);
    if ctx.cfg.knife == Knife::Off {
        return;
    }
    let base = [(instance.clone(), truth.clone())];
    lie_lines(metric, mechanism, &base, &SCREEN, ctx, best);
    if let Some(tight) = tightened(instance, truth)
        && let Some(x) = ctx.scenario(|_| mechanism.allocate(&tight))
    {
        lie_lines(metric, mechanism, &[(tight, x)], &SCREEN, ctx, best);
    }
    if ctx.cfg.knife != Knife::All || truth.tolerance.is_some() {
        return;
    }
    // The tie and binding-cap instances (each line at its knife edge, t = 1), screened
    // together: their best lines share one refinement.
    let mut bases = Vec::new();
    for line in stratum_lines(instance, truth, ctx.cfg.run.generator.caps) {
        let Some(edge) = line.at(instance, &Rational::ONE) else {
            continue;
        };
        match ctx.scenario(|_| mechanism.allocate(&edge)) {
            Some(x) => bases.push((edge, x)),
            None if ctx.spent() => return,
            None => {}
        }
    }
    lie_lines(metric, mechanism, &bases, &SCREEN[1..], ctx, best);
}

/// Where a lie line is screened, as fractions `(p, q)` of its end `T`: `T/16` and `T/4`.
/// The stratum instances' lines are screened at `T/4` alone (there are more of them).
const SCREEN: [(i128, i128); 2] = [(1, 16), (1, 4)];

/// Screens every lie line of every base `(instance, answer)` at the fractions `screen` of
/// its end and refines the best ones (module docs).
fn lie_lines(
    metric: &dyn Metric,
    mechanism: &dyn Mechanism,
    bases: &[(Instance, Allocation)],
    screen: &[(i128, i128)],
    ctx: &mut Ctx,
    best: &mut Option<Evaluation>,
) {
    let mut lines: Vec<LieLine> = Vec::new();
    for (b, (instance, truth)) in bases.iter().enumerate() {
        // Saturated resources only: extra demand on a slack one changes nothing until it
        // closes the slack, and the tightened instance starts there. An approximate answer
        // cannot tell saturated from nearly so: every resource in use.
        let saturated = match truth.tolerance {
            None => truth.saturated(instance),
            Some(_) => {
                let load = truth.consumption(instance);
                (0..load.len()).filter(|&j| load[j].is_positive()).collect()
            }
        };
        for i in (0..instance.num_users()).filter(|&i| truth.tasks[i].is_positive()) {
            let mu = instance.task_dominant_share(i);
            for &k in &saturated {
                lines.push(LieLine {
                    base: b,
                    user: i,
                    resource: k,
                    end: &(&mu * &instance.capacity()[k]) * &Rational::from(2),
                });
            }
        }
    }
    let probe = |line: &LieLine, t: &Rational, ctx: &mut Ctx, best: &mut Option<Evaluation>| {
        let (instance, truth) = &bases[line.base];
        let mut d = instance.users()[line.user].demand.clone();
        d[line.resource] = &d[line.resource] + t;
        let on = Subject {
            mechanism,
            instance,
            truth,
        };
        let lie = Scenario::Lies(vec![(line.user, d)]);
        on.try_scenario(metric, lie, ctx, best).map(|e| e.lo)
    };
    let mut screened: Vec<(Option<Rational>, usize)> = Vec::with_capacity(lines.len());
    for (n, line) in lines.iter().enumerate() {
        let mut top = None;
        for &(p, d) in screen {
            if ctx.spent() {
                return;
            }
            top = top.max(probe(line, &(&line.end * &q(p, d)), ctx, best));
        }
        screened.push((top, n));
    }
    // The best screened lines first; ties by line order (stable sort). A line no better
    // than the truth's value 1 shows no slope to climb: it is not refined.
    screened.sort_by(|x, y| y.0.cmp(&x.0));
    for (top, n) in screened.iter().take(REFINED_LINES) {
        if top.as_ref().is_none_or(|v| *v <= Rational::ONE) {
            break;
        }
        let line = &lines[*n];
        golden_max(&Rational::ZERO, &line.end, GOLDEN_PROBES, &mut |t| {
            probe(line, t, ctx, best)
        });
    }
}

/// The knife-edge instances of a metric that is not a lie metric (module docs), with
/// [`Knife::All`] in a local task: the best scenario found on `instance` (the instance
/// alone for the metrics that take none; a departure, a joiner or a growth otherwise)
/// carried onto the tightened instance and onto every stratum line's edge (`t = 1`), each
/// edge answered (one scenario) and measured (one more). The line whose edge beats
/// `instance`'s own value most is then optimized along its parameter by [`golden_max`]
/// ([`GOLDEN_PROBES`] instances, two scenarios each).
pub(crate) fn instance_strata(
    metric: &dyn Metric,
    on: &Subject,
    ctx: &mut Ctx,
    best: &mut Option<Evaluation>,
) {
    let (mechanism, instance, truth) = (on.mechanism, on.instance, on.truth);
    if ctx.cfg.knife != Knife::All || !ctx.instance_strata || truth.tolerance.is_some() {
        return;
    }
    let Some(found) = best.as_ref() else {
        return;
    };
    let scenario = found.candidate.scenario.clone();
    let direction = metric.direction();
    // The objective golden_max maximizes: the metric's certified worst end, negated for a
    // minimized metric.
    let objective = move |e: &Evaluation| match direction {
        Direction::Max => e.lo.clone(),
        Direction::Min => -e.hi.clone(),
    };
    let own = objective(found);
    // Measures one knife-edge instance on the scenario; its objective.
    let measure = |edge: Instance, ctx: &mut Ctx, best: &mut Option<Evaluation>| {
        let x = ctx.scenario(|_| mechanism.allocate(&edge))?;
        let on = Subject {
            mechanism,
            instance: &edge,
            truth: &x,
        };
        on.try_scenario(metric, scenario.clone(), ctx, best)
            .map(|e| objective(&e))
    };
    if let Some(tight) = tightened(instance, truth) {
        measure(tight, ctx, best);
    }
    let mut top: Option<(Rational, StratumLine)> = None;
    for line in stratum_lines(instance, truth, ctx.cfg.run.generator.caps) {
        if ctx.spent() {
            return;
        }
        let Some(edge) = line.at(instance, &Rational::ONE) else {
            continue;
        };
        if let Some(v) = measure(edge, ctx, best)
            && top.as_ref().is_none_or(|(t, _)| v > *t)
        {
            top = Some((v, line));
        }
    }
    // Refined only past the instance's own value: an edge no better shows no slope.
    let Some((_, line)) = top.filter(|(v, _)| *v > own) else {
        return;
    };
    let (lo, hi) = line.range();
    golden_max(&lo, &hi, GOLDEN_PROBES, &mut |t| {
        measure(line.at(instance, t)?, ctx, best)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplest_between_walks_the_stern_brocot_tree() {
        // By hand: between 0.66 and 0.67 the fractions of denominator <= 2 are 0, 1/2, 1,
        // outside; 2/3 = 0.666... is inside.
        assert_eq!(simplest_between(&q(66, 100), &q(67, 100)), q(2, 3));
        // [4/7 − 1/1000, 4/7 + 1/1000]: no denominator below 7 comes within 1/1000 of 4/7
        // (the nearest, 1/2 and 3/5, are 1/14 and 1/35 away).
        let x = q(4, 7);
        let e = q(1, 1000);
        assert_eq!(simplest_between(&(&x - &e), &(&x + &e)), x);
        assert_eq!(simplest_between(&Rational::ZERO, &q(1, 2)), Rational::ZERO);
        assert_eq!(simplest_between(&q(7, 3), &q(7, 3)), q(7, 3));
    }

    fn r(x: &str) -> Rational {
        x.parse().unwrap()
    }

    #[test]
    fn the_tie_line_raises_the_second_share_to_the_dominant_one() {
        use leontief_solver::User;
        // Capacities (4, 2, 1). u1 ⟨2, 1/2, 0⟩: shares 1/2, 1/4 (resource 3 unused), so
        // resource 1 dominates and resource 2 is second; the tie sets d_12 = (1/2) · 2 = 1:
        // ⟨2, 1, 0⟩, both shares 1/2. u2 ⟨1, 1, 0⟩: shares 1/4, 1/2, resource 2 dominates;
        // d_21 = (1/2) · 4 = 2: ⟨2, 1, 0⟩. u3 ⟨0, 0, 1⟩ has one positive entry and u4
        // ⟨2, 1, 0⟩ already ties: no line.
        let inst = Instance::new(
            vec![4.into(), 2.into(), 1.into()],
            vec![
                User::new("u1", [r("2"), r("1/2"), r("0")]),
                User::new("u2", [1, 1, 0]),
                User::new("u3", [0, 0, 1]),
                User::new("u4", [2, 1, 0]),
            ],
        )
        .unwrap();
        let tie = |i| {
            let line = tie_line(&inst, i)?;
            Some(line.at(&inst, &Rational::ONE)?.users()[i].demand.clone())
        };
        let tied = vec![r("2"), r("1"), r("0")];
        assert_eq!(tie(0), Some(tied.clone()));
        assert_eq!(tie(1), Some(tied));
        assert_eq!((tie(2), tie(3)), (None, None));
        // Past the edge the second resource dominates: at t = 2, d_12 = 1/2 + 2 (1 − 1/2)
        // = 3/2, a share of 3/4 > 1/2. At t = 0 the instance itself.
        let line = tie_line(&inst, 0).unwrap();
        assert_eq!(line.range(), (Rational::ZERO, r("2")));
        let far = line.at(&inst, &r("2")).unwrap();
        assert_eq!(far.users()[0].demand, vec![r("2"), r("3/2"), r("0")]);
        assert_eq!(line.at(&inst, &Rational::ZERO).unwrap(), inst);
        // Only the moving user changes.
        assert_eq!(far.users()[1..], inst.users()[1..]);
    }

    #[test]
    fn the_cap_line_caps_a_user_at_its_truthful_tasks() {
        use leontief_solver::{Drf, User};
        // Capacities (1, 1); u1 ⟨1, 0⟩ with cap 1 and u2 ⟨1, 1⟩: every task takes all of
        // resource 1, so DRF's common level fills it at λ + λ = 1: 1/2 task each, u1's cap
        // of 1 slack. Capped at exactly 1/2, u1 freezes at level 1/2 just as resource 1
        // fills: the same answer, now with a binding cap.
        let inst = Instance::new(
            vec![1.into(), 1.into()],
            vec![User::new("u1", [1, 0]).cap(1), User::new("u2", [1, 1])],
        )
        .unwrap();
        let drf = Drf::extended();
        let x = drf.allocate(&inst).unwrap();
        assert_eq!(x.tasks, vec![r("1/2"), r("1/2")]);
        let line = cap_line(&inst, &x, 0).unwrap();
        let edge = line.at(&inst, &Rational::ONE).unwrap();
        assert_eq!(edge.users()[0].cap, Some(r("1/2")));
        assert_eq!(edge.users()[1], inst.users()[1]);
        assert_eq!(drf.allocate(&edge).unwrap().tasks, x.tasks);
        // u2 has no cap: its line caps it at its 1/2 task too.
        let line = cap_line(&inst, &x, 1).unwrap();
        assert_eq!(
            line.at(&inst, &Rational::ONE).unwrap().users()[1].cap,
            Some(r("1/2"))
        );
        // Both lines, and only with caps asked for; the ties come first (u2's shares 1, 1
        // already tie, u1 has one positive entry: none).
        assert_eq!(stratum_lines(&inst, &x, true).len(), 2);
        assert!(stratum_lines(&inst, &x, false).is_empty());
        // A cap of 1/4 binds at the truth (u1 runs 1/4, u2 3/4): no line for u1.
        let tight = Instance::new(
            vec![1.into(), 1.into()],
            vec![
                User::new("u1", [1, 0]).cap(r("1/4")),
                User::new("u2", [1, 1]),
            ],
        )
        .unwrap();
        let y = drf.allocate(&tight).unwrap();
        assert_eq!(y.tasks, vec![r("1/4"), r("3/4")]);
        assert!(cap_line(&tight, &y, 0).is_none());
    }

    #[test]
    fn golden_max_finds_a_kink_at_a_simple_rational_exactly() {
        // −|t − p| rises up to t = p and falls after it: its maximum is the kink at p.
        for peak in [q(3, 10), q(4, 7)] {
            let mut seen = Vec::new();
            let p = peak.clone();
            golden_max(&Rational::ZERO, &Rational::ONE, GOLDEN_PROBES, &mut |t| {
                seen.push(t.clone());
                Some(-(t - &p).abs())
            });
            assert!(seen.len() <= GOLDEN_PROBES);
            assert!(seen.contains(&peak), "{peak} not probed: {seen:?}");
        }
    }
}
