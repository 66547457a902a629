"""Speed of the Python package beside the CLI's, on the same data in the same
run: ``fieldscope synth`` invoices (10,000 documents and the three models by
default) with their JSON Schema.

    python python/bench/bench.py [--documents 10000] [--runs 5] [--cli PATH]

Measured, each the best of ``--runs`` runs, the runs interleaved so that the
machine's load falls on all alike:

* ``cli``: the wall time of ``fieldscope eval --truth … --pred … --schema …``
  (the release binary, ``target/release/fieldscope``; built with cargo when
  missing), printing the JSON report to a pipe: process start, reading,
  evaluation, rendering.
* ``files``: ``fieldscope.evaluate(paths…, schema=path).to_json()`` in this
  process (the same reading, evaluation and rendering; no process start).
* ``memory``: the same records given as lists of dicts (read with
  ``json.loads`` beforehand, not timed): the conversion from Python objects
  replaces the parsing of the files; ``memory − files`` is its cost.
* ``dataframe``: the truth as a DataFrame (one row per invoice, nested
  values in object columns), the predictions as lists.
* stickler-eval and anls-star: when installed (``pip install anls-star``),
  ANLS* over the same documents for the first model, for comparison.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import fieldscope

# The synthetic models' warnings (unparseable raw output, on purpose).
warnings.simplefilter("ignore", fieldscope.EvaluationWarning)

ROOT = Path(__file__).resolve().parents[2]
MODELS = ["good", "conservative", "aggressive"]


def release_cli(given):
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    path = target / "release" / "fieldscope"
    if not path.exists():
        subprocess.run(
            ["cargo", "build", "--release", "--locked", "--bin", "fieldscope"], cwd=ROOT, check=True
        )
    return path


def timed(f):
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cli", help="the fieldscope binary (default target/release/fieldscope)")
    parser.add_argument("--data", help="a synth directory to reuse (default: a new temporary one)")
    args = parser.parse_args()

    cli = release_cli(args.cli)
    tmp = None
    if args.data and (Path(args.data) / "truth.jsonl").exists():
        data = Path(args.data)
    else:
        data = Path(args.data) if args.data else Path(tmp := tempfile.mkdtemp(prefix="fieldscope-bench-"))
        subprocess.run(
            [str(cli), "synth", "--documents", str(args.documents), "--out", str(data)], check=True
        )
    truth = data / "truth.jsonl"
    schema = data / "invoice.schema.json"
    preds = [data / f"{m}.jsonl" for m in MODELS]
    command = [str(cli), "eval", "--truth", str(truth), "--schema", str(schema)]
    for p in preds:
        command += ["--pred", str(p)]

    truth_records = read_jsonl(truth)
    pred_records = {m: read_jsonl(p) for m, p in zip(MODELS, preds)}
    frame = None
    try:
        import pandas as pd

        frame = pd.DataFrame(truth_records)
    except ImportError:
        pass

    # The same report every way (checked once, not timed).
    expected = subprocess.run(command, capture_output=True, check=True).stdout.decode("utf-8")
    assert fieldscope.evaluate(truth, preds, schema=schema).to_json() == expected
    from_memory = fieldscope.evaluate(truth_records, pred_records, schema=schema).to_dict()
    from_memory.pop("warnings")
    reference = json.loads(expected)
    reference.pop("warnings")
    assert from_memory == reference

    runs = {"cli": [], "files": [], "memory": []}
    if frame is not None:
        runs["dataframe"] = []
    for _ in range(args.runs):
        runs["cli"].append(
            timed(
                lambda: subprocess.run(
                    command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True
                )
            )
        )
        runs["files"].append(timed(lambda: fieldscope.evaluate(truth, preds, schema=schema).to_json()))
        runs["memory"].append(
            timed(lambda: fieldscope.evaluate(truth_records, pred_records, schema=schema).to_json())
        )
        if frame is not None:
            runs["dataframe"].append(
                timed(lambda: fieldscope.evaluate(frame, pred_records, schema=schema).to_json())
            )

    size = sum(p.stat().st_size for p in [truth, *preds]) / 1e6
    print(f"fieldscope {fieldscope.__version__}: {len(truth_records)} documents × {len(MODELS)} models "
          f"with the schema ({size:.1f} MB of JSONL); best (median) of {args.runs} runs")  # fmt: skip
    best_cli = min(runs["cli"])
    for name, times in runs.items():
        best = min(times)
        print(f"  {name:<10} {best:7.3f} s ({statistics.median(times):.3f} s)   {best / best_cli:5.2f}× the CLI")
    conversion = min(runs["memory"]) - min(runs["files"])
    print(f"  conversion from lists of dicts instead of parsing the files: {conversion:+.3f} s")

    try:
        from anls_star import anls_score
    except ImportError:
        print("  anls-star: not installed (pip install anls-star to compare)")
    else:
        gt = {r["id"]: r for r in truth_records}
        pr = {r.get("id"): r for r in pred_records[MODELS[0]]}
        pairs = [(gt[k], pr.get(k, {})) for k in gt]
        t = timed(lambda: [anls_score(g, p) for g, p in pairs])
        lit = timed(lambda: fieldscope.evaluate(truth, [preds[0]], metrics="anls_star"))
        print(f"  anls-star ANLS* of one model: {t:.3f} s; fieldscope with metrics='anls_star': {lit:.3f} s")
    if tmp:
        for f in Path(tmp).iterdir():
            f.unlink()
        Path(tmp).rmdir()


if __name__ == "__main__":
    sys.exit(main())
