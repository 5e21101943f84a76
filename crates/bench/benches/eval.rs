//! Speed of the full and the compact evaluation and of trace extraction, on positions from real
//! GM games. The compact evaluator skips the feature groups whose weights are all zero.
//!
//! `cargo bench -p kestrel-bench --bench eval`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kestrel_eval::{EVAL_TABLE, EvalCache, Evaluator, compact_values, trace};
use kestrel_params::ParamValues;
use rayon::prelude::*;
use std::hint::black_box;

// The evaluation tests' positions: every position of the first GM games (the 40-game fixture on
// a clone without `../shared/data`).
#[path = "../../eval/tests/common/mod.rs"]
mod common;
use common::game_positions;

fn bench_evaluate(c: &mut Criterion) {
    let positions = game_positions(10_000, 1);
    let full = Evaluator::default();
    let compact = Evaluator::new(compact_values(&ParamValues::defaults(&EVAL_TABLE)));
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for (name, eval) in [
        ("full_eval_10k_positions", &full),
        ("compact_eval_10k_positions", &compact),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| eval.evaluate(black_box(p)) as i64)
                    .sum::<i64>()
            })
        });
    }
    // Through the search's caches: with a one-entry evaluation table every position misses it
    // (they are all different) and only the pawn-structure table works, as on a search's
    // first visit to a position; with a large one every position hits after the first pass.
    let mut pawns_only = EvalCache::new(1, 1 << 12);
    group.bench_function("full_eval_pawn_cache_10k_positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| full.evaluate_cached(black_box(p), &mut pawns_only) as i64)
                .sum::<i64>()
        })
    });
    let mut both = EvalCache::new(1 << 16, 1 << 12);
    group.bench_function("full_eval_cache_hits_10k_positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| full.evaluate_cached(black_box(p), &mut both) as i64)
                .sum::<i64>()
        })
    });
    group.finish();
    eprintln!(
        "pawn-cache hit rate on consecutive game positions: {:.1}%",
        100.0 * pawns_only.stats().pawn_hit_rate()
    );
}

fn bench_trace_serial(c: &mut Criterion) {
    let positions = game_positions(10_000, 1);
    let mut group = c.benchmark_group("trace");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("serial_traces_10k_positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| trace(black_box(p)).entries.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn bench_trace(c: &mut Criterion) {
    let positions = game_positions(100_000, 1);
    let mut group = c.benchmark_group("trace");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("parallel_traces_100k_positions", |b| {
        b.iter(|| {
            positions
                .par_iter()
                .map(|p| trace(black_box(p)).entries.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_evaluate, bench_trace_serial, bench_trace);
criterion_main!(benches);
