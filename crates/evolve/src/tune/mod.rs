//! Gradient ("Texel") tuning of the whole evaluation: the evaluation is exactly linear in its
//! parameters (`kestrel_eval::trace`), so σ(eval) against a mentor's scores and/or game results
//! is a smooth function of ~900 values, fitted with Adam on the full-batch gradient.

pub mod checkpoint;
pub mod data;
pub mod fit;
pub mod model;
pub mod optimise;
pub mod prepare;
pub mod run;
pub mod targets;
