//! The integration tests of the rules, one module per subject, built as one binary
//! (one link and one copy of the generic code instead of one per file).

mod board_rules;
mod chess960;
mod differential;
mod differential960;
mod epd;
mod fen_validation;
mod move_checks;
mod perft_quick;
mod perft_suite;
mod pgn;
mod playout;
mod robustness;
mod san;
