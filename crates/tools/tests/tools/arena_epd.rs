//! The EPD runner on a real suite: parallel runs give the same answers as sequential ones.

use kestrel_chess::read_epd_file;
use kestrel_search::EngineConfig;
use kestrel_tools::epd_suite::{EpdLimit, positions_from_records, run_suite};
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn bratko_kopec_parallel_equals_sequential() {
    let path = kestrel_testdata::fixture("bk.epd");
    let (records, errors) = read_epd_file(&path).unwrap();
    assert!(errors.is_empty());
    let (positions, problems) = positions_from_records(records);
    assert_eq!((positions.len(), problems.len()), (24, 0));
    let config = EngineConfig::default();
    let calls = AtomicUsize::new(0);
    let count = |_: &_| {
        calls.fetch_add(1, Ordering::Relaxed);
    };
    let one = run_suite(&positions, &config, EpdLimit::Nodes(3000), 1, &count);
    let two = run_suite(&positions, &config, EpdLimit::Nodes(3000), 2, &count);
    assert_eq!(calls.load(Ordering::Relaxed), 48);
    for (a, b) in one.outcomes.iter().zip(&two.outcomes) {
        assert_eq!(a.id, b.id);
        assert_eq!(a.chosen, b.chosen, "{}", a.id);
        assert_eq!(a.nodes_to_solution, b.nodes_to_solution, "{}", a.id);
    }
    assert_eq!(one.solved(), two.solved());
    // Unsolved positions count the full node limit (the search may overshoot it slightly).
    for o in one.outcomes.iter().filter(|o| !o.solved) {
        assert!(o.nodes_to_solution >= 3000, "{o:?}");
    }
    for o in one.outcomes.iter().filter(|o| o.solved) {
        assert!(o.nodes_to_solution <= o.nodes, "{o:?}");
    }
    assert_eq!(
        one.total_nodes_to_solution(),
        one.outcomes
            .iter()
            .map(|o| o.nodes_to_solution)
            .sum::<u64>()
    );
}
