#!/bin/sh
# run from this directory
cd "$(dirname "$0")"
../../../../target/debug/fieldscope eval --truth data/truth.json --pred claude_0=data/pred_claude_0.jsonl --pred claude_1=data/pred_claude_1.json --config data/config.json --format json
