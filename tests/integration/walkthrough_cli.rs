//! The walk-through for scheduler engineers (docs/walkthrough.md), run exactly as written: the
//! commands between `<!-- walkthrough -->` and `<!-- /walkthrough -->` (a `> FILE` redirection
//! writes standard output to a scratch file that the later commands read). Then every
//! `console` example of the README and docs/, run and compared with the output it shows.

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;

/// The walk-through's commands, as docs/walkthrough.md writes them.
fn commands() -> Vec<String> {
    let readme = std::fs::read_to_string("docs/walkthrough.md").expect("docs/walkthrough.md");
    let start = readme
        .find("<!-- walkthrough -->")
        .expect("walk-through start");
    let end = readme
        .find("<!-- /walkthrough -->")
        .expect("walk-through end");
    readme[start..end]
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("leontief "))
        .map(str::to_string)
        .collect()
}

/// Runs every command in order; returns each one's standard output, keyed by its subcommand.
fn run_all() -> HashMap<String, String> {
    let mut files: HashMap<String, PathBuf> = HashMap::new();
    let mut outputs = HashMap::new();
    for line in commands() {
        let (cmd, redirect) = match line.split_once(" > ") {
            Some((c, f)) => (c.to_string(), Some(f.trim().to_string())),
            None => (line.clone(), None),
        };
        let args: Vec<String> = cmd
            .split_whitespace()
            .skip(1)
            .map(|a| match files.get(a) {
                Some(p) => p.to_string_lossy().into_owned(),
                None => a.to_string(),
            })
            .collect();
        let out = common::run_with(&args, None);
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        if let Some(name) = redirect {
            let path = common::scratch_path("walkthrough", &name);
            std::fs::write(&path, &stdout).unwrap();
            files.insert(name, path);
        }
        outputs.insert(args[0].clone(), stdout);
    }
    outputs
}

/// The policies `command --policy` accepts but `all`, in the flag's order (from its error).
fn policies(command: &str) -> Vec<String> {
    let mut names = common::listed_names(
        &[command, "--policy", "fair", "-"],
        "error: --policy: unknown policy \"fair\" (expected ",
        ')',
    );
    assert_eq!(names.pop().as_deref(), Some("all"));
    names
}

/// A row of a table whose first column is `node` (by the whole first cell).
fn row<'a>(table: &'a str, node: &str) -> Vec<&'a str> {
    table
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cells| cells.first() == Some(&node))
        .unwrap_or_else(|| panic!("no row {node} in\n{table}"))
}

/// The facts the walk-through states, derived by hand:
/// - import: YARN's weights 8 (parentA) and 1 (parentB, default) give guaranteed shares 4/5,
///   1/10, 1/10; childB1 is one of parentB's two queues: 1/20.
/// - simulate: childB2 holds two tasks of 4096 MB for 1000 > the horizon 100, so parentB's
///   dominant share is at least 8192/32768 = 1/4 throughout; parentA's weighted share is at
///   most (20/20)/8 = 1/8 < 1/4, so naive HDRF gives every free vcore to parentA and childB1
///   never runs: time-average 0, at least one task (1/20 = its guarantee) below for all of
///   [0, 100): STARVED (tolerance 10). Min-satisfaction HDRF serves childB1 (its satisfaction
///   0 is the smallest whenever it is not running), so it is not starved there.
/// - order: parentA's weighted share (18/20)/8 = 9/80 < parentB's 1/4: childA1 is offered
///   first, then childB1; childB2 holds its two tasks (its cap) and is not offered.
#[test]
fn readme_walkthrough_runs_and_says_what_the_readme_says() {
    assert_eq!(commands().len(), 4, "{:?}", commands());
    let out = run_all();
    // Static: every policy gives childB1 a positive share (its fill starts with every
    // leaf growing from zero).
    let tree = &out["hdrf"];
    let b1 = tree
        .lines()
        .find(|l| l.contains(" childB1 "))
        .unwrap_or_else(|| panic!("no childB1 in\n{tree}"))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(b1.contains("childB1 1/20"), "{b1}");
    let static_cells: Vec<&str> = b1.split("1/20 ").nth(1).unwrap().split(' ').collect();
    // "share (satisfaction)" for every policy of `hdrf` but `all`.
    let static_policies = policies("hdrf");
    for share in static_cells.iter().step_by(2) {
        assert!(*share != "0", "{b1}");
    }
    assert_eq!(static_cells.len(), 2 * static_policies.len(), "{b1}");

    let sim = &out["simulate"];
    let header = row(sim, "node");
    assert_eq!(header[..2], ["node", "g"]);
    assert_eq!(header[2..], policies("simulate")[..]);
    // "avg / longest [STARVED]" per policy, in the header's order: splitting at " / ", the
    // piece after policy k's avg starts with its longest time below its guarantee.
    let line = row(sim, "root/parentB/childB1").join(" ");
    let cells: Vec<&str> = line.split(" / ").collect();
    let longest = |policy: &str| {
        let k = header[2..]
            .iter()
            .position(|h| *h == policy)
            .expect("a column");
        cells[k + 1]
    };
    assert!(cells[0].starts_with("root/parentB/childB1 1/20 "), "{line}");
    let naive = header[2..]
        .iter()
        .position(|h| *h == "naive")
        .expect("naive");
    assert!(
        cells[naive].ends_with(" 0") && longest("naive").starts_with("100 STARVED"),
        "naive: {line}"
    );
    assert!(
        longest("min-satisfaction").starts_with("0 "),
        "min-satisfaction: {line}"
    );
    assert!(longest("hdrf").starts_with("100 STARVED"), "hdrf: {line}");

    let order = &out["order"];
    assert!(
        order.contains("offer order: root/parentA/childA1, root/parentB/childB1"),
        "{order}"
    );
    assert_eq!(row(order, "parentA")[4], "9/80"); // the weighted share
    assert_eq!(row(order, "parentB")[4], "1/4");
}

