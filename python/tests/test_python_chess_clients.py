"""Kestrel with python-chess as the referee (the client lichess-bot is built on).

Run from `kestrel/tests/cli/python_chess_clients.rs` (which skips when python-chess is absent), or
directly: KESTREL_BIN=target/release/kestrel python3 -m unittest python/tests/test_python_chess_clients.py
"""

import os
import random
import subprocess
import time
import unittest

import chess
import chess.engine

KESTREL = os.environ.get("KESTREL_BIN", "target/release/kestrel")
NODES = chess.engine.Limit(nodes=3000)


def python_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += python_perft(board, depth - 1)
        board.pop()
    return total


def random_chess960_positions(count, seed):
    """Positions a few random plies into random Chess960 games (castling rights still held)."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        for _ in range(rng.randrange(4, 24)):
            moves = list(board.legal_moves)
            if not moves:
                break
            castles = [m for m in moves if board.is_castling(m)]
            board.push(rng.choice(castles) if castles and rng.random() < 0.5 else rng.choice(moves))
        if not board.is_game_over():
            positions.append(board)
    return positions


def double_chess960_board(white, black):
    w = chess.Board.from_chess960_pos(white)
    b = chess.Board.from_chess960_pos(black)
    fen = b.board_fen().split("/")[:2] + w.board_fen().split("/")[2:]
    board = chess.Board("/".join(fen) + " w - - 0 1", chess960=True)
    white_rights = "".join(c for c in w.castling_shredder_fen() if c.isupper())
    black_rights = "".join(c for c in b.castling_shredder_fen() if c.islower())
    board.set_castling_fen(white_rights + black_rights)
    return board


class Chess960Rules(unittest.TestCase):
    def test_perft_and_legal_moves_agree_on_random_chess960_positions(self):
        for board in random_chess960_positions(40, seed=7):
            fen = board.shredder_fen()
            out = subprocess.run([KESTREL, "perft", "1", "--divide", "--chess960", "--fen", fen],
                                 capture_output=True, text=True, check=True).stdout
            ours = {line.split(":")[0] for line in out.splitlines() if ":" in line and "Nodes" not in line and "Time" not in line}
            theirs = {board.uci(m, chess960=True) for m in board.legal_moves}
            self.assertEqual(ours, theirs, fen)
            out = subprocess.run([KESTREL, "perft", "3", "--fen", fen],
                                 capture_output=True, text=True, check=True).stdout
            nodes = int(out.split("Nodes searched:")[1].split()[0])
            self.assertEqual(nodes, python_perft(board, 3), fen)


def play_out(test, board, max_plies=400):
    """Kestrel against Kestrel through python-chess until the game ends on the board."""
    engines = [chess.engine.SimpleEngine.popen_uci(KESTREL) for _ in range(2)]
    try:
        plies = 0
        while not board.is_game_over(claim_draw=True) and plies < max_plies:
            engine = engines[plies % 2]
            result = engine.play(board, NODES)
            test.assertIn(result.move, board.legal_moves, board.fen())
            board.push(result.move)
            plies += 1
        return plies
    finally:
        for engine in engines:
            engine.quit()


class Chess960Games(unittest.TestCase):
    def test_chess960_game_ends_on_the_board(self):
        board = chess.Board.from_chess960_pos(123)
        plies = play_out(self, board)
        self.assertTrue(board.is_game_over(claim_draw=True) or plies == 400)
        self.assertGreater(plies, 10)

    def test_double_chess960_game_ends_on_the_board(self):
        board = double_chess960_board(37, 842)
        self.assertTrue(board.is_valid(), board.status())
        plies = play_out(self, board)
        self.assertGreater(plies, 10)

    def test_castling_is_played_in_chess960_notation(self):
        # White can only castle (king g1 takes rook h1) or shuffle; python-chess checks the move.
        board = chess.Board("1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1", chess960=True)
        engine = chess.engine.SimpleEngine.popen_uci(KESTREL)
        try:
            moves = engine.analyse(board, chess.engine.Limit(depth=4), multipv=30)
            played = {info["pv"][0] for info in moves}
            self.assertTrue(any(board.is_castling(m) for m in played), played)
        finally:
            engine.quit()


class Ponder(unittest.TestCase):
    def test_ponder_game_through_python_chess(self):
        """lichess-bot's path: play with ponder on (go ponder, then stop when the opponent
        plays something else, or a new search), on a clock, with no protocol error."""
        engines = [chess.engine.SimpleEngine.popen_uci(KESTREL) for _ in range(2)]
        board = chess.Board()
        try:
            for engine in engines:
                engine.configure({"Move Overhead": 10})
            # A 1+0.01 clock: every move thinks (and ponders) briefly.
            clock = chess.engine.Limit(white_clock=1, black_clock=1, white_inc=0.01, black_inc=0.01)
            for ply in range(40):
                if board.is_game_over():
                    break
                result = engines[ply % 2].play(board, clock, ponder=True)
                self.assertIn(result.move, board.legal_moves)
                board.push(result.move)
        finally:
            for engine in engines:
                engine.quit()

    def test_ponderhit_and_stop_mid_ponder(self):
        proc = subprocess.Popen([KESTREL], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

        def send(line):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()

        def until(prefix, timeout=10.0):
            deadline = time.time() + timeout
            while time.time() < deadline:
                line = proc.stdout.readline()
                self.assertTrue(line, "engine closed its output")
                if line.startswith(prefix):
                    return line.strip()
            self.fail(f"no '{prefix}' within {timeout} s")

        try:
            send("uci")
            until("uciok")
            send("setoption name Ponder value true")
            send("isready")
            until("readyok")
            # Ponder on the expected reply; the opponent plays it: ponderhit, then a timed move.
            send("position startpos moves e2e4 e7e5")
            send("go ponder wtime 2000 btime 2000 winc 20 binc 20")
            time.sleep(0.3)
            send("isready")
            until("readyok")  # answered while pondering, no bestmove before ponderhit
            send("ponderhit")
            best = until("bestmove", timeout=5)
            self.assertIsNotNone(chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").parse_uci(best.split()[1]))
            # Ponder again; the opponent plays something else: stop mid-ponder.
            send("position startpos moves e2e4 c7c5")
            send("go ponder wtime 2000 btime 2000")
            time.sleep(0.3)
            send("stop")
            best = until("bestmove", timeout=5)
            move = chess.Move.from_uci(best.split()[1])
            self.assertIn(move, chess.Board("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").legal_moves)
            send("quit")
            self.assertEqual(proc.wait(timeout=5), 0)
        finally:
            if proc.poll() is None:
                proc.kill()


if __name__ == "__main__":
    unittest.main()
