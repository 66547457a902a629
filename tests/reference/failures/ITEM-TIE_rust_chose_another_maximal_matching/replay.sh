#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.json --pred llama_2=data/pred_llama_2.jsonl --config data/config.json --format json
