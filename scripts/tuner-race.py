#!/usr/bin/env python3
"""Elo against the defaults of tuned parameter sets, by the games their tuner spent.

Issue 27's race: SPSA (`kestrel tune spsa`) and the GA with game fitness (`kestrel evolve games`)
tune the same parameters; each result is played against Kestrel's defaults on openings the tuner
never saw, and the Elo (pentanomial, 95% interval) is drawn against the tuner's game budget.

  * `--spsa DIR` reads DIR/spsa.csv (one row per iteration, θ after it) and, for each budget of
    `--spsa-budgets`, writes θ after the first iteration that had spent that many games,
    rounded to the nearest integer, as a params file `spsa-<games>.toml` in `--out`;
  * `--result LABEL=GAMES=FILE` adds any params file (e.g. a GA run's best.toml and the games
    its races played) under a tuner label (`ga`, `ga-centre`, ...);
  * every set plays `kestrel match -a SET -b linear` at the limit given (`--nodes`, `--tc`);
    the figures go to `race.csv` and `race.svg` (Elo vs games, one series per tuner, 95% bars).

Node-limited matches do not depend on the machine's load; matches at a clock do (run them on a
quiet machine and say the load).

    python3 scripts/tuner-race.py --kestrel target/release/kestrel --spsa RUN \
        --spsa-budgets 3072,6144,12288,24000 --result ga=6144=GA_RUN/best.toml \
        --openings ../shared/data/openings/8moves_v3.pgn.gz --nodes 5000 --games 400 --out DIR
"""

import argparse
import csv
import math
import os
import re
import subprocess
import sys


def spsa_snapshot(run_dir, budget, out_path):
    """Writes θ after the first iteration with at least `budget` games; returns its games."""
    path = os.path.join(run_dir, "spsa.csv")
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"cannot read {path}: {e}")
    if not rows or "games" not in rows[0] or "elo_error" not in rows[0]:
        sys.exit(f"{path} is not a `kestrel tune spsa` CSV")
    names = list(rows[0].keys())
    params = names[names.index("elo_error") + 1:]
    row = next((r for r in rows if int(r["games"]) >= budget), None)
    if row is None:
        sys.exit(f"{path}: the run played {rows[-1]['games']} games, fewer than {budget}")
    lines = [f"# θ of {run_dir} after iteration {row['iteration']} ({row['games']} games)",
             "[search]"]
    lines += [f"{name} = {math.floor(float(row[name]) + 0.5)}" for name in params]
    tmp = out_path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, out_path)
    return int(row["games"])


