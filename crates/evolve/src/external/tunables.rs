//! The tunables of an external engine: its UCI options as SPSA parameters, from an OpenBench
//! input (`NAME, int|float, value, min, max, c_end, r_end`) or from the engine's own `uci`
//! option list, checked against what the engine declares before any game is played.

use crate::spsa::SpsaParam;
use kestrel_params::DEFAULT_R_END;
use kestrel_tools::uci_options::{UciOptionDecl, UciOptionKind, find_option};

/// Options that set up the engine rather than its play; never tuned from the option list.
const INFRASTRUCTURE: [&str; 23] = [
    "Ponder",
    "OwnBook",
    "Use Search Log",
    "Hash",
    "Threads",
    "Number of Threads",
    "MultiPV",
    "Move Overhead",
    "NodesTime",
    "BookSeed",
    "Search Time",
    "Search Depth",
    "Bitbases Cache Size",
    "Randomness",
    "Minimum Split Depth",
    "Maximum Number of Threads per Split Point",
    "Skill Level",
    "Slow Mover",
    "Minimum Thinking Time",
    "SyzygyProbeDepth",
    "SyzygyProbeLimit",
    "Contempt",
    "Clear Hash",
];

/// The default end perturbation of a value read from the option list: a twentieth of its
/// range (Kestrel's own declared default), at least 0.5.
pub fn default_c_end(min: f64, max: f64) -> f64 {
    ((max - min) / 20.0).max(0.5)
}

/// Whether `name` is an engine set-up option (hash, threads, ...), not a tunable.
pub fn is_infrastructure(name: &str) -> bool {
    name.starts_with("UCI_") || INFRASTRUCTURE.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// Every `spin` the engine declares (set-up options and `skip` left out) as SPSA parameters at
/// its default, over its whole range, `c_end` a twentieth of the range and `r_end` 0.002; with
/// `select`, exactly the named options (each must be a spin).
pub fn from_option_list(
    decls: &[UciOptionDecl],
    select: Option<&[String]>,
    skip: &[String],
) -> Result<Vec<SpsaParam>, String> {
    let spin = |d: &UciOptionDecl| match d.kind {
        UciOptionKind::Spin { default, min, max } if min < max => Some(SpsaParam {
            name: d.name.clone(),
            start: default as f64,
            min: min as f64,
            max: max as f64,
            c_end: default_c_end(min as f64, max as f64),
            r_end: DEFAULT_R_END,
            float: false,
        }),
        _ => None,
    };
    let params: Vec<SpsaParam> = match select {
        None => decls
            .iter()
            .filter(|d| !is_infrastructure(&d.name))
            .filter(|d| !skip.iter().any(|s| s.eq_ignore_ascii_case(&d.name)))
            .filter_map(spin)
            .collect(),
        Some(names) => names
            .iter()
            .map(|n| {
                let d = find_option(decls, n)
                    .ok_or_else(|| format!("the engine has no option '{n}'"))?;
                spin(d).ok_or_else(|| {
                    format!(
                        "option '{}' is a {}, not a numeric (spin) option SPSA can tune",
                        d.name,
                        d.kind.word()
                    )
                })
            })
            .collect::<Result<_, String>>()?,
    };
    if params.is_empty() {
        return Err("the engine declares no spin option to tune".into());
    }
    Ok(params)
}

/// The engine's `check` options (set-up ones and `skip` left out) as 0/1 values at their
/// defaults, for the GA (SPSA tunes numbers only); with `select`, those of the named options
/// that are checks.
pub fn check_options(
    decls: &[UciOptionDecl],
    select: Option<&[String]>,
    skip: &[String],
) -> Vec<SpsaParam> {
    decls
        .iter()
        .filter(|d| match select {
            Some(names) => names.iter().any(|n| n.eq_ignore_ascii_case(&d.name)),
            None => {
                !is_infrastructure(&d.name) && !skip.iter().any(|s| s.eq_ignore_ascii_case(&d.name))
            }
        })
        .filter_map(|d| match d.kind {
            UciOptionKind::Check { default } => Some(SpsaParam {
                name: d.name.clone(),
                start: f64::from(u8::from(default)),
                min: 0.0,
                max: 1.0,
                c_end: 0.5,
                r_end: DEFAULT_R_END,
                float: false,
            }),
            _ => None,
        })
        .collect()
}

/// Parses an OpenBench SPSA input (`#` comments, blank lines skipped); `origin` names the
/// file in messages. The values are checked by [`check_against`] once the engine is known.
pub fn parse_openbench(text: &str, origin: &str) -> Result<Vec<SpsaParam>, String> {
    let mut params: Vec<SpsaParam> = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let p = parse_line(line).map_err(|e| format!("{origin} line {}: {e}", no + 1))?;
        if params.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
            return Err(format!(
                "{origin} line {}: {} is named twice",
                no + 1,
                p.name
            ));
        }
        params.push(p);
    }
    if params.is_empty() {
        return Err(format!("{origin}: no parameter line"));
    }
    Ok(params)
}

