//! The goals not about lies, negated (docs/theory.md §6.9): sharing incentive and
//! envy-freeness (about the answer alone), population monotonicity (one user leaves),
//! resource monotonicity (capacities grow) and the welfare ratio (against any feasible
//! allocation).
//!
//! Each negation names a few users in fixed roles — the one below its split (`si`), the
//! envious and the envied (`ef`), the leaving user and the loser (`pm`), the loser (`rm`) —
//! as `u1`, `u2`; the
//! other users are interchangeable, and so are the resources. Every instance is in normal
//! form (capacities 1, every demand's largest entry 1), where a user's utility of its own
//! answer is its number of tasks and its dominant share per task is 1.
//!
//! A refutation is re-derived like a lie's ([`super::witness`]): the rounded instance is run
//! through the exact mechanism, the property decided by the checker of `search` (a
//! `welfare-ratio` by explore's metric, with its exact optimum).

use leontief_solver::properties::Property;
use leontief_solver::Rational;

use super::smt::{and, binary, constant, mul, or, sum, Script};
use super::statement::{sort_by_first_entry, Goal, Profile, ProvedMechanism, Shape, Statement};
use crate::explore::MetricName;

/// The users the negated statement names, and what they do, in words.
pub(super) fn roles(statement: &Statement) -> String {
    match statement.goal.property() {
        Property::Si => "u1 is below its split (any such user, renamed u1)",
        Property::Ef => "u1 envies u2 (any envious pair, renamed)",
        Property::Pm => "u1 leaves and u2 loses (any such pair, renamed)",
        Property::Rm => "u1 loses as capacities grow (any such user, renamed u1)",
        _ => "none: every user plays the same part",
    }
    .into()
}

