//! The search GA's fitness: the total cost (nodes to solution, unsolved positions at the node
//! cap plus a penalty) of the training suite under the organism's search parameters. Fewer
//! nodes, fitter organism.
//!
//! Everything the fitness needs is in [`SearchFitnessSpec`] (serialisable: another process can
//! rebuild the same fitness with [`SearchFitness::build`]). Each evaluated organism is a pure
//! function of the spec and its decoded values; a memo keyed by the decoded values means an
//! organism already scored is never searched again (copies, elites, and different bit strings
//! that decode to the same values, e.g. the 3-bit 0..4 fields' codes 4..7).

use crate::mentor::organism::{Organism, with_fields};
use crate::search::solve::{CostRule, PositionCost, position_cost};
use crate::search::suite::parse_positions;
use kestrel_ga::{Evaluation, FitnessFunction};
use kestrel_params::{BitSchema, Coding, ParamValues};
use kestrel_search::{EngineConfig, FALCON_SET, SEARCH_TABLE, Searcher};
use kestrel_tools::epd_suite::SuitePosition;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Everything that defines the fitness (plain data, serialisable).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchFitnessSpec {
    /// The training positions, as EPD lines with `bm`/`am`.
    pub train: Vec<String>,
    /// Names of the evolved `SEARCH_TABLE` parameters, in chromosome order.
    pub set: Vec<String>,
    /// Bit coding of the chromosome (bit genomes).
    pub coding: Coding,
    /// Node cap per position and penalty for an unsolved one.
    pub rule: CostRule,
    /// Transposition table per search, MB (cleared before every position).
    pub hash_mb: usize,
    /// What the GA minimises (left out of the serialised spec when it is the sum, so older
    /// checkpoints keep their fingerprint).
    #[serde(default, skip_serializing_if = "Objective::is_sum")]
    pub objective: Objective,
}

/// What the GA minimises over the training positions' costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Objective {
    /// Total nodes (the paper): a few expensive positions dominate.
    #[default]
    Sum,
    /// Geometric mean of the costs: every position's relative saving counts the same, so a few
    /// positions with huge counts cannot decide the run alone (less over-fitting to them).
    LogMean,
}

impl Objective {
    /// True for the paper's objective.
    pub fn is_sum(&self) -> bool {
        *self == Objective::Sum
    }
}

impl SearchFitnessSpec {
    /// Falcon's 18 parameters.
    pub fn falcon_set() -> Vec<String> {
        FALCON_SET.iter().map(|s| s.to_string()).collect()
    }

    /// The chromosome layout of the evolved set.
    pub fn schema(&self) -> Result<BitSchema, String> {
        let names: Vec<&str> = self.set.iter().map(String::as_str).collect();
        BitSchema::new(&SEARCH_TABLE, Some(&names), self.coding)
    }

    /// A short hash of the spec, so a checkpoint is never resumed against other data.
    pub fn fingerprint(&self) -> String {
        let text = serde_json::to_string(self).expect("a spec is plain data");
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
        format!(
            "search GA | {} positions | {} params {:?} | cap {} + {} | hash {} MB | {h:016x}",
            self.train.len(),
            self.set.len(),
            self.coding,
            self.rule.node_cap,
            self.rule.penalty,
            self.hash_mb
        )
    }
}

/// One parameter set's result on a suite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteScore {
    /// Sum of position costs (the GA's objective).
    pub cost: u64,
    /// Positions solved within the node cap.
    pub solved: u32,
    /// Nodes the searches really spent.
    pub searched: u64,
    /// Sum of `ln(cost)` in millionths (an integer, so the sum is the same on any thread count).
    #[serde(default)]
    pub log_cost_micro: u64,
}

/// `ln(cost)` in millionths (a cost of 0 counts as 1).
fn log_micro(cost: u64) -> u64 {
    ((cost.max(1) as f64).ln() * 1e6).round() as u64
}

