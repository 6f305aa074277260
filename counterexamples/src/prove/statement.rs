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

use leontief_solver::algebraic::RealAlgebraic;
use leontief_solver::properties::Property;
use leontief_solver::{Rational, SolverError};
use serde::Serialize;

use crate::explore::{Direction, MetricName};

use super::smt::{binary, constant, polynomial, Script};
use super::{goals, ProveError};

mod cases;
mod encode;

pub(crate) use cases::Kind;
use cases::Split;
pub use cases::{Case, Shape};
pub(crate) use encode::{positive_entries, sort_by_first_entry};
pub use encode::{Answers, Profile};

leontief_solver::name_enum! {
    /// The mechanisms with an encoding, by their names in the registry (derived with strum).
    /// Each with the theorem its encoding rests on as its message.
    #[strum(parse_err_ty = SolverError, parse_err_fn = no_encoding)]
    #[derive(strum::EnumMessage)]
    pub enum ProvedMechanism {
        /// Extended weighted DRF (`drf`), with caps.
        #[strum(message = "the bottleneck characterization of extended DRF (docs/theory.md §6.2)")]
        Drf,
        /// DRF freezing everyone at the first saturation (`drf-common-level`).
        #[strum(message = "the common-level characterization (docs/theory.md §6.4)")]
        DrfCommonLevel,
        /// Asset fairness (`asset`), with caps.
        #[strum(message = "the bottleneck characterization on aggregate shares (docs/theory.md §6.2)")]
        Asset,
        /// CEEI (`ceei`), without caps.
        #[strum(message = "the Eisenberg-Gale KKT characterization of CEEI (docs/theory.md §6.3)")]
        Ceei,
        /// Collapsed HDRF (`hdrf:collapsed`) on every tree: extended DRF over the leaves with the
        /// leaves' guaranteed shares as weights, any positive ones (docs/theory.md §6.10).
        #[strum(
            serialize = "hdrf:collapsed",
            message = "collapsed HDRF as extended DRF over the leaves weighted by their guaranteed \
                shares, which range over every positive weight vector (docs/theory.md §6.10), \
                and the bottleneck characterization of extended DRF (docs/theory.md §6.2)"
        )]
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
    /// The theorem the encoding rests on.
    pub fn characterization(self) -> &'static str {
        strum::EnumMessage::get_message(&self).expect("every encoding rests on a theorem")
    }

    /// Whether the users are the leaves of any tree (their weights then range over every
    /// positive vector, whatever `--weights` says).
    pub fn on_every_tree(self) -> bool {
        self == ProvedMechanism::Collapsed
    }

    /// Whether the encoding is by bottlenecks (extended DRF's, `collapsed` with free weights,
    /// or asset fairness's), the encodings with caps.
    fn by_bottlenecks(self) -> bool {
        !matches!(
            self,
            ProvedMechanism::DrfCommonLevel | ProvedMechanism::Ceei
        )
    }
}

/// What is claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goal {
    /// A property: about lies (`sp`, `gsp-strong`, `gsp-weak`), about the answer alone
    /// (`si`, `ef`), about a departure (`pm`) or about grown capacities (`rm`).
    Property(Property),
    /// explore's metric bounded by the constant ([`Goal::bounding`]'s metrics alone):
    /// `sp-gain <= c` (no single liar's true utility exceeds `c` times its truthful one),
    /// `gsp-gain <= c` (when no liar of a coalition is worse off, no user with tasks gets
    /// more than `c` times its utility), `welfare-ratio <= c` (no feasible allocation has
    /// more than `c` times the answer's utilitarian welfare in dominant shares), `pm-loss >=
    /// c` (when a user leaves, no remaining user with tasks keeps less than `c` times its
    /// utility), `rm-loss >= c` (the same when capacities grow, in tasks).
    Bound(MetricName, Rational),
}

impl Goal {
    /// The goal `explore`'s `metric` is at most `bound` (`explore --certify`), or `None`
    /// when prove has no encoding of the metric.
    pub fn bounding(metric: MetricName, bound: Rational) -> Option<Goal> {
        // gsp-gain: coalitions of every size, as explore samples them.
        use MetricName::{GspGain, PmLoss, RmLoss, SpGain, WelfareRatio};
        matches!(metric, SpGain | GspGain | PmLoss | RmLoss | WelfareRatio)
            .then_some(Goal::Bound(metric, bound))
    }

