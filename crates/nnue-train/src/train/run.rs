//! A training run: epochs of shuffled mini-batches with Adam, the validation loss and a
//! checkpoint after each, then the quantised network (`net.knet`) and how far its integer
//! scores lie from the float network's.

use super::adam::{Adam, Clip, Schedule};
use super::chart::write_loss_chart;
use super::checkpoint::{self, Header, LogRow};
use super::data::{Target, TrainData};
use super::mirror::Sample;
use super::model::{Features, Layout, Scratch, centipawns, forward, init_params, to_network};
use super::start::StartWeights;
use super::step::{Loss, Workspace, batch_gradient, mean_loss};
use crate::format::PackedPosition;
use crate::progress::{RunError, other_settings};
use crate::selfplay::game_seed;
use kestrel_nnue::{EVAL_SCALE, FloatNetwork, Network};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// The checkpoint file of a training folder.
pub const CHECKPOINT_FILE: &str = "checkpoint.bin";
/// The quantised network a training run writes.
pub const NET_FILE: &str = "net.knet";

/// Everything that decides a training run's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainConfig {
    /// Neurons per perspective.
    pub hidden: usize,
    /// Passes over the training set.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Peak learning rate.
    pub lr: f32,
    /// Warm-up steps.
    pub warmup_steps: u64,
    /// The final learning rate as a fraction of the peak (cosine decay).
    pub final_lr_factor: f32,
    /// Weight of the score in the target (the rest is the game's result).
    pub lambda: f32,
    /// K: centipawns per unit of the sigmoid's argument.
    pub scale: f32,
    /// Share of positions held out for validation.
    pub validation_fraction: f64,
    /// Seed of the initial weights, the split and the shuffles.
    pub seed: u64,
    /// Present training positions without castling rights mirrored left-right in a seeded
    /// half of the epochs (see [`super::mirror`]). Left out of the fingerprint when off, so
    /// checkpoints of runs without it still resume.
    #[serde(default, skip_serializing_if = "is_off")]
    pub mirror: bool,
    /// Output buckets by material (`kestrel_nnue::output_bucket`; 1 = none). Left out of the
    /// fingerprint at 1, so checkpoints of runs from before the option still resume.
    #[serde(default = "one_bucket", skip_serializing_if = "is_one_bucket")]
    pub output_buckets: usize,
    /// King buckets of king-relative, mirrored inputs (`kestrel_nnue::InputLayout`; 0 =
    /// the plain inputs). Left out of the fingerprint at 0, so earlier checkpoints resume.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub king_buckets: usize,
    /// How the validation positions were drawn (they are loaded by the caller); left out of
    /// the fingerprint for single positions, the split of every run before this setting.
    #[serde(default, skip_serializing_if = "is_positions")]
    pub holdout: super::data::Holdout,
    /// Weights to start from instead of random ones drawn from `seed` (fine-tuning); left
    /// out of the fingerprint when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<StartWeights>,
}

impl TrainConfig {
    /// The shape of the network this run trains.
    pub fn layout(&self) -> Result<Layout, String> {
        Ok(Layout {
            hidden: self.hidden,
            buckets: self.output_buckets,
            inputs: kestrel_nnue::InputLayout::from_setting(self.king_buckets)?,
        })
    }
}

fn is_positions(holdout: &super::data::Holdout) -> bool {
    *holdout == super::data::Holdout::Positions
}

fn is_zero(value: &usize) -> bool {
    *value == 0
}

fn is_off(flag: &bool) -> bool {
    !flag
}

fn one_bucket() -> usize {
    1
}

fn is_one_bucket(buckets: &usize) -> bool {
    *buckets == 1
}

/// What a training run measured.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// One row per epoch (all epochs, resumed ones included).
    pub log: Vec<LogRow>,
    /// The trained network.
    pub network: FloatNetwork,
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// Positions dropped for lacking a score.
    pub unscored: usize,
    /// Training positions per second in this call's epochs.
    pub positions_per_second: f64,
    /// Mean and largest |float − quantised| over the validation set, in centipawns.
    pub quantisation_error: (f64, f64),
    /// Mean |network − score| over the validation set, centipawns (scored positions).
    pub validation_mean_abs_cp: f64,
    /// Epochs done by an earlier call (0 for a fresh run).
    pub resumed_at: usize,
}

fn fingerprint(config: &TrainConfig, data: &TrainData) -> String {
    format!(
        "{} data {:016x} {}+{}",
        serde_json::to_string(config).expect("config serialises"),
        data.fingerprint,
        data.train.len(),
        data.validation.len()
    )
}

