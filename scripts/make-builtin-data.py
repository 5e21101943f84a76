#!/usr/bin/env python3
"""Builds the data files that `kestrel` compiles in (data/games-gm2600.pgn.gz, data/openings-gm2600.epd)
from the GM games of the shared data set, so every GA runs on a fresh clone.

Usage: python3 scripts/make-builtin-data.py GM2600_PGN KESTREL_BINARY [OUT_DIR]
Needs python-chess (`pip install chess`). Deterministic: the same inputs give the same files.

- games: every 4th game of the input (games 0, 4, 8, ...), re-written with the tags Kestrel reads.
- openings: from every 4th game starting at game 1 (so no opening comes from a shipped game), the
  position after 16 plies (8 moves each), distinct positions only, kept when Kestrel's own search
  at 20,000 nodes scores it within +-50 cp (balanced lines, the same idea as 8moves_v3), at most
  2,000 of them.
"""
import gzip
import subprocess
import sys

import chess
import chess.pgn

TAGS = ["Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo", "BlackElo", "ECO"]
OPENING_PLIES = 16
MAX_OPENINGS = 2000
BALANCE_CP = 50
NODES = 20000


class Engine:
    """A minimal UCI client: enough to ask for a score at fixed nodes."""

    def __init__(self, command):
        self.p = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Hash value 16")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith(token):
                return lines
        raise RuntimeError("engine exited")

    def score(self, fen):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {NODES}")
        cp = None
        for line in self.wait("bestmove"):
            words = line.split()
            if "score" in words:
                i = words.index("score")
                cp = int(words[i + 2]) if words[i + 1] == "cp" else 100000
        return cp


def main():
    pgn_path, kestrel = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else "data"
    engine = Engine(kestrel)
    kept_games, openings, seen, looked = [], [], set(), 0
    with open(pgn_path, encoding="utf-8") as f:
        index = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if index % 4 == 0:
                kept_games.append(game)
            elif index % 4 == 1 and len(openings) < MAX_OPENINGS:
                board = game.board()
                moves = list(game.mainline_moves())
                if len(moves) > OPENING_PLIES + 10:
                    for mv in moves[:OPENING_PLIES]:
                        board.push(mv)
                    key = board.epd()
                    if key not in seen and not board.is_check():
                        seen.add(key)
                        looked += 1
                        cp = engine.score(board.fen())
                        if cp is not None and abs(cp) <= BALANCE_CP:
                            name = f'{game.headers.get("White", "?")} - {game.headers.get("Black", "?")}, {game.headers.get("Date", "?")[:4]}'
                            name = name.replace('"', "'")
                            openings.append(f'{key} id "gm2600-{len(openings) + 1:04}"; c0 "{name}";')
            index += 1
    engine.send("quit")
    with gzip.GzipFile(f"{out}/games-gm2600.pgn.gz", "wb", mtime=0) as z:
        for game in kept_games:
            headers = chess.pgn.Headers()
            for tag in TAGS:
                if tag in game.headers:
                    headers[tag] = game.headers[tag]
            game.headers = headers
            text = str(game.accept(chess.pgn.StringExporter(headers=True, variations=False, comments=False)))
            z.write((text + "\n\n").encode("utf-8"))
    with open(f"{out}/openings-gm2600.epd", "w", encoding="utf-8") as o:
        o.write("\n".join(openings) + "\n")
    print(f"{len(kept_games)} games; {len(openings)} openings kept of {looked} scored")


if __name__ == "__main__":
    main()
