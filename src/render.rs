//! The answers of `solve` as JSON (every number an exact string) and as a terminal table.

use leontief_counterexamples::doc::ByName;
use leontief_solver::drf::{Filling, FrozenBy};
use leontief_solver::{Allocation, Instance, Rational};
use serde::Serialize;
use serde_json::Value;

use crate::output::allocation::saturated;
use crate::output::Numbers;

/// Items written one after another, `a, b, c`.
pub fn joined<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let parts: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    parts.join(", ")
}

/// One event of progressive filling: the level, what froze users there, and who.
#[derive(Serialize)]
struct FillingEvent<'a> {
    level: &'a Rational,
    cause: Cause<'a>,
    frozen: Vec<&'a str>,
}

/// What froze users: a user's cap (`{"cap": user}`), a saturated resource
/// (`{"saturated": resource}`), or `"other"`.
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Cause<'a> {
    Cap(&'a str),
    Saturated(&'a str),
    Other,
}

/// The events of progressive filling as JSON: level, cause and the users frozen.
pub fn filling_trace_json(inst: &Instance, fill: &Filling) -> Value {
    let events: Vec<FillingEvent> = fill
        .events
        .iter()
        .map(|e| FillingEvent {
            level: &e.level,
            cause: match e.cause {
                FrozenBy::Cap => Cause::Cap(&inst.users()[e.frozen[0]].name),
                FrozenBy::Resource(j) => Cause::Saturated(&inst.resources()[j]),
                _ => Cause::Other,
            },
            frozen: e
                .frozen
                .iter()
                .map(|&i| inst.users()[i].name.as_str())
                .collect(),
        })
        .collect();
    crate::commands::to_value(&events)
}

/// A table for the terminal: one row per user (tasks, bundle, dominant share), then the
/// totals and the saturated resources.
pub fn allocation_table(
    mechanism: &str,
    inst: &Instance,
    x: &Allocation,
    numbers: Numbers,
) -> String {
    let rows = (0..inst.num_users())
        .map(|i| {
            let mut row = vec![numbers.text(&x.tasks[i])];
            row.extend(x.bundle(inst, i).iter().map(|v| numbers.text(v)));
            row.push(numbers.text(&x.dominant_share(inst, i)));
            row
        })
        .collect();
    let consumption = x.consumption(inst);
    let used = consumption.iter().map(|c| numbers.text(c)).collect();
    let saturated = saturated(inst, &consumption);
    user_table(mechanism, inst, rows, used, &saturated, numbers)
}

/// The layout of [`allocation_table`] from the cells already written: under `title`, one row
/// per user (its cells after the name: tasks, bundle, dominant share), the `used` row of each
/// resource against its capacity, and the saturated resources.
pub fn user_table<S: AsRef<str>>(
    title: &str,
    inst: &Instance,
    user_cells: Vec<Vec<String>>,
    used_cells: Vec<String>,
    saturated: &[S],
    numbers: Numbers,
) -> String {
    let mut header = vec!["user".to_string(), "tasks".to_string()];
    header.extend(inst.resources().iter().cloned());
    header.push("dominant share".into());
    let mut rows = vec![header];
    for (i, cells) in user_cells.into_iter().enumerate() {
        let mut row = vec![inst.user_path(i)];
        row.extend(cells);
        rows.push(row);
    }
    let mut used = vec!["used".to_string(), String::new()];
    used.extend(
        used_cells
            .iter()
            .zip(inst.capacity())
            .map(|(c, r)| format!("{c} of {}", numbers.text(r))),
    );
    used.push(String::new());
    rows.push(used);
    let widths = column_widths(&rows);
    let mut out = format!("{title}\n");
    for (n, row) in rows.iter().enumerate() {
        push_row(&mut out, row, &widths);
        if n == 0 || n == rows.len() - 2 {
            let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    let saturated = match saturated {
        [] => "none".to_string(),
        names => joined(names.iter().map(AsRef::as_ref)),
    };
    out.push_str(&format!("saturated: {saturated}\n"));
    out
}

/// One mechanism's column in `compare`: tasks, dominant shares and utilisation, as exact
/// strings (decimal strings for an uncertified CEEI answer).
pub struct Column {
    /// Mechanism name.
    pub name: String,
    /// Whether the figures are exact.
    pub exact: bool,
    /// Tasks per user.
    pub tasks: Vec<String>,
    /// Dominant share per user.
    pub dominant_shares: Vec<String>,
    /// Share of each resource in use.
    pub utilization: Vec<String>,
}

impl Column {
    /// From an exact allocation.
    pub fn exact(name: &str, inst: &Instance, x: &Allocation) -> Column {
        let used = x.consumption(inst);
        Column {
            name: name.to_string(),
            exact: true,
            tasks: x.tasks.iter().map(Rational::to_string).collect(),
            dominant_shares: (0..inst.num_users())
                .map(|i| x.dominant_share(inst, i).to_string())
                .collect(),
            utilization: used
                .iter()
                .zip(inst.capacity())
                .map(|(c, r)| (c / r).to_string())
                .collect(),
        }
    }

    /// From float tasks (an uncertified CEEI answer).
    pub fn approximate(name: &str, inst: &Instance, tasks: &[f64]) -> Column {
        let utilization = (0..inst.num_resources())
            .map(|j| {
                let used: f64 = inst
                    .users()
                    .iter()
                    .zip(tasks)
                    .map(|(u, x)| x * u.demand[j].to_f64_lossy())
                    .sum();
                format!("{:.9}", used / inst.capacity()[j].to_f64_lossy())
            })
            .collect();
        Column {
            name: name.to_string(),
            exact: false,
            tasks: tasks.iter().map(|x| format!("{x:.9}")).collect(),
            dominant_shares: tasks
                .iter()
                .enumerate()
                .map(|(i, x)| format!("{:.9}", x * inst.task_dominant_share(i).to_f64_lossy()))
                .collect(),
            utilization,
        }
    }
}

/// `compare` as JSON: `{"resources", "users", "mechanisms": [{"mechanism", "exact", "tasks",
/// "dominant_shares", "utilization"}]}`, per user and per resource keyed by name.
#[derive(Serialize)]
struct CompareDoc<'a> {
    resources: &'a [String],
    users: &'a [String],
    mechanisms: Vec<CompareColumn<'a>>,
}

/// One mechanism's column of [`CompareDoc`].
#[derive(Serialize)]
struct CompareColumn<'a> {
    mechanism: &'a str,
    exact: bool,
    tasks: ByName<&'a String, &'a String>,
    dominant_shares: ByName<&'a String, &'a String>,
    utilization: ByName<&'a String, &'a String>,
}

/// `compare` as JSON (see [`CompareDoc`]).
pub fn compare_json(inst: &Instance, columns: &[Column]) -> Value {
    let users: Vec<String> = (0..inst.num_users()).map(|i| inst.user_path(i)).collect();
    let mechanisms = columns
        .iter()
        .map(|c| CompareColumn {
            mechanism: &c.name,
            exact: c.exact,
            tasks: ByName::zip(&users, &c.tasks),
            dominant_shares: ByName::zip(&users, &c.dominant_shares),
            utilization: ByName::zip(inst.resources(), &c.utilization),
        })
        .collect();
    crate::commands::to_value(&CompareDoc {
        resources: inst.resources(),
        users: &users,
        mechanisms,
    })
}

/// `compare` as a side-by-side table (the DRF paper's Figure 4 as text): one block of
/// rows for tasks, one for dominant shares, one for utilisation; a column per mechanism.
pub fn compare_table(inst: &Instance, columns: &[Column]) -> String {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut header = vec![String::new()];
    header.extend(columns.iter().map(|c| {
        if c.exact {
            c.name.clone()
        } else {
            format!("{} (≈)", c.name)
        }
    }));
    rows.push(header);
    let mut block = |title: &str, labels: Vec<String>, pick: &dyn Fn(&Column) -> &Vec<String>| {
        rows.push(vec![title.to_string()]);
        for (k, label) in labels.into_iter().enumerate() {
            let mut row = vec![format!("  {label}")];
            row.extend(columns.iter().map(|c| pick(c)[k].clone()));
            rows.push(row);
        }
    };
    let names: Vec<String> = (0..inst.num_users()).map(|i| inst.user_path(i)).collect();
    block("tasks", names.clone(), &|c| &c.tasks);
    block("dominant share", names, &|c| &c.dominant_shares);
    block("utilization", inst.resources().to_vec(), &|c| {
        &c.utilization
    });
    // The block titles stand alone on their rows: they do not widen the first column.
    let widths = column_widths(rows.iter().filter(|r| r.len() > 1));
    let mut out = String::new();
    for row in &rows {
        push_row(&mut out, row, &widths);
    }
    out
}

/// The width of each column: its widest cell, in characters.
pub(crate) fn column_widths<'a>(rows: impl IntoIterator<Item = &'a Vec<String>>) -> Vec<usize> {
    let mut widths = Vec::new();
    for row in rows {
        widths.resize(widths.len().max(row.len()), 0);
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    widths
}

/// One table row, each cell left-aligned to its column's width, two spaces apart.
pub(crate) fn push_row(out: &mut String, row: &[String], widths: &[usize]) {
    let cells: Vec<String> = row
        .iter()
        .zip(widths)
        .map(|(c, w)| format!("{c:<w$}"))
        .collect();
    out.push_str(cells.join("  ").trim_end());
    out.push('\n');
}
