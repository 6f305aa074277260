//! The answers of `solve` as JSON (every number an exact string) and as a terminal table.

use leontief_solver::drf::{Filling, FrozenBy};
use leontief_solver::{Allocation, Instance, Rational};
use serde_json::{json, Map, Value};

/// An exact string, `"p/q"` or `"p"`.
pub fn exact(x: &Rational) -> Value {
    Value::String(x.to_string())
}

/// A list of exact strings.
pub fn exact_list(v: &[Rational]) -> Value {
    Value::Array(v.iter().map(exact).collect())
}

/// The JSON answer of `solve`:
/// `{"mechanism", "exact", "resources", "users": [{"name", "tasks", "allocation",
/// "dominant_share", "weighted_share"}], "consumption", "saturated"}`; `extra` is merged in
/// (mechanism-specific fields such as a trace).
pub fn allocation_json(
    mechanism: &str,
    exact_answer: bool,
    inst: &Instance,
    x: &Allocation,
    extra: Map<String, Value>,
) -> Value {
    let consumption = x.consumption(inst);
    let users: Vec<Value> = inst
        .users()
        .iter()
        .enumerate()
        .map(|(i, u)| {
            json!({
                "name": u.name,
                "tasks": exact(&x.tasks[i]),
                "allocation": exact_list(&x.bundle(inst, i)),
                "dominant_share": exact(&x.dominant_share(inst, i)),
                "weighted_share": exact(&x.weighted_share(inst, i)),
            })
        })
        .collect();
    let saturated: Vec<Value> = saturated_names(inst, &consumption)
        .into_iter()
        .map(Value::String)
        .collect();
    let mut out = Map::new();
    out.insert("mechanism".into(), json!(mechanism));
    out.insert("exact".into(), json!(exact_answer));
    out.insert("resources".into(), json!(inst.resources()));
    out.insert("capacity".into(), exact_list(inst.capacity()));
    out.insert("users".into(), Value::Array(users));
    out.insert("consumption".into(), exact_list(&consumption));
    out.insert("saturated".into(), Value::Array(saturated));
    out.extend(extra);
    Value::Object(out)
}

fn saturated_names(inst: &Instance, consumption: &[Rational]) -> Vec<String> {
    consumption
        .iter()
        .zip(inst.capacity())
        .zip(inst.resources())
        .filter(|((c, r), _)| c >= r)
        .map(|(_, name)| name.clone())
        .collect()
}

/// The events of progressive filling as JSON: level, cause and the users frozen.
pub fn filling_trace_json(inst: &Instance, fill: &Filling) -> Value {
    let events: Vec<Value> = fill
        .events
        .iter()
        .map(|e| {
            let cause = match e.cause {
                FrozenBy::Cap => json!({"cap": inst.users()[e.frozen[0]].name}),
                FrozenBy::Resource(j) => json!({"saturated": inst.resources()[j]}),
                _ => json!("other"),
            };
            let frozen: Vec<&str> = e
                .frozen
                .iter()
                .map(|&i| inst.users()[i].name.as_str())
                .collect();
            json!({"level": exact(&e.level), "cause": cause, "frozen": frozen})
        })
        .collect();
    Value::Array(events)
}

/// A table for the terminal: one row per user (tasks, bundle, dominant share), then the
/// totals and the saturated resources.
pub fn allocation_table(mechanism: &str, inst: &Instance, x: &Allocation) -> String {
    let mut header = vec!["user".to_string(), "tasks".to_string()];
    header.extend(inst.resources().iter().cloned());
    header.push("dominant share".into());
    let mut rows = vec![header];
    for (i, u) in inst.users().iter().enumerate() {
        let mut row = vec![u.name.clone(), x.tasks[i].to_string()];
        row.extend(x.bundle(inst, i).iter().map(Rational::to_string));
        row.push(x.dominant_share(inst, i).to_string());
        rows.push(row);
    }
    let consumption = x.consumption(inst);
    let mut used = vec!["used".to_string(), String::new()];
    used.extend(
        consumption
            .iter()
            .zip(inst.capacity())
            .map(|(c, r)| format!("{c} of {r}")),
    );
    used.push(String::new());
    rows.push(used);
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|k| rows.iter().map(|r| r[k].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = format!("{mechanism}\n");
    for (n, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if n == 0 || n == rows.len() - 2 {
            let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    let saturated = saturated_names(inst, &consumption);
    out.push_str(&format!(
        "saturated: {}\n",
        if saturated.is_empty() {
            "none".to_string()
        } else {
            saturated.join(", ")
        }
    ));
    out
}
