#!/usr/bin/env python3
"""Compare fieldscope's literature metrics with their reference implementations.

Generates random ground-truth / prediction files (nested objects, lists of
strings and of objects, numbers, booleans, nulls, empty strings and
containers, hallucinated and missing keys, typos, case and whitespace
changes, reordered / dropped / invented list items, type changes, missing
predictions, non-ASCII text), runs

    fieldscope eval --truth T --pred P --metrics all --details --format json

and computes the same numbers with the reference packages on the same
records (without their `id` key, as fieldscope evaluates them):

* ANLS*: `anls_star.anls_score(gt, pred)` per document, the mean over
  documents;
* Donut: `JSONParseEvaluator.cal_acc(pred, gt)` per document (nTED), their
  mean, and `cal_f1` per document and over the dataset (donut/util.py).

A missing prediction is passed as `None` to both references.

Requirements (this script installs nothing):

    pip install anls_star==1.0.1 munkres==1.1.4 numpy six regex tqdm click joblib
    pip install --no-deps donut-python==1.0.9 zss==1.2.0 nltk

`munkres==1.1.4` is the classic implementation `anls_star` was written
against (its tie-breaking decides some ANLS* scores); the package name's
3.x releases are a different codebase. `numpy` is what Donut's environment
has: zss then divides with numpy floats (an empty truth gives nTED 0 instead
of ZeroDivisionError). Donut's `util.py` is loaded by file path with its
heavy imports (torch, transformers, datasets) stubbed: the evaluator uses
none of them.

Usage:

    cargo build --bin fieldscope
    python3 tests/reference/literature_compare.py --bin target/debug/fieldscope --n 200 --seed 1

Prints the agreement per metric: exact (bit-identical) and within 1e-9.
Exit status 1 on any disagreement beyond 1e-9. Not needed to build, run or
test fieldscope.
"""

import argparse
import importlib.metadata as md
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import types
import unicodedata
import warnings

warnings.simplefilter("ignore")


def load_references():
    from anls_star import anls_score
    import munkres

    if getattr(munkres, "__version__", "?") != "1.1.4":
        print(f"warning: munkres {getattr(munkres, '__version__', '?')} (expected 1.1.4)", file=sys.stderr)
    for name in ["torch", "torch.utils", "torch.utils.data", "datasets", "transformers", "transformers.modeling_utils"]:
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules["torch"].Tensor = object
    sys.modules["torch.utils.data"].Dataset = object
    sys.modules["datasets"].load_dataset = None
    sys.modules["transformers.modeling_utils"].PreTrainedModel = object
    path = str(md.distribution("donut-python").locate_file("donut/util.py"))
    spec = importlib.util.spec_from_file_location("donut_util", path)
    util = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(util)
    return anls_score, util.JSONParseEvaluator()


WORDS = ["total", "Total", "TOTAL", "acme", "ACME Corp", "invoice", "cake", "juice", "Straße", "ΣΟΦΙΑ", "İstanbul",
         "café", "naïve", "東京", "1,234.50", "2024-01-31", "31.01.2024", "n/a", "NOT_FOUND", "x", "0", "True"]
KEYS = ["name", "total", "date", "vendor", "items", "qty", "price", "note", "tags", "a", "b", "ab", "nm", "cnt",
        "address", "city", "zip", "k.dot", "Kéy", "<leaf>k"]


def rand_text(r):
    k = r.random()
    if k < 0.5:
        s = r.choice(WORDS)
    elif k < 0.8:
        s = " ".join(r.choice(WORDS) for _ in range(r.randint(1, 3)))
    else:
        s = "".join(r.choice("abcdefghij XYZ\t\u00e9\u03a3\u001c") for _ in range(r.randint(0, 8)))
    return unicodedata.normalize("NFC", s)


def rand_scalar(r):
    k = r.random()
    if k < 0.45:
        return rand_text(r)
    if k < 0.6:
        return r.randint(-50, 100000)
    if k < 0.72:
        return round(r.uniform(-1000, 1000), r.randint(0, 4))
    if k < 0.77:
        return r.choice([0.5, 1.0, 1e16, 1.5e-7, 2.0, 0.0])
    if k < 0.84:
        return r.choice([True, False])
    if k < 0.92:
        return None
    return r.choice(["", [], {}])


def rand_value(r, depth):
    k = r.random()
    if depth <= 0 or k < 0.55:
        return rand_scalar(r)
    if k < 0.7:
        return [rand_scalar(r) for _ in range(r.randint(0, 4))]
    if k < 0.88:
        return [rand_object(r, depth - 1, 1, 3) for _ in range(r.randint(0, 4))]
    return rand_object(r, depth - 1, 0, 3)


def rand_object(r, depth, lo, hi):
    return {r.choice(KEYS): rand_value(r, depth) for _ in range(r.randint(lo, hi))}


def typo(r, s):
    if not s:
        return s
    i = r.randrange(len(s))
    op = r.random()
    if op < 0.3:
        return s[:i] + s[i + 1:]
    if op < 0.6:
        return s[:i] + r.choice("xyzé ") + s[i + 1:]
    if op < 0.8:
        return s.upper() if r.random() < 0.5 else "  " + s + " "
    return s + r.choice("xy")


