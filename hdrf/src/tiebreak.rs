//! Tie-breaks: which of several siblings with exactly equal keys is served first.
//!
//! Exact arithmetic makes exact ties common (two identical users hold exactly the same
//! share), so the rule that breaks them decides who is served. Breaking every tie by input
//! order (the first child) serves the same child again and again whenever one task frees at
//! a time: of two identical users one gets every offer and the other none. Production
//! schedulers break such ties on purpose:
//!
//! | rule    | meaning                                             | used by |
//! |---------|-----------------------------------------------------|---------|
//! | `first` | the first child in input order                      | YTsaurus (`GetBestActiveChildFairShare`, strict `<` over the children in order), Kueue (a full tie keeps the earlier candidate) |
//! | `count` | the fewest tasks started so far (subtree total)     | Mesos (`allocation.count` in `Node::compareDRF`) |
//! | `lru`   | served least recently (never served first)          | none directly; closest: YARN and Kueue prefer the earliest start or creation time |
//! | `name`  | the smallest name (byte order)                      | YARN (`getName().compareTo`, full dotted queue name), Mesos (role path `<`) |
//!
//! Sources: Apache Mesos `src/master/allocator/mesos/sorter/drf/sorter.hpp` (`compareDRF`:
//! share, then `allocation.count`, then path; the comment "We store the number of times this
//! client has been chosen for allocation so that we can fairly share the resources across
//! clients that have the same share"); Apache Hadoop
//! `hadoop-yarn-project/hadoop-yarn/hadoop-yarn-server/hadoop-yarn-server-resourcemanager/src/main/java/org/apache/hadoop/yarn/server/resourcemanager/scheduler/fair/policies/DominantResourceFairnessPolicy.java`
//! (`compareAttribrutes`: start time, then name); YTsaurus
//! `yt/yt/server/scheduler/fair_share_tree_allocation_scheduler.cpp`
//! (`GetBestActiveChildFairShare`); Kueue `pkg/scheduler/fair_sharing_iterator.go`
//! (`entryComparer.less`).
//!
//! Rules chain: `count,name` breaks a tie by count, a tie of counts by name. Whatever the
//! chain, a tie it leaves is broken by input order, so every choice is deterministic; `first`
//! therefore ends a chain (nothing after it could ever decide).
//!
//! The default is [`TieBreaks::default`] = `count` (Mesos' rule): two identical users
//! alternate instead of one taking every offer (`docs/theory.md` §4.9).
//!
//! # Example
//! ```
//! use leontief_hdrf::tiebreak::{Candidate, SiblingTieBreak, TieBreaks};
//! let chain: TieBreaks = "count,name".parse().unwrap();
//! assert_eq!(chain.rules(), &[SiblingTieBreak::Count, SiblingTieBreak::Name]);
//! assert_eq!(chain.to_string(), "count,name");
//! let a = Candidate { position: 0, count: 2, last_served: 7, name: "b" };
//! let b = Candidate { position: 1, count: 2, last_served: 3, name: "a" };
//! // Equal counts: the smaller name goes first.
//! assert!(chain.prefers(&b, &a));
//! // `first` keeps input order.
//! assert!("first".parse::<TieBreaks>().unwrap().prefers(&a, &b));
//! assert!("lru".parse::<TieBreaks>().unwrap().prefers(&b, &a));
//! assert_eq!(TieBreaks::default().to_string(), "count");
//! ```
//!
//! # Complexity
//! A comparison is `O(rules)` plus a name comparison for `name`.
//!
//! # References
//! - B. Hindman et al. *Mesos: A Platform for Fine-Grained Resource Sharing in the Data
//!   Center.* NSDI 2011 (the DRF allocator whose sorter breaks ties by allocation count).
//! - A. Ghodsi et al. *Dominant Resource Fairness: Fair Allocation of Multiple Resource
//!   Types.* NSDI 2011.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::error::SolverError;

leontief_solver::name_enum! {
    #[unknown("tie", "tie-break")]
    /// One tie-break rule. Names, on the command line and in JSON, derived from the variants
    /// (`first`, `count`, `lru`, `name`).
    pub enum SiblingTieBreak {
        /// The first child in input order (YTsaurus, Kueue).
        First,
        /// The fewest tasks started so far in the child's subtree, never reset (Mesos).
        Count,
        /// The child served least recently; one never served comes first.
        Lru,
        /// The smallest name, byte order (YARN, Mesos).
        Name,
    }
}

impl SiblingTieBreak {
    /// How `a` and `b` compare under this rule alone (`Less`: `a` first).
    pub fn compare(self, a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
        match self {
            SiblingTieBreak::First => a.position.cmp(&b.position),
            SiblingTieBreak::Count => a.count.cmp(&b.count),
            SiblingTieBreak::Lru => a.last_served.cmp(&b.last_served),
            SiblingTieBreak::Name => a.name.cmp(b.name),
        }
    }
}

/// What a tie-break looks at in one of the tied siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate<'a> {
    /// Position among its siblings in input order.
    pub position: usize,
    /// Tasks started so far in its subtree.
    pub count: u64,
    /// When it was last served, as a sequence number of the decisions (0: never).
    pub last_served: u64,
    /// Its name.
    pub name: &'a str,
}

