//! A validator for the subset of JSON Schema (draft 2020-12) that `docs/check-report.schema.json`
//! uses: `type` (one or a list), `required`, `properties`, `additionalProperties: false`, `items`,
//! `enum`, `const`, `minimum`, and `$ref` to `#/$defs/…`; `$schema`, `$id`, `$defs`, `title` and
//! `description` are annotations. Any other keyword is refused when the schema is loaded, so that
//! the schema can never say more than this checks (a full validator was 39 crates to build).

use serde_json::{Map, Value};

/// The keywords checked here, and those that only annotate.
const CHECKED: [&str; 9] =
    ["type", "required", "properties", "additionalProperties", "items", "enum", "const", "minimum", "$ref"];
const ANNOTATIONS: [&str; 5] = ["$schema", "$id", "$defs", "title", "description"];

/// A schema, checked to use only the subset above.
pub struct Schema {
    root: Value,
}

impl Schema {
    /// The schema `root`, or what in it this validator does not know.
    pub fn new(root: Value) -> Result<Schema, String> {
        known_keywords(&root, "#")?;
        Ok(Schema { root })
    }

    /// Every way `instance` breaks the schema, each with where (a JSON pointer); none when valid.
    pub fn errors(&self, instance: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(&self.root, instance, "", &mut errors);
        errors
    }

    /// Whether `instance` is valid.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.errors(instance).is_empty()
    }

    fn check(&self, schema: &Value, instance: &Value, at: &str, errors: &mut Vec<String>) {
        let Some(schema) = schema.as_object() else { return };
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            match self.resolve(reference) {
                Some(target) => self.check(target, instance, at, errors),
                None => errors.push(format!("{at}: unresolved $ref {reference}")),
            }
        }
        if let Some(types) = schema.get("type") {
            let allowed: Vec<&str> = match types {
                Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
                other => other.as_str().into_iter().collect(),
            };
            if !allowed.iter().any(|t| has_type(instance, t)) {
                errors.push(format!("{at}: {instance} is not of type {allowed:?}"));
            }
        }
        if let Some(options) = schema.get("enum").and_then(Value::as_array) {
            if !options.contains(instance) {
                errors.push(format!("{at}: {instance} is not one of {options:?}"));
            }
        }
        if let Some(constant) = schema.get("const") {
            if constant != instance {
                errors.push(format!("{at}: {instance} is not {constant}"));
            }
        }
        if let (Some(minimum), Some(n)) = (schema.get("minimum").and_then(Value::as_f64), instance.as_f64()) {
            if n < minimum {
                errors.push(format!("{at}: {n} is less than {minimum}"));
            }
        }
        if let Some(object) = instance.as_object() {
            self.check_object(schema, object, at, errors);
        }
        if let (Some(items), Some(array)) = (schema.get("items"), instance.as_array()) {
            for (i, item) in array.iter().enumerate() {
                self.check(items, item, &format!("{at}/{i}"), errors);
            }
        }
    }

    fn check_object(
        &self,
        schema: &Map<String, Value>,
        object: &Map<String, Value>,
        at: &str,
        errors: &mut Vec<String>,
    ) {
        for name in schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            if !object.contains_key(name) {
                errors.push(format!("{at}: {name} is required"));
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (name, value) in object {
            match properties.and_then(|p| p.get(name)) {
                Some(property) => self.check(property, value, &format!("{at}/{name}"), errors),
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(format!("{at}: {name} is not allowed"))
                }
                None => {}
            }
        }
    }

    /// The schema a local reference (`#/$defs/name`, any JSON pointer) points at.
    fn resolve(&self, reference: &str) -> Option<&Value> {
        self.root.pointer(reference.strip_prefix('#')?)
    }
}

/// Whether `value` is of the JSON Schema type `name` (an integer is a number with no fraction).
fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|n| n.fract() == 0.0),
        _ => false,
    }
}

/// Refuses a keyword outside the subset anywhere in the schema, and `additionalProperties` other
/// than `false`.
fn known_keywords(schema: &Value, at: &str) -> Result<(), String> {
    let Some(object) = schema.as_object() else { return Err(format!("{at}: a schema must be an object")) };
    for (keyword, value) in object {
        let here = format!("{at}/{keyword}");
        match keyword.as_str() {
            "properties" | "$defs" => {
                for (name, sub) in value.as_object().ok_or(format!("{here}: not an object"))? {
                    known_keywords(sub, &format!("{here}/{name}"))?;
                }
            }
            "items" => known_keywords(value, &here)?,
            "additionalProperties" if value != &Value::Bool(false) => {
                return Err(format!("{here}: only `false` is checked here"))
            }
            k if CHECKED.contains(&k) || ANNOTATIONS.contains(&k) => {}
            other => return Err(format!("{at}: the keyword {other} is not checked by tests/it/common/schema.rs")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Schema {
        Schema::new(json!({
            "type": "object",
            "required": ["n", "kind"],
            "additionalProperties": false,
            "properties": {
                "n": { "type": "integer", "minimum": 1 },
                "kind": { "$ref": "#/$defs/kind" },
                "v": { "const": 1 },
                "list": { "type": "array", "items": { "type": ["number", "string"] } }
            },
            "$defs": { "kind": { "enum": ["a", "b"] } }
        }))
        .expect("the subset")
    }

    #[test]
    fn a_valid_document_passes() {
        assert_eq!(
            schema().errors(&json!({ "n": 2, "kind": "a", "v": 1, "list": [1.5, "inf"] })),
            Vec::<String>::new()
        );
    }

    #[test]
    fn every_keyword_refuses_what_breaks_it() {
        let schema = schema();
        for bad in [
            json!([]),                                      // type
            json!({ "kind": "a" }),                         // required
            json!({ "n": 2, "kind": "a", "other": 0 }),     // additionalProperties
            json!({ "n": 1.5, "kind": "a" }),               // type integer
            json!({ "n": 0, "kind": "a" }),                 // minimum
            json!({ "n": 2, "kind": "c" }),                 // enum through $ref
            json!({ "n": 2, "kind": "a", "v": 2 }),         // const
            json!({ "n": 2, "kind": "a", "list": [true] }), // items, a list of types
        ] {
            assert!(!schema.is_valid(&bad), "{bad} passed");
        }
    }

    #[test]
    fn a_keyword_outside_the_subset_is_refused() {
        assert!(Schema::new(json!({ "type": "string", "pattern": "^a" })).is_err());
        assert!(Schema::new(json!({ "properties": { "a": { "oneOf": [] } } })).is_err());
        assert!(Schema::new(json!({ "additionalProperties": { "type": "string" } })).is_err());
    }
}
