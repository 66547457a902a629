#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred gemini_0=data/pred_gemini_0.json --pred gpt_1=data/pred_gpt_1.jsonl --pred gpt_2=data/pred_gpt_2.jsonl --schema data/schema.json --config data/config.json --format json
