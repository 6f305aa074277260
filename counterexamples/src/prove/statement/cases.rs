//! The split of a statement into cases: the combinatorial types an answer is restricted to
//! (bottleneck assignments, price supports, largest demand entries), one type kept per orbit
//! of the statement's symmetries, each type one script.

use super::{ProveError, ProvedMechanism, Statement};
use crate::prove::smt::Script;
use crate::record::permutations;

/// The combinatorial type an answer is restricted to in one case.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shape {
    /// Any type (the encoding's disjunction).
    Any,
    /// User `i`'s bottleneck resource, or `m` for a user held at its cap.
    Bottlenecks(Vec<usize>),
    /// Which prices are positive.
    Support(Vec<bool>),
}

impl Shape {
    /// The shape with users renumbered by `users` (`new[users[i]] = old[i]`) and resources by
    /// `resources`.
    fn permuted(&self, users: &[usize], resources: &[usize]) -> Shape {
        match self {
            Shape::Any => Shape::Any,
            Shape::Bottlenecks(b) => {
                let mut out = vec![0; b.len()];
                for (i, &r) in b.iter().enumerate() {
                    out[users[i]] = resources.get(r).copied().unwrap_or(r);
                }
                Shape::Bottlenecks(out)
            }
            Shape::Support(s) => {
                let mut out = vec![false; s.len()];
                for (r, &positive) in s.iter().enumerate() {
                    out[resources[r]] = positive;
                }
                Shape::Support(out)
            }
        }
    }

    fn label(&self, resources: usize) -> String {
        match self {
            Shape::Any => "any".into(),
            Shape::Bottlenecks(b) => {
                let names: Vec<String> = b
                    .iter()
                    .map(|&r| {
                        if r == resources {
                            "cap".into()
                        } else {
                            format!("r{}", r + 1)
                        }
                    })
                    .collect();
                format!("bottlenecks ({})", names.join(","))
            }
            Shape::Support(s) => {
                let priced: Vec<usize> = (0..s.len()).filter(|&r| s[r]).collect();
                format!("prices>0 on {{{}}}", names(&priced))
            }
        }
    }
}

/// One case: a script and what it is.
#[derive(Debug, Clone)]
pub struct Case {
    /// Its number.
    pub index: usize,
    /// How many lying slots its query has (1 for `sp`; for a group property, one size of
    /// the coalitions covered).
    pub coalition: usize,
    /// Its combinatorial type, in words.
    pub label: String,
    /// The query.
    pub script: Script,
}

impl Statement {
    pub(super) fn split(&self) -> Split {
        match self.mechanism {
            ProvedMechanism::Ceei => Split::Supports,
            ProvedMechanism::DrfCommonLevel => Split::None,
            // A group manipulation is expected to be found at once in one case; splitting
            // it multiplies the cases by every member's report type.
            _ if self.coalition > 1 && self.goal.is_about_lies() => Split::None,
            _ => Split::Bottlenecks {
                // Measured: splitting the reported answer too pays from 9 unknowns of demand on.
                lie: self.users * self.resources >= 9,
            },
        }
    }

    /// Whether the cases also fix which entry of each demand and report is its largest (1 in
    /// normal form), which removes a disjunction and an unknown per row. Measured on DRF `sp`
    /// (wall time, 2 cores): at `(3, 2)` 40 such cases take 1.6 s where the 3 coarser ones take
    /// 5.4 s; at `(2, 2)`, `(2, 3)` and `(4, 2)` the finer split is slower (0.85 s against
    /// 0.12 s, 1.3 s against 0.9 s, 24 s against 19 s): the number of cases grows as
    /// `m^(n + k)` and each costs a solver process.
    fn splits_dominant(&self) -> bool {
        self.goal.is_about_lies()
            && matches!(self.split(), Split::Bottlenecks { .. })
            && self.users >= 3
            && self.users * self.resources <= 6
    }

    /// The users whose demand is reported differently: the coalition.
    pub(crate) fn liars(&self) -> std::ops::Range<usize> {
        0..self.coalition
    }

    /// The cases: one script per kept combinatorial type.
    ///
    /// # Errors
    /// None at present (the statement is validated when built); kept for encodings that
    /// refuse a shape.
    pub fn cases(&self) -> Result<Vec<Case>, ProveError> {
        // A group property is decided for every coalition size up to k, each size with
        // exactly that many liars (docs/theory.md §6.5): together they cover every coalition
        // of at most k liars.
        // The largest coalitions first: one case each, where a group manipulation shows
        // at once, before the single liars' many cases.
        let sizes: Vec<usize> = if self.goal.is_group() {
            (1..=self.coalition).rev().collect()
        } else {
            vec![self.coalition]
        };
        let mut cases = Vec::new();
        for size in sizes {
            let sized = self.with_coalition(size);
            for kind in sized.shapes() {
                let index = cases.len();
                let mut label = format!("truth: {}", kind.truth.label(self.resources));
                if self.goal.is_group() {
                    let s = if size == 1 { "" } else { "s" };
                    label = format!("{size} liar{s}; {label}");
                }
                if self.goal.is_about_lies() {
                    label += &format!("; reports: {}", kind.lie.label(self.resources));
                }
                if !kind.dominant.is_empty() {
                    let (truth, reports) = kind.dominant.split_at(self.users);
                    label += &format!("; largest entries ({} | {})", names(truth), names(reports));
                }
                let mut script = sized.script(&kind);
                script.comment(format!(
                    "leontief prove: {}\ncase {index}: {label}",
                    self.describe()
                ));
                cases.push(Case {
                    index,
                    coalition: size,
                    label,
                    script,
                });
            }
        }
        Ok(cases)
    }

