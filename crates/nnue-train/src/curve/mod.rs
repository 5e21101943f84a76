//! The network's strength curve: Elo against the linear evaluation as the training data and the
//! hidden size grow, read from a file of measured points ([`points`]) and drawn as an SVG chart
//! ([`chart`]), so the next data or width step is chosen from a measurement (docs/nnue.md).

pub mod chart;
pub mod points;

pub use chart::write_curve_chart;
pub use points::{CurvePoint, parse_points, read_points};
