//! The per-generation log as CSV (rewritten whole, atomically, after every generation, so it
//! always matches the checkpoint).

use crate::GenerationStats;
use std::fmt::Write as _;

/// The log as CSV: a header, then one line per generation (`generation, best_objective,
/// mean_objective, best_fitness, mean_fitness, diversity, seconds`).
pub fn render_log_csv(history: &[GenerationStats]) -> String {
    let mut s = String::from(
        "generation,best_objective,mean_objective,best_fitness,mean_fitness,diversity,seconds\n",
    );
    for h in history {
        writeln!(
            s,
            "{},{:.4},{:.4},{:.8},{:.8},{:.4},{:.4}",
            h.generation,
            h.best_objective,
            h.mean_objective,
            h.best_fitness,
            h.mean_fitness,
            h.diversity,
            h.seconds
        )
        .expect("writing to a String cannot fail");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_generation() {
        let h = GenerationStats {
            generation: 3,
            best_objective: 28.5,
            mean_objective: 47.25,
            best_fitness: 1.0 / 28.5,
            mean_fitness: 0.02,
            diversity: 0.1,
            seconds: 0.01,
        };
        let csv = render_log_csv(&[h.clone(), GenerationStats { generation: 4, ..h }]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].starts_with("3,28.5000,47.2500,"));
        assert!(lines[2].starts_with("4,"));
    }
}
