//! The paper's strength table: a random organism (RandOrg), the evolved organism (Evol*) and
//! the expert (Kestrel's hand-tuned evaluation) play each other with the same search, from
//! the same openings, each opening once with each colour.

use crate::mentor::run::ParamSet;
use kestrel_eval::{EVAL_TABLE, Evaluator};
use kestrel_ga::{BitGenome, BitSpace, Genome};
use kestrel_params::{Coding, ParamValues};
use kestrel_search::EngineConfig;
use kestrel_tools::game::GameRecord;
use kestrel_tools::match_runner::GameDone;
use kestrel_tools::stats::EloSummary;
use kestrel_tools::{EngineSpec, GameSettings, MatchSettings, Opening, run_match};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// A random organism of the compact set, as the GA's first generation would draw it.
pub fn random_organism(seed: u64) -> ParamValues {
    let schema = ParamSet::Compact.schema(Coding::Binary);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let genome = BitGenome::random(
        &BitSpace {
            len: schema.bit_len(),
        },
        &mut rng,
    );
    schema.decode(&genome.0, &ParamValues::zeros(&EVAL_TABLE))
}

fn engine(name: &str, params: ParamValues) -> EngineSpec {
    EngineSpec::builtin(
        name,
        EngineConfig {
            hash_mb: 16,
            threads: 1,
            evaluator: Evaluator::new(params),
            ..EngineConfig::default()
        },
    )
}

/// One line of the table: first engine's result against the second.
#[derive(Clone, Debug)]
pub struct PairingResult {
    /// Name of the first engine (e.g. `Evol*`).
    pub first: String,
    /// Name of the second engine (e.g. `RandOrg`).
    pub second: String,
    /// Score and Elo estimate of the first engine against the second.
    pub summary: EloSummary,
    /// How each side searched: under a clock, a cheaper evaluation shows up as more nodes per
    /// second and a deeper search (the paper's Evol* speed bonus).
    pub first_search: SearchStats,
    /// The second engine's search work.
    pub second_search: SearchStats,
}

/// One player's search work summed over its moves in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Moves the player searched.
    pub moves: u64,
    /// Nodes searched over all those moves.
    pub nodes: u64,
    /// Search time over all those moves.
    pub time: Duration,
    /// Sum of the completed search depths (plies) of all those moves.
    pub depth_sum: u64,
}

impl SearchStats {
    /// Nodes per second over all moves (0 when no time was measured).
    pub fn nps(&self) -> f64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        }
    }

    /// Mean completed search depth per move.
    pub fn mean_depth(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.depth_sum as f64 / self.moves as f64
        }
    }

    /// Adds the moves `name` played in `game` (engines alternate from the opening's side to
    /// move).
    pub fn add_game(&mut self, name: &str, game: &GameRecord) {
        let first_mover = game.opening.position().side_to_move();
        let (white, black) = (game.white == name, game.black == name);
        for (ply, info) in game.infos.iter().enumerate() {
            let mover = if ply % 2 == 0 {
                first_mover
            } else {
                first_mover.flip()
            };
            let ours = match mover {
                kestrel_chess::Color::White => white,
                kestrel_chess::Color::Black => black,
            };
            if ours {
                self.moves += 1;
                self.nodes += info.nodes;
                self.time += info.time;
                self.depth_sum += info.depth.max(0) as u64;
            }
        }
    }
}

/// The hand-tuned values of the compact set alone (every other term zero): what Evol* would be
/// if a person had tuned the same 35 parameters.
pub fn hand_tuned_compact() -> ParamValues {
    let schema = ParamSet::Compact.schema(Coding::Binary);
    let defaults = ParamValues::defaults(&EVAL_TABLE);
    schema.decode(&schema.encode(&defaults), &ParamValues::zeros(&EVAL_TABLE))
}

/// One line of the strength table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// The expert (hand-tuned evaluation) against a random organism.
    ExpertRandOrg,
    /// The evolved organism against a random organism.
    EvolRandOrg,
    /// The evolved organism against the expert.
    EvolExpert,
    /// Evol* against the hand-tuned values of the same 35 parameters.
    EvolHand35,
}

impl Pairing {
    /// The paper's three lines.
    pub const PAPER: [Pairing; 3] = [
        Pairing::ExpertRandOrg,
        Pairing::EvolRandOrg,
        Pairing::EvolExpert,
    ];
}

/// Plays each pairing, `games` games each (first engine named first).
#[allow(clippy::too_many_arguments)]
pub fn paper_match(
    evolved: ParamValues,
    random: ParamValues,
    pairings: &[Pairing],
    openings: &[Opening],
    games: usize,
    game: GameSettings,
    concurrency: usize,
    on_game: &(dyn Fn(&str, &GameDone) + Sync),
) -> Vec<PairingResult> {
    let expert = engine("Expert", ParamValues::defaults(&EVAL_TABLE));
    let evol = engine("Evol*", evolved);
    let rand_org = engine("RandOrg", random);
    let hand35 = engine("Hand35", hand_tuned_compact());
    let settings = MatchSettings {
        games,
        concurrency,
        game,
        sprt: None,
    };
    pairings
        .iter()
        .map(|p| match p {
            Pairing::ExpertRandOrg => (&expert, &rand_org),
            Pairing::EvolRandOrg => (&evol, &rand_org),
            Pairing::EvolExpert => (&evol, &expert),
            Pairing::EvolHand35 => (&evol, &hand35),
        })
        .map(|(a, b)| {
            let label = format!("{} - {}", a.name(), b.name());
            let result = run_match(a, b, openings, &settings, &|done| on_game(&label, done));
            let stats = |name: &str| {
                let mut s = SearchStats::default();
                for game in &result.games {
                    s.add_game(name, game);
                }
                s
            };
            PairingResult {
                first: a.name().to_string(),
                second: b.name().to_string(),
                summary: result.wdl.summary(),
                first_search: stats(a.name()),
                second_search: stats(b.name()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kestrel_chess::Board;
    use kestrel_tools::game::{GameResult, MoveInfo, Termination};
    use kestrel_tools::{Limit, Opening};

    fn info(nodes: u64, millis: u64, depth: i32) -> MoveInfo {
        MoveInfo {
            score: None,
            depth,
            nodes,
            time: Duration::from_millis(millis),
        }
    }

    /// Black moves first here, so the first, third, ... infos are Black's.
    #[test]
    fn search_stats_follow_the_side_that_moved() {
        let start = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1").unwrap();
        let game = GameRecord {
            white: "Expert".into(),
            black: "Evol*".into(),
            opening: Opening::from_board(start),
            moves: Vec::new(),
            infos: vec![info(1000, 10, 5), info(300, 5, 3), info(2000, 10, 7)],
            result: GameResult::Draw,
            termination: Termination::DrawAdjudication,
            limit: Limit::Nodes(1),
        };
        let mut evol = SearchStats::default();
        evol.add_game("Evol*", &game);
        assert_eq!((evol.moves, evol.nodes, evol.depth_sum), (2, 3000, 12));
        assert_eq!(evol.nps(), 150_000.0);
        assert_eq!(evol.mean_depth(), 6.0);
        let mut expert = SearchStats::default();
        expert.add_game("Expert", &game);
        assert_eq!((expert.moves, expert.nodes), (1, 300));
        assert_eq!(expert.nps(), 60_000.0);
        assert_eq!(SearchStats::default().nps(), 0.0);
    }
}
