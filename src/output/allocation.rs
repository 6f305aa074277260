//! `solve`'s answer written directly: JSON with exact numbers or correctly rounded decimals,
//! CSV (one row per user), or a summary of aggregate figures.
//!
//! # Complexity
//! `O(n·m)` numbers for `n` users and `m` resources, each computed and converted once. With
//! decimals a product `x_i · d_ij` of big fractions is rounded from its unreduced numerator
//! and denominator (one division, no gcd).

use std::borrow::Cow;
use std::collections::HashMap;

use leontief_solver::rational::DecimalBounds;
use leontief_solver::{Allocation, ExactSum, Instance, Rational};
use serde::Serialize;
use serde_json::{Map, Value};

use super::digits::{Denominators, Product};
use super::{in_quotes, push_members, write_csv_field, Numbers, Sink};

/// An allocation as `solve` answers it, with what it prints beside it: borrowed from the
/// caller or owned (`solve`'s own answer, which the Python package keeps).
pub struct Answer<'a> {
    /// The mechanism's name.
    pub mechanism: &'static str,
    /// Whether the answer was computed exactly.
    pub exact: bool,
    /// The instance.
    pub instance: Cow<'a, Instance>,
    /// The allocation.
    pub allocation: Cow<'a, Allocation>,
    /// The total use of each resource when the mechanism computed it exactly (the value
    /// of [`Allocation::consumption`]); otherwise it is summed here.
    pub consumption: Option<Vec<Rational>>,
    /// Mechanism-specific fields (a trace, LP stages...), written after the allocation;
    /// their exact numbers are rounded with the rest under decimals.
    pub extra: Map<String, Value>,
    /// Each user's weighted share (its tasks times its weighted dominant share per task),
    /// when the mechanism has it exactly (DRF's progressive filling: the level at which the
    /// user stopped) and the summary is asked for: [`write_summary`] prints the same text
    /// from it without a big product per user.
    pub weighted_shares: Option<Vec<Rational>>,
}

/// Prints numbers as [`Numbers`] says, with what a row's task count needs prepared
/// ([`Printer::tasks`]).
pub(super) struct Printer {
    numbers: Numbers,
    /// The denominators of the task counts whose products are written digit by digit.
    tasks_denominators: Denominators,
}

impl Printer {
    fn new(numbers: Numbers) -> Self {
        Printer {
            numbers,
            tasks_denominators: Denominators::default(),
        }
    }

    /// A row's task count `t` prepared for printing it and its products: under decimals,
    /// machine-word bounds of a big positive `t` (one big division), from which its products
    /// with small factors are rounded ([`DecimalBounds`]); exact, a big `t`'s numerator in
    /// base `10^9` and its denominator converted once ([`Product`], [`Denominators`]).
    fn tasks<'t>(&mut self, t: &'t Rational) -> Tasks<'t> {
        let (bounds, exact) = match (self.numbers, t.big_parts()) {
            (Numbers::Decimals(_), Some((num, den))) => (DecimalBounds::of_ratio(num, den), None),
            (Numbers::Exact, Some((num, den))) => (None, self.tasks_denominators.product(num, den)),
            _ => (None, None),
        };
        Tasks { t, bounds, exact }
    }

    /// `t` itself, rounded from its bounds when they decide it.
    fn number_near(&mut self, t: &Tasks<'_>, quoted: bool, out: &mut String) {
        if let (Some(b), Numbers::Decimals(n)) = (t.bounds, self.numbers)
            && b.write_rounded(n, out)
        {
            return;
        }
        if let Some(exact) = &t.exact {
            in_quotes(quoted, out, |out| {
                self.tasks_denominators.write_self(exact, out)
            });
            return;
        }
        self.numbers.write(t.t, quoted, out);
    }

    /// `a · t` for a small `a ≥ 0`, rounded from `t`'s bounds when they decide it (the
    /// same digits as the product rounded from the unreduced `a · t`, which saves the gcd
    /// that only the exact form needs: both are the correctly rounded value), or written
    /// exactly from `t`'s base-`10^9` digits ([`Denominators::write_times`]).
    fn product_near(&mut self, a: &Rational, t: &Tasks<'_>, quoted: bool, out: &mut String) {
        if let (Some(b), Numbers::Decimals(n), Some((num, den))) =
            (t.bounds, self.numbers, a.as_small())
        {
            if num == 0 {
                out.push('0');
                return;
            }
            if num > 0 && b.write_times(num.unsigned_abs(), den.unsigned_abs(), n, out) {
                return;
            }
        }
        if let (Some(exact), Some((num, den))) = (&t.exact, a.as_small())
            && let (Ok(n), Ok(m)) = (u32::try_from(num), u32::try_from(den))
        {
            in_quotes(quoted, out, |out| {
                self.tasks_denominators.write_times(exact, n, m, out)
            });
            return;
        }
        match self.numbers {
            Numbers::Decimals(n) => a.write_product_decimal(t.t, n, out),
            Numbers::Exact => self.numbers.write(&(a * t.t), quoted, out),
        }
    }

    /// User `i`'s dominant and weighted shares of `t` tasks ([`per_task_shares`]), each
    /// after its separator; the weighted one is copied from the dominant one's text when
    /// they are equal.
    fn shares_near(
        &mut self,
        inst: &Instance,
        i: usize,
        t: &Tasks<'_>,
        separators: [&str; 2],
        quoted: bool,
        out: &mut String,
    ) {
        let (dominant, weighted) = per_task_shares(inst, i);
        out.push_str(separators[0]);
        let start = out.len();
        self.product_near(&dominant, t, quoted, out);
        let end = out.len();
        out.push_str(separators[1]);
        match weighted {
            Some(w) => self.product_near(&w, t, quoted, out),
            None => out.extend_from_within(start..end),
        }
    }
}

