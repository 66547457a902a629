#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred llama_0=data/pred_llama_0.jsonl --pred llama_1=data/pred_llama_1.json --schema data/schema.json --config data/config.json --format json
