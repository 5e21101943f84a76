//! Perft speed: `cargo bench -p kestrel-bench --bench perft`.

use criterion::{Criterion, criterion_group, criterion_main};
use kestrel_chess::{Board, perft::perft};
use std::hint::black_box;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    let mut start = Board::startpos();
    group.bench_function("startpos depth 4 (197281 leaves)", |b| {
        b.iter(|| perft(black_box(&mut start), 4))
    });
    let mut kiwipete = Board::from_fen(KIWIPETE).unwrap();
    group.bench_function("kiwipete depth 3 (97862 leaves)", |b| {
        b.iter(|| perft(black_box(&mut kiwipete), 3))
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
