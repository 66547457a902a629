#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.json --pred llama_0=data/pred_llama_0.jsonl --pred gpt_1=data/pred_gpt_1.jsonl --config data/config.json --cost llama_0=0.001 --format json
