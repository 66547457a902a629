#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.json --pred gemini_0=data/pred_gemini_0.jsonl --pred mistral_1=data/pred_mistral_1.jsonl --pred llama_2=data/pred_llama_2.jsonl --config data/config.json --cost gemini_0=12 --format json
