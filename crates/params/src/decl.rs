//! Parameter declarations.

/// One declared parameter: a scalar, a middle/end-game pair, or a table of either.
#[derive(Debug)]
pub struct ParamDecl {
    /// Name used in params files, UCI options and logs (e.g. `BISHOP_PAIR`).
    pub name: &'static str,
    /// What the parameter measures, in one line.
    pub doc: &'static str,
    /// Number of entries: 1 for a scalar, 64 for a piece-square table, N for per-kind arrays.
    pub len: usize,
    /// Separate middle-game and end-game values.
    pub tapered: bool,
    /// `width()` default values: all middle-game entries first, then all end-game entries.
    pub defaults: &'static [i32],
    /// Smallest allowed value (params files, UCI options, GA and SPSA ranges); inclusive.
    pub min: i32,
    /// Largest allowed value; inclusive.
    pub max: i32,
    /// Bits per value in a bit-string chromosome.
    pub bits: u8,
    /// SPSA perturbation size (OpenBench's `c_end`): `> 0` as declared, `0` derived from the
    /// range ([`ParamDecl::spsa_step`]), `< 0` not tuned by SPSA (choices such as an ordering
    /// mode).
    pub step: i32,
}

impl ParamDecl {
    /// Number of flat values this declaration occupies.
    pub const fn width(&self) -> usize {
        if self.tapered { 2 * self.len } else { self.len }
    }

    /// The SPSA step: the declared one, else `max((max - min) / 20, 1)`; `None` for a switch
    /// (range 0..=1) without a declared step, or a parameter declared with a negative step.
    pub fn spsa_step(&self) -> Option<i32> {
        match self.step {
            s if s > 0 => Some(s),
            s if s < 0 => None,
            _ if self.max - self.min < 2 => None,
            _ => Some(((self.max - self.min) / 20).max(1)),
        }
    }

    /// The name of each flat value as one identifier, as SPSA tuners and UCI options use them:
    /// `NAME`, `NAME_MG`/`NAME_EG` (tapered), `NAME_12` (arrays), `NAME_EG_12` (tapered arrays).
    pub fn element_names(&self) -> Vec<String> {
        let phases: &[&str] = if self.tapered { &["_MG", "_EG"] } else { &[""] };
        let mut names = Vec::with_capacity(self.width());
        for phase in phases {
            for i in 0..self.len {
                let index = if self.len > 1 {
                    format!("_{i}")
                } else {
                    String::new()
                };
                names.push(format!("{}{phase}{index}", self.name));
            }
        }
        names
    }
}

/// An ordered set of declarations (e.g. all evaluation parameters) with flat offsets.
#[derive(Debug)]
pub struct ParamTable {
    /// Section name in params files (`eval`, `search`).
    pub section: &'static str,
    /// The declarations, in flat order.
    pub decls: &'static [ParamDecl],
}

impl ParamTable {
    /// Total number of flat values.
    pub fn len(&self) -> usize {
        self.decls.iter().map(ParamDecl::width).sum()
    }

    /// True when the table declares no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Flat offset of each declaration.
    pub fn offsets(&self) -> Vec<usize> {
        let mut off = 0;
        self.decls
            .iter()
            .map(|d| {
                let o = off;
                off += d.width();
                o
            })
            .collect()
    }

    /// Index of a declaration by name.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.decls
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// Flat offset of the named declaration.
    pub fn offset_of(&self, name: &str) -> Option<usize> {
        let i = self.find(name)?;
        Some(self.decls[..i].iter().map(ParamDecl::width).sum())
    }

    /// Flat default values.
    pub fn defaults(&self) -> Vec<i32> {
        self.decls
            .iter()
            .flat_map(|d| d.defaults.iter().copied())
            .collect()
    }

    /// Name of each flat value (`NAME`, `NAME.mg`, `NAME[12].eg`, ...), for logs and traces.
    pub fn flat_names(&self) -> Vec<String> {
        let mut names = Vec::with_capacity(self.len());
        for d in self.decls {
            let phases: &[&str] = if d.tapered { &["mg", "eg"] } else { &[""] };
            for phase in phases {
                for i in 0..d.len {
                    let mut n = d.name.to_string();
                    if d.len > 1 {
                        n.push_str(&format!("[{i}]"));
                    }
                    if !phase.is_empty() {
                        n.push('.');
                        n.push_str(phase);
                    }
                    names.push(n);
                }
            }
        }
        names
    }

    /// Every flat value's [`ParamDecl::element_names`] name, in flat order.
    pub fn element_names(&self) -> Vec<String> {
        self.decls
            .iter()
            .flat_map(ParamDecl::element_names)
            .collect()
    }

    /// The flat index and declaration of an element name (`PST_KNIGHT_EG_12`, `BISHOP_PAIR`),
    /// compared without case.
    pub fn find_element(&self, name: &str) -> Option<(usize, &'static ParamDecl)> {
        let mut flat = 0;
        for d in self.decls {
            // Only declarations whose name starts the element name can hold it.
            if name
                .get(..d.name.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(d.name))
                && let Some(k) = d
                    .element_names()
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name))
            {
                return Some((flat + k, d));
            }
            flat += d.width();
        }
        None
    }

    /// Checks the declarations themselves (defaults' length and range, bit widths).
    pub fn validate(&self) -> Result<(), String> {
        for d in self.decls {
            if d.defaults.len() != d.width() {
                return Err(format!(
                    "{}: {} defaults for width {}",
                    d.name,
                    d.defaults.len(),
                    d.width()
                ));
            }
            if d.min > d.max {
                return Err(format!("{}: min {} > max {}", d.name, d.min, d.max));
            }
            if let Some(v) = d.defaults.iter().find(|v| **v < d.min || **v > d.max) {
                return Err(format!(
                    "{}: default {v} outside [{}, {}]",
                    d.name, d.min, d.max
                ));
            }
            if d.bits == 0 || d.bits > 31 {
                return Err(format!("{}: bit width {} not in 1..=31", d.name, d.bits));
            }
        }
        Ok(())
    }
}
