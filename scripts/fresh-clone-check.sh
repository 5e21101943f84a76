#!/usr/bin/env bash
# What a new user gets: clones HEAD of this repository into an empty temporary folder (no
# ../shared beside it, no KESTREL_* variables), builds it as the README says and runs one cheap
# command per crate, each checked for the output it promises (docs/ci.md).
#
#   scripts/fresh-clone-check.sh            # clone, cargo build --release, the commands (~5-10 min)
#   scripts/fresh-clone-check.sh --tests    # ... and then `cargo test --workspace` in the clone
#   KESTREL_BIN=target/release/kestrel scripts/fresh-clone-check.sh   # the commands only, on a
#                                           # binary already built (no clone, no build)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
run_tests=no
[ "${1-}" = "--tests" ] && run_tests=yes
unset KESTREL_SHARED_DATA KESTREL_REQUIRE_SHARED KESTREL_REQUIRE_RAY
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

if [ -n "${KESTREL_BIN-}" ]; then
    bin=$(cd "$(dirname "$KESTREL_BIN")" && pwd)/$(basename "$KESTREL_BIN")
else
    clone="$scratch/clone/kestrel"
    mkdir -p "$scratch/clone"
    git clone --quiet "$repo" "$clone"
    echo "fresh-clone: cloned $(git -C "$clone" rev-parse --short HEAD) into $clone"
    (cd "$clone" && cargo build --release --quiet)
    bin="$clone/target/release/kestrel"
fi
runs="$scratch/runs"
mkdir -p "$runs"
cd "$runs"

# check NAME PATTERN COMMAND...: runs COMMAND, fails unless its output matches PATTERN.
check() {
    local name=$1 pattern=$2
    shift 2
    local out
    if ! out=$("$@" 2>&1); then
        echo "fresh-clone: FAILED $name: $*" >&2
        echo "$out" | tail -5 >&2
        exit 1
    fi
    if ! grep -qE "$pattern" <<<"$out"; then
        echo "fresh-clone: FAILED $name: no /$pattern/ in the output of $*" >&2
        echo "$out" | tail -5 >&2
        exit 1
    fi
    echo "fresh-clone: ok  $name  ($*)"
}

start_fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
check kestrel-chess '197281' "$bin" perft 4
check kestrel-search '^[0-9]+ nodes [0-9]+ nps' "$bin" bench 6
check kestrel-eval '[0-9]' "$bin" eval --fen "$start_fen"
check kestrel-uci 'bestmove [a-h][1-8]' sh -c "printf 'uci\nisready\nposition startpos\ngo depth 4\nquit\n' | '$bin'"
check kestrel-params 'KNIGHT_VALUE' "$bin" tune spsa-input --table eval
check kestrel-tools 'Ptnml' "$bin" match -a builtin -b builtin --nodes 1000 --games 2
check "kestrel-ga, kestrel-evolve" '' "$bin" evolve --generations 2 --population 20 --out evolve-out --quiet
test -s evolve-out/best.toml || { echo "fresh-clone: FAILED evolve: no best.toml" >&2; exit 1; }
check kestrel-chromodb '' "$bin" evolve mnc --population 6 --generations 2 --nodes 100 \
    --out mnc-out --db chromosomes.sqlite --quiet
check kestrel-chromodb 'mnc' "$bin" db list --db chromosomes.sqlite

if [ "$run_tests" = yes ] && [ -n "${clone-}" ]; then
    status=0
    (cd "$clone" && cargo test --workspace) >"$scratch/tests.log" 2>&1 || status=$?
    grep -E '^test result:' "$scratch/tests.log" |
        awk '{p+=$4; f+=$6; i+=$8} END {print "fresh-clone: tests: "p" passed, "f" failed, "i" ignored"}'
    echo "fresh-clone: $(grep -c 'skipped: ' "$scratch/tests.log" || true) skipped"
    if [ "$status" != 0 ]; then
        echo "fresh-clone: FAILED cargo test --workspace" >&2
        grep -E 'FAILED|panicked' "$scratch/tests.log" | head -20 >&2
        exit 1
    fi
    echo "fresh-clone: ok  cargo test --workspace"
fi
echo "fresh-clone: every command ran"
