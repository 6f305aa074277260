//! The statement `prove` decides, its domain, and its split into cases.
//!
//! Every instance is taken in normal form: capacities 1 and each demand (true or reported)
//! scaled so that its largest entry is 1 — every mechanism encoded here gives the same bundles
//! after such scaling, and every property is about bundles (docs/theory.md §6.1). The users
//! are `u1..un`; the coalition is `u1..uk` (for `sp`, the liar is `u1`).
//!
//! The negated statement is a formula over the instance, the coalition's reports and both
//! answers; a case fixes the combinatorial type of one or both answers (each user's
//! bottleneck, each profile's price support). Users inside the coalition, users outside it,
//! and resources may be permuted without changing the statement, so only one type per orbit
//! of these permutations is kept (the lexicographically least): every model of the formula,
//! permuted, is a model of a kept case.

use leontief_solver::properties::Property;
use leontief_solver::{Rational, SolverError};
use serde_json::{json, Map, Value};

use crate::explore::MetricName;

use super::smt::{and, binary, constant, implies, mul, or, Script};
use super::{asset, ceei, common_level, drf, goals, ProveError};

leontief_solver::name_enum! {
    /// The mechanisms with an encoding, by their names in the registry (derived with strum).
    #[strum(parse_err_ty = SolverError, parse_err_fn = no_encoding)]
    pub enum ProvedMechanism {
        /// Extended weighted DRF (`drf`), with caps.
        Drf,
        /// DRF freezing everyone at the first saturation (`drf-common-level`).
        DrfCommonLevel,
        /// Asset fairness (`asset`), with caps.
        Asset,
        /// CEEI (`ceei`), without caps.
        Ceei,
        /// Collapsed HDRF (`hdrf:collapsed`) on every tree: extended DRF over the leaves with the
        /// leaves' guaranteed shares as weights, any positive ones (docs/theory.md §6.10).
        #[strum(serialize = "hdrf:collapsed")]
        Collapsed,
    }
}

/// `--mechanism` when it has no encoding, listing the ones that do.
fn no_encoding(name: &str) -> SolverError {
    use strum::VariantNames;
    SolverError::invalid(
        "--mechanism",
        format!(
            "{name:?} has no encoding for prove; encoded: {}",
            ProvedMechanism::VARIANTS.join(", ")
        ),
    )
}

impl ProvedMechanism {
    /// The mechanism's name in the registry.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The mechanism called `name` (`name.parse()`).
    ///
    /// # Errors
    /// `--mechanism` when it has no encoding, listing the ones that do.
    pub fn from_name(name: &str) -> Result<Self, SolverError> {
        name.parse()
    }

    /// The theorem the encoding rests on.
    pub fn characterization(self) -> &'static str {
        match self {
            ProvedMechanism::Drf => {
                "the bottleneck characterization of extended DRF (docs/theory.md §6.2)"
            }
            ProvedMechanism::DrfCommonLevel => {
                "the common-level characterization (docs/theory.md §6.4)"
            }
            ProvedMechanism::Asset => {
                "the bottleneck characterization on aggregate shares (docs/theory.md §6.2)"
            }
            ProvedMechanism::Ceei => {
                "the Eisenberg-Gale KKT characterization of CEEI (docs/theory.md §6.3)"
            }
            ProvedMechanism::Collapsed => {
                "collapsed HDRF as extended DRF over the leaves weighted by their guaranteed \
                 shares, which range over every positive weight vector (docs/theory.md §6.10), \
                 and the bottleneck characterization of extended DRF (docs/theory.md §6.2)"
            }
        }
    }

    /// The characterization this mechanism is encoded by: `collapsed` by extended DRF's, with
    /// free weights.
    pub fn encoding(self) -> Encoding {
        match self {
            ProvedMechanism::Drf | ProvedMechanism::Collapsed => Encoding::Drf,
            ProvedMechanism::DrfCommonLevel => Encoding::DrfCommonLevel,
            ProvedMechanism::Asset => Encoding::Asset,
            ProvedMechanism::Ceei => Encoding::Ceei,
        }
    }

    /// Whether the users are the leaves of any tree (their weights then range over every
    /// positive vector, whatever `--weights` says).
    pub fn on_every_tree(self) -> bool {
        self == ProvedMechanism::Collapsed
    }

    fn takes_caps(self) -> bool {
        matches!(self.encoding(), Encoding::Drf | Encoding::Asset)
    }
}

