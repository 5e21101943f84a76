//! The worker protocol without Ray: a job rebuilt from its mentor spec scores exactly as the
//! in-process executor, game jobs (ranges of a round robin) sum to the in-process scores, and
//! bad jobs get clear failures instead of scores.

use kestrel_evolve::mentor::organism::GenomeKind;
use kestrel_evolve::mentor::positions::PositionSet;
use kestrel_evolve::mentor::remote::MentorFitnessSpec;
use kestrel_evolve::mentor::run::{BUILTIN_POSITIONS, ParamSet};
use kestrel_ga::cluster::{BlobStore, FitnessSpec, JobEnvelope, PROTOCOL_VERSION, Worker};
use kestrel_ga::{
    BitGenome, BitSpace, Executor, FitnessFunction, FitnessJob, Genome, InProcessExecutor, Purpose,
    stream_rng,
};
use kestrel_params::Coding;

#[test]
fn worker_scores_equal_in_process_and_bad_jobs_fail_clearly() {
    let boards = PositionSet::parse_epd(BUILTIN_POSITIONS).unwrap().train[..200].to_vec();
    let labels: Vec<i32> = (0..200).map(|i| (i * 37 % 401) - 200).collect();
    let dir = std::env::temp_dir().join(format!("kestrel-cluster-worker-{}", std::process::id()));
    let store = BlobStore::new(&dir);
    let spec = MentorFitnessSpec {
        genome: GenomeKind::Bits,
        set: ParamSet::Compact,
        coding: Coding::Gray,
        sample: 50,
        data_id: "test data".into(),
        train: MentorFitnessSpec::store_train(&boards, &labels, &store).unwrap(),
    };
    let fitness = spec.fitness(&store).unwrap();
    let space = BitSpace {
        len: fitness.schema.bit_len(),
    };
    let mut rng = stream_rng(9, 0, Purpose::Init);
    let genomes: Vec<BitGenome> = (0..150)
        .map(|_| BitGenome::random(&space, &mut rng))
        .collect();
    let local = InProcessExecutor
        .run(
            &fitness,
            &FitnessJob {
                generation: 0,
                sample_seed: 77,
                genomes: genomes.clone(),
            },
        )
        .unwrap();

    let envelope = JobEnvelope {
        version: PROTOCOL_VERSION,
        fitness: spec.tagged(),
        fingerprint: FitnessFunction::<BitGenome>::fingerprint(&fitness),
        generation: 0,
        sample_seed: 77,
        genomes: serde_json::to_value(&genomes).unwrap(),
        tasks: None,
    };
    let registry = kestrel_evolve::registry();
    let mut worker = Worker::new(&registry, store.clone());
    let line = serde_json::to_string(&envelope).unwrap();
    let mut out = Vec::new();
    worker
        .serve(format!("{line}\n{line}\n").as_bytes(), &mut out)
        .unwrap();
    let replies: Vec<kestrel_ga::cluster::WorkerReply> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 2);
    for r in &replies {
        assert!(r.ok, "{r:?}");
        assert_eq!(r.evaluations, local, "bit-identical to in process");
    }

    let fails = |e: &JobEnvelope, what: &str| {
        let r = Worker::new(&registry, store.clone()).answer(&serde_json::to_string(e).unwrap());
        assert!(!r.ok && r.error.as_deref().unwrap().contains(what), "{r:?}");
    };
    fails(
        &JobEnvelope {
            version: 99,
            ..envelope.clone()
        },
        "protocol version 99",
    );
    let mut other = envelope.clone();
    other.fingerprint = "another fitness".into();
    fails(&other, "run the same kestrel build");
    let mut unknown = envelope.clone();
    unknown.fitness.kind = "chess960".into();
    let known = registry.kinds();
    for kind in [
        "coevolve",
        "games",
        "mentor",
        "mnc",
        "search",
        "spsa",
        "tournament",
    ] {
        assert!(known.contains(&kind), "{kind} is registered: {known:?}");
    }
    fails(
        &unknown,
        &format!(
            "cannot build fitness 'chess960' (it knows: {})",
            known.join(", ")
        ),
    );
    let mut missing = envelope.clone();
    missing.fitness.spec["train"] = serde_json::json!(kestrel_ga::cluster::content_hash(b"x"));
    fails(&missing, "not in this node's cache");
    let r = worker.answer("{not json");
    assert!(r.error.unwrap().contains("malformed job"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A round robin cut into game ranges, each scored by a worker rebuilt from the spec and its
/// opening blob, sums to exactly the in-process evaluations; a range beyond the generation's
/// games is refused.
#[test]
fn game_jobs_split_over_workers_sum_to_the_in_process_round_robin() {
    use kestrel_evolve::tournament::{
        Organism, OrganismSpace, RoundRobinFitness, RoundRobinRemoteSpec, TournamentSpec,
        opening_fens,
    };
    use kestrel_ga::{FitnessTasks, evaluate_by_tasks};
    let dir = std::env::temp_dir().join(format!("kestrel-cluster-games-{}", std::process::id()));
    let store = BlobStore::new(&dir);
    let openings = [kestrel_tools::Opening::startpos()];
    let spec = TournamentSpec {
        depth: 1,
        max_moves: 12,
        margin_cp: 0,
        openings: opening_fens(&openings),
    };
    let fitness = RoundRobinFitness::build(spec.clone()).unwrap();
    let mut rng = stream_rng(4, 0, Purpose::Init);
    let genomes: Vec<Organism> = (0..4)
        .map(|_| Organism::random(&OrganismSpace { max: 5 }, &mut rng))
        .collect();
    let local = fitness.evaluate(11, &genomes);
    assert_eq!(local, evaluate_by_tasks(&fitness, 11, &genomes));
    let games = fitness.task_count(11, &genomes);
    assert_eq!(games, 12);

    let remote = RoundRobinRemoteSpec::store(&spec, &store).unwrap();
    let registry = kestrel_evolve::registry();
    let job = |range: [usize; 2]| JobEnvelope {
        version: PROTOCOL_VERSION,
        fitness: remote.tagged(),
        fingerprint: FitnessFunction::<Organism>::fingerprint(&fitness),
        generation: 0,
        sample_seed: 11,
        genomes: serde_json::to_value(&genomes).unwrap(),
        tasks: Some(range),
    };
    let mut results = Vec::new();
    for range in [[0, 5], [5, 12]] {
        // A fresh worker per job: nothing carries over between them.
        let mut worker = Worker::new(&registry, store.clone());
        let r = worker.answer(&serde_json::to_string(&job(range)).unwrap());
        assert!(r.ok, "{r:?}");
        assert_eq!(r.task_results.len(), range[1] - range[0]);
        results.extend(r.task_results);
    }
    assert_eq!(fitness.combine(11, &genomes, &results), local);
    let r = Worker::new(&registry, store.clone())
        .answer(&serde_json::to_string(&job([10, 13])).unwrap());
    assert!(r.error.unwrap().contains("not within the generation's 12"));
    std::fs::remove_dir_all(&dir).unwrap();
}
