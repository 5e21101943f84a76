//! Games as PGN, through the chess crate's writer.

use crate::game::GameRecord;
use kestrel_chess::PgnGame;
use std::path::Path;

impl GameRecord {
    /// The game with the Seven Tag Roster plus TimeControl, Opening and Termination (the
    /// writer adds SetUp/FEN for a non-standard start).
    pub fn to_pgn(&self, event: &str, round: usize) -> PgnGame {
        let mut tags = vec![
            ("Event".to_string(), event.to_string()),
            ("Site".to_string(), "Kestrel arena".to_string()),
            ("Date".to_string(), today()),
            ("Round".to_string(), round.to_string()),
            ("White".to_string(), self.white.clone()),
            ("Black".to_string(), self.black.clone()),
            ("Result".to_string(), self.result.pgn().to_string()),
            ("TimeControl".to_string(), self.limit.pgn_time_control()),
        ];
        if !self
            .limit
            .pgn_time_control()
            .contains(|c: char| c.is_ascii_digit())
        {
            tags.push(("Limit".to_string(), self.limit.to_string()));
        }
        if let Some(name) = &self.opening.name {
            tags.push(("Opening".to_string(), name.clone()));
        }
        tags.push(("PlyCount".to_string(), self.all_moves().len().to_string()));
        tags.push(("Termination".to_string(), self.termination.to_string()));
        PgnGame {
            tags,
            start: self.opening.start.clone(),
            moves: self.all_moves(),
            result: self.result.pgn().to_string(),
        }
    }
}

/// Writes games (numbered from 1) to one PGN file, atomically.
pub fn write_pgn_file(path: &Path, event: &str, games: &[GameRecord]) -> std::io::Result<()> {
    let mut text = String::new();
    for (i, g) in games.iter().enumerate() {
        text.push_str(&g.to_pgn(event, i + 1).to_pgn_string());
        text.push('\n');
    }
    kestrel_params::atomic::write_atomic(path, text.as_bytes())
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a Gregorian date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-03-01 is day 11017; 2024-02-29 is day 19782.
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }
}