/// The characterizations `prove` writes (docs/theory.md §6.2–§6.4), one per encoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Extended DRF's bottlenecks (§6.2).
    Drf,
    /// Common-level DRF (§6.4).
    DrfCommonLevel,
    /// Asset fairness's bottlenecks on aggregate shares (§6.2).
    Asset,
    /// CEEI's Eisenberg–Gale conditions (§6.3).
    Ceei,
}

/// What is claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goal {
    /// A property: about lies (`sp`, `gsp-strong`, `gsp-weak`), about the answer alone
    /// (`si`, `ef`), about a departure (`pm`) or about grown capacities (`rm`).
    Property(Property),
    /// `sp-gain <= bound`: no single liar's true utility exceeds `bound` times its truthful
    /// one.
    SpGain(Rational),
    /// `welfare-ratio <= bound`: no feasible allocation has more than `bound` times the
    /// answer's utilitarian welfare in dominant shares (explore's `welfare-ratio`).
    WelfareRatio(Rational),
    /// `pm-loss >= bound`: when a user leaves, no remaining user with tasks keeps less than
    /// `bound` times its utility (explore's `pm-loss`).
    PmLoss(Rational),
    /// `rm-loss >= bound`: when capacities grow, no user with tasks keeps less than `bound`
    /// times its utility (explore's `rm-loss`, in tasks).
    RmLoss(Rational),
    /// `gsp-gain <= bound`: when no liar of a coalition is worse off, no user with tasks
    /// gets more than `bound` times its utility (explore's `gsp-gain`).
    GspGain(Rational),
}

impl Goal {
    /// The goal `explore`'s `metric` is at most `bound` (`explore --certify`), or `None`
    /// when prove has no encoding of the metric.
    pub fn bounding(metric: MetricName, bound: Rational) -> Option<Goal> {
        match metric {
            MetricName::SpGain => Some(Goal::SpGain(bound)),
            // Coalitions of every size, as explore samples them.
            MetricName::GspGain => Some(Goal::GspGain(bound)),
            MetricName::PmLoss => Some(Goal::PmLoss(bound)),
            MetricName::RmLoss => Some(Goal::RmLoss(bound)),
            MetricName::WelfareRatio => Some(Goal::WelfareRatio(bound)),
            _ => None,
        }
    }

    /// The section proving the negated goal exact, for `rests_on`.
    pub fn conditions(&self) -> &'static str {
        if self.is_about_lies() {
            "the gain conditions (§6.5)"
        } else {
            "the negated goal (§6.9)"
        }
    }

    /// What a refutation is re-derived by, for `rests_on`.
    pub fn checker(&self) -> &'static str {
        match self {
            Goal::WelfareRatio(_) => "explore's welfare-ratio metric (an exact LP optimum)",
            Goal::PmLoss(_) => "explore's pm-loss metric",
            Goal::RmLoss(_) => "explore's rm-loss metric",
            Goal::GspGain(_) => "the property checker and explore's gsp-gain metric",
            _ => "the property checker",
        }
    }

    /// Whether the statement is about reports (a liar or a coalition): the goals whose
    /// negation has a lying profile.
    pub fn is_about_lies(&self) -> bool {
        matches!(
            self,
            Goal::SpGain(_)
                | Goal::GspGain(_)
                | Goal::Property(Property::Sp | Property::GspStrong | Property::GspWeak)
        )
    }
}

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
                let names: Vec<String> = s
                    .iter()
                    .enumerate()
                    .filter(|&(_, &p)| p)
                    .map(|(r, _)| format!("r{}", r + 1))
                    .collect();
                format!("prices>0 on {{{}}}", names.join(","))
            }
        }
    }
}

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

    /// `load_r = Σ_i tasks_i · d_ir`.
    pub fn load(&self, tasks: &[String], r: usize) -> String {
        super::smt::sum(
            &(0..self.users())
                .map(|i| mul(&tasks[i], &self.demands[i][r]))
                .collect::<Vec<_>>(),
        )
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

/// The largest domain `prove` accepts (the work grows exponentially with it).
pub const MAX_USERS: usize = 6;
/// See [`MAX_USERS`].
pub const MAX_RESOURCES: usize = 4;

/// A bounded statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// The mechanism.
    pub mechanism: ProvedMechanism,
    /// What is claimed.
    pub goal: Goal,
    /// `n`.
    pub users: usize,
    /// `m`.
    pub resources: usize,
    /// Every demand (true and reported) strictly positive.
    pub positive: bool,
    /// Users have arbitrary positive weights (else all weigh 1).
    pub weights: bool,
    /// Users have arbitrary positive task caps (else none).
    pub caps: bool,
    /// The coalition's size `k` (users `u1..uk`); 1 for `sp` and `sp-gain`. For a goal not
    /// about lies, the number of users the negated statement names, in order (`si`: u1 below
    /// its split; `ef`: u1 envying u2; `pm`: u1 leaving and u2 losing; `rm`: u1 losing as
    /// capacities grow; `welfare-ratio`: none).
    pub coalition: usize,
}

