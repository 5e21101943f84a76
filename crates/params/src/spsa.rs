//! SPSA tuner input: one line per tuned value with its range and step, in OpenBench's format
//! (`NAME, int, value, min, max, c_end, r_end`), as Viridithas and Lynx print theirs.

use crate::ParamValues;

/// OpenBench's default learning-rate end value `r_end`.
pub const DEFAULT_R_END: f64 = 0.002;

/// One value an SPSA tuner perturbs.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SpsaLine {
    /// Element name (`BISHOP_PAIR`, `PST_KNIGHT_EG_12`): a UCI option or params-file key.
    pub name: String,
    /// Params-file section of its table (`eval`, `search`).
    pub section: &'static str,
    /// Current value (the start point of the tuning run).
    pub value: i32,
    /// Smallest value the tuner may try (the declaration's minimum).
    pub min: i32,
    /// Largest value the tuner may try (the declaration's maximum).
    pub max: i32,
    /// Perturbation at the end of the run (the declaration's step).
    pub c_end: f64,
    /// Learning rate at the end of the run.
    pub r_end: f64,
}

/// The SPSA lines of `sets`: every element of the declarations with a step (switches and
/// choices left out) or, with `select`, exactly the named declarations or elements (a named
/// switch or choice is an error, as SPSA cannot tune it).
pub fn spsa_lines(
    sets: &[&ParamValues],
    select: Option<&[String]>,
) -> Result<Vec<SpsaLine>, String> {
    let mut lines = Vec::new();
    let mut found = vec![false; select.map_or(0, <[String]>::len)];
    for set in sets {
        let table = set.table;
        for (d, offset) in table.decls.iter().zip(table.offsets()) {
            for (k, name) in d.element_names().into_iter().enumerate() {
                let wanted = match select {
                    None => d.spsa_step().is_some(),
                    Some(names) => {
                        let hit = names.iter().position(|n| {
                            n.eq_ignore_ascii_case(d.name) || n.eq_ignore_ascii_case(&name)
                        });
                        if let Some(i) = hit {
                            found[i] = true;
                        }
                        hit.is_some()
                    }
                };
                if !wanted {
                    continue;
                }
                let step = d.spsa_step().ok_or_else(|| {
                    format!(
                        "{} is a switch or a choice, which SPSA does not tune",
                        d.name
                    )
                })?;
                lines.push(SpsaLine {
                    name,
                    section: table.section,
                    value: set.values[offset + k],
                    min: d.min,
                    max: d.max,
                    c_end: step as f64,
                    r_end: DEFAULT_R_END,
                });
            }
        }
    }
    if let Some(i) = found.iter().position(|f| !f) {
        let names = select.expect("found is empty without a selection");
        return Err(format!("unknown parameter '{}'", names[i]));
    }
    Ok(lines)
}

/// OpenBench's SPSA input: `NAME, int, value, min, max, c_end, r_end`, one line each.
pub fn render_openbench(lines: &[SpsaLine]) -> String {
    lines
        .iter()
        .map(|l| {
            format!(
                "{}, int, {}, {}, {}, {}, {}\n",
                l.name, l.value, l.min, l.max, l.c_end, l.r_end
            )
        })
        .collect()
}
