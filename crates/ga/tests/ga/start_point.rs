//! Generation zero around a start point, and a population's centre.

use kestrel_ga::{GaSettings, RealGenome, RealSpace, centre, start_and_mutants};

#[test]
fn generation_zero_is_the_start_and_seeded_mutants_within_bounds() {
    let space = RealSpace {
        min: vec![0.0, -10.0, 5.0],
        max: vec![100.0, 10.0, 5.0],
        sigma: 0.5,
    };
    let start = RealGenome(vec![50.0, 9.5, 5.0]);
    let settings = |seed| GaSettings {
        population: 6,
        seed,
        ..GaSettings::default()
    };
    let population = start_and_mutants(&start, &space, &settings(3), 0.1);
    assert_eq!(population.len(), 6);
    assert_eq!(population[0], start);
    for g in &population[1..] {
        assert_ne!(g.0[0], 50.0, "every gene of a mutant moves");
        assert!((-10.0..=10.0).contains(&g.0[1]), "{g:?} stays in bounds");
        assert_eq!(g.0[2], 5.0, "a gene with an empty range stays");
    }
    assert_eq!(
        population,
        start_and_mutants(&start, &space, &settings(3), 0.1)
    );
    assert_ne!(
        population,
        start_and_mutants(&start, &space, &settings(4), 0.1)
    );
    // A small spread stays near the start (0.1% of the range as sigma).
    let near = start_and_mutants(&start, &space, &settings(3), 0.001);
    assert!(near.iter().all(|g| (g.0[0] - 50.0).abs() < 1.0), "{near:?}");
}

#[test]
fn the_centre_is_the_mean_of_each_gene() {
    let population = [
        RealGenome(vec![1.0, 10.0]),
        RealGenome(vec![2.0, 20.0]),
        RealGenome(vec![6.0, 0.0]),
    ];
    assert_eq!(centre(&population), vec![3.0, 10.0]);
    assert_eq!(centre(&[]), Vec::<f64>::new());
}