    /// The same goal with the constant `bound`.
    ///
    /// # Errors
    /// A goal without a constant (a property), or a loss bound that is not positive.
    pub fn with_bound(&self, bound: Rational) -> Result<Goal, SolverError> {
        match self {
            Goal::Property(p) => Err(SolverError::invalid(
                "--bound",
                format!("{p} is a property, with no constant"),
            )),
            Goal::Bound(..) if self.is_loss() && !bound.is_positive() => Err(SolverError::invalid(
                "--bound",
                format!("expected a positive ratio, found {bound}"),
            )),
            Goal::Bound(metric, _) => Ok(Goal::Bound(*metric, bound)),
        }
    }

    /// The metric bounded and its constant; `None` for a property.
    pub fn bounded(&self) -> Option<(MetricName, &Rational)> {
        match self {
            Goal::Property(_) => None,
            Goal::Bound(metric, c) => Some((*metric, c)),
        }
    }

    /// Whether the goal bounds a loss from below (`pm-loss`, `rm-loss`).
    pub fn is_loss(&self) -> bool {
        matches!(
            self,
            Goal::Bound(MetricName::PmLoss | MetricName::RmLoss, _)
        )
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
        match self.bounded() {
            Some((MetricName::WelfareRatio, _)) => {
                "explore's welfare-ratio metric (an exact LP optimum)"
            }
            Some((MetricName::PmLoss, _)) => "explore's pm-loss metric",
            Some((MetricName::RmLoss, _)) => "explore's rm-loss metric",
            Some((MetricName::GspGain, _)) => "the property checker and explore's gsp-gain metric",
            _ => "the property checker",
        }
    }

    /// Whether the goal is about coalitions (`gsp-strong`, `gsp-weak`, `gsp-gain`).
    pub(super) fn is_group(&self) -> bool {
        matches!(self.property(), Property::GspStrong | Property::GspWeak)
    }

    /// Whether the statement is about reports (a liar or a coalition): the goals whose
    /// negation has a lying profile.
    pub fn is_about_lies(&self) -> bool {
        self.is_group() || self.property() == Property::Sp
    }

    /// The property whose violation a counterexample is: the goal's own, or the property of
    /// a bound's metric (`sp` for `sp-gain`).
    pub fn property(&self) -> Property {
        // As explore's metrics say: whole-allocation measures take Pareto efficiency's
        // place, and a gsp-gain above c >= 1 is a strict gain with no liar worse off.
        match self {
            Goal::Property(p) => *p,
            Goal::Bound(metric, _) => metric.metric().property(),
        }
    }
}

/// The largest domain `prove` accepts (the work grows exponentially with it).
pub const MAX_USERS: usize = 6;
/// See [`MAX_USERS`].
pub const MAX_RESOURCES: usize = 4;

/// A statement as `prove` writes it: the mechanism, the goal, the claim in words, the domain
/// and the case split.
#[derive(Serialize)]
pub(crate) struct StatementDoc<'a> {
    mechanism: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    property: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metric: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bound: Option<&'a Rational>,
    claim: String,
    domain: DomainDoc,
    split: String,
}

/// The domain a statement quantifies over.
#[derive(Serialize)]
struct DomainDoc {
    users: usize,
    resources: usize,
    capacities: &'static str,
    demands: &'static str,
    #[serde(flatten)]
    roles: DomainRoles,
}

