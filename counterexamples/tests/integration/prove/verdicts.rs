//! Statements whose answers are known from the literature or by hand: the theorems are
//! proved, and every refutation's counterexample replays (or re-derives) with the exact
//! mechanism.

use super::{
    decide, refuted, refuted_replaying, refuted_value, solver, statement, statement_over, Domain,
};
use crate::common::q;
use leontief_counterexamples::explore::MetricName;
use leontief_counterexamples::prove::{Goal, ProvedMechanism, Statement, Verdict};
use leontief_counterexamples::record::replay;
use leontief_solver::ceei::Ceei;
use leontief_solver::properties::Property;
use leontief_solver::{AssetFairness, Drf, Rational};

#[test]
fn drf_is_strategy_proof_with_two_users_and_two_resources() {
    // Ghodsi et al. (NSDI 2011, Theorem 1) and, with zero demands, Parkes, Procaccia and Shah
    // (EC 2012): extended DRF is strategy-proof.
    let Some(_) = solver() else { return };
    let sp = statement(ProvedMechanism::Drf, Goal::Property(Property::Sp), 2, 2);
    assert_eq!(decide(&sp), Verdict::Proved);
}

#[test]
fn asset_fairness_is_strategy_proof_with_positive_demands() {
    // The DRF paper's Table 2 (Ghodsi et al., NSDI 2011): asset fairness is strategy-proof
    // (docs/theory.md §3.11), with strictly positive demands.
    let Some(_) = solver() else { return };
    let positive = Domain {
        positive: true,
        ..Domain::default()
    };
    let sp = statement_over(
        ProvedMechanism::Asset,
        Goal::Property(Property::Sp),
        (2, 2),
        positive,
    );
    assert_eq!(decide(&sp), Verdict::Proved);
}

#[test]
fn ceei_gains_more_than_seven_fifths_with_two_users() {
    // The family with n = 2 (docs/theory.md §6.7): capacities (1, 1), liar ⟨1, 0⟩, u2
    // ⟨1/2, 1⟩; truthful prices (2, 0) give the liar 1/2 task; reporting ⟨1, 2/3⟩ moves the
    // prices to (0, 2) and gives it 3/4: a gain of 3/2 > 7/5. So the bound 7/5 is refuted,
    // and the counterexample must replay as an SP violation of the exact CEEI.
    let Some(_) = solver() else { return };
    let gain = statement(
        ProvedMechanism::Ceei,
        Goal::Bound(MetricName::SpGain, q("7/5")),
        2,
        2,
    );
    let record = refuted_replaying(&gain, "sp", &Ceei::new());
    assert!(q(record["value"].as_str().unwrap()) > q("7/5"));
}

#[test]
fn ceei_gains_exactly_five_thirds_at_most_with_three_users_and_two_resources() {
    // docs/theory.md §6.8: with equal incomes a single liar gains at most 2 − 1/n, and the
    // family of §6.7 gains exactly that; at n = 3: 5/3. So `<= 5/3` is proved at (3, 2) and
    // `<= 8/5` is refuted, by an instance gaining more than 8/5 that replays exactly.
    let Some(_) = solver() else { return };
    let five_thirds = statement(
        ProvedMechanism::Ceei,
        Goal::Bound(MetricName::SpGain, q("5/3")),
        3,
        2,
    );
    assert_eq!(decide(&five_thirds), Verdict::Proved);
    let eight_fifths = statement(
        ProvedMechanism::Ceei,
        Goal::Bound(MetricName::SpGain, q("8/5")),
        3,
        2,
    );
    let record = refuted(&eight_fifths);
    let gain = q(record["value"].as_str().unwrap());
    assert!(gain > q("8/5") && gain <= q("5/3"), "gain {gain}");
    replay(&Ceei::new(), &record).unwrap();
}

#[test]
fn drf_with_caps_is_strategy_proof_with_two_users_and_two_resources() {
    // Extended DRF with task caps is strategy-proof (docs/theory.md §3.11; a user capped at T
    // is the user whose demand is met at T tasks, Parkes, Procaccia and Shah, EC 2012). The
    // liar's reported cap is free in the normal form (§6.5), so this covers lies about the
    // scale of a demand too.
    let Some(_) = solver() else { return };
    let weights_and_caps = Domain {
        weights: true,
        caps: true,
        ..Domain::default()
    };
    let sp = statement_over(
        ProvedMechanism::Drf,
        Goal::Property(Property::Sp),
        (2, 2),
        weights_and_caps,
    );
    assert_eq!(decide(&sp), Verdict::Proved);
}

