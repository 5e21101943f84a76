//! The options an engine declares after `uci` (`option name NAME type spin default D min A
//! max B`, `check`, `combo`, `string`, `button`), parsed so that a tuner can check what it is
//! asked to tune against what the engine offers.

/// One declared UCI option.
#[derive(Clone, Debug, PartialEq)]
pub struct UciOptionDecl {
    /// The option's name (may contain spaces).
    pub name: String,
    /// Its type, default and range.
    pub kind: UciOptionKind,
}

/// A declared option's type with what the declaration says of its values.
#[derive(Clone, Debug, PartialEq)]
pub enum UciOptionKind {
    /// An integer with its default and range.
    Spin {
        /// The value the engine starts with.
        default: i64,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// A boolean.
    Check {
        /// The value the engine starts with.
        default: bool,
    },
    /// One of a list of strings.
    Combo {
        /// The choice the engine starts with (empty if not declared).
        default: String,
        /// The allowed choices, from the `var` fields in declaration order.
        vars: Vec<String>,
    },
    /// Free text.
    Text {
        /// The text the engine starts with (empty if not declared).
        default: String,
    },
    /// A button (no value).
    Button,
}

impl UciOptionKind {
    /// The type's UCI word (`spin`, `check`, ...).
    pub fn word(&self) -> &'static str {
        match self {
            UciOptionKind::Spin { .. } => "spin",
            UciOptionKind::Check { .. } => "check",
            UciOptionKind::Combo { .. } => "combo",
            UciOptionKind::Text { .. } => "string",
            UciOptionKind::Button => "button",
        }
    }
}

/// Keywords of an option line that end the previous field.
const KEYWORDS: [&str; 6] = ["type", "default", "min", "max", "var", "name"];

/// Parses `option name ... type ...` (the `option` word included); `None` for a line that
/// is not a well-formed declaration (an engine's oddity is not a reason to stop).
pub fn parse_option_line(line: &str) -> Option<UciOptionDecl> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") {
        return None;
    }
    let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
    for w in &words[1..] {
        // The name may hold keyword-like words only before `type`; after it, keywords start
        // fields.
        let in_name = fields.last().is_some_and(|(k, _)| *k == "name")
            && !fields.iter().any(|(k, _)| *k == "type");
        if KEYWORDS.contains(w) && (!in_name || *w == "type") {
            fields.push((w, Vec::new()));
        } else if let Some((_, v)) = fields.last_mut() {
            v.push(w);
        } else {
            return None;
        }
    }
    let get = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.join(" "))
    };
    let name = get("name").filter(|n| !n.is_empty())?;
    let int = |key: &str| get(key).and_then(|v| v.parse::<i64>().ok());
    let kind = match get("type")?.as_str() {
        "spin" => UciOptionKind::Spin {
            default: int("default")?,
            min: int("min")?,
            max: int("max")?,
        },
        "check" => UciOptionKind::Check {
            default: get("default")? == "true",
        },
        "combo" => UciOptionKind::Combo {
            default: get("default").unwrap_or_default(),
            vars: fields
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, v)| v.join(" "))
                .collect(),
        },
        "string" => UciOptionKind::Text {
            default: get("default").unwrap_or_default(),
        },
        "button" => UciOptionKind::Button,
        _ => return None,
    };
    Some(UciOptionDecl { name, kind })
}

/// The declaration named `name` (UCI option names compare without case).
pub fn find_option<'a>(decls: &'a [UciOptionDecl], name: &str) -> Option<&'a UciOptionDecl> {
    decls.iter().find(|d| d.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_parse() {
        let d = parse_option_line(
            "option name Toga Lazy Eval Margin type spin default 200 min 0 max 900",
        )
        .unwrap();
        assert_eq!(d.name, "Toga Lazy Eval Margin");
        assert_eq!(
            d.kind,
            UciOptionKind::Spin {
                default: 200,
                min: 0,
                max: 900
            }
        );
        let d = parse_option_line("option name Ponder type check default false").unwrap();
        assert_eq!(d.kind, UciOptionKind::Check { default: false });
        let d = parse_option_line(
            "option name NullMove Pruning type combo default Always var Always var Fail High var Never",
        )
        .unwrap();
        match d.kind {
            UciOptionKind::Combo { default, vars } => {
                assert_eq!(default, "Always");
                assert_eq!(vars, ["Always", "Fail High", "Never"]);
            }
            other => panic!("{other:?}"),
        }
        let d = parse_option_line("option name Clear Hash type button").unwrap();
        assert_eq!(d.kind, UciOptionKind::Button);
        let d = parse_option_line("option name BookFile type string default <empty>").unwrap();
        assert_eq!(d.kind.word(), "string");
        // A name holding a keyword-like word before `type`.
        let d = parse_option_line("option name Max Depth type spin default 5 min 1 max 9").unwrap();
        assert_eq!(d.name, "Max Depth");
        assert!(parse_option_line("option name X type spin default a min 0 max 1").is_none());
        assert!(parse_option_line("option type spin").is_none());
        assert!(parse_option_line("id name X").is_none());
    }
}
