#!/usr/bin/env python3
"""CPU time of `kestrel bench` for two binaries, run in turn, with the ratio pair by pair.

Each pair runs OLD then NEW (one warm-up pair first, not counted) and takes the CPU time
(user + system) the kernel accounted to each finished process, so a change of machine load
during the run touches both alike. Prints every pair, then the median, minimum and maximum
of NEW / OLD: below 1 means NEW is faster. The bench node counts must agree (same tree),
else the script says so and exits with status 1; with `--tree-change` (lazy evaluation, a new
pruning rule) they may differ and the ratio of nodes per second is printed beside the time to
the same depth.

    python3 scripts/bench-compare.py --old /tmp/kestrel-old --new target/release/kestrel
    python3 scripts/bench-compare.py --old OLD --new NEW --pairs 7 --depth 11

With `--uci-nodes N` each run is instead one UCI process searching the six positions of
`nps-compare.py` to N nodes each (a fresh game for each, 16 MB hash): longer searches from
single positions than the bench's, as in play; the node totals must agree as above.

    python3 scripts/bench-compare.py --old OLD --new NEW --pairs 4 --uci-nodes 3000000
"""

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys


def timed_bench(binary, depth):
    """Runs `binary bench depth` and reads its CPU time from the kernel's child accounting."""
    before = os.times()
    result = subprocess.run(
        [binary, "bench", str(depth)], capture_output=True, text=True, check=False
    )
    after = os.times()
    if result.returncode != 0:
        sys.exit(f"{binary} bench exited with status {result.returncode}: {result.stderr.strip()}")
    lines = result.stdout.strip().splitlines()
    fields = lines[-1].split() if lines else []
    if len(fields) < 2 or fields[1] != "nodes":
        sys.exit(f"{binary} bench printed no `N nodes M nps` line")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return cpu, int(fields[0])


def nps_compare_positions():
    """The six positions of nps-compare.py (beside this script)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nps-compare.py")
    spec = importlib.util.spec_from_file_location("nps_compare", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [fen for _, fen in module.POSITIONS]


def timed_positions(binary, fens, nodes):
    """Searches each of `fens` to `nodes` nodes in one UCI process of `binary`; returns its CPU
    time and the node count of every search's last report, summed."""
    before = os.times()
    proc = subprocess.Popen(
        [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send("uci")
    send("setoption name Hash value 16")
    send("setoption name Threads value 1")
    total = 0
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send(f"go nodes {nodes}")
        searched = None
        for line in proc.stdout:
            fields = line.split()
            if fields[:1] == ["info"] and "nodes" in fields:
                searched = int(fields[fields.index("nodes") + 1])
            if fields[:1] == ["bestmove"]:
                break
        else:
            sys.exit(f"{binary} ended without a bestmove on {fen}")
        if searched is None:
            sys.exit(f"{binary} reported no node count on {fen}")
        total += searched
    send("quit")
    proc.wait()
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return cpu, total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, help="the old kestrel binary")
    parser.add_argument("--new", required=True, help="the new kestrel binary")
    parser.add_argument("--pairs", type=int, default=7, help="counted pairs (default 7)")
    parser.add_argument("--depth", type=int, default=11, help="bench depth (default 11)")
    parser.add_argument(
        "--tree-change",
        action="store_true",
        help="allow different node counts (a change of the tree): report nodes per second too",
    )
    parser.add_argument(
        "--uci-nodes",
        type=int,
        metavar="N",
        help="time the six nps-compare.py positions searched to N nodes each instead of bench",
    )
    args = parser.parse_args()
    if args.uci_nodes is not None and args.uci_nodes < 1:
        sys.exit("--uci-nodes must be at least 1")
    if args.pairs < 1:
        sys.exit("--pairs must be at least 1")
    for binary in (args.old, args.new):
        if not os.access(binary, os.X_OK):
            sys.exit(f"not an executable: {binary}")

    if args.uci_nodes is None:
        def run(binary):
            return timed_bench(binary, args.depth)
    else:
        fens = nps_compare_positions()

        def run(binary):
            return timed_positions(binary, fens, args.uci_nodes)

    ratios = []
    for pair in range(args.pairs + 1):
        old_cpu, old_nodes = run(args.old)
        new_cpu, new_nodes = run(args.new)
        if old_nodes != new_nodes and not args.tree_change:
            print(f"different trees: old {old_nodes} nodes, new {new_nodes}", file=sys.stderr)
            sys.exit(1)
        if pair == 0:
            print(f"warm-up: old {old_cpu:.3f} s, new {new_cpu:.3f} s ({new_nodes} nodes)")
            continue
        ratio = new_cpu / old_cpu
        ratios.append(ratio)
        print(f"pair {pair}: old {old_cpu:.3f} s, new {new_cpu:.3f} s, new/old {ratio:.4f}")
    print(
        f"new/old CPU time: median {statistics.median(ratios):.4f}, "
        f"min {min(ratios):.4f}, max {max(ratios):.4f} ({len(ratios)} pairs)"
    )
    if args.tree_change:
        # Each binary's node count is fixed, so nodes per second follow from the time ratios.
        nodes = new_nodes / old_nodes
        print(
            f"nodes: old {old_nodes}, new {new_nodes}; new/old nodes per second: median "
            f"{nodes / statistics.median(ratios):.4f}, min {nodes / max(ratios):.4f}, "
            f"max {nodes / min(ratios):.4f}"
        )


if __name__ == "__main__":
    main()
