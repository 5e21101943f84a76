//! Tuning positions: several quiet positions per game of a PGN file, each with the game's
//! result, or the positions of an EPD file (result from a `c9`/`result` operation); then a
//! seeded train/test split by game, so the positions of one game never straddle it.

use crate::mentor::positions::{PickRules, open_games, pick_spread_from_game};
use kestrel_chess::{Board, read_epd_file};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::path::Path;

/// One tuning position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position (history cleared).
    pub board: Board,
    /// Which game (or EPD line) it came from: the unit of the train/test split.
    pub game: usize,
    /// The game's result from White's view (1, 0.5, 0), if known.
    pub result: Option<f64>,
    /// A split fixed by the file (`c0 "train"` / `c0 "test"` in EPD): `Some(true)` = test.
    pub tagged_test: Option<bool>,
}

/// What reading a PGN file found.
#[derive(Clone, Debug, Default)]
pub struct PgnStats {
    /// Games read, malformed ones included (at most `max_games`).
    pub games: usize,
    /// Games the PGN reader could not parse (skipped).
    pub malformed_games: usize,
    /// Games whose result is not 1-0, 0-1 or 1/2-1/2 (skipped).
    pub games_without_result: usize,
    /// Games with a result but no position passing the pick rules (no samples taken).
    pub games_without_candidate: usize,
}

/// A result token (`1-0`, `0-1`, `1/2-1/2`, or a number 1 / 0.5 / 0) as White's score;
/// `None` for an unfinished game (`*`) or anything else.
pub fn parse_result(token: &str) -> Option<f64> {
    match token.trim() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" | "½-½" => Some(0.5),
        t => t
            .parse::<f64>()
            .ok()
            .filter(|v| *v == 0.0 || *v == 0.5 || *v == 1.0),
    }
}

/// Up to `per_game` positions spread over each game with a result (`max_games`: read only the
/// first games of the file). No position appears twice in the whole set.
pub fn samples_from_pgn(
    path: &Path,
    per_game: usize,
    max_games: Option<usize>,
    rules: &PickRules,
    seed: u64,
) -> Result<(Vec<Sample>, PgnStats), String> {
    let games = open_games(path)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut stats = PgnStats::default();
    let mut taken = HashSet::new();
    let mut samples = Vec::new();
    for game in games {
        if max_games.is_some_and(|m| stats.games >= m) {
            break;
        }
        let index = stats.games;
        stats.games += 1;
        let Ok(game) = game else {
            stats.malformed_games += 1;
            continue;
        };
        let Some(result) = parse_result(&game.result) else {
            stats.games_without_result += 1;
            continue;
        };
        let boards = pick_spread_from_game(
            &game.start,
            &game.moves,
            rules,
            &mut taken,
            per_game,
            &mut rng,
        );
        if boards.is_empty() {
            stats.games_without_candidate += 1;
        }
        samples.extend(boards.into_iter().map(|board| Sample {
            board,
            game: index,
            result: Some(result),
            tagged_test: None,
        }));
    }
    if samples.is_empty() {
        return Err(format!(
            "no usable position in {} ({} games read, {} without a result)",
            path.display(),
            stats.games,
            stats.games_without_result
        ));
    }
    Ok((samples, stats))
}

/// Every position of an EPD file; each line is its own game. The result comes from a `c9` or
/// `result` operation when present; `c0 "train"`/`c0 "test"` fix the split.
pub fn samples_from_epd(path: &Path) -> Result<Vec<Sample>, String> {
    let (records, errors) = read_epd_file(path)
        .map_err(|e| format!("cannot read positions file {}: {e}", path.display()))?;
    if let Some((line, e)) = errors.first() {
        return Err(format!("{} line {line}: {e}", path.display()));
    }
    let mut samples = Vec::with_capacity(records.len());
    for (line, rec) in records {
        let first = |op: &str| rec.op(op).and_then(|v| v.first()).cloned();
        let result = match first("c9").or_else(|| first("result")) {
            None => None,
            Some(token) if token.trim() == "*" => None,
            Some(token) => Some(parse_result(&token).ok_or_else(|| {
                format!(
                    "{} line {line}: result '{token}' is not 1-0, 0-1, 1/2-1/2, 1, 0.5 or 0",
                    path.display()
                )
            })?),
        };
        let tagged_test = match first("c0").as_deref() {
            Some("train") => Some(false),
            Some("test") => Some(true),
            _ => None,
        };
        samples.push(Sample {
            board: rec.board,
            game: line,
            result,
            tagged_test,
        });
    }
    if samples.is_empty() {
        return Err(format!("{} holds no position", path.display()));
    }
    Ok(samples)
}

/// Whether a game goes to the test set: a hash of (seed, game) against the fraction, so the
/// choice depends on nothing but the game's index.
fn game_is_test(seed: u64, game: usize, test_fraction: f64) -> bool {
    let mut z = seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    ((z >> 11) as f64 / (1u64 << 53) as f64) < test_fraction
}

/// Whether a sample is held out: a split tagged in the file wins, else its game decides.
pub fn is_test(sample: &Sample, test_fraction: f64, seed: u64) -> bool {
    sample
        .tagged_test
        .unwrap_or_else(|| game_is_test(seed, sample.game, test_fraction))
}

/// Splits by game (seeded) into (train, test).
pub fn split_by_game(
    samples: Vec<Sample>,
    test_fraction: f64,
    seed: u64,
) -> (Vec<Sample>, Vec<Sample>) {
    samples
        .into_iter()
        .partition(|s| !is_test(s, test_fraction, seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_tokens() {
        assert_eq!(parse_result("1-0"), Some(1.0));
        assert_eq!(parse_result("0-1"), Some(0.0));
        assert_eq!(parse_result("1/2-1/2"), Some(0.5));
        assert_eq!(parse_result(" 0.5 "), Some(0.5));
        assert_eq!(parse_result("*"), None);
        assert_eq!(parse_result("0.7"), None);
        assert_eq!(parse_result("2-0"), None);
    }

    #[test]
    fn split_keeps_games_whole_and_is_near_the_fraction() {
        let samples: Vec<Sample> = (0..20_000)
            .map(|i| Sample {
                board: Board::startpos(),
                game: i / 10,
                result: None,
                tagged_test: None,
            })
            .collect();
        let (train, test) = split_by_game(samples.clone(), 0.1, 3);
        let train_games: HashSet<usize> = train.iter().map(|s| s.game).collect();
        assert!(test.iter().all(|s| !train_games.contains(&s.game)));
        assert!((1700..2300).contains(&test.len()), "{}", test.len());
        let (_, again) = split_by_game(samples.clone(), 0.1, 3);
        assert_eq!(
            test.iter().map(|s| s.game).collect::<Vec<_>>(),
            again.iter().map(|s| s.game).collect::<Vec<_>>()
        );
        let (_, other) = split_by_game(samples, 0.1, 4);
        assert_ne!(test.len(), 0);
        assert_ne!(
            test.iter().map(|s| s.game).collect::<Vec<_>>(),
            other.iter().map(|s| s.game).collect::<Vec<_>>()
        );
    }
}
