//! EPD test suites: search each `bm`/`am` position under a limit and report whether the final
//! move is right, when the right move was first found and kept, and totals (solved count,
//! nodes to solution, STS points). "Total nodes to solve" is a fitness for the search GA.

use kestrel_chess::{Board, EpdRecord, Move};
use kestrel_search::{EngineConfig, SearchLimits, Searcher};
use rayon::prelude::*;
use std::time::Duration;

/// A test position.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    /// 1-based line in the file.
    pub line: usize,
    /// The EPD `id` operation, or `line N` when there is none.
    pub id: String,
    /// The position to search.
    pub board: Board,
    /// Moves from the `bm` operation: playing any one of them solves the position.
    pub best: Vec<Move>,
    /// Moves from the `am` operation: playing one of them fails.
    pub avoid: Vec<Move>,
    /// STS-style points per move from the `c0` operation ("f5=10, Be5+=2"); empty if none.
    pub points: Vec<(Move, u32)>,
}

impl SuitePosition {
    /// Right when it is a best move (if any are given) and not a move to avoid.
    pub fn is_correct(&self, mv: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
    }

    /// Points for playing `mv` (0 when it is not listed).
    pub fn points_for(&self, mv: Move) -> u32 {
        self.points
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |(_, p)| *p)
    }

    /// The most points any listed move earns (0 without `c0` points).
    pub fn max_points(&self) -> u32 {
        self.points.iter().map(|(_, p)| *p).max().unwrap_or(0)
    }
}

/// Turns parsed records into test positions. Records without `bm`/`am`, or whose moves do
/// not parse, are returned as `(line, reason)` problems instead.
pub fn positions_from_records(
    records: Vec<(usize, EpdRecord)>,
) -> (Vec<SuitePosition>, Vec<(usize, String)>) {
    let mut positions = Vec::new();
    let mut problems = Vec::new();
    for (line, rec) in records {
        let id = rec
            .id()
            .map_or_else(|| format!("line {line}"), str::to_string);
        let moves = rec.best_moves().and_then(|b| Ok((b, rec.avoid_moves()?)));
        let (best, avoid) = match moves {
            Ok(m) => m,
            Err(e) => {
                problems.push((line, format!("{id}: bad bm/am move: {e}")));
                continue;
            }
        };
        if best.is_empty() && avoid.is_empty() {
            problems.push((line, format!("{id}: no bm or am operation")));
            continue;
        }
        let points = match rec.op("c0").and_then(|v| v.first()) {
            Some(text) => parse_points(&rec.board, text).unwrap_or_default(),
            None => Vec::new(),
        };
        positions.push(SuitePosition {
            line,
            id,
            board: rec.board,
            best,
            avoid,
            points,
        });
    }
    (positions, problems)
}

/// Reads STS scoring like `"f5=10, Be5+=2, Bf2=3"`; `None` when the comment is not of that
/// form (other suites use `c0` for sources and remarks).
pub fn parse_points(board: &Board, text: &str) -> Option<Vec<(Move, u32)>> {
    text.split(',')
        .map(|part| {
            let (san, pts) = part.trim().split_once('=')?;
            let mv = board.parse_san(san.trim()).ok()?;
            Some((mv, pts.trim().parse().ok()?))
        })
        .collect()
}

/// The search limit per position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EpdLimit {
    /// Search each position to this depth, in plies.
    Depth(i32),
    /// Search each position for this many nodes.
    Nodes(u64),
    /// Search each position for this long (positions then run one at a time).
    MoveTime(Duration),
}

impl EpdLimit {
    fn search_limits(&self) -> SearchLimits {
        match *self {
            EpdLimit::Depth(d) => SearchLimits::depth(d),
            EpdLimit::Nodes(n) => SearchLimits::nodes(n),
            EpdLimit::MoveTime(t) => SearchLimits::movetime(t),
        }
    }
}

impl std::fmt::Display for EpdLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EpdLimit::Depth(d) => write!(f, "depth {d}"),
            EpdLimit::Nodes(n) => write!(f, "{n} nodes"),
            EpdLimit::MoveTime(t) => write!(f, "{} ms", t.as_millis()),
        }
    }
}

