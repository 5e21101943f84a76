//! UCI options (`option name NAME type spin default D min A max B`, `check`, `combo`,
//! `string`, `button`): one model for both sides of the protocol. Kestrel's engine declares its
//! options with it and checks `setoption` values against them; the tuners and the match runner
//! parse another engine's declarations with it, to check what they are asked to tune against
//! what the engine offers.

/// One declared UCI option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOptionDecl {
    /// The option's name (may contain spaces).
    pub name: String,
    /// Its type, default and range.
    pub kind: UciOptionKind,
}

/// A declared option's type with what the declaration says of its values.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Free text (UCI `type string`; `<empty>` stands for the empty string).
    Text {
        /// The text the engine starts with (empty if not declared or `<empty>`).
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

/// A parsed `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A `spin` value, already checked against the range.
    Int(i64),
    /// A `check` value.
    Bool(bool),
    /// A `string` value (`<empty>` already turned into the empty string), or a `combo` choice
    /// as declared.
    Text(String),
    /// A `button` press.
    Press,
}

impl UciOptionDecl {
    /// A `spin` option with its default and inclusive range `min..=max`.
    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> UciOptionDecl {
        UciOptionDecl::new(name, UciOptionKind::Spin { default, min, max })
    }

    /// A `check` (boolean) option.
    pub fn check(name: &str, default: bool) -> UciOptionDecl {
        UciOptionDecl::new(name, UciOptionKind::Check { default })
    }

    /// A `string` option (an empty default is declared as `<empty>`).
    pub fn text(name: &str, default: &str) -> UciOptionDecl {
        let default = default.to_string();
        UciOptionDecl::new(name, UciOptionKind::Text { default })
    }

    /// A `button` option.
    pub fn button(name: &str) -> UciOptionDecl {
        UciOptionDecl::new(name, UciOptionKind::Button)
    }

    fn new(name: &str, kind: UciOptionKind) -> UciOptionDecl {
        UciOptionDecl {
            name: name.to_string(),
            kind,
        }
    }

    /// The `option name ... type ...` line an engine sends in answer to `uci`
    /// ([`parse_option_line`] reads it back).
    pub fn declaration(&self) -> String {
        let name = &self.name;
        match &self.kind {
            UciOptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            UciOptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            UciOptionKind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            UciOptionKind::Text { default } => {
                let shown = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {name} type string default {shown}")
            }
            UciOptionKind::Button => format!("option name {name} type button"),
        }
    }

    /// Checks a raw `setoption` value against the option's type and range; the error names
    /// the option and says what is wrong.
    pub fn parse_value(&self, raw: Option<&str>) -> Result<OptionValue, String> {
        let name = &self.name;
        let raw = raw.map(str::trim);
        match (&self.kind, raw) {
            (UciOptionKind::Button, _) => Ok(OptionValue::Press),
            (_, None) => Err(format!(
                "option '{name}' needs a value (setoption name {name} value ...)"
            )),
            (UciOptionKind::Spin { min, max, .. }, Some(v)) => {
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("option '{name}': '{v}' is not a whole number"))?;
                if n < *min || n > *max {
                    return Err(format!("option '{name}': {n} is outside {min}..={max}"));
                }
                Ok(OptionValue::Int(n))
            }
            (UciOptionKind::Check { .. }, Some(v)) => match v.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                _ => Err(format!("option '{name}': '{v}' is not true or false")),
            },
            (UciOptionKind::Combo { vars, .. }, Some(v)) => vars
                .iter()
                .find(|var| var.eq_ignore_ascii_case(v))
                .map(|var| OptionValue::Text(var.clone()))
                .ok_or_else(|| format!("option '{name}': '{v}' is not one of {}", vars.join(", "))),
            (UciOptionKind::Text { .. }, Some(v)) => {
                let v = if v == "<empty>" { "" } else { v };
                Ok(OptionValue::Text(v.to_string()))
            }
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
            default: get("default")
                .filter(|d| d != "<empty>")
                .unwrap_or_default(),
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

    #[test]
    fn declarations_read_back_as_written() {
        let decls = [
            UciOptionDecl::spin("Hash", 16, 1, 1024),
            UciOptionDecl::check("OwnBook", false),
            UciOptionDecl::text("BookFile", ""),
            UciOptionDecl::text("Book File", "books/main.bin"),
            UciOptionDecl::button("Clear Hash"),
            UciOptionDecl::new(
                "Style",
                UciOptionKind::Combo {
                    default: "Solid".to_string(),
                    vars: vec!["Solid".to_string(), "Very Risky".to_string()],
                },
            ),
        ];
        for d in decls {
            assert_eq!(parse_option_line(&d.declaration()), Some(d.clone()));
        }
    }

    #[test]
    fn spin_values_are_range_checked() {
        let hash = UciOptionDecl::spin("Hash", 16, 1, 1024);
        assert_eq!(hash.parse_value(Some(" 64 ")), Ok(OptionValue::Int(64)));
        let err = hash.parse_value(Some("0")).unwrap_err();
        assert!(err.contains("outside 1..=1024"), "{err}");
        let err = hash.parse_value(Some("lots")).unwrap_err();
        assert!(err.contains("not a whole number"), "{err}");
        assert!(hash.parse_value(None).is_err());
        assert_eq!(
            hash.declaration(),
            "option name Hash type spin default 16 min 1 max 1024"
        );
    }

    #[test]
    fn check_text_combo_and_button_values() {
        let own = UciOptionDecl::check("OwnBook", false);
        assert_eq!(own.parse_value(Some("TRUE")), Ok(OptionValue::Bool(true)));
        assert!(own.parse_value(Some("yes")).is_err());
        let file = UciOptionDecl::text("BookFile", "");
        assert_eq!(
            file.parse_value(Some("<empty>")),
            Ok(OptionValue::Text(String::new()))
        );
        assert!(file.declaration().ends_with("default <empty>"));
        let style = parse_option_line("option name Style type combo default A var A var B c")
            .expect("a combo declaration");
        assert_eq!(
            style.parse_value(Some("b C")),
            Ok(OptionValue::Text("B c".to_string()))
        );
        let err = style.parse_value(Some("D")).unwrap_err();
        assert!(err.contains("not one of A, B c"), "{err}");
        assert_eq!(
            UciOptionDecl::button("Clear Hash").parse_value(None),
            Ok(OptionValue::Press)
        );
    }
}
