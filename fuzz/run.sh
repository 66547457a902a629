#!/bin/sh
# Runs every fuzz target for SECONDS (default 600) each, one after the
# other, in one process (libFuzzer's default; no -jobs), at low priority. Needs the nightly toolchain and
# cargo-fuzz (installed here if missing). New corpus entries go to
# fuzz/target/corpus/TARGET and crashes to fuzz/target/artifacts/TARGET
# (neither committed; copy a crash into a regression test). Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -eu
cd "$(dirname "$0")"
seconds=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-"parse_input raw_output config_schema evaluate distance"}
cargo fuzz --version >/dev/null 2>&1 || cargo install --locked cargo-fuzz
# cargo-fuzz builds in its own target directory (its RUSTFLAGS differ).
unset CARGO_TARGET_DIR
# No AddressSanitizer: the crate has no `unsafe`; panics, timeouts and
# memory blow-ups are what we look for, and the runs go about twice as fast.
nice -n 10 cargo +nightly fuzz build -s none
for target in $targets; do
    # Inputs up to 64 KiB (the distance target compares with a quadratic
    # reference, so it gets shorter strings).
    max_len=65536
    [ "$target" = distance ] && max_len=4096
    mkdir -p "target/corpus/$target" "target/artifacts/$target"
    echo "== $target: ${seconds}s"
    nice -n 10 cargo +nightly fuzz run -s none "$target" "target/corpus/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -max_len="$max_len" \
        -artifact_prefix="target/artifacts/$target/" \
        -timeout=10 -rss_limit_mb=2048 -dict=json.dict -print_final_stats=1
done
