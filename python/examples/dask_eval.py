"""Evaluate a sharded JSONL dataset on Dask (``dask.distributed``).

The dataset is a directory of shards: ``truth-00000.jsonl``,
``truth-00001.jsonl``, … and, for each model, ``MODEL-00000.jsonl``, … (each
model's shard holding the predictions of the same documents as the truth's
shard with the same number). Three steps (docs/distributed.md):

1. :func:`fieldscope.learn` reads every document once (on one worker) and
   decides what one evaluation decides before it compares anything — the
   fields' kinds, the warnings, the costs (SPEC §1.2);
2. :func:`fieldscope.evaluate_partial` compares each shard, as a Dask task
   (``client.map``), returning its partial result as bytes;
3. :func:`fieldscope.merge` adds the partials up on the client, in the
   shards' order: the report is, byte for byte, the one
   :func:`fieldscope.evaluate` gives over all the documents in one process.

Usage::

    python dask_eval.py DIR [--models gpt,claude] [--schema S.json] [--scheduler ADDRESS]
    python dask_eval.py --synth 10000 --shards 10 [--compare]

Without ``--scheduler`` it starts a ``LocalCluster`` (2 worker processes, one
thread each). ``--synth N`` first writes N ``fieldscope synth`` invoices and
three models as ``--shards`` shards into a temporary directory (their
planted faults: ``conservative`` and ``aggressive`` write some records as raw
model text, a tenth of which does not parse — a refusal or a truncated
answer — so the report warns about those models' records on purpose;
``good``'s raw text always parses). ``--compare``
also evaluates the same documents in this process and prints both timings
(the cost per document) and whether the reports are equal.
"""

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import fieldscope

#: One shard: its truth file and each model's predictions file.
Shard = Tuple[str, Dict[str, str]]


def find_shards(directory: str, models: Sequence[str]) -> List[Shard]:
    """The shards of ``directory``, in the order of their numbers."""
    root = Path(directory)
    shards = []
    for truth in sorted(root.glob("truth-*.jsonl")):
        number = truth.stem[len("truth-") :]
        shards.append((str(truth), {m: str(root / f"{m}-{number}.jsonl") for m in models}))
    if not shards:
        raise SystemExit(f"{directory}: no truth-*.jsonl shards")
    return shards


def _joined(paths: Sequence[str]) -> bytes:
    """The files' bytes one after the other (each ending with a newline)."""
    parts = []
    for path in paths:
        data = Path(path).read_bytes()
        parts.append(data if data.endswith(b"\n") or not data else data + b"\n")
    return b"".join(parts)


def all_documents(shards: Sequence[Shard]) -> Tuple[bytes, Dict[str, bytes]]:
    """Every shard's truth, and each model's predictions, as one JSONL text
    (named ``<truth>`` and ``<MODEL>`` in the report's warnings)."""
    models = list(shards[0][1])
    truth = _joined([t for t, _ in shards])
    return truth, {m: _joined([p[m] for _, p in shards]) for m in models}


def learn_shards(shards: Sequence[Shard], schema: Optional[str]) -> bytes:
    """Step 1 (a task): the fields learnt from every document."""
    truth, predictions = all_documents(shards)
    return fieldscope.learn(truth, predictions, schema=schema)


def evaluate_shard(
    shard: Shard, learned: bytes, schema: Optional[str], details: bool = False
) -> bytes:
    """Step 2 (a task per shard): the shard's partial result."""
    truth, predictions = shard
    return fieldscope.evaluate_partial(
        truth, predictions, schema=schema, learned=learned, details=details
    )


def evaluate_on_dask(client, shards: Sequence[Shard], schema: Optional[str] = None, **options):
    """The report of every shard's documents, computed on ``client``'s
    workers and merged here; ``options`` go to :func:`fieldscope.merge`
    (``details=``, ``bootstrap=``, ``seed=``, ``alpha=``). The files must
    be readable by the workers at the same paths."""
    learned = client.submit(learn_shards, list(shards), schema, pure=False)
    details = bool(options.get("details"))
    partials = client.map(
        evaluate_shard, list(shards), learned=learned, schema=schema, details=details, pure=False
    )
    return fieldscope.merge(client.gather(partials), **options)


