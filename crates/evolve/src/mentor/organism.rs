//! How a mentor-run organism is encoded: the paper's bit strings (decoded through the
//! `BitSchema`) or real vectors with one gene per evolved value, bounded by the value's
//! declared range and rounded to an integer when decoded.

use kestrel_ga::{BitGenome, Genome, RealGenome, RealSpace};
use kestrel_params::{BitSchema, ParamValues};

/// Which genome a mentor run evolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GenomeKind {
    /// Bit strings with the schema's widths and coding (the paper's chromosome).
    Bits,
    /// One real gene per evolved value, within the value's declared min/max.
    Real,
}

/// A genome whose evolved values can be read through the run's schema.
pub trait Organism: Genome {
    /// The evolved values, in schema field order.
    fn field_values(&self, schema: &BitSchema) -> Vec<i32>;
    /// Names the encoding in checkpoint fingerprints.
    fn describe(schema: &BitSchema) -> String;
}

impl Organism for BitGenome {
    fn field_values(&self, schema: &BitSchema) -> Vec<i32> {
        schema.decode_fields(&self.0)
    }

    fn describe(schema: &BitSchema) -> String {
        format!("{} bits {:?}", schema.bit_len(), schema.coding)
    }
}

impl Organism for RealGenome {
    fn field_values(&self, schema: &BitSchema) -> Vec<i32> {
        assert_eq!(
            self.0.len(),
            schema.fields.len(),
            "genome does not match the schema"
        );
        self.0
            .iter()
            .zip(&schema.fields)
            .map(|(&x, f)| (x.round() as i64).clamp(f.min as i64, f.max as i64) as i32)
            .collect()
    }

    fn describe(schema: &BitSchema) -> String {
        format!("{} real genes", schema.fields.len())
    }
}

/// Mutation step used when the GA settings carry no schedule (fraction of a gene's range).
pub const DEFAULT_REAL_STEP: f64 = 0.02;

/// Bounds of the real genes: each evolved value's declared range. Rounding maps a gene to
/// the nearest integer, so the ends get half the share of inner values; widening by 0.5 on
/// both sides gives every integer the same share.
pub fn real_space(schema: &BitSchema) -> RealSpace {
    RealSpace {
        min: schema.fields.iter().map(|f| f.min as f64 - 0.499).collect(),
        max: schema.fields.iter().map(|f| f.max as f64 + 0.499).collect(),
        sigma: DEFAULT_REAL_STEP,
    }
}

/// `base` with the evolved values written over it.
pub fn with_fields(schema: &BitSchema, base: &ParamValues, values: &[i32]) -> ParamValues {
    let mut out = base.clone();
    for (f, &v) in schema.fields.iter().zip(values) {
        out.values[f.flat_index] = v;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_eval::{COMPACT_SET, EVAL_TABLE};
    use kestrel_params::Coding;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn real_genes_decode_within_bounds_and_bits_match_the_schema() {
        let schema = BitSchema::new(&EVAL_TABLE, None, Coding::Gray).unwrap();
        let space = real_space(&schema);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (mut low, mut high) = (0, 0);
        for _ in 0..20 {
            let g = RealGenome::random(&space, &mut rng);
            for (v, f) in g.field_values(&schema).iter().zip(&schema.fields) {
                assert!((f.min..=f.max).contains(v), "{} = {v}", f.name);
                low += (*v == f.min) as usize;
                high += (*v == f.max) as usize;
            }
        }
        // Both ends are reachable.
        assert!(low > 0 && high > 0);
        let compact = BitSchema::new(&EVAL_TABLE, Some(COMPACT_SET), Coding::Binary).unwrap();
        let defaults = ParamValues::defaults(&EVAL_TABLE);
        let bits = BitGenome(compact.encode(&defaults));
        let base = ParamValues::zeros(&EVAL_TABLE);
        assert_eq!(
            with_fields(&compact, &base, &bits.field_values(&compact)),
            compact.decode(&bits.0, &base)
        );
    }
}
