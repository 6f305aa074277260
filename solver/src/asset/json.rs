//! Writing a [`CompactFilling`] as JSON, streamed: the exact level-coefficient form, or every
//! number correctly rounded to `N` significant digits.
//!
//! # The level-coefficient form (exact)
//! ```text
//! {"mechanism": "asset", "exact": true, "form": "level-coefficient",
//!  "resources": [..], "capacity": ["R_j", ..],
//!  "levels": ["λ_0", "λ_1", ..],
//!  "users": [{"name": "a", "tasks": "T"},
//!            {"name": "b", "level": k, "coefficient": "c"}, ..],
//!  "consumption": ["..", ..], "saturated": ["r", ..]}
//! ```
//! A user frozen by its cap has `tasks` (its cap, exactly). Any other user `i` has
//! `tasks = levels[k] × coefficient` with `coefficient = 1 / a_i`, `a_i = Σ_j d_ij / (R_j w_ij)`
//! its aggregate share per task; its bundle is `tasks × d_i` and its (weighted) aggregate
//! share exactly `levels[k]` (`docs/theory.md` §2.4). Every number is an exact
//! string `"p/q"` or `"p"`; the levels are the large numbers, written once each.
//!
//! # With `decimals`
//! The same fields as every other mechanism's answer (`tasks`, `allocation`,
//! `dominant_share`, `weighted_share` per user), each the exact value correctly rounded to
//! `N` significant digits (ties to even) and written as a JSON number, with
//! `"precision": {"decimals": N}`. The users of a level are rounded from the level's interval
//! ([`DecimalBounds`]), exactly where the interval cannot decide.

use std::io::{self, Write};

use super::{CompactFilling, CompactTasks};
use crate::rational::DecimalBounds;
use crate::{Instance, Rational};

/// Appends `s` as a JSON string literal.
fn push_json_string(s: &str, out: &mut String) {
    out.push_str(&serde_json::Value::String(s.to_owned()).to_string());
}

/// The machine-word parts of a positive rational, when they fit.
fn small_parts(x: &Rational) -> Option<(u128, u128)> {
    let (n, d) = x.as_small()?;
    Some((u128::try_from(n).ok()?, u128::try_from(d).ok()?))
}

impl CompactFilling {
    /// User `i`'s tasks times `factor` (non-negative), correctly rounded to `digits`
    /// significant digits, appended to `out`. `bounds` is the decimal interval of the tasks
    /// when the user belongs to a level (see [`DecimalBounds`]).
    fn push_scaled(
        &self,
        instance: &Instance,
        i: usize,
        bounds: Option<DecimalBounds>,
        factor: &Rational,
        digits: u32,
        out: &mut String,
    ) {
        if factor.is_zero() {
            out.push('0');
            return;
        }
        let decided = bounds
            .zip(small_parts(factor))
            .is_some_and(|(b, (a, q))| b.write_times(a, q, digits, out));
        if !decided {
            (self.exact_tasks(instance, i) * factor).write_decimal(digits, out);
        }
    }

    /// The decimal interval of user `i`'s tasks, for a user of a level.
    fn tasks_decimal_bounds(&self, i: usize) -> Option<DecimalBounds> {
        match &self.tasks[i] {
            CompactTasks::Level { level, coefficient } => {
                let b = &self.saturations[*level].bounds;
                DecimalBounds::of_product(
                    &b.lo,
                    &b.hi,
                    self.precision,
                    &coefficient.numer(),
                    &coefficient.denom(),
                )
            }
            _ => None,
        }
    }

    /// Writes the answer as JSON to `out`, laid out as serde_json's pretty printer lays it
    /// out: the exact level-coefficient form, or with `decimals = Some(N)` every number
    /// correctly rounded to `N` significant digits (the layout is in `docs/theory.md` §2.4). `instance`
    /// must be the instance the filling was computed from.
    ///
    /// # Errors
    /// Those of `out`.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::asset::fill_compact;
    /// use leontief_solver::{Instance, User};
    /// let paper = Instance::new(vec![9.into(), 18.into()],
    ///     vec![User::new("A", [1, 4]), User::new("B", [3, 1])]).unwrap();
    /// let fill = fill_compact(&paper);
    /// let mut exact = Vec::new();
    /// fill.write_json(&paper, "asset", None, &mut exact).unwrap();
    /// let v: serde_json::Value = serde_json::from_slice(&exact).unwrap();
    /// assert_eq!(v["form"], "level-coefficient");
    /// assert_eq!(v["levels"][0], "21/25");
    /// assert_eq!(v["users"][1]["coefficient"], "18/7"); // 54/25 = 21/25 × 18/7
    /// let mut rounded = Vec::new();
    /// fill.write_json(&paper, "asset", Some(2), &mut rounded).unwrap();
    /// let v: serde_json::Value = serde_json::from_slice(&rounded).unwrap();
    /// assert_eq!(v["users"][0]["tasks"], 2.5); // 63/25 = 2.52
    /// ```
    pub fn write_json(
        &self,
        instance: &Instance,
        mechanism: &str,
        decimals: Option<u32>,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let mut buf = String::with_capacity(1 << 17);
        buf.push_str("{\n  \"mechanism\": ");
        push_json_string(mechanism, &mut buf);
        buf.push_str(",\n  \"exact\": true,\n");
        match decimals {
            None => buf.push_str("  \"form\": \"level-coefficient\",\n"),
            Some(n) => buf.push_str(&format!(
                "  \"precision\": {{\n    \"decimals\": {n}\n  }},\n"
            )),
        }
        buf.push_str("  \"resources\": ");
        push_list(instance.resources().iter(), &mut buf, |r, b| {
            push_json_string(r, b)
        });
        buf.push_str(",\n  \"capacity\": ");
        push_list(instance.capacity().iter(), &mut buf, |x, b| {
            push_number(x, decimals, b)
        });
        if decimals.is_none() {
            buf.push_str(",\n  \"levels\": ");
            let mut err = Ok(());
            push_list(0..self.saturations.len(), &mut buf, |k, b| {
                // Each level is written straight through (they are the large numbers).
                if err.is_ok() {
                    err = out.write_all(b.as_bytes());
                }
                b.clear();
                push_number(&self.exact_level(instance, k), None, b);
            });
            err?;
        }
        buf.push_str(",\n  \"users\": [");
        let n = self.tasks.len();
        for i in 0..n {
            buf.push_str(if i == 0 { "\n    {\n" } else { ",\n    {\n" });
            match decimals {
                None => self.push_user_exact(instance, i, &mut buf),
                Some(d) => self.push_user_decimal(instance, i, d, &mut buf),
            }
            buf.push_str("\n    }");
            if buf.len() > 1 << 16 {
                out.write_all(buf.as_bytes())?;
                buf.clear();
            }
        }
        buf.push_str(if n == 0 { "],\n" } else { "\n  ],\n" });
        buf.push_str("  \"consumption\": ");
        out.write_all(buf.as_bytes())?;
        buf.clear();
        let consumption = self.consumption_text(instance, decimals);
        push_list(consumption.iter(), &mut buf, |c, b| b.push_str(c));
        buf.push_str(",\n  \"saturated\": ");
        push_list(self.saturated.iter(), &mut buf, |&j, b| {
            push_json_string(&instance.resources()[j], b)
        });
        buf.push_str("\n}\n");
        out.write_all(buf.as_bytes())
    }

