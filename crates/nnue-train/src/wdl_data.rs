//! Samples for the win/draw/loss model of `UCI_ShowWDL` (`kestrel_tools::wdl_fit`) from
//! training data: each scored record gives (score, material, the game's result for the side to
//! move). Records are in game order, so the last part of a file, cut at a game's start, is held
//! out for validation.

use crate::format::{Outcome, PackedPosition};
use crate::progress::{RunError, read_data};
use kestrel_search::wdl::piece_material;
use kestrel_tools::wdl_fit::WdlSample;
use std::path::Path;

/// The sample of one record: the score and the game's result both from the side to move's
/// view (the score is stored so, the result from White's). `None` when the record is unscored
/// or its score is beyond `max_cp` either way.
pub fn wdl_sample(record: &PackedPosition, max_cp: i32) -> Option<WdlSample> {
    let cp = i32::from(record.score()?);
    if cp.abs() > max_cp {
        return None;
    }
    let outcome = match record.outcome() {
        Outcome::Draw => 0,
        result if result == Outcome::win_for(record.side_to_move()) => 1,
        _ => -1,
    };
    Some(WdlSample {
        cp: f64::from(cp),
        material: record.pieces().map(|(_, p)| piece_material(p.kind)).sum(),
        outcome,
    })
}

/// Whether `next` cannot be a later position of `prev`'s game: another result, an earlier
/// move number, or more pieces on the board.
pub fn starts_new_game(prev: &PackedPosition, next: &PackedPosition) -> bool {
    next.outcome() != prev.outcome()
        || next.fullmove_number() < prev.fullmove_number()
        || next.occupancy().count() > prev.occupancy().count()
}

/// The games in `records` (in game order), counted by [`starts_new_game`]: consecutive games
/// with the same result whose boundary shows neither sign count as one, so this is a lower
/// bound, close to the truth in self-play data.
pub fn count_games(records: &[PackedPosition]) -> usize {
    let boundaries = records
        .windows(2)
        .filter(|pair| starts_new_game(&pair[0], &pair[1]))
        .count();
    boundaries + usize::from(!records.is_empty())
}

/// Where the validation part of `records` begins: at the first game start from the last
/// `fraction` of the records on (so no game is split between the parts), or at that record
/// itself if no game starts after it. `records.len()` (no validation) for a fraction of 0.
pub fn validation_start(records: &[PackedPosition], fraction: f64) -> usize {
    let n = records.len();
    if fraction <= 0.0 || n == 0 {
        return n;
    }
    let cut = ((n as f64 * (1.0 - fraction)).round() as usize).clamp(1, n);
    (cut..n)
        .find(|&i| starts_new_game(&records[i - 1], &records[i]))
        .unwrap_or(cut)
}

/// The samples of a data file, split into a training and a validation part.
#[derive(Clone, Debug)]
pub struct WdlData {
    /// Samples of the records before the validation part.
    pub train: Vec<WdlSample>,
    /// Samples of the last records (see [`validation_start`]).
    pub validation: Vec<WdlSample>,
    /// Records read.
    pub records: usize,
    /// Games in the records ([`count_games`]).
    pub games: usize,
    /// Records in the validation part.
    pub validation_records: usize,
    /// Games in the validation part.
    pub validation_games: usize,
    /// Records left out: unscored, or scored beyond the fit's limit.
    pub left_out: usize,
}

/// The samples of `records`, the last `validation_fraction` of them (cut at a game's start)
/// held out; scores beyond `max_cp` are left out.
pub fn split_samples(records: &[PackedPosition], validation_fraction: f64, max_cp: i32) -> WdlData {
    let start = validation_start(records, validation_fraction);
    let samples = |part: &[PackedPosition]| -> Vec<WdlSample> {
        part.iter().filter_map(|r| wdl_sample(r, max_cp)).collect()
    };
    let train = samples(&records[..start]);
    let validation = samples(&records[start..]);
    let left_out = records.len() - train.len() - validation.len();
    WdlData {
        train,
        validation,
        records: records.len(),
        games: count_games(records),
        validation_records: records.len() - start,
        validation_games: count_games(&records[start..]),
        left_out,
    }
}

