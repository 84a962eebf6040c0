#!/usr/bin/env python3
"""An independent check of zaochka's PDN export (issue 6): every game of a PDN file is
replayed with the `pydraughts` package (PyPI, `pip install pydraughts==0.6.7`), move by
move, and each move must be one of that library's legal moves in the position.

    zaochka export pdn CIPHER > games.pdn
    python3 tests/pdn_check.py games.pdn        # or: ... | python3 tests/pdn_check.py -

GameType 25 (Russian) and 20 (international 10x10) are checked; 99 (zaochka's number for
give-away, which has no official one) is skipped with a note: pydraughts has no give-away on
Russian rules. Exit 0: every checked game replays; 1: some move is not legal (each is
printed); 2: the file cannot be read or holds no game.
"""

import sys

try:
    from draughts import Board
    from draughts.PDN import PDNReader
except ImportError:  # pragma: no cover - the environment's business
    print("pdn_check: the pydraughts package is missing (pip install pydraughts==0.6.7)",
          file=sys.stderr)
    sys.exit(2)

VARIANTS = {25: "russian", 20: "standard"}


def square_number(text):
    """`d4` (8x8, dark squares numbered 1.. from a1 along the ranks, as pydraughts numbers
    the Russian board) or a number."""
    if text[0].isalpha():
        file, rank = ord(text[0].lower()) - ord("a"), int(text[1:])
        return (rank - 1) * 4 + file // 2 + 1
    return int(text)


def read_token(token):
    """`c3-d4`, `c3:e5:c7`, `32-28`, `28x19` -> (squares, is_capture)."""
    is_capture = ":" in token or "x" in token
    parts = token.replace("x", ":").replace("-", ":").split(":")
    try:
        return [square_number(p) for p in parts if p], is_capture
    except (ValueError, IndexError):
        return [], is_capture


def matches(move, squares, is_capture):
    """Whether pydraughts' legal move is the one the token names: start and end (the short
    form), or the whole route."""
    steps = list(move.steps_move)
    if bool(move.captures and any(c is not None for c in move.captures)) != is_capture:
        return False
    if len(squares) == 2:
        return steps[0] == squares[0] and steps[-1] == squares[-1]
    return steps == squares


def check_game(game, index):
    """Replays one game; returns a list of problems (empty when every move is legal)."""
    game_type = int(game.tags.get("GameType", "0").split(",")[0] or 0)
    name = f"game {index + 1} ({game.tags.get('Event', '?')} #{game.tags.get('Round', '?')})"
    if game_type == 99:
        print(f"{name}: give-away (GameType 99) skipped", file=sys.stderr)
        return [], 0
    variant = VARIANTS.get(game_type)
    if variant is None:
        return [f"{name}: unknown GameType {game_type}"], 0
    fen = game.tags.get("FEN")
    board = Board(variant, fen) if fen else Board(variant)
    for ply, token in enumerate(game.moves):
        legal = board.legal_moves()
        squares, is_capture = read_token(token)
        if not squares:
            return [f"{name}: ply {ply + 1} '{token}' cannot be read"], ply
        fits = [m for m in legal if matches(m, squares, is_capture)]
        if not fits:
            return [f"{name}: ply {ply + 1} '{token}' is not legal; legal: "
                    + " ".join(m.pdn_move for m in legal)], ply
        if len({tuple(map(tuple, m.board_move)) for m in fits}) > 1:
            return [f"{name}: ply {ply + 1} '{token}' is ambiguous: "
                    + " ".join(m.pdn_move for m in fits)], ply
        board.push(fits[0])
    return [], len(game.moves)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if argv[1] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[1], encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        print(f"pdn_check: cannot read {argv[1]}: {e}", file=sys.stderr)
        return 2
    if "[" not in text:
        print("pdn_check: no game in the file", file=sys.stderr)
        return 2
    games = PDNReader(pdn_text=text).games
    problems, plies = [], 0
    for i, game in enumerate(games):
        p, n = check_game(game, i)
        problems += p
        plies += n
    for p in problems:
        print(p)
    print(f"pdn_check: {len(games)} game(s), {plies} ply(ies) replayed, "
          f"{len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
