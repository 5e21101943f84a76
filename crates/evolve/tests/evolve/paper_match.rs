//! The strength table's players and a tiny run of it.

use kestrel_eval::{EVAL_TABLE, compact_values};
use kestrel_evolve::mentor::paper_match::{
    Pairing, hand_tuned_compact, paper_match, random_organism,
};
use kestrel_params::ParamValues;
use kestrel_tools::{GameSettings, Opening, limits::Limit};

#[test]
fn players_are_what_they_claim() {
    let a = random_organism(7);
    assert_eq!(a, random_organism(7));
    assert_ne!(a, random_organism(8));
    assert_eq!(
        a,
        compact_values(&a),
        "a random organism uses only the compact set"
    );
    assert!(a.values.iter().any(|&v| v != 0));
    assert_eq!(
        hand_tuned_compact(),
        compact_values(&ParamValues::defaults(&EVAL_TABLE))
    );
}

#[test]
fn a_tiny_table_is_played() {
    let results = paper_match(
        hand_tuned_compact(),
        random_organism(1),
        &[
            Pairing::ExpertRandOrg,
            Pairing::EvolRandOrg,
            Pairing::EvolExpert,
            Pairing::EvolHand35,
        ],
        &[Opening::startpos()],
        2,
        GameSettings::new(Limit::Depth(1)),
        2,
        &|_, _| {},
    );
    let names: Vec<(&str, &str)> = results
        .iter()
        .map(|r| (r.first.as_str(), r.second.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("Expert", "RandOrg"),
            ("Evol*", "RandOrg"),
            ("Evol*", "Expert"),
            ("Evol*", "Hand35")
        ]
    );
    for r in &results {
        assert_eq!(r.summary.wdl.games(), 2);
    }
}