/// A row's task count as [`Printer::tasks`] prepares it.
pub(super) struct Tasks<'t> {
    t: &'t Rational,
    bounds: Option<DecimalBounds>,
    exact: Option<Product>,
}

/// User `i`'s dominant and weighted shares per task ([`Instance::task_dominant_share`] and
/// [`Instance::task_weighted_share`]); the second is `None` when it equals the first (weight
/// 1, no per-resource weights), so that it is printed from the same text.
///
/// The dominant resource is found by comparing `d_j · R_k` with `d_k · R_j` (products of the
/// instance's own numbers, usually machine words), then one division gives the share.
pub fn per_task_shares(inst: &Instance, i: usize) -> (Rational, Option<Rational>) {
    let u = &inst.users()[i];
    let capacity = inst.capacity();
    let mut best: Option<usize> = None;
    for (j, d) in u.demand.iter().enumerate() {
        if d.is_zero() {
            continue;
        }
        best = match best {
            Some(b) if cross_le(d, &capacity[b], &u.demand[b], &capacity[j]) => Some(b),
            _ => Some(j),
        };
    }
    let dominant = match best {
        Some(b) => &u.demand[b] / &capacity[b],
        // Validated instances have a positive demand; keep the model's answer otherwise.
        None => inst.task_dominant_share(i),
    };
    match &u.resource_weights {
        None if u.weight == Rational::ONE => (dominant, None),
        None => {
            let weighted = &dominant / &u.weight;
            (dominant, Some(weighted))
        }
        Some(_) => {
            let weighted = inst.task_weighted_share(i);
            (dominant, Some(weighted))
        }
    }
}

/// `a · b <= c · d`, on machine words when all four are integers whose products fit.
fn cross_le(a: &Rational, b: &Rational, c: &Rational, d: &Rational) -> bool {
    if let (Some((a, 1)), Some((b, 1)), Some((c, 1)), Some((d, 1))) =
        (a.as_small(), b.as_small(), c.as_small(), d.as_small())
        && let (Some(ab), Some(cd)) = (a.checked_mul(b), c.checked_mul(d))
    {
        return ab <= cd;
    }
    a * b <= c * d
}

/// Total use of each resource ([`Allocation::consumption_of`]), the resources summed in
/// parallel for large answers.
pub fn consumption(inst: &Instance, x: &Allocation) -> Vec<Rational> {
    use rayon::prelude::*;
    // Small answers in place: waking the pool costs more than the sums.
    if inst.num_users() < 1024 {
        x.consumption(inst)
    } else {
        (0..inst.num_resources())
            .into_par_iter()
            .map(|j| x.consumption_of(inst, j))
            .collect()
    }
}

/// The names of the resources used to capacity.
pub fn saturated<'a>(inst: &'a Instance, consumption: &[Rational]) -> Vec<&'a str> {
    leontief_solver::saturated_resources(consumption, inst.capacity())
        .into_iter()
        .map(|j| inst.resources()[j].as_str())
        .collect()
}

/// The members every allocation answer starts with, before its users.
#[derive(Serialize)]
pub(super) struct Head<'a> {
    pub mechanism: &'a str,
    pub exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<Value>,
    /// The number of users, in a summary (whose users are not listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub users: Option<usize>,
    pub resources: &'a [String],
    pub capacity: Vec<Value>,
}