def play(args, params_file, seed):
    """Plays the set against the defaults; returns the match's pentanomial figures."""
    cmd = [args.kestrel, "match", "-a", params_file, "-b", "linear", "--games", str(args.games),
           "--concurrency", str(args.concurrency), "--openings", args.openings,
           "--seed", str(seed)]
    cmd += ["--tc", args.tc] if args.tc else ["--nodes", str(args.nodes)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    text = done.stdout + done.stderr
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{text[-2000:]}")
    pairs = re.search(r"pairs: Ptnml\(0-2\) \[([\d, ]+)\].*?Elo ([+-][\d.]+) ± ([\d.]+)", text)
    games = re.search(r"W (\d+) D (\d+) L (\d+) \((\d+) games\)", text)
    endings = re.search(r"endings: (.*)", text)
    # Anything but a finished game of chess (time forfeits, illegal moves, crashes) is a fault.
    faults = sum(int(n) for kind, n in re.findall(r"([a-z ]+) (\d+)", endings.group(1))
                 if not any(w in kind for w in ("checkmate", "fifty", "insufficient",
                                                "repetition", "stalemate", "adjudicat",
                                                "move limit"))) if endings else 0
    if not pairs or not games:
        sys.exit(f"cannot read the match's result:\n{text[-2000:]}")
    return {
        "elo": float(pairs.group(2)),
        "error": float(pairs.group(3)),
        "ptnml": pairs.group(1).replace(",", ""),
        "wdl": f"{games.group(1)}/{games.group(2)}/{games.group(3)}",
        "faults": faults,
    }


def previous_rows(path):
    """Rows of an earlier run of this script, by what they measured: a rerun plays only the new."""
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        return {(r["tuner"], r["games"], r["params"], r["limit"], r["match_games"], r["seed"]): r
                for r in csv.DictReader(f)}


def write_rows(path, rows):
    """Writes race.csv atomically after every match, so a killed run keeps what it measured."""
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    os.replace(path + ".tmp", path)


FIELDS = ["tuner", "games", "params", "limit", "match_games", "seed", "elo", "error", "ptnml",
          "wdl", "faults"]


def chart(rows, path, title):
    """An SVG of Elo vs tuner games, one colour per tuner, 95% error bars."""
    width, height, pad = 640, 400, 60
    max_games = max(r["games"] for r in rows) * 1.08
    lo = min(min(r["elo"] - r["error"] for r in rows), -10.0)
    hi = max(max(r["elo"] + r["error"] for r in rows), 10.0)
    x = lambda g: pad + (width - 2 * pad) * g / max_games
    y = lambda e: height - pad - (height - 2 * pad) * (e - lo) / (hi - lo)
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
    tuners = list(dict.fromkeys(r["tuner"] for r in rows))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle">{title}</text>',
           f'<line x1="{pad}" y1="{y(0)}" x2="{width - pad}" y2="{y(0)}" stroke="#999" '
           f'stroke-dasharray="4"/>',
           f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" '
           f'stroke="black"/>',
           f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="black"/>',
           f'<text x="{width / 2}" y="{height - 15}" text-anchor="middle">games the tuner '
           f'played</text>',
           f'<text x="15" y="{height / 2}" transform="rotate(-90 15 {height / 2})" '
           f'text-anchor="middle">Elo against the defaults (95%)</text>']
    for tick in range(5):
        g = max_games * tick / 4
        out.append(f'<text x="{x(g)}" y="{height - pad + 16}" text-anchor="middle">'
                   f'{g:.0f}</text>')
        e = lo + (hi - lo) * tick / 4
        out.append(f'<text x="{pad - 6}" y="{y(e) + 4}" text-anchor="end">{e:+.0f}</text>')
    for i, tuner in enumerate(tuners):
        colour = colours[i % len(colours)]
        series = sorted((r for r in rows if r["tuner"] == tuner), key=lambda r: r["games"])
        points = " ".join(f"{x(r['games']):.1f},{y(r['elo']):.1f}" for r in series)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}"/>')
        for r in series:
            cx = x(r["games"])
            out.append(f'<line x1="{cx}" y1="{y(r["elo"] - r["error"])}" x2="{cx}" '
                       f'y2="{y(r["elo"] + r["error"])}" stroke="{colour}"/>')
            out.append(f'<circle cx="{cx}" cy="{y(r["elo"])}" r="3" fill="{colour}"/>')
        out.append(f'<text x="{width - pad - 90}" y="{pad + 16 * i}" fill="{colour}">'
                   f'{tuner}</text>')
    out.append("</svg>")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, path)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--kestrel", default="target/release/kestrel")
    p.add_argument("--spsa", help="a `kestrel tune spsa` run folder")
    p.add_argument("--spsa-budgets", default="", help="games, comma-separated")
    p.add_argument("--result", action="append", default=[], help="LABEL=GAMES=PARAMS_FILE")
    p.add_argument("--openings", required=True, help="book the tuners never saw")
    p.add_argument("--nodes", type=int, default=5000)
    p.add_argument("--tc", help="a clock instead of --nodes, e.g. 5+0.05")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--seed", type=int, default=11, help="opening sample of every match")
    p.add_argument("--out", required=True)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sets = []
    if args.spsa:
        for budget in (int(b) for b in args.spsa_budgets.split(",") if b):
            path = os.path.join(args.out, f"spsa-{budget}.toml")
            sets.append(("spsa", spsa_snapshot(args.spsa, budget, path), path))
    for spec in args.result:
        parts = spec.split("=", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            sys.exit(f"--result wants LABEL=GAMES=FILE, got {spec!r}")
        sets.append((parts[0], int(parts[1]), parts[2]))
    if not sets:
        sys.exit("nothing to play: give --spsa with --spsa-budgets and/or --result")
    limit = f"tc {args.tc}" if args.tc else f"{args.nodes} nodes"
    out_csv = os.path.join(args.out, "race.csv")
    done = previous_rows(out_csv)
    rows = []
    for tuner, games, path in sets:
        key = (tuner, str(games), path, limit, str(args.games), str(args.seed))
        if key in done:
            r = done[key]
        else:
            r = {"tuner": tuner, "games": games, "params": path, "limit": limit,
                 "match_games": args.games, "seed": args.seed, **play(args, path, args.seed)}
        rows.append(r)
        write_rows(out_csv, rows + [v for k, v in done.items() if v not in rows])
        print(f"{tuner:10} {games:6} games  Elo {float(r['elo']):+6.1f} ± "
              f"{float(r['error']):4.1f}  ptnml [{r['ptnml']}]  W/D/L {r['wdl']}  "
              f"faults {r['faults']}  ({limit}){'  (from race.csv)' if key in done else ''}",
              flush=True)
    for r in rows:
        r.update(games=int(r["games"]), elo=float(r["elo"]), error=float(r["error"]))
    chart(rows, os.path.join(args.out, "race.svg"),
          f"Tuned sets against the defaults, {args.games} games at {limit}")
    print(f"wrote {out_csv} and race.svg")


if __name__ == "__main__":
    main()
