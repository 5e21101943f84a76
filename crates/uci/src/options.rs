//! UCI option declarations and value parsing (typed, range-checked, with clear messages).

/// The type of an option as UCI declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number within `min..=max`.
    Spin {
        /// The value before any `setoption`.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// A boolean (`true` or `false`).
    Check {
        /// The value before any `setoption`.
        default: bool,
    },
    /// A string (UCI `type string`; `<empty>` stands for the empty string).
    Text {
        /// The value before any `setoption`.
        default: String,
    },
    /// An action without a value (e.g. `Clear Hash`).
    Button,
}

/// A parsed `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A `spin` value, already checked against the range.
    Int(i64),
    /// A `check` value.
    Bool(bool),
    /// A `string` value (`<empty>` already turned into the empty string).
    Text(String),
    /// A `button` press.
    Press,
}

/// One option the engine declares: its name and type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// The name as declared and as `setoption name` gives it (e.g. `Hash`).
    pub name: String,
    /// Its type, with default and range.
    pub kind: OptionKind,
}

impl UciOption {
    /// A `spin` option with its default and inclusive range `min..=max`.
    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> UciOption {
        UciOption {
            name: name.to_string(),
            kind: OptionKind::Spin { default, min, max },
        }
    }

    /// A `check` (boolean) option.
    pub fn check(name: &str, default: bool) -> UciOption {
        UciOption {
            name: name.to_string(),
            kind: OptionKind::Check { default },
        }
    }

    /// A `string` option (an empty default is declared as `<empty>`).
    pub fn text(name: &str, default: &str) -> UciOption {
        UciOption {
            name: name.to_string(),
            kind: OptionKind::Text {
                default: default.to_string(),
            },
        }
    }

    /// A `button` option.
    pub fn button(name: &str) -> UciOption {
        UciOption {
            name: name.to_string(),
            kind: OptionKind::Button,
        }
    }

    /// The `option name ... type ...` line sent in answer to `uci`.
    pub fn declaration(&self) -> String {
        let name = &self.name;
        match &self.kind {
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Text { default } => {
                let shown = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {name} type string default {shown}")
            }
            OptionKind::Button => format!("option name {name} type button"),
        }
    }

    /// Checks a raw `value` against the option's type and range.
    pub fn parse_value(&self, raw: Option<&str>) -> Result<OptionValue, String> {
        let name = &self.name;
        let raw = raw.map(str::trim);
        match (&self.kind, raw) {
            (OptionKind::Button, _) => Ok(OptionValue::Press),
            (_, None) => Err(format!(
                "option '{name}' needs a value (setoption name {name} value ...)"
            )),
            (OptionKind::Spin { min, max, .. }, Some(v)) => {
                let n: i64 = v
                    .parse()
                    .map_err(|_| format!("option '{name}': '{v}' is not a whole number"))?;
                if n < *min || n > *max {
                    return Err(format!("option '{name}': {n} is outside {min}..={max}"));
                }
                Ok(OptionValue::Int(n))
            }
            (OptionKind::Check { .. }, Some(v)) => match v.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Bool(true)),
                "false" => Ok(OptionValue::Bool(false)),
                _ => Err(format!("option '{name}': '{v}' is not true or false")),
            },
            (OptionKind::Text { .. }, Some(v)) => {
                let v = if v == "<empty>" { "" } else { v };
                Ok(OptionValue::Text(v.to_string()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spin_values_are_range_checked() {
        let hash = UciOption::spin("Hash", 16, 1, 1024);
        assert_eq!(hash.parse_value(Some(" 64 ")), Ok(OptionValue::Int(64)));
        assert!(
            hash.parse_value(Some("0"))
                .unwrap_err()
                .contains("outside 1..=1024")
        );
        assert!(
            hash.parse_value(Some("lots"))
                .unwrap_err()
                .contains("not a whole number")
        );
        assert!(hash.parse_value(None).is_err());
        assert_eq!(
            hash.declaration(),
            "option name Hash type spin default 16 min 1 max 1024"
        );
    }

    #[test]
    fn check_text_and_button_values() {
        let own = UciOption::check("OwnBook", false);
        assert_eq!(own.parse_value(Some("TRUE")), Ok(OptionValue::Bool(true)));
        assert!(own.parse_value(Some("yes")).is_err());
        let file = UciOption::text("BookFile", "");
        assert_eq!(
            file.parse_value(Some("<empty>")),
            Ok(OptionValue::Text(String::new()))
        );
        assert!(file.declaration().ends_with("default <empty>"));
        assert_eq!(
            UciOption::button("Clear Hash").parse_value(None),
            Ok(OptionValue::Press)
        );
    }
}