def evaluate_here(shards: Sequence[Shard], schema: Optional[str] = None, **options):
    """The same documents evaluated in this process (the reference)."""
    truth, predictions = all_documents(shards)
    return fieldscope.evaluate(truth, predictions, schema=schema, **options)


def write_synth_shards(directory: str, documents: int, shards: int) -> Tuple[List[str], str]:
    """``fieldscope synth`` invoices cut into ``shards`` shards of
    ``directory``; returns the model names and the schema's path."""
    root = Path(directory)
    whole = root / "whole"
    if fieldscope.run(["synth", "--documents", str(documents), "--out", str(whole)]) != 0:
        raise SystemExit("fieldscope synth failed")
    models = ["good", "conservative", "aggressive"]
    truth_lines = (whole / "truth.jsonl").read_text("utf-8").splitlines(keepends=True)
    shard_of = {json.loads(line)["id"]: i * shards // len(truth_lines) for i, line in enumerate(truth_lines)}
    for name in ["truth"] + models:
        parts: List[List[str]] = [[] for _ in range(shards)]
        for line in (whole / f"{name}.jsonl").read_text("utf-8").splitlines(keepends=True):
            # A prediction of no truth document goes to the last shard.
            parts[shard_of.get(json.loads(line).get("id"), shards - 1)].append(line)
        for k, lines in enumerate(parts):
            (root / f"{name}-{k:05d}.jsonl").write_text("".join(lines), "utf-8")
    return models, str(whole / "invoice.schema.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", nargs="?", help="the shards' directory")
    parser.add_argument("--models", help="model names, comma-separated (the shards' prefixes)")
    parser.add_argument("--schema", help="a JSON Schema of the records")
    parser.add_argument("--scheduler", help="a Dask scheduler's address (default: a LocalCluster)")
    parser.add_argument("--synth", type=int, metavar="N", help="write N synthetic invoices first")
    parser.add_argument("--shards", type=int, default=10, help="with --synth: shards (10)")
    parser.add_argument("--compare", action="store_true", help="also evaluate in this process")
    args = parser.parse_args()

    from dask.distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        if args.synth:
            models, schema = write_synth_shards(tmp, args.synth, args.shards)
            directory = tmp
        elif args.directory and args.models:
            models, schema, directory = args.models.split(","), args.schema, args.directory
        else:
            parser.error("give DIR and --models, or --synth N")
        shards = find_shards(directory, models)
        documents = sum(1 for t, _ in shards for line in open(t, "rb") if line.strip())

        def per_doc(seconds: float) -> str:
            return f"{seconds:.2f} s ({seconds / documents * 1e6:.0f} µs per document)"

        cluster = None
        if args.scheduler:
            client = Client(args.scheduler)
        else:
            cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1)
            client = Client(cluster)
        try:
            client.wait_for_workers(1)
            start = time.perf_counter()
            report = evaluate_on_dask(client, shards, schema)
            dask_s = time.perf_counter() - start
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        print(report.to_markdown())
        print(f"dask ({len(shards)} shards, {documents} documents): {per_doc(dask_s)}")
        if args.compare:
            # The same steps in this process, one after the other.
            start = time.perf_counter()
            learned = learn_shards(shards, schema)
            learn_s = time.perf_counter() - start
            partials = [evaluate_shard(shard, learned, schema) for shard in shards]
            partial_s = time.perf_counter() - start - learn_s
            merged = fieldscope.merge(partials)
            merge_s = time.perf_counter() - start - learn_s - partial_s
            start = time.perf_counter()
            single = evaluate_here(shards, schema)
            single_s = time.perf_counter() - start
            size = sum(len(p) for p in partials)
            print(f"learn: {per_doc(learn_s)}")
            print(f"evaluate_partial, every shard: {per_doc(partial_s)}")
            print(f"merge: {per_doc(merge_s)}")
            print(f"partials: {size / documents:.0f} bytes per document")
            print(f"evaluate, one process: {per_doc(single_s)}")
            same = single.to_json() == report.to_json() == merged.to_json()
            print("reports equal:", same)

if __name__ == "__main__":
    main()
