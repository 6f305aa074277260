//! The JSON forms of an instance: the flat form with pools, and the tree form (read by
//! [`crate::hierarchy::read_tree_form`]); every error names the field at fault.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::path_of;
use crate::hierarchy::read_tree_form;
use crate::json::{
    expected, kind, present, quick_number, read_array, read_number, read_numbers, read_object,
    read_optional, read_resources, read_string, reject_unknown, required,
};
use crate::{Guarantee, Instance, Mode, Pool, Rational, Rules, SolverError, User};

// The listings name the fields every document uses; the production fields (guarantee,
// limit, mode, usage) are optional extras, documented with the form.
const POOL_FIELDS: &str = "name, weight, parent";

impl Instance {
    /// Reads the JSON form, flat or tree.
    ///
    /// The flat form is
    /// `{"resources": [..], "capacity": [..], "pools": [{"name", "weight", "parent"}],
    /// "users": [{"name", "demand", "weight", "weights", "tasks", "pool"}]}`
    /// (`resources`, `pools`, `name`, `weight`, `weights`, `tasks`, `pool`, `parent`
    /// optional). A pool's `parent` and a user's `pool` name a pool by its **path** from the
    /// root, its ancestors' names and its own joined by `/` (`"P/Q"`), so that a name need
    /// only be unique among its siblings; pools are listed parents first. Numbers may be JSON
    /// numbers (read exactly from their text) or strings `"7"`, `"2.5"`, `"7/3"`.
    ///
    /// The tree form `{"resources", "capacity", "tree": {"name", "weight", "children" |
    /// "demand", "tasks"}}` ([`crate::hierarchy::read_tree_form`]) gives the same instance:
    /// a pool per inner node below the root, a user per leaf in pre-order.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::Instance;
    /// let inst = Instance::from_json_str(r#"{"capacity": [9, 18],
    ///     "users": [{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": ["3", 0.5e1]}]}"#).unwrap();
    /// assert_eq!(inst.users()[1].demand[1].to_string(), "5");
    /// let flat = Instance::from_json_str(r#"{"capacity": [1, 1], "pools": [{"name": "B"}],
    ///     "users": [{"name": "A", "demand": [1, 0]},
    ///               {"name": "B1", "demand": [1, 0], "pool": "B"}, {"name": "B2", "demand": [0, 1], "pool": "B"}]}"#).unwrap();
    /// let tree = Instance::from_json_str(r#"{"capacity": [1, 1], "tree": {"children": [
    ///     {"name": "A", "demand": [1, 0]},
    ///     {"name": "B", "children": [{"name": "B1", "demand": [1, 0]}, {"name": "B2", "demand": [0, 1]}]}]}}"#).unwrap();
    /// assert_eq!(flat, tree);
    /// ```
    pub fn from_json_str(text: &str) -> Result<Self, SolverError> {
        // The common flat form without the intermediate tree; anything else (and every
        // error) through the strict reader.
        if let Some(inst) = super::flat_fast::read(text) {
            return Ok(inst);
        }
        Self::from_json_str_with(text, Rules::default())
    }

    /// [`Instance::from_json_str`] with guarantees and limits resolved by `rules`.
    pub fn from_json_str_with(text: &str, rules: Rules) -> Result<Self, SolverError> {
        let value = crate::json::parse_strict(text)?;
        Self::from_json_with(&value, rules)
    }

    /// Reads the JSON form, flat or tree, from a parsed value (see
    /// [`Instance::from_json_str`]).
    pub fn from_json(value: &Value) -> Result<Self, SolverError> {
        Self::from_json_with(value, Rules::default())
    }

    /// [`Instance::from_json`] with guarantees and limits resolved by `rules`.
    ///
    /// The production fields (`docs/production.md`), all optional: on pools `guarantee`
    /// (a vector, or a fraction such as `"1/4"` of the parent's guarantee), `limit` (a
    /// vector) and `mode` (`fair` or `fifo`); on users the same `guarantee` and `limit`, and
    /// `usage` (a vector: what the user holds now). They are read only from documents with
    /// `pools` (which may be empty) or the tree form, whose users may also share a name with
    /// a user of another pool and may be idle (all-zero demand).
    pub fn from_json_with(value: &Value, rules: Rules) -> Result<Self, SolverError> {
        let obj = read_object("(top level)", value)?;
        if obj.contains_key("tree") {
            return read_tree_form(value)?.rules(rules).build();
        }
        let has_pools = obj.contains_key("pools");
        reject_unknown(
            obj,
            "",
            &["resources", "capacity", "pools", "users", "about", "note"],
            &format!(
                "resources, capacity, {}users (and the free-text about, note)",
                if has_pools { "pools, " } else { "" }
            ),
        )?;
        let builder = read_resources(obj)?;
        let (pools, by_path) = match obj.get("pools") {
            None => (Vec::new(), HashMap::new()),
            Some(v) => read_pools(v)?,
        };
        let list = read_array("users", required(obj, "users", str::to_owned)?, "a list")?;
        let users = (list.iter().enumerate())
            .map(|(i, u)| read_user(i, u, &by_path, has_pools))
            .collect::<Result<Vec<_>, _>>()?;
        let builder = builder.users(users);
        if has_pools {
            builder.pools(pools).idle_leaves(true).rules(rules).build()
        } else {
            builder.build()
        }
    }

