#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred qwen_0=data/pred_qwen_0.jsonl --config data/config.json --format json
