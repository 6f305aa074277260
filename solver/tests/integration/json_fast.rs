//! The flat form read without the intermediate JSON tree gives what the strict reader gives:
//! the same instance on valid documents, the same error (naming the field) on the others.

use leontief_solver::json::parse_strict;
use leontief_solver::random_instances::cluster_workload;
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

/// Documents of a megabyte or more have their users read in parallel pieces: the same
/// instance or the same error, whatever the strings hold (quotes, brackets, commas, escapes)
/// and wherever a fault sits.
#[test]
fn large_documents_read_the_same() {
    use leontief_solver::User;
    let n = 24_000;
    let users: Vec<User> = (0..n)
        .map(|i| {
            let name = match i % 4 {
                0 => format!("u{i}"),
                1 => format!("a\"],[{{\"x\": {i}}}, \\\"{i}"),
                2 => format!("tab\t{i}\\"),
                _ => format!("\u{e9}{i}}}]"),
            };
            User::new(name, [1 + (i % 7) as i64, (i % 3) as i64, 2])
        })
        .collect();
    let inst = Instance::new(vec![1000.into(), 2000.into(), 3000.into()], users).unwrap();
    let text = inst.to_json().to_string();
    assert!(text.len() >= 1 << 20, "{} bytes", text.len());
    same(&text);
    assert_eq!(Instance::from_json_str(&text).unwrap(), inst);
    // The same document pretty-printed, and with faults at its start, middle and end.
    same(&serde_json::to_string_pretty(&inst.to_json()).unwrap());
    let mid = text.len() / 2;
    let cut = text[..mid].rfind("\"demand\"").unwrap();
    for broken in [
        format!("{} x", text),
        format!("{{\"capacity\": [1], {}", &text[1..]),
        format!("{}\"demand\": [1], {}", &text[..cut], &text[cut..]),
        format!("{}\"colour\": 1, {}", &text[..cut], &text[cut..]),
        text.replacen("\"users\"", "\"us\\u0065rs\"", 1),
        format!(
            "{}, \"about\": {{\"a\": [\"]\"]}}, \"note\": \"}}\"}}",
            &text[..text.len() - 1]
        ),
        text[..text.len() - 1].to_string(),
        text.replacen("[1000", "[-1000", 1),
    ] {
        same(&broken);
    }
}