    fn push_user_exact(&self, instance: &Instance, i: usize, out: &mut String) {
        out.push_str("      \"name\": ");
        push_json_string(&instance.user_path(i), out);
        match &self.tasks[i] {
            CompactTasks::Exact(t) => {
                out.push_str(",\n      \"tasks\": ");
                push_number(t, None, out);
            }
            CompactTasks::Level { level, coefficient } => {
                out.push_str(&format!(
                    ",\n      \"level\": {level},\n      \"coefficient\": "
                ));
                push_number(coefficient, None, out);
            }
        }
    }

    fn push_user_decimal(&self, instance: &Instance, i: usize, n: u32, out: &mut String) {
        out.push_str("      \"name\": ");
        push_json_string(&instance.user_path(i), out);
        let bounds = self.tasks_decimal_bounds(i);
        let exact = match &self.tasks[i] {
            CompactTasks::Exact(t) => Some(t),
            _ => None,
        };
        let put = |factor: &Rational, out: &mut String| match exact {
            Some(t) => (t * factor).write_decimal(n, out),
            None => self.push_scaled(instance, i, bounds, factor, n, out),
        };
        out.push_str(",\n      \"tasks\": ");
        put(&Rational::ONE, out);
        out.push_str(",\n      \"allocation\": [");
        let demand = &instance.users()[i].demand;
        for (j, d) in demand.iter().enumerate() {
            out.push_str(if j == 0 { "\n        " } else { ",\n        " });
            put(d, out);
        }
        out.push_str(if demand.is_empty() { "]" } else { "\n      ]" });
        out.push_str(",\n      \"dominant_share\": ");
        let dominant = instance.task_dominant_share(i);
        let start = out.len();
        put(&dominant, out);
        let end = out.len();
        out.push_str(",\n      \"weighted_share\": ");
        let u = &instance.users()[i];
        if u.resource_weights.is_none() && u.weight == Rational::ONE {
            out.extend_from_within(start..end);
        } else {
            put(&instance.task_weighted_share(i), out);
        }
    }

    /// Each resource's total use as printed: its capacity when saturated, otherwise the
    /// exact value or its rounding (from the use's interval when that decides).
    fn consumption_text(&self, instance: &Instance, decimals: Option<u32>) -> Vec<String> {
        let bounds = self.consumption_bounds();
        (0..instance.num_resources())
            .map(|j| {
                let mut out = String::new();
                let cap = &instance.capacity()[j];
                if self.saturated.contains(&j) {
                    push_number(cap, decimals, &mut out);
                    return out;
                }
                match decimals {
                    None => push_number(&self.consumption_of(instance, j), None, &mut out),
                    Some(n) => {
                        let (lo, hi) = &bounds[j];
                        let (a, b) = (lo.to_decimal(n), hi.to_decimal(n));
                        // Rounding is monotone: equal roundings of the ends are the value's.
                        if a == b {
                            out.push_str(&a);
                        } else {
                            self.consumption_of(instance, j).write_decimal(n, &mut out);
                        }
                    }
                }
                out
            })
            .collect()
    }
}

/// Appends a JSON array at depth 1 in serde_json's pretty layout (`[]` when empty), each
/// item written by `item`.
fn push_list<T>(
    items: impl Iterator<Item = T>,
    out: &mut String,
    mut item: impl FnMut(T, &mut String),
) {
    let mut any = false;
    for x in items {
        out.push_str(if any { ",\n    " } else { "[\n    " });
        item(x, out);
        any = true;
    }
    out.push_str(if any { "\n  ]" } else { "[]" });
}
/// An exact string, or a correctly rounded JSON number.
fn push_number(x: &Rational, decimals: Option<u32>, out: &mut String) {
    match decimals {
        None => {
            out.push('"');
            out.push_str(&x.to_string());
            out.push('"');
        }
        Some(n) => x.write_decimal(n, out),
    }
}