impl<'a> Head<'a> {
    /// The head of `mechanism`'s answer on `inst`.
    pub(super) fn new(
        numbers: Numbers,
        mechanism: &'a str,
        exact: bool,
        inst: &'a Instance,
    ) -> Self {
        Head {
            mechanism,
            exact,
            precision: numbers.precision(),
            users: None,
            resources: inst.resources(),
            capacity: numbers.values(inst.capacity()),
        }
    }
}

/// Opens an answer: `{"mechanism", "exact", ["precision",] "resources", "capacity", "users": [`
/// — the fields every allocation answer starts with, up to its (open) array of users.
pub(super) fn open_answer(sink: &mut Sink<'_>, head: &Head<'_>) {
    sink.buf.push('{');
    push_members(sink, head, false);
    sink.buf.push_str(",\n  \"users\": [");
}

/// Closes a list or an object (`close`) of `n` rows written by hand under the answer's top
/// level, as serde_json closes it.
pub(super) fn close_rows(sink: &mut Sink<'_>, n: usize, close: char) {
    if n > 0 {
        sink.buf.push_str("\n  ");
    }
    sink.buf.push(close);
}

impl Answer<'_> {
    /// The consumption, known or summed here, with the extra fields' exact numbers rounded
    /// under decimals: what every writer needs first.
    fn prepare(&mut self, numbers: Numbers) -> Vec<Rational> {
        self.extra.values_mut().for_each(|v| numbers.round(v));
        self.consumption
            .take()
            .unwrap_or_else(|| consumption(&self.instance, &self.allocation))
    }
}

/// Writes the members of `tail` (after the answer's own) and closes the answer.
pub(super) fn close_answer<T: Serialize + ?Sized>(sink: &mut Sink<'_>, tail: &T) {
    push_members(sink, tail, true);
    sink.buf.push_str("\n}\n");
}

/// What an allocation answer writes after its users.
#[derive(Serialize)]
pub(super) struct Tail<'a> {
    pub consumption: Vec<Value>,
    pub saturated: Vec<&'a str>,
    #[serde(flatten)]
    pub extra: &'a Map<String, Value>,
}

/// Writes user `i`'s `"allocation"` list, one entry per demand `d`, each by `entry(d, buf)`,
/// in the layout of [`open_user`].
pub(super) fn write_bundle(
    inst: &Instance,
    i: usize,
    buf: &mut String,
    mut entry: impl FnMut(&Rational, &mut String),
) {
    buf.push_str(",\n      \"allocation\": ");
    let demand = &inst.users()[i].demand;
    if demand.is_empty() {
        buf.push_str("[]");
        return;
    }
    buf.push('[');
    for (k, d) in demand.iter().enumerate() {
        buf.push_str(if k == 0 { "\n        " } else { ",\n        " });
        entry(d, buf);
    }
    buf.push_str("\n      ]");
}

/// Opens user `i`'s object in the users array, up to its name, in serde_json's pretty
/// layout (members at depth 3, list entries at depth 4).
pub(super) fn open_user(inst: &Instance, i: usize, buf: &mut String) {
    buf.push_str(if i == 0 {
        "\n    {\n      \"name\": "
    } else {
        ",\n    {\n      \"name\": "
    });
    let u = &inst.users()[i];
    match u.pool {
        // A flat user's path is its name: written without a copy.
        None => super::write_json_str(&u.name, buf),
        Some(_) => super::write_json_str(&inst.user_path(i), buf),
    }
}

/// Writes the JSON answer: `{"mechanism", "exact", ["precision",] "resources", "capacity",
/// "users": [{"name", "tasks", "allocation", "dominant_share", "weighted_share"}],
/// "consumption", "saturated", ..extra}`.
///
/// It writes the answer once: its consumption and extra fields are taken (rounded under
/// decimals), not copied. The answer is borrowed, not owned, so that the caller decides when
/// it is freed (the command line never frees a large one: it exits).
pub fn write_json(sink: &mut Sink<'_>, numbers: Numbers, answer: &mut Answer<'_>) {
    let consumption = answer.prepare(numbers);
    let (inst, x) = (&*answer.instance, &*answer.allocation);
    open_answer(
        sink,
        &Head::new(numbers, answer.mechanism, answer.exact, inst),
    );
    // Each user's object is written by hand, in parallel chunks concatenated in order.
    write_rows(sink, inst.num_users(), numbers, &|i, printer, buf| {
        open_user(inst, i, buf);
        let t = printer.tasks(&x.tasks[i]);
        buf.push_str(",\n      \"tasks\": ");
        printer.number_near(&t, true, buf);
        write_bundle(inst, i, buf, |d, buf| {
            printer.product_near(d, &t, true, buf)
        });
        let keys = [
            ",\n      \"dominant_share\": ",
            ",\n      \"weighted_share\": ",
        ];
        printer.shares_near(inst, i, &t, keys, true, buf);
        buf.push_str("\n    }");
    });
    close_rows(sink, inst.num_users(), ']');
    let tail = Tail {
        consumption: numbers.values(&consumption),
        saturated: saturated(inst, &consumption),
        extra: &answer.extra,
    };
    close_answer(sink, &tail);
}

