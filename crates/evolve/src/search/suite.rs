//! Tactical suites for the search GA: EPD lines with `bm` and/or `am`, read from files and
//! split into train and test halves by a seeded shuffle.

use kestrel_chess::{EpdRecord, parse_epd_text};
use kestrel_tools::epd_suite::{SuitePosition, positions_from_records};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Usable EPD lines of a suite (each one parses and has a `bm` or `am` with legal moves).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteLines {
    /// The usable EPD lines, in file order.
    pub lines: Vec<String>,
    /// `file:line: why` for every line left out.
    pub skipped: Vec<String>,
}

/// Reads the usable lines of `paths`, in order; lines that cannot be used are listed in
/// `skipped`. Fails when a file cannot be read or no line is usable.
pub fn read_suites(paths: &[&Path]) -> Result<SuiteLines, String> {
    let mut out = SuiteLines::default();
    for path in paths {
        let text = kestrel_tools::data::read_text(path)
            .map_err(|e| format!("cannot read suite {}: {e}", path.display()))?;
        let (records, errors) = parse_epd_text(&text);
        for (line, err) in errors {
            out.skipped
                .push(format!("{}:{line}: {err}", path.display()));
        }
        let texts: Vec<(usize, String)> = records.iter().map(|(l, r)| (*l, r.to_line())).collect();
        let (_, problems) = positions_from_records(records);
        let bad: Vec<usize> = problems.iter().map(|(l, _)| *l).collect();
        for (line, why) in problems {
            out.skipped
                .push(format!("{}:{line}: {why}", path.display()));
        }
        out.lines.extend(
            texts
                .into_iter()
                .filter(|(l, _)| !bad.contains(l))
                .map(|(_, t)| t),
        );
    }
    if out.lines.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!(
            "no usable test position (EPD with bm or am) in {}",
            names.join(", ")
        ));
    }
    Ok(out)
}

/// Parses EPD lines into test positions; fails on the first line that is not usable.
pub fn parse_positions(lines: &[String]) -> Result<Vec<SuitePosition>, String> {
    let mut records = Vec::with_capacity(lines.len());
    for (i, text) in lines.iter().enumerate() {
        let rec = EpdRecord::parse(text).map_err(|e| format!("suite line {}: {e}", i + 1))?;
        records.push((i + 1, rec));
    }
    let (positions, problems) = positions_from_records(records);
    if let Some((line, why)) = problems.first() {
        return Err(format!("suite line {line}: {why}"));
    }
    Ok(positions)
}

/// Splits lines into (train, test) by a shuffle seeded with `seed`: `test_fraction` of them
/// (rounded, at least one of each when there are two or more) go to the test half.
pub fn split(lines: &[String], test_fraction: f64, seed: u64) -> (Vec<String>, Vec<String>) {
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let n = lines.len();
    let mut n_test = ((n as f64) * test_fraction.clamp(0.0, 1.0)).round() as usize;
    if n >= 2 {
        n_test = n_test.clamp(1, n - 1);
    }
    let (test_idx, train_idx) = order.split_at(n_test.min(n));
    let pick = |idx: &[usize]| {
        let mut idx = idx.to_vec();
        idx.sort_unstable();
        idx.into_iter().map(|i| lines[i].clone()).collect()
    };
    (pick(train_idx), pick(test_idx))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_is_seeded_disjoint_and_complete() {
        let lines: Vec<String> = (0..10).map(|i| format!("l{i}")).collect();
        let (train, test) = split(&lines, 0.5, 3);
        assert_eq!((train.len(), test.len()), (5, 5));
        assert_eq!(split(&lines, 0.5, 3), (train.clone(), test.clone()));
        assert_ne!(split(&lines, 0.5, 4).0, train);
        let mut all: Vec<String> = train.into_iter().chain(test).collect();
        all.sort();
        let mut want = lines.clone();
        want.sort();
        assert_eq!(all, want);
    }

    #[test]
    fn files_without_usable_positions_are_an_error() {
        let dir = std::env::temp_dir().join(format!("kestrel-suite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("none.epd");
        std::fs::write(
            &path,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"no bm\";\nnot an epd\n",
        )
        .unwrap();
        let err = read_suites(&[&path]).unwrap_err();
        assert!(err.contains("no usable test position"), "{err}");
        std::fs::write(
            &path,
            "6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#; id \"m1\";\n6k1/8/8/8/8/8/8/4R1K1 w - - bm Qh5;\n",
        )
        .unwrap();
        let ok = read_suites(&[&path]).unwrap();
        assert_eq!(ok.lines.len(), 1);
        assert_eq!(ok.skipped.len(), 1);
        assert_eq!(parse_positions(&ok.lines).unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
