//! SPSA (simultaneous perturbation stochastic approximation) as fishtest and OpenBench run it:
//! each iteration plays θ + c_k·Δ against θ − c_k·Δ (Δ = ±1 per parameter, fresh each
//! iteration) and moves θ by `a_k / c_k · (W − L) · Δ`, with `c_k = c / k^γ` and
//! `a_k = a / (A + k)^α`. The chess-free core ([`schedule`], [`step`], [`state`], [`run`],
//! [`report`]) takes any [`run::Objective`]; [`chess`] is the one that plays game pairs.

pub mod chess;
pub mod faults;
pub mod fifo;
pub mod pairs;
mod pipeline;
pub mod remote;
pub mod report;
pub mod run;
pub mod schedule;
pub mod state;
pub mod step;

pub use faults::FaultKinds;
pub use run::{Duel, DuelPoints, Objective, run_spsa};
pub use schedule::{SpsaParam, SpsaSettings};
pub use state::{SpsaRow, SpsaState};