#[test]
fn a_liars_reported_cap_scales_its_report_back() {
    // A model of DRF gsp-strong with caps at (3, 2), two liars (found by prove): truthful
    // u1 ⟨1/20, 1⟩ cap 3/8, u2 ⟨1, 0⟩ cap 2, u3 ⟨3/8, 1⟩ cap 2; in normal form u1 reports
    // ⟨1/18, 1⟩ with cap 3/7 and u2 ⟨1, 0⟩ with cap 10/13. A report α e has cap t exactly when
    // e has cap α t, so the reports with the liars' own caps are (3/7)/(3/8) = 8/7 times
    // ⟨1/18, 1⟩ = ⟨4/63, 8/7⟩ and (10/13)/2 = 5/13 times ⟨1, 0⟩ = ⟨5/13, 0⟩. The witness
    // rounds the model to simpler numbers that still re-derive, so the record's reports are
    // near these: not in normal form (u1's largest entry is its scale, not 1), and the
    // record replays with the exact DRF. Read in normal form, with the liars' own caps, the
    // lies would not re-derive at all.
    let caps_and_pairs = Domain {
        caps: true,
        coalition: Some(2),
        ..Domain::default()
    };
    let gsp = statement_over(
        ProvedMechanism::Drf,
        Goal::Property(Property::GspStrong),
        (3, 2),
        caps_and_pairs,
    );
    let model: Vec<(String, Rational)> = [
        ("d_1_1", "1/20"),
        ("d_1_2", "1"),
        ("d_2_1", "1"),
        ("d_2_2", "0"),
        ("d_3_1", "3/8"),
        ("d_3_2", "1"),
        ("t_1", "3/8"),
        ("t_2", "2"),
        ("t_3", "2"),
        ("e_1_1", "1/18"),
        ("e_1_2", "1"),
        ("e_2_1", "1"),
        ("e_2_2", "0"),
        ("tl_1", "3/7"),
        ("tl_2", "10/13"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), q(v)))
    .collect();
    let record = leontief_counterexamples::prove::witness::counterexample(&gsp, &model).unwrap();
    let largest = |liar: &str| {
        record["lies"][liar]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| q(v.as_str().unwrap()))
            .max()
            .unwrap()
    };
    assert!(largest("u1") > q("1"), "{}", record["lies"]);
    assert!(largest("u2") < q("1"), "{}", record["lies"]);
    replay(&Drf::extended(), &record).unwrap();
}

#[test]
fn drf_is_not_strongly_group_strategy_proof_with_zero_demands() {
    // A coalition of two in (4, 3), derived by hand: capacities 1; u1 ⟨2/3, 0, 1⟩,
    // u2 ⟨0, 1, 0⟩, u3 ⟨0, 0, 1⟩, u4 ⟨1, 1/3, 0⟩. Truth: resource 3 fills first (2λ = 1),
    // freezing u1 and u3 at 1/2; then resource 1 (1/3 + λ = 1) freezes u4 at 2/3; then
    // resource 2 (λ + 2/9 = 1) leaves u2 7/9. If u1 reports ⟨1, 0, 1⟩, resources 1 and 3 fill
    // together at λ = 1/2 (u4 frozen at 1/2) and resource 2 gives u2 λ + 1/6 = 1, i.e. 5/6,
    // while u1's bundle ⟨1/2, 0, 1/2⟩ still runs min(3/4, 1/2) = 1/2 of its true tasks. So
    // gsp-strong fails with coalition {u1, u2}; the found record must replay with the exact
    // DRF.
    let Some(_) = solver() else { return };
    let pairs = Domain {
        coalition: Some(2),
        ..Domain::default()
    };
    let gsp = statement_over(
        ProvedMechanism::Drf,
        Goal::Property(Property::GspStrong),
        (4, 3),
        pairs,
    );
    refuted_replaying(&gsp, "gsp-strong", &Drf::extended());
}

