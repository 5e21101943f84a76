//! Bad flag values, command by command: non-finite, zero, negative, out of range, duplicate,
//! unwritable path; a list flag's repeated item. Each is refused before any work with a non-zero exit and one error line
//! naming the flag, and leaves no file behind (docs/params.md).

use crate::common;

use common::{fixture, stderr, temp_dir};
use std::path::Path;
use std::process::Command;

/// `(command line, the flag its error must name)`; `BK` stands for the Bratko-Kopec fixture,
/// `FILE` for a regular file in the working folder (a folder cannot be made under it).
const CASES: &[(&str, &str)] = &[
    // bench, epd, search-stats, chessmaps: hash bounded like the UCI option Hash.
    ("bench --hash 99999999", "--hash"),
    ("bench 1 --hash 99999999", "--hash"),
    ("bench --hash 0", "--hash"),
    ("bench --hash=-16", "--hash"),
    ("epd BK --depth 1 --hash 65537", "--hash"),
    ("epd BK --depth 1 --concurrency 0", "--concurrency"),
    ("epd BK --nodes 0", "--nodes"),
    ("search-stats --hash 0", "--hash"),
    ("chessmaps bench --hash 99999999", "--hash"),
    ("chessmaps bench --limit 0", "--limit"),
    ("chessmaps train --learning-rate nan", "--learning-rate"),
    ("chessmaps train --learning-rate 0", "--learning-rate"),
    ("chessmaps train --epochs 0", "--epochs"),
    (
        "chessmaps train --output /nonexistent/dir/n.net",
        "--output",
    ),
    // match
    ("match --games 2 --sprt 0,inf", "--sprt"),
    ("match --games 2 --sprt nan,5", "--sprt"),
    ("match --games 2 --sprt 5,0", "--sprt"),
    ("match --games 2 --sprt 0,5,0,0.05", "--sprt"),
    ("match --games 0", "--games"),
    ("match --games 2 --concurrency 0", "--concurrency"),
    ("match --games 2 --hash 99999999", "--hash"),
    ("match --games 2 --uci-timeout nan", "--uci-timeout"),
    ("match --games 2 --uci-timeout=-1", "--uci-timeout"),
    ("match --games 2 --tc inf+0", "--tc"),
    ("match --games 2 --max-moves 0", "--max-moves"),
    (
        "match --games 2 --pgn-out /nonexistent/dir/g.pgn",
        "--pgn-out",
    ),
    (
        "match --games 2 --checkpoint /nonexistent/dir/c.json",
        "--checkpoint",
    ),
    // evolve (mentor GA) and the GA flags every GA shares
    ("evolve --target-error nan", "--target-error"),
    ("evolve --target-error=-1", "--target-error"),
    ("evolve --sample 0", "--sample"),
    ("evolve --mentor builtin,builtin", "--mentor"),
    ("evolve --crossover-rate 1.5", "--crossover-rate"),
    ("evolve --mutation-rate nan", "--mutation-rate"),
    ("evolve --step 0", "--step"),
    ("evolve --step-end=-0.1", "--step-end"),
    ("evolve --blend-alpha inf", "--blend-alpha"),
    ("evolve --population 0", "--population"),
    ("evolve --generations 0", "--generations"),
    ("evolve --stall 0", "--stall"),
    ("evolve --threads 0", "--threads"),
    ("evolve --out FILE/out", "--out"),
    ("evolve --labels /nonexistent/dir/l.tsv", "--labels"),
    (
        "evolve positions --output /nonexistent/dir/p.epd",
        "--output",
    ),
    // evolve search
    ("evolve search --test-fraction 1", "--test-fraction"),
    ("evolve search --test-fraction nan", "--test-fraction"),
    ("evolve search --hash 0", "--hash"),
    (
        "evolve search --simplify-tolerance=-0.5",
        "--simplify-tolerance",
    ),
    ("evolve search --train-size 0", "--train-size"),
    ("evolve search --out FILE/out", "--out"),
    // evolve tournament
    ("evolve tournament --mutation-rate 2", "--mutation-rate"),
    ("evolve tournament --population 0", "--population"),
    ("evolve tournament --opening-count 0", "--opening-count"),
    // evolve moves
    ("evolve moves --games 0", "--games"),
    ("evolve moves --recognise Carlsen,Carlsen", "--recognise"),
    ("evolve moves --per-game 0", "--per-game"),
    // evolve coevolve
    (
        "evolve coevolve --parents a.toml,b.toml,a.toml",
        "--parents",
    ),
    ("evolve coevolve --margin nan", "--margin"),
    ("evolve coevolve --margin=-0.1", "--margin"),
    ("evolve coevolve --finalists 0", "--finalists"),
    ("evolve coevolve --playoff-nodes 0", "--playoff-nodes"),
    (
        "evolve coevolve --openings-per-pair 0",
        "--openings-per-pair",
    ),
    // evolve mnc
    ("evolve mnc --db /nonexistent/dir/x.db", "--db"),
    ("evolve mnc --sigma inf", "--sigma"),
    ("evolve mnc --niche-radius 0", "--niche-radius"),
    ("evolve mnc --crossover-rate=-0.1", "--crossover-rate"),
    ("evolve mnc --init-range nan", "--init-range"),
    ("evolve mnc --population 0", "--population"),
    ("evolve mnc --group-size 0", "--group-size"),
    ("evolve mnc --resign-moves 0", "--resign-moves"),
    // evolve games
    ("evolve games --set KNIGHT_VALUE,KNIGHT_VALUE", "--set"),
    ("evolve games --set KNIGHT_VALUE --hash 0", "--hash"),
    (
        "evolve games --set KNIGHT_VALUE --start-spread 0",
        "--start-spread",
    ),
    ("evolve games --set KNIGHT_VALUE --keep 1.5", "--keep"),
    (
        "evolve games --set KNIGHT_VALUE --first-pairs 0",
        "--first-pairs",
    ),
    // tune
    ("tune --test-fraction 1", "--test-fraction"),
    ("tune --freeze PAWN_VALUE,PAWN_VALUE", "--freeze"),
    ("tune --lambda 2", "--lambda"),
    ("tune --k 0", "--k"),
    ("tune --lr nan", "--lr"),
    ("tune --l2=-1", "--l2"),
    ("tune --per-game 0", "--per-game"),
    ("tune --labels /nonexistent/dir/l.tsv", "--labels"),
    ("tune --out FILE/out", "--out"),
    // tune spsa, spsa-input
    ("tune spsa --set KNIGHT_VALUE,KNIGHT_VALUE", "--set"),
    ("tune spsa --set KNIGHT_VALUE --hash 99999999", "--hash"),
    ("tune spsa --set KNIGHT_VALUE --r-end 0", "--r-end"),
    (
        "tune spsa --set KNIGHT_VALUE --c-end-scale inf",
        "--c-end-scale",
    ),
    ("tune spsa --set KNIGHT_VALUE --pairs 0", "--pairs"),
    (
        "tune spsa --set KNIGHT_VALUE --checkpoint-every 0",
        "--checkpoint-every",
    ),
    (
        "tune spsa --set KNIGHT_VALUE --verify-sprt 0,inf",
        "--verify-sprt",
    ),
    (
        "tune spsa --set KNIGHT_VALUE --verify-sprt 0,10 --adopt /nonexistent/dir/a.toml",
        "--adopt",
    ),
    ("tune spsa-input --r-end nan", "--r-end"),
    // book, db
    (
        "book build --text BK --output /nonexistent/dir/b.kbk",
        "--output",
    ),
    (
        "db export best --output /nonexistent/dir/p.toml",
        "--output",
    ),
];