/// Writes one CSV row per user: `user,tasks,<resource>..,dominant_share,weighted_share`
/// (a header row first), numbers exact (`p/q`) or rounded.
pub fn write_csv(sink: &mut Sink<'_>, numbers: Numbers, inst: &Instance, x: &Allocation) {
    csv_header(inst, &mut sink.buf);
    write_rows(sink, inst.num_users(), numbers, &|i, printer, buf| {
        write_csv_field(&inst.user_path(i), buf);
        let t = printer.tasks(&x.tasks[i]);
        buf.push(',');
        printer.number_near(&t, false, buf);
        for d in &inst.users()[i].demand {
            buf.push(',');
            printer.product_near(d, &t, false, buf);
        }
        printer.shares_near(inst, i, &t, [",", ","], false, buf);
        buf.push('\n');
    });
}

/// The header row of the CSV answers: `user,tasks,<resource>..,dominant_share,weighted_share`.
pub(super) fn csv_header(inst: &Instance, buf: &mut String) {
    buf.push_str("user,tasks");
    for r in inst.resources() {
        buf.push(',');
        write_csv_field(r, buf);
    }
    buf.push_str(",dominant_share,weighted_share\n");
}

/// Users per chunk of [`write_rows`], and chunks per batch (a batch's text is held in memory
/// at once: about 16,000 users, some 20 MB for the 8-resource exact answer).
const CHUNK: usize = 1024;
const BATCH: usize = 16;

/// Writes rows `0..n` with `row`, chunks of rows formatted in parallel (rayon) and handed to
/// the sink's writer in order, so the text is the same whatever the thread count.
///
/// While one batch is written (on this thread), the pool formats the next, so the writes
/// overlap the formatting; the two batches' buffers are reused, so their memory is touched
/// once rather than allocated afresh for every batch.
pub(super) fn write_rows(
    sink: &mut Sink<'_>,
    n: usize,
    numbers: Numbers,
    row: &(dyn Fn(usize, &mut Printer, &mut String) + Sync),
) {
    use rayon::prelude::*;
    // Formats the batch starting at row `start` into `bufs` (one chunk each).
    // Each buffer keeps its printer (and what the printer remembers) from batch to batch.
    let format = |start: usize, bufs: &mut Vec<(String, Printer)>| {
        let end = (start + CHUNK * BATCH).min(n);
        let chunks = (end - start).div_ceil(CHUNK);
        if bufs.len() < chunks {
            bufs.resize_with(chunks, || (String::new(), Printer::new(numbers)));
        }
        let chunk = |(k, (buf, printer)): (usize, &mut (String, Printer))| {
            buf.clear();
            let lo = start + k * CHUNK;
            for i in lo..(lo + CHUNK).min(end) {
                row(i, printer, buf);
            }
        };
        // One chunk is written in place: waking the pool costs more than a small answer.
        if chunks > 1 {
            bufs[..chunks].par_iter_mut().enumerate().for_each(chunk);
        } else {
            bufs[..chunks].iter_mut().enumerate().for_each(chunk);
        }
        chunks
    };
    if n == 0 {
        return;
    }
    let mut current: Vec<(String, Printer)> = Vec::new();
    let mut next: Vec<(String, Printer)> = Vec::new();
    let mut chunks = format(0, &mut current);
    let mut start = 0;
    loop {
        let following = start + CHUNK * BATCH;
        if following >= n {
            for (text, _) in &current[..chunks] {
                sink.write_through(text);
            }
            break;
        }
        // This thread writes the batch while the pool formats the next one.
        let mut following_chunks = 0;
        rayon::in_place_scope(|scope| {
            scope.spawn(|_| following_chunks = format(following, &mut next));
            for (text, _) in &current[..chunks] {
                sink.write_through(text);
            }
        });
        std::mem::swap(&mut current, &mut next);
        chunks = following_chunks;
        start = following;
    }
}