def mutate(r, v, depth=0):
    if r.random() < 0.06:
        return rand_value(r, 1)
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            p = r.random()
            if p < 0.1:
                continue
            out[k] = mutate(r, x, depth + 1) if p < 0.6 else x
        if r.random() < 0.15:
            out[r.choice(KEYS)] = r.choice([None, "", rand_scalar(r)])
        return out
    if isinstance(v, list):
        items = [mutate(r, x, depth + 1) if r.random() < 0.4 else x for x in v if r.random() > 0.15]
        if r.random() < 0.4:
            r.shuffle(items)
        if r.random() < 0.2:
            items.append(mutate(r, v[0], depth + 1) if v else rand_scalar(r))
        return items
    if isinstance(v, str):
        return typo(r, v) if r.random() < 0.5 else v
    if isinstance(v, bool):
        return v if r.random() < 0.7 else str(v).lower()
    if isinstance(v, (int, float)):
        p = r.random()
        if p < 0.2:
            return str(v)
        if p < 0.35:
            return v + 1
        return v
    return v


def dataset(r, n):
    truth, preds = [], []
    for i in range(n):
        gt = rand_object(r, 3, 0, 6)
        truth.append({"id": f"d{i}", **gt})
        p = r.random()
        if p < 0.08:
            continue  # missing prediction
        pred = rand_object(r, 2, 0, 4) if p < 0.12 else mutate(r, gt)
        if not isinstance(pred, dict):
            pred = rand_object(r, 2, 0, 4)
        preds.append({"id": f"d{i}", **pred})
    r.shuffle(preds)
    return truth, preds


def write_jsonl(path, records):
    with open(path, "w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")


def mean(xs):
    return sum(xs) / len(xs) if xs else None


class Tally:
    def __init__(self):
        self.n = self.exact = self.close = 0
        self.worst = None

    def add(self, ours, ref, where):
        self.n += 1
        if ours == ref or (ours is not None and ref is not None and abs(ours - ref) == 0):
            self.exact += 1
            self.close += 1
            return
        if ours is not None and ref is not None and abs(ours - ref) <= 1e-9:
            self.close += 1
            return
        diff = float("inf") if ours is None or ref is None else abs(ours - ref)
        if self.worst is None or diff > self.worst[0]:
            self.worst = (diff, ours, ref, where)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/debug/fieldscope")
    ap.add_argument("--n", type=int, default=100, help="datasets")
    ap.add_argument("--docs", type=int, default=20, help="documents per dataset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="directory to write the first disagreeing dataset to")
    args = ap.parse_args()
    anls_score, donut = load_references()
    global np
    import numpy as np

    tallies = {k: Tally() for k in ["anls_star/doc", "nted/doc", "donut_f1/doc", "anls_star", "nted", "donut_f1"]}
    r = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for ds in range(args.n):
            truth, preds = dataset(r, args.docs)
            tp, pp = os.path.join(tmp, "truth.jsonl"), os.path.join(tmp, "pred.jsonl")
            write_jsonl(tp, truth)
            write_jsonl(pp, preds)
            out = subprocess.run([args.bin, "eval", "--truth", tp, "--pred", "m=" + pp, "--metrics", "all",
                                  "--details", "--format", "json"], capture_output=True, text=True)
            if out.returncode != 0:
                print(f"dataset {ds}: fieldscope failed: {out.stderr}", file=sys.stderr)
                failures += 1
                continue
            lit = json.loads(out.stdout)["models"][0]["literature"]
            by_id = {p["id"]: {k: v for k, v in p.items() if k != "id"} for p in preds}
            anls, accs = [], []
            tot_tp = tot_f = 0
            before = sum(t.n - t.close for t in tallies.values())
            for doc, ours in zip(truth, lit["documents"]):
                gt = {k: v for k, v in doc.items() if k != "id"}
                pred = by_id.get(doc["id"])
                where = f"dataset {ds}, document {doc['id']}"
                a = anls_score(gt, pred)
                anls.append(a)
                tallies["anls_star/doc"].add(ours["anls_star"], a, where)
                acc = float(donut.cal_acc(pred, gt))
                accs.append(acc)
                tallies["nted/doc"].add(ours["nted"], acc, where)
                # cal_f1's counts for this document.
                pf = donut.flatten(donut.normalize_dict(pred))
                af = donut.flatten(donut.normalize_dict(gt))
                t = f = 0
                for field in pf:
                    if field in af:
                        t += 1
                        af.remove(field)
                    else:
                        f += 1
                f += len(af)
                tot_tp += t
                tot_f += f
                f1 = t / (t + f / 2) if t + f else None
                tallies["donut_f1/doc"].add(ours["donut_f1"], f1, where)
            tallies["anls_star"].add(lit["anls_star"], mean(anls), f"dataset {ds}")
            # Donut's test.py: np.mean(accs) (pairwise summation).
            tallies["nted"].add(lit["nted"], float(np.mean(accs)) if accs else None, f"dataset {ds}")
            try:
                ref_f1 = donut.cal_f1([by_id.get(d["id"]) for d in truth],
                                      [{k: v for k, v in d.items() if k != "id"} for d in truth])
            except ZeroDivisionError:
                ref_f1 = None
            tallies["donut_f1"].add(lit["donut_f1"], ref_f1, f"dataset {ds}")
            after = sum(t.n - t.close for t in tallies.values())
            if after > before and args.keep and not os.path.exists(args.keep):
                os.makedirs(args.keep)
                write_jsonl(os.path.join(args.keep, "truth.jsonl"), truth)
                write_jsonl(os.path.join(args.keep, "pred.jsonl"), preds)

    bad = failures
    print(f"{args.n} datasets x {args.docs} documents, seed {args.seed}")
    for name, t in tallies.items():
        print(f"  {name:14} {t.exact:6}/{t.n} bit-identical, {t.close:6}/{t.n} within 1e-9")
        if t.worst:
            print(f"      worst: {t.worst}")
        bad += t.n - t.close
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
