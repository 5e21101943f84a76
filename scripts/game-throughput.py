#!/usr/bin/env python3
"""Games per second per core of Kestrel's game tuners against the bound the engine itself sets.

For each node limit (1k, 5k, 20k nodes a move by default) this runs, one after the other:
  * `kestrel match` between two built-in engines at that limit (`--concurrency` games at once):
    games, plies and nodes per game, and the engines' own nodes per second while searching
    (nodes over the summed time of the searches);
  * `kestrel tune spsa` at that limit (fresh engines every pair, as the tuners play) with
    --pairs game pairs an iteration, one iteration at a time (--batch 1) and in batches of
    --batch iterations, in process and, with --ray, on a local Ray with 1 and 2 workers.
The bound on one core is `nodes/s while searching / nodes per game`: games with nothing but
search; the waste is `1 - measured / bound` (engine set-up, move checks, rules, scheduling, and
the cores idle while an iteration waits for its slowest game). The start-up (for Ray: a local
Ray and its workers, until the run prints "games on") is shown apart; the rates and the waste
are those of the games after it. Run it on a quiet machine: every figure is wall time.

    python3 scripts/game-throughput.py [--kestrel target/release/kestrel] [--cores 2] [--ray]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def run(cmd):
    """Runs `cmd`, returning (stdout + stderr, wall seconds); exits with its message on failure."""
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return done.stdout + done.stderr, secs


def bench_nps(kestrel):
    text, _ = run([kestrel, "bench"])
    m = re.search(r"(\d+) nodes (\d+) nps", text)
    if not m:
        sys.exit(f"cannot read `kestrel bench`:\n{text}")
    return int(m.group(2))


def match(kestrel, nodes, games, cores):
    text, secs = run([
        kestrel, "match", "-a", "builtin", "-b", "builtin", "--nodes", str(nodes),
        "--games", str(games), "--concurrency", str(cores), "--hash", "2", "--seed", "1",
        "--openings", "builtin:openings-gm2600.epd",
    ])
    m = re.search(
        r"searched (\d+) plies \(([\d.]+) a game\), (\d+) nodes \((\d+) a game.*?"
        r"(\d+) nodes/s while searching",
        text,
    )
    if not m:
        sys.exit(f"cannot read the match's totals:\n{text}")
    return {
        "games": games,
        "secs": secs,
        "plies": float(m.group(2)),
        "nodes": int(m.group(4)),
        "nps": int(m.group(5)),
    }


def spsa(kestrel, nodes, iterations, pairs, cores, batch=1, executor=None, job_tasks=None):
    """An SPSA run: its games, wall seconds, and seconds from the executor being ready (the
    "games on ..." line) to the end."""
    out = tempfile.mkdtemp(prefix="kestrel-throughput-")
    shutil.rmtree(out)
    cmd = [
        kestrel, "tune", "spsa", "--set", "falcon", "--table", "search", "--nodes", str(nodes),
        "--iterations", str(iterations), "--pairs", str(pairs), "--batch", str(batch),
        "--threads", str(cores), "--quiet", "--out", out,
    ]
    if executor:
        cmd += ["--executor", "ray", "--ray-workers", str(executor)]
        if job_tasks:
            cmd += ["--job-tasks", str(job_tasks)]
    start = time.monotonic()
    ready = None
    try:
        # stderr to a file: a full pipe nobody reads would stop the run.
        with tempfile.TemporaryFile(mode="w+") as errors:
            with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errors, text=True) as proc:
                for line in proc.stdout:
                    if ready is None and line.startswith("games on"):
                        ready = time.monotonic()
            errors.seek(0)
            err = errors.read()
        secs = time.monotonic() - start
        if proc.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err[-2000:]}")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    startup = (ready - start) if ready is not None else 0.0
    return {"games": 2 * iterations * pairs, "secs": secs - startup, "startup": startup}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kestrel", default="target/release/kestrel")
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--nodes", default="1000,5000,20000")
    ap.add_argument("--games", type=int, default=0, help="games per figure (default: by limit)")
    ap.add_argument("--pairs", type=int, default=2, help="SPSA game pairs an iteration (2)")
    ap.add_argument("--batch", type=int, default=8, help="SPSA iterations a batch (8)")
    ap.add_argument("--ray", action="store_true", help="also SPSA on Ray with 1 and 2 workers")
    ap.add_argument("--job-tasks", type=int, help="game pairs a Ray job (default: kestrel's)")
    a = ap.parse_args()
    if not os.path.exists(a.kestrel):
        sys.exit(f"{a.kestrel} not found: cargo build --release")
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    print(f"kestrel bench: {bench_nps(a.kestrel)} nodes/s on one core; {a.cores} cores")
    print("| nodes/move | runner | games | start-up s | games s | games/s/core | plies/game "
          "| nodes/s searching | bound games/s/core | waste |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for nodes in [int(n) for n in a.nodes.split(",")]:
        games = a.games or max(40, min(400, 400_000 // nodes))
        m = match(a.kestrel, nodes, games + games % 2, a.cores)
        bound = m["nps"] / m["nodes"]
        rows = [("match", m, a.cores)]
        iterations = max(a.batch, games // (2 * a.pairs) // a.batch * a.batch)
        for batch in sorted({1, a.batch}):
            r = spsa(a.kestrel, nodes, iterations, a.pairs, a.cores, batch)
            rows.append((f"tune spsa, {a.pairs} pairs, batch {batch}", r, a.cores))
        if a.ray:
            for workers in (1, 2):
                r = spsa(a.kestrel, nodes, iterations, a.pairs, a.cores, a.batch, workers,
                         a.job_tasks)
                rows.append((f"tune spsa, batch {a.batch}, Ray, {workers} worker(s)", r, workers))
        for name, r, cores in rows:
            per_core = r["games"] / r["secs"] / cores
            print(
                f"| {nodes} | {name} | {r['games']} | {r.get('startup', 0.0):.1f} "
                f"| {r['secs']:.1f} | {per_core:.2f} "
                f"| {m['plies']:.1f} | {m['nps']} | {bound:.2f} "
                f"| {100 * (1 - per_core / bound):.0f}% |"
            )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
