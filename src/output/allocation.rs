//! `solve`'s answer written directly: the JSON of [`crate::render::allocation_json`]
//! byte for byte (exact numbers), or with correctly rounded decimals, as CSV (one row per
//! user), or as a summary of aggregate figures.
//!
//! # Complexity
//! `O(n·m)` numbers for `n` users and `m` resources, each computed and converted once. With
//! decimals a product `x_i · d_ij` of big fractions is rounded from its unreduced numerator
//! and denominator (one division, no gcd).

use std::collections::HashMap;

use leontief_solver::decimal_bounds::DecimalBounds;
use leontief_solver::{Allocation, ExactSum, Instance, Rational};
use num_bigint::BigInt;
use serde_json::{Map, Value};

use super::{write_csv_field, Json, Numbers, Sink};

/// What `solve` prints besides the allocation.
pub struct Answer<'a> {
    /// The mechanism's name.
    pub mechanism: &'a str,
    /// Whether the answer was computed exactly.
    pub exact: bool,
    /// The instance.
    pub instance: &'a Instance,
    /// The allocation.
    pub allocation: &'a Allocation,
    /// Mechanism-specific fields (a trace, LP stages...), written after the allocation;
    /// their exact numbers are rounded with the rest under decimals.
    pub extra: Map<String, Value>,
}

/// Prints numbers as [`Numbers`] says, remembering the text of recent big denominators:
/// progressive filling gives many users the same denominator (97 distinct ones among the
/// 100,000 users of the 100,000 × 8 benchmark), so each is converted to decimal once.
struct Printer {
    numbers: Numbers,
    denominators: HashMap<BigInt, String>,
    /// The last big factor rounded from and its bounds.
    bounds: Option<(Rational, Option<DecimalBounds>)>,
}

/// How many denominators [`Printer`] remembers before starting afresh (bounds its memory).
const REMEMBERED: usize = 4096;

impl Printer {
    fn new(numbers: Numbers) -> Self {
        Printer {
            numbers,
            denominators: HashMap::new(),
            bounds: None,
        }
    }

    /// `x` as a bare cell (`p/q` or the decimal); with `quoted`, exact values are quoted
    /// (JSON strings) and decimals are not (JSON numbers).
    fn number(&mut self, x: &Rational, quoted: bool, out: &mut String) {
        if !x.is_big() || self.numbers != Numbers::Exact {
            if quoted {
                self.numbers.json(x, out);
            } else {
                self.numbers.cell(x, out);
            }
            return;
        }
        use std::fmt::Write;
        if quoted {
            out.push('"');
        }
        let _ = write!(out, "{}", x.numer());
        if !x.is_integer() {
            let den = x.denom();
            out.push('/');
            if let Some(text) = self.denominators.get(&den) {
                out.push_str(text);
            } else {
                if self.denominators.len() >= REMEMBERED {
                    self.denominators.clear();
                }
                let text = den.to_string();
                out.push_str(&text);
                self.denominators.insert(den, text);
            }
        }
        if quoted {
            out.push('"');
        }
    }

    /// `a · b`; under decimals, rounded from the unreduced product when either factor is
    /// big (saving the gcd that only the exact form needs).
    fn product(&mut self, a: &Rational, b: &Rational, quoted: bool, out: &mut String) {
        match self.numbers {
            Numbers::Decimals(n) if a.is_big() || b.is_big() => {
                if self.rounded_product(a, b, n, out) {
                    return;
                }
                leontief_solver::rational::write_ratio_decimal(
                    &(a.numer() * b.numer()),
                    &(a.denom() * b.denom()),
                    n,
                    out,
                );
            }
            _ => self.number(&(a * b), quoted, out),
        }
    }
}

impl Printer {
    /// `a · b` with one factor big and the other small and positive, rounded from machine
    /// words: the big factor's [`DecimalBounds`] are computed once (one division) and reused
    /// for the next products with it (a user's bundle and shares). `false` when the bounds do
    /// not decide (then the caller rounds the exact product).
    fn rounded_product(&mut self, a: &Rational, b: &Rational, n: u32, out: &mut String) -> bool {
        let (big, small) = match (a.is_big(), b.is_big()) {
            (true, false) => (a, b),
            (false, true) => (b, a),
            _ => return false,
        };
        let Some((p, q)) = small
            .as_small()
            .and_then(|(p, q)| Some((u128::try_from(p).ok()?, u128::try_from(q).ok()?)))
            .filter(|&(p, _)| p > 0)
        else {
            return false;
        };
        if self.bounds.as_ref().is_none_or(|(x, _)| x != big) {
            let b = DecimalBounds::of_ratio(&big.numer(), &big.denom());
            self.bounds = Some((big.clone(), b));
        }
        let bounds = self.bounds.as_ref().and_then(|(_, b)| *b);
        bounds
            .and_then(|b| b.times(p, q))
            .is_some_and(|b| b.write_rounded(n, out))
    }
}

