//! Bit-string chromosome layout derived from parameter declarations.

use crate::{ParamTable, ParamValues};

/// Binary or reflected Gray code for each field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Coding {
    /// Plain binary: the field's bits are the raw code, most significant first.
    #[default]
    Binary,
    /// Reflected Gray code: neighbouring values differ in one bit.
    Gray,
}

/// One evolved value: which flat parameter it sets, its range, and its width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Element name of the flat value (e.g. `PST_KNIGHT_EG_12`).
    pub name: String,
    /// Index of the value in the table's flat vector.
    pub flat_index: usize,
    /// Value of raw code 0 (the declaration's minimum).
    pub min: i32,
    /// Value of the largest raw code (the declaration's maximum).
    pub max: i32,
    /// Width in bits; the `2^bits` codes map onto `min..=max` ([`Field::value_of`]).
    pub bits: u8,
}

/// A chromosome layout: a list of fields laid end to end.
#[derive(Clone, Debug)]
pub struct BitSchema {
    /// The parameter table the chromosome decodes into.
    pub table: &'static ParamTable,
    /// The evolved values, in chromosome order.
    pub fields: Vec<Field>,
    /// How each field's bits encode its raw code.
    pub coding: Coding,
}

impl BitSchema {
    /// One field per flat value of the named declarations (all of them if `names` is `None`).
    pub fn new(
        table: &'static ParamTable,
        names: Option<&[&str]>,
        coding: Coding,
    ) -> Result<BitSchema, String> {
        let flat_names = table.flat_names();
        let offsets = table.offsets();
        let mut fields = Vec::new();
        let selected: Vec<usize> = match names {
            None => (0..table.decls.len()).collect(),
            Some(ns) => ns
                .iter()
                .map(|n| {
                    table
                        .find(n)
                        .ok_or_else(|| format!("unknown parameter '{n}'"))
                })
                .collect::<Result<_, _>>()?,
        };
        for i in selected {
            let d = &table.decls[i];
            for k in 0..d.width() {
                let flat_index = offsets[i] + k;
                fields.push(Field {
                    name: flat_names[flat_index].clone(),
                    flat_index,
                    min: d.min,
                    max: d.max,
                    bits: d.bits,
                });
            }
        }
        Ok(BitSchema {
            table,
            fields,
            coding,
        })
    }

    /// Chromosome length in bits.
    pub fn bit_len(&self) -> usize {
        self.fields.iter().map(|f| f.bits as usize).sum()
    }

    /// Decodes bits into values, written over `base` (which supplies every value not evolved).
    pub fn decode(&self, bits: &[bool], base: &ParamValues) -> ParamValues {
        let mut out = base.clone();
        for (field, raw) in self.fields.iter().zip(self.raw_values(bits)) {
            out.values[field.flat_index] = field.value_of(raw);
        }
        out
    }

    /// Just the evolved values, in field order.
    pub fn decode_fields(&self, bits: &[bool]) -> Vec<i32> {
        self.fields
            .iter()
            .zip(self.raw_values(bits))
            .map(|(f, raw)| f.value_of(raw))
            .collect()
    }

    /// Encodes the evolved fields of `values` (values are clamped into range and rounded).
    pub fn encode(&self, values: &ParamValues) -> Vec<bool> {
        let mut bits = Vec::with_capacity(self.bit_len());
        for f in &self.fields {
            let raw = f.raw_of(values.values[f.flat_index]);
            let code = match self.coding {
                Coding::Binary => raw,
                Coding::Gray => raw ^ (raw >> 1),
            };
            for b in (0..f.bits).rev() {
                bits.push(code >> b & 1 != 0);
            }
        }
        bits
    }

    fn raw_values<'a>(&'a self, bits: &'a [bool]) -> impl Iterator<Item = u32> + 'a {
        assert_eq!(
            bits.len(),
            self.bit_len(),
            "chromosome length does not match the schema"
        );
        let mut pos = 0;
        self.fields.iter().map(move |f| {
            let mut code = 0u32;
            for &b in &bits[pos..pos + f.bits as usize] {
                code = code << 1 | b as u32;
            }
            pos += f.bits as usize;
            match self.coding {
                Coding::Binary => code,
                Coding::Gray => {
                    let mut v = code;
                    let mut shift = code >> 1;
                    while shift != 0 {
                        v ^= shift;
                        shift >>= 1;
                    }
                    v
                }
            }
        })
    }
}

impl Field {
    fn levels(&self) -> i64 {
        (1i64 << self.bits) - 1
    }

    /// Raw code -> value: the identity offset by `min` when the range fits the bits exactly,
    /// otherwise a linear map of [0, 2^bits - 1] onto [min, max] (codes past max clamp there
    /// when the range is narrower than the codes, as in Falcon's 3-bit 0..4 extensions).
    pub fn value_of(&self, raw: u32) -> i32 {
        let span = (self.max - self.min) as i64;
        let levels = self.levels();
        if span <= levels {
            (self.min as i64 + (raw as i64).min(span)) as i32
        } else {
            (self.min as i64 + (raw as i64 * span + levels / 2) / levels) as i32
        }
    }

    /// Value -> nearest raw code (inverse of [`Field::value_of`] on its image).
    pub fn raw_of(&self, value: i32) -> u32 {
        let v = value.clamp(self.min, self.max) as i64 - self.min as i64;
        let span = (self.max - self.min) as i64;
        let levels = self.levels();
        if span <= levels {
            v as u32
        } else {
            ((v * levels + span / 2) / span) as u32
        }
    }
}
