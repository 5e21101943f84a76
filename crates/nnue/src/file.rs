//! The network file (`.knet`), little-endian throughout:
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `KSTRLNET` |
//! | 4 | format version (1) |
//! | 4 | architecture: 1 = perspective 768 -> N x2 -> 1, SCReLU; 2 = the same with B output buckets; 3 = the same with king-relative inputs (768·K, mirrored) |
//! | 4 | hidden size N (1 to [`MAX_HIDDEN`]) |
//! | 4 x 3 | QA, QB, evaluation scale (must equal the engine's constants) |
//! | 4 | *architectures 2 and 3:* output buckets B (1 to [`MAX_OUTPUT_BUCKETS`]) |
//! | 4 | *architecture 3 only:* king buckets K (one of [`crate::KING_BUCKET_CHOICES`]; see [`crate::InputLayout`]) |
//! | 2 x 768KN | first-layer weights, feature-major, `i16` (K = 1 before architecture 3) |
//! | 2 x N | first-layer biases, `i16` |
//! | 2 x 2N x B | output weights, bucket by bucket (side to move's N, then the other's), `i16` |
//! | 4 x B | output biases, `i32` |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! An architecture-1 file has one bucket (B = 1, no bucket word): the files written before
//! buckets existed read as they always did, and a one-bucket network is still written in
//! that form, byte for byte; a network with plain inputs is never written as architecture 3.
//! A file of any other length, magic, version, architecture, constant, bucket count or
//! checksum is refused with an error that says which.

use crate::arch::{EVAL_SCALE, QA, QB};
use crate::buckets::MAX_OUTPUT_BUCKETS;
use crate::inputs::InputLayout;
use crate::quantised::Network;
use std::path::Path;

/// The first eight bytes of every network file.
pub const MAGIC: &[u8; 8] = b"KSTRLNET";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The architecture id of the perspective SCReLU network (one output bucket).
pub const ARCH_PERSPECTIVE_SCRELU: u32 = 1;
/// The architecture id of the perspective SCReLU network with output buckets by material.
pub const ARCH_OUTPUT_BUCKETS: u32 = 2;
/// The architecture id of the perspective SCReLU network with king-relative inputs.
pub const ARCH_KING_BUCKETS: u32 = 3;
/// The largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// Magic and the six words every file has.
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

/// The file's bytes for `net`: architecture 1 for one bucket, 2 with its bucket word for more,
/// 3 with both bucket words for king-relative inputs.
pub fn to_bytes(net: &Network) -> Vec<u8> {
    let arch = if !net.inputs.is_plain() {
        ARCH_KING_BUCKETS
    } else if net.buckets == 1 {
        ARCH_PERSPECTIVE_SCRELU
    } else {
        ARCH_OUTPUT_BUCKETS
    };
    let mut out = Vec::with_capacity(file_len(arch, net.hidden, net.buckets, net.inputs));
    out.extend_from_slice(MAGIC);
    let mut words = vec![
        VERSION,
        arch,
        net.hidden as u32,
        QA as u32,
        QB as u32,
        EVAL_SCALE as u32,
    ];
    if arch != ARCH_PERSPECTIVE_SCRELU {
        words.push(net.buckets as u32);
    }
    if arch == ARCH_KING_BUCKETS {
        words.push(net.inputs.setting() as u32);
    }
    for v in words {
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
    for b in &net.out_bias {
        out.extend_from_slice(&b.to_le_bytes());
    }
    let sum = fnv1a64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The header's length for `arch` (which must be known).
fn header_len(arch: u32) -> usize {
    match arch {
        ARCH_OUTPUT_BUCKETS => HEADER_LEN + 4,
        ARCH_KING_BUCKETS => HEADER_LEN + 8,
        _ => HEADER_LEN,
    }
}

/// The whole file's length for a network of this shape (bounded: no overflow).
fn file_len(arch: u32, hidden: usize, buckets: usize, inputs: InputLayout) -> usize {
    header_len(arch)
        + 2 * (inputs.inputs() * hidden + hidden + 2 * hidden * buckets)
        + 4 * buckets
        + 8
}

/// What the header says: the hidden size, the output buckets and the inputs.
struct Shape {
    arch: u32,
    hidden: usize,
    buckets: usize,
    inputs: InputLayout,
}

/// Reads and checks the header of `bytes` (at least [`HEADER_LEN`] + 8 long).
fn read_header(bytes: &[u8]) -> Result<Shape, String> {
    if &bytes[..8] != MAGIC {
        return Err("wrong magic (not a .knet file)".into());
    }
    let word = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().unwrap());
    let (version, arch, hidden) = (word(0), word(1), word(2) as usize);
    if version != VERSION {
        return Err(format!(
            "format version {version}, this build reads {VERSION}"
        ));
    }
    if ![
        ARCH_PERSPECTIVE_SCRELU,
        ARCH_OUTPUT_BUCKETS,
        ARCH_KING_BUCKETS,
    ]
    .contains(&arch)
    {
        return Err(format!("unknown architecture {arch}"));
    }
    if hidden == 0 || hidden > MAX_HIDDEN {
        return Err(format!("hidden size {hidden} is not in 1..={MAX_HIDDEN}"));
    }
    let consts = [word(3), word(4), word(5)];
    if consts != [QA as u32, QB as u32, EVAL_SCALE as u32] {
        return Err(format!(
            "quantisation QA, QB, scale {consts:?}, this build uses [{QA}, {QB}, {EVAL_SCALE}]"
        ));
    }
    if bytes.len() < header_len(arch) + 8 {
        return Err(format!("{} bytes is shorter than a header", bytes.len()));
    }
    let buckets = if arch != ARCH_PERSPECTIVE_SCRELU {
        let b = word(6);
        if b == 0 || b as usize > MAX_OUTPUT_BUCKETS {
            return Err(format!(
                "output bucket count {b} is not in 1..={MAX_OUTPUT_BUCKETS}"
            ));
        }
        b as usize
    } else {
        1
    };
    let inputs = if arch == ARCH_KING_BUCKETS {
        InputLayout::king_buckets(word(7) as usize)?
    } else {
        InputLayout::PLAIN
    };
    Ok(Shape {
        arch,
        hidden,
        buckets,
        inputs,
    })
}

/// Reads a network from the file's bytes, checking every field.
pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetFileError> {
    let bad = |why: String| Err(NetFileError::Invalid(why));
    if bytes.len() < HEADER_LEN + 8 {
        return bad(format!("{} bytes is shorter than a header", bytes.len()));
    }
    let Shape {
        arch,
        hidden,
        buckets,
        inputs,
    } = read_header(bytes).map_err(NetFileError::Invalid)?;
    let expected = file_len(arch, hidden, buckets, inputs);
    if bytes.len() != expected {
        return bad(format!(
            "{} bytes, a network of hidden size {hidden}, {buckets} output bucket(s) and {} \
             inputs has {expected} (truncated or padded)",
            bytes.len(),
            inputs.inputs()
        ));
    }
    let body = &bytes[..expected - 8];
    let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().unwrap());
    if fnv1a64(body) != stored {
        return bad("checksum mismatch (the file is corrupt)".into());
    }
    let biases_at = body.len() - 4 * buckets;
    let mut i16s = body[header_len(arch)..biases_at]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut take = |n: usize| i16s.by_ref().take(n).collect::<Vec<i16>>();
    let ft_weights = take(inputs.inputs() * hidden);
    let ft_bias = take(hidden);
    let out_weights = take(2 * hidden * buckets);
    let out_bias = body[biases_at..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let net = Network {
        hidden,
        buckets,
        inputs,
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
