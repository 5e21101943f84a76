//! A vector of values for one parameter table.

use crate::ParamTable;

/// Flat values for a [`ParamTable`], defaults unless set otherwise.
#[derive(Clone, Debug)]
pub struct ParamValues {
    /// The table these values belong to.
    pub table: &'static ParamTable,
    /// One value per flat index of the table ([`ParamTable::len`] of them).
    pub values: Vec<i32>,
}

impl PartialEq for ParamValues {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.table, other.table) && self.values == other.values
    }
}

impl ParamValues {
    /// The table's declared default values.
    pub fn defaults(table: &'static ParamTable) -> ParamValues {
        ParamValues {
            table,
            values: table.defaults(),
        }
    }

    /// All values zero (for a "compact subset" whose other terms are switched off).
    pub fn zeros(table: &'static ParamTable) -> ParamValues {
        ParamValues {
            table,
            values: vec![0; table.len()],
        }
    }

    /// Every value drawn uniformly from its declared range (random organisms, test vectors).
    pub fn random<R: rand::Rng + ?Sized>(table: &'static ParamTable, rng: &mut R) -> ParamValues {
        let values = table
            .decls
            .iter()
            .flat_map(|d| std::iter::repeat_n((d.min, d.max), d.width()))
            .map(|(min, max)| rng.random_range(min..=max))
            .collect();
        ParamValues { table, values }
    }

    /// The flat values of the named declaration.
    pub fn get(&self, name: &str) -> Option<&[i32]> {
        let i = self.table.find(name)?;
        let off = self.table.offset_of(name)?;
        Some(&self.values[off..off + self.table.decls[i].width()])
    }

    /// Sets the named declaration's flat values, checking width and range.
    pub fn set(&mut self, name: &str, values: &[i32]) -> Result<(), String> {
        let i = self
            .table
            .find(name)
            .ok_or_else(|| format!("unknown parameter '{name}'"))?;
        let d = &self.table.decls[i];
        if values.len() != d.width() {
            return Err(format!(
                "{}: expected {} values, got {}",
                d.name,
                d.width(),
                values.len()
            ));
        }
        if let Some(v) = values.iter().find(|v| **v < d.min || **v > d.max) {
            return Err(format!(
                "{}: value {v} outside its range [{}, {}]",
                d.name, d.min, d.max
            ));
        }
        let off = self.table.offset_of(name).expect("found above");
        self.values[off..off + d.width()].copy_from_slice(values);
        Ok(())
    }

    /// Sets one element by its [`ParamTable::element_names`] name, checking the range.
    pub fn set_element(&mut self, name: &str, value: i32) -> Result<(), String> {
        let (flat, d) = self
            .table
            .find_element(name)
            .ok_or_else(|| format!("unknown parameter '{name}'"))?;
        if value < d.min || value > d.max {
            return Err(format!(
                "{name}: value {value} outside its range [{}, {}]",
                d.min, d.max
            ));
        }
        self.values[flat] = value;
        Ok(())
    }

    /// Sets a single scalar (non-tapered, length-1) parameter.
    pub fn set_scalar(&mut self, name: &str, value: i32) -> Result<(), String> {
        self.set(name, &[value])
    }
}