    /// The JSON form (flat, with `pools` when there are any), with every number an exact
    /// string; [`Instance::from_json`] reads it back.
    ///
    /// # Example
    /// ```
    /// use leontief_solver::{Instance, Pool, User};
    /// let inst = Instance::builder(vec![1.into()])
    ///     .pools(vec![Pool::new("P").weight(2), Pool::new("Q").parent(0)])
    ///     .users(vec![User::new("x", [1]).pool(1), User::new("y", [1])])
    ///     .build().unwrap();
    /// let json = inst.to_json();
    /// assert_eq!(json["pools"][1], serde_json::json!({"name": "Q", "parent": "P"}));
    /// assert_eq!(json["users"][0]["pool"], "P/Q");
    /// assert_eq!(Instance::from_json(&json).unwrap(), inst);
    /// ```
    pub fn to_json(&self) -> Value {
        let weight = |w: &Rational| (*w != Rational::ONE).then(|| json!(w));
        let path = |p: usize| json!(self.pool_path(p));
        let users: Vec<Value> = self
            .users
            .iter()
            .chain(&self.idle)
            .map(|u| {
                present(vec![
                    ("name", Some(json!(u.name))),
                    ("demand", Some(json!(u.demand))),
                    ("weight", weight(&u.weight)),
                    ("weights", u.resource_weights.as_ref().map(|w| json!(w))),
                    ("tasks", u.cap.as_ref().map(|t| json!(t))),
                    ("pool", u.pool.map(path)),
                    ("guarantee", u.guarantee.as_ref().map(|g| json!(g))),
                    ("limit", u.limit.as_ref().map(|l| json!(l))),
                    ("usage", u.usage.as_ref().map(|x| json!(x))),
                ])
            })
            .collect();
        let pools: Vec<Value> = self
            .pools
            .iter()
            .map(|p| {
                present(vec![
                    ("name", Some(json!(p.name))),
                    ("weight", weight(&p.weight)),
                    ("parent", p.parent.map(path)),
                    ("guarantee", p.guarantee.as_ref().map(|g| json!(g))),
                    ("limit", p.limit.as_ref().map(|l| json!(l))),
                    ("mode", (p.mode != Mode::Fair).then(|| json!(p.mode.name()))),
                ])
            })
            .collect();
        // Idle users, and a tree without leaves (no users: only a tree can have none), are
        // read only from a document with pools (possibly none).
        let with_pools = !self.pools.is_empty() || !self.idle.is_empty() || self.users.is_empty();
        present(vec![
            ("resources", Some(json!(self.resources))),
            ("capacity", Some(json!(self.capacity))),
            ("pools", with_pools.then(|| json!(pools))),
            ("users", Some(json!(users))),
        ])
    }
}

/// Reads a `guarantee`: a list (absolute amounts) or one number (a fraction of the
/// parent's guarantee).
pub(crate) fn read_guarantee(field: &str, v: &Value) -> Result<Guarantee, SolverError> {
    match v {
        Value::Array(_) => Ok(Guarantee::Vector(read_numbers(field, v)?)),
        Value::Number(_) | Value::String(_) => Ok(Guarantee::Fraction(read_number(field, v)?)),
        other => Err(expected(
            field,
            "a list of amounts or a fraction of the parent's guarantee",
            other,
        )),
    }
}

/// Reads a pool's `mode`: `fair` or `fifo`.
pub(crate) fn read_mode(field: &str, v: &Value) -> Result<Mode, SolverError> {
    match v.as_str().and_then(|s| s.parse().ok()) {
        Some(mode) => Ok(mode),
        None => Err(SolverError::invalid(
            field,
            format!(
                "expected \"fair\" or \"fifo\", found {}",
                match v {
                    Value::String(s) => format!("{s:?}"),
                    other => kind(other).to_string(),
                }
            ),
        )),
    }
}