/// The users (in increasing order) at which `value` is least and greatest, comparing exactly:
/// the first such user on ties.
fn extremes_among(users: &[usize], value: impl Fn(usize) -> Rational) -> (usize, usize) {
    let mut found = FactorExtremes::new(users[0], value(users[0]));
    for &i in &users[1..] {
        found.add(i, value(i));
    }
    (found.least.0, found.greatest.0)
}

/// A summary's fields (see [`write_summary`]), its numbers printed already: the allocation
/// writer's and the algebraic CEEI answer's.
#[derive(Serialize)]
pub(super) struct SummaryDoc<'a> {
    /// The head of an answer, with the number of users.
    #[serde(flatten)]
    pub head: Head<'a>,
    pub consumption: Vec<Value>,
    /// Consumption over capacity, per resource.
    pub utilization: Vec<Value>,
    pub saturated: Vec<&'a str>,
    /// The figures over the users (none without users).
    #[serde(flatten)]
    pub figures: Option<SummaryUsers>,
    /// The mechanism's own fields, last.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The figures over the users of a [`SummaryDoc`].
#[derive(Serialize)]
pub(super) struct SummaryUsers {
    pub tasks: Figure,
    pub dominant_share: Figure,
    pub weighted_share: Figure,
}

/// One figure over the users: the total (tasks), the users where it is least and greatest,
/// and the number of distinct values (weighted shares).
#[derive(Serialize)]
pub(super) struct Figure {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<Extreme>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<Extreme>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub levels: Option<usize>,
}

/// A user attaining an extreme, and the value there.
#[derive(Serialize)]
pub(super) struct Extreme {
    user: String,
    value: Value,
}

impl Figure {
    /// The figure with its `(min, max)` users, `value` giving each one's value.
    pub(super) fn extremes(
        inst: &Instance,
        at: Option<(usize, usize)>,
        value: impl Fn(usize) -> Value,
    ) -> Figure {
        let extreme = |i: usize| Extreme {
            user: inst.user_path(i),
            value: value(i),
        };
        Figure {
            total: None,
            min: at.map(|(lo, _)| extreme(lo)),
            max: at.map(|(_, hi)| extreme(hi)),
            levels: None,
        }
    }
}

impl SummaryDoc<'_> {
    /// Writes the summary as pretty JSON.
    pub(super) fn write(&self, sink: &mut Sink<'_>) {
        sink.buf.push_str(&crate::commands::pretty(self));
    }
}

/// The least and greatest of a value (a small factor over a group's users), each with its
/// first user.
struct FactorExtremes {
    least: (usize, Rational),
    greatest: (usize, Rational),
}

impl FactorExtremes {
    fn new(i: usize, factor: Rational) -> Self {
        FactorExtremes {
            least: (i, factor.clone()),
            greatest: (i, factor),
        }
    }

    fn add(&mut self, i: usize, factor: Rational) {
        if factor < self.least.1 {
            self.least = (i, factor.clone());
        }
        if factor > self.greatest.1 {
            self.greatest = (i, factor);
        }
    }

    /// The users at which `share · factor` is least and greatest: for a positive share those
    /// of the factor, for a negative one swapped; for zero, every value is zero, so `first`.
    fn of_product(&self, share: &Rational, first: usize) -> [usize; 2] {
        match share.signum() {
            1 => [self.least.0, self.greatest.0],
            -1 => [self.greatest.0, self.least.0],
            _ => [first, first],
        }
    }
}

/// The users sharing one weighted share `w` whose share per task `s_i` is nonzero: their
/// tasks are `w / s_i` and their dominant shares `w · (μ_i / s_i)` (`μ_i` the dominant share
/// per task).
struct ShareGroup {
    share: Rational,
    /// The group's first user (all of its weighted shares are equal).
    first: usize,
    /// `Σ 1/s_i`, so the group's tasks sum to `w · Σ 1/s_i`.
    inverse_sum: ExactSum,
    /// Extremes of `1/s_i` (the tasks over `w`).
    tasks: FactorExtremes,
    /// Extremes of `μ_i / s_i` (the dominant shares over `w`).
    dominant: FactorExtremes,
}

