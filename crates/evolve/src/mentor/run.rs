//! The whole expert-driven experiment: positions → mentor labels → GA from random → best
//! organism, with its train and test error, a params file, a log and a chart. Its steps live
//! beside it: `data` (positions and labels), `evolution` (the GA, in process or on Ray) and
//! `errors` (the final errors); `settings` and `outcome` hold what goes in and comes out.

use crate::mentor::data::{LabelledData, data_hash, labelled_data};
use crate::mentor::errors::{per_mentor_errors, static_error};
use crate::mentor::evolution::{evolve_organisms, start_ray};
use crate::mentor::fitness::{LabelledSet, MentorFitness};
use crate::mentor::organism::with_fields;
use kestrel_eval::EVAL_TABLE;
use kestrel_ga::{GenerationStats, StopReason, write_chart};
use kestrel_params::{BitSchema, ParamValues, ParamsFile};
use std::time::Instant;

pub use crate::mentor::outcome::{MentorError, MentorRunReport};
pub use crate::mentor::settings::{
    BUILTIN_POSITIONS, MentorRunConfig, MentorSpec, ParamSet, PositionsSource,
};

/// What the GA left: its generations' figures, why it stopped, the last population's field
/// values (organism-major), where it ran and how long it took.
struct Evolved {
    history: Vec<GenerationStats>,
    stop: StopReason,
    organisms: Vec<f64>,
    executor: String,
    ga_seconds: f64,
}

/// Runs the whole experiment in `cfg.out_dir` and reports the best organism.
pub fn run_mentor(cfg: &MentorRunConfig) -> Result<MentorRunReport, String> {
    std::fs::create_dir_all(&cfg.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", cfg.out_dir.display()))?;
    let data = labelled_data(cfg)?;
    let schema = cfg.set.schema(cfg.coding);
    let base = ParamValues::zeros(&EVAL_TABLE);
    let data_id = format!(
        "{} | {:?} | data {:016x}",
        data.key,
        cfg.set,
        data_hash(&data.train, &data.train_labels)
    );
    let fitness = MentorFitness {
        schema: schema.clone(),
        train: LabelledSet::new(&data.train, data.train_labels.clone(), &schema, &base),
        sample: cfg.sample,
        data_id,
    };
    let evolved = evolve(cfg, &schema, &fitness, &data)?;
    report(cfg, data, &schema, &fitness, evolved)
}

/// Runs the GA (on Ray when asked, shut down before returning) and draws its chart.
fn evolve(
    cfg: &MentorRunConfig,
    schema: &BitSchema,
    fitness: &MentorFitness,
    data: &LabelledData,
) -> Result<Evolved, String> {
    let ray = match &cfg.ray {
        Some(opts) => Some(start_ray(
            cfg,
            opts,
            fitness,
            &data.train,
            &data.train_labels,
        )?),
        None => None,
    };
    let executor = ray.as_ref().map_or("in process".to_string(), |r| {
        format!("Ray, {} workers", r.workers())
    });
    let log_path = cfg.out_dir.join("log.csv");
    let start = Instant::now();
    let (history, stop, organisms) =
        evolve_organisms(cfg, schema, fitness, ray.as_ref(), &log_path)?;
    let ga_seconds = start.elapsed().as_secs_f64();
    drop(ray); // shuts Ray down before the final, in-process scoring
    write_chart(
        &cfg.out_dir.join("evolution.svg"),
        &history,
        "mean |error| vs mentor (cp)",
    )?;
    Ok(Evolved {
        history,
        stop,
        organisms,
        executor,
        ga_seconds,
    })
}

/// The final organism (the last generation's best on the whole training set), saved as
/// `best.toml`, with its errors beside the hand-tuned values' and the linear floor.
fn report(
    cfg: &MentorRunConfig,
    data: LabelledData,
    schema: &BitSchema,
    fitness: &MentorFitness,
    evolved: Evolved,
) -> Result<MentorRunReport, String> {
    let base = ParamValues::zeros(&EVAL_TABLE);
    let test_set = LabelledSet::new(&data.test, data.test_labels.clone(), schema, &base);
    let train_errors = fitness.train.mean_errors(&evolved.organisms, None);
    let best = (0..train_errors.len())
        .min_by(|&a, &b| train_errors[a].total_cmp(&train_errors[b]).then(a.cmp(&b)))
        .expect("non-empty population");
    let k = schema.fields.len();
    let best_fields = &evolved.organisms[best * k..(best + 1) * k];
    let test_error = if test_set.is_empty() {
        f64::NAN
    } else {
        test_set.mean_errors(best_fields, None)[0]
    };
    let best_ints: Vec<i32> = best_fields.iter().map(|&v| v as i32).collect();
    let best_values = with_fields(schema, &base, &best_ints);
    let params_path = cfg.out_dir.join("best.toml");
    ParamsFile::save(&params_path, &[&best_values])
        .map_err(|e| format!("cannot write {}: {e}", params_path.display()))?;
    let (train, test) = (&data.train, &data.test);
    let (train_labels, test_labels) = (&data.train_labels, &data.test_labels);
    let per_mentor = per_mentor_errors(
        &data.keys,
        &data.per_mentor,
        &data.labels,
        data.n_train,
        (train, test),
        (train_labels, test_labels),
        &best_values,
    );
    let handtuned = ParamValues::defaults(&EVAL_TABLE);
    let handtuned_set = schema.decode(&schema.encode(&handtuned), &base);
    let floor = (schema.fields.len() <= crate::mentor::floor::MAX_TERMS).then(|| {
        crate::mentor::floor::linear_floor(schema, (train, train_labels), (test, test_labels), 30)
    });
    Ok(MentorRunReport {
        floor,
        per_mentor,
        mentor_key: data.key.clone(),
        executor: evolved.executor,
        train_positions: train.len(),
        test_positions: test.len(),
        dropped_mates: data.dropped_mates,
        dropped_failures: data.dropped_failures,
        labels: data.label_stats.clone(),
        ga_seconds: evolved.ga_seconds,
        generations: evolved.history.len(),
        stop: evolved.stop,
        best: best_values,
        train_error: train_errors[best],
        test_error,
        first_generation_best: evolved.history[0].best_objective,
        handtuned_error: (
            static_error(&handtuned, train, train_labels),
            static_error(&handtuned, test, test_labels),
        ),
        handtuned_set_error: (
            static_error(&handtuned_set, train, train_labels),
            static_error(&handtuned_set, test, test_labels),
        ),
        params_path,
        log_path: cfg.out_dir.join("log.csv"),
        chart_path: cfg.out_dir.join("evolution.svg"),
    })
}