    /// The same statement with exactly `size` lying slots.
    pub fn with_coalition(&self, size: usize) -> Statement {
        Statement {
            coalition: size,
            ..self.clone()
        }
    }

    /// The kept case types, in lexicographic order.
    fn shapes(&self) -> Vec<Kind> {
        let (n, m) = (self.users, self.resources);
        let any = Kind {
            truth: Shape::Any,
            lie: Shape::Any,
            dominant: Vec::new(),
        };
        let options: Vec<Shape> = match self.split() {
            Split::None => return vec![any],
            Split::Bottlenecks { .. } => {
                let values = if self.caps { m + 1 } else { m };
                assignments(n, values)
                    .into_iter()
                    .map(Shape::Bottlenecks)
                    .collect()
            }
            Split::Supports => (1..(1usize << m))
                .map(|bits| Shape::Support((0..m).map(|r| bits >> r & 1 == 1).collect()))
                .collect(),
        };
        // A goal not about lies has one answer to split: its truthful types alone.
        let pairs: Vec<(Shape, Shape)> = match self.split() {
            Split::Bottlenecks { lie: true } | Split::Supports if self.goal.is_about_lies() => {
                pairs(&options, &options)
            }
            _ => pairs(&options, &[Shape::Any]),
        };
        // Each demand's (true, then the liars' reported) largest entry, when split by it.
        let dominants = if self.splits_dominant() {
            assignments(n + self.coalition, m)
        } else {
            vec![Vec::new()]
        };
        let kinds = pairs.into_iter().flat_map(|(truth, lie)| {
            dominants.iter().map(move |dominant| Kind {
                truth: truth.clone(),
                lie: lie.clone(),
                dominant: dominant.clone(),
            })
        });
        let group = self.symmetries();
        let mut kept: Vec<Kind> = kinds
            .filter(|kind| {
                group
                    .iter()
                    .all(|(users, resources)| *kind <= kind.permuted(users, resources))
            })
            .collect();
        kept.sort();
        kept
    }

    /// The permutations (of users, of resources) that leave the statement unchanged: within
    /// the coalition, within the others, and all of the resources.
    fn symmetries(&self) -> Vec<(Vec<usize>, Vec<usize>)> {
        let (n, k) = (self.users, self.coalition);
        // The users a goal not about lies names play different roles (the envious and the
        // envied): only the coalition's members are interchangeable.
        let inside = if self.goal.is_about_lies() {
            permutations(k)
        } else {
            vec![(0..k).collect()]
        };
        let outside = permutations(n - k);
        let resources = permutations(self.resources);
        let users: Vec<Vec<usize>> = (pairs(&inside, &outside).into_iter())
            .map(|(a, b)| a.into_iter().chain(b.into_iter().map(|j| j + k)).collect())
            .collect();
        pairs(&users, &resources)
    }
}

/// The combinatorial type of one case.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Kind {
    /// The truthful answer's type.
    pub(crate) truth: Shape,
    /// The reported answer's type.
    pub(crate) lie: Shape,
    /// Which entry of each true demand, then of each liar's report, is its largest; empty
    /// when the case does not fix them.
    pub(crate) dominant: Vec<usize>,
}

impl Kind {
    fn permuted(&self, users: &[usize], resources: &[usize]) -> Kind {
        let n = users.len();
        let mut dominant = self.dominant.clone();
        for (slot, &r) in self.dominant.iter().enumerate() {
            // A liar's report moves with the liar (coalition permutations stay inside it).
            let to = if slot < n {
                users[slot]
            } else {
                n + users[slot - n]
            };
            dominant[to] = resources[r];
        }
        Kind {
            truth: self.truth.permuted(users, resources),
            lie: self.lie.permuted(users, resources),
            dominant,
        }
    }
}

/// How the cases are cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Split {
    /// One case.
    None,
    /// By bottleneck assignments: the truthful one, and the reported one too when `lie`.
    Bottlenecks { lie: bool },
    /// By the price supports of both answers.
    Supports,
}

/// Every map `0..n -> 0..values`, as vectors, in lexicographic order (the digits of
/// `0..values^n` in base `values`).
fn assignments(n: usize, values: usize) -> Vec<Vec<usize>> {
    let code = |c: usize| {
        (0..n)
            .rev()
            .map(|k| c / values.pow(k as u32) % values)
            .collect()
    };
    (0..values.pow(n as u32)).map(code).collect()
}

/// Every pair `(a, b)` of `a` in `left` and `b` in `right`, `left` first.
fn pairs<A: Clone, B: Clone>(left: &[A], right: &[B]) -> Vec<(A, B)> {
    (left.iter())
        .flat_map(|a| right.iter().map(move |b| (a.clone(), b.clone())))
        .collect()
}

/// `r1,r2,..`: the resources `resources` by name.
fn names(resources: &[usize]) -> String {
    let names: Vec<String> = resources.iter().map(|r| format!("r{}", r + 1)).collect();
    names.join(",")
}
