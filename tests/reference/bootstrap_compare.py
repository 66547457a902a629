#!/usr/bin/env python3
"""Independent check of `fieldscope eval --bootstrap`: re-implements, from
the definitions in src/eval/bootstrap.rs's docs and SPEC.md section 3, the
resampling (fastrand's WyRand generator and Lemire's bounded integers, as
published by fastrand 2), every resampled score (SPEC 3.1 strict scores;
3.2 micro, macro over documents and macro over fields with its rule for
fields left out; 3.5 numeric_precision, field_f1_partial, schema validity
and document_extraction_score with its re-spread weights; 3.4 item
precision, recall and F1), the type-7 percentile intervals, the paired
bootstrap test and the Holm correction, and compares every number of the
CLI's `bootstrap` key (tolerance 1e-12).

What each document contributes (its counts, per field, its numeric values,
schema validity and items) comes from the independent reference evaluator
(fieldscope_ref.py) run on the same files, not from the Rust tool; its
point estimates are checked against the Rust report first.

    python3 tests/reference/bootstrap_compare.py   # after cargo build

Not needed by the test command; tests/suite/cli.rs pins the CLI's numbers
that this script reproduces.
"""
import json, math, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fieldscope_ref as R  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
CLI = os.path.join(ROOT, "target", "debug", "fieldscope")
M64 = (1 << 64) - 1


class WyRand:
    def __init__(self, seed):
        self.s = seed & M64

    def u64(self):
        self.s = (self.s + 0x2D358DCCAA6C78A5) & M64
        t = self.s * (self.s ^ 0x8BB84B93962EACC9)
        return (t & M64) ^ (t >> 64)

    def below(self, n):  # Lemire's method, as fastrand's gen_mod_u64
        r = self.u64()
        hi, lo = (r * n) >> 64, (r * n) & M64
        if lo < n:
            t = ((-n) & M64) % n
            while lo < t:
                r = self.u64()
                hi, lo = (r * n) >> 64, (r * n) & M64
        return hi


KEYS = ["exact", "partial", "incorrect", "missed", "spurious", "true_negative"]
METRICS = ["micro.precision", "micro.recall", "micro.f1", "micro.accuracy",
           "macro_documents.precision", "macro_documents.recall", "macro_documents.f1",
           "macro_documents.accuracy",
           "macro_fields.precision", "macro_fields.recall", "macro_fields.f1", "macro_fields.accuracy",
           "document_extraction_score", "items.precision", "items.recall", "items.f1"]
TESTED = ["micro.f1", "micro.accuracy", "macro_documents.f1", "macro_fields.f1",
          "document_extraction_score", "items.f1"]


def ratio(num, den, zd):
    return zd if den == 0 else num / den


def harmonic(p, r):
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def truth_pred(c):
    return (c["exact"] + c["partial"] + c["incorrect"] + c["missed"],
            c["exact"] + c["partial"] + c["incorrect"] + c["spurious"])


def strict(c, cfg):
    fp_fn = "fn" in cfg["incorrect_counts_as"]
    tp = c["exact"]
    fp = c["incorrect"] + c["partial"] + c["spurious"]
    fn = c["missed"] + (c["incorrect"] + c["partial"] if fp_fn else 0)
    n = sum(c[k] for k in KEYS)
    zd = cfg["zero_division"]
    p, r = ratio(tp, tp + fp, zd), ratio(tp, tp + fn, zd)
    return [p, r, harmonic(p, r), ratio(tp + c["true_negative"], n, zd)]


def doc_scores(c, cfg):
    s = strict(c, cfg)
    truth, pred = truth_pred(c)
    if truth == 0 and pred == 0:
        e = cfg["empty_document_score"]
        s[0] = s[1] = e
        s[2] = harmonic(e, e)
    return s


def mean(xs, empty):
    return sum(xs) / len(xs) if xs else empty


def add(a, b):
    return {k: a[k] + b[k] for k in KEYS}


