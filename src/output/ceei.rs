//! `solve --mechanism ceei`'s answer written directly: the JSON of
//! [`crate::render::ceei_json`] (without its `objective`) byte for byte, exact or with the
//! numbers rounded as [`super::finish_json`] rounds that tree, with no JSON tree in between.
//!
//! A certified answer is an exact allocation and goes through
//! [`super::allocation::write_json`]. An uncertified one prints the Newton solver's floats
//! as decimal strings (rounded from their decimal text under `--decimals`) and the exactly
//! feasible tasks, user rows formatted in parallel chunks.
//!
//! # Complexity
//! `O(n·m)` numbers for `n` users and `m` resources, each formatted once.

use leontief_solver::ceei::CeeiOutcome;
use leontief_solver::rational::write_literal_decimal;
use leontief_solver::{Allocation, Instance, Rational};
use serde_json::{Map, Value};

use super::allocation::{
    open_answer, open_user, write_bundle, write_json as write_allocation, write_rows, Answer,
};
use super::{looks_numeric, round_value, rounds_under, write_json_str, Json, Numbers, Sink};

/// Writes the CEEI answer (see the [module docs](self)).
pub fn write_json(sink: &mut Sink<'_>, numbers: Numbers, inst: &Instance, out: &CeeiOutcome) {
    // The report's own fields, in its order (`objective` is not printed).
    let float = |x: f64| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number);
    let mut extra = Map::new();
    extra.insert("certified".into(), Value::Bool(out.certified));
    extra.insert("status".into(), Value::from(out.status.as_str()));
    extra.insert("iterations".into(), Value::from(out.iterations));
    extra.insert("relative_gap".into(), float(out.relative_gap));
    let prices: Vec<Value> = match &out.prices_exact {
        Some(p) if out.certified => p.iter().map(|x| Value::String(x.to_string())).collect(),
        _ => out
            .prices
            .iter()
            .map(|x| Value::String(x.to_string()))
            .collect(),
    };
    let prices = Value::Object(inst.resources().iter().cloned().zip(prices).collect());
    if let (Some(tasks), true) = (&out.tasks_exact, out.certified) {
        extra.insert("prices".into(), prices);
        let x = Allocation::new(tasks.clone());
        let answer = Answer {
            mechanism: "ceei",
            exact: true,
            instance: inst,
            allocation: &x,
            consumption: None,
            extra,
        };
        write_allocation(sink, numbers, answer);
        return;
    }
    let mut j = Json::new(sink, numbers);
    open_answer(&mut j, "ceei", false, inst);
    write_rows(j.sink, inst.num_users(), numbers, &|i, _, buf| {
        open_user(inst, i, buf);
        let x = out.tasks[i];
        buf.push_str(",\n      \"tasks\": ");
        write_float(x, numbers, buf);
        write_bundle(inst, i, buf, |d, buf| {
            write_float(x * d.to_f64_lossy(), numbers, buf)
        });
        buf.push_str(",\n      \"dominant_share\": ");
        write_float(x * inst.task_dominant_share(i).to_f64_lossy(), numbers, buf);
        buf.push_str("\n    }");
    });
    if inst.num_users() > 0 {
        j.mark_nonempty();
    }
    j.close();
    if let Numbers::Decimals(n) = numbers {
        for v in extra.values_mut() {
            round_value(v, n);
        }
    }
    for (k, v) in &extra {
        j.key(k);
        j.value(v);
    }
    // Keyed by path; a path that is also a name key stays exact, as the tree's rounding
    // leaves it.
    j.key("feasible_tasks");
    j.open_object();
    write_rows(j.sink, inst.num_users(), numbers, &|i, _, buf| {
        buf.push_str(if i == 0 { "\n    " } else { ",\n    " });
        let path = inst.user_path(i);
        write_json_str(&path, buf);
        buf.push_str(": ");
        let x = &out.feasible_tasks[i];
        match numbers {
            Numbers::Decimals(_) if rounds_under(&path) => numbers.json(x, buf),
            _ => Numbers::Exact.json(x, buf),
        }
    });
    if inst.num_users() > 0 {
        j.mark_nonempty();
    }
    j.close();
    let mut prices = prices;
    if let Numbers::Decimals(n) = numbers {
        round_value(&mut prices, n);
    }
    j.key("prices");
    j.value(&prices);
    j.close();
    j.end();
}

/// A float of the Newton solution as the tree holds it (its shortest decimal string) and
/// prints it: quoted when exact; under decimals rounded from that decimal text, as
/// [`round_value`] rounds a string.
fn write_float(x: f64, numbers: Numbers, out: &mut String) {
    let text = x.to_string();
    if let Numbers::Decimals(n) = numbers {
        // The usual text, a plain literal, is rounded on its digits.
        if write_literal_decimal(&text, n, out) {
            return;
        }
        if looks_numeric(&text)
            && let Ok(v) = text.parse::<Rational>()
        {
            let rounded = v.to_decimal(n);
            if rounded.parse::<serde_json::Number>().is_ok() {
                out.push_str(&rounded);
                return;
            }
        }
    }
    write_json_str(&text, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::pretty;
    use crate::output::{finish_json, to_string};
    use crate::render::ceei_json;
    use leontief_solver::ceei::Ceei;
    use leontief_solver::random_instances::cluster_workload;
    use leontief_solver::User;

    /// The tree `solve` printed before streaming: `ceei_json` without `objective`, rounded
    /// by `finish_json`.
    fn tree(inst: &Instance, out: &CeeiOutcome, numbers: Numbers) -> String {
        let mut v = ceei_json(inst, out);
        if let Some(o) = v.as_object_mut() {
            o.remove("objective");
        }
        pretty(&finish_json(v, numbers))
    }

    #[test]
    fn streaming_prints_the_serde_tree_byte_for_byte() {
        let mut instances = vec![
            // The DRF paper's example: a rational equilibrium, certified.
            Instance::new(
                vec![9.into(), 18.into()],
                vec![User::new("A", [1, 4]), User::new("B", [3, 1])],
            )
            .unwrap(),
            // x_c = (3 − √3)/6 is irrational: never certified.
            Instance::new(
                vec![1.into(), 1.into()],
                vec![
                    User::new("a", [1, 0]),
                    User::new("b", [0, 1]),
                    User::new("c", [1, 2]),
                ],
            )
            .unwrap(),
            // Users named like keys whose strings are never rounded ("status", "id").
            Instance::new(
                vec![3.into(), 5.into()],
                vec![
                    User::new("status", [1, 1]),
                    User::new("id", [1, 3]),
                    User::new("7", [2, 1]),
                ],
            )
            .unwrap(),
        ];
        for (n, m, seed) in [(40, 3, 1), (300, 5, 2), (2 * 1024 + 300, 4, 3)] {
            instances.push(cluster_workload(n, m, seed));
        }
        let (mut certified, mut uncertified) = (0, 0);
        for inst in &instances {
            for solver in [Ceei::new(), Ceei::new().max_iterations(1)] {
                let out = solver.solve(inst).unwrap();
                if out.certified {
                    certified += 1;
                } else {
                    uncertified += 1;
                }
                for numbers in [
                    Numbers::Exact,
                    Numbers::Decimals(1),
                    Numbers::Decimals(3),
                    Numbers::Decimals(12),
                    Numbers::Decimals(40),
                ] {
                    let streamed = to_string(|sink| write_json(sink, numbers, inst, &out));
                    assert_eq!(streamed, tree(inst, &out, numbers), "{numbers:?}");
                }
            }
        }
        assert!(
            certified > 0 && uncertified > 0,
            "{certified} / {uncertified}"
        );
    }
}