/// Reads a pool's or a user's `parent`/`pool`: the path of a pool in `by_path`, or `None`.
fn read_pool_path(
    field: &str,
    v: Option<&Value>,
    by_path: &HashMap<String, usize>,
    unknown: &str,
) -> Result<Option<usize>, SolverError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(path)) => Ok(Some(*by_path.get(path).ok_or_else(|| {
            SolverError::invalid(field, format!("unknown pool {path:?}{unknown}"))
        })?)),
        Some(other) => Err(expected(field, "a pool's path", other)),
    }
}

/// Reads `pools` (parents first, parents named by path) and the map from each pool's path
/// to its index.
fn read_pools(v: &Value) -> Result<(Vec<Pool>, HashMap<String, usize>), SolverError> {
    let list = read_array("pools", v, "a list")?;
    let mut pools = Vec::with_capacity(list.len());
    let mut by_path: HashMap<String, usize> = HashMap::new();
    for (k, p) in list.iter().enumerate() {
        let at = |f: &str| format!("pools[{k}].{f}");
        let obj = read_object(&format!("pools[{k}]"), p)?;
        reject_unknown(
            obj,
            &format!("pools[{k}]"),
            &["name", "weight", "parent", "guarantee", "limit", "mode"],
            POOL_FIELDS,
        )?;
        let name = read_string(&at("name"), required(obj, "name", at)?)?;
        let weight = read_optional(obj, "weight", at, read_number)?.unwrap_or(Rational::ONE);
        let parent = read_pool_path(
            &at("parent"),
            obj.get("parent"),
            &by_path,
            " (a parent is listed before its children)",
        )?;
        let path = match parent {
            None => name.clone(),
            Some(q) => format!("{}/{name}", path_of(&pools, q)),
        };
        by_path.entry(path).or_insert(k);
        // The production fields (a pool has no usage: refused above as unknown).
        pools.push(Pool {
            name,
            weight,
            parent,
            guarantee: read_optional(obj, "guarantee", at, read_guarantee)?,
            limit: read_optional(obj, "limit", at, read_numbers)?,
            mode: read_optional(obj, "mode", at, read_mode)?.unwrap_or_default(),
        });
    }
    Ok((pools, by_path))
}

fn read_user(
    i: usize,
    v: &Value,
    pools: &HashMap<String, usize>,
    has_pools: bool,
) -> Result<User, SolverError> {
    let at = |f: &str| format!("users[{i}].{f}");
    let obj = read_object(&format!("users[{i}]"), v)?;
    // The flat form's fields, then the production fields of documents with pools.
    const KNOWN: [&str; 9] = [
        "name",
        "demand",
        "weight",
        "weights",
        "tasks",
        "pool",
        "guarantee",
        "limit",
        "usage",
    ];
    let known = &KNOWN[..if has_pools { 9 } else { 6 }];
    // The path is written only when a field is unknown. The listing names the fields every
    // document uses, and `pool` only to documents that use pools: a flat document's
    // messages stay those of the flat form.
    if obj.keys().any(|k| !known.contains(&k.as_str())) {
        let listing = KNOWN[..5 + usize::from(has_pools)].join(", ");
        reject_unknown(obj, &format!("users[{i}]"), known, &listing)?;
    }
    let name = match obj.get("name") {
        None => format!("u{}", i + 1),
        Some(Value::Number(n)) => n.to_string(),
        Some(v) => read_string(&at("name"), v)?,
    };
    let d = required(obj, "demand", at)?;
    // Well-formed entries need no field path; a wrong one is read again with it.
    let quick = d
        .as_array()
        .and_then(|list| list.iter().map(quick_number).collect());
    let demand = match quick {
        Some(v) => v,
        None => read_numbers(&at("demand"), d)?,
    };
    if obj.contains_key("weight") && obj.contains_key("weights") {
        return Err(SolverError::invalid(
            at("weights"),
            "give either a scalar weight or per-resource weights, not both",
        ));
    }
    let weight = match obj.get("weight") {
        Some(w) => quick_number(w).map_or_else(|| read_number(&at("weight"), w), Ok)?,
        None => Rational::ONE,
    };
    let resource_weights = read_optional(obj, "weights", at, read_numbers)?;
    let cap = match obj.get("tasks") {
        None | Some(Value::Null) => None,
        Some(t) => Some(quick_number(t).map_or_else(|| read_number(&at("tasks"), t), Ok)?),
    };
    let pool = read_pool_path(&at("pool"), obj.get("pool"), pools, "")?;
    // The production fields (a user has no mode: refused above as unknown).
    Ok(User {
        name,
        demand,
        weight,
        resource_weights,
        cap,
        pool,
        guarantee: read_optional(obj, "guarantee", at, read_guarantee)?,
        limit: read_optional(obj, "limit", at, read_numbers)?,
        usage: read_optional(obj, "usage", at, read_numbers)?,
    })
}
