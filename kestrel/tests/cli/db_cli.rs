//! `kestrel db distances` as a user runs it: the phenotypic distance matrix of stored
//! piece-square-table chromosomes, and a clear error for chromosomes of another kind.

use crate::common;
use common::{kestrel, temp_dir};

use kestrel_chromodb::{ChromosomeDb, NewChromosome, NewRun};
use kestrel_evolve::mnc::tables::{GENES, distance, kestrel_chromosome};
use kestrel_ga::RealGenome;

fn chromosome(niche: u32, genes: &RealGenome) -> NewChromosome {
    NewChromosome {
        label: format!("niche {niche} leader"),
        niche,
        niche_size: 1,
        fitness: 0.5,
        tournaments: 1,
        organism: niche as u64,
        born: 0,
        parents: Vec::new(),
        lineage_json: "[]".into(),
        genes_json: serde_json::to_string(genes).unwrap(),
        params: "[eval]\n".into(),
    }
}

fn run(kind: &str) -> NewRun {
    NewRun {
        kind: kind.into(),
        seed: 1,
        settings_json: "{}".into(),
        generations: 1,
        games: 0,
        stop_reason: "generations".into(),
    }
}

#[test]
fn distances_between_stored_tables_and_to_kestrel() {
    let dir = temp_dir("db-cli");
    let path = dir.join("db.sqlite");
    let zeros = RealGenome(vec![0.0; GENES]);
    let tens = RealGenome(vec![10.0; GENES]);
    let mut db = ChromosomeDb::create_or_open(&path).unwrap();
    db.add_run(&run("mnc"), &[chromosome(1, &zeros), chromosome(2, &tens)])
        .unwrap();
    let short = RealGenome(vec![1.0, 2.0]);
    db.add_run(&run("other"), &[chromosome(1, &short)]).unwrap();
    drop(db);
    let db = path.to_str().unwrap();

    let o = kestrel(&["db", "--db", db, "distances", "--run", "1"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    let row = |id: &str| -> Vec<f64> {
        let line = text.lines().find(|l| l.starts_with(id)).expect(id);
        line.split_whitespace()
            .skip(5)
            .map(|v| v.parse().unwrap())
            .collect()
    };
    let to_kestrel = distance(&zeros, &kestrel_chromosome());
    let first = row("#1 run 1");
    assert_eq!(first[..2], [0.0, 10.0]);
    assert!(
        (first[2] - to_kestrel).abs() <= 0.051,
        "{first:?} vs {to_kestrel}"
    );
    assert!(to_kestrel > 10.0, "Kestrel's tables are far from all zeros");
    assert_eq!(row("#2 run 1")[..2], [10.0, 0.0]);

    // All runs: the two-gene chromosome is named, not misread.
    let o = kestrel(&["db", "--db", db, "distances"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("chromosome 3 has 2 genes"), "{err}");
    let o = kestrel(&["db", "--db", db, "distances", "--run", "9"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no chromosome stored for run 9"));
}