/// One `$ leontief ...` line of a ```console block and the output shown under it.
struct ConsoleExample {
    page: String,
    command: String,
    shown: Vec<String>,
}

/// Every `console` example of the README and of `docs/*.md`, in page order. In a block, a
/// `$ ` line is a command (a trailing `\` continues it), a `# ` line a comment, and any other
/// line the command's standard output as the page shows it.
fn console_examples() -> Vec<ConsoleExample> {
    let mut pages = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir("docs")
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut examples: Vec<ConsoleExample> = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let mut in_block = false;
        let mut continued = false;
        for line in text.lines() {
            if !in_block {
                in_block = line.trim_end() == "```console";
                continue;
            }
            if line.starts_with("```") {
                in_block = false;
            } else if continued {
                let last = examples.last_mut().unwrap();
                last.command.push(' ');
                last.command
                    .push_str(line.trim().trim_end_matches('\\').trim_end());
                continued = line.trim_end().ends_with('\\');
            } else if let Some(command) = line.strip_prefix("$ ") {
                continued = command.trim_end().ends_with('\\');
                examples.push(ConsoleExample {
                    page: page.display().to_string(),
                    command: command.trim_end_matches('\\').trim_end().to_string(),
                    shown: Vec::new(),
                });
            } else if !line.starts_with("# ") {
                let last = examples
                    .last_mut()
                    .unwrap_or_else(|| panic!("{}: output before any command", page.display()));
                last.shown.push(line.trim_end().to_string());
            }
        }
    }
    examples
}

/// Whether `printed` is `shown`, where a `...` line of `shown` stands for any number of lines.
fn shows(shown: &[String], printed: &[&str]) -> bool {
    match shown.split_first() {
        None => printed.is_empty(),
        Some((dots, rest)) if dots == "..." => {
            (0..=printed.len()).any(|k| shows(rest, &printed[k..]))
        }
        Some((line, rest)) => {
            printed.first().is_some_and(|p| p.trim_end() == line) && shows(rest, &printed[1..])
        }
    }
}

/// Whether an SMT solver for `leontief prove` is at hand (z3 on PATH or `LEONTIEF_Z3`); under
/// CI=true it must be.
fn have_smt_solver() -> bool {
    let z3 = std::env::var("LEONTIEF_Z3").unwrap_or_else(|_| "z3".to_string());
    let found = std::process::Command::new(z3)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found || std::env::var("CI").as_deref() != Ok("true"),
        "z3 is required under CI=true"
    );
    found
}

