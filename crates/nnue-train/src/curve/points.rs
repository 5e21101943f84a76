//! The points file of the strength curve: a CSV with the header
//! `labels,hidden,positions,elo,error,games,limit`, one measured network a line, e.g.
//! `self,256,1774651,-170.6,35.8,400,5000 nodes`. Fields hold no commas and no quotes. Reading
//! is strict: any malformed line is an error naming its line number.

use std::path::Path;

/// The header every points file starts with.
pub const HEADER: &str = "labels,hidden,positions,elo,error,games,limit";

/// One measured network: its training set and its strength against the linear evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    /// Where the training scores came from: `self` (Kestrel's search), `sf8` (Stockfish at
    /// depth 8), or any other name.
    pub labels: String,
    /// Neurons per perspective.
    pub hidden: u64,
    /// Training positions.
    pub positions: u64,
    /// Elo against the linear evaluation.
    pub elo: f64,
    /// Half the 95% confidence interval of `elo`.
    pub error: f64,
    /// Games of the match.
    pub games: u64,
    /// The match's limit, as text (e.g. `5000 nodes`, `5+0.05`).
    pub limit: String,
}

/// Reads the points of the file at `path`; an unreadable, empty or malformed file is an error
/// naming the file (and the line).
pub fn read_points(path: &Path) -> Result<Vec<CurvePoint>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read points file {}: {e}", path.display()))?;
    parse_points(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of a points file: the header, then at least one point. Blank lines are
/// skipped; every other line must be a well-formed point (the error names its line number).
pub fn parse_points(text: &str) -> Result<Vec<CurvePoint>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty());
    let Some((number, header)) = lines.next() else {
        return Err(format!("empty file: expected the header '{HEADER}'"));
    };
    let fields: Vec<&str> = header.split(',').map(str::trim).collect();
    if fields.join(",") != HEADER {
        return Err(format!(
            "line {number}: expected the header '{HEADER}', found '{header}'"
        ));
    }
    let points = lines
        .map(|(number, line)| parse_line(line).map_err(|e| format!("line {number}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    if points.is_empty() {
        return Err("no point after the header".into());
    }
    Ok(points)
}

/// One point from one line.
fn parse_line(line: &str) -> Result<CurvePoint, String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [labels, hidden, positions, elo, error, games, limit] = fields[..] else {
        return Err(format!(
            "expected 7 fields ({HEADER}), found {}: '{line}'",
            fields.len()
        ));
    };
    let point = CurvePoint {
        labels: text_field("labels", labels)?,
        hidden: count_field("hidden", hidden)?,
        positions: count_field("positions", positions)?,
        elo: number_field("elo", elo)?,
        error: number_field("error", error)?,
        games: count_field("games", games)?,
        limit: text_field("limit", limit)?,
    };
    if point.error < 0.0 {
        return Err(format!("error must not be negative, not '{error}'"));
    }
    Ok(point)
}

/// A non-empty text field.
fn text_field(name: &str, value: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err(format!("{name} is empty"));
    }
    Ok(value.to_string())
}

/// A whole number above zero (a count: a network, a data set and a match are never empty).
fn count_field(name: &str, value: &str) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "{name} must be a whole number above 0, not '{value}'"
        )),
    }
}

/// A finite number.
fn number_field(name: &str, value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("{name} must be a finite number, not '{value}'")),
    }
}