/// Trains (or continues training) in `dir` on `data`, calling `on_epoch` after every epoch's
/// checkpoint; when it returns `false` the run stops there (as if killed) and `None` is
/// returned.
pub fn run_train(
    dir: &Path,
    config: &TrainConfig,
    data: &TrainData,
    on_epoch: &dyn Fn(&LogRow) -> bool,
) -> Result<Option<TrainReport>, RunError> {
    if !(1..=kestrel_nnue::MAX_OUTPUT_BUCKETS).contains(&config.output_buckets) {
        return Err(RunError::Input(format!(
            "{} output buckets: a network has 1 to {}",
            config.output_buckets,
            kestrel_nnue::MAX_OUTPUT_BUCKETS
        )));
    }
    let layout = config.layout().map_err(RunError::Input)?;
    let fp = fingerprint(config, data);
    let ckpt_path = dir.join(CHECKPOINT_FILE);
    let (mut header, mut params, mut adam) = if ckpt_path.exists() {
        let (header, params, adam) = checkpoint::load(&ckpt_path, layout.len())?;
        if header.fingerprint != fp {
            return Err(other_settings(dir, &header.fingerprint));
        }
        (header, params, adam)
    } else {
        let header = Header {
            fingerprint: fp,
            epochs_done: 0,
            log: Vec::new(),
        };
        (
            header,
            start_params(config, layout)?,
            Adam::new(layout.len()),
        )
    };
    let resumed_at = header.epochs_done;
    let steps_per_epoch = data.train.len().div_ceil(config.batch) as u64;
    let schedule = Schedule {
        lr: config.lr,
        warmup_steps: config.warmup_steps,
        total_steps: steps_per_epoch * config.epochs as u64,
        final_factor: config.final_lr_factor,
    };
    let loss = Loss {
        target: Target {
            lambda: config.lambda,
            scale: config.scale,
        },
        out_factor: EVAL_SCALE as f32 / config.scale,
    };
    let mut ws = Workspace::new(layout, config.batch);
    let clip = Clip {
        output_start: layout.out_weights(),
    };
    let started = Instant::now();
    for epoch in header.epochs_done..config.epochs {
        let t0 = Instant::now();
        let mut order = epoch_samples(config, layout.inputs.is_plain(), data, epoch as u64);
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(game_seed(
            config.seed,
            epoch as u64,
        )));
        let mut sum = 0.0;
        let mut lr = 0.0;
        for batch in order.chunks(config.batch) {
            sum += batch_gradient(layout, &params, batch, &loss, &mut ws);
            lr = schedule.rate(adam.step);
            adam.update(&mut params, &ws.grad, lr, clip);
        }
        let row = LogRow {
            epoch: epoch + 1,
            train_loss: sum / data.train.len() as f64,
            validation_loss: mean_loss(layout, &params, &data.validation, &loss),
            lr,
            seconds: t0.elapsed().as_secs_f64(),
        };
        header.log.push(row.clone());
        header.epochs_done = epoch + 1;
        checkpoint::save(&ckpt_path, &header, &params, &adam)?;
        write_log(dir, &header.log)?;
        write_loss_chart(&dir.join("loss.svg"), &header.log).map_err(RunError::Input)?;
        if !on_epoch(&row) {
            return Ok(None);
        }
    }
    let trained = (config.epochs - resumed_at) * data.train.len();
    let network = to_network(layout, &params);
    let quantised = Network::quantise(&network).map_err(|e| RunError::Input(e.to_string()))?;
    kestrel_nnue::file::write(&dir.join(NET_FILE), &quantised)
        .map_err(|e| RunError::Input(e.to_string()))?;
    Ok(Some(TrainReport {
        log: header.log,
        positions: (data.train.len(), data.validation.len()),
        unscored: data.unscored,
        positions_per_second: trained as f64 / started.elapsed().as_secs_f64().max(1e-9),
        quantisation_error: quantisation_error(layout, &params, &quantised, &data.validation),
        validation_mean_abs_cp: mean_abs_cp(layout, &params, &data.validation),
        network,
        resumed_at,
    }))
}

/// A fresh run's parameters: the start network's, or random ones drawn from the seed.
fn start_params(config: &TrainConfig, layout: Layout) -> Result<Vec<f32>, RunError> {
    match &config.start {
        None => Ok(init_params(layout, config.seed)),
        Some(start) if start.params.len() == layout.len() => Ok(start.params.clone()),
        Some(start) => Err(RunError::Input(format!(
            "the start network {} has {} parameters; the run's network has {}",
            start.name,
            start.params.len(),
            layout.len()
        ))),
    }
}

