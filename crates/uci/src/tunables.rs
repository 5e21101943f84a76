//! Tunable parameters as UCI spin options, so SPSA tuners (e.g. OpenBench, Weather Factory)
//! can reach them: one option per scalar of each table (`NAME`, or `NAME_mg`/`NAME_eg` for a
//! tapered scalar). Tables (piece-square tables) are set only through a params file.

use crate::options::UciOptionDecl;
use kestrel_params::{ParamTable, ParamValues};

/// Where a tunable option's value lives.
#[derive(Clone, Debug)]
pub struct Tunable {
    /// The spin option, named after the parameter element, with its declared range and default.
    pub option: UciOptionDecl,
    /// Index into the tunable tables.
    pub table: usize,
    /// Flat index into that table's values.
    pub flat: usize,
}

/// One option per length-1 declaration of every table.
pub fn tunables(tables: &[&'static ParamTable]) -> Vec<Tunable> {
    let mut out = Vec::new();
    for (ti, table) in tables.iter().enumerate() {
        for (decl, offset) in table.decls.iter().zip(table.offsets()) {
            if decl.len != 1 {
                continue;
            }
            let (min, max) = (decl.min as i64, decl.max as i64);
            let mut push = |name: String, flat: usize| {
                let default = decl.defaults[flat - offset] as i64;
                out.push(Tunable {
                    option: UciOptionDecl::spin(&name, default, min, max),
                    table: ti,
                    flat,
                });
            };
            if decl.tapered {
                push(format!("{}_mg", decl.name), offset);
                push(format!("{}_eg", decl.name), offset + 1);
            } else {
                push(decl.name.to_string(), offset);
            }
        }
    }
    out
}

/// The current value of a tunable (for `uci` after a params file was loaded).
pub fn current_value(t: &Tunable, values: &[ParamValues]) -> i64 {
    values[t.table].values[t.flat] as i64
}