/// The samples of a data path (a `.kpos` file, or a run folder: see [`read_data`]); a file
/// that is missing, truncated or corrupt, or holds no scored position, is an error.
pub fn load_wdl_data(
    path: &Path,
    validation_fraction: f64,
    max_cp: i32,
) -> Result<WdlData, RunError> {
    let records = read_data(path)?;
    let data = split_samples(&records, validation_fraction, max_cp);
    if data.train.is_empty() {
        return Err(RunError::Input(format!(
            "{}: no scored position within ±{max_cp} cp among {} records{}",
            path.display(),
            data.records,
            if data.validation.is_empty() {
                ""
            } else {
                " before the validation part"
            }
        )));
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::Board;

    fn record(fen: &str, score: i16, outcome: Outcome) -> PackedPosition {
        PackedPosition::pack(&Board::from_fen(fen).unwrap(), score, outcome)
    }

    #[test]
    fn scores_and_results_are_taken_from_the_side_to_move() {
        // Black to move, a rook up: the stored +480 is Black's view, and Black won.
        let black = record("4k3/8/8/8/8/8/r7/4K3 b - - 0 40", 480, Outcome::BlackWin);
        let sample = wdl_sample(&black, 2000).unwrap();
        assert_eq!((sample.cp, sample.material, sample.outcome), (480.0, 5, 1));
        // The same game seen from White to move: White's -480, a loss for the mover.
        let white = record("4k3/8/8/8/8/8/r7/4K3 w - - 0 41", -480, Outcome::BlackWin);
        let sample = wdl_sample(&white, 2000).unwrap();
        assert_eq!((sample.cp, sample.outcome), (-480.0, -1));
        let won_by_white = record("4k3/8/8/8/8/8/r7/4K3 b - - 0 40", -300, Outcome::WhiteWin);
        assert_eq!(wdl_sample(&won_by_white, 2000).unwrap().outcome, -1);
        let drawn = record("4k3/8/8/8/8/8/r7/4K3 b - - 0 40", 20, Outcome::Draw);
        assert_eq!(wdl_sample(&drawn, 2000).unwrap().outcome, 0);
        let start = Board::startpos();
        assert_eq!(
            wdl_sample(&PackedPosition::pack(&start, 0, Outcome::Draw), 2000)
                .unwrap()
                .material,
            78
        );
    }

    #[test]
    fn unscored_and_decided_records_are_left_out() {
        let fen = "4k3/8/8/8/8/8/r7/4K3 b - - 0 40";
        assert!(wdl_sample(&record(fen, crate::format::NO_SCORE, Outcome::Draw), 2000).is_none());
        assert!(wdl_sample(&record(fen, 2001, Outcome::BlackWin), 2000).is_none());
        assert!(wdl_sample(&record(fen, -2001, Outcome::WhiteWin), 2000).is_none());
        assert!(wdl_sample(&record(fen, -2000, Outcome::WhiteWin), 2000).is_some());
    }

    #[test]
    fn the_validation_part_starts_with_a_game() {
        // Three games: won by White (3 records), drawn (3), won by White again from a fuller
        // board (4); a game boundary is found by result, move number or piece count.
        let game = |fen_moves: &[(&str, u16)], outcome| -> Vec<PackedPosition> {
            fen_moves
                .iter()
                .map(|(fen, n)| record(&format!("{fen} w - - 0 {n}"), 10, outcome))
                .collect()
        };
        let full = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        let bare = "4k3/8/8/8/8/8/8/4K2R";
        let mut records = game(&[(full, 5), (full, 6), (bare, 30)], Outcome::WhiteWin);
        records.extend(game(&[(full, 6), (bare, 7), (bare, 40)], Outcome::Draw));
        records.extend(game(
            &[(full, 40), (full, 41), (bare, 42), (bare, 43)],
            Outcome::WhiteWin,
        ));
        assert_eq!(count_games(&records), 3);
        assert_eq!(validation_start(&records, 0.1), 9); // no game starts after record 9
        assert_eq!(validation_start(&records, 0.5), 6); // cut at record 5: the third game
        assert_eq!(validation_start(&records, 0.0), 10);
        let data = split_samples(&records, 0.5, 2000);
        assert_eq!((data.train.len(), data.validation.len()), (6, 4));
        assert_eq!((data.games, data.validation_games), (3, 1));
        assert_eq!(data.left_out, 0);
    }
}
