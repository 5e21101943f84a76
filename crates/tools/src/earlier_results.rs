//! The results of a match's earlier part, given as counts (`W,D,L:LL,LD,WL+DD,WD,WW`, the
//! figures a match report prints), so that a match or an SPRT can be continued on a machine
//! that no longer holds the earlier part's journal. The earlier part's games are games
//! `0..n` of the match; the continuation plays from game `n` on, with the same openings an
//! uninterrupted match would use, and every statistic (and the SPRT's decision) counts both
//! parts.

use crate::pentanomial::Penta;
use crate::spec_parse::comma_separated_counts as counts;
use crate::stats::Wdl;

/// Counts of complete pairs played before this run: games `0..games()` of the match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EarlierResults {
    /// Engine A's wins, draws and losses in the earlier games.
    pub wdl: Wdl,
    /// Engine A's pairs in the earlier games.
    pub penta: Penta,
}

impl EarlierResults {
    /// Games the earlier part played (twice its pairs).
    pub fn games(&self) -> usize {
        self.wdl.games() as usize
    }

    /// Parses `W,D,L:LL,LD,WL+DD,WD,WW` and checks that the two sets of counts describe the
    /// same complete pairs: as many games, as many points, and a draw count the pairs can
    /// hold. The middle pentanomial count is split into WL and DD by the draws.
    pub fn parse(text: &str) -> Result<EarlierResults, String> {
        let format = "expected W,D,L:LL,LD,WL+DD,WD,WW (e.g. 150,108,142:29,35,61,49,26)";
        let (wdl_text, penta_text) = text
            .split_once(':')
            .ok_or_else(|| format!("'{text}': {format}"))?;
        let [wins, draws, losses] = counts::<3>(wdl_text).map_err(|e| format!("{e}; {format}"))?;
        let [ll, ld, mid, wd, ww] =
            counts::<5>(penta_text).map_err(|e| format!("{e}; {format}"))?;
        let games = wins + draws + losses;
        let pairs = ll + ld + mid + wd + ww;
        if games != 2 * pairs {
            return Err(format!(
                "{games} games in W,D,L but {pairs} pairs ({} games) in the pentanomial counts",
                2 * pairs
            ));
        }
        // Half-points: a win is 2, a draw 1; a pair scores 0, 1, 2, 3 or 4.
        let half_points_wdl = 2 * wins + draws;
        let half_points_penta = ld + 2 * mid + 3 * wd + 4 * ww;
        if half_points_wdl != half_points_penta {
            return Err(format!(
                "W,D,L score {} points but the pairs score {}",
                half_points_wdl as f64 / 2.0,
                half_points_penta as f64 / 2.0
            ));
        }
        // Draws: one in each LD and WD pair, two in each DD pair.
        let dd_draws = draws
            .checked_sub(ld + wd)
            .filter(|d| d % 2 == 0 && d / 2 <= mid)
            .ok_or_else(|| {
                format!("{draws} draws cannot be spread over pairs LD {ld}, WL+DD {mid}, WD {wd}")
            })?;
        let dd = dd_draws / 2;
        Ok(EarlierResults {
            wdl: Wdl::new(wins, draws, losses),
            penta: Penta {
                ll,
                ld,
                wl: mid - dd,
                dd,
                wd,
                ww,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_line_parses_into_consistent_counts() {
        let e = EarlierResults::parse("150,108,142:29,35,61,49,26").unwrap();
        assert_eq!(e.games(), 400);
        assert_eq!(e.wdl, Wdl::new(150, 108, 142));
        assert_eq!(e.penta.five(), [29, 35, 61, 49, 26]);
        // 108 draws: 35 in LD, 49 in WD, the other 24 in 12 DD pairs.
        assert_eq!((e.penta.dd, e.penta.wl), (12, 49));
        assert!((e.penta.score() - e.wdl.score()).abs() < 1e-12);
    }

    #[test]
    fn counts_that_disagree_are_refused() {
        for (text, why) in [
            ("150,108,142", "expected"),
            ("150,108:29,35,61,49,26", "3 are needed"),
            ("150,108,142:29,35,61,49", "5 are needed"),
            ("150,x,142:29,35,61,49,26", "not a count"),
            ("151,108,142:29,35,61,49,26", "pairs"),
            ("151,108,141:29,35,61,49,26", "points"),
            ("150,110,140:29,35,62,48,26", "points"),
            ("170,68,162:29,35,61,49,26", "draws cannot"),
            ("100,208,92:29,35,61,49,26", "draws cannot"),
        ] {
            let err = EarlierResults::parse(text).unwrap_err();
            assert!(err.contains(why), "{text}: {err}");
        }
    }
}
