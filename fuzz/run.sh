#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600) each, one after the
# other, on one core: `bash fuzz/run.sh [SECONDS]`. Needs the nightly
# toolchain and cargo-fuzz (`cargo install --locked cargo-fuzz`).
# Crashes land in fuzz/artifacts/TARGET/; add each as a regression test.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_EACH="${1:-600}"
for target in parse_input raw_output config_schema evaluate distance literature jsonl_index; do
  echo "==> $target for ${SECONDS_EACH}s"
  mkdir -p "corpus/$target"
  cargo +nightly fuzz run "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=20 -rss_limit_mb=2048 -jobs=1 -print_final_stats=1
done
