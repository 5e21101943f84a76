//! Blends two scorings of the same positions, Kestrel's own search and a mentor's, into one data
//! set: the "mentor's and Kestrel's own labels". The mix is taken in win-probability
//! space (σ(cp/K)), where the trainer's loss lives, so neither side's scale dominates.

use crate::format::{NO_SCORE, PackedPosition};
use crate::train::sigmoid_f64;

/// What a blend kept and dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlendCounts {
    /// Positions written with a blended score.
    pub blended: usize,
    /// Positions of the own data that the mentor did not score (dropped).
    pub not_in_mentor: usize,
    /// Matched positions without both scores (dropped).
    pub unscored: usize,
}

/// The blended score in centipawns: `K · logit(w · σ(mentor/K) + (1 − w) · σ(own/K))`, clamped
/// to the range a record holds.
pub fn blend_cp(own: i16, mentor: i16, mentor_weight: f64, scale: f64) -> i16 {
    let sigmoid = |cp: i16| sigmoid_f64(f64::from(cp) / scale);
    let p = mentor_weight * sigmoid(mentor) + (1.0 - mentor_weight) * sigmoid(own);
    // Keep p inside (0, 1) so the logit is finite: beyond about ±8,300 cp (K 400) σ is 1 to
    // nine places, and the trainer could not tell the scores apart anyway.
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    let cp = scale * (p / (1.0 - p)).ln();
    cp.round().clamp(-32_000.0, 32_000.0) as i16
}

/// The same position, result and move number, whatever the score.
fn same_position(a: &PackedPosition, b: &PackedPosition) -> bool {
    a.with_score(NO_SCORE) == b.with_score(NO_SCORE)
}

/// Blends `own` (e.g. `nnue data`) with `mentor` (its `nnue label` rescoring, which keeps a
/// subsequence of the positions in their order). Fails when `mentor` is not such a rescoring
/// of `own`, naming the first record that does not match.
pub fn blend(
    own: &[PackedPosition],
    mentor: &[PackedPosition],
    mentor_weight: f64,
    scale: f64,
) -> Result<(Vec<PackedPosition>, BlendCounts), String> {
    let mut out = Vec::with_capacity(mentor.len());
    let mut counts = BlendCounts::default();
    let mut i = 0;
    for (m_index, m) in mentor.iter().enumerate() {
        let start = i;
        while i < own.len() && !same_position(&own[i], m) {
            counts.not_in_mentor += 1;
            i += 1;
        }
        let Some(o) = own.get(i) else {
            return Err(format!(
                "mentor record {m_index} ({}) matches no own record from record {start} on: \
                 the mentor data must be a rescoring of the own data (`nnue label --in` it), \
                 in its order",
                m.fen()
            ));
        };
        i += 1;
        match (o.score(), m.score()) {
            (Some(own_cp), Some(mentor_cp)) => {
                out.push(o.with_score(blend_cp(own_cp, mentor_cp, mentor_weight, scale)));
                counts.blended += 1;
            }
            _ => counts.unscored += 1,
        }
    }
    counts.not_in_mentor += own.len() - i;
    Ok((out, counts))
}
