#!/usr/bin/env python3
"""Calibrate Kestrel's UCI_Elo against Stockfish's UCI_Elo.

For each level E (Stockfish's lowest, 1320 or 1350, to 2500 in steps of 200 by default) plays
Kestrel with UCI_LimitStrength and UCI_Elo E against Stockfish with UCI_LimitStrength and
UCI_Elo E through `kestrel match` (game pairs, pentanomial statistics), then writes the table
(E, score, Elo difference +- error, games, pentanomial) as Markdown and CSV, and fits the
mapping: Kestrel's true level at setting E is about E + diff(E); the least-squares line
through (E, E + diff) is printed with the UCI_Elo each Stockfish level needs.

The full run (7 levels x 100+ games at 5+0.05) takes hours of both cores:

    python3 scripts/calibrate-elo.py --out /work/runs/elo-calibration

A smoke check of the script itself:

    python3 scripts/calibrate-elo.py --levels 1350 --games 4 --tc 1+0.01 --out /tmp/elo-smoke
"""

import argparse
import csv
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kestrel", default=os.path.join(ROOT, "target/release/kestrel"))
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    p.add_argument("--levels", default=None,
                   help="comma-separated UCI_Elo levels (default: Stockfish's lowest UCI_Elo "
                        "to 2500 in steps of 200, and 2500); K:S plays Kestrel at K against "
                        "Stockfish at S (for fitting the mapping)")
    p.add_argument("--games", type=int, default=100, help="games per level (even)")
    p.add_argument("--tc", default="5+0.05")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--openings", default="builtin:openings-gm2600.epd")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="folder for the PGNs, logs and the table")
    return p.parse_args()


ELO_LINE = re.compile(r"score ([\d.]+)%, Elo ([+-][\d.]+|[+-]?inf) ± ([\d.]+|inf)")
PAIR_ELO_LINE = re.compile(r"pairs: Ptnml\(0-2\) \[[\d, ]+\] \([^)]*\), Elo ([+-][\d.]+|[+-]?inf) ± ([\d.]+|inf)")
PTNML_LINE = re.compile(r"Ptnml\(0-2\) \[([\d, ]+)\]")
GAMES_LINE = re.compile(r"W (\d+) D (\d+) L (\d+) \((\d+) games\)")


def stockfish_min_elo(stockfish):
    """The lowest UCI_Elo the Stockfish binary accepts (1320 since Stockfish 16, 1350 before)."""
    out = subprocess.run([stockfish], input="uci\nquit\n", capture_output=True, text=True,
                         timeout=30).stdout
    match = re.search(r"option name UCI_Elo type spin default \d+ min (\d+)", out)
    if not match:
        sys.exit(f"{stockfish} declares no UCI_Elo option")
    return int(match.group(1))


def play_level(args, elo, sf_elo):
    """Runs one level's match (Kestrel at `elo`, Stockfish at `sf_elo`); returns
    (score %, elo diff, error, games, ptnml)."""
    log = os.path.join(args.out, f"match-{elo}-{sf_elo}.log")
    cmd = [
        args.kestrel, "match",
        "-a", f"uci:{args.kestrel}", "-b", f"uci:{args.stockfish}",
        "--option-a", "UCI_LimitStrength=true", "--option-a", f"UCI_Elo={elo}",
        "--option-a", f"Seed={args.seed}",
        "--option-b", "UCI_LimitStrength=true", "--option-b", f"UCI_Elo={sf_elo}",
        "--tc", args.tc, "--games", str(args.games), "--concurrency", str(args.concurrency),
        "--openings", args.openings, "--seed", str(args.seed),
        "--pgn-out", os.path.join(args.out, f"games-{elo}-{sf_elo}.pgn"),
    ]
    with open(log, "w") as f:
        done = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    text = open(log).read()
    if done.returncode != 0:
        sys.exit(f"level {elo}: kestrel match failed (exit {done.returncode}), see {log}")
    elo_m, games_m, ptnml_m = ELO_LINE.search(text), GAMES_LINE.search(text), PTNML_LINE.search(text)
    if not (elo_m and games_m):
        sys.exit(f"level {elo}: no result line in {log}")
    diff = float(elo_m.group(2).replace("inf", "1e9"))
    err = float(elo_m.group(3).replace("inf", "1e9"))
    pair_m = PAIR_ELO_LINE.search(text)
    if pair_m:  # the pentanomial figure: game pairs, as every strength claim here
        diff = float(pair_m.group(1).replace("inf", "1e9"))
        err = float(pair_m.group(2).replace("inf", "1e9"))
    ptnml = ptnml_m.group(1) if ptnml_m else ""
    return float(elo_m.group(1)), diff, err, int(games_m.group(4)), ptnml