/// What the summary prints besides the totals per resource, computed with one product of a
/// big fraction by a small one per user (its weighted share) instead of a big sum and big
/// comparisons per user.
///
/// Users are grouped by weighted share (for progressive filling, the levels at which they
/// stopped: few groups). Within a group a user's tasks and dominant share are the group's
/// share times a small factor, so their extremes are found on the small factors (the first
/// user on ties, as over all users) and the tasks sum with small sums and one big product
/// per group; only the groups' candidates are compared as big fractions. A user whose share
/// per task is zero (no positive demand) has a weighted share of zero whatever its tasks, so
/// its figures are taken directly.
struct SummaryFigures {
    total_tasks: Rational,
    tasks: (usize, usize),
    dominant: (usize, usize),
    weighted: (usize, usize),
    /// The number of distinct weighted shares.
    levels: usize,
}

impl SummaryFigures {
    /// The figures of `x`; `shares`, when given, holds each user's weighted share
    /// (`x_i · s_i`) as the mechanism computed it, which saves a big product per user.
    fn of(inst: &Instance, x: &Allocation, shares: Option<&[Rational]>) -> SummaryFigures {
        let mut groups: Vec<ShareGroup> = Vec::new();
        // Groups by the hash of their share's reduced parts, then by equality (hashing a big
        // `Rational` itself walks its continued fraction, which is slow).
        let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::new();
        // Users whose share per task is zero, with the distinct weighted shares they add.
        let mut direct: Vec<usize> = Vec::new();
        let mut direct_shares: Vec<Rational> = Vec::new();
        // Each user's weighted share, its hash, and (for a nonzero share per task) the small
        // factors: computed in parallel, the big product per user being most of the work.
        let per_user = |i: usize| {
            let (dominant, weighted) = per_task_shares(inst, i);
            let per_task = weighted.as_ref().unwrap_or(&dominant);
            let share = match shares {
                Some(shares) => shares[i].clone(),
                None => &x.tasks[i] * per_task,
            };
            let factors = per_task.recip().map(|inverse| {
                let dominant_factor = match &weighted {
                    None => Rational::ONE,
                    Some(_) => &dominant * &inverse,
                };
                (inverse, dominant_factor)
            });
            (share_hash(&share), share, factors)
        };
        let users: Vec<_> = {
            use rayon::prelude::*;
            (0..inst.num_users())
                .into_par_iter()
                .with_min_len(CHUNK)
                .map(per_user)
                .collect()
        };
        for (i, (hash, share, factors)) in users.into_iter().enumerate() {
            let Some((inverse, dominant_factor)) = factors else {
                if !direct_shares.contains(&share) {
                    direct_shares.push(share);
                }
                direct.push(i);
                continue;
            };
            let slot = by_hash.entry(hash).or_default();
            match slot.iter().find(|&&g| groups[g].share == share) {
                Some(&g) => {
                    let group = &mut groups[g];
                    group.inverse_sum.add(&inverse);
                    group.tasks.add(i, inverse);
                    group.dominant.add(i, dominant_factor);
                }
                None => {
                    slot.push(groups.len());
                    let mut inverse_sum = ExactSum::new();
                    inverse_sum.add(&inverse);
                    groups.push(ShareGroup {
                        share,
                        first: i,
                        inverse_sum,
                        tasks: FactorExtremes::new(i, inverse),
                        dominant: FactorExtremes::new(i, dominant_factor),
                    });
                }
            }
        }
        let mut total = ExactSum::new();
        for group in &mut groups {
            total.add(&(&group.share * &group.inverse_sum.value()));
        }
        for &i in &direct {
            total.add(&x.tasks[i]);
        }
        let candidates = |pick: &dyn Fn(&ShareGroup) -> Vec<usize>| {
            let mut users: Vec<usize> = groups.iter().flat_map(pick).collect();
            users.extend(&direct);
            users.sort_unstable();
            users.dedup();
            users
        };
        let tasks = candidates(&|g| g.tasks.of_product(&g.share, g.first).to_vec());
        let dominant = candidates(&|g| g.dominant.of_product(&g.share, g.first).to_vec());
        let weighted = candidates(&|g| vec![g.first]);
        let levels = groups.len()
            + direct_shares
                .iter()
                .filter(|s| !groups.iter().any(|g| g.share == **s))
                .count();
        SummaryFigures {
            total_tasks: total.value(),
            tasks: extremes_among(&tasks, |i| x.tasks[i].clone()),
            dominant: extremes_among(&dominant, |i| x.dominant_share(inst, i)),
            weighted: extremes_among(&weighted, |i| x.weighted_share(inst, i)),
            levels,
        }
    }
}

