//! The network file (`.knet`), little-endian throughout:
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `KSTRLNET` |
//! | 4 | format version (1) |
//! | 4 | architecture (1: perspective 768 -> N x2 -> 1, SCReLU) |
//! | 4 | hidden size N (1 to [`MAX_HIDDEN`]) |
//! | 4 x 3 | QA, QB, evaluation scale (must equal the engine's constants) |
//! | 2 x 768N | first-layer weights, feature-major, `i16` |
//! | 2 x N | first-layer biases, `i16` |
//! | 2 x 2N | output weights, `i16` |
//! | 4 | output bias, `i32` |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! A file of any other length, magic, version, architecture, constant or checksum is refused
//! with an error that says which.

use crate::arch::{EVAL_SCALE, INPUTS, QA, QB};
use crate::quantised::Network;
use std::path::Path;

/// The first eight bytes of every network file.
pub const MAGIC: &[u8; 8] = b"KSTRLNET";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The architecture id of the perspective SCReLU network.
pub const ARCH_PERSPECTIVE_SCRELU: u32 = 1;
/// The largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 4096;
const HEADER_LEN: usize = 8 + 4 * 6;

/// Why a network file was refused.
#[derive(Debug, thiserror::Error)]
pub enum NetFileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The bytes are not a network this build can use.
    #[error("not a usable Kestrel network: {0}")]
    Invalid(String),
    /// The compiled-in network was asked for, and this build has none.
    #[error("{}", crate::builtin::NO_BUILTIN_NETWORK)]
    NoBuiltin,
}

/// FNV-1a, 64 bits: enough to catch a corrupt or truncated file.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The file's bytes for `net`.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + 2 * (INPUTS + 3) * net.hidden + 12);
    out.extend_from_slice(MAGIC);
    for v in [
        VERSION,
        ARCH_PERSPECTIVE_SCRELU,
        net.hidden as u32,
        QA as u32,
        QB as u32,
        EVAL_SCALE as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for w in net
        .ft_weights
        .iter()
        .chain(&net.ft_bias)
        .chain(&net.out_weights)
    {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&net.out_bias.to_le_bytes());
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads a network from the file's bytes, checking every field.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetFileError> {
    let bad = |why: String| Err(NetFileError::Invalid(why));
    if bytes.len() < HEADER_LEN + 8 {
        return bad(format!("{} bytes is shorter than a header", bytes.len()));
    }
    if &bytes[..8] != MAGIC {
        return bad("wrong magic (not a .knet file)".into());
    }
    let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
    let (version, arch, hidden) = (word(0), word(1), word(2) as usize);
    if version != VERSION {
        return bad(format!(
            "format version {version}, this build reads {VERSION}"
        ));
    }
    if arch != ARCH_PERSPECTIVE_SCRELU {
        return bad(format!("unknown architecture {arch}"));
    }
    if hidden == 0 || hidden > MAX_HIDDEN {
        return bad(format!("hidden size {hidden} is not in 1..={MAX_HIDDEN}"));
    }
    let consts = [word(3), word(4), word(5)];
    if consts != [QA as u32, QB as u32, EVAL_SCALE as u32] {
        return bad(format!(
            "quantisation QA, QB, scale {consts:?}, this build uses [{QA}, {QB}, {EVAL_SCALE}]"
        ));
    }
    let expected = HEADER_LEN + 2 * (INPUTS * hidden + 3 * hidden) + 4 + 8;
    if bytes.len() != expected {
        return bad(format!(
            "{} bytes, a network of hidden size {hidden} has {expected} (truncated or padded)",
            bytes.len()
        ));
    }
    let body = &bytes[..expected - 8];
    let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().unwrap());
    if fnv1a64(body) != stored {
        return bad("checksum mismatch (the file is corrupt)".into());
    }
    let mut i16s = body[HEADER_LEN..expected - 12]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut take = |n: usize| i16s.by_ref().take(n).collect::<Vec<i16>>();
    let ft_weights = take(INPUTS * hidden);
    let ft_bias = take(hidden);
    let out_weights = take(2 * hidden);
    let out_bias = i32::from_le_bytes(body[expected - 12..].try_into().unwrap());
    let net = Network {
        hidden,
        ft_weights,
        ft_bias,
        out_weights,
        out_bias,
    };
    debug_assert!(net.shape_is_consistent());
    Ok(net)
}

/// Reads a network file.
pub fn read(path: &Path) -> Result<Network, NetFileError> {
    let bytes = std::fs::read(path).map_err(|source| NetFileError::Io {
        path: path.display().to_string(),
        source,
    })?;
    from_bytes(&bytes).map_err(|e| match e {
        NetFileError::Invalid(why) => NetFileError::Invalid(format!("{}: {why}", path.display())),
        other => other,
    })
}

/// Writes a network file atomically (a temporary file beside it, then a rename).
pub fn write(path: &Path, net: &Network) -> Result<(), NetFileError> {
    let io = |source| NetFileError::Io {
        path: path.display().to_string(),
        source,
    };
    let tmp = path.with_extension("knet.tmp");
    std::fs::write(&tmp, to_bytes(net)).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}
