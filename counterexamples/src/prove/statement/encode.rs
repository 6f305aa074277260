//! The encoding of one case: the instance's unknowns in normal form, both answers by the
//! mechanism's encoding, and the negated goal over them.

use leontief_solver::properties::Property;

use crate::explore::MetricName;

use super::{Goal, Kind, ProvedMechanism, Shape, Split, Statement};
use crate::prove::smt::{and, binary, mul, or, sum, Script};
use crate::prove::{asset, ceei, common_level, drf, goals};

/// The terms of one demand profile, in normal form.
#[derive(Debug, Clone)]
pub struct Profile {
    /// `demands[i][r]`: user `i`'s (reported) demand for resource `r`.
    pub demands: Vec<Vec<String>>,
    /// Weights, when the domain has them (else every weight is 1).
    pub weights: Option<Vec<String>>,
    /// Task caps, when the domain has them.
    pub caps: Option<Vec<String>>,
}

impl Profile {
    /// The number of users.
    pub fn users(&self) -> usize {
        self.demands.len()
    }

    /// The number of resources.
    pub fn resources(&self) -> usize {
        self.demands.first().map_or(0, Vec::len)
    }

    /// Every resource's `load_r = Σ_i tasks_i · d_ir`.
    pub fn loads(&self, tasks: &[String]) -> Vec<String> {
        (0..self.resources())
            .map(|r| sum((0..self.users()).map(|i| mul(&tasks[i], &self.demands[i][r]))))
            .collect()
    }
}

impl Statement {
    /// Declares the instance's unknowns in normal form: every user's demand row `d_i_r`
    /// (its largest entry the case's `dominant[i]` when the case fixes it), and the weights
    /// `w_i` and caps `t_i` when the domain has them, all positive.
    pub(crate) fn declare_users(&self, s: &mut Script, dominant: &[usize]) -> Profile {
        let n = self.users;
        let demands = (0..n)
            .map(|i| self.demand_row(s, "d", i, dominant.get(i).copied()))
            .collect();
        Profile {
            demands,
            weights: self.weights.then(|| s.positive_reals("w", n)),
            caps: self.caps.then(|| s.positive_reals("t", n)),
        }
    }

    /// The script of one case.
    pub(super) fn script(&self, kind: &Kind) -> Script {
        if !self.goal.is_about_lies() {
            return goals::script(self, &kind.truth);
        }
        if let (ProvedMechanism::Ceei, Shape::Support(truth), Shape::Support(lie)) =
            (self.mechanism, &kind.truth, &kind.lie)
        {
            return ceei::manipulation_script(self, truth, lie);
        }
        let (n, m) = (self.users, self.resources);
        let mut s = Script::new();
        let truthful = self.declare_users(&mut s, &kind.dominant);
        let demands = &truthful.demands;
        // When no case type names users (price supports, one case), users within the
        // coalition and within the others may still be permuted: sort each class by its
        // first demand entry.
        if !matches!(self.split(), Split::Bottlenecks { .. }) {
            self.sort_classes(&mut s, demands);
        }
        let mut lying = truthful.clone();
        for i in self.liars() {
            let dominant = kind.dominant.get(n + i).copied();
            lying.demands[i] = self.demand_row(&mut s, "e", i, dominant);
        }
        // A cap counts tasks of the report, so rescaling a report to the normal form rescales
        // its cap by the same factor, which may be any: a liar's cap in the lying profile is
        // an unknown of its own (docs/theory.md §6.5).
        if let Some(t) = &mut lying.caps {
            for i in self.liars() {
                t[i] = s.positive_real(&format!("tl_{}", i + 1));
            }
        }
        let x = s.reals("x", 0..n);
        let y = s.reals("y", 0..n);
        self.encode(&mut s, &truthful, &x, &x, &kind.truth, "t");
        self.encode(&mut s, &lying, &y, &y, &kind.lie, "l");
        let bundles = |tasks: &[String], rows: &[Vec<String>]| -> Vec<Vec<String>> {
            (0..n)
                .map(|i| (0..m).map(|r| mul(&tasks[i], &rows[i][r])).collect())
                .collect()
        };
        if let Goal::Bound(MetricName::SpGain, _) = &self.goal {
            // The gain is a ratio: the liar has something at the truth.
            s.assert(binary(">", &x[0], "0.0"));
        }
        let answers = Answers {
            needs: positive_entries(demands),
            before: bundles(&x, demands),
            after: bundles(&y, &lying.demands),
            caps: truthful.caps.clone().map(|t| (t, x.clone())),
        };
        self.assert_goal(&mut s, &answers);
        s
    }

    /// A demand row `{prefix}_i_r` in normal form: entries in [0, 1] (or (0, 1] when `positive`),
    /// the largest 1 — the entry `dominant` when given (a constant then, not an unknown).
    fn demand_row(
        &self,
        s: &mut Script,
        prefix: &str,
        i: usize,
        dominant: Option<usize>,
    ) -> Vec<String> {
        let row: Vec<String> = (0..self.resources)
            .map(|r| {
                let name = format!("{prefix}_{}_{}", i + 1, r + 1);
                if dominant == Some(r) {
                    s.report(&name, "1.0");
                    return "1.0".to_string();
                }
                let a = s.reported_real(&name);
                s.assert(binary(if self.positive { ">" } else { ">=" }, &a, "0.0"));
                s.assert(binary("<=", &a, "1.0"));
                a
            })
            .collect();
        if dominant.is_none() {
            s.assert(or(row.iter().map(|a| binary("=", a, "1.0"))));
        }
        row
    }

