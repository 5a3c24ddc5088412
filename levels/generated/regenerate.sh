#!/bin/sh
# Regenerates every level of levels/generated/ (NAME.txt) and the hidden layout
# it was built around (NAME.solution.txt), deterministically: `frosted generate`
# prints the same level for the same seed and options on every machine.
# Run from anywhere, after `cargo build --release`:
#     sh levels/generated/regenerate.sh
# (FROSTED=path/to/frosted to use another binary.) A request that finds no
# level is reported and skipped (none is, today).
set -eu
cd "$(dirname "$0")"
FROSTED=${FROSTED:-../../target/release/frosted}
rm -f ./*.txt

gen() {
    name=$1
    shift
    if ! "$FROSTED" generate "$@" --layout "$name.solution.txt" >"$name.txt" 2>/dev/null; then
        rm -f "$name.txt" "$name.solution.txt"
        echo "skipped $name: frosted generate $*" >&2
    fi
}

n() { printf '%03d' "$1"; }

# The default mix: size, mechanics and counts drawn from the seed.
for s in $(seq 1 100); do gen "game-$(n "$s")" --seed "$s"; done
# Two sources whose toppers lie far apart, on boards up to 13x9.
for s in $(seq 1 50); do gen "far-$(n "$s")" --seed "$s" --style far; done
for s in $(seq 1 25); do gen "far-13x9-$(n "$s")" --seed "$s" --style far --size 13x9; done
# A lone source through a teleporter into a splitter, then toppers.
for s in $(seq 1 45); do gen "teleport-split-$(n "$s")" --seed "$s" --style teleport-split; done
# Teleporters with several outs, each into a splitter.
for s in $(seq 1 45); do gen "multi-out-$(n "$s")" --seed "$s" --style multi-out; done
# Each mechanic on its own (with toppers), three seeds each.
for m in targets merges splitters bumpers preset teleporters multi-out crossovers any-sources walls; do
    for s in 1 2 3; do gen "mechanic-$m-$s" --seed "$s" --mechanics "toppers,$m"; done
done
# Small boards, from 5x5.
for s in $(seq 1 10); do gen "small-5x5-$(n "$s")" --seed "$s" --size 5x5; done
for s in $(seq 1 10); do gen "small-6x5-$(n "$s")" --seed "$s" --size 6x5; done
