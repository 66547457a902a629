#!/usr/bin/env bash
# Counts the instructions one `fieldscope eval --jobs 1` executes (10,000
# invoices x 3 models + schema), in total
# and inside item matching (`match_items`, SPEC §3.4/§7.3), with valgrind's
# callgrind: a count that the machine's load does not change, unlike wall
# time on a shared 2-core machine. Compare two builds by running it with
# each binary on the same data.
#
# Usage: bash benches/instructions.sh [FIELDSCOPE_BINARY] [DATA_DIR]
#   FIELDSCOPE_BINARY  default target/release/fieldscope
#   DATA_DIR           default bench-data/10k (made with `fieldscope synth
#                      --documents 10000 --seed 1` when missing)
# Needs valgrind (Debian package `valgrind`).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/fieldscope}"
DATA="${2:-bench-data/10k}"
if [ ! -f "$DATA/truth.jsonl" ]; then
  "$BIN" synth --documents 10000 --seed 1 --out "$DATA" >/dev/null
fi
# One thread (builds before `--jobs` had one anyway).
JOBS=()
if "$BIN" eval --help | grep -c -- '--jobs' >/dev/null; then JOBS=(--jobs 1); fi
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$OUT/cg" "$BIN" eval "${JOBS[@]}" \
  --truth "$DATA/truth.jsonl" --pred good="$DATA/good.jsonl" \
  --pred conservative="$DATA/conservative.jsonl" --pred aggressive="$DATA/aggressive.jsonl" \
  --schema "$DATA/invoice.schema.json" --format json >"$OUT/report.json" 2>"$OUT/valgrind.log"
callgrind_annotate "$OUT/cg" >"$OUT/self.txt" 2>/dev/null
callgrind_annotate --inclusive=yes "$OUT/cg" >"$OUT/inclusive.txt" 2>/dev/null
total=$(awk '/PROGRAM TOTALS/ && !n {gsub(",", "", $1); print $1; n=1}' "$OUT/self.txt")
items=$(awk '/match_items/ && !n {gsub(",", "", $1); print $1; n=1}' "$OUT/inclusive.txt")
printf 'binary %s\ninstructions, whole run: %s\ninstructions in match_items (inclusive): %s\nreport sha256: %s\n' \
  "$BIN" "$total" "${items:-0}" "$(sha256sum "$OUT/report.json" | cut -d' ' -f1)"
