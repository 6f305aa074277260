//! A YAML stream loaded with its work bounded: aliases, nesting and size.
//!
//! `yaml_rust2`'s own loader expands an alias by cloning the anchored node, so a few
//! kilobytes of nested aliases (the "billion laughs" shape, CVE-2019-11253 in Kubernetes)
//! expand to gigabytes. This loader builds the same [`Yaml`] values from the same parser's
//! events, but counts every node it creates, an alias counting as the whole node it copies,
//! and stops at the first node past [`MAX_YAML_NODES`]; it also refuses nesting deeper than
//! [`MAX_YAML_DEPTH`]. A small anchor used a few times (a shared label set, say) still works.
//!
//! # Complexity
//! Linear in the text plus the nodes built, both bounded: at most [`MAX_YAML_NODES`] nodes
//! are ever held.

use std::collections::HashMap;

use leontief_solver::SolverError;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlLoader};

/// The most nodes a stream may expand to, aliases counted as the nodes they copy. A
/// cluster's Kueue objects take a few dozen nodes per queue, so this admits tens of
/// thousands of queues while holding at most about a hundred megabytes.
pub const MAX_YAML_NODES: usize = 1_000_000;

/// The deepest nesting of sequences and mappings read. Kueue objects nest about ten deep.
pub const MAX_YAML_DEPTH: usize = 256;

/// Every document of a YAML stream, as `yaml_rust2::YamlLoader::load_from_str` would read
/// it, with the work bounded. `source` names the stream in errors (`kueue file`).
///
/// # Errors
/// Malformed YAML, a duplicate key, an undefined alias, more than [`MAX_YAML_NODES`] nodes
/// once aliases are expanded, or nesting deeper than [`MAX_YAML_DEPTH`]: each an error on
/// `source` with the line and column.
///
/// # Example
/// ```
/// use leontief::import::yaml::load;
/// let docs = load("a: &x [1, 2]\nb: *x\n", "file").unwrap();
/// assert_eq!(docs[0]["b"][1].as_i64(), Some(2));
/// let bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\n".to_string();
/// let mut text = bomb;
/// for i in 0..30 {
///     text += &format!("d{i}: &d{i} [{p}, {p}, {p}, {p}]\n", p = if i == 0 { "*c".into() } else { format!("*d{}", i - 1) });
/// }
/// let err = load(&text, "file").unwrap_err().to_string();
/// assert!(err.starts_with("file: YAML aliases expand past 1000000 nodes"), "{err}");
/// ```
pub fn load(text: &str, source: &str) -> Result<Vec<Yaml>, SolverError> {
    let mut parser = Parser::new_from_str(text);
    let mut loader = Loader::default();
    loop {
        let (event, mark) = parser.next_token().map_err(|e| {
            SolverError::invalid(
                source,
                format!(
                    "malformed YAML at line {}, column {}: {}",
                    e.marker().line(),
                    e.marker().col() + 1,
                    e.info()
                ),
            )
        })?;
        if event == Event::StreamEnd {
            return Ok(loader.docs);
        }
        loader.event(event, mark).map_err(|reason| {
            SolverError::invalid(
                source,
                format!(
                    "{reason} (at line {}, column {})",
                    mark.line(),
                    mark.col() + 1
                ),
            )
        })?;
    }
}

/// A node being built: its value, its anchor id (0 for none) and how many nodes it holds.
struct Open {
    value: Yaml,
    anchor: usize,
    size: usize,
}

#[derive(Default)]
struct Loader {
    docs: Vec<Yaml>,
    stack: Vec<Open>,
    /// Per open mapping, the key read and waiting for its value.
    keys: Vec<Option<Yaml>>,
    /// Anchored nodes and their sizes.
    anchors: HashMap<usize, (Yaml, usize)>,
    /// Nodes built so far in the stream, aliases expanded.
    nodes: usize,
}

impl Loader {
    fn count(&mut self, n: usize) -> Result<(), String> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_YAML_NODES {
            return Err(format!(
                "YAML aliases expand past {MAX_YAML_NODES} nodes, the most a stream may hold; refused"
            ));
        }
        Ok(())
    }

    fn open(&mut self, value: Yaml, anchor: usize) -> Result<(), String> {
        if self.stack.len() >= MAX_YAML_DEPTH {
            return Err(format!(
                "sequences and mappings nest deeper than {MAX_YAML_DEPTH} levels; refused"
            ));
        }
        self.count(1)?;
        self.stack.push(Open {
            value,
            anchor,
            size: 1,
        });
        Ok(())
    }

    fn event(&mut self, event: Event, mark: Marker) -> Result<(), String> {
        match event {
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentStart => {}
            Event::DocumentEnd => match self.stack.pop() {
                None => self.docs.push(Yaml::BadValue),
                Some(open) => self.docs.push(open.value),
            },
            Event::SequenceStart(anchor, _) => self.open(Yaml::Array(Vec::new()), anchor)?,
            Event::MappingStart(anchor, _) => {
                self.open(Yaml::Hash(Hash::new()), anchor)?;
                self.keys.push(None);
            }
            Event::SequenceEnd => {
                let open = self.stack.pop().ok_or("unbalanced sequence end")?;
                self.insert(open)?;
            }
            Event::MappingEnd => {
                self.keys.pop();
                let open = self.stack.pop().ok_or("unbalanced mapping end")?;
                self.insert(open)?;
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.count(1)?;
                let value = scalar(text, style, tag, mark);
                self.insert(Open {
                    value,
                    anchor,
                    size: 1,
                })?;
            }
            Event::Alias(id) => {
                let size = self
                    .anchors
                    .get(&id)
                    .map(|(_, size)| *size)
                    .ok_or("an alias to an undefined anchor")?;
                // Counted before the copy is made: the copy is what a bomb would cost.
                self.count(size)?;
                let value = self.anchors[&id].0.clone();
                self.insert(Open {
                    value,
                    anchor: 0,
                    size,
                })?;
            }
        }
        Ok(())
    }

    /// Places a finished node in its parent (or as the document's root).
    fn insert(&mut self, node: Open) -> Result<(), String> {
        if node.anchor > 0 {
            // The kept copy counts too: nested anchors would otherwise hold a node many times.
            self.count(node.size)?;
            self.anchors
                .insert(node.anchor, (node.value.clone(), node.size));
        }
        let Some(parent) = self.stack.last_mut() else {
            self.stack.push(node);
            return Ok(());
        };
        parent.size = parent.size.saturating_add(node.size);
        match &mut parent.value {
            Yaml::Array(items) => items.push(node.value),
            Yaml::Hash(map) => {
                let key = self.keys.last_mut().ok_or("a mapping without its key")?;
                match key.take() {
                    None => *key = Some(node.value),
                    Some(k) => {
                        if map.contains_key(&k) {
                            return Err(format!("{k:?}: duplicated key in mapping"));
                        }
                        map.insert(k, node.value);
                    }
                }
            }
            _ => return Err("a value inside a scalar".into()),
        }
        Ok(())
    }
}

/// A scalar as `yaml_rust2`'s loader types it (the core schema): its own loader, given the
/// scalar alone as a document.
fn scalar(text: String, style: TScalarStyle, tag: Option<Tag>, mark: Marker) -> Yaml {
    let mut loader = YamlLoader::default();
    loader.on_event(Event::Scalar(text, style, 0, tag), mark);
    loader.on_event(Event::DocumentEnd, mark);
    loader
        .documents()
        .first()
        .cloned()
        .unwrap_or(Yaml::BadValue)
}
