//! `--net FILE|builtin|linear`: the evaluation a command uses (default: Kestrel's default one,
//! the compiled-in network when the build carries it).

use kestrel_nnue::NetEval;
use std::sync::Arc;

/// The `--net` option shared by `bench`, `epd` and `eval`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct NetArgs {
    /// Evaluate with this network: a `.knet` file, `builtin` for the one compiled in, or
    /// `linear` for the linear evaluation (default: `builtin` in a build that carries a
    /// network, else `linear`).
    #[arg(long, value_name = "FILE")]
    pub net: Option<String>,
}

impl NetArgs {
    /// The evaluation asked for, loaded and checked: `None` is the linear evaluation.
    pub fn load(&self) -> anyhow::Result<Option<Arc<NetEval>>> {
        let spec = self
            .net
            .as_deref()
            .unwrap_or_else(|| kestrel_nnue::default_evaluation_name());
        kestrel_nnue::load_evaluation(spec)
            .map(|net| net.map(Arc::new))
            .map_err(|e| anyhow::anyhow!("--net {spec}: {e}"))
    }
}

/// One line describing a network, for stderr.
pub fn describe(net: &NetEval) -> String {
    format!(
        "network: {} ({}, {} kernel)",
        net.source(),
        net.shape(),
        net.kernel().name()
    )
}