/// The training positions of `epoch` in file order, each mirrored or not (the shuffle comes
/// after, so the draws do not depend on it). King-relative inputs are mirrored already: with
/// them (`plain_inputs` false) nothing is drawn.
fn epoch_samples<'a>(
    config: &TrainConfig,
    plain_inputs: bool,
    data: &'a TrainData,
    epoch: u64,
) -> Vec<Sample<'a>> {
    let mirror = config.mirror && plain_inputs;
    data.train
        .iter()
        .enumerate()
        .map(|(i, r)| Sample::for_epoch(r, mirror, config.seed, epoch, i as u64))
        .collect()
}

fn write_log(dir: &Path, log: &[LogRow]) -> Result<(), RunError> {
    let mut text = String::from("epoch,train_loss,validation_loss,lr,seconds\n");
    for r in log {
        text.push_str(&format!(
            "{},{:.8},{:.8},{:.6e},{:.2}\n",
            r.epoch, r.train_loss, r.validation_loss, r.lr, r.seconds
        ));
    }
    let path = dir.join("log.csv");
    kestrel_params::atomic::write_atomic(&path, text.as_bytes()).map_err(|e| RunError::Progress {
        path,
        why: e.to_string(),
    })
}

/// Mean and largest |float − quantised| in centipawns over `records`.
pub fn quantisation_error(
    layout: Layout,
    params: &[f32],
    net: &Network,
    records: &[PackedPosition],
) -> (f64, f64) {
    let diffs: Vec<f64> = records
        .par_iter()
        .map_init(
            || Scratch::new(layout.hidden),
            |scratch, r| {
                let f = Features::of(r, layout.inputs);
                let float = centipawns(forward(layout, params, &f, scratch)) as f64;
                let us: Vec<usize> = f.us[..f.len].iter().map(|&x| x as usize).collect();
                let them: Vec<usize> = f.them[..f.len].iter().map(|&x| x as usize).collect();
                let (us, them) = (net.accumulate(&us), net.accumulate(&them));
                let int = net.output(&us, &them, f.bucket(net.buckets)) as f64;
                (float - int).abs()
            },
        )
        .collect();
    let max = diffs.iter().copied().fold(0.0, f64::max);
    (diffs.iter().sum::<f64>() / diffs.len().max(1) as f64, max)
}

/// Mean |network − stored score| in centipawns over the scored `records`.
pub fn mean_abs_cp(layout: Layout, params: &[f32], records: &[PackedPosition]) -> f64 {
    let diffs: Vec<f64> = records
        .par_iter()
        .filter_map(|r| r.score().map(|s| (r, s)))
        .map_init(
            || Scratch::new(layout.hidden),
            |scratch, (r, s)| {
                let cp = centipawns(forward(
                    layout,
                    params,
                    &Features::of(r, layout.inputs),
                    scratch,
                ));
                (cp as f64 - s as f64).abs()
            },
        )
        .collect();
    diffs.iter().sum::<f64>() / diffs.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small network's settings, one output bucket.
    fn small_config(mirror: bool) -> TrainConfig {
        TrainConfig {
            hidden: 8,
            epochs: 1,
            batch: 64,
            lr: 0.001,
            warmup_steps: 0,
            final_lr_factor: 0.05,
            lambda: 1.0,
            scale: 400.0,
            validation_fraction: 0.1,
            seed: 1,
            mirror,
            output_buckets: 1,
            king_buckets: 0,
            holdout: Default::default(),
            start: None,
        }
    }

    #[test]
    fn mirror_off_leaves_the_settings_fingerprint_as_it_was() {
        let mut config = small_config(false);
        let off = serde_json::to_string(&config).unwrap();
        assert!(!off.contains("mirror"), "{off}");
        assert_eq!(serde_json::from_str::<TrainConfig>(&off).unwrap(), config);
        config.mirror = true;
        let on = serde_json::to_string(&config).unwrap();
        assert!(on.ends_with(r#""seed":1,"mirror":true}"#), "{on}");
    }

    #[test]
    fn one_output_bucket_leaves_the_settings_fingerprint_as_it_was() {
        let mut config = small_config(true);
        let one = serde_json::to_string(&config).unwrap();
        assert!(one.ends_with(r#""seed":1,"mirror":true}"#), "{one}");
        assert_eq!(serde_json::from_str::<TrainConfig>(&one).unwrap(), config);
        config.output_buckets = 8;
        let eight = serde_json::to_string(&config).unwrap();
        assert!(
            eight.ends_with(r#""mirror":true,"output_buckets":8}"#),
            "{eight}"
        );
        assert_eq!(serde_json::from_str::<TrainConfig>(&eight).unwrap(), config);
    }
}
