//! Params files side by side and simplified, as `kestrel evolve search --compare` and
//! `--simplify` do: load the files' search parameters, score them, render the result.

use crate::search::compare::{compare_sets, render_comparison};
use crate::search::data::load_search_params;
use crate::search::simplify::{render_steps, simplify};
use crate::search::solve::CostRule;
use crate::search::suite::parse_positions;
use kestrel_params::{ParamValues, ParamsFile};
use kestrel_search::SEARCH_TABLE;
use std::fmt::Write as _;
use std::path::Path;

/// The comparison table of params files `names` (or `default`) on the suite `lines`.
pub fn compare_files(
    names: &[String],
    lines: &[String],
    rule: CostRule,
    hash_mb: usize,
) -> Result<String, String> {
    let positions = parse_positions(lines)?;
    let sets = names
        .iter()
        .map(|name| Ok((name.clone(), load_search_params(name)?)))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(render_comparison(&compare_sets(
        &sets, &positions, rule, hash_mb,
    )))
}

/// Simplifies params file `file` on the `train` lines within `tolerance`, writes
/// `out/simplified.toml`, and compares it with the file and the defaults on the `test` lines
/// (if any); returns the report.
pub fn simplify_file(
    file: &str,
    train: &[String],
    test: &[String],
    rule: CostRule,
    hash_mb: usize,
    tolerance: f64,
    out: &Path,
) -> Result<String, String> {
    if !(0.0..1.0).contains(&tolerance) {
        return Err("--simplify-tolerance must be within [0, 1)".into());
    }
    let set = load_search_params(file)?;
    let positions = parse_positions(train)?;
    let s = simplify(&set, &positions, rule, hash_mb, tolerance);
    let mut report = format!(
        "simplifying {file} on {} training positions\n",
        positions.len()
    );
    report.push_str(&render_steps(&s, positions.len()));
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let path = out.join("simplified.toml");
    ParamsFile::save(&path, &[&s.values])
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let _ = writeln!(report, "simplified set    {}", path.display());
    if !test.is_empty() {
        let positions = parse_positions(test)?;
        let sets = vec![
            ("default".to_string(), ParamValues::defaults(&SEARCH_TABLE)),
            (file.to_string(), set),
            (path.display().to_string(), s.values),
        ];
        let _ = writeln!(report, "on the {} test positions:", positions.len());
        report.push_str(&render_comparison(&compare_sets(
            &sets, &positions, rule, hash_mb,
        )));
    }
    Ok(report)
}