/// One `NAME, int|float, value, min, max, c_end, r_end` line.
fn parse_line(line: &str) -> Result<SpsaParam, String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [name, kind, value, min, max, c_end, r_end] = fields[..] else {
        return Err(format!(
            "expected NAME, int|float, value, min, max, c_end, r_end; got '{line}'"
        ));
    };
    let float = match kind.to_ascii_lowercase().as_str() {
        "int" => false,
        "float" => true,
        other => return Err(format!("{name}: type '{other}' is neither int nor float")),
    };
    let number = |what: &str, s: &str| {
        let v = s
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{name}: {what} '{s}' is not a number"))?;
        if !float && what != "c_end" && what != "r_end" && v.fract() != 0.0 {
            return Err(format!("{name}: {what} '{s}' is not an integer (type int)"));
        }
        Ok(v)
    };
    let p = SpsaParam {
        name: name.to_string(),
        start: number("value", value)?,
        min: number("min", min)?,
        max: number("max", max)?,
        c_end: number("c_end", c_end)?,
        r_end: number("r_end", r_end)?,
        float,
    };
    if name.is_empty() {
        return Err("a line without a name".into());
    }
    p.validate()?;
    Ok(p)
}

/// Checks every parameter against the engine's declarations and gives it the engine's
/// spelling of the name: an int must be a spin whose range holds the parameter's, a float a
/// `string` option (engines declare real-valued options as text); anything else is refused.
pub fn check_against(params: &mut [SpsaParam], decls: &[UciOptionDecl]) -> Result<(), String> {
    for p in params {
        let d = find_option(decls, &p.name)
            .ok_or_else(|| format!("{}: the engine has no such option", p.name))?;
        match (&d.kind, p.float) {
            (UciOptionKind::Spin { min, max, .. }, false) => {
                if p.min < *min as f64 || p.max > *max as f64 {
                    return Err(format!(
                        "{}: range [{}, {}] goes beyond the engine's [{min}, {max}]",
                        p.name, p.min, p.max
                    ));
                }
            }
            (UciOptionKind::Spin { .. }, true) => {
                return Err(format!(
                    "{}: a float, but the engine's option is a spin (integers only)",
                    p.name
                ));
            }
            (UciOptionKind::Text { .. }, true) => {}
            (kind, _) => {
                return Err(format!(
                    "{}: the engine's option is a {}, not a number SPSA can tune",
                    p.name,
                    kind.word()
                ));
            }
        }
        p.name = d.name.clone();
    }
    Ok(())
}

