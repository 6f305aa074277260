//! CEEI, encoded by the Eisenberg–Gale KKT conditions (docs/theory.md §6.3): tasks `x` are
//! the equilibrium exactly when some prices `p >= 0` make
//! - every user spend its budget: `x_i (d_i · p) = w_i` (equal incomes: `w_i = 1`);
//! - every load at most 1;
//! - every priced resource full: `p_r = 0` or load 1.
//!
//! A case fixes the support of `p` ([`Shape::Support`]): positive prices on it, with full
//! loads, zero elsewhere.

use super::smt::{binary, mul, or, sum, Script};
use super::statement::{positive_entries, Answers, Profile, Shape, Statement};

/// Asserts that `tasks` is the CEEI answer on `profile`; prices are `<at>_p_r`.
pub fn encode(script: &mut Script, profile: &Profile, tasks: &[String], shape: &Shape, at: &str) {
    let (n, m) = (profile.users(), profile.resources());
    let prices = script.reals(&format!("{at}_p"), 0..m);
    let loads = profile.loads(tasks);
    for i in 0..n {
        let cost = sum((0..m).map(|r| mul(&profile.demands[i][r], &prices[r])));
        let budget = profile
            .weights
            .as_ref()
            .map_or_else(|| "1.0".to_string(), |w| w[i].clone());
        script.assert(binary(">", &tasks[i], "0.0"));
        script.assert(binary("=", &mul(&tasks[i], &cost), &budget));
    }
    for r in 0..m {
        script.assert(binary("<=", &loads[r], "1.0"));
        match shape {
            Shape::Support(support) if support[r] => {
                script.assert(binary(">", &prices[r], "0.0"));
                script.assert(binary("=", &loads[r], "1.0"));
            }
            Shape::Support(_) => script.assert(binary("=", &prices[r], "0.0")),
            _ => {
                script.assert(binary(">=", &prices[r], "0.0"));
                script.assert(or([
                    binary("=", &prices[r], "0.0"),
                    binary("=", &loads[r], "1.0"),
                ]));
            }
        }
    }
}

/// The negated manipulation statement for CEEI in bundle form (docs/theory.md §6.3): the
/// unknowns are the bundles, not demands and tasks, since a demand is its bundle up to scale
/// and CEEI's bundles do not depend on that scale. With the truthful price support `truth`
/// and the reported one `lie` fixed:
/// - user `u1`'s bundle on a priced resource is what the others leave (the resource is full),
///   and its budget follows from the others' and Walras' law `Σ_r p_r = Σ_i w_i`, which also
///   fixes the last priced resource's price;
/// - a truthful user keeps its direction: its bundle after is its bundle before times
///   `w_i / q_i`, `q_i` the old bundle's cost at the new prices;
/// - the same for the reported profile, with `u1`'s reported bundle what the others leave.
///
/// Fewer unknowns of lower degree than the task form ([`encode`]) on both profiles: CEEI's
/// single-liar gain at 3 users and 2 resources is decided in seconds in this form and stays
/// open for minutes in the other.
pub fn manipulation_script(statement: &Statement, truth: &[bool], lie: &[bool]) -> Script {
    let mut s = Script::new();
    let answers = manipulation_answers(&mut s, statement, truth, lie);
    // The coalition's members, and the others, may be permuted among themselves: each class
    // sorted by its first entry.
    statement.sort_classes(&mut s, &answers.before);
    statement.assert_goal(&mut s, &answers);
    s
}

/// Declares and asserts both CEEI answers of [`manipulation_script`] (weights are `w_i`),
/// and returns their bundles.
pub fn manipulation_answers(
    s: &mut Script,
    statement: &Statement,
    truth: &[bool],
    lie: &[bool],
) -> Answers {
    let (n, m, k) = (statement.users, statement.resources, statement.coalition);
    let weights = match statement.weights {
        true => s.positive_reals("w", n),
        false => vec!["1.0".to_string(); n],
    };
    let income = sum(&weights);
    let low = if statement.positive { ">" } else { ">=" };
    // The bundles of a profile: users 2..n's given, user 1's on a full resource what they
    // leave, else its own unknown; every entry nonnegative (positive), every load at most 1.
    let complete = |s: &mut Script, rows: Vec<Vec<String>>, full: &[bool], name: &str| {
        let mut first = Vec::with_capacity(m);
        for r in 0..m {
            let others: Vec<String> = rows.iter().map(|row| row[r].clone()).collect();
            let entry = if full[r] {
                format!("(- 1.0 {})", sum(&others))
            } else {
                let v = s.real(&format!("{name}_{}", r + 1));
                s.assert(binary("<=", &sum([v.clone(), sum(&others)]), "1.0"));
                v
            };
            s.assert(binary(low, &entry, "0.0"));
            s.report(&format!("{name}_{}", r + 1), &entry);
            first.push(entry);
        }
        let mut all = vec![first];
        all.extend(rows);
        all
    };
    // Prices on the support, positive; the last one by Walras' law.
    let prices = |s: &mut Script, support: &[bool], at: &str| -> Vec<String> {
        let priced: Vec<usize> = (0..m).filter(|&r| support[r]).collect();
        let mut p = vec!["0.0".to_string(); m];
        for &r in &priced[..priced.len().saturating_sub(1)] {
            p[r] = s.real(&format!("{at}_p_{}", r + 1));
        }
        if let Some(&last) = priced.last() {
            let rest = priced[..priced.len() - 1].iter().map(|&r| &p[r]);
            p[last] = format!("(- {income} {})", sum(rest));
        }
        s.assert_each(">", priced.iter().map(|&r| &p[r]), "0.0");
        p
    };
    let cost = |bundle: &[String], p: &[String]| -> String {
        sum((0..m)
            .filter(|&r| p[r] != "0.0")
            .map(|r| mul(&bundle[r], &p[r])))
    };
    let variable_row = |s: &mut Script, name: &str, i: usize| -> Vec<String> {
        (0..m)
            .map(|r| {
                let v = s.reported_real(&format!("{name}_{}_{}", i + 1, r + 1));
                s.assert(binary(low, &v, "0.0"));
                v
            })
            .collect()
    };

    // The truth.
    let rows: Vec<Vec<String>> = (1..n).map(|i| variable_row(s, "d", i)).collect();
    let before = complete(s, rows, truth, "d_1");
    let p = prices(s, truth, "t");
    for i in 1..n {
        s.assert(binary("=", &cost(&before[i], &p), &weights[i]));
    }

    // The reports.
    let q = prices(s, lie, "l");
    let mut rows = Vec::with_capacity(n - 1);
    for i in 1..n {
        if i < k {
            let row = variable_row(s, "e", i);
            s.assert(binary("=", &cost(&row, &q), &weights[i]));
            rows.push(row);
        } else {
            // A truthful user's bundle after: `w_i / q_i` times its bundle before.
            let old_cost = s.real(&format!("q_{}", i + 1));
            s.assert(binary("=", &old_cost, &cost(&before[i], &q)));
            s.assert(binary(">", &old_cost, "0.0"));
            let row: Vec<String> = (0..m)
                .map(|r| {
                    let z = s.real(&format!("z_{}_{}", i + 1, r + 1));
                    s.assert(binary(
                        "=",
                        &mul(&z, &old_cost),
                        &mul(&weights[i], &before[i][r]),
                    ));
                    z
                })
                .collect();
            rows.push(row);
        }
    }
    let after = complete(s, rows, lie, "e_1");

    Answers {
        needs: positive_entries(&before),
        before,
        after,
        caps: None,
    }
}