/// A chain of tie-break rules, applied in order; input order decides what is left.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TieBreaks(Vec<SiblingTieBreak>);

impl TieBreaks {
    /// A chain of rules.
    ///
    /// # Errors
    /// [`SolverError::Invalid`] on field `tie` for an empty chain, a repeated rule, or a rule
    /// after `first`.
    pub fn new(rules: Vec<SiblingTieBreak>) -> Result<Self, SolverError> {
        if rules.is_empty() {
            return Err(SolverError::invalid(
                "tie",
                "expected at least one rule (first, count, lru or name)",
            ));
        }
        for (i, r) in rules.iter().enumerate() {
            if rules[..i].contains(r) {
                return Err(SolverError::invalid(
                    "tie",
                    format!("{r} appears twice in the chain"),
                ));
            }
        }
        if let Some(i) = rules.iter().position(|&r| r == SiblingTieBreak::First)
            && i + 1 < rules.len()
        {
            return Err(SolverError::invalid(
                "tie",
                format!(
                    "first decides every tie, so {} after it could never apply",
                    rules[i + 1]
                ),
            ));
        }
        Ok(TieBreaks(rules))
    }

    /// Input order only: every tie goes to the first child.
    pub fn first() -> Self {
        TieBreaks(vec![SiblingTieBreak::First])
    }

    /// The rules, in the order they apply.
    pub fn rules(&self) -> &[SiblingTieBreak] {
        &self.0
    }

    /// How two tied candidates compare: the first rule that tells them apart, else input
    /// order (`Less`: `a` first).
    pub fn compare(&self, a: &Candidate<'_>, b: &Candidate<'_>) -> Ordering {
        self.0
            .iter()
            .map(|r| r.compare(a, b))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.position.cmp(&b.position))
    }

    /// Whether `a` goes before `b` when their keys tie.
    pub fn prefers(&self, a: &Candidate<'_>, b: &Candidate<'_>) -> bool {
        self.compare(a, b) == Ordering::Less
    }

    /// The chain in words, for reports: `count, then input order`.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::tiebreak::TieBreaks;
    /// assert_eq!(TieBreaks::default().describe(),
    ///     "fewest tasks started (subtree), then first in input order");
    /// assert_eq!(TieBreaks::first().describe(), "first in input order");
    /// ```
    pub fn describe(&self) -> String {
        let mut parts: Vec<&str> = self
            .0
            .iter()
            .filter_map(|r| match r {
                SiblingTieBreak::Count => Some("fewest tasks started (subtree)"),
                SiblingTieBreak::Lru => Some("least recently served"),
                SiblingTieBreak::Name => Some("smallest name"),
                SiblingTieBreak::First => None, // input order, said last
            })
            .collect();
        parts.push("first in input order");
        parts.join(", then ")
    }
}

/// The JSON form, as fields of the document that holds the chain (a simulation's, flattened):
/// `tie`, its name, and `tie_break`, its description ([`TieBreaks::describe`]).
impl serde::Serialize for TieBreaks {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("tie", &self.to_string())?;
        map.serialize_entry("tie_break", &self.describe())?;
        map.end()
    }
}

impl Default for TieBreaks {
    /// `count`, Mesos' rule: identical siblings alternate.
    fn default() -> Self {
        TieBreaks(vec![SiblingTieBreak::Count])
    }
}

impl fmt::Display for TieBreaks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|r| r.name()).collect();
        f.write_str(&names.join(","))
    }
}

impl FromStr for TieBreaks {
    type Err = SolverError;

    /// A comma-separated chain, e.g. `count,name`.
    ///
    /// # Example
    /// ```
    /// use leontief_hdrf::tiebreak::TieBreaks;
    /// assert!("count,first".parse::<TieBreaks>().is_ok());
    /// let e = "first,count".parse::<TieBreaks>().unwrap_err().to_string();
    /// assert!(e.contains("tie"), "{e}");
    /// assert!("count,count".parse::<TieBreaks>().is_err());
    /// assert!("oldest".parse::<TieBreaks>().unwrap_err().to_string().contains("lru"));
    /// assert!("".parse::<TieBreaks>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let rules = s
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::parse)
            .collect::<Result<Vec<SiblingTieBreak>, _>>()?;
        TieBreaks::new(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(position: usize, count: u64, last_served: u64, name: &str) -> Candidate<'_> {
        Candidate {
            position,
            count,
            last_served,
            name,
        }
    }

    #[test]
    fn chains_fall_back_to_input_order() {
        let chain: TieBreaks = "count".parse().unwrap();
        // Equal counts and nothing else in the chain: input order.
        assert!(chain.prefers(&c(0, 1, 9, "z"), &c(1, 1, 0, "a")));
        assert!(chain.prefers(&c(1, 0, 9, "z"), &c(0, 1, 0, "a")));
        let chain: TieBreaks = "lru,name".parse().unwrap();
        assert!(chain.prefers(&c(1, 5, 0, "z"), &c(0, 0, 4, "a")));
        assert!(chain.prefers(&c(1, 5, 4, "a"), &c(0, 0, 4, "b")));
        assert_eq!(
            chain.compare(&c(0, 0, 4, "a"), &c(0, 0, 4, "a")),
            Ordering::Equal
        );
    }
}
