//! One unit of the search: the scenarios it tries for the property (lies and coalitions,
//! departures, capacity growths, the instance itself), each confirmed by the exact oracles,
//! then the local search over lie profiles, and the shrinking of what it found.

use leontief_solver::properties::{utility_of_report, Property, Scenario};
use leontief_solver::random_instances::SplitMix64;
use leontief_solver::{Allocation, Instance, Mechanism, Rational};

use super::lies::{capacity_growths, neighbour_profile, random_coalition, user_lies, Lies};
use super::{SearchConfig, UnitLog};
use crate::candidate::{evaluate_with, truthful_utilities, Candidate, Violation};
use crate::record::Record;
use crate::shrink::shrink;
use crate::space::{Origin, Space};

/// The seed of unit `unit`'s own random stream (also the stream `explore` draws a unit's
/// lies and growths from).
pub fn unit_rng(seed: u64, unit: u64) -> SplitMix64 {
    let mut rng = SplitMix64::new(seed ^ 0x5EA2_C4E5 ^ unit.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.next_u64();
    rng
}

pub(super) fn run_unit(
    mechanism: &dyn Mechanism,
    cfg: &SearchConfig,
    space: &Space,
    unit: u64,
    origin: Origin,
) -> UnitLog<Record> {
    let instance = space.instance(origin);
    let mut out = UnitLog {
        unit,
        scenarios: 0,
        errors: Vec::new(),
        found: None,
    };
    let truth = match mechanism.allocate(&instance) {
        Ok(x) => x,
        Err(e) => {
            out.errors.push(format!("unit {unit}: {e}"));
            return out;
        }
    };
    let mut rng = unit_rng(cfg.run.seed, unit);
    let mut ctx = Unit {
        mechanism,
        cfg,
        instance: &instance,
        truth: &truth,
        grid: matches!(origin, Origin::Grid(_)),
        scenarios: 0,
        errors: Vec::new(),
    };
    let n = instance.num_users();
    let found = match cfg.property {
        Property::Sp | Property::GspStrong | Property::GspWeak => ctx.manipulations(&mut rng),
        // Every single departure, when someone stays.
        Property::Pm if n < 2 => None,
        Property::Pm => ctx.first_violation((0..n).map(Scenario::Remove)),
        Property::Rm => {
            let growths = capacity_growths(&instance, &mut rng);
            ctx.first_violation(growths.into_iter().map(Scenario::Capacity))
        }
        _ => ctx.first_violation([Scenario::Bounded]),
    };
    out.scenarios = ctx.scenarios;
    out.errors = ctx.errors;
    // Confirmed by the exact oracles on this unit's truthful answer; the shrinker
    // re-verifies every step from scratch.
    let Some((candidate, violation)) = found else {
        return out;
    };
    let mut record = Record::new(mechanism.name(), cfg.property, candidate, violation);
    if let Some(sc) = &cfg.shrink {
        let (small, v) = shrink(
            mechanism,
            cfg.property,
            &record.candidate,
            &record.violation,
            sc,
        );
        if small != record.candidate {
            let original = std::mem::replace(&mut record.candidate, small);
            let original_v = std::mem::replace(&mut record.violation, v);
            record.original = Some((original, original_v));
        }
    }
    record.seed = Some(cfg.run.seed);
    record.unit = Some(unit);
    record.strategy = Some(origin.name().to_string());
    out.found = Some((record.key(), record));
    out
}

/// One unit's working state.
struct Unit<'a> {
    mechanism: &'a dyn Mechanism,
    cfg: &'a SearchConfig,
    instance: &'a Instance,
    truth: &'a Allocation,
    grid: bool,
    scenarios: u64,
    errors: Vec<String>,
}

/// A confirmed violation: the candidate and its verification.
type Confirmed = (Candidate, Violation);

/// A lie profile: `(user, report)`, users increasing.
type Profile = Vec<(usize, Vec<Rational>)>;

/// Lexicographic score of a profile (see the module docs); larger is closer to a violation.
type Score = (Rational, Rational);