/// A value as `setoption` sends it: an integer as an integer (the points are integral
/// already, rounded as OpenBench rounds), a float as the shortest decimal that reads back
/// as the same number, always with a decimal point (Python's `str` of a float, which is
/// what OpenBench's client writes).
pub fn format_value(param: &SpsaParam, value: f64) -> String {
    if param.float {
        let s = format!("{value}");
        if s.contains(['.', 'e', 'E']) || !value.is_finite() {
            s
        } else {
            format!("{s}.0")
        }
    } else {
        format!("{}", value.round() as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_tools::uci_options::parse_option_line;

    fn decls() -> Vec<UciOptionDecl> {
        [
            "option name Hash type spin default 16 min 1 max 1024",
            "option name Futility Margin type spin default 100 min 0 max 500",
            "option name History Pruning type check default true",
            "option name Scale type string default 1.0",
            "option name Material type spin default 100 min 0 max 400",
        ]
        .iter()
        .map(|l| parse_option_line(l).unwrap())
        .collect()
    }

    #[test]
    fn the_option_list_gives_every_spin_but_the_set_up_ones() {
        let p = from_option_list(&decls(), None, &[]).unwrap();
        let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["Futility Margin", "Material"]);
        assert_eq!((p[0].start, p[0].min, p[0].max), (100.0, 0.0, 500.0));
        assert_eq!((p[0].c_end, p[0].r_end), (25.0, 0.002));
        let p = from_option_list(&decls(), None, &["material".into()]).unwrap();
        assert_eq!(p.len(), 1);
        let err = from_option_list(&decls(), Some(&["History Pruning".into()]), &[]).unwrap_err();
        assert!(err.contains("is a check"), "{err}");
        let err = from_option_list(&decls(), Some(&["Nope".into()]), &[]).unwrap_err();
        assert!(err.contains("no option 'Nope'"), "{err}");
    }

    #[test]
    fn openbench_lines_are_checked_against_the_engine() {
        let mut p = parse_openbench(
            "# comment\nfutility margin, int, 120, 50, 300, 10, 0.002\nScale, float, 1.5, 0.5, 2.5, 0.1, 0.002\n",
            "in.txt",
        )
        .unwrap();
        check_against(&mut p, &decls()).unwrap();
        assert_eq!(p[0].name, "Futility Margin");
        assert!(p[1].float);
        for (line, message) in [
            ("Nope, int, 1, 0, 2, 1, 0.002", "no such option"),
            (
                "Material, int, 100, 0, 800, 10, 0.002",
                "beyond the engine's [0, 400]",
            ),
            ("History Pruning, int, 1, 0, 1, 1, 0.002", "is a check"),
            ("Material, float, 100, 0, 400, 10, 0.002", "is a spin"),
        ] {
            let mut p = parse_openbench(line, "in.txt").unwrap();
            let err = check_against(&mut p, &decls()).unwrap_err();
            assert!(err.contains(message), "{line}: {err}");
        }
        for (text, message) in [
            ("A, int, 1, 0, 2", "line 1: expected NAME"),
            (
                "\nA, int, x, 0, 2, 1, 0.002",
                "line 2: A: value 'x' is not a number",
            ),
            ("A, int, 1.5, 0, 2, 1, 0.002", "not an integer"),
            ("A, real, 1, 0, 2, 1, 0.002", "neither int nor float"),
            ("A, int, 5, 0, 2, 1, 0.002", "outside its range"),
            (
                "A, int, 1, 0, 2, 1, 0.002\na, int, 1, 0, 2, 1, 0.002",
                "named twice",
            ),
            ("# nothing", "no parameter line"),
        ] {
            let err = parse_openbench(text, "in.txt").unwrap_err();
            assert!(err.contains(message), "{text}: {err}");
        }
    }

    #[test]
    fn values_are_formatted_as_openbench_sends_them() {
        let mut p = parse_openbench("A, float, 1, 0, 2, 0.1, 0.002", "x").unwrap();
        assert_eq!(format_value(&p[0], 1.0), "1.0");
        assert_eq!(format_value(&p[0], 0.125), "0.125");
        p[0].float = false;
        assert_eq!(format_value(&p[0], 7.0), "7");
        assert_eq!(format_value(&p[0], -3.0), "-3");
    }
}