/// Every `console` example of the README and the docs runs as written, from a scratch
/// directory (so that `--out` and `> FILE` write there; the repository's paths, such as
/// `examples/x.json`, are made absolute), exits 0, and prints what its page shows. A page's
/// output is what it tells its reader; the figures it rests on come from the sources (the DRF
/// paper's example, `reference/flat.json`: A 3 tasks and B 2 under DRF, 63/25 and 54/25 under
/// asset fairness, 45/11 and 18/11 under CEEI) or are derived by hand in the tests of each
/// command (the walk-through above, `tests/*_cli.rs`); this test keeps the pages true to the
/// program.
#[test]
fn every_console_example_runs_and_prints_what_its_page_shows() {
    let mut examples = console_examples();
    // Blank lines that only separate one command from the next are not output.
    for e in &mut examples {
        while e.shown.last().is_some_and(String::is_empty) {
            e.shown.pop();
        }
    }
    let on = |page: &str| examples.iter().filter(|e| e.page == page).count();
    // The README shows its two commands and three examples (the last in two commands); the
    // guide has an example for every command.
    assert_eq!(on("README.md"), 6);
    assert!(on("docs/guide.md") >= 30, "{}", on("docs/guide.md"));
    let root = std::env::current_dir().unwrap();
    let smt = have_smt_solver();
    let mut scratch: HashMap<String, PathBuf> = HashMap::new();
    for example in &examples {
        let dir = scratch
            .entry(example.page.clone())
            .or_insert_with(|| {
                let dir = common::scratch_path("docs", &example.page.replace('/', "-"));
                std::fs::create_dir_all(&dir).unwrap();
                dir
            })
            .clone();
        let (command, redirect) = match example.command.split_once(" > ") {
            Some((c, f)) => (c, Some(f.trim())),
            None => (example.command.as_str(), None),
        };
        let mut words = command.split_whitespace();
        assert_eq!(
            words.next(),
            Some("leontief"),
            "{}: {command}",
            example.page
        );
        let args: Vec<String> = words
            .map(|w| {
                assert!(!w.contains(['|', '\'', '"']), "{}: {command}", example.page);
                let path = root.join(w);
                if w.contains('/') && path.exists() {
                    path.to_string_lossy().into_owned()
                } else {
                    w.to_string()
                }
            })
            .collect();
        if args[0] == "prove" && !smt {
            eprintln!("skipped without z3: {command}");
            continue;
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_leontief"))
            .args(&args)
            .current_dir(&dir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {command}: {}",
            example.page,
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        if let Some(file) = redirect {
            std::fs::write(dir.join(file), &stdout).unwrap();
        }
        let printed: Vec<&str> = stdout.lines().collect();
        assert!(
            example.shown.is_empty() || shows(&example.shown, &printed),
            "{}: {command}\nthe page shows:\n{}\nprinted:\n{stdout}",
            example.page,
            example.shown.join("\n")
        );
    }
}

/// A heading's anchor as GitHub makes it: lower case, spaces to hyphens, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A page's lines outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// Every relative link of the README, CONTRIBUTING.md and docs/ names a file of the
/// repository, and a heading of that page when it names one (`formats.md#trees`).
#[test]
fn every_relative_link_of_the_docs_resolves() {
    let mut pages = vec![PathBuf::from("README.md"), PathBuf::from("CONTRIBUTING.md")];
    for e in std::fs::read_dir("docs").unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "md") {
            pages.push(path);
        }
    }
    let mut links = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for line in prose(&text) {
            for (_, rest) in line.match_indices("](").map(|(i, _)| line.split_at(i + 2)) {
                let target = &rest[..rest.find(')').unwrap_or(rest.len())];
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                links += 1;
                let (file, heading) = target.split_once('#').unwrap_or((target, ""));
                let file = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                assert!(file.exists(), "{}: {target}: no such file", page.display());
                if !heading.is_empty() {
                    let anchors: Vec<String> = prose(&std::fs::read_to_string(&file).unwrap())
                        .iter()
                        .filter_map(|l| l.strip_prefix('#'))
                        .map(|h| anchor(h.trim_start_matches('#')))
                        .collect();
                    assert!(
                        anchors.iter().any(|a| a == heading),
                        "{}: {target}: no such heading",
                        page.display()
                    );
                }
            }
        }
    }
    // The README's map alone links the eleven documents.
    assert!(links > 40, "{links} links");
}
