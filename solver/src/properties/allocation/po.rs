//! Pareto efficiency (PO), by the characterization for non-wasteful Leontief allocations
//! (`docs/theory.md` §3).

use super::*;

/// A Pareto improvement (PO): `improved` is feasible, equal to the allocation except that
/// `user` runs `gain > 0` more tasks (still within its cap). For an approximate allocation
/// `gain` is the growth guaranteed under every true allocation its error admits (so
/// `improved` is feasible both for the computed and for the true tasks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoWitness {
    /// The user that strictly gains.
    pub user: usize,
    /// How many more tasks it runs.
    pub gain: Rational,
    /// The improving allocation's tasks.
    pub improved: Vec<Rational>,
}

/// PO, by the characterization for non-wasteful Leontief allocations: it holds exactly
/// when every user below its cap demands a saturated resource. Witness: the first user that
/// does not, raised as far as capacity and its cap allow (a feasible allocation where it
/// strictly gains and nobody else changes).
///
/// # Errors
/// When `x` does not have one entry per user.
///
/// # Example
/// ```
/// use leontief_solver::properties::{allocation::pareto_efficiency, Witness};
/// use leontief_solver::{Allocation, Instance, User};
/// let paper = Instance::new(vec![9.into(), 18.into()],
///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
/// assert!(pareto_efficiency(&paper, &Allocation::new(vec![3.into(), 2.into()])).unwrap().holds);
/// // (2, 2) leaves 1 CPU and 8 GB: A can run 1 more task.
/// let v = pareto_efficiency(&paper, &Allocation::new(vec![2.into(), 2.into()])).unwrap();
/// let Some(Witness::Po(w)) = v.witness else { panic!() };
/// assert_eq!((w.user, w.gain), (0, 1.into()));
/// ```
pub fn pareto_efficiency(instance: &Instance, x: &Allocation) -> Result<Verdict, SolverError> {
    check_allocation(instance, x, Property::Po)
}

pub(super) fn pareto_efficiency_on(
    instance: &Instance,
    x: &Answer,
    used: &[Bounded],
    judge: &mut Judge,
) -> Verdict {
    let capacity = instance.capacity();
    // What every limited node holds (`docs/production.md`): a limit binds like a capacity
    // on the users below it.
    let h = instance.hierarchy();
    let limited: Vec<Option<Vec<Bounded>>> = (0..h.len())
        .map(|v| {
            h.node(v)
                .limit
                .as_ref()
                .map(|_| holdings_bounds(instance, x, &h.users_below(v)))
        })
        .collect();
    let any_limit = limited.iter().any(Option::is_some);
    for (i, u) in instance.users().iter().enumerate() {
        let tasks = Bounded::tasks(x, i);
        // Below its cap, and every resource it needs has room, in the cluster and under every
        // limit from its leaf up.
        let bounds = bounds_on(instance, i, capacity, used, &limited);
        let mut free = below_cap(u, &tasks);
        for (bound, held) in &bounds {
            for (d, (c, b)) in u.demand.iter().zip(held.iter().zip(*bound)) {
                if free.exact && !d.is_zero() {
                    free = free.and(Test::less_than(c, b));
                }
            }
        }
        if !judge.settle(free) {
            continue;
        }
        // Grow until one resource fills, a limit or the cap binds, under every admissible
        // truth: the gain guaranteed by the upper bounds (the computed values when exact).
        let gains: Option<Vec<Rational>> = bounds
            .iter()
            .map(|(bound, held)| certified_gain(u, &tasks, held, bound))
            .collect();
        let Some(gain) = gains.and_then(|g| g.into_iter().min()) else {
            continue;
        };
        let mut improved = x.allocation.tasks.clone();
        improved[i] += &gain;
        return Verdict::fails(
            Witness::Po(PoWitness {
                user: i,
                gain,
                improved,
            }),
            format!(
                "user {} is below its cap and needs no saturated resource{}",
                user_name(instance, i),
                if any_limit {
                    " and no resource a limit above it has used up"
                } else {
                    ""
                }
            ),
        );
    }
    Verdict::holds(format!(
        "every user below its cap demands a saturated resource{}",
        if any_limit {
            " or one that a limit above it has used up"
        } else {
            ""
        }
    ))
}

/// What bounds user `i`'s growth, each with what is held against it: the capacity and
/// the consumption, then the limits on its path (its leaf and every pool above it), each
/// with what its node holds.
fn bounds_on<'a>(
    instance: &'a Instance,
    i: usize,
    capacity: &'a [Rational],
    used: &'a [Bounded],
    limited: &'a [Option<Vec<Bounded>>],
) -> Vec<(&'a [Rational], &'a [Bounded])> {
    let h = instance.hierarchy();
    let limits = h
        .ancestors(h.leaf(i))
        .filter_map(|v| Some((h.node(v).limit.as_deref()?, limited[v].as_deref()?)));
    std::iter::once((capacity, used)).chain(limits).collect()
}

/// `min(T_i − hi(x_i), min_{j: d_ij > 0} (R_j − hi(used_j)) / d_ij)`: how many more tasks
/// user `i` can run whatever the true allocation within the error (`None` when a bound is
/// infinite, which a certain test excludes).
pub(super) fn certified_gain(
    u: &User,
    tasks: &Bounded,
    used: &[Bounded],
    capacity: &[Rational],
) -> Option<Rational> {
    let mut room: Option<Rational> = None;
    for (d, (c, r)) in u.demand.iter().zip(used.iter().zip(capacity)) {
        if d.is_zero() {
            continue;
        }
        let here = &(r - c.hi()?) / d;
        if room.as_ref().is_none_or(|m| here < *m) {
            room = Some(here);
        }
    }
    let room = room?;
    Some(match &u.cap {
        Some(t) => room.min(t - tasks.hi()?),
        None => room,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::properties::Witness;

    /// Capacity 10; pool P limited to 3 holds a (unit tasks); b (unit tasks) beside it.
    fn limited() -> Instance {
        Instance::from_json_str(
            r#"{"capacity": [10], "tree": {"children": [
                {"name": "P", "limit": [3], "children": [{"name": "a", "demand": [1]}]},
                {"name": "b", "demand": [1]}]}}"#,
        )
        .unwrap()
    }

    fn verdict(a: i64, b: i64) -> Verdict {
        let x = Allocation::new(vec![a.into(), b.into()]);
        pareto_efficiency(&limited(), &x).unwrap()
    }

    // By hand: (3, 7) fills the cluster: PO. (3, 6): a is at P's limit (3 of 3), so only b
    // can grow, by the 1 unit left; a limit-blind test would name a. (1, 6): a can grow by
    // min(3 free units, 2 under the limit) = 2, not 3.
    #[test]
    fn a_user_held_back_only_by_a_limit_is_no_violation() {
        assert!(verdict(3, 7).holds);
        let gain = |v: Verdict| match v.witness {
            Some(Witness::Po(w)) => (w.user, w.gain),
            other => panic!("{other:?}"),
        };
        assert_eq!(gain(verdict(3, 6)), (1, 1.into()));
        assert_eq!(gain(verdict(1, 6)), (0, 2.into()));
        // Without b's room: (3, 7) holds and says why.
        assert_eq!(
            verdict(3, 7).note,
            "every user below its cap demands a saturated resource or one that a limit above \
             it has used up"
        );
    }
}
