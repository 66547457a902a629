#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.json --pred gemini_1=data/pred_gemini_1.jsonl --config data/config.json --format json