    /// Asserts that the coalition's members, and the others, come in the order of their
    /// rows' first entries.
    pub(crate) fn sort_classes(&self, s: &mut Script, rows: &[Vec<String>]) {
        sort_by_first_entry(s, rows, |i| Some(usize::from(i >= self.coalition)));
    }

    /// Asserts the negated goal: the coalition's reports make its members better off, in the
    /// sense of the goal (docs/theory.md §6.5), given both answers' bundles.
    pub fn assert_goal(&self, s: &mut Script, answers: &Answers) {
        let n = self.users;
        match &self.goal {
            Goal::Bound(MetricName::SpGain, c) => {
                let c = self.bound_term(s, c);
                s.assert(answers.better(0, Some(&c), true));
            }
            Goal::Bound(MetricName::GspGain, c) => {
                let c = self.bound_term(s, c);
                // Every liar weakly better off, and some user with tasks gaining more than
                // c (docs/theory.md §6.5): it strictly gains, so it is a member.
                for i in self.liars() {
                    s.assert(answers.better(i, None, false));
                }
                s.assert(or((0..n).map(|i| {
                    and([answers.has_tasks(i), answers.better(i, Some(&c), true)])
                })));
            }
            // Decided by goals::script (returned above).
            Goal::Bound(..) => {}
            Goal::Property(Property::Sp) => s.assert(answers.better(0, None, true)),
            // Exactly this case's liars (cases() covers every size up to k).
            Goal::Property(Property::GspWeak) => {
                // The coalition is the liars (a truthful member strictly gaining only widens
                // it), every one strictly better off.
                for i in self.liars() {
                    s.assert(answers.better(i, None, true));
                }
            }
            Goal::Property(_) => {
                // Every liar weakly better off and some user, liar or not, strictly: the
                // coalition is the liars and whoever strictly gains (as the checker reads it).
                for i in self.liars() {
                    s.assert(answers.better(i, None, false));
                }
                s.assert(or((0..n).map(|i| answers.better(i, None, true))));
            }
        }
    }

    /// Asserts that `tasks` is the mechanism's answer on `profile`, of type `shape`; DRF's
    /// encodings read each user's dominant share from `shares` (`tasks` itself in normal
    /// form), the others read the rows as they are.
    pub(crate) fn encode(
        &self,
        s: &mut Script,
        profile: &Profile,
        tasks: &[String],
        shares: &[String],
        shape: &Shape,
        at: &str,
    ) {
        match self.mechanism {
            ProvedMechanism::Drf | ProvedMechanism::Collapsed => {
                drf::encode(s, profile, tasks, shares, shape)
            }
            ProvedMechanism::Asset => asset::encode(s, profile, tasks, shape),
            ProvedMechanism::DrfCommonLevel => common_level::encode(s, profile, tasks, shares, at),
            ProvedMechanism::Ceei => ceei::encode(s, profile, tasks, shape, at),
        }
    }
}

/// Both answers of one query as bundles, which is all a goal speaks of.
#[derive(Debug, Clone)]
pub struct Answers {
    /// `needs[i][r]`: user `i` truly needs resource `r` (a term).
    pub needs: Vec<Vec<String>>,
    /// User `i`'s bundle at the truth.
    pub before: Vec<Vec<String>>,
    /// User `i`'s bundle when the coalition reports.
    pub after: Vec<Vec<String>>,
    /// Caps, when the domain has them, with the truthful tasks they compare with.
    pub caps: Option<(Vec<String>, Vec<String>)>,
}

impl Answers {
    /// User `i` has tasks at the truth: its bundle before is not zero.
    fn has_tasks(&self, i: usize) -> String {
        or(self.before[i].iter().map(|b| binary(">", b, "0.0")))
    }

    /// User `i`'s true utility after is at least (`strict`: above) `c` (default 1) times its
    /// utility before (docs/theory.md §6.5): on every resource it truly needs, its new bundle
    /// covers `c` times its old one (and its cap allows it).
    fn better(&self, i: usize, c: Option<&str>, strict: bool) -> String {
        let rel = if strict { ">" } else { ">=" };
        let scaled = |t: &String| match c {
            Some(c) => mul(c, t),
            None => t.clone(),
        };
        let mut terms: Vec<String> = (0..self.needs[i].len())
            .map(|r| {
                let covers = binary(rel, &self.after[i][r], &scaled(&self.before[i][r]));
                binary("=>", &self.needs[i][r], &covers)
            })
            .collect();
        if let Some((caps, tasks)) = &self.caps {
            terms.push(binary(rel, &caps[i], &scaled(&tasks[i])));
        }
        and(terms)
    }
}

/// Asserts that the users of each class (`class(i)`; `None`: in none) come in the order of
/// their rows' first entries: each user's first entry is at most the next one's of its class.
pub(crate) fn sort_by_first_entry(
    s: &mut Script,
    rows: &[Vec<String>],
    class: impl Fn(usize) -> Option<usize>,
) {
    for i in 0..rows.len() {
        let next = (i + 1..rows.len()).find(|&j| class(i).is_some() && class(j) == class(i));
        if let Some(j) = next {
            s.assert(binary("<=", &rows[i][0], &rows[j][0]));
        }
    }
}

/// `rows[i][r] > 0` for every entry: which resources each row needs.
pub(crate) fn positive_entries(rows: &[Vec<String>]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|row| row.iter().map(|a| binary(">", a, "0.0")).collect())
        .collect()
}