/// The folder's entries, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_bad_value_is_one_error_line_naming_its_flag_and_writes_nothing() {
    let dir = temp_dir("bad-values");
    std::fs::write(dir.join("FILE"), "a file, not a folder").unwrap();
    let bk = fixture("bk.epd");
    let mut failures = Vec::new();
    for (line, flag) in CASES {
        let args: Vec<&str> = line
            .split_whitespace()
            .map(|w| if w == "BK" { bk.as_str() } else { w })
            .collect();
        let o = Command::new(env!("CARGO_BIN_EXE_kestrel"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .expect("kestrel runs");
        let err = stderr(&o);
        let mut lines = err.lines().filter(|l| !l.trim().is_empty());
        let first = lines.next().unwrap_or("");
        // clap's tip to try --help may follow the error line; nothing else may.
        let rest: Vec<&str> = lines.filter(|l| !l.contains("try '--help'")).collect();
        // clap's own errors quote the flag (`for '--hash <HASH>'`); list checks start with it.
        let named = first.starts_with("error:")
            && (first.contains(&format!("'{flag} "))
                || first.starts_with(&format!("error: {flag}:")));
        if o.status.success() || !named || !rest.is_empty() {
            failures.push(format!("kestrel {line}: exit {:?}\n{err}", o.status.code()));
        }
        let repeated = [
            "KNIGHT_VALUE,KNIGHT",
            "builtin,builtin",
            "a.toml,b.toml,a",
            "Carlsen,C",
            "PAWN_VALUE,P",
        ];
        if repeated.iter().any(|r| line.contains(r)) && !first.contains("duplicate") {
            failures.push(format!("kestrel {line}: no 'duplicate' in {first}"));
        }
        if entries(&dir) != ["FILE"] {
            failures.push(format!("kestrel {line} wrote {:?}", entries(&dir)));
        }
        assert!(!Path::new("/nonexistent").exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
