//! Which evaluation a `--net` / `net=` / `EvalFile` value selects, and Kestrel's default one:
//! the compiled-in network when the build carries it, the linear evaluation otherwise.

use crate::builtin::has_builtin_network;
use crate::file::NetFileError;
use crate::inference::NetEval;

/// The value that selects the linear evaluation instead of a network.
pub const LINEAR: &str = "linear";

/// The evaluation `spec` names: `None` for [`LINEAR`], else the network it loads
/// (a `.knet` path, or one of [`crate::BUILTIN_NAMES`]).
pub fn load_evaluation(spec: &str) -> Result<Option<NetEval>, NetFileError> {
    if spec.trim() == LINEAR {
        return Ok(None);
    }
    NetEval::load(spec).map(Some)
}

/// The evaluation Kestrel plays with when none is named: the compiled-in network, or the
/// linear evaluation (`None`) in a build without one.
pub fn default_evaluation() -> Result<Option<NetEval>, NetFileError> {
    if has_builtin_network() {
        NetEval::load("builtin").map(Some)
    } else {
        Ok(None)
    }
}

/// The name of [`default_evaluation`] as `--net` would spell it (`builtin` or [`LINEAR`]).
pub fn default_evaluation_name() -> &'static str {
    if has_builtin_network() {
        "builtin"
    } else {
        LINEAR
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_selects_no_network() {
        assert!(load_evaluation("linear").unwrap().is_none());
        assert!(load_evaluation(" linear ").unwrap().is_none());
    }

    #[test]
    fn a_missing_file_is_an_error_not_the_linear_evaluation() {
        let err = load_evaluation("/nonexistent/net.knet").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/net.knet"), "{err}");
    }

    #[test]
    fn the_default_follows_the_build() {
        let default = default_evaluation().unwrap();
        assert_eq!(default.is_some(), has_builtin_network());
        let named = load_evaluation(default_evaluation_name()).unwrap();
        assert_eq!(named.map(|n| n.hidden()), default.map(|n| n.hidden()));
    }
}
