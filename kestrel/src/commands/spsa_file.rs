//! `kestrel tune spsa --input FILE`: an OpenBench SPSA input (`NAME, int, value, min, max,
//! c_end, r_end`, one line each, `#` comments) choosing the tuned values, their start, range,
//! step and learning rate; every line is checked against the declared parameter.

use kestrel_params::{ParamValues, SpsaLine, spsa_lines};

/// Parses `text` (from `origin`, for messages) into SPSA lines of `sets`.
pub fn parse_input(
    text: &str,
    origin: &str,
    sets: &[&ParamValues],
) -> Result<Vec<SpsaLine>, String> {
    let mut lines = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |e: String| format!("{origin} line {}: {e}", no + 1);
        lines.push(parse_line(line, sets).map_err(at)?);
    }
    if lines.is_empty() {
        return Err(format!("{origin}: no parameter line"));
    }
    Ok(lines)
}

/// One `NAME, int, value, min, max, c_end, r_end` line.
fn parse_line(line: &str, sets: &[&ParamValues]) -> Result<SpsaLine, String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [name, kind, value, min, max, c_end, r_end] = fields[..] else {
        return Err(format!(
            "expected NAME, int, value, min, max, c_end, r_end; got '{line}'"
        ));
    };
    if !kind.eq_ignore_ascii_case("int") {
        return Err(format!(
            "{name}: type '{kind}' is not int (Kestrel's values are integers)"
        ));
    }
    let int = |what: &str, s: &str| {
        s.parse::<i32>()
            .map_err(|_| format!("{name}: {what} '{s}' is not an integer"))
    };
    let real = |what: &str, s: &str| {
        s.parse::<f64>()
            .map_err(|_| format!("{name}: {what} '{s}' is not a number"))
    };
    let declared = spsa_lines(sets, Some(&[name.to_string()]))?;
    let [declared] = &declared[..] else {
        return Err(format!(
            "{name}: names {} values; name one element",
            declared.len()
        ));
    };
    let (value, min, max) = (int("value", value)?, int("min", min)?, int("max", max)?);
    let (c_end, r_end) = (real("c_end", c_end)?, real("r_end", r_end)?);
    if min < declared.min || max > declared.max {
        return Err(format!(
            "{name}: range [{min}, {max}] goes beyond the declared [{}, {}]",
            declared.min, declared.max
        ));
    }
    if min >= max {
        return Err(format!("{name}: empty range [{min}, {max}]"));
    }
    if !(min..=max).contains(&value) {
        return Err(format!(
            "{name}: value {value} is outside its range [{min}, {max}]"
        ));
    }
    if !(c_end >= 0.0 && c_end.is_finite()) {
        return Err(format!(
            "{name}: step (c_end) must be 0 (frozen) or above, got {c_end}"
        ));
    }
    if !(r_end > 0.0 && r_end.is_finite()) {
        return Err(format!("{name}: r_end must be above 0, got {r_end}"));
    }
    Ok(SpsaLine {
        name: declared.name.clone(),
        section: declared.section,
        value,
        min,
        max,
        c_end,
        r_end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_eval::EVAL_TABLE;
    use kestrel_search::SEARCH_TABLE;

    fn parse(text: &str) -> Result<Vec<SpsaLine>, String> {
        let eval = ParamValues::defaults(&EVAL_TABLE);
        let search = ParamValues::defaults(&SEARCH_TABLE);
        parse_input(text, "in.txt", &[&eval, &search])
    }

    #[test]
    fn reads_openbench_lines() {
        let l = parse("# tuned\nKNIGHT_VALUE, int, 185, 0, 1023, 40, 0.01\n\nNULL_MOVE_R, int, 3, 1, 6, 1, 0.002\n")
            .unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!((l[0].section, l[0].value, l[0].c_end), ("eval", 185, 40.0));
        assert_eq!((l[1].section, l[1].min, l[1].max), ("search", 1, 6));
    }

    #[test]
    fn bad_lines_are_clear_errors() {
        let err = |t: &str| parse(t).unwrap_err();
        assert!(err("NOPE, int, 1, 0, 5, 1, 0.002").contains("unknown parameter 'NOPE'"));
        assert!(err("KNIGHT_VALUE, int, 300, 0, 1023, -1, 0.002").contains("step"));
        assert!(err("KNIGHT_VALUE, int, 300, 400, 1023, 10, 0.002").contains("outside its range"));
        assert!(err("KNIGHT_VALUE, int, 300, 0, 5000, 10, 0.002").contains("beyond the declared"));
        assert!(err("KNIGHT_VALUE, float, 300, 0, 1023, 10, 0.002").contains("not int"));
        assert!(err("KNIGHT_VALUE, int, 300").contains("expected NAME"));
        assert!(err("PST_KNIGHT, int, 1, 0, 5, 1, 0.002").contains("name one element"));
        assert!(err("# nothing\n").contains("no parameter line"));
        assert!(err("\nKNIGHT_VALUE, int, x, 0, 5, 1, 0.002").starts_with("in.txt line 2:"));
    }
}
