//! Every expected count of the shared perft suites. The default run checks the counts up to a
//! node budget; `cargo test -p kestrel-chess --test perft_suite -- --ignored` checks them all
//! (including Kiwipete depth 6, 8 billion leaves).

use kestrel_chess::{EpdRecord, perft::perft, read_epd_file};
use std::path::Path;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/perft");

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
fn check_suite(file: &str, budget: u64) -> usize {
    let (records, errors) = read_epd_file(&Path::new(DATA).join(file)).unwrap();
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
    let checked = check_suite("perftsuite.epd", DEFAULT_BUDGET);
    assert_eq!(checked, 702);
}

#[test]
fn cpw_positions_within_budget() {
    let checked = check_suite("perft-cpw.epd", DEFAULT_BUDGET);
    assert_eq!(checked, 28);
}

#[test]
#[ignore = "all depths: about a minute in release"]
fn perftsuite_all_depths() {
    assert_eq!(check_suite("perftsuite.epd", u64::MAX), 755);
}

#[test]
#[ignore = "all depths incl. Kiwipete depth 6: minutes"]
fn cpw_positions_all_depths() {
    assert_eq!(check_suite("perft-cpw.epd", u64::MAX), 35);
}