#[test]
fn drf_violates_resource_monotonicity_and_keeps_half_its_tasks_with_two_users() {
    // The DRF paper (§5, Table 2): DRF is not resource monotonic — the instance of the
    // negations' rm test, u1 falling from 2/3 to 1/2 tasks, is one counterexample at (2, 2) —
    // so rm and rm-loss >= 1 are refuted, each counterexample replaying with the exact
    // mechanism (rm-loss's below 1 by explore's metric). rm-loss >= 1/n holds (docs/theory.md
    // §5, question 3): after the growth DRF still gives every user at least its equal split
    // 1/n of the grown capacities (the sharing incentive), which runs at least 1/n of the
    // tasks the whole old capacities run; a user's old tasks are at most that whole. So
    // rm-loss >= 1/2 is proved at (2, 2).
    let Some(_) = solver() else { return };
    let st = statement(ProvedMechanism::Drf, Goal::Property(Property::Rm), 2, 2);
    refuted_replaying(&st, "rm", &Drf::extended());
    let rm_loss = statement(
        ProvedMechanism::Drf,
        Goal::Bound(MetricName::RmLoss, q("1")),
        2,
        2,
    );
    assert!(refuted_value(&rm_loss, "rm-loss", &Drf::extended()) < q("1"));
    let half = statement(
        ProvedMechanism::Drf,
        Goal::Bound(MetricName::RmLoss, q("1/2")),
        2,
        2,
    );
    assert_eq!(decide(&half), Verdict::Proved);
}

#[test]
fn collapsed_hdrf_is_strategy_proof_on_every_tree_of_two_leaves_and_not_resource_monotonic() {
    // docs/theory.md §6.10: collapsed HDRF is extended DRF over the leaves weighted by their
    // guaranteed shares, and every positive weight vector is some tree's; extended weighted
    // DRF is strategy-proof (Ghodsi et al., NSDI 2011, Theorem 1; Parkes, Procaccia and Shah,
    // EC 2012, with zero demands and weights), so `sp` is proved on every tree of 2 leaves
    // with 2 resources. DRF is not resource monotonic (the DRF paper, Table 2; the one-pool
    // tree of equal weights is DRF itself), so `rm` is refuted, and the counterexample must
    // replay with collapsed HDRF itself on the one-pool tree of its weights.
    let Some(_) = solver() else { return };
    let collapsed =
        |property| statement(ProvedMechanism::Collapsed, Goal::Property(property), 2, 2);
    let sp = collapsed(Property::Sp);
    assert!(sp.weights, "every tree: the leaves' weights are free");
    assert!(sp.describe().contains("every tree"), "{}", sp.describe());
    assert_eq!(decide(&sp), Verdict::Proved);
    let mechanism = leontief_counterexamples::mechanisms::by_name("hdrf:collapsed").unwrap();
    let record = refuted_replaying(&collapsed(Property::Rm), "rm", mechanism.as_ref());
    assert_eq!(record["mechanism"], "hdrf:collapsed");
    // A departing leaf changes its siblings' guaranteed shares: no fixed-weight statement.
    for goal in [
        Goal::Property(Property::Pm),
        Goal::Bound(MetricName::PmLoss, q("1/2")),
    ] {
        let err = Statement::new(
            ProvedMechanism::Collapsed,
            goal,
            3,
            2,
            false,
            false,
            false,
            None,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("a departing leaf changes its siblings' guaranteed shares"),
            "{err}"
        );
    }
}

#[test]
fn drf_and_ceei_have_the_sharing_incentive_and_envy_freeness() {
    // The DRF paper's Table 2 (Ghodsi et al., NSDI 2011) and, with zero demands, Parkes,
    // Procaccia and Shah (EC 2012): DRF and CEEI have SI and EF.
    let Some(_) = solver() else { return };
    for mechanism in [ProvedMechanism::Drf, ProvedMechanism::Ceei] {
        for property in [Property::Si, Property::Ef] {
            for (n, m) in [(2, 2), (3, 2)] {
                let st = statement(mechanism, Goal::Property(property), n, m);
                assert_eq!(decide(&st), Verdict::Proved, "{}", st.describe());
            }
        }
    }
}

#[test]
fn asset_fairness_violates_the_sharing_incentive() {
    // The DRF paper (§4, Table 2): asset fairness lacks SI. By hand at (2, 2): u1 ⟨1, 1⟩ and
    // u2 ⟨1, 0⟩ have aggregate shares 2 x_1 and x_2; equal shares and a full resource 1
    // give x_1 = 1/3, below u1's half of the cluster (1/2 task). So the claim is refuted,
    // and the counterexample must replay as an SI violation of the exact mechanism.
    let Some(_) = solver() else { return };
    let st = statement(ProvedMechanism::Asset, Goal::Property(Property::Si), 2, 2);
    refuted_replaying(&st, "si", &AssetFairness);
}

