//! The `ChromosomeDB` and `Chromosome` options: play with an evolved evaluation from the
//! chromosome database (by id, the best, or drawn at random weighted by fitness, seeded).

use kestrel_chromodb::{ChromosomeDb, Pick};
use kestrel_params::{ParamTable, ParamValues, ParamsFile};
use std::path::Path;

/// The `Chromosome` option's default: the fittest stored chromosome.
pub const DEFAULT_PICK: &str = "best";

/// The parameter sets (one per table) of the chromosome `pick` names in database `db`, with a
/// line saying what was loaded; `Ok(None)` while no database is set.
pub fn load_chromosome(
    db: &str,
    pick: &str,
    tables: &[&'static ParamTable],
) -> Result<Option<(Vec<ParamValues>, String)>, String> {
    if db.is_empty() {
        return Ok(None);
    }
    let choice: Pick = pick.parse()?;
    let row = ChromosomeDb::open_existing(Path::new(db))
        .and_then(|d| d.pick(choice))
        .map_err(|e| e.to_string())?;
    let values = ParamsFile::parse(&row.params, tables)
        .map_err(|e| format!("chromosome {} has a bad params file: {e}", row.id))?;
    let line = format!(
        "chromosome {} loaded from {db} (run {}, {}, fitness {:.3})",
        row.id, row.run_id, row.label, row.fitness
    );
    Ok(Some((values, line)))
}