/// User `i`'s dominant and weighted shares per task; the second is `None` when it equals
/// the first (weight 1, no per-resource weights), so that it is printed from the same text.
fn per_task_shares(inst: &Instance, i: usize) -> (Rational, Option<Rational>) {
    let u = &inst.users()[i];
    let dominant = inst.task_dominant_share(i);
    if u.resource_weights.is_none() && u.weight == Rational::ONE {
        (dominant, None)
    } else {
        let weighted = inst.task_weighted_share(i);
        (dominant, Some(weighted))
    }
}

/// Total use of each resource, `Σ_i x_i d_ij`, exactly (the value of
/// [`Allocation::consumption`]).
///
/// Terms whose product fits machine words go to an [`ExactSum`]; big terms are grouped by
/// their unreduced denominator (`x_i`'s times `d_ij`'s), whose numerators add as integers,
/// and only the groups are added as fractions. Progressive filling gives many users the same
/// denominator (97 distinct ones among 100,000 users in the 100,000 × 8 benchmark), so this
/// replaces one big gcd per term by one per group.
pub fn consumption(inst: &Instance, x: &Allocation) -> Vec<Rational> {
    (0..inst.num_resources())
        .map(|j| {
            let mut small = ExactSum::new();
            let mut groups: HashMap<BigInt, BigInt> = HashMap::new();
            for (u, t) in inst.users().iter().zip(&x.tasks) {
                let d = &u.demand[j];
                if d.is_zero() || t.is_zero() {
                    continue;
                }
                if !t.is_big() && !d.is_big() {
                    let p = d * t;
                    if !p.is_big() {
                        small.add(&p);
                        continue;
                    }
                }
                *groups.entry(t.denom() * d.denom()).or_default() += t.numer() * d.numer();
            }
            let mut groups: Vec<(BigInt, BigInt)> = groups.into_iter().collect();
            // A fixed order keeps the work reproducible (the exact result does not depend on it).
            groups.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            let mut total = small.value();
            for (den, num) in groups {
                total += Rational::from_big_parts(num, den).expect("denominators are positive");
            }
            total
        })
        .collect()
}

/// The names of the resources used to capacity.
fn saturated<'a>(inst: &'a Instance, consumption: &[Rational]) -> Vec<&'a str> {
    consumption
        .iter()
        .zip(inst.capacity())
        .zip(inst.resources())
        .filter(|((c, r), _)| c >= r)
        .map(|(_, name)| name.as_str())
        .collect()
}

/// Writes the JSON answer: `{"mechanism", "exact", ["precision",] "resources", "capacity",
/// "users": [{"name", "tasks", "allocation", "dominant_share", "weighted_share"}],
/// "consumption", "saturated", ..extra}`.
pub fn write_json(sink: &mut Sink<'_>, numbers: Numbers, answer: Answer<'_>) {
    let Answer {
        mechanism,
        exact,
        instance: inst,
        allocation: x,
        mut extra,
    } = answer;
    let consumption = consumption(inst, x);
    let mut printer = Printer::new(numbers);
    let mut j = Json::new(sink, numbers);
    j.open_object();
    j.key("mechanism");
    j.str(mechanism);
    j.key("exact");
    j.raw(if exact { "true" } else { "false" });
    if let Some(p) = numbers.precision() {
        j.key("precision");
        j.value(&p);
    }
    j.key("resources");
    j.strs(inst.resources());
    j.key("capacity");
    j.numbers(inst.capacity());
    j.key("users");
    j.open_array();
    // Each user's object is written by hand, in the layout `Json` would give it (depth 3
    // members, depth 4 list entries), to keep the per-number cost at one conversion.
    for i in 0..inst.num_users() {
        j.open_object();
        j.key("name");
        j.str(&inst.user_path(i));
        let t = &x.tasks[i];
        j.key("tasks");
        if t.is_big() && matches!(numbers, Numbers::Decimals(_)) {
            // As a product with 1, so that a big count's bounds serve its bundle and shares.
            printer.product(t, &Rational::ONE, true, &mut j.sink.buf);
        } else {
            printer.number(t, true, &mut j.sink.buf);
        }
        j.key("allocation");
        let demand = &inst.users()[i].demand;
        if demand.is_empty() {
            j.sink.buf.push_str("[]");
        } else {
            j.sink.buf.push('[');
            for (k, d) in demand.iter().enumerate() {
                j.sink
                    .buf
                    .push_str(if k == 0 { "\n        " } else { ",\n        " });
                printer.product(d, t, true, &mut j.sink.buf);
            }
            j.sink.buf.push_str("\n      ]");
        }
        let (dominant, weighted) = per_task_shares(inst, i);
        j.key("dominant_share");
        let start = j.sink.buf.len();
        printer.product(t, &dominant, true, &mut j.sink.buf);
        let end = j.sink.buf.len();
        j.key("weighted_share");
        match weighted {
            Some(w) => printer.product(t, &w, true, &mut j.sink.buf),
            None => j.sink.buf.extend_from_within(start..end),
        }
        j.close();
        j.sink.maybe_flush();
    }
    j.close();
    j.key("consumption");
    j.numbers(&consumption);
    j.key("saturated");
    j.strs(&saturated(inst, &consumption));
    if let Numbers::Decimals(n) = numbers {
        for v in extra.values_mut() {
            super::round_value(v, n);
        }
    }
    for (k, v) in &extra {
        j.key(k);
        j.value(v);
        j.sink.maybe_flush();
    }
    j.close();
    j.end();
}

