#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred llama_0=data/pred_llama_0.json --config data/config.json --format json