def fit_line(points):
    """Weighted least squares y = a + b x; points (x, y, sigma)."""
    usable = [(x, y, s) for x, y, s in points if math.isfinite(y) and 0 < s < 1e6]
    if len(usable) < 2:
        return None
    w = [1 / (s * s) for _, _, s in usable]
    sw = sum(w)
    mx = sum(wi * x for wi, (x, _, _) in zip(w, usable)) / sw
    my = sum(wi * y for wi, (_, y, _) in zip(w, usable)) / sw
    sxx = sum(wi * (x - mx) ** 2 for wi, (x, _, _) in zip(w, usable))
    sxy = sum(wi * (x - mx) * (y - my) for wi, (x, y, _) in zip(w, usable))
    b = sxy / sxx if sxx > 0 else 1.0
    return my - b * mx, b


def main():
    args = parse_args()
    if args.games < 2 or args.games % 2:
        sys.exit("--games must be an even number of at least 2 (game pairs)")
    for path in (args.kestrel, args.stockfish):
        if not os.access(path, os.X_OK):
            sys.exit(f"{path} is not an executable")
    if args.levels:
        levels = [tuple(int(v) for v in (x.split(":") * 2)[:2]) for x in args.levels.split(",")]
    else:
        low = stockfish_min_elo(args.stockfish)
        levels = [(e, e) for e in list(range(low, 2500, 200)) + [2500]]
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for elo, sf_elo in levels:
        score, diff, err, games, ptnml = play_level(args, elo, sf_elo)
        rows.append((elo, sf_elo, score, diff, err, games, ptnml))
        print(f"UCI_Elo {elo} vs Stockfish {sf_elo}: score {score:.1f}%, Elo {diff:+.1f} ± {err:.1f}, {games} games, "
              f"Ptnml [{ptnml}]", flush=True)
    table = os.path.join(args.out, "calibration.md")
    tmp = table + ".tmp"
    with open(tmp, "w") as f:
        f.write("| Kestrel UCI_Elo | Stockfish UCI_Elo | Kestrel's score | Elo difference | games "
                "| Ptnml(0-2) |\n")
        f.write("| --- | --- | --- | --- | --- | --- |\n")
        for elo, sf_elo, score, diff, err, games, ptnml in rows:
            shown = f"{diff:+.1f} ± {err:.1f}" if abs(diff) < 1e9 else ("+inf" if diff > 0 else "-inf")
            f.write(f"| {elo} | {sf_elo} | {score:.1f}% | {shown} | {games} | [{ptnml}] |\n")
    os.replace(tmp, table)
    with open(os.path.join(args.out, "calibration.csv.tmp"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["uci_elo", "stockfish_uci_elo", "score_percent", "elo_diff", "elo_error", "games", "ptnml"])
        w.writerows(rows)
    os.replace(os.path.join(args.out, "calibration.csv.tmp"), os.path.join(args.out, "calibration.csv"))
    fit = fit_line([(e, s + d, max(err, 1.0)) for e, s, _, d, err, _, _ in rows])
    print(f"table written to {table}")
    if fit:
        a, b = fit
        print(f"fitted: true level = {a:.1f} + {b:.3f} x UCI_Elo")
        for target, _ in levels:
            print(f"  for a {target} player set UCI_Elo {(target - a) / b:.0f}")


if __name__ == "__main__":
    main()