/// When the right move was first found and then kept to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoundAt {
    /// Depth (plies) of the report from which the right move led the principal variation.
    pub depth: i32,
    /// Nodes searched by then.
    pub nodes: u64,
    /// Search time by then.
    pub time: Duration,
}

/// What searching one suite position gave.
#[derive(Clone, Debug)]
pub struct PositionOutcome {
    /// 1-based line of the position in the file.
    pub line: usize,
    /// The position's id (EPD `id`, or `line N`).
    pub id: String,
    /// The move the search finally chose (`None` if it gave none).
    pub chosen: Option<Move>,
    /// The chosen move in SAN ("-" when there was none).
    pub chosen_san: String,
    /// Whether the chosen move is correct (a `bm` move, if any, and no `am` move).
    pub solved: bool,
    /// When the right move was found and kept; `Some` only when solved.
    pub found: Option<FoundAt>,
    /// Total nodes and time of the search, and its final depth.
    pub nodes: u64,
    /// Total time of the search.
    pub time: Duration,
    /// Final depth of the search, in plies.
    pub depth: i32,
    /// Nodes counted toward "nodes to solution": when found if solved, else the limit (the
    /// node limit, or the nodes searched under depth/time limits).
    pub nodes_to_solution: u64,
    /// STS points for the chosen move and the position's maximum (when it has `c0` points).
    pub points: Option<(u32, u32)>,
}

/// Results for the whole suite.
#[derive(Clone, Debug)]
pub struct SuiteReport {
    /// One outcome per position, in suite order.
    pub outcomes: Vec<PositionOutcome>,
}

impl SuiteReport {
    /// Number of positions solved.
    pub fn solved(&self) -> usize {
        self.outcomes.iter().filter(|o| o.solved).count()
    }

    /// Nodes to solution summed over the suite: the search GA's fitness (lower is better).
    pub fn total_nodes_to_solution(&self) -> u64 {
        self.outcomes.iter().map(|o| o.nodes_to_solution).sum()
    }

    /// Nodes searched over the whole suite.
    pub fn total_nodes(&self) -> u64 {
        self.outcomes.iter().map(|o| o.nodes).sum()
    }

    /// `(points, maximum)` over positions that carry points.
    pub fn points(&self) -> Option<(u32, u32)> {
        let scored: Vec<(u32, u32)> = self.outcomes.iter().filter_map(|o| o.points).collect();
        if scored.is_empty() {
            None
        } else {
            Some(scored.iter().fold((0, 0), |(a, b), (p, m)| (a + p, b + m)))
        }
    }
}

/// Runs the suite. Depth and node limits search positions in parallel on `threads` workers
/// (each position with a cleared searcher, so the result does not depend on the order);
/// movetime limits search one position at a time so that timing is not disturbed.
pub fn run_suite(
    positions: &[SuitePosition],
    config: &EngineConfig,
    limit: EpdLimit,
    threads: usize,
    on_done: &(dyn Fn(&PositionOutcome) + Sync),
) -> SuiteReport {
    let solve_one = |searcher: &mut Searcher, p: &SuitePosition| {
        searcher.new_game();
        let outcome = solve(searcher, p, limit);
        on_done(&outcome);
        outcome
    };
    let outcomes = if matches!(limit, EpdLimit::MoveTime(_)) || threads <= 1 {
        let mut searcher = Searcher::new(config.clone());
        positions
            .iter()
            .map(|p| solve_one(&mut searcher, p))
            .collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
        let work = || {
            positions
                .par_iter()
                .map_init(|| Searcher::new(config.clone()), solve_one)
                .collect()
        };
        match pool {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        }
    };
    SuiteReport { outcomes }
}