/// A hash of `x`'s reduced parts.
fn share_hash(x: &Rational) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one((x.as_small(), x.big_parts()))
}

/// Writes the summary: aggregate figures only.
///
/// `{"mechanism", "exact", ["precision",] "users": n, "resources", "capacity",
/// "consumption", "utilization" (consumption / capacity per resource), "saturated",
/// "tasks": {"total", "min": {"user", "value"}, "max": ..}, "dominant_share": {"min", "max"},
/// "weighted_share": {"min", "max", "levels"}, ..extra}` where `levels` counts the distinct
/// weighted dominant shares (the levels at which users stopped, for progressive filling).
/// With no users, the extremes are left out.
///
/// The answer's `weighted_shares`, when given, hold each user's weighted share `x_i · s_i`
/// (`s_i` its weighted dominant share per task) as progressive filling knows it (the level
/// at which the user stopped): the same text, without a big product per user. Like
/// [`write_json`], it takes the answer's consumption and extra fields.
pub fn write_summary(sink: &mut Sink<'_>, numbers: Numbers, answer: &mut Answer<'_>) {
    let consumption = answer.prepare(numbers);
    let (inst, x) = (&*answer.instance, &*answer.allocation);
    let shares = answer.weighted_shares.as_deref();
    let utilization: Vec<Rational> = consumption
        .iter()
        .zip(inst.capacity())
        .map(|(c, r)| c / r)
        .collect();
    let figures = (inst.num_users() > 0).then(|| {
        let f = SummaryFigures::of(inst, x, shares);
        let figure = |at, value: &dyn Fn(usize) -> Rational| {
            Figure::extremes(inst, Some(at), |i| numbers.value(&value(i)))
        };
        SummaryUsers {
            tasks: Figure {
                total: Some(numbers.value(&f.total_tasks)),
                ..figure(f.tasks, &|i| x.tasks[i].clone())
            },
            dominant_share: figure(f.dominant, &|i| x.dominant_share(inst, i)),
            weighted_share: Figure {
                levels: Some(f.levels),
                ..figure(f.weighted, &|i| x.weighted_share(inst, i))
            },
        }
    });
    SummaryDoc {
        head: Head {
            users: Some(inst.num_users()),
            ..Head::new(numbers, answer.mechanism, answer.exact, inst)
        },
        consumption: numbers.values(&consumption),
        utilization: numbers.values(&utilization),
        saturated: saturated(inst, &consumption),
        figures,
        extra: std::mem::take(&mut answer.extra),
    }
    .write(sink);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::pretty;
    use crate::output::{finish_json, to_string};
    use crate::render::filling_trace_json;
    use leontief_solver::random_instances::{cluster_workload, SplitMix64};
    use leontief_solver::{AssetFairness, Drf, Pool, User};

    /// Random instances with what the writer must print alike: names needing escapes,
    /// pools (users printed by path), weights, per-resource weights, caps, fractional and
    /// zero demands, and answers with big numbers.
    fn instances() -> Vec<Instance> {
        let mut out = Vec::new();
        for seed in 0..6u64 {
            let base = cluster_workload(20 + 30 * seed as usize, 1 + seed as usize % 4, seed);
            let mut rng = SplitMix64::new(seed);
            let users: Vec<User> = base
                .users()
                .iter()
                .enumerate()
                .map(|(i, u)| {
                    let mut u = u.clone();
                    if i % 7 == 3 {
                        u.name = format!("u\"{i}\"\\é\n");
                    }
                    for d in &mut u.demand {
                        if d.is_positive() && rng.chance(1, 3) {
                            *d = d.clone()
                                - Rational::new(i128::from(rng.range(1, 99)), 100).unwrap();
                        }
                    }
                    if seed % 2 == 1 && i % 5 == 0 {
                        let m = u.demand.len();
                        u = u.resource_weights((0..m).map(|j| (j % 3 + 1) as u64));
                    }
                    if seed % 3 == 2 {
                        u = u.pool(i % 2);
                    }
                    u
                })
                .collect();
            let resources: Vec<String> = base.resources().to_vec();
            let capacity = base.capacity().to_vec();
            let inst = if seed % 3 == 2 {
                let pools = vec![Pool::new("P"), Pool::new("Q,\"x\"").weight(2)];
                Instance::builder(capacity)
                    .resources(resources)
                    .pools(pools)
                    .users(users)
                    .build()
            } else {
                Instance::builder(capacity)
                    .resources(resources)
                    .users(users)
                    .build()
            };
            out.push(inst.expect("valid instance"));
        }
        // More users than one chunk of `write_rows`: chunks concatenate in order.
        out.push(cluster_workload(2 * CHUNK + 300, 3, 9));
        out
    }

    fn streamed(
        numbers: Numbers,
        inst: &Instance,
        x: &Allocation,
        extra: Map<String, Value>,
    ) -> String {
        to_string(|sink| {
            write_json(
                sink,
                numbers,
                &mut Answer {
                    mechanism: "drf",
                    exact: true,
                    instance: Cow::Borrowed(inst),
                    allocation: Cow::Borrowed(x),
                    consumption: None,
                    extra,
                    weighted_shares: None,
                },
            )
        })
    }

    #[test]
    fn rounded_json_is_the_exact_json_rounded() {
        // Each rounded number (products rounded from the bounds of a big task count, or
        // unreduced) is the exact kernel's rounding of the exact answer's number, and the
        // precision note sits after "exact" as in the other answers.
        let mut big = 0;
        for inst in instances() {
            for fill in [Drf::extended().fill(&inst), AssetFairness.fill(&inst)] {
                let mut extra = Map::new();
                extra.insert("trace".into(), filling_trace_json(&inst, &fill));
                extra.insert("lp_stages".into(), serde_json::json!(3));
                let x = Allocation::new(fill.tasks);
                big += x.tasks.iter().filter(|t| t.is_big()).count();
                let exact: Value =
                    serde_json::from_str(&streamed(Numbers::Exact, &inst, &x, extra.clone()))
                        .expect("JSON");
                for digits in [1, 3, 12, 40] {
                    let numbers = Numbers::Decimals(digits);
                    let expected = pretty(&finish_json(exact.clone(), numbers));
                    assert_eq!(streamed(numbers, &inst, &x, extra.clone()), expected);
                }
            }
        }
        // The big-integer paths (cached denominators, unreduced products) were exercised.
        assert!(big > 0, "no answer needed big integers");
    }

    #[test]
    fn rounded_csv_is_the_exact_csv_rounded() {
        let mut big = 0;
        for inst in instances() {
            let x = Allocation::new(Drf::extended().fill(&inst).tasks);
            big += x.tasks.iter().filter(|t| t.is_big()).count();
            let exact = to_string(|sink| write_csv(sink, Numbers::Exact, &inst, &x));
            for digits in [1, 3, 12, 40] {
                let rounded =
                    to_string(|sink| write_csv(sink, Numbers::Decimals(digits), &inst, &x));
                assert_eq!(
                    rounded,
                    crate::output::round_csv(&exact, digits),
                    "{digits}"
                );
            }
        }
        // Big task counts were rounded from their bounds.
        assert!(big > 0, "no answer needed big integers");
    }

    /// DRF's levels are its users' weighted shares (`x_i = λ_i / s_i`, so `x_i · s_i = λ_i`):
    /// the summary given them prints what it prints computing each share from the tasks.
    #[test]
    fn the_summary_from_drf_levels_is_the_summary_from_tasks() {
        for inst in instances() {
            let fill = Drf::extended().fill(&inst);
            let x = Allocation::new(fill.tasks.clone());
            for numbers in [Numbers::Exact, Numbers::Decimals(12)] {
                let summary = |shares: Option<&[Rational]>| {
                    to_string(|sink| {
                        let mut answer = Answer {
                            mechanism: "drf",
                            exact: true,
                            instance: Cow::Borrowed(&inst),
                            allocation: Cow::Borrowed(&x),
                            consumption: None,
                            extra: Map::new(),
                            weighted_shares: shares.map(<[Rational]>::to_vec),
                        };
                        write_summary(sink, numbers, &mut answer)
                    })
                };
                assert_eq!(summary(Some(&fill.levels)), summary(None));
            }
        }
    }

    #[test]
    fn consumption_is_the_plain_sum_and_the_fillings() {
        for inst in instances() {
            for fill in [Drf::extended().fill(&inst), AssetFairness.fill(&inst)] {
                let x = Allocation::new(fill.tasks);
                // The grouped sums against the plain sum of the terms x_i d_ij.
                let plain: Vec<Rational> = (0..inst.num_resources())
                    .map(|j| {
                        let terms = inst.users().iter().zip(&x.tasks);
                        terms.fold(Rational::ZERO, |s, (u, t)| s + &u.demand[j] * t)
                    })
                    .collect();
                assert_eq!(consumption(&inst, &x), plain);
                // The filling's own running totals, which `solve` prints instead.
                assert_eq!(fill.consumption, plain);
            }
        }
    }
}
