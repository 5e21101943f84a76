//! Every expected count of the shared perft suites (the CPW positions ship as a fixture; the
//! classic suite is skipped without the shared data). The default run checks the counts up to a
//! node budget; `cargo test -p kestrel-chess --test chess perft_suite -- --ignored` checks them all
//! (including Kiwipete depth 6, 8 billion leaves).

use kestrel_chess::{EpdRecord, perft::perft, read_epd_file};
use std::path::Path;

/// Counts above this many leaves are left to the ignored test.
const DEFAULT_BUDGET: u64 = 5_000_000;

fn expected(record: &EpdRecord) -> Vec<(u32, u64)> {
    record
        .ops
        .iter()
        .filter_map(|(op, args)| {
            let depth = op.strip_prefix('D')?.parse().ok()?;
            Some((depth, args[0].parse().expect("count is a number")))
        })
        .collect()
}

/// Returns the number of counts checked.
fn check_suite(path: &Path, budget: u64) -> usize {
    let file = path.display();
    let (records, errors) = read_epd_file(path).unwrap();
    assert!(errors.is_empty(), "{file}: {errors:?}");
    let mut checked = 0;
    for (line, record) in records {
        let mut board = record.board.clone();
        for (depth, count) in expected(&record) {
            if count > budget {
                continue;
            }
            assert_eq!(
                perft(&mut board, depth),
                count,
                "{file}:{line} depth {depth} [{}]",
                record.board.to_fen()
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perftsuite_within_budget() {
    let suite = kestrel_testdata::shared_or_skip!("perft/perftsuite.epd");
    let checked = check_suite(&suite, DEFAULT_BUDGET);
    assert_eq!(checked, 702);
}

#[test]
fn cpw_positions_within_budget() {
    let checked = check_suite(&kestrel_testdata::fixture("perft-cpw.epd"), DEFAULT_BUDGET);
    assert_eq!(checked, 28);
}

#[test]
#[ignore = "all depths: about a minute in release"]
fn perftsuite_all_depths() {
    let suite = kestrel_testdata::shared_or_skip!("perft/perftsuite.epd");
    assert_eq!(check_suite(&suite, u64::MAX), 755);
}

#[test]
#[ignore = "all depths incl. Kiwipete depth 6: minutes"]
fn cpw_positions_all_depths() {
    let cpw = kestrel_testdata::fixture("perft-cpw.epd");
    assert_eq!(check_suite(&cpw, u64::MAX), 35);
}
