//! UCI option declarations and value parsing: the engine declares its options with the one
//! model of `kestrel_tools::uci_options` (typed, range-checked, with clear messages), which
//! the tuners also read other engines' declarations with.

pub use kestrel_tools::uci_options::{OptionValue, UciOptionDecl, UciOptionKind};