/// Writes one CSV row per user: `user,tasks,<resource>..,dominant_share,weighted_share`
/// (a header row first), numbers exact (`p/q`) or rounded.
pub fn write_csv(sink: &mut Sink<'_>, numbers: Numbers, inst: &Instance, x: &Allocation) {
    let buf = &mut sink.buf;
    buf.push_str("user,tasks");
    for r in inst.resources() {
        buf.push(',');
        write_csv_field(r, buf);
    }
    buf.push_str(",dominant_share,weighted_share\n");
    let mut printer = Printer::new(numbers);
    for i in 0..inst.num_users() {
        let buf = &mut sink.buf;
        write_csv_field(&inst.user_path(i), buf);
        let t = &x.tasks[i];
        buf.push(',');
        printer.number(t, false, buf);
        for d in &inst.users()[i].demand {
            buf.push(',');
            printer.product(d, t, false, buf);
        }
        let (dominant, weighted) = per_task_shares(inst, i);
        buf.push(',');
        let start = buf.len();
        printer.product(t, &dominant, false, buf);
        let end = buf.len();
        buf.push(',');
        match weighted {
            Some(w) => printer.product(t, &w, false, buf),
            None => buf.extend_from_within(start..end),
        }
        buf.push('\n');
        sink.maybe_flush();
    }
}

/// The smallest and largest of `values` with the first user attaining each.
fn extremes(j: &mut Json<'_, '_>, inst: &Instance, values: &[Rational]) {
    let mut lo = 0;
    let mut hi = 0;
    for (i, v) in values.iter().enumerate() {
        if *v < values[lo] {
            lo = i;
        }
        if *v > values[hi] {
            hi = i;
        }
    }
    for (label, i) in [("min", lo), ("max", hi)] {
        j.key(label);
        j.open_object();
        j.key("user");
        j.str(&inst.user_path(i));
        j.key("value");
        j.number(&values[i]);
        j.close();
    }
}

/// Writes the summary: aggregate figures only.
///
/// `{"mechanism", "exact", ["precision",] "users": n, "resources", "capacity",
/// "consumption", "utilization" (consumption / capacity per resource), "saturated",
/// "tasks": {"total", "min": {"user", "value"}, "max": ..}, "dominant_share": {"min", "max"},
/// "weighted_share": {"min", "max", "levels"}, ..extra}` where `levels` counts the distinct
/// weighted dominant shares (the levels at which users stopped, for progressive filling).
/// With no users, the extremes are left out.
pub fn write_summary(sink: &mut Sink<'_>, numbers: Numbers, answer: Answer<'_>) {
    let Answer {
        mechanism,
        exact,
        instance: inst,
        allocation: x,
        mut extra,
    } = answer;
    let consumption = consumption(inst, x);
    let n = inst.num_users();
    let mut j = Json::new(sink, numbers);
    j.open_object();
    j.key("mechanism");
    j.str(mechanism);
    j.key("exact");
    j.raw(if exact { "true" } else { "false" });
    if let Some(p) = numbers.precision() {
        j.key("precision");
        j.value(&p);
    }
    j.key("users");
    j.raw(&n.to_string());
    j.key("resources");
    j.strs(inst.resources());
    j.key("capacity");
    j.numbers(inst.capacity());
    j.key("consumption");
    j.numbers(&consumption);
    j.key("utilization");
    let utilization: Vec<Rational> = consumption
        .iter()
        .zip(inst.capacity())
        .map(|(c, r)| c / r)
        .collect();
    j.numbers(&utilization);
    j.key("saturated");
    j.strs(&saturated(inst, &consumption));
    if n > 0 {
        let mut total = ExactSum::new();
        for t in &x.tasks {
            total.add(t);
        }
        j.key("tasks");
        j.open_object();
        j.key("total");
        j.number(&total.value());
        extremes(&mut j, inst, &x.tasks);
        j.close();
        let dominant: Vec<Rational> = (0..n).map(|i| x.dominant_share(inst, i)).collect();
        j.key("dominant_share");
        j.open_object();
        extremes(&mut j, inst, &dominant);
        j.close();
        let mut weighted: Vec<Rational> = (0..n).map(|i| x.weighted_share(inst, i)).collect();
        j.key("weighted_share");
        j.open_object();
        extremes(&mut j, inst, &weighted);
        weighted.sort_unstable();
        weighted.dedup();
        j.key("levels");
        j.raw(&weighted.len().to_string());
        j.close();
    }
    if let Numbers::Decimals(d) = numbers {
        for v in extra.values_mut() {
            super::round_value(v, d);
        }
    }
    for (k, v) in &extra {
        j.key(k);
        j.value(v);
    }
    j.close();
    j.end();
}
