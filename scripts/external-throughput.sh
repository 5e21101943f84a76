#!/bin/sh
# Game pairs per hour of `kestrel tune spsa --engine` (or, with TUNER=ga, of `kestrel evolve
# games --engine`) against a bare `kestrel match` with the same engine, limit and concurrency
# (docs/spsa.md, "Tuning another engine"). ENGINE_SPEC `builtin` measures the in-process tune
# of Kestrel's own values instead (no --engine; SPSA only).
# Usage: scripts/external-throughput.sh KESTREL ENGINE_SPEC LIMIT_FLAGS GAMES TUNE_SET [OPENINGS]
#   e.g. scripts/external-throughput.sh target/release/kestrel "uci:/usr/games/toga2" \
#        "--tc 1+0.01" 200 "Futility Margin,Delta Margin" books/8moves.epd
# CONCURRENCY (2) games at a time; LAG, if set, is the tuner's --lag (else its default).
# TUNER=ga: the games GA, population 16 raced in 3 rounds from 4 pairs (256 games a
# generation, as in the Toga II runs), GAMES/256 generations.
set -eu
kestrel=$1; engine=$2; limit=$3; games=$4; set_names=$5; openings=${6:-}
book=""; [ -n "$openings" ] && book="--openings $openings"
threads=${CONCURRENCY:-2}
out=$(mktemp -d)
now() { date +%s.%N; }
t0=$(now)
# shellcheck disable=SC2086
"$kestrel" match -a "$engine" -b "$engine" $limit --games "$games" --concurrency "$threads" $book --seed 1 >"$out/match.txt"
t1=$(now)
if [ "$engine" = builtin ]; then set --; else set -- --engine "$engine"; fi
if [ "${TUNER:-spsa}" = ga ]; then
    # shellcheck disable=SC2086
    "$kestrel" evolve games "$@" --set "$set_names" $limit --population 16 \
        --generations $((games / 256)) --first-pairs 4 --rounds 3 --threads "$threads" \
        $book --quiet --out "$out/tune" >"$out/tune.txt"
    t2=$(now)
    tuned=$(awk -F, 'NR > 1 { g += $2 } END { print g }' "$out/tune/faults.csv")
else
    # shellcheck disable=SC2086
    "$kestrel" tune spsa "$@" --set "$set_names" $limit --iterations $((games / 8)) \
        --pairs 4 --batch 16 --threads "$threads" ${LAG:+--lag "$LAG"} $book --quiet --out "$out/tune" >"$out/tune.txt"
    t2=$(now)
    tuned=$(tail -n 1 "$out/tune/spsa.csv" | cut -d, -f2)
fi
python3 - "$t0" "$t1" "$t2" "$games" "$tuned" <<'PY'
import sys
t0, t1, t2, g_match, g_tune = map(float, sys.argv[1:])
m, t = g_match / 2 / (t1 - t0) * 3600, g_tune / 2 / (t2 - t1) * 3600
print(f"match: {g_match:.0f} games in {t1 - t0:.1f} s = {m:.0f} pairs/h")
print(f"tune:  {g_tune:.0f} games in {t2 - t1:.1f} s = {t:.0f} pairs/h")
print(f"tuner overhead: {100 * (1 - t / m):+.1f}%")
PY
rm -rf "$out"
