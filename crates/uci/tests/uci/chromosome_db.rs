//! ChromosomeDB and Chromosome through the protocol: the engine plays the chosen chromosome's
//! evaluation, a random pick is seeded, and bad databases or picks leave parameters unchanged.

use crate::common;

use common::{engine, send};
use kestrel_chromodb::{ChromosomeDb, NewChromosome, NewRun};

fn chromosome(pawn: i32, fitness: f64) -> NewChromosome {
    NewChromosome {
        label: format!("pawn {pawn}"),
        niche: 1,
        niche_size: 1,
        fitness,
        tournaments: 3,
        organism: pawn as u64,
        born: 0,
        parents: Vec::new(),
        lineage_json: "[]".into(),
        genes_json: "[]".into(),
        params: format!("[eval]\nPAWN_VALUE = {pawn}\n"),
    }
}

#[test]
fn the_engine_plays_the_chosen_chromosome() {
    let dir = std::env::temp_dir().join(format!("kestrel-uci-chromodb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("db.sqlite");
    let run = NewRun {
        kind: "test".into(),
        seed: 1,
        settings_json: "{}".into(),
        generations: 1,
        games: 0,
        stop_reason: "generations".into(),
    };
    ChromosomeDb::create_or_open(&path)
        .unwrap()
        .add_run(
            &run,
            &[
                chromosome(111, 0.2),
                chromosome(222, 0.8),
                chromosome(333, 0.0),
            ],
        )
        .unwrap();
    let (mut e, cap) = engine();
    let pawn = |e: &kestrel_uci::UciEngine| e.settings().params[0].get("PAWN_VALUE").unwrap()[0];
    let default = pawn(&e);
    let out = send(&mut e, &cap, &["setoption name Chromosome value 1"]);
    assert!(out.is_empty(), "no database yet: {out:#?}");
    assert_eq!(pawn(&e), default);
    let out = send(
        &mut e,
        &cap,
        &[&format!(
            "setoption name ChromosomeDB value {}",
            path.display()
        )],
    );
    assert!(out[0].contains("chromosome 1 loaded"), "{out:#?}");
    assert_eq!(pawn(&e), 111);
    send(&mut e, &cap, &["setoption name Chromosome value best"]);
    assert_eq!(pawn(&e), 222);
    // Weighted by fitness: the zero-fitness chromosome 3 is never drawn.
    let mut drawn = Vec::new();
    for seed in 0..30 {
        send(
            &mut e,
            &cap,
            &[&format!("setoption name Chromosome value random:{seed}")],
        );
        drawn.push(pawn(&e));
    }
    assert!(drawn.contains(&111) && drawn.contains(&222) && !drawn.contains(&333));
    send(&mut e, &cap, &["setoption name Chromosome value random:4"]);
    let again = pawn(&e);
    send(&mut e, &cap, &["setoption name Chromosome value random:4"]);
    assert_eq!(pawn(&e), again);
    // Bad picks and databases say why and keep the parameters.
    send(&mut e, &cap, &["setoption name Chromosome value 2"]);
    for line in [
        "setoption name Chromosome value 99".to_string(),
        "setoption name Chromosome value worst".to_string(),
        format!(
            "setoption name ChromosomeDB value {}",
            dir.join("missing.sqlite").display()
        ),
    ] {
        let out = send(&mut e, &cap, &[&line]);
        assert!(out[0].contains("unchanged"), "{line}: {out:#?}");
        assert_eq!(pawn(&e), 222, "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
