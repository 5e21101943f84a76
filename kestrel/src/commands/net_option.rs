//! `--net FILE`: the network a command evaluates with instead of the linear evaluation.

use kestrel_nnue::NetEval;
use std::sync::Arc;

/// The `--net` option shared by `bench`, `epd` and `eval`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct NetArgs {
    /// Evaluate with this network: a `.knet` file, or `builtin` for the one compiled in
    /// (without it: the linear evaluation).
    #[arg(long, value_name = "FILE")]
    pub net: Option<String>,
}

impl NetArgs {
    /// The network asked for, loaded and checked (`None` without `--net`).
    pub fn load(&self) -> anyhow::Result<Option<Arc<NetEval>>> {
        self.net.as_deref().map(load_net).transpose()
    }
}

/// Loads a network named as `--net` names it, with an error that names the flag.
pub fn load_net(spec: &str) -> anyhow::Result<Arc<NetEval>> {
    NetEval::load(spec)
        .map(Arc::new)
        .map_err(|e| anyhow::anyhow!("--net {spec}: {e}"))
}

/// One line describing a network, for stderr.
pub fn describe(net: &NetEval) -> String {
    format!(
        "network: {} (hidden {}, {} kernel)",
        net.source(),
        net.hidden(),
        net.kernel().name()
    )
}
