#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred mistral_0=data/pred_mistral_0.jsonl --pred gemini_1=data/pred_gemini_1.jsonl --pred qwen_2=data/pred_qwen_2.json --schema data/schema.json --config data/config.json --format json
