//! Several mentors at once ("wisdom of crowds"): every mentor labels the positions on its own
//! (each with its own cache key), and a rule combines their scores into the one label the GA
//! imitates. A position counts only when every mentor gave it a centipawn score.

use crate::mentor::labels::Label;
use rayon::prelude::*;

/// How mentors' scores become one label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// Arithmetic mean, rounded to the nearest centipawn.
    Mean,
    /// Middle score (mean of the two middle ones for an even count, rounded).
    Median,
}

impl std::str::FromStr for Combine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "mean" => Ok(Combine::Mean),
            "median" => Ok(Combine::Median),
            _ => Err(format!(
                "unknown combination '{s}' (expected mean or median)"
            )),
        }
    }
}

impl Combine {
    /// The combined score of `scores` (not empty).
    pub fn apply(self, scores: &[i32]) -> i32 {
        assert!(!scores.is_empty(), "no score to combine");
        let n = scores.len() as i64;
        match self {
            Combine::Mean => {
                let sum: i64 = scores.iter().map(|&s| s as i64).sum();
                (sum as f64 / n as f64).round() as i32
            }
            Combine::Median => {
                let mut sorted = scores.to_vec();
                sorted.sort_unstable();
                let mid = sorted.len() / 2;
                if sorted.len() % 2 == 1 {
                    sorted[mid]
                } else {
                    ((sorted[mid - 1] as f64 + sorted[mid] as f64) / 2.0).round() as i32
                }
            }
        }
    }
}

/// Combines per-mentor labels (`per_mentor[m][position]`) position by position: a failure of
/// any mentor is a failure, a mate of any mentor is a mate, otherwise the rule's score.
pub fn combine_labels(per_mentor: &[Vec<Option<Label>>], rule: Combine) -> Vec<Option<Label>> {
    let n = per_mentor.first().map_or(0, Vec::len);
    assert!(
        per_mentor.iter().all(|l| l.len() == n),
        "label lists differ in length"
    );
    (0..n)
        .map(|i| {
            let mut scores = Vec::with_capacity(per_mentor.len());
            for labels in per_mentor {
                match labels[i]? {
                    Label::Mate => return Some(Label::Mate),
                    Label::Cp(cp) => scores.push(cp),
                }
            }
            Some(Label::Cp(rule.apply(&scores)))
        })
        .collect()
}

/// The centipawn scores of `labels` at the positions where `keep` is true (all of them must
/// be centipawn scores there).
pub fn kept_scores(labels: &[Option<Label>], keep: &[bool]) -> Vec<i32> {
    labels
        .iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(l, _)| match l {
            Some(Label::Cp(cp)) => *cp,
            _ => panic!("a kept position without a centipawn label"),
        })
        .collect()
}

/// Mean |a − b|.
pub fn mean_abs_diff(a: &[i32], b: &[i32]) -> f64 {
    assert_eq!(a.len(), b.len());
    if a.is_empty() {
        return f64::NAN;
    }
    let total: i64 = a
        .par_iter()
        .zip(b)
        .map(|(&x, &y)| (x as i64 - y as i64).abs())
        .sum();
    total as f64 / a.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_median_combine_and_failures_or_mates_win() {
        assert_eq!(Combine::Mean.apply(&[10, 20, 90]), 40);
        assert_eq!(Combine::Median.apply(&[10, 20, 90]), 20);
        assert_eq!(Combine::Median.apply(&[90, 10, 20, 30]), 25);
        assert_eq!(Combine::Mean.apply(&[-3, -4]), -4);
        let a = vec![
            Some(Label::Cp(10)),
            Some(Label::Cp(0)),
            None,
            Some(Label::Mate),
        ];
        let b = vec![
            Some(Label::Cp(30)),
            Some(Label::Mate),
            Some(Label::Cp(5)),
            None,
        ];
        let c = combine_labels(&[a.clone(), b], Combine::Mean);
        assert_eq!(
            c,
            vec![
                Some(Label::Cp(20)),
                Some(Label::Mate),
                None,
                Some(Label::Mate)
            ]
        );
        // One mentor: the combination is that mentor.
        assert_eq!(combine_labels(std::slice::from_ref(&a), Combine::Median), a);
        assert_eq!(kept_scores(&a, &[true, true, false, false]), vec![10, 0]);
        assert_eq!(mean_abs_diff(&[1, -5], &[3, 5]), 6.0);
        assert!("mode".parse::<Combine>().is_err());
    }
}