#[test]
fn ceei_violates_population_monotonicity_and_drf_has_it_with_positive_demands() {
    // The DRF paper: CEEI is not population monotonic (Theorem 5), DRF is with positive
    // demands (Theorem 14). With zero demands DRF is not (docs/theory.md §3.6: u1 ⟨1, 0⟩,
    // u2 ⟨0, 1⟩, u3 ⟨1/2, 1⟩ at (3, 2)). Every refutation replays with the exact mechanism.
    let Some(_) = solver() else { return };
    let on = |mechanism, positive| {
        let domain = Domain {
            positive,
            ..Domain::default()
        };
        statement_over(mechanism, Goal::Property(Property::Pm), (3, 2), domain)
    };
    refuted_replaying(&on(ProvedMechanism::Ceei, true), "pm", &Ceei::new());
    assert_eq!(decide(&on(ProvedMechanism::Drf, true)), Verdict::Proved);
    refuted_replaying(&on(ProvedMechanism::Drf, false), "pm", &Drf::extended());
}

#[test]
fn drfs_welfare_ratio_with_two_users_and_two_resources_is_nine_eighths() {
    // (n + 1)^2 / (4n) = 9/8 at n = 2 (Bertsimas, Farias and Trichakis's bound for
    // max-min fairness), attained by u1 ⟨1, 0⟩, u2 ⟨1/2, 1⟩: resource 1 fills at
    // λ + λ/2 = 1, so DRF gives 2/3 each (welfare 4/3); the optimum gives u2 1 task and u1
    // the 1/2 of resource 1 left (welfare 3/2). So "<= 9/8" is proved and "<= 11/10"
    // refuted, with a re-derived ratio above 11/10.
    let Some(_) = solver() else { return };
    let at = |c: &str| {
        statement(
            ProvedMechanism::Drf,
            Goal::Bound(MetricName::WelfareRatio, q(c)),
            2,
            2,
        )
    };
    assert_eq!(decide(&at("9/8")), Verdict::Proved);
    let ratio = refuted_value(&at("11/10"), "welfare-ratio", &Drf::extended());
    assert!(ratio > q("11/10"));
}

#[test]
fn drfs_pm_loss_with_three_users_and_two_resources_is_eight_ninths() {
    // docs/theory.md §3.6 and docs/explore.md §3.3, by hand: u1 ⟨1, 0⟩, u3 ⟨1/2, 1⟩ get 2/3
    // each (resource 1 fills at λ + λ/2 = 1); when u2 ⟨0, 1⟩ joins, resource 2 fills first
    // (λ + λ = 1) and u1 runs on to 3/4: a ratio of (2/3)/(3/4) = 8/9, so "pm-loss >= 9/10"
    // is refuted (the counterexample re-derives with explore's metric, below 9/10). With
    // positive demands DRF is population monotonic (the DRF paper, Theorem 14): ">= 1".
    let Some(_) = solver() else { return };
    let at = |c: &str, positive: bool| {
        let domain = Domain {
            positive,
            ..Domain::default()
        };
        statement_over(
            ProvedMechanism::Drf,
            Goal::Bound(MetricName::PmLoss, q(c)),
            (3, 2),
            domain,
        )
    };
    let loss = refuted_value(&at("9/10", false), "pm-loss", &Drf::extended());
    assert!(loss < q("9/10"));
    assert_eq!(decide(&at("1", true)), Verdict::Proved);
}

#[test]
fn ceeis_gsp_gain_with_one_liar_exceeds_seven_fifths() {
    // docs/theory.md §6.7 with n = 2: the liar ⟨1, 0⟩ gains 3/2 against u2 ⟨1/2, 1⟩ by
    // reporting ⟨1, 2/3⟩, and a single liar is a coalition whose only liar strictly gains.
    // So "gsp-gain <= 7/5" with coalitions of one liar is refuted; the record replays as a
    // gsp-strong violation of the exact CEEI and its gain (explore's metric) is above 7/5.
    let Some(_) = solver() else { return };
    let single_liars = Domain {
        coalition: Some(1),
        ..Domain::default()
    };
    let st = statement_over(
        ProvedMechanism::Ceei,
        Goal::Bound(MetricName::GspGain, q("7/5")),
        (2, 2),
        single_liars,
    );
    let record = refuted_replaying(&st, "gsp-strong", &Ceei::new());
    assert_eq!(record["metric"], "gsp-gain");
    assert!(q(record["value"].as_str().unwrap()) > q("7/5"));
}