impl Unit<'_> {
    /// Whether the unit has tried as many scenarios as the budget allows: the run's budget,
    /// so that one unit never runs past it whatever the instance's size (and its result
    /// depends on the unit and the budget alone, whichever shard or batch it is in).
    fn spent(&self) -> bool {
        self.cfg.run.budget.is_some_and(|l| self.scenarios >= l)
    }

    /// The candidate and its exact verification, when the scenario violates the property.
    fn confirm(&mut self, scenario: Scenario) -> Option<Confirmed> {
        let c = Candidate::new(self.instance.clone(), scenario);
        match evaluate_with(self.mechanism, self.cfg.property, &c, self.truth) {
            Ok(Some(v)) => Some((c, v)),
            Ok(None) => None,
            Err(e) => {
                self.errors.push(e.to_string());
                None
            }
        }
    }

    /// The first of `scenarios` that violates the property, each counted, while the budget
    /// lasts.
    fn first_violation(
        &mut self,
        scenarios: impl IntoIterator<Item = Scenario>,
    ) -> Option<Confirmed> {
        for scenario in scenarios {
            if self.spent() {
                return None;
            }
            self.scenarios += 1;
            if let Some(found) = self.confirm(scenario) {
                return Some(found);
            }
        }
        None
    }

    /// The true utilities after the profile, or `None` when the profile is not a valid
    /// report or the mechanism fails on it.
    fn try_profile(&mut self, profile: &Profile) -> Option<Vec<Rational>> {
        if self.spent() {
            return None;
        }
        let lied = self.instance.with_reports(profile).ok()?;
        self.scenarios += 1;
        let x = match self.mechanism.allocate(&lied) {
            Ok(x) => x,
            Err(e) => {
                self.errors.push(e.to_string());
                return None;
            }
        };
        let mut after = truthful_utilities(self.instance, &x.tasks);
        for (i, r) in profile {
            after[*i] = utility_of_report(self.instance, *i, &x.tasks[*i], r);
        }
        Some(after)
    }

    fn score(&self, profile: &Profile, before: &[Rational], after: &[Rational]) -> Score {
        let gain = |i: usize| &after[i] - &before[i];
        let worst_liar = profile
            .iter()
            .map(|(i, _)| gain(*i))
            .min()
            .unwrap_or(Rational::ZERO);
        match self.cfg.property {
            Property::GspStrong => {
                let best = (0..after.len()).map(gain).max().unwrap_or(Rational::ZERO);
                (worst_liar.min(Rational::ZERO), best)
            }
            _ => (worst_liar, Rational::ZERO),
        }
    }

    fn is_violation(&self, s: &Score) -> bool {
        match self.cfg.property {
            Property::GspStrong => s.0.is_zero() && s.1.is_positive(),
            _ => s.0.is_positive(),
        }
    }

    /// Tries a profile: its score, and the confirmed candidate when it violates.
    fn probe(
        &mut self,
        profile: &Profile,
        before: &[Rational],
    ) -> Option<(Score, Option<Confirmed>)> {
        let after = self.try_profile(profile)?;
        let s = self.score(profile, before, &after);
        let found = if self.is_violation(&s) {
            self.confirm(Scenario::Lies(profile.clone()))
        } else {
            None
        };
        Some((s, found))
    }

    fn manipulations(&mut self, rng: &mut SplitMix64) -> Option<Confirmed> {
        let n = self.instance.num_users();
        let before = truthful_utilities(self.instance, &self.truth.tasks);
        // Every user's lies: structured, then grid lies.
        let (instance, values) = (self.instance, &self.cfg.run.values);
        let lists: Vec<Lies> = (0..n)
            .map(|i| user_lies(instance, i, values, self.grid, rng))
            .collect();
        let group = self.cfg.property != Property::Sp;
        let max_liars = if group {
            self.cfg.max_liars.unwrap_or(n).min(n)
        } else {
            1
        };
        // Single lies, then (GSP) random coalitions, each drawn only when it is tried.
        let singles = lists
            .iter()
            .enumerate()
            .flat_map(|(i, list)| list.iter().map(move |lie| vec![(i, lie)]));
        let eligible: Vec<usize> = (0..n).filter(|&i| !lists[i].is_empty()).collect();
        let top = max_liars.min(eligible.len());
        let samples = if top >= 2 { self.cfg.group_samples } else { 0 };
        let coalitions = (0..samples).map(|_| random_coalition(&eligible, top, &lists, rng));
        let mut best: Option<(Score, Profile)> = None;
        for p in singles.chain(coalitions) {
            if self.spent() {
                return None;
            }
            if let Some((s, found)) = self.probe(&p, &before) {
                if found.is_some() {
                    return found;
                }
                if best.as_ref().is_none_or(|(b, _)| s > *b) {
                    best = Some((s, p));
                }
            }
        }
        // Local search from the best profile seen.
        let (mut score, mut current) = best?;
        for _ in 0..self.cfg.climb_steps {
            if self.spent() {
                return None;
            }
            let next = neighbour_profile(instance, values, &current, &lists, max_liars, rng);
            let Some(next) = next else {
                continue;
            };
            if let Some((s, found)) = self.probe(&next, &before) {
                if found.is_some() {
                    return found;
                }
                if s >= score {
                    score = s;
                    current = next;
                }
            }
        }
        None
    }
}
