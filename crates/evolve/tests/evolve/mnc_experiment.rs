//! The MNC command's experiment as a library call: a tiny MNC run and its generational
//! comparison write best.toml, one file per niche, the log and chart, add their runs to the
//! database and report them; the generational GA refuses `init_range`; the reference tables
//! are written for a seed.

use crate::support::tiny_tournament;
use kestrel_chromodb::ChromosomeDb;
use kestrel_evolve::mnc::experiment::{MncFitness, MncOutput, evolve_generational, evolve_mnc};
use kestrel_evolve::mnc::measure::write_references;
use kestrel_evolve::mnc::{MncSettings, MncTermination, TournamentFitness};
use kestrel_ga::InProcessExecutor;

fn fitness() -> TournamentFitness {
    tiny_tournament(
        &[
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        ],
        40,
        15,
    )
}

fn settings() -> MncSettings {
    MncSettings {
        population: 4,
        offspring: 2,
        termination: MncTermination {
            generations: 2,
            best_unchanged: None,
            small_change: None,
        },
        seed: 3,
        ..MncSettings::default()
    }
}

fn output(name: &str) -> MncOutput {
    let out = std::env::temp_dir().join(format!("kestrel-mnc-exp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    MncOutput {
        db: out.join("db.sqlite"),
        out,
        resume: false,
        quiet: true,
    }
}

#[test]
fn mnc_and_generational_experiments_write_their_files_and_rows() {
    let fitness = fitness();
    let mnc = output("mnc");
    let report = evolve_mnc(
        &settings(),
        &MncFitness::tournament(&fitness),
        &InProcessExecutor,
        &mnc,
    )
    .unwrap();
    assert!(
        report.starts_with("evolution         2 generations"),
        "{report}"
    );
    assert!(report.contains("(run stored)"), "{report}");
    for file in [
        "best.toml",
        "niche-1.toml",
        "log.csv",
        "evolution.svg",
        "checkpoint.json",
    ] {
        assert!(mnc.out.join(file).is_file(), "{file}");
    }
    let log = std::fs::read_to_string(mnc.out.join("log.csv")).unwrap();
    assert_eq!(
        log.lines().count(),
        3,
        "a header and two generations:\n{log}"
    );
    let best = std::fs::read(mnc.out.join("best.toml")).unwrap();
    assert_eq!(best, std::fs::read(mnc.out.join("niche-1.toml")).unwrap());
    let db = ChromosomeDb::create_or_open(&mnc.db).unwrap();
    assert_eq!(db.runs().unwrap().len(), 1);

    // The same seed gives the same best organism in a fresh folder.
    let again = output("mnc-again");
    evolve_mnc(
        &settings(),
        &MncFitness::tournament(&fitness),
        &InProcessExecutor,
        &again,
    )
    .unwrap();
    assert_eq!(best, std::fs::read(again.out.join("best.toml")).unwrap());

    let generational = output("generational");
    let report =
        evolve_generational(&settings(), &fitness, &InProcessExecutor, &generational).unwrap();
    assert!(report.contains("(generational)"), "{report}");
    assert!(generational.out.join("best.toml").is_file());

    let mut ranged = settings();
    ranged.init_range = Some(20.0);
    let err =
        evolve_generational(&ranged, &fitness, &InProcessExecutor, &generational).unwrap_err();
    assert!(
        err.contains("--init-range is for --algorithm mnc only"),
        "{err}"
    );

    let refs = output("refs");
    let written = write_references(&refs.out, 3).unwrap();
    assert_eq!(written.lines().count(), 2);
    let random = std::fs::read(refs.out.join("random-tables.toml")).unwrap();
    write_references(&refs.out, 3).unwrap();
    assert_eq!(
        random,
        std::fs::read(refs.out.join("random-tables.toml")).unwrap()
    );
    for o in [mnc, again, generational, refs] {
        std::fs::remove_dir_all(&o.out).unwrap();
    }
}