/// The query of one case of a goal not about lies: the instance, the truthful answer of
/// type `truth`, and the negated goal (docs/theory.md §6.9). The variables: demands
/// `d_i_r`, weights `w_i`, caps `t_i` (when in the domain), tasks `x_i`; `y_i` after `u1`
/// leaves (`pm`) or after capacities grow (`rm`, with `k_r` the old capacity of resource
/// `r` in units of the new one), `z_i` the better allocation (`welfare-ratio`). The users after the named
/// ones are sorted by their first demand entry within each class of users `truth` does not
/// tell apart (all of them, or those with the same bottleneck). A goal about lies gets the
/// instance and its answer alone (its queries are built by [`Statement::cases`]).
pub fn script(statement: &Statement, truth: &Shape) -> Script {
    let (n, m) = (statement.users, statement.resources);
    let mut s = Script::new();
    let profile = statement.declare_users(&mut s, &[]);
    let (demands, weights, caps) = (&profile.demands, &profile.weights, &profile.caps);
    // Unnamed users the case's type does not tell apart are interchangeable: all of them
    // when the type names no user, else those with the same bottleneck. Each such class is
    // sorted by its first demand entry.
    sort_by_first_entry(&mut s, demands, |i| {
        (i >= statement.coalition).then(|| match truth {
            Shape::Bottlenecks(b) => b[i],
            _ => 0,
        })
    });
    let x = s.reals("x", 0..n);
    statement.encode(&mut s, &profile, &x, &x, truth, "t");
    match &statement.goal {
        Goal::Property(Property::Si) => {
            // u1's split is w_1 / W of every resource; its largest entry being 1, the split
            // runs w_1 / W tasks (or T_1): u1 below it is x_1 W < w_1 (and x_1 < T_1).
            let below = match &weights {
                Some(w) => binary("<", &mul(&x[0], &sum(w)), &w[0]),
                None => binary(
                    "<",
                    &mul(&x[0], &constant(&Rational::integer(n as i128))),
                    "1.0",
                ),
            };
            s.assert(below);
        }
        Goal::Property(Property::Ef) => {
            // u1 envies u2: (w_1 / w_2) x_2 d_2 runs more than x_1 of u1's tasks, i.e. on
            // every resource u1 needs, w_1 x_2 d_2r > w_2 x_1 d_1r (and T_1 > x_1).
            let scaled = |a: String, j: usize| match weights {
                Some(w) => mul(&w[j], &a),
                None => a,
            };
            s.assert(and((0..m).map(|r| {
                let theirs = scaled(mul(&x[1], &demands[1][r]), 0);
                let mine = scaled(mul(&x[0], &demands[0][r]), 1);
                let needs = binary(">", &demands[0][r], "0.0");
                binary("=>", &needs, &binary(">", &theirs, &mine))
            })));
        }
        Goal::Property(Property::Pm) | Goal::Bound(MetricName::PmLoss, _) => {
            // u1 leaves; the others keep their demands, weights and caps. u2's utility is
            // its tasks (at most its cap) before and after: it loses when y_2 < x_2, and
            // keeps less than c times its utility when y_2 < c x_2 (with x_2 > 0: a user
            // with nothing has no ratio).
            let rest = |v: &Option<Vec<String>>| v.as_ref().map(|v| v[1..].to_vec());
            let smaller = Profile {
                demands: demands[1..].to_vec(),
                weights: rest(weights),
                caps: rest(caps),
            };
            let y = s.reals("y", 1..n);
            statement.encode(&mut s, &smaller, &y, &y, &Shape::Any, "l");
            assert_loss(statement, &mut s, &x[1], &y[0]);
        }
        Goal::Property(Property::Rm) | Goal::Bound(MetricName::RmLoss, _) => {
            // Capacity r grows from 1 to 1 / k_r; measured in units of the grown capacity,
            // capacities are 1 again and u_i's demand is d_ir k_r. Tasks do not depend on
            // the units, so y_i compares with x_i directly (docs/theory.md §6.9).
            let k: Vec<String> = (0..m)
                .map(|r| {
                    let v = s.positive_real(&format!("k_{}", r + 1));
                    s.assert(binary("<=", &v, "1.0"));
                    v
                })
                .collect();
            s.assert(or(k.iter().map(|v| binary("<", v, "1.0"))));
            let grown = Profile {
                demands: demands
                    .iter()
                    .map(|row| row.iter().zip(&k).map(|(d, k)| mul(d, k)).collect())
                    .collect(),
                weights: weights.clone(),
                caps: caps.clone(),
            };
            let y = s.reals("y", 0..n);
            encode_unnormalised(statement, &mut s, &grown, &y);
            // u1's utility is its tasks before and after: it loses when y_1 < x_1, and keeps
            // less than c times its utility when y_1 < c x_1 (with x_1 > 0).
            assert_loss(statement, &mut s, &x[0], &y[0]);
        }
        Goal::Bound(MetricName::WelfareRatio, c) => {
            // Some feasible z with Σ z > c Σ x: the optimum exceeds c times the welfare
            // (dominant shares are tasks in normal form). Σ x > 0, as the metric needs.
            let z = s.reals("z", 0..n);
            for (i, zi) in z.iter().enumerate() {
                s.assert(binary(">=", zi, "0.0"));
                if let Some(t) = &caps {
                    s.assert(binary("<=", zi, &t[i]));
                }
            }
            s.assert_each("<=", profile.loads(&z), "1.0");
            s.assert(binary(">", &sum(&x), "0.0"));
            let c = statement.bound_term(&mut s, c);
            s.assert(binary(">", &sum(&z), &mul(&c, &sum(&x))));
        }
        // The goals about lies are scripted by Statement::script.
        _ => {}
    }
    // u1 below its split or envious is below its cap too (T_1 > x_1).
    if let (Goal::Property(Property::Si | Property::Ef), Some(t)) = (&statement.goal, caps) {
        s.assert(binary("<", &x[0], &t[0]));
    }
    s
}

/// Asserts a loss of the user whose utility is `before` and then `after` (its tasks): `after
/// < before` for a property, `after < c before` with `before > 0` for a bound `c` on a loss.
fn assert_loss(statement: &Statement, s: &mut Script, before: &str, after: &str) {
    match &statement.goal {
        Goal::Bound(_, c) => {
            let c = statement.bound_term(s, c);
            s.assert(binary(">", before, "0.0"));
            s.assert(binary("<", after, &mul(&c, before)));
        }
        Goal::Property(_) => s.assert(binary("<", after, before)),
    }
}

/// Asserts that `tasks` is the mechanism's answer on `profile`, whose capacities are 1 but
/// whose rows need not have a largest entry 1. DRF's dominant share is then `y_i a_i` with
/// `a_i` (the variable `a_i`) the row's largest entry; asset fairness's aggregate share and
/// CEEI's KKT conditions read the rows as they are.
fn encode_unnormalised(statement: &Statement, s: &mut Script, profile: &Profile, tasks: &[String]) {
    let shares: Vec<String> = match statement.mechanism {
        ProvedMechanism::Asset | ProvedMechanism::Ceei => tasks.to_vec(),
        // The dominant shares `y_i a_i`.
        _ => (profile.demands.iter().zip(tasks).enumerate())
            .map(|(i, (row, y))| {
                let a = s.real(&format!("a_{}", i + 1));
                for e in row {
                    s.assert(binary(">=", &a, e));
                }
                s.assert(or(row.iter().map(|e| binary("=", &a, e))));
                mul(y, &a)
            })
            .collect(),
    };
    statement.encode(s, profile, tasks, &shares, &Shape::Any, "g");
}
