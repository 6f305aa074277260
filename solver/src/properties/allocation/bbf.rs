//! Bottleneck-based fairness (BBF, Dolev et al.): every user reaches its cap or gets its
//! entitlement of some saturated resource it needs (`docs/theory.md` §3).

use super::*;

/// A user's share of one saturated resource it needs, against its entitlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaturatedShare {
    /// The resource.
    pub resource: usize,
    /// `x_i d_ij / R_j`.
    pub share: Rational,
    /// `w_ij / W_j` (`w_i / W` with scalar weights).
    pub entitlement: Rational,
}

/// A user below its cap that gets less than its entitlement of every saturated resource it
/// needs (BBF). `shares` is empty when no resource it needs is saturated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BbfWitness {
    /// The user.
    pub user: usize,
    /// Its tasks.
    pub tasks: Rational,
    /// Its share of each saturated resource it needs, each below the entitlement (for an
    /// approximate allocation: of each resource it needs that is not unsaturated beyond the
    /// error, each below the entitlement beyond the error).
    pub shares: Vec<SaturatedShare>,
}

/// BBF (Dolev et al.): every user reaches its cap or gets at least its entitlement
/// `w_ij / W_j` (`w_i / W`) of some saturated resource it needs. Witness: the first user
/// that does neither, with its shares of the saturated resources it needs.
///
/// Decided by [`check_allocation`] with [`Property::Bbf`].
pub(super) fn bottleneck_based_fairness_on(
    instance: &Instance,
    x: &Answer,
    used: &[Bounded],
    judge: &mut Judge,
) -> Verdict {
    let totals = weight_totals(instance);
    let capacity = instance.capacity();
    for (i, u) in instance.users().iter().enumerate() {
        let tasks = Bounded::tasks(x, i);
        // Below its cap, and every resource it needs is unsaturated or below entitlement.
        let mut unfair = below_cap(u, &tasks);
        let mut shares = Vec::new();
        for (j, d) in u.demand.iter().enumerate() {
            if !unfair.exact {
                break;
            }
            if d.is_zero() {
                continue;
            }
            let unsaturated = Test::less_than(&used[j], &capacity[j]);
            if unsaturated.certain {
                continue;
            }
            let share = tasks.map(&Gauge::scale(d / &capacity[j]));
            let entitlement = u.weight_on(j) / &totals[j];
            unfair = unfair.and(unsaturated.or(Test::less_than(&share, &entitlement)));
            shares.push(SaturatedShare {
                resource: j,
                share: share.value,
                entitlement,
            });
        }
        if !judge.settle(unfair) {
            continue;
        }
        let why = if shares.is_empty() {
            "needs no saturated resource"
        } else {
            "below its entitlement of every saturated resource it needs"
        };
        let note = format!("user {} is below its cap and {why}", user_name(instance, i));
        return Verdict::fails(
            Witness::Bbf(BbfWitness {
                user: i,
                tasks: x.allocation.tasks[i].clone(),
                shares,
            }),
            note,
        );
    }
    Verdict::holds("every user reaches its cap or its entitlement of a saturated resource it needs")
}
