//! The database round trip: write runs, read them back, pick, and reject bad files.

use kestrel_chromodb::{ChromosomeDb, NewChromosome, NewRun, Pick};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kestrel-chromodb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn chromosome(niche: u32, fitness: f64) -> NewChromosome {
    NewChromosome {
        label: format!("niche {niche} leader"),
        niche,
        niche_size: 3,
        fitness,
        tournaments: 12,
        organism: 40 + niche as u64,
        born: 5,
        parents: vec![3, 17],
        lineage_json: "[]".into(),
        genes_json: "[1.5,2.0]".into(),
        params: format!("[eval]\nPAWN_VALUE = {}\n", 90 + niche),
    }
}

#[test]
fn runs_round_trip_and_picks_work() {
    let dir = temp("roundtrip");
    let path = dir.join("chromosomes.sqlite");
    let run = NewRun {
        kind: "mnc".into(),
        seed: 7,
        settings_json: "{\"population\":20}".into(),
        generations: 12,
        games: 480,
        stop_reason: "generations".into(),
    };
    {
        let mut db = ChromosomeDb::create_or_open(&path).unwrap();
        let (run_id, ids) = db
            .add_run(&run, &[chromosome(1, 0.7), chromosome(2, 0.4)])
            .unwrap();
        assert_eq!(run_id, 1);
        assert_eq!(ids, vec![1, 2]);
    }
    // A second run appends to the same file.
    let mut db = ChromosomeDb::create_or_open(&path).unwrap();
    db.add_run(&run, &[chromosome(1, 0.9)]).unwrap();
    drop(db);
    let db = ChromosomeDb::open_existing(&path).unwrap();
    let runs = db.runs().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0].chromosomes, 2);
    assert_eq!(runs[0].seed, 7);
    assert_eq!(runs[0].created.len(), 19, "{}", runs[0].created);
    let c = db.chromosome(2).unwrap();
    assert_eq!(c.run_id, 1);
    assert_eq!(c.parents_json, "[3,17]");
    assert_eq!(c.params, "[eval]\nPAWN_VALUE = 92\n");
    assert_eq!(db.chromosomes(Some(1)).unwrap().len(), 2);
    assert_eq!(db.pick(Pick::Best).unwrap().id, 3);
    assert_eq!(db.pick(Pick::Id(1)).unwrap().fitness, 0.7);
    assert!(
        db.pick(Pick::Id(99))
            .unwrap_err()
            .to_string()
            .contains("99")
    );
    assert!(db.run(5).is_err());
    let drawn = db.pick(Pick::Random { seed: 3 }).unwrap().id;
    assert_eq!(db.pick(Pick::Random { seed: 3 }).unwrap().id, drawn);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_and_foreign_files_are_clear_errors() {
    let dir = temp("bad");
    let missing = ChromosomeDb::open_existing(&dir.join("nope.sqlite"))
        .err()
        .unwrap();
    assert!(missing.to_string().contains("no such file"), "{missing}");
    let text = dir.join("text.sqlite");
    std::fs::write(
        &text,
        "this is not a database, just some text\n".repeat(100),
    )
    .unwrap();
    assert!(ChromosomeDb::open_existing(&text).is_err());
    assert!(ChromosomeDb::create_or_open(&text).is_err());
    // An SQLite file of some other program.
    let other = dir.join("other.sqlite");
    {
        let c = rusqlite::Connection::open(&other).unwrap();
        c.execute_batch("CREATE TABLE t (x INTEGER);").unwrap();
    }
    let e = ChromosomeDb::open_existing(&other).err().unwrap();
    assert!(e.to_string().contains("not a Kestrel"), "{e}");
    assert!(ChromosomeDb::create_or_open(&other).is_err());
    let empty = ChromosomeDb::create_or_open(&dir.join("empty.sqlite")).unwrap();
    assert!(matches!(
        empty.pick(Pick::Best),
        Err(kestrel_chromodb::DbError::Empty)
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn best_and_random_choose_within_the_newest_run() {
    let dir = temp("newest");
    let path = dir.join("chromosomes.sqlite");
    let run = |kind: &str| NewRun {
        kind: kind.into(),
        seed: 1,
        settings_json: "{}".into(),
        generations: 3,
        games: 60,
        stop_reason: "generations".into(),
    };
    let mut db = ChromosomeDb::create_or_open(&path).unwrap();
    // A generational run's last-tournament score (1.0) is not comparable with an MNC lifetime
    // mean (0.6): only the newest run's own fitnesses decide.
    db.add_run(&run("generational"), &[chromosome(1, 1.0)])
        .unwrap();
    let (_, ids) = db
        .add_run(&run("mnc"), &[chromosome(1, 0.3), chromosome(2, 0.6)])
        .unwrap();
    assert_eq!(db.pick(Pick::Best).unwrap().id, ids[1]);
    for seed in 0..20 {
        let drawn = db.pick(Pick::Random { seed }).unwrap();
        assert!(ids.contains(&drawn.id), "seed {seed} drew {}", drawn.id);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_database_names_the_file_once_and_the_missing_table() {
    let dir = temp("damaged");
    let path = dir.join("damaged.sqlite");
    {
        let mut db = ChromosomeDb::create_or_open(&path).unwrap();
        let run = NewRun {
            kind: "mnc".into(),
            seed: 1,
            settings_json: "{}".into(),
            generations: 1,
            games: 2,
            stop_reason: "generations".into(),
        };
        db.add_run(&run, &[chromosome(0, 1.0)]).unwrap();
    }
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("DROP TABLE chromosomes;")
        .unwrap();
    let e = ChromosomeDb::open_existing(&path)
        .err()
        .unwrap()
        .to_string();
    let name = path.display().to_string();
    assert_eq!(e.matches(&name).count(), 1, "{e}");
    assert!(e.contains("'chromosomes' is missing"), "{e}");
    assert_eq!(e.matches("chromosomes").count(), 1, "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
