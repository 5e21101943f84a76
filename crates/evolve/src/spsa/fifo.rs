//! A batch's game pairs as single jobs on the rayon pool, queued first in first out. SPSA
//! with a lag has two or more batches in play, each asking the pool from a thread of its own;
//! with a `par_iter`, a pool thread that waits for the other half of its batch takes the next
//! batch's job meanwhile and returns to its own only after that whole job, so the batch is
//! applied late and the pool idles at the end of every second batch. Single jobs never wait
//! inside the pool: the pairs of the earlier batch start first, the later batch's fill every
//! thread that frees up, and each batch is done when its last pair is.

use std::ops::Range;

/// `job(i)` for every `i` of `range`, in order, each run as its own job on the rayon pool
/// (queued in order, so the pool starts them in order).
pub fn each_in_order<T: Send>(range: Range<usize>, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let mut slots: Vec<Option<T>> = range.clone().map(|_| None).collect();
    let job = &job;
    rayon::in_place_scope_fifo(|scope| {
        for (slot, i) in slots.iter_mut().zip(range) {
            scope.spawn_fifo(move |_| *slot = Some(job(i)));
        }
    });
    // The scope ends when every job has run (a job's panic is raised again here).
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_and_results_keep_their_order() {
        let out = each_in_order(3..40, |i| i * i);
        assert_eq!(out, (3..40).map(|i| i * i).collect::<Vec<_>>());
        assert!(each_in_order(5..5, |i| i).is_empty());
    }

    #[test]
    fn jobs_of_two_callers_share_the_pool() {
        // Two batches asked from two threads at once both finish with their own results.
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| each_in_order(0..64, |i| i + 1000));
            let b = s.spawn(|| each_in_order(0..64, |i| i + 2000));
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(a, (1000..1064).collect::<Vec<_>>());
        assert_eq!(b, (2000..2064).collect::<Vec<_>>());
    }
}
