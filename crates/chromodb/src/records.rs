//! What goes into the database and what comes out.

/// A finished run, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct NewRun {
    /// Which GA produced it (e.g. `mnc`, `generational`).
    pub kind: String,
    /// The run's random seed.
    pub seed: u64,
    /// The run's settings as JSON (enough to repeat it).
    pub settings_json: String,
    /// Generations evaluated.
    pub generations: u64,
    /// Games played in the whole run.
    pub games: u64,
    /// Why the run ended.
    pub stop_reason: String,
}

/// One chromosome of a run, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct NewChromosome {
    /// A short description (e.g. `niche 2 leader`).
    pub label: String,
    /// Niche number within the run (1 = the niche of the fittest).
    pub niche: u32,
    /// Organisms of the final population in that niche.
    pub niche_size: u32,
    /// Fitness in [0, 1] (mean game score over its tournaments); weights `Chromosome random`.
    pub fitness: f64,
    /// Tournaments (generations) behind `fitness`.
    pub tournaments: u64,
    /// The organism's number within its run.
    pub organism: u64,
    /// Generation the organism was born in.
    pub born: u64,
    /// Its parents' organism numbers (empty for the random initial population).
    pub parents: Vec<u64>,
    /// Every ancestor as JSON (`[{"id":..,"born":..,"parents":[..]},..]`).
    pub lineage_json: String,
    /// The genes as JSON (the GA's own encoding).
    pub genes_json: String,
    /// The evaluation as a params file (what the engine plays with).
    pub params: String,
}

/// A stored run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRow {
    /// Database id of the run.
    pub id: i64,
    /// Which GA produced it (e.g. `mnc`, `generational`).
    pub kind: String,
    /// UTC date and time the run was stored (`YYYY-MM-DD HH:MM:SS`).
    pub created: String,
    /// The run's random seed.
    pub seed: u64,
    /// The run's settings as JSON (enough to repeat it).
    pub settings_json: String,
    /// Generations evaluated.
    pub generations: u64,
    /// Games played in the whole run.
    pub games: u64,
    /// Why the run ended.
    pub stop_reason: String,
    /// Chromosomes stored for it.
    pub chromosomes: u64,
}

/// A stored chromosome.
#[derive(Clone, Debug, PartialEq)]
pub struct ChromosomeRow {
    /// Database id of the chromosome (what `Chromosome ID` names).
    pub id: i64,
    /// Id of the run that produced it.
    pub run_id: i64,
    /// A short description (e.g. `niche 2 leader`).
    pub label: String,
    /// Niche number within the run (1 = the niche of the fittest).
    pub niche: u32,
    /// Organisms of the final population in that niche.
    pub niche_size: u32,
    /// Fitness in [0, 1] (mean game score over its tournaments).
    pub fitness: f64,
    /// Tournaments (generations) behind `fitness`.
    pub tournaments: u64,
    /// The organism's number within its run.
    pub organism: u64,
    /// Generation the organism was born in.
    pub born: u64,
    /// Parents' organism numbers as a JSON array.
    pub parents_json: String,
    /// Every ancestor as JSON (`[{"id":..,"born":..,"parents":[..]},..]`).
    pub lineage_json: String,
    /// The genes as JSON (the GA's own encoding).
    pub genes_json: String,
    /// The evaluation as a params file (what the engine plays with).
    pub params: String,
}