impl Statement {
    /// A statement, validated: the sizes, a goal the encodings cover, the options that apply.
    ///
    /// # Errors
    /// The offending flag named.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        mechanism: ProvedMechanism,
        goal: Goal,
        users: usize,
        resources: usize,
        positive: bool,
        weights: bool,
        caps: bool,
        coalition: Option<usize>,
    ) -> Result<Self, SolverError> {
        if !(2..=MAX_USERS).contains(&users) {
            return Err(SolverError::invalid(
                "--users",
                format!("expected 2..{MAX_USERS}, found {users}"),
            ));
        }
        if !(1..=MAX_RESOURCES).contains(&resources) {
            return Err(SolverError::invalid(
                "--resources",
                format!("expected 1..{MAX_RESOURCES}, found {resources}"),
            ));
        }
        let coalition = match (&goal, coalition) {
            (Goal::Property(Property::GspStrong | Property::GspWeak) | Goal::GspGain(_), k) => {
                let k = k.unwrap_or(users);
                if !(1..=users).contains(&k) {
                    return Err(SolverError::invalid(
                        "--coalition",
                        format!("expected 1..{users} (at most --users), found {k}"),
                    ));
                }
                k
            }
            (Goal::Property(Property::Sp) | Goal::SpGain(_), None) => 1,
            (Goal::Property(Property::Si | Property::Rm) | Goal::RmLoss(_), None) => 1,
            (Goal::Property(Property::Ef | Property::Pm) | Goal::PmLoss(_), None) => 2,
            (Goal::WelfareRatio(_), None) => 0,
            (_, Some(_)) => {
                return Err(SolverError::invalid(
                    "--coalition",
                    "applies to --property gsp-strong or gsp-weak, or --metric gsp-gain",
                ))
            }
            (Goal::Property(p), None) => {
                return Err(SolverError::invalid(
                    "--property",
                    format!(
                        "{p} has no encoding for prove; encoded: sp, gsp-strong, gsp-weak, si, \
                         ef, pm, rm"
                    ),
                ))
            }
        };
        if let Goal::SpGain(c) | Goal::GspGain(c) = &goal {
            if *c < Rational::ONE {
                return Err(SolverError::invalid(
                    "--bound",
                    format!("expected at least 1 (the truth gives 1), found {c}"),
                ));
            }
        }
        if let Goal::WelfareRatio(c) = &goal {
            if *c < Rational::ONE {
                return Err(SolverError::invalid(
                    "--bound",
                    format!("expected at least 1 (the answer itself is feasible), found {c}"),
                ));
            }
        }
        if caps && !mechanism.takes_caps() {
            return Err(SolverError::invalid(
                "--caps",
                format!(
                    "the {} encoding has no caps (drf and asset have)",
                    mechanism.name()
                ),
            ));
        }
        if mechanism.on_every_tree()
            && matches!(goal, Goal::Property(Property::Pm) | Goal::PmLoss(_))
        {
            let flag = if matches!(goal, Goal::PmLoss(_)) {
                "--metric"
            } else {
                "--property"
            };
            return Err(SolverError::invalid(
                flag,
                format!(
                    "{} of {} has no encoding for prove: a departing leaf changes its \
                     siblings' guaranteed shares (docs/theory.md §6.10)",
                    if flag == "--metric" { "pm-loss" } else { "pm" },
                    mechanism.name()
                ),
            ));
        }
        // Every tree's leaves carry some positive weights, and every positive weight vector
        // is some tree's (docs/theory.md §6.10).
        let weights = weights || mechanism.on_every_tree();
        if let Goal::PmLoss(c) | Goal::RmLoss(c) = &goal {
            if !c.is_positive() {
                return Err(SolverError::invalid(
                    "--bound",
                    format!("expected a positive ratio, found {c}"),
                ));
            }
        }
        Ok(Statement {
            mechanism,
            goal,
            users,
            resources,
            positive,
            weights,
            caps,
            coalition,
        })
    }

    /// The property whose violation a counterexample is (`sp` for `sp-gain`).
    pub fn property(&self) -> Property {
        match &self.goal {
            Goal::Property(p) => *p,
            Goal::SpGain(_) => Property::Sp,
            // Whole-allocation measures take Pareto efficiency's place (as in explore).
            Goal::WelfareRatio(_) => Property::Po,
            Goal::PmLoss(_) => Property::Pm,
            Goal::RmLoss(_) => Property::Rm,
            // A gain above c >= 1 is a strict gain with no liar worse off.
            Goal::GspGain(_) => Property::GspStrong,
        }
    }

    /// One line: what is claimed, on which domain.
    pub fn describe(&self) -> String {
        let claim = match &self.goal {
            Goal::Property(p) => format!("{} has {p}", self.mechanism.name()),
            Goal::SpGain(c) => format!("{} has sp-gain <= {c}", self.mechanism.name()),
            Goal::WelfareRatio(c) => {
                format!("{} has welfare-ratio <= {c}", self.mechanism.name())
            }
            Goal::PmLoss(c) => format!("{} has pm-loss >= {c}", self.mechanism.name()),
            Goal::RmLoss(c) => format!("{} has rm-loss >= {c}", self.mechanism.name()),
            Goal::GspGain(c) => format!("{} has gsp-gain <= {c}", self.mechanism.name()),
        };
        format!(
            "{claim} for every instance with {} users and {} resources ({}{}{}{})",
            self.users,
            self.resources,
            if self.positive {
                "positive demands"
            } else {
                "demands may be zero"
            },
            if self.mechanism.on_every_tree() {
                ", every tree of that many leaves"
            } else if self.weights {
                ", any weights"
            } else {
                ""
            },
            if self.caps { ", any caps" } else { "" },
            if self.is_group() {
                format!(", coalitions of at most {} liars", self.coalition)
            } else {
                String::new()
            }
        )
    }

    /// The statement and its domain as JSON fields.
    pub fn to_json(&self) -> Map<String, Value> {
        let mut o = Map::new();
        o.insert("mechanism".into(), json!(self.mechanism.name()));
        match &self.goal {
            Goal::Property(p) => {
                o.insert("property".into(), json!(p.name()));
            }
            Goal::SpGain(c) => {
                o.insert("metric".into(), json!("sp-gain"));
                o.insert("bound".into(), json!(c.to_string()));
            }
            Goal::WelfareRatio(c) => {
                o.insert("metric".into(), json!("welfare-ratio"));
                o.insert("bound".into(), json!(c.to_string()));
            }
            Goal::PmLoss(c) => {
                o.insert("metric".into(), json!("pm-loss"));
                o.insert("bound".into(), json!(c.to_string()));
            }
            Goal::RmLoss(c) => {
                o.insert("metric".into(), json!("rm-loss"));
                o.insert("bound".into(), json!(c.to_string()));
            }
            Goal::GspGain(c) => {
                o.insert("metric".into(), json!("gsp-gain"));
                o.insert("bound".into(), json!(c.to_string()));
            }
        }
        o.insert("claim".into(), json!(self.describe()));
        o.insert(
            "domain".into(),
            json!({
                "users": self.users,
                "resources": self.resources,
                "capacities": "1 each (every instance scales to this)",
                "demands": if self.positive {
                    "positive, largest entry 1 (every demand scales to this)"
                } else {
                    "nonnegative, largest entry 1 (every demand scales to this)"
                },
                "reports": "the coalition's members report any demand of the same domain",
                "weights": if self.mechanism.on_every_tree() {
                    "the leaves' guaranteed shares: any positive (every tree, docs/theory.md §6.10)"
                } else if self.weights {
                    "any positive"
                } else {
                    "1"
                },
                "caps": if self.caps { "any positive" } else { "none" },
                "coalition": (1..=self.coalition).map(|i| format!("u{i}")).collect::<Vec<_>>(),
            }),
        );
        if !self.goal.is_about_lies() {
            if let Some(domain) = o.get_mut("domain").and_then(Value::as_object_mut) {
                domain.remove("reports");
                domain.remove("coalition");
                domain.insert("roles".into(), json!(goals::roles(self)));
            }
        }
        o.insert("split".into(), json!(self.split_description()));
        o
    }

    fn split_description(&self) -> String {
        let symmetry = "one type per orbit under permutations of the coalition's members, of \
                        the other users and of the resources";
        match self.split() {
            Split::Bottlenecks { .. } | Split::Supports if !self.goal.is_about_lies() => {
                goals::split_description(self, matches!(self.split(), Split::Supports))
            }
            Split::Bottlenecks { lie: false } => format!(
                "by the truthful answer's bottleneck assignment (each user's bottleneck \
                 resource{}), {symmetry}",
                if self.caps { " or its cap" } else { "" }
            ),
            Split::Bottlenecks { lie: true } => format!(
                "by the bottleneck assignments of the truthful and the reported answer, \
                 {symmetry}"
            ),
            Split::Supports => {
                format!("by the price supports of the truthful and the reported answer, {symmetry}")
            }
            Split::None => "none (one case)".into(),
        }
    }

    fn split(&self) -> Split {
        match self.mechanism.encoding() {
            // A group manipulation is expected to be found at once in one case; splitting
            // it multiplies the cases by every member's report type.
            Encoding::Drf | Encoding::Asset if self.coalition > 1 && self.goal.is_about_lies() => {
                Split::None
            }
            Encoding::Drf | Encoding::Asset => Split::Bottlenecks {
                // Measured: splitting the reported answer too pays from 9 unknowns of demand on.
                lie: self.users * self.resources >= 9,
            },
            Encoding::Ceei => Split::Supports,
            Encoding::DrfCommonLevel => Split::None,
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
            && matches!(self.mechanism.encoding(), Encoding::Drf | Encoding::Asset)
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
        let sizes: Vec<usize> = if self.is_group() {
            (1..=self.coalition).rev().collect()
        } else {
            vec![self.coalition]
        };
        let mut cases = Vec::new();
        for size in sizes {
            let sized = self.with_coalition(size);
            for kind in goals::kinds(&sized, sized.shapes()) {
                let index = cases.len();
                let label = format!(
                    "{}truth: {}{}{}",
                    if self.is_group() {
                        format!("{size} liar{}; ", if size == 1 { "" } else { "s" })
                    } else {
                        String::new()
                    },
                    kind.truth.label(self.resources),
                    if self.goal.is_about_lies() {
                        format!("; reports: {}", kind.lie.label(self.resources))
                    } else {
                        String::new()
                    },
                    kind.dominant_label(self.users)
                );
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

    /// Whether the statement is about coalitions (`gsp-strong`, `gsp-weak`, `gsp-gain`).
    fn is_group(&self) -> bool {
        matches!(
            self.goal,
            Goal::Property(Property::GspStrong | Property::GspWeak) | Goal::GspGain(_)
        )
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
        let pairs: Vec<(Shape, Shape)> = match self.split() {
            Split::Bottlenecks { lie: false } => {
                options.into_iter().map(|s| (s, Shape::Any)).collect()
            }
            _ => options
                .iter()
                .flat_map(|t| options.iter().map(move |l| (t.clone(), l.clone())))
                .collect(),
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
        let mut users = Vec::new();
        for a in &inside {
            for b in &outside {
                let mut p: Vec<usize> = a.clone();
                p.extend(b.iter().map(|&j| j + k));
                users.push(p);
            }
        }
        let resources = permutations(self.resources);
        users
            .iter()
            .flat_map(|u| resources.iter().map(move |r| (u.clone(), r.clone())))
            .collect()
    }

    /// Declares the instance's unknowns in normal form: every user's demand row `d_i_r`
    /// (its largest entry the case's `dominant[i]` when the case fixes it), and the weights
    /// `w_i` and caps `t_i` when the domain has them, all positive.
    #[allow(clippy::type_complexity)]
    pub(super) fn declare_users(
        &self,
        s: &mut Script,
        dominant: &[usize],
    ) -> (Vec<Vec<String>>, Option<Vec<String>>, Option<Vec<String>>) {
        let (n, m) = (self.users, self.resources);
        let demands = (0..n)
            .map(|i| demand_row(s, self.positive, m, "d", i, dominant.get(i).copied()))
            .collect();
        let mut positive_per_user = |name: &str| -> Vec<String> {
            (0..n)
                .map(|i| {
                    let v = s.reported_real(&format!("{name}_{}", i + 1));
                    s.assert(binary(">", &v, "0.0"));
                    v
                })
                .collect()
        };
        let weights = self.weights.then(|| positive_per_user("w"));
        let caps = self.caps.then(|| positive_per_user("t"));
        (demands, weights, caps)
    }

    /// The script of one case.
    fn script(&self, kind: &Kind) -> Script {
        if !self.goal.is_about_lies() {
            return goals::script(self, &kind.truth);
        }
        if let (Encoding::Ceei, Shape::Support(truth), Shape::Support(lie)) =
            (self.mechanism.encoding(), &kind.truth, &kind.lie)
        {
            return ceei::manipulation_script(self, truth, lie);
        }
        let (n, m) = (self.users, self.resources);
        let mut s = Script::new();
        let (demands, weights, caps) = self.declare_users(&mut s, &kind.dominant);
        // When no case type names users (price supports, one case), users within the
        // coalition and within the others may still be permuted: sort each class by its
        // first demand entry.
        if !matches!(self.split(), Split::Bottlenecks { .. }) {
            for class in [0..self.coalition, self.coalition..n] {
                for i in class.clone().skip(1) {
                    s.assert(binary("<=", &demands[i - 1][0], &demands[i][0]));
                }
            }
        }
        let mut reported = demands.clone();
        for i in self.liars() {
            reported[i] = demand_row(
                &mut s,
                self.positive,
                m,
                "e",
                i,
                kind.dominant.get(n + i).copied(),
            );
        }
        let truthful = Profile {
            demands: demands.clone(),
            weights: weights.clone(),
            caps: caps.clone(),
        };
        // A cap counts tasks of the report, so rescaling a report to the normal form rescales
        // its cap by the same factor, which may be any: a liar's cap in the lying profile is
        // an unknown of its own (docs/theory.md §6.5).
        let reported_caps = caps.clone().map(|mut t| {
            for i in self.liars() {
                t[i] = s.reported_real(&format!("tl_{}", i + 1));
                s.assert(binary(">", &t[i], "0.0"));
            }
            t
        });
        let lying = Profile {
            demands: reported.clone(),
            weights,
            caps: reported_caps,
        };
        let x: Vec<String> = (0..n).map(|i| s.real(&format!("x_{}", i + 1))).collect();
        let y: Vec<String> = (0..n).map(|i| s.real(&format!("y_{}", i + 1))).collect();
        self.encode(&mut s, &truthful, &x, &kind.truth, "t");
        self.encode(&mut s, &lying, &y, &kind.lie, "l");
        let needs: Vec<Vec<String>> = demands
            .iter()
            .map(|row| row.iter().map(|a| binary(">", a, "0.0")).collect())
            .collect();
        let bundles = |tasks: &[String], rows: &[Vec<String>]| -> Vec<Vec<String>> {
            (0..n)
                .map(|i| (0..m).map(|r| mul(&tasks[i], &rows[i][r])).collect())
                .collect()
        };
        if let Goal::SpGain(_) = &self.goal {
            // The gain is a ratio: the liar has something at the truth.
            s.assert(binary(">", &x[0], "0.0"));
        }
        let answers = Answers {
            needs,
            before: bundles(&x, &demands),
            after: bundles(&y, &reported),
            caps: caps.map(|t| (t, x.clone())),
        };
        self.assert_goal(&mut s, &answers);
        s
    }

    /// Asserts the negated goal: the coalition's reports make its members better off, in the
    /// sense of the goal (docs/theory.md §6.5), given both answers' bundles.
    pub fn assert_goal(&self, s: &mut Script, answers: &Answers) {
        let n = self.users;
        match &self.goal {
            Goal::SpGain(c) => {
                s.assert(answers.better(0, Some(c), true));
            }
            // Decided by goals::script (returned above).
            Goal::WelfareRatio(_) | Goal::PmLoss(_) | Goal::RmLoss(_) => {}
            Goal::GspGain(c) => {
                // Every liar weakly better off, and some user with tasks gaining more than
                // c (docs/theory.md §6.5): it strictly gains, so it is a member.
                for i in self.liars() {
                    s.assert(answers.better(i, None, false));
                }
                s.assert(or(&(0..n)
                    .map(|i| and(&[answers.has_tasks(i), answers.better(i, Some(c), true)]))
                    .collect::<Vec<_>>()));
            }
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
                s.assert(or(&(0..n)
                    .map(|i| answers.better(i, None, true))
                    .collect::<Vec<_>>()));
            }
        }
    }

    pub(super) fn encode(
        &self,
        s: &mut Script,
        profile: &Profile,
        tasks: &[String],
        shape: &Shape,
        at: &str,
    ) {
        match self.mechanism.encoding() {
            Encoding::Drf => drf::encode(s, profile, tasks, shape),
            Encoding::Asset => asset::encode(s, profile, tasks, shape),
            Encoding::DrfCommonLevel => common_level::encode(s, profile, tasks, at),
            Encoding::Ceei => ceei::encode(s, profile, tasks, shape, at),
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
        or(&self.before[i]
            .iter()
            .map(|b| binary(">", b, "0.0"))
            .collect::<Vec<_>>())
    }

    /// User `i`'s true utility after is at least (`strict`: above) `c` (default 1) times its
    /// utility before (docs/theory.md §6.5): on every resource it truly needs, its new bundle
    /// covers `c` times its old one (and its cap allows it).
    fn better(&self, i: usize, c: Option<&Rational>, strict: bool) -> String {
        let rel = if strict { ">" } else { ">=" };
        let scaled = |t: &String| match c {
            Some(c) => mul(&constant(c), t),
            None => t.clone(),
        };
        let mut terms: Vec<String> = (0..self.needs[i].len())
            .map(|r| {
                implies(
                    &self.needs[i][r],
                    &binary(rel, &self.after[i][r], &scaled(&self.before[i][r])),
                )
            })
            .collect();
        if let Some((caps, tasks)) = &self.caps {
            terms.push(binary(rel, &caps[i], &scaled(&tasks[i])));
        }
        and(&terms)
    }
}

/// The combinatorial type of one case.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Kind {
    /// The truthful answer's type.
    pub(super) truth: Shape,
    /// The reported answer's type.
    pub(super) lie: Shape,
    /// Which entry of each true demand, then of each liar's report, is its largest; empty
    /// when the case does not fix them.
    pub(super) dominant: Vec<usize>,
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

    fn dominant_label(&self, users: usize) -> String {
        if self.dominant.is_empty() {
            return String::new();
        }
        let names = |slots: &[usize]| {
            slots
                .iter()
                .map(|r| format!("r{}", r + 1))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "; largest entries ({} | {})",
            names(&self.dominant[..users]),
            names(&self.dominant[users..])
        )
    }
}

/// How the cases are cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Split {
    /// One case.
    None,
    /// By bottleneck assignments: the truthful one, and the reported one too when `lie`.
    Bottlenecks { lie: bool },
    /// By the price supports of both answers.
    Supports,
}

/// A demand row `{prefix}_i_r` in normal form: entries in [0, 1] (or (0, 1] when `positive`),
/// the largest 1 — the entry `dominant` when given (a constant then, not an unknown).
pub(super) fn demand_row(
    s: &mut Script,
    positive: bool,
    m: usize,
    prefix: &str,
    i: usize,
    dominant: Option<usize>,
) -> Vec<String> {
    let row: Vec<String> = (0..m)
        .map(|r| {
            let name = format!("{prefix}_{}_{}", i + 1, r + 1);
            if dominant == Some(r) {
                s.report(&name, "1.0");
                return "1.0".to_string();
            }
            let a = s.reported_real(&name);
            s.assert(binary(if positive { ">" } else { ">=" }, &a, "0.0"));
            s.assert(binary("<=", &a, "1.0"));
            a
        })
        .collect();
    if dominant.is_none() {
        s.assert(or(&row
            .iter()
            .map(|a| binary("=", a, "1.0"))
            .collect::<Vec<_>>()));
    }
    row
}

/// Every map `0..n -> 0..values`, as vectors.
fn assignments(n: usize, values: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p: Vec<usize>| {
                (0..values).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

fn permutations(k: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for j in 0..k {
        out = out
            .into_iter()
            .flat_map(|p: Vec<usize>| {
                (0..=j).map(move |pos| {
                    let mut q = p.clone();
                    q.insert(pos, j);
                    q
                })
            })
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prove::{Status, Verdict};

    fn statement(mechanism: ProvedMechanism, goal: Goal, n: usize, m: usize) -> Statement {
        Statement::new(mechanism, goal, n, m, false, false, false, None).unwrap()
    }

    #[test]
    fn a_metric_bounds_its_own_goal_or_none() {
        // Goal's variants name the explore metric each encodes; fair-welfare-ratio and the
        // others have no encoding (their own welfare LPs or trees), so no goal.
        let one = Rational::from(1);
        for (metric, goal) in [
            (MetricName::SpGain, Goal::SpGain(one.clone())),
            (MetricName::GspGain, Goal::GspGain(one.clone())),
            (MetricName::PmLoss, Goal::PmLoss(one.clone())),
            (MetricName::RmLoss, Goal::RmLoss(one.clone())),
            (MetricName::WelfareRatio, Goal::WelfareRatio(one.clone())),
        ] {
            assert_eq!(Goal::bounding(metric, one.clone()), Some(goal));
        }
        for metric in [
            MetricName::FairWelfareRatio,
            MetricName::Envy,
            MetricName::SiGap,
        ] {
            assert_eq!(Goal::bounding(metric, one.clone()), None);
        }
    }

    #[test]
    fn every_encoded_mechanism_is_named_as_in_the_registry() {
        use strum::VariantArray;
        // The names are the mechanisms' (crate::mechanisms::by_name resolves each, flat
        // or tree policy) and parse back to their variants.
        for m in ProvedMechanism::VARIANTS {
            assert!(crate::mechanisms::by_name(m.name()).is_ok(), "{}", m.name());
            assert_eq!(m.name().parse::<ProvedMechanism>().unwrap(), *m);
        }
        // discrete-drf is in the registry but has no encoding.
        let err = "discrete-drf".parse::<ProvedMechanism>().unwrap_err();
        assert_eq!(
            err.to_string(),
            SolverError::invalid(
                "--mechanism",
                "\"discrete-drf\" has no encoding for prove; encoded: drf, drf-common-level, \
                 asset, ceei, hdrf:collapsed"
            )
            .to_string()
        );
        assert_eq!(Status::Unsat.name(), "unsat");
        assert_eq!(Verdict::Unknown(vec![2]).name(), "unknown");
    }

    #[test]
    fn the_split_keeps_one_type_per_orbit() {
        // DRF sp at (2, 2): bottleneck assignments (b1, b2) in {r1, r2}^2 up to swapping the
        // resources (the liar u1 is fixed, u2 alone outside): (r1,r1) ~ (r2,r2) and
        // (r1,r2) ~ (r2,r1), so two cases.
        let sp = statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 2, 2);
        assert_eq!(sp.cases().unwrap().len(), 2);
        // (2, 3): 9 assignments; orbits under the 6 permutations of 3 resources: same
        // resource (3 of them) or different (6): two cases.
        let sp = statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 2, 3);
        assert_eq!(sp.cases().unwrap().len(), 2);
        // (3, 2), also split by each row's largest entry: bottlenecks (b1, b2, b3) and largest
        // entries (D1, D2, D3 of the demands, E1 of u1's report), 2^7 = 128 types; the group
        // is {id, swap u2 u3, swap r1 r2, both}. Burnside: the identity fixes 128; swapping
        // u2 and u3 fixes those with b2 = b3 and D2 = D3, 2^5 = 32; a resource swap (alone
        // or with the users') would need b1 to equal its own swap, so fixes none:
        // (128 + 32) / 4 = 40 cases.
        let sp = statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 3, 2);
        assert_eq!(sp.cases().unwrap().len(), 40);
        // CEEI at (2, 2): supports {1}, {2}, {1,2} for both answers, 9 pairs; swapping the
        // resources pairs ({1},{1})~({2},{2}), ({1},{2})~({2},{1}), ({1},{12})~({2},{12}),
        // ({12},{1})~({12},{2}), and fixes ({12},{12}): 5 cases.
        let gain = statement(
            ProvedMechanism::Ceei,
            Goal::SpGain("3/2".parse().unwrap()),
            2,
            2,
        );
        assert_eq!(gain.cases().unwrap().len(), 5);
    }

    #[test]
    fn flags_that_do_not_apply_are_refused() {
        let sp = Goal::Property(Property::Sp);
        let err = Statement::new(
            ProvedMechanism::Drf,
            sp.clone(),
            2,
            2,
            false,
            false,
            false,
            Some(2),
        )
        .unwrap_err();
        assert!(err.to_string().contains("--coalition"));
        let err = Statement::new(
            ProvedMechanism::Ceei,
            sp.clone(),
            2,
            2,
            false,
            false,
            true,
            None,
        )
        .unwrap_err();
        assert!(err.to_string().contains("--caps"));
        let err =
            Statement::new(ProvedMechanism::Drf, sp, 1, 2, false, false, false, None).unwrap_err();
        assert!(err.to_string().contains("--users"));
        let err = Statement::new(
            ProvedMechanism::Drf,
            Goal::Property(Property::Po),
            2,
            2,
            false,
            false,
            false,
            None,
        )
        .unwrap_err();
        assert!(err.to_string().contains("--property"));
        let err = Statement::new(
            ProvedMechanism::Ceei,
            Goal::SpGain("1/2".parse().unwrap()),
            2,
            2,
            false,
            false,
            false,
            None,
        )
        .unwrap_err();
        assert!(err.to_string().contains("--bound"));
    }
}