/// Searches one position, tracking from the progress reports when the right move appeared at
/// the head of the principal variation for good.
pub fn solve(searcher: &mut Searcher, p: &SuitePosition, limit: EpdLimit) -> PositionOutcome {
    let mut found: Option<FoundAt> = None;
    searcher.control().reset();
    let result = searcher.search(&p.board, &limit.search_limits(), &mut |info| {
        if info.multipv > 1 {
            return;
        }
        let Some(&head) = info.pv.first() else {
            return;
        };
        if p.is_correct(head) {
            found.get_or_insert(FoundAt {
                depth: info.depth,
                nodes: info.nodes,
                time: info.time,
            });
        } else {
            found = None;
        }
    });
    let solved = result.best_move.is_some_and(|m| p.is_correct(m));
    let found = if solved {
        Some(found.unwrap_or(FoundAt {
            depth: result.depth,
            nodes: result.nodes,
            time: result.time,
        }))
    } else {
        None
    };
    let at_limit = match limit {
        EpdLimit::Nodes(n) => n.max(result.nodes),
        _ => result.nodes,
    };
    let points = (!p.points.is_empty()).then(|| {
        let got = result.best_move.map_or(0, |m| p.points_for(m));
        (got, p.max_points())
    });
    PositionOutcome {
        line: p.line,
        id: p.id.clone(),
        chosen: result.best_move,
        chosen_san: result
            .best_move
            .map_or_else(|| "-".to_string(), |m| p.board.to_san(m)),
        solved,
        found,
        nodes: result.nodes,
        time: result.time,
        depth: result.depth,
        nodes_to_solution: found.map_or(at_limit, |f| f.nodes),
        points,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(line: &str) -> EpdRecord {
        EpdRecord::parse(line).unwrap()
    }

    #[test]
    fn sts_points_are_read_from_c0() {
        let rec = record(
            "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id \"STS.001\"; \
             c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";",
        );
        let (pos, problems) = positions_from_records(vec![(1, rec)]);
        assert!(problems.is_empty());
        let p = &pos[0];
        assert_eq!(p.points.len(), 4);
        assert_eq!(p.max_points(), 10);
        let bf2 = p.board.parse_san("Bf2").unwrap();
        assert_eq!(p.points_for(bf2), 3);
        assert_eq!(p.points_for(p.board.parse_san("Kg2").unwrap()), 0);
        assert!(p.is_correct(p.board.parse_san("f5").unwrap()));
        assert!(!p.is_correct(bf2));
        // A free-text c0 is not a scoring.
        assert!(parse_points(&p.board, "Korchnoi - Karpov, 1981").is_none());
    }

    #[test]
    fn records_without_test_moves_are_reported() {
        let plain = record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"x\";");
        let am = record("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - am e4;");
        let (pos, problems) = positions_from_records(vec![(3, plain), (4, am)]);
        assert_eq!(pos.len(), 1);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, 3);
        let p = &pos[0];
        assert!(!p.is_correct(p.board.parse_san("e4").unwrap()));
        assert!(p.is_correct(p.board.parse_san("d4").unwrap()));
    }

    #[test]
    fn mate_in_one_is_solved_and_tracked() {
        // Back-rank mate: Re8#.
        let rec = record("6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#; id \"m1\";");
        let (pos, _) = positions_from_records(vec![(1, rec)]);
        let config = EngineConfig::default();
        let report = run_suite(&pos, &config, EpdLimit::Depth(3), 1, &|_| {});
        let o = &report.outcomes[0];
        assert!(o.solved, "{o:?}");
        assert_eq!(o.chosen_san, "Re8#");
        let found = o.found.unwrap();
        assert!(found.nodes <= o.nodes);
        assert_eq!(o.nodes_to_solution, found.nodes);
        assert_eq!(report.solved(), 1);
    }

    #[test]
    fn wrong_answers_count_at_the_limit() {
        // "Best" move a4 is a dummy that the engine does not choose: mate is on the board.
        let rec = record("6k1/5ppp/8/8/8/8/P7/4R1K1 w - - bm a4; id \"x\";");
        let (pos, _) = positions_from_records(vec![(1, rec)]);
        let report = run_suite(
            &pos,
            &EngineConfig::default(),
            EpdLimit::Depth(2),
            1,
            &|_| {},
        );
        let o = &report.outcomes[0];
        assert!(!o.solved && o.found.is_none());
        assert_eq!(o.nodes_to_solution, o.nodes);
        assert_eq!(report.solved(), 0);
    }
}
