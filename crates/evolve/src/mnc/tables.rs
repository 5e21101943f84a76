//! The chromosome: 640 real genes, the values of 10 piece-square tables (Phoenix's PVTs),
//! mapped onto `EVAL_TABLE`'s `PST_*` terms. Everything else the organism's evaluation uses is
//! fixed: Kestrel's material (`*_VALUE` and `MATERIAL_TAPER`); every other term is zero.

use kestrel_eval::EVAL_TABLE;
use kestrel_ga::{RealGenome, RealSpace};
use kestrel_params::ParamValues;

/// Squares per table.
const SQUARES: usize = 64;
/// Genes per chromosome.
pub const GENES: usize = 10 * SQUARES;

/// Which part of a tapered `PST_*` term a table fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Middle,
    End,
    /// One table for both phases (rook and queen).
    Both,
}

/// The 10 tables in gene order: (term, phase, short name).
const TABLES: [(&str, Phase, &str); 10] = [
    ("PST_PAWN", Phase::Middle, "pawn mg"),
    ("PST_PAWN", Phase::End, "pawn eg"),
    ("PST_KNIGHT", Phase::Middle, "knight mg"),
    ("PST_KNIGHT", Phase::End, "knight eg"),
    ("PST_BISHOP", Phase::Middle, "bishop mg"),
    ("PST_BISHOP", Phase::End, "bishop eg"),
    ("PST_ROOK", Phase::Both, "rook"),
    ("PST_QUEEN", Phase::Both, "queen"),
    ("PST_KING", Phase::Middle, "king mg"),
    ("PST_KING", Phase::End, "king eg"),
];

/// Terms the organism keeps at Kestrel's values (material).
const FIXED_TERMS: [&str; 6] = [
    "PAWN_VALUE",
    "KNIGHT_VALUE",
    "BISHOP_VALUE",
    "ROOK_VALUE",
    "QUEEN_VALUE",
    "MATERIAL_TAPER",
];

/// Lowest and highest table value (the `PST_*` declarations' range).
pub const VALUE_MIN: f64 = -128.0;
/// Highest table value, in centipawns.
pub const VALUE_MAX: f64 = 127.0;

/// Short names of the 10 tables in gene order.
pub fn table_names() -> Vec<&'static str> {
    TABLES.iter().map(|t| t.2).collect()
}

/// Gene bounds; `sigma` is the Gaussian mutation step as a fraction of the range.
pub fn pst_space(sigma: f64) -> RealSpace {
    RealSpace {
        min: vec![VALUE_MIN; GENES],
        max: vec![VALUE_MAX; GENES],
        sigma,
    }
}

/// A gene as the integer table value the engine uses.
fn value(gene: f64) -> i32 {
    gene.round().clamp(VALUE_MIN, VALUE_MAX) as i32
}

/// Whether gene `i` can change play: pawn tables' 1st and 8th ranks never hold a pawn.
pub fn gene_is_active(i: usize) -> bool {
    let (table, square) = (i / SQUARES, i % SQUARES);
    let pawn = TABLES[table].0 == "PST_PAWN";
    !pawn || (8..56).contains(&square)
}

/// Flat `EVAL_TABLE` indices written by table `t` (one or two per square).
fn flat_indices(t: usize, square: usize) -> Vec<usize> {
    let (term, phase, _) = TABLES[t];
    let base = EVAL_TABLE
        .offset_of(term)
        .expect("every PST term is declared in EVAL_TABLE");
    match phase {
        Phase::Middle => vec![base + square],
        Phase::End => vec![base + SQUARES + square],
        Phase::Both => vec![base + square, base + SQUARES + square],
    }
}

/// The organism's evaluation: material at Kestrel's values, every other term zero.
pub fn base_params() -> ParamValues {
    let defaults = ParamValues::defaults(&EVAL_TABLE);
    let mut out = ParamValues::zeros(&EVAL_TABLE);
    for name in FIXED_TERMS {
        let values = defaults.get(name).expect("material terms are declared");
        out.set(name, values)
            .expect("default values are within range");
    }
    out
}

