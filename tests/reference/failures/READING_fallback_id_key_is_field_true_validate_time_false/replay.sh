#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred gpt_1=data/pred_gpt_1.jsonl --pred gpt_2=data/pred_gpt_2.jsonl --config data/config.json --format json
