#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.json --pred gemini_0=data/pred_gemini_0.json --pred mistral_1=data/pred_mistral_1.jsonl --pred qwen_2=data/pred_qwen_2.jsonl --schema data/schema.json --config data/config.json --preset invoice-cer --format json
