//! The games GA's ledger of an external engine's games and faults (`faults.csv`): one row a
//! generation, rewritten with the log after each, so that a resumed run reports the whole
//! run's counts and not only those since the resume.

use super::ga::GameTally;
use crate::spsa::FaultKinds;
use std::collections::BTreeMap;
use std::path::Path;

/// The CSV header of `faults.csv`.
const HEADER: &str = "generation,games,crashes,hangs,illegal_moves,time_losses,pairs_replayed";

/// Games and faults by generation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaultLedger {
    rows: BTreeMap<u64, GameTally>,
}

impl FaultLedger {
    /// The ledger of `path` when resuming (empty when the file is absent), else an empty one.
    pub fn load(path: &Path, resume: bool) -> Result<FaultLedger, String> {
        if !resume || !path.exists() {
            return Ok(FaultLedger::default());
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        FaultLedger::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses the CSV that [`FaultLedger::render`] writes.
    pub fn parse(text: &str) -> Result<FaultLedger, String> {
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            return Err(format!("the first line is not '{HEADER}'"));
        }
        let mut rows = BTreeMap::new();
        for (no, line) in lines.enumerate() {
            let numbers: Vec<u64> = line
                .split(',')
                .map(|f| f.trim().parse::<u64>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("line {}: not 7 counts: '{line}'", no + 2))?;
            let [
                generation,
                games,
                crashes,
                hangs,
                illegal_moves,
                time_losses,
                replays,
            ] = numbers[..]
            else {
                return Err(format!("line {}: not 7 counts: '{line}'", no + 2));
            };
            let faults = FaultKinds {
                crashes,
                hangs,
                illegal_moves,
                time_losses,
                replays,
            };
            rows.insert(generation, GameTally { games, faults });
        }
        Ok(FaultLedger { rows })
    }

    /// Records `generation`'s tally; rows after it (left by a run killed past its checkpoint)
    /// are dropped. An empty tally (a generation restored from a checkpoint, no games) is
    /// not a row.
    pub fn record(&mut self, generation: u64, tally: GameTally) {
        if tally == GameTally::default() {
            return;
        }
        self.rows.split_off(&generation);
        self.rows.insert(generation, tally);
    }

    /// The whole run's games and faults.
    pub fn total(&self) -> GameTally {
        let mut total = GameTally::default();
        for t in self.rows.values() {
            total += *t;
        }
        total
    }

    /// The CSV text: a header and one row a generation.
    pub fn render(&self) -> String {
        let mut out = format!("{HEADER}\n");
        for (g, t) in &self.rows {
            let f = &t.faults;
            out.push_str(&format!(
                "{g},{},{},{},{},{},{}\n",
                t.games, f.crashes, f.hangs, f.illegal_moves, f.time_losses, f.replays
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(games: u64, crashes: u64) -> GameTally {
        GameTally {
            games,
            faults: FaultKinds {
                crashes,
                replays: crashes,
                ..FaultKinds::default()
            },
        }
    }

    #[test]
    fn rows_round_trip_and_add_up() {
        let mut ledger = FaultLedger::default();
        ledger.record(0, tally(48, 0));
        ledger.record(1, tally(48, 2));
        let again = FaultLedger::parse(&ledger.render()).unwrap();
        assert_eq!(again, ledger);
        assert_eq!(again.total(), tally(96, 2));
    }

    #[test]
    fn a_resumed_generation_replaces_the_rows_from_it_on() {
        let mut ledger = FaultLedger::default();
        for g in 0..4 {
            ledger.record(g, tally(10, 1));
        }
        // Killed after generation 3 was logged but checkpointed at 1: 2 is played again.
        ledger.record(2, GameTally::default());
        assert_eq!(
            ledger.total(),
            tally(40, 4),
            "an empty tally changes nothing"
        );
        ledger.record(2, tally(12, 0));
        assert_eq!(ledger.total(), tally(32, 2));
    }

    #[test]
    fn a_malformed_file_is_an_error_naming_the_line() {
        assert!(
            FaultLedger::parse("x\n")
                .unwrap_err()
                .contains("first line")
        );
        let bad = format!("{HEADER}\n0,48,0,0,0,0,0\n1,48,zero,0,0,0,0\n");
        assert!(FaultLedger::parse(&bad).unwrap_err().contains("line 3"));
        let short = format!("{HEADER}\n0,48,0\n");
        assert!(FaultLedger::parse(&short).unwrap_err().contains("line 2"));
    }
}
