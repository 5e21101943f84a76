//! The network compiled into the binary: `crates/nnue/nets/default.knet` when that file
//! existed at build time (`build.rs` sets the `kestrel_builtin_net` cfg), none otherwise.

use crate::file::{self, NetFileError};
use crate::quantised::Network;

/// What a build without a compiled-in network says when asked for it.
pub const NO_BUILTIN_NETWORK: &str = "this build has no built-in network (crates/nnue/nets/default.knet was absent when it was built)";

#[cfg(kestrel_builtin_net)]
const EMBEDDED: Option<&[u8]> = Some(include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/nets/default.knet"
)));
#[cfg(not(kestrel_builtin_net))]
const EMBEDDED: Option<&[u8]> = None;

/// Whether this build carries a network.
pub fn has_builtin_network() -> bool {
    EMBEDDED.is_some()
}

/// The compiled-in network, or [`NO_BUILTIN_NETWORK`] as the error.
pub fn builtin_network() -> Result<Network, NetFileError> {
    network_from_embedded(EMBEDDED)
}

/// The network in embedded bytes, checked like any file.
fn network_from_embedded(bytes: Option<&[u8]>) -> Result<Network, NetFileError> {
    let bytes = bytes.ok_or(NetFileError::NoBuiltin)?;
    file::from_bytes(bytes)
        .map_err(|e| NetFileError::Invalid(format!("the built-in network is unusable: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs in a build that carries `nets/default.knet`: the shipped network must load.
    #[cfg(kestrel_builtin_net)]
    #[test]
    fn the_compiled_in_network_loads() {
        let net = builtin_network().expect("the shipped network is usable");
        let eval = crate::NetEval::load("<builtin>").expect("and runs on the kernels");
        assert_eq!(eval.hidden(), net.hidden);
        assert_eq!(eval.source(), "builtin");
    }

    #[test]
    fn embedded_bytes_are_read_like_a_file() {
        let mut net = Network {
            hidden: 4,
            buckets: 1,
            inputs: crate::InputLayout::PLAIN,
            ft_weights: vec![0; crate::INPUTS * 4],
            ft_bias: vec![3, -2, 0, 255],
            out_weights: vec![1, 2, 3, 4, -1, -2, -3, -4],
            out_bias: vec![17],
        };
        net.ft_weights[5] = 9;
        // The bytes a build would embed, written to and read back from a file as `build.rs`
        // finds them.
        let dir = std::env::temp_dir().join(format!("kestrel-builtin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("default.knet");
        file::write(&path, &net).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(network_from_embedded(Some(&bytes)).unwrap(), net);
        let err = network_from_embedded(Some(&bytes[1..])).unwrap_err();
        assert!(
            err.to_string().contains("built-in network is unusable"),
            "{err}"
        );
        let none = network_from_embedded(None).unwrap_err();
        assert!(none.to_string().contains("no built-in network"), "{none}");
        assert_eq!(has_builtin_network(), builtin_network().is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