/// `base` with the chromosome's tables written into the `PST_*` terms.
pub fn params_of(genome: &RealGenome, base: &ParamValues) -> ParamValues {
    assert_eq!(genome.0.len(), GENES, "a PST chromosome has {GENES} genes");
    let mut out = base.clone();
    for (i, &g) in genome.0.iter().enumerate() {
        for flat in flat_indices(i / SQUARES, i % SQUARES) {
            out.values[flat] = value(g);
        }
    }
    out
}

/// The chromosome closest to `params`' tables (rook and queen: the mean of mg and eg).
pub fn chromosome_of(params: &ParamValues) -> RealGenome {
    RealGenome(
        (0..GENES)
            .map(|i| {
                let flats = flat_indices(i / SQUARES, i % SQUARES);
                let sum: i32 = flats.iter().map(|&f| params.values[f]).sum();
                (sum as f64 / flats.len() as f64).round()
            })
            .collect(),
    )
}

/// Kestrel's own tuned tables as a chromosome (the "same term set" reference).
pub fn kestrel_chromosome() -> RealGenome {
    chromosome_of(&ParamValues::defaults(&EVAL_TABLE))
}

/// The phenotypic distance: the mean absolute difference, in centipawns, between the table
/// values the two organisms play with, over the 608 entries that can change play (pawn
/// tables' 1st and 8th ranks left out). 0 means the same evaluation.
pub fn distance(a: &RealGenome, b: &RealGenome) -> f64 {
    let mut total = 0.0;
    let mut count = 0usize;
    for (i, (x, y)) in a.0.iter().zip(&b.0).enumerate() {
        if gene_is_active(i) {
            total += (value(*x) - value(*y)).abs() as f64;
            count += 1;
        }
    }
    total / count.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn genes_map_onto_the_pst_terms_and_back() {
        let base = base_params();
        assert_eq!(
            base.get("KNIGHT_VALUE").unwrap(),
            ParamValues::defaults(&EVAL_TABLE)
                .get("KNIGHT_VALUE")
                .unwrap()
        );
        assert!(base.get("MOBILITY").unwrap().iter().all(|&v| v == 0));
        assert!(base.get("TEMPO").unwrap().iter().all(|&v| v == 0));
        let genome = RealGenome((0..GENES).map(|i| (i % 200) as f64 - 100.0).collect());
        let params = params_of(&genome, &base);
        // Gene 64 + 10 is the pawn end-game value on square 10.
        // Gene 74 holds 74 - 100.
        assert_eq!(params.get("PST_PAWN").unwrap()[64 + 10], 74 - 100);
        // The rook table fills mg and eg alike.
        let rook = params.get("PST_ROOK").unwrap();
        assert_eq!(rook[5], rook[64 + 5]);
        assert_eq!(rook[5], (6 * 64 + 5) % 200 - 100);
        assert_eq!(chromosome_of(&params), genome);
        // Kestrel's own tables survive the trip except rook and queen (averaged).
        let kestrel = params_of(&kestrel_chromosome(), &base);
        let defaults = ParamValues::defaults(&EVAL_TABLE);
        assert_eq!(kestrel.get("PST_KNIGHT"), defaults.get("PST_KNIGHT"));
        assert_eq!(kestrel.get("PST_KING"), defaults.get("PST_KING"));
    }

    #[test]
    fn distance_counts_only_playable_entries() {
        let a = RealGenome(vec![0.0; GENES]);
        let mut b = a.clone();
        // Pawn table, rank 1: cannot matter.
        b.0[3] = 100.0;
        assert_eq!(distance(&a, &b), 0.0);
        b.0[64 * 2 + 3] = 60.8; // knight mg: rounds to 61
        assert!((distance(&a, &b) - 61.0 / 608.0).abs() < 1e-12);
        assert_eq!(distance(&b, &a), distance(&a, &b));
        assert_eq!((0..GENES).filter(|&i| gene_is_active(i)).count(), 608);
    }
}
