//! Who plays whom in a generation's tournament: `rounds` random pairings of the whole
//! population, each pair playing one opening twice with colours reversed, so every player
//! gets at least `2 * rounds` games from varied openings (seeded by the generation).

use rand::Rng;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// One game: population indices of White and Black and the opening's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// Population index of the player with White.
    pub white: usize,
    /// Population index of the player with Black.
    pub black: usize,
    /// Index of the opening in the book.
    pub opening: usize,
}

/// The generation's games for `players` organisms (`players >= 2`). With an odd count, the
/// player left over in a round meets a random other one, who then plays two more games.
pub fn fixtures(players: usize, rounds: usize, openings: usize, seed: u64) -> Vec<Fixture> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    if players < 2 || openings == 0 {
        return out;
    }
    for _ in 0..rounds {
        let mut order: Vec<usize> = (0..players).collect();
        order.shuffle(&mut rng);
        let mut pairs: Vec<(usize, usize)> = order.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        if players % 2 == 1 {
            let left = order[players - 1];
            let other = order[rng.random_range(0..players - 1)];
            pairs.push((left, other));
        }
        for (a, b) in pairs {
            let opening = rng.random_range(0..openings);
            out.push(Fixture {
                white: a,
                black: b,
                opening,
            });
            out.push(Fixture {
                white: b,
                black: a,
                opening,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_player_gets_both_colours_and_enough_games() {
        for players in [2, 7, 20] {
            let f = fixtures(players, 2, 50, 11);
            let mut games = vec![0usize; players];
            let mut white = vec![0usize; players];
            for g in &f {
                assert_ne!(g.white, g.black);
                games[g.white] += 1;
                games[g.black] += 1;
                white[g.white] += 1;
            }
            for p in 0..players {
                assert!(games[p] >= 4, "{players}: {games:?}");
                assert_eq!(2 * white[p], games[p]);
            }
            // Colour-reversed pairs share an opening.
            for pair in f.chunks(2) {
                assert_eq!(pair[0].opening, pair[1].opening);
                assert_eq!(
                    (pair[0].white, pair[0].black),
                    (pair[1].black, pair[1].white)
                );
            }
        }
        assert_eq!(fixtures(20, 2, 50, 11), fixtures(20, 2, 50, 11));
        assert_ne!(fixtures(20, 2, 50, 11), fixtures(20, 2, 50, 12));
        assert!(fixtures(1, 2, 50, 1).is_empty());
    }
}
