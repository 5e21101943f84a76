//! Measurements beside an MNC run: the fitness games' speed on one thread and on the pool, and
//! the reference params files (Kestrel's tuned tables, a random organism) runs are measured by.

use crate::mnc::TournamentFitness;
use crate::mnc::store::params_text;
use crate::mnc::tables::{base_params, kestrel_chromosome, pst_space};
use kestrel_ga::{Genome, Purpose, RealGenome, stream_rng};
use kestrel_params::atomic::write_atomic;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

/// Plays about `games` fitness games between random organisms on one thread and on `threads`
/// threads; returns games per second (and the speed-up) as report lines.
pub fn bench_games(
    fitness: &TournamentFitness,
    games: usize,
    threads: usize,
) -> Result<String, String> {
    if games < 2 {
        return Err("--bench-games needs at least 2 games".into());
    }
    // A population that plays `games` games in one round: games / 2 pairs.
    let players = games.div_ceil(2) * 2 / fitness.spec.rounds.max(1);
    let players = players.max(2);
    let space = pst_space(0.05);
    let mut rng = stream_rng(1, 0, Purpose::Init);
    let genomes: Vec<RealGenome> = (0..players)
        .map(|_| RealGenome::random(&space, &mut rng))
        .collect();
    let time = |pool_threads: usize| -> Result<(u64, f64), String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(pool_threads)
            .build()
            .map_err(|e| e.to_string())?;
        let started = Instant::now();
        let (tallies, _) = pool.install(|| fitness.play(7, &genomes));
        let played: u64 = tallies.iter().map(|t| t.games).sum::<u64>() / 2;
        Ok((played, started.elapsed().as_secs_f64()))
    };
    let (n1, t1) = time(1)?;
    let mut report = format!(
        "1 thread          {n1} games in {t1:.2} s: {:.2} games/s\n",
        n1 as f64 / t1
    );
    if threads > 1 {
        let (n, t) = time(threads)?;
        let _ = writeln!(
            report,
            "{threads} threads         {n} games in {t:.2} s: {:.2} games/s ({:.2}x)",
            n as f64 / t,
            t1 / t
        );
    }
    Ok(report)
}

/// Writes `out/kestrel-tables.toml` (Kestrel's tuned tables in the organism's term set) and
/// `out/random-tables.toml` (a random organism of `seed`); returns a line per file.
pub fn write_references(out: &Path, seed: u64) -> Result<String, String> {
    let space = pst_space(0.05);
    let mut rng = stream_rng(seed, 0, Purpose::Init);
    let random = RealGenome::random(&space, &mut rng);
    let mut report = String::new();
    for (name, genome) in [
        ("kestrel-tables.toml", kestrel_chromosome()),
        ("random-tables.toml", random),
    ] {
        let path = out.join(name);
        write_atomic(&path, params_text(&genome, &base_params()).as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let _ = writeln!(report, "wrote {}", path.display());
    }
    Ok(report)
}