/// Costs of every position under every parameter set (`[set][position]`), every (set,
/// position) pair in parallel on the current rayon pool; the result does not depend on the
/// number of threads.
pub fn position_costs(
    sets: &[ParamValues],
    positions: &[SuitePosition],
    rule: CostRule,
    hash_mb: usize,
) -> Vec<Vec<PositionCost>> {
    let n = positions.len();
    let config = EngineConfig {
        hash_mb: hash_mb.max(1),
        threads: 1,
        ..EngineConfig::default()
    };
    let costs: Vec<PositionCost> = (0..sets.len() * n)
        .into_par_iter()
        .map_init(
            || Searcher::new(config.clone()),
            |searcher, task| {
                // Fresh state per position: new params clear the hash table and histories.
                // Every set is decoded from SEARCH_TABLE's schema, so it is that table's.
                searcher
                    .set_search_params(sets[task / n].clone())
                    .expect("search GA sets hold SEARCH_TABLE values");
                position_cost(searcher, &positions[task % n], rule)
            },
        )
        .collect();
    if n == 0 {
        return vec![Vec::new(); sets.len()];
    }
    costs.chunks(n).map(<[PositionCost]>::to_vec).collect()
}

/// Sums one set's position costs.
pub fn suite_score(costs: &[PositionCost]) -> SuiteScore {
    costs
        .iter()
        .fold(SuiteScore::default(), |acc, c| SuiteScore {
            cost: acc.cost + c.cost,
            solved: acc.solved + c.solved as u32,
            searched: acc.searched + c.searched,
            log_cost_micro: acc.log_cost_micro + log_micro(c.cost),
        })
}

/// Scores several parameter sets on `positions` (see [`position_costs`]).
pub fn score_sets(
    sets: &[ParamValues],
    positions: &[SuitePosition],
    rule: CostRule,
    hash_mb: usize,
) -> Vec<SuiteScore> {
    position_costs(sets, positions, rule, hash_mb)
        .iter()
        .map(|c| suite_score(c))
        .collect()
}

/// Work done by a fitness since it was built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FitnessStats {
    /// Organisms searched (memo misses).
    pub searched_organisms: u64,
    /// Organisms answered from the memo.
    pub memo_hits: u64,
    /// Nodes searched.
    pub nodes: u64,
}

/// What a worker's search fitness reports after a job.
#[derive(Serialize, Deserialize)]
struct MemoReport {
    searched_organisms: u64,
    memo_hits: u64,
    nodes: u64,
    entries: Vec<(Vec<i32>, SuiteScore)>,
}

/// The fitness, rebuilt from its spec.
pub struct SearchFitness {
    /// The spec the fitness was built from.
    pub spec: SearchFitnessSpec,
    /// Chromosome layout of the evolved search parameters.
    pub schema: BitSchema,
    /// The training positions, parsed from `spec.train`.
    pub positions: Vec<SuitePosition>,
    memo: Mutex<HashMap<Vec<i32>, SuiteScore>>,
    /// Memo entries added since the last report (what a worker sends its leader).
    fresh: Mutex<Vec<(Vec<i32>, SuiteScore)>>,
    searched_organisms: AtomicU64,
    memo_hits: AtomicU64,
    nodes: AtomicU64,
}

impl SearchFitness {
    /// Builds the fitness; fails on unusable positions, unknown names or a zero node cap.
    pub fn build(spec: SearchFitnessSpec) -> Result<SearchFitness, String> {
        if spec.rule.node_cap == 0 {
            return Err("the node cap must be at least 1".into());
        }
        let schema = spec.schema()?;
        if schema.fields.is_empty() {
            return Err("no search parameter to evolve".into());
        }
        let positions = parse_positions(&spec.train)?;
        if positions.is_empty() {
            return Err("the training suite has no position".into());
        }
        Ok(SearchFitness {
            spec,
            schema,
            positions,
            memo: Mutex::new(HashMap::new()),
            fresh: Mutex::new(Vec::new()),
            searched_organisms: AtomicU64::new(0),
            memo_hits: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
        })
    }

    /// Full `SEARCH_TABLE` values of an organism's evolved fields (the rest at defaults).
    pub fn values_of(&self, fields: &[i32]) -> ParamValues {
        with_fields(&self.schema, &ParamValues::defaults(&SEARCH_TABLE), fields)
    }

    /// Scores decoded organisms, searching only those not in the memo.
    pub fn score_fields(&self, organisms: &[Vec<i32>]) -> Vec<SuiteScore> {
        let mut todo: Vec<Vec<i32>> = Vec::new();
        {
            let memo = self.memo.lock().expect("memo lock");
            for o in organisms {
                if !memo.contains_key(o) && !todo.contains(o) {
                    todo.push(o.clone());
                }
            }
        }
        let hits = organisms.len() - todo.len();
        self.memo_hits.fetch_add(hits as u64, Ordering::Relaxed);
        if !todo.is_empty() {
            let sets: Vec<ParamValues> = todo.iter().map(|f| self.values_of(f)).collect();
            let scores = score_sets(&sets, &self.positions, self.spec.rule, self.spec.hash_mb);
            let nodes: u64 = scores.iter().map(|s| s.searched).sum();
            self.nodes.fetch_add(nodes, Ordering::Relaxed);
            self.searched_organisms
                .fetch_add(todo.len() as u64, Ordering::Relaxed);
            let entries: Vec<_> = todo.into_iter().zip(scores).collect();
            self.fresh
                .lock()
                .expect("memo lock")
                .extend(entries.iter().cloned());
            self.memo.lock().expect("memo lock").extend(entries);
        }
        let memo = self.memo.lock().expect("memo lock");
        organisms.iter().map(|o| memo[o]).collect()
    }

