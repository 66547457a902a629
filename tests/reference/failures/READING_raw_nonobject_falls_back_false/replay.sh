#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.jsonl --pred claude_0=data/pred_claude_0.jsonl --pred qwen_1=data/pred_qwen_1.jsonl --format json