def scores(docs, fields, has_items, cfg):
    """The 16 METRICS over a list of drawn documents (tallies)."""
    zd = cfg["zero_division"]
    zero = {k: 0 for k in KEYS}
    total = zero
    for d in docs:
        total = add(total, d["counts"])
    micro = strict(total, cfg)
    per = [doc_scores(d["counts"], cfg) for d in docs]
    mp, mr = mean([s[0] for s in per], zd), mean([s[1] for s in per], zd)
    mf = harmonic(mp, mr) if cfg["macro_f1"] == "harmonic" else mean([s[2] for s in per], zd)
    macro_docs = [mp, mr, mf, mean([s[3] for s in per], zd)]
    kept = []
    for f in fields:
        c = zero
        for d in docs:
            c = add(c, d["fields"][f])
        t, p = truth_pred(c)
        if t + p > 0:
            kept.append(strict(c, cfg))
    macro_fields = [mean([s[j] for s in kept], zd) for j in range(4)]
    # document_extraction_score (SPEC 3.5)
    num_exact = sum(d["numeric"][0] for d in docs)
    num_total = sum(d["numeric"][1] for d in docs)
    np_ = num_exact / num_total if num_total else None
    credit = total["exact"] + 0.5 * total["partial"]
    t, p = truth_pred(total)
    rden = t if "fn" in cfg["incorrect_counts_as"] else total["exact"] + total["partial"] + total["missed"]
    f1p = harmonic(ratio(credit, p, zd), ratio(credit, rden, zd))
    svr = mean([1.0 if d["valid"] else 0.0 for d in docs], zd)
    w = cfg["document_extraction_score"]["weights"]
    wn, wf, ws = w["numeric_precision"], w["field_f1_partial"], w["schema_validity"]
    if np_ is not None:
        des = wn * np_ + wf * f1p + ws * svr
    elif wf + ws == 0:
        des = zd
    else:
        des = (1 + wn / (wf + ws)) * (wf * f1p + ws * svr)
    nan = float("nan")
    items = [nan, nan, nan]
    if has_items:
        rec = sum(d["items"][0] for d in docs)
        ip = ratio(rec, sum(d["items"][2] for d in docs), zd)
        ir = ratio(rec, sum(d["items"][1] for d in docs), zd)
        items = [ip, ir, harmonic(ip, ir)]
    return micro + macro_docs + macro_fields + [des] + items


def quantile(v, q):
    if len(v) == 1:
        return v[0]
    h = (len(v) - 1) * q
    lo = int(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])


def holm(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out, run = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (m - rank) * ps[i]))
        out[i] = run
    return out


def reference(cfg, models, resamples, seed, level, alpha):
    """models: [(name, tallies)] with tallies as fieldscope_ref gives them."""
    n = len(models[0][1]["documents"])
    rng = WyRand(seed)
    values = [[] for _ in models]
    for _ in range(resamples):
        w = [0] * n
        for _ in range(n):
            w[rng.below(n)] += 1
        for k, (_, t) in enumerate(models):
            drawn = [d for d, c in zip(t["documents"], w) for _ in range(c)]
            values[k].append(scores(drawn, t["fields"], t["has_items"], cfg))
    est = [scores(t["documents"], t["fields"], t["has_items"], cfg) for _, t in models]
    tail = (1 - level) / 2
    out_models = []
    for k, (name, t) in enumerate(models):
        iv = []
        for j in range(16):
            v = sorted(x[j] for x in values[k])
            iv.append({"estimate": est[k][j], "low": quantile(v, tail), "high": quantile(v, 1 - tail)})
        four = ["precision", "recall", "f1", "accuracy"]
        out_models.append({"name": name,
                           "micro": dict(zip(four, iv[0:4])),
                           "macro_documents": dict(zip(four, iv[4:8])),
                           "macro_fields": dict(zip(four, iv[8:12])),
                           "document_extraction_score": iv[12],
                           "items": dict(zip(four[:3], iv[13:16])) if t["has_items"] else None})
    paired = []
    for metric in TESTED:
        j = METRICS.index(metric)
        tests = []
        for a in range(len(models)):
            for b in range(a + 1, len(models)):
                if math.isnan(est[a][j]) or math.isnan(est[b][j]):
                    continue
                d = est[a][j] - est[b][j]
                extreme = sum(1 for r in range(resamples)
                              if abs((values[a][r][j] - values[b][r][j]) - d) >= abs(d))
                tests.append((a, b, d, min(1.0, (1 + extreme) / (resamples + 1))))
        for (a, b, d, p), ph in zip(tests, holm([t[3] for t in tests])):
            paired.append({"metric": metric, "a": models[a][0], "b": models[b][0], "difference": d,
                           "p_value": p, "p_holm": ph, "significant": ph <= alpha})
    return out_models, paired


