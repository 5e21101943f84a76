//! The engine's version string: the crate version and the commit it was built from.

/// The commit of the build (`unknown` outside a git checkout).
pub const COMMIT: &str = env!("KESTREL_COMMIT");

/// `0.1.0 (commit 1234abcd56)`: what `kestrel --version` prints and the UCI `id name` carries.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("KESTREL_COMMIT"),
    ")"
);
