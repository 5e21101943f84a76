//! The constants of the win/draw/loss model ([`kestrel_search::wdl`]): `a` and `b` as
//! polynomials of one degree in `x = material / 58`, and their values at interpolation nodes,
//! the coordinates a fit searches in (each moves the curve near one material, nearly
//! independently of the others, where the coefficients of `1, x, x², x³` are strongly tied).

use kestrel_search::wdl::{WDL_A, WDL_B, WDL_MATERIAL_RANGE, polynomial, wdl_params};

/// `a` and `b` as polynomials in `x = material / 58`, coefficients from the constant term up,
/// both of the same length (degree + 1).
#[derive(Clone, Debug, PartialEq)]
pub struct WdlConstants {
    /// Coefficients of `a`.
    pub a: Vec<f64>,
    /// Coefficients of `b`.
    pub b: Vec<f64>,
}

impl WdlConstants {
    /// The constants the engine ships with.
    pub fn shipped() -> WdlConstants {
        WdlConstants {
            a: WDL_A.to_vec(),
            b: WDL_B.to_vec(),
        }
    }

    /// The polynomials' degree.
    pub fn degree(&self) -> usize {
        self.a.len().saturating_sub(1)
    }

    /// `(a, b)` at every material of the model's range, from the least up.
    pub fn table(&self) -> Vec<(f64, f64)> {
        let (lo, hi) = WDL_MATERIAL_RANGE;
        (lo..=hi).map(|m| wdl_params(m, &self.a, &self.b)).collect()
    }

    /// Whether the spread `b` stays above one centipawn at every material of the range.
    pub fn spread_is_positive(&self) -> bool {
        let (lo, hi) = WDL_MATERIAL_RANGE;
        (lo..=hi).all(|m| polynomial(&self.b, f64::from(m) / 58.0) > 1.0)
    }

    /// The values of `a` and of `b` at the nodes of `degree` ([`nodes`]): a curve of another
    /// degree is sampled there, so these are where a fit of `degree` starts from.
    pub fn node_values(&self, degree: usize) -> (Vec<f64>, Vec<f64>) {
        let at = |c: &[f64]| nodes(degree).iter().map(|&x| polynomial(c, x)).collect();
        (at(&self.a), at(&self.b))
    }

    /// The constants whose curves pass through `a_values` and `b_values` at the nodes of their
    /// degree (their length minus one).
    pub fn from_node_values(a_values: &[f64], b_values: &[f64]) -> WdlConstants {
        let xs = nodes(a_values.len() - 1);
        WdlConstants {
            a: interpolate(&xs, a_values),
            b: interpolate(&xs, b_values),
        }
    }

    /// The constants as the Rust expression of `WDL_FIT` in `crates/search/src/wdl.rs`.
    pub fn rust_literal(&self) -> String {
        let list = |c: &[f64]| {
            let items: Vec<String> = c.iter().map(|v| format!("{v:.2}")).collect();
            format!("[{}]", items.join(", "))
        };
        let n = self.a.len();
        format!(
            "const WDL_FIT: ([f64; {n}], [f64; {n}]) = ({}, {});",
            list(&self.a),
            list(&self.b)
        )
    }
}

/// The `degree + 1` Chebyshev nodes of the model's material range, in `x = material / 58`.
pub fn nodes(degree: usize) -> Vec<f64> {
    let (lo, hi) = WDL_MATERIAL_RANGE;
    let (centre, half) = (
        f64::from(lo + hi) / 2.0 / 58.0,
        f64::from(hi - lo) / 2.0 / 58.0,
    );
    let n = degree + 1;
    (0..n)
        .map(|k| {
            let angle = std::f64::consts::PI * (2 * k + 1) as f64 / (2 * n) as f64;
            centre + half * angle.cos()
        })
        .collect()
}

/// The coefficients (constant term first) of the polynomial through `(xs[i], ys[i])`, by
/// Gaussian elimination with partial pivoting on the Vandermonde system (distinct `xs`).
pub fn interpolate(xs: &[f64], ys: &[f64]) -> Vec<f64> {
    let n = xs.len();
    let mut rows: Vec<Vec<f64>> = xs
        .iter()
        .zip(ys)
        .map(|(&x, &y)| {
            let mut row: Vec<f64> = (0..n).map(|j| x.powi(j as i32)).collect();
            row.push(y);
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| rows[i][col].abs().total_cmp(&rows[j][col].abs()))
            .expect("a row is left");
        rows.swap(col, pivot);
        let pivot_row = rows[col].clone();
        for row in rows.iter_mut().skip(col + 1) {
            let factor = row[col] / pivot_row[col];
            for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                *x -= factor * p;
            }
        }
    }
    let mut coefficients = vec![0.0; n];
    for i in (0..n).rev() {
        let known: f64 = (i + 1..n).map(|j| rows[i][j] * coefficients[j]).sum();
        coefficients[i] = (rows[i][n] - known) / rows[i][i];
    }
    coefficients
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_values_and_coefficients_convert_both_ways() {
        let cubic = WdlConstants {
            a: vec![100.0, -50.0, 300.0, -120.0],
            b: vec![60.0, 20.0, -10.0, 5.0],
        };
        let (a, b) = cubic.node_values(3);
        let back = WdlConstants::from_node_values(&a, &b);
        for (x, y) in back
            .a
            .iter()
            .chain(&back.b)
            .zip(cubic.a.iter().chain(&cubic.b))
        {
            assert!((x - y).abs() < 1e-9, "{back:?}");
        }
        // A lower degree's curve sampled at a higher degree's nodes is the same curve.
        let line = WdlConstants {
            a: vec![642.7, -466.6],
            b: vec![350.2, -218.3],
        };
        let (a, b) = line.node_values(3);
        let raised = WdlConstants::from_node_values(&a, &b);
        assert_eq!(raised.degree(), 3);
        for (&(a1, b1), &(a2, b2)) in line.table().iter().zip(&raised.table()) {
            assert!((a1 - a2).abs() < 1e-9 && (b1 - b2).abs() < 1e-9);
        }
        assert!(
            raised
                .rust_literal()
                .starts_with("const WDL_FIT: ([f64; 4], [f64; 4]) = ([642.70, -466.60, ")
        );
    }

    #[test]
    fn nodes_lie_inside_the_material_range() {
        for degree in 0..5 {
            let xs = nodes(degree);
            assert_eq!(xs.len(), degree + 1);
            assert!(xs.iter().all(|&x| x > 10.0 / 58.0 && x < 78.0 / 58.0));
        }
    }
}
