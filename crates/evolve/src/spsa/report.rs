//! The run's CSV (every parameter's path with the running results) and SVG chart (each
//! parameter's path in steps from its start, and θ+'s measured Elo against θ− over games).

use super::state::{SpsaRow, SpsaState};
use kestrel_tools::Penta;
use kestrel_tools::stats::Wdl;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

/// The row's pair counts as a [`Penta`].
pub fn row_penta(row: &SpsaRow) -> Penta {
    let [ll, ld, wl, dd, wd, ww] = row.penta;
    Penta {
        ll,
        ld,
        wl,
        dd,
        wd,
        ww,
    }
}

/// θ+'s Elo against θ− and its 95% error: pentanomial when there are pairs, else trinomial.
pub fn row_elo(row: &SpsaRow) -> (f64, f64) {
    let penta = row_penta(row);
    if penta.pairs() > 0 {
        let s = penta.summary();
        return (s.elo, s.elo_error);
    }
    let w = Wdl::new(row.wdl[0], row.wdl[1], row.wdl[2]).summary();
    (w.elo, (w.ci_high - w.ci_low) / 2.0)
}

/// Writes `spsa.csv` atomically: one line per iteration.
pub fn write_csv(path: &Path, state: &SpsaState) -> Result<(), String> {
    let mut s = String::from(
        "iteration,games,wins,draws,losses,LL,LD,WL,DD,WD,WW,faults,elo_plus_vs_minus,elo_error",
    );
    for p in &state.params {
        write!(s, ",{}", p.name).expect("string write");
    }
    s.push('\n');
    for r in &state.rows {
        let (elo, err) = row_elo(r);
        write!(
            s,
            "{},{},{},{},{}",
            r.iteration, r.games, r.wdl[0], r.wdl[1], r.wdl[2]
        )
        .expect("string write");
        for c in r.penta {
            write!(s, ",{c}").expect("string write");
        }
        write!(s, ",{},{elo:.2},{err:.2}", r.faults).expect("string write");
        for t in &r.theta {
            write!(s, ",{t:.4}").expect("string write");
        }
        s.push('\n');
    }
    kestrel_params::atomic::write_atomic(path, s.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes `spsa.svg` atomically.
pub fn write_chart(path: &Path, state: &SpsaState) -> Result<(), String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 800)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("cannot draw chart: {e:?}");
        root.fill(&WHITE).map_err(err)?;
        let (top, bottom) = root.split_vertically(480);
        draw_paths(&top, state).map_err(err)?;
        draw_elo(&bottom, state).map_err(err)?;
        root.present().map_err(err)?;
    }
    kestrel_params::atomic::write_atomic(path, svg.as_bytes())
        .map_err(|e| format!("cannot write chart {}: {e}", path.display()))
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
type DrawResult<'a> =
    Result<(), DrawingAreaErrorKind<<SVGBackend<'a> as DrawingBackend>::ErrorType>>;

/// Every parameter's θ in steps (`c_end`) from its start, over iterations.
fn draw_paths<'a>(area: &Area<'a>, state: &SpsaState) -> DrawResult<'a> {
    let steps = |i: usize, r: &SpsaRow| {
        (r.theta[i] - state.params[i].start) / state.params[i].c_end.max(1e-9)
    };
    let extent = state
        .rows
        .iter()
        .flat_map(|r| (0..state.params.len()).map(move |i| steps(i, r).abs()))
        .fold(1.0f64, f64::max);
    let last = state.rows.last().map_or(1, |r| r.iteration.max(1));
    let mut chart = ChartBuilder::on(area)
        .caption("SPSA: parameters (steps from start)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(50)
        .build_cartesian_2d(0u64..last, -extent * 1.1..extent * 1.1)?;
    chart
        .configure_mesh()
        .x_desc("iteration")
        .y_desc("(θ − start) / step")
        .draw()?;
    for i in 0..state.params.len() {
        let colour = Palette99::pick(i).to_rgba();
        let points: Vec<(u64, f64)> = std::iter::once((0, 0.0))
            .chain(state.rows.iter().map(|r| (r.iteration, steps(i, r))))
            .collect();
        let series = chart.draw_series(LineSeries::new(points, colour))?;
        // A legend for up to 12 parameters; more would hide the chart.
        if i < 12 {
            series
                .label(state.params[i].name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour));
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
}

/// θ+'s running Elo against θ− (with its 95% error) over games.
fn draw_elo<'a>(area: &Area<'a>, state: &SpsaState) -> DrawResult<'a> {
    let points: Vec<(u64, f64, f64)> = state
        .rows
        .iter()
        .map(|r| {
            let (e, err) = row_elo(r);
            (r.games, e, err)
        })
        .filter(|(_, e, err)| e.is_finite() && err.is_finite())
        .collect();
    let extent = points
        .iter()
        .map(|(_, e, err)| e.abs() + err)
        .fold(10.0f64, f64::max)
        .min(400.0);
    let last = state.rows.last().map_or(1, |r| r.games.max(1));
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Measured Elo of θ+ against θ− (95% error)",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(50)
        .build_cartesian_2d(0u64..last, -extent..extent)?;
    chart
        .configure_mesh()
        .x_desc("games")
        .y_desc("Elo")
        .draw()?;
    let clamp = |v: f64| v.clamp(-extent, extent);
    chart.draw_series(LineSeries::new(
        points.iter().map(|&(g, e, _)| (g, clamp(e))),
        &BLUE,
    ))?;
    for sign in [-1.0, 1.0] {
        chart.draw_series(LineSeries::new(
            points.iter().map(|&(g, e, err)| (g, clamp(e + sign * err))),
            BLUE.mix(0.3),
        ))?;
    }
    Ok(())
}
