#!/usr/bin/env python3
"""Nodes per second of Kestrel, Toga II and Glaurung on the same six positions, one thread.

Each engine is driven through UCI (plain subprocess, no Python packages needed) and searches
every position for a fixed time from a fresh game; the positions are taken in turn and, within
each position, the engines one after the other, so a change of machine load during the run
touches every engine alike. An engine that is not installed is skipped with a message.

    python3 scripts/nps-compare.py                       # 2 s a position, engines from apt
    python3 scripts/nps-compare.py --movetime 1000 --kestrel /tmp/kestrel-old
    python3 scripts/nps-compare.py --engine 'old=/tmp/kestrel-main'
    python3 scripts/nps-compare.py --engine 'nnue=target/release/kestrel' \
        --option 'nnue:UseNNUE=true' --option 'nnue:EvalFile=net.knet'   # network vs linear

Debian's engines: apt-get install toga2 glaurung (binaries in /usr/games).
"""

import argparse
import os
import shutil
import subprocess
import sys
import time

POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    # Sicilian, English Attack: opposite castling.
    ("sicilian", "r2q1rk1/3nbppp/p2pbn2/1p2p3/4P1P1/1NN1BP2/PPPQ3P/2KR1B1R w - - 0 12"),
    ("endgame", "4r1k1/5ppp/8/3B4/8/6P1/5P1P/3R2K1 w - - 0 30"),
    # King's Indian, Mar del Plata: a closed centre.
    ("closed", "r1bq1rk1/ppp1n1bp/3p1np1/3Pp3/2P1Pp2/2NN1P2/PP1BB1PP/R2Q1RK1 w - - 0 13"),
    ("pawns", "8/pp3k2/2p5/3p1pp1/3P4/2P3PP/PP3K2/8 w - - 0 1"),
]

DEFAULT_KESTREL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "kestrel")


class Engine:
    """One UCI engine process."""

    def __init__(self, name, command, hash_mb, extra_options=()):
        self.name = name
        self.proc = subprocess.Popen(
            command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        options = set()
        for line in self.lines_until("uciok"):
            if line.startswith("option name "):
                options.add(line[len("option name "):].split(" type ")[0].strip())
        for option, value in (("Threads", 1), ("Hash", hash_mb), ("Ponder", "false")):
            if option in options:
                self.send(f"setoption name {option} value {value}")
        for option, value in extra_options:
            if option not in options:
                raise RuntimeError(f"{name} has no option {option!r}")
            self.send(f"setoption name {option} value {value}")
        self.send("isready")
        for line in self.lines_until("readyok"):
            if line.startswith("info string"):
                print(f"{name}: {line}", file=sys.stderr)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def lines_until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} exited")
            line = line.strip()
            yield line
            if line.startswith(prefix):
                return

    def ready(self):
        self.send("isready")
        for _ in self.lines_until("readyok"):
            pass

    def search(self, fen, movetime_ms):
        """(nodes, milliseconds) of one search: the last `info` line's figures."""
        self.send("ucinewgame")
        self.ready()
        self.send(f"position fen {fen}")
        start = time.monotonic()
        self.send(f"go movetime {movetime_ms}")
        nodes, ms = None, None
        for line in self.lines_until("bestmove"):
            words = line.split()
            if words and words[0] == "info" and "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
                ms = int(words[words.index("time") + 1]) if "time" in words else None
        wall_ms = (time.monotonic() - start) * 1000
        if nodes is None:
            raise RuntimeError(f"{self.name} reported no node count")
        return nodes, ms if ms else wall_ms

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def engine_list(args):
    """(name, command) of every engine to run; absent ones are reported and left out."""
    wanted = [("kestrel", args.kestrel), ("toga2", "/usr/games/toga2"), ("glaurung", "/usr/games/glaurung")]
    for spec in args.engine:
        name, _, command = spec.partition("=")
        if not command:
            sys.exit(f"--engine wants NAME=COMMAND, got {spec!r}")
        wanted.append((name, command))
    found = []
    for name, command in wanted:
        program = command.split()[0]
        if shutil.which(program) is None and not os.access(program, os.X_OK):
            print(f"skipped {name}: {program} not found", file=sys.stderr)
            continue
        found.append((name, command))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--movetime", type=int, default=2000, help="milliseconds a position (2000)")
    parser.add_argument("--hash", type=int, default=16, help="hash MB of every engine (16)")
    parser.add_argument("--kestrel", default=DEFAULT_KESTREL, help="Kestrel binary (target/release/kestrel)")
    parser.add_argument("--engine", action="append", default=[], help="another engine, NAME=COMMAND")
    parser.add_argument("--option", action="append", default=[],
                        help="a UCI option of one engine, NAME:OPTION=VALUE (repeatable)")
    args = parser.parse_args()
    extra = {}
    for spec in args.option:
        name, _, rest = spec.partition(":")
        option, _, value = rest.partition("=")
        if not name or not option or not value:
            sys.exit(f"--option wants NAME:OPTION=VALUE, got {spec!r}")
        extra.setdefault(name, []).append((option, value))
    if args.movetime <= 0 or args.hash <= 0:
        sys.exit("--movetime and --hash must be positive")
    engines = []
    try:
        for name, command in engine_list(args):
            engines.append(Engine(name, command, args.hash, extra.get(name, ())))
        if not engines:
            sys.exit("no engine found")
        print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        totals = {e.name: [0, 0.0] for e in engines}
        print(f"{'position':<10}" + "".join(f"{e.name:>14}" for e in engines) + "   (k nodes/s)")
        for label, fen in POSITIONS:
            row = f"{label:<10}"
            for e in engines:
                nodes, ms = e.search(fen, args.movetime)
                totals[e.name][0] += nodes
                totals[e.name][1] += ms
                row += f"{nodes / ms:>14.0f}"
            print(row, flush=True)
        print(f"{'total':<10}" + "".join(f"{totals[e.name][0] / totals[e.name][1]:>14.0f}" for e in engines))
        print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    except RuntimeError as err:
        sys.exit(f"error: {err}")
    finally:
        for e in engines:
            e.quit()


if __name__ == "__main__":
    main()
