//! Elo of several players from few games (Bradley–Terry, draws as half points), chess-free:
//! players meet an anchor at 0 Elo (the reference engine, or a virtual average opponent) and
//! each other. Every player also gets one virtual drawn game against the anchor, a weak prior
//! that keeps a player who won or lost everything at a finite rating. The fit is a fixed
//! number of minorisation–maximisation steps (Hunter 2004) in input order, so the same games
//! give the same ratings on any machine.

/// Points of player `a` in `games` games against `b` (`None`: the anchor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meeting {
    /// The player scoring `points`.
    pub a: usize,
    /// Its opponent; `None` for the anchor.
    pub b: Option<usize>,
    /// Points `a` scored.
    pub points: f64,
    /// Games played.
    pub games: f64,
}

/// Ratings beyond this are reported at it (the GA's log needs finite numbers).
pub const ELO_CAP: f64 = 1000.0;

/// MM steps: far more than the few players and games of a generation need to settle.
const STEPS: usize = 500;

/// The expected score against an opponent `elo` below.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Every player's Elo against the anchor (0), capped at ±[`ELO_CAP`].
pub fn fit_elo(players: usize, meetings: &[Meeting]) -> Vec<f64> {
    // The prior: half a point of one game against the anchor.
    let mut wins = vec![0.5; players];
    for m in meetings {
        wins[m.a] += m.points;
        if let Some(b) = m.b {
            wins[b] += m.games - m.points;
        }
    }
    let mut gamma = vec![1.0f64; players];
    for _ in 0..STEPS {
        // Σ games / (γ_i + γ_opponent) over each player's games, the prior included.
        let mut denom: Vec<f64> = gamma.iter().map(|g| 1.0 / (g + 1.0)).collect();
        for m in meetings {
            let opp = m.b.map_or(1.0, |b| gamma[b]);
            let share = m.games / (gamma[m.a] + opp);
            denom[m.a] += share;
            if let Some(b) = m.b {
                denom[b] += share;
            }
        }
        for (g, (w, d)) in gamma.iter_mut().zip(wins.iter().zip(&denom)) {
            *g = (w / d).max(1e-12);
        }
    }
    gamma
        .iter()
        .map(|g| (400.0 * g.log10()).clamp(-ELO_CAP, ELO_CAP))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vs_anchor(a: usize, points: f64, games: f64) -> Meeting {
        Meeting {
            a,
            b: None,
            points,
            games,
        }
    }

    #[test]
    fn a_score_against_the_anchor_gives_its_logistic_elo() {
        // 75% of 200 games, plus the prior's half point of one: 150.5 / 201.
        let elo = fit_elo(1, &[vs_anchor(0, 150.0, 200.0)]);
        let s: f64 = 150.5 / 201.0;
        let want = 400.0 * (s / (1.0 - s)).log10();
        assert!((elo[0] - want).abs() < 1e-6, "{elo:?} vs {want}");
        // Everything lost stays finite; no games at all is the anchor's level.
        let lost = fit_elo(2, &[vs_anchor(0, 0.0, 8.0)]);
        assert!(lost[0] < -300.0 && lost[0] > -ELO_CAP, "{lost:?}");
        assert_eq!(lost[1], 0.0);
    }

    #[test]
    fn games_between_players_order_them_and_are_symmetric() {
        // 0 beats 1 by 6-2; both drew the anchor.
        let meetings = [
            vs_anchor(0, 2.0, 4.0),
            vs_anchor(1, 2.0, 4.0),
            Meeting {
                a: 0,
                b: Some(1),
                points: 6.0,
                games: 8.0,
            },
        ];
        let elo = fit_elo(2, &meetings);
        assert!(elo[0] > 30.0 && elo[1] < -30.0, "{elo:?}");
        assert!((elo[0] + elo[1]).abs() < 1e-6, "{elo:?}");
        // The same games written from the other side give the same ratings.
        let mirrored = [
            meetings[0],
            meetings[1],
            Meeting {
                a: 1,
                b: Some(0),
                points: 2.0,
                games: 8.0,
            },
        ];
        let again = fit_elo(2, &mirrored);
        assert!((again[0] - elo[0]).abs() < 1e-9 && (again[1] - elo[1]).abs() < 1e-9);
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
        assert!(expected_score(elo[0]) > 0.5);
    }
}
