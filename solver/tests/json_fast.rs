//! The flat form read without the intermediate JSON tree gives what the strict reader gives:
//! the same instance on valid documents, the same error (naming the field) on the others.

use leontief_solver::generate::cluster_workload;
use leontief_solver::json::parse_strict;
use leontief_solver::Instance;

/// `from_json_str` (which tries the fast reader first) against the strict reader alone.
fn same(text: &str) {
    let strict = parse_strict(text).and_then(|v| Instance::from_json(&v));
    let fast = Instance::from_json_str(text);
    match (strict, fast) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
        (a, b) => panic!("{text}: strict {a:?}, fast {b:?}"),
    }
}

#[test]
fn generated_instances_read_the_same() {
    for (n, m, seed) in [(1, 1, 1), (50, 3, 2), (400, 8, 3)] {
        let inst = cluster_workload(n, m, seed);
        let text = inst.to_json().to_string();
        same(&text);
        assert_eq!(Instance::from_json_str(&text).unwrap(), inst);
    }
}

#[test]
fn edge_cases_read_the_same() {
    for text in [
        r#"{"capacity": [9, 18], "users": [{"name": "A", "demand": [1, 4]}, {"demand": ["3", 0.5e1]}]}"#,
        r#"{"resources": ["cpu", "mem"], "capacity": ["9", "18.5"], "users": [{"demand": [1, "1/3"], "weight": 2, "tasks": null}]}"#,
        r#"{"capacity": [1], "users": [{"demand": [1], "tasks": 3}], "about": {"x": [1, 2]}, "note": "n"}"#,
        r#"{"capacity": [1], "users": []}"#,
        // Refused, or outside the fast subset: the strict reader's answer either way.
        r#"{"capacity": [1], "users": [{"demand": [1], "weight": null}]}"#,
        r#"{"capacity": [1], "resources": null, "users": [{"demand": [1]}]}"#,
        r#"{"capacity": [1], "users": [{"name": 7, "demand": [1]}]}"#,
        r#"{"capacity": [1], "users": [{"demand": [1], "demand": [2]}]}"#,
        r#"{"capacity": [1], "users": [{"demand": [1], "colour": "red"}]}"#,
        r#"{"capacity": [1], "users": [{"demand": [1, 2]}]}"#,
        r#"{"capacity": [-1], "users": [{"demand": [1]}]}"#,
        r#"{"capacity": [1], "users": [{"demand": ["1/0"]}]}"#,
        r#"{"capacity": [1], "users": [{"demand": [{"a": 1}]}]}"#,
        r#"{"capacity": [1, 1], "users": [{"demand": [1, 0], "weights": [1, 2]}]}"#,
        r#"{"capacity": [1], "pools": [{"name": "P"}], "users": [{"demand": [1], "pool": "P"}]}"#,
        r#"{"capacity": [1], "tree": {"children": [{"name": "A", "demand": [1]}]}}"#,
        r#"{"capacity": [1], "users": [{"demand": [1]}]} trailing"#,
        r#"[1, 2]"#,
    ] {
        same(text);
    }
}
