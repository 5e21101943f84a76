//! Starting a run from a trained network instead of random weights (`--init`): fine-tuning a
//! network on new data, as a new generation of self-play data arrives.

use super::model::{Layout, from_network};
use kestrel_nnue::{Network, file};
use serde::{Deserialize, Serialize};

/// The weights a training run starts from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartWeights {
    /// The network's source and the checksum of its bytes: part of the run's fingerprint, so
    /// a checkpoint is continued only from the same start.
    pub name: String,
    /// The flat parameters of the dequantised network ([`from_network`]); not serialised.
    #[serde(skip)]
    pub params: Vec<f32>,
}

impl StartWeights {
    /// The weights of `net` (read from `source`), refused unless its shape is `layout`'s.
    pub fn new(net: &Network, source: &str, layout: Layout) -> Result<StartWeights, String> {
        let shape = Layout {
            hidden: net.hidden,
            buckets: net.buckets,
            inputs: net.inputs,
        };
        if shape != layout {
            return Err(format!(
                "the network {source} has hidden {}, {} output buckets and {} king buckets; \
                 the run asks for hidden {}, {} output buckets and {} king buckets",
                shape.hidden,
                shape.buckets,
                shape.inputs.setting(),
                layout.hidden,
                layout.buckets,
                layout.inputs.setting()
            ));
        }
        Ok(StartWeights {
            name: format!("{source} fnv {:016x}", file::fnv1a64(&file::to_bytes(net))),
            params: from_network(&net.dequantise()),
        })
    }
}