def close(a, b, path, bad):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in b:
            close(a.get(k), b[k], f"{path}.{k}", bad)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            bad.append(f"{path}: rust {len(a)} entries, reference {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            close(x, y, f"{path}[{i}]", bad)
    elif isinstance(b, float) and isinstance(a, (int, float)):
        if abs(a - b) > 1e-12:
            bad.append(f"{path}: rust {a} reference {b}")
    elif a != b:
        bad.append(f"{path}: rust {a!r} reference {b!r}")


def rust_matchings(report):
    """The item matchings the Rust tool made (its document_details): the
    reference evaluator takes them as given, since its own exhaustive search
    for the best matching is out of reach with up to 30 items (the matching
    is checked by compare.py; here it is the resampling that is)."""
    out = {}
    for m in report["models"]:
        for d in m.get("document_details") or []:
            for f in d.get("fields", []):
                if "[]." not in f["field"]:
                    continue
                key = "%s/%s/%s" % (m["name"], d["id"], f["field"].split("[].")[0])
                pairs = out.setdefault(key, set())
                if f.get("truth_item") is not None and f.get("pred_item") is not None:
                    pairs.add((f["truth_item"], f["pred_item"]))
    return {k: sorted(v) for k, v in out.items()}


def ref_tallies(args, report):
    """Runs the reference evaluator on the CLI's input files; returns the
    tallies of the models in the report's order and checks its estimates."""
    truth = R.load_records(args[args.index("--truth") + 1])
    preds = {}
    names = [m["name"] for m in report["models"]]
    paths = [args[i + 1] for i, a in enumerate(args) if a == "--pred"]
    for name, path in zip(names, paths):
        preds[name] = R.load_records(path.split("=", 1)[-1])
    schema = None
    if "--schema" in args:
        with open(args[args.index("--schema") + 1], encoding="utf-8") as f:
            schema = json.load(f)
    tallies = {}
    options = {"forced_pairs": rust_matchings(report), "trust_forced_pairs": True}
    ref = R.evaluate(truth, preds, schema, tallies=tallies, options=options)
    bad = []
    for rm, pm in zip(report["models"], ref["models"]):
        for key in ("micro", "macro_documents", "macro_fields", "items"):
            close(rm[key], pm[key], f"{rm['name']}.{key}", bad)
        close(rm["document_extraction_score"], pm["document_extraction_score"],
              f"{rm['name']}.document_extraction_score", bad)
    return [(name, tallies[name]) for name in names], bad


def main():
    cases = []
    ex = os.path.join(ROOT, "tests", "data", "example")
    cases.append(("example", ["--truth", f"{ex}/truth.jsonl", "--pred", f"{ex}/careful.jsonl",
                              "--pred", f"eager={ex}/eager.json", "--schema", f"{ex}/schema.json"], 1000, 1))
    tmp = tempfile.mkdtemp()
    subprocess.check_call([CLI, "synth", "--documents", "40", "--seed", "5", "--out", tmp])
    synth = ["--truth", f"{tmp}/truth.jsonl", "--pred", f"{tmp}/good.jsonl",
             "--pred", f"{tmp}/conservative.jsonl", "--pred", f"{tmp}/aggressive.jsonl"]
    cases.append(("synth-40", synth, 300, 7))
    cases.append(("synth-40 with schema", synth + ["--schema", f"{tmp}/invoice.schema.json"], 500, 3))
    tmp50 = tempfile.mkdtemp()
    subprocess.check_call([CLI, "synth", "--documents", "50", "--seed", "19", "--paradox", "--out", tmp50])
    cases.append(("app example (synth-50)",
                  ["--truth", f"{tmp50}/truth.jsonl", "--pred", f"{tmp50}/good.jsonl",
                   "--pred", f"{tmp50}/conservative.jsonl", "--pred", f"{tmp50}/aggressive.jsonl",
                   "--schema", f"{tmp50}/invoice.schema.json"], 1000, 1))
    failed = 0
    for name, args, resamples, seed in cases:
        out = subprocess.run([CLI, "eval", *args, "--details", "--bootstrap", str(resamples), "--seed", str(seed)],
                             capture_output=True, text=True, check=True).stdout
        report = json.loads(out)
        models, bad = ref_tallies(args, report)
        if bad:
            print(f"{name}: the reference evaluator's point estimates differ from the report")
        else:
            got, paired = reference(report["config"], models, resamples, seed, 0.95, 0.05)
            close(report["bootstrap"]["models"], got, "models", bad)
            close(report["bootstrap"]["paired"], paired, "paired", bad)
            if len(report["bootstrap"]["paired"]) != len(paired):
                bad.append(f"paired: rust {len(report['bootstrap']['paired'])} tests, reference {len(paired)}")
            checked = json.dumps(got).count('"low"')
            print(f"{name}: {'agrees' if not bad else 'DIFFERS'} ({resamples} resamples, seed {seed}; "
                  f"{checked} intervals, {len(paired)} paired tests)")
        for b in bad[:10]:
            print("   ", b)
        failed += bool(bad)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
