#!/bin/sh
# Variants of the generated levels that are mostly unsolvable, for measuring
# the explanations (the core and near-solutions after an `unsolvable`
# verdict) on levels not seen in development: for each level here that has
# a `:targets` line, a copy `NAME-more.txt` asking for one more delivery of
# the first kind it names, without the `:comment` lines. Deterministic.
#
#   sh levels/generated/unsolvable.sh OUT
#   frosted bench OUT --explain 20 --timeout 10
set -eu
here=$(dirname "$0")
out=${1:?usage: sh levels/generated/unsolvable.sh OUT}
mkdir -p "$out"
for f in "$here"/*.txt; do
  case "$f" in *.solution.txt) continue ;; esac
  grep -q '^:targets' "$f" || continue
  name=$(basename "$f" .txt)
  awk '/^:comment/ { next } /^:targets/ { print $0, $2; next } { print }' "$f" >"$out/$name-more.txt"
done
