#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred qwen_0=data/pred_qwen_0.json --pred gpt_1=data/pred_gpt_1.json --pred llama_2=data/pred_llama_2.json --config data/config.json --format json