    /// The memo's entries, sorted (for saving beside a checkpoint).
    pub fn memo_entries(&self) -> Vec<(Vec<i32>, SuiteScore)> {
        let memo = self.memo.lock().expect("memo lock");
        let mut v: Vec<_> = memo.iter().map(|(k, s)| (k.clone(), *s)).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// Preloads memo entries (e.g. saved by an interrupted run with the same spec).
    pub fn preload(&self, entries: Vec<(Vec<i32>, SuiteScore)>) {
        let k = self.schema.fields.len();
        let mut memo = self.memo.lock().expect("memo lock");
        memo.extend(entries.into_iter().filter(|(f, _)| f.len() == k));
    }

    /// Work done so far: organisms searched, memo hits and nodes searched.
    pub fn stats(&self) -> FitnessStats {
        FitnessStats {
            searched_organisms: self.searched_organisms.load(Ordering::Relaxed),
            memo_hits: self.memo_hits.load(Ordering::Relaxed),
            nodes: self.nodes.load(Ordering::Relaxed),
        }
    }
}

/// Fitness from a suite cost: the objective (total cost, or the geometric mean cost of the
/// `positions` positions) inverted, so fewer nodes is fitter and fitness stays positive
/// (roulette selection).
pub fn evaluation_of(score: SuiteScore, objective: Objective, positions: usize) -> Evaluation {
    let cost = match objective {
        Objective::Sum => score.cost.max(1) as f64,
        Objective::LogMean => (score.log_cost_micro as f64 / 1e6 / positions.max(1) as f64).exp(),
    };
    Evaluation {
        fitness: 1e6 / cost,
        objective: cost,
    }
}

impl<G: Organism> FitnessFunction<G> for SearchFitness {
    fn evaluate(&self, _sample_seed: u64, genomes: &[G]) -> Vec<Evaluation> {
        let organisms: Vec<Vec<i32>> = genomes
            .iter()
            .map(|g| g.field_values(&self.schema))
            .collect();
        self.score_fields(&organisms)
            .into_iter()
            .map(|s| evaluation_of(s, self.spec.objective, self.positions.len()))
            .collect()
    }

    /// The whole population in one call, so that positions (not organisms) are the parallel
    /// work items and duplicates are searched once.
    fn chunk_size(&self) -> usize {
        usize::MAX
    }

    /// A worker's searches since the last report: counts and the new memo entries, so the
    /// leader's memo.json and its "organisms searched" line cover the workers' work.
    fn take_report(&self) -> Option<serde_json::Value> {
        let report = MemoReport {
            searched_organisms: self.searched_organisms.swap(0, Ordering::Relaxed),
            memo_hits: self.memo_hits.swap(0, Ordering::Relaxed),
            nodes: self.nodes.swap(0, Ordering::Relaxed),
            entries: std::mem::take(&mut *self.fresh.lock().expect("memo lock")),
        };
        serde_json::to_value(report).ok()
    }

    fn absorb_report(&self, report: &serde_json::Value) -> Result<(), String> {
        let report: MemoReport = serde_json::from_value(report.clone())
            .map_err(|e| format!("malformed search report: {e}"))?;
        self.searched_organisms
            .fetch_add(report.searched_organisms, Ordering::Relaxed);
        self.memo_hits
            .fetch_add(report.memo_hits, Ordering::Relaxed);
        self.nodes.fetch_add(report.nodes, Ordering::Relaxed);
        self.preload(report.entries);
        Ok(())
    }

    /// Each organism's score stands alone, so a cluster job may hold any number of them.
    fn job_unit(&self) -> usize {
        1
    }

    fn fingerprint(&self) -> String {
        format!(
            "{} | {}",
            self.spec.fingerprint(),
            G::describe(&self.schema)
        )
    }
}