/// The rest of the domain: the liars' reports and the coalition for a statement about lies,
/// the users the negated statement names otherwise (its fields in the order the answers
/// have always had, `caps` first).
#[derive(Serialize)]
#[serde(untagged)]
enum DomainRoles {
    Lies {
        reports: &'static str,
        weights: &'static str,
        caps: &'static str,
        coalition: Vec<String>,
    },
    Named {
        caps: &'static str,
        weights: &'static str,
        roles: String,
    },
}

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
    /// The goal's constant exactly, when it is irrational ([`Statement::with_exact_bound`]):
    /// the script declares it as a real root of its minimal polynomial in its isolating
    /// interval, and the goal's rational is the end of that interval a refutation must pass.
    pub exact_bound: Option<RealAlgebraic>,
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
        use MetricName::{GspGain, PmLoss, RmLoss, SpGain, WelfareRatio};
        // The users a goal not about coalitions names.
        let named = match &goal {
            Goal::Property(Property::Sp | Property::Si | Property::Rm)
            | Goal::Bound(SpGain | RmLoss, _) => Some(1),
            Goal::Property(Property::Ef | Property::Pm) | Goal::Bound(PmLoss, _) => Some(2),
            Goal::Bound(WelfareRatio, _) => Some(0),
            _ => None,
        };
        let coalition = match (coalition, named) {
            (k, _) if goal.is_group() => {
                let k = k.unwrap_or(users);
                if !(1..=users).contains(&k) {
                    return Err(SolverError::invalid(
                        "--coalition",
                        format!("expected 1..{users} (at most --users), found {k}"),
                    ));
                }
                k
            }
            (None, Some(k)) => k,
            (Some(_), _) => {
                return Err(SolverError::invalid(
                    "--coalition",
                    "applies to --property gsp-strong or gsp-weak, or --metric gsp-gain",
                ))
            }
            (None, None) => {
                return Err(match &goal {
                    Goal::Property(p) => SolverError::invalid(
                        "--property",
                        format!(
                            "{p} has no encoding for prove; encoded: sp, gsp-strong, gsp-weak, \
                             si, ef, pm, rm"
                        ),
                    ),
                    Goal::Bound(metric, _) => SolverError::invalid(
                        "--metric",
                        format!("{metric} has no encoding for prove"),
                    ),
                })
            }
        };
        // The least constant a claim can hold with: 1 (a gain's truth, the answer itself).
        let least = match &goal {
            Goal::Bound(SpGain | GspGain, c) => Some((c, "the truth gives 1")),
            Goal::Bound(WelfareRatio, c) => Some((c, "the answer itself is feasible")),
            _ => None,
        };
        if let Some((c, why)) = least
            && *c < Rational::ONE
        {
            return Err(SolverError::invalid(
                "--bound",
                format!("expected at least 1 ({why}), found {c}"),
            ));
        }
        if caps && !mechanism.by_bottlenecks() {
            return Err(SolverError::invalid(
                "--caps",
                format!(
                    "the {} encoding has no caps (drf and asset have)",
                    mechanism.name()
                ),
            ));
        }
        let departure = match &goal {
            Goal::Property(Property::Pm) => Some(("--property", "pm")),
            Goal::Bound(PmLoss, _) => Some(("--metric", "pm-loss")),
            _ => None,
        };
        if let Some((flag, name)) = departure
            && mechanism.on_every_tree()
        {
            return Err(SolverError::invalid(
                flag,
                format!(
                    "{name} of {} has no encoding for prove: a departing leaf changes its \
                     siblings' guaranteed shares (docs/theory.md §6.10)",
                    mechanism.name()
                ),
            ));
        }
        // Every tree's leaves carry some positive weights, and every positive weight vector
        // is some tree's (docs/theory.md §6.10).
        let weights = weights || mechanism.on_every_tree();
        // A loss's constant must be positive, as `with_bound` checks.
        if let Goal::Bound(_, c) = &goal {
            goal.with_bound(c.clone())?;
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
            exact_bound: None,
        })
    }

    /// The statement with the goal's constant the irrational number `c` (an `explore`
    /// record's exact value, [`Goal::bounding`]'s goals alone): `c` is declared exactly in
    /// every script ([`Statement::bound_term`]), and the goal keeps as its rational the end of
    /// `c`'s isolating interval (refined to width at most 2^-100) on the far side of `c` for
    /// a refutation — the upper end for a gain, the lower for a loss — so a re-derived
    /// refutation passes `c` itself.
    ///
    /// # Errors
    /// A goal without a constant, or a refinement limit of the kernel.
    pub fn with_exact_bound(mut self, mut c: RealAlgebraic) -> Result<Self, SolverError> {
        if let Some(r) = c.as_rational() {
            self.goal = self.goal.with_bound(Rational::from_big(r.clone()))?;
            return Ok(self);
        }
        let width = Rational::new(1, 1i128 << 100).expect("nonzero").to_big();
        c.refine(&width, &leontief_solver::algebraic::Limits::default())
            .map_err(|e| SolverError::invalid("--bound", e.to_string()))?;
        let (lo, hi) = c.interval();
        let end = if self.goal.is_loss() { lo } else { hi };
        self.goal = self.goal.with_bound(Rational::from_big(end.clone()))?;
        self.exact_bound = Some(c);
        Ok(self)
    }

    /// The goal's constant `c` as a term of `script`: the rational written out, or, with an
    /// exact bound, a real `c_exact` declared with `p(c) = 0` and `lo < c < hi` (its minimal
    /// polynomial and isolating interval: exactly one real satisfies both).
    pub fn bound_term(&self, script: &mut Script, c: &Rational) -> String {
        let Some(x) = &self.exact_bound else {
            return constant(c);
        };
        let name = script.real("c_exact");
        let coeffs: Vec<Rational> = x
            .min_poly()
            .coeffs()
            .iter()
            .map(|k| Rational::from_big(k.clone().into()))
            .collect();
        script.assert(binary("=", &polynomial(&coeffs, &name), "0.0"));
        let (lo, hi) = x.interval();
        let [lo, hi] = [lo, hi].map(|v| constant(&Rational::from_big(v.clone())));
        script.assert(binary("<", &lo, &name));
        script.assert(binary("<", &name, &hi));
        name
    }

    /// The constant as the claim prints it: the closed form or decimal of an exact bound.
    fn bound_text(&self, c: &Rational) -> String {
        match &self.exact_bound {
            None => c.to_string(),
            Some(x) => {
                let limits = leontief_solver::algebraic::Limits::default();
                let digits = x.to_decimal(12, &limits).unwrap_or_default();
                match x.closed_form() {
                    Ok(form) => format!("{form} (= {digits}...)"),
                    Err(_) => format!("the root of {} near {digits}", x.min_poly()),
                }
            }
        }
    }

    /// One line: what is claimed, on which domain.
    pub fn describe(&self) -> String {
        let claim = match self.goal.bounded() {
            Some((metric, c)) => {
                let at_most = metric.metric().direction() == Direction::Max;
                let relation = if at_most { "<=" } else { ">=" };
                let c = self.bound_text(c);
                format!("{} has {metric} {relation} {c}", self.mechanism.name())
            }
            None => format!("{} has {}", self.mechanism.name(), self.goal.property()),
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
            if self.goal.is_group() {
                format!(", coalitions of at most {} liars", self.coalition)
            } else {
                String::new()
            }
        )
    }

    /// The statement and its domain as a document (the answer's first fields).
    pub(crate) fn document(&self) -> StatementDoc<'_> {
        let (property, metric, bound) = match self.goal.bounded() {
            None => (Some(self.goal.property().name()), None, None),
            Some((metric, c)) => (None, Some(metric.name()), Some(c)),
        };
        let weights = if self.mechanism.on_every_tree() {
            "the leaves' guaranteed shares: any positive (every tree, docs/theory.md §6.10)"
        } else if self.weights {
            "any positive"
        } else {
            "1"
        };
        let caps = if self.caps { "any positive" } else { "none" };
        let roles = if self.goal.is_about_lies() {
            DomainRoles::Lies {
                reports: "the coalition's members report any demand of the same domain",
                weights,
                caps,
                coalition: (1..=self.coalition).map(|i| format!("u{i}")).collect(),
            }
        } else {
            DomainRoles::Named {
                caps,
                weights,
                roles: goals::roles(self),
            }
        };
        StatementDoc {
            mechanism: self.mechanism.name(),
            property,
            metric,
            bound,
            claim: self.describe(),
            domain: DomainDoc {
                users: self.users,
                resources: self.resources,
                capacities: "1 each (every instance scales to this)",
                demands: if self.positive {
                    "positive, largest entry 1 (every demand scales to this)"
                } else {
                    "nonnegative, largest entry 1 (every demand scales to this)"
                },
                roles,
            },
            split: self.split_description(),
        }
    }

    fn split_description(&self) -> String {
        let lies = self.goal.is_about_lies();
        let symmetry = if lies {
            "one type per orbit under permutations of the coalition's members, of the other \
             users and of the resources"
                .to_string()
        } else if self.coalition == 0 {
            "one type per orbit under permutations of the users and of the resources".to_string()
        } else {
            let named: Vec<String> = (1..=self.coalition).map(|i| format!("u{i}")).collect();
            format!(
                "one type per orbit under permutations of the users other than {} and of the \
                 resources",
                named.join(", ")
            )
        };
        match self.split() {
            Split::Bottlenecks { lie: true } if lies => format!(
                "by the bottleneck assignments of the truthful and the reported answer, \
                 {symmetry}"
            ),
            Split::Bottlenecks { .. } => format!(
                "by the truthful answer's bottleneck assignment (each user's bottleneck \
                 resource{}), {symmetry}",
                if self.caps { " or its cap" } else { "" }
            ),
            Split::Supports if lies => {
                format!("by the price supports of the truthful and the reported answer, {symmetry}")
            }
            Split::Supports => format!("by the truthful answer's price support, {symmetry}"),
            Split::None => "none (one case)".into(),
        }
    }
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
        for metric in [
            MetricName::SpGain,
            MetricName::GspGain,
            MetricName::PmLoss,
            MetricName::RmLoss,
            MetricName::WelfareRatio,
        ] {
            let goal = Goal::bounding(metric, one.clone());
            assert_eq!(goal, Some(Goal::Bound(metric, one.clone())));
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
            // Every encoding names the theorem a proof rests on.
            assert!(!m.characterization().is_empty(), "{}", m.name());
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
            Goal::Bound(MetricName::SpGain, "3/2".parse().unwrap()),
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
            Goal::Bound(MetricName::SpGain, "1/2".parse().unwrap()),
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
