#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred mistral_0=data/pred_mistral_0.jsonl --schema data/schema.json --config data/config.json --format json
