#!/usr/bin/env python3
"""Independent reference for fieldscope's statistics (src/eval/stats.rs).

Written from README's "Statistics" section and SPEC.md §3, not from the
Rust code: per-document counts in, percentile bootstrap intervals and
paired approximate-randomisation p-values (Holm-adjusted) out.

    python3 tests/reference/stats_ref.py --generate   # rewrite the fixture
    python3 tests/reference/stats_ref.py              # rewrite the expected output

The fixture (tests/data/stats/fixture.json) holds generated per-document
counts; the expected output (tests/data/stats/expected.json) is what this
script computes from it. `tests/suite/stats.rs` runs the Rust job on the
fixture and compares with the expected output. Needs only the standard
library. Not needed to build, run or test the product.

The random stream is fastrand's (crate `fastrand` 2.x): WyRand with the
final-v4.2 constants, and Lemire's nearly divisionless bounded draw.
"""

import argparse
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data", "stats")
M64 = (1 << 64) - 1
OUTCOMES = ["exact", "partial", "incorrect", "missed", "spurious", "true_negative"]


class WyRand:
    """fastrand::Rng: state s; next: s += C0; t = s * (s ^ C1) (128-bit); t_lo ^ t_hi."""

    def __init__(self, seed):
        self.s = seed & M64

    def next_u64(self):
        self.s = (self.s + 0x2D358DCCAA6C78A5) & M64
        t = self.s * (self.s ^ 0x8BB84B93962EACC9)
        return (t & M64) ^ (t >> 64)

    def below(self, n):
        """A u64 in 0..n (Lemire 2016, as fastrand's gen_mod_u64)."""
        r = self.next_u64()
        hi, lo = (r * n) >> 64, (r * n) & M64
        if lo < n:
            t = ((1 << 64) - n) % n
            while lo < t:
                r = self.next_u64()
                hi, lo = (r * n) >> 64, (r * n) & M64
        return hi


def div(a, b, zd):
    return zd if b == 0 else a / b


def hmean(p, r):
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def strict(c, cfg):
    """SPEC §3.1: TP = COR, FP = INC + PAR + SPU, FN = MIS (+ INC + PAR)."""
    zd = cfg["zero_division"]
    cor, par, inc, mis, spu, tn = (c[k] for k in OUTCOMES)
    tp, fp = cor, inc + par + spu
    fn = mis + (inc + par if cfg["incorrect_counts_as"] == ["fp", "fn"] else 0)
    p, r = div(tp, tp + fp, zd), div(tp, tp + fn, zd)
    n = cor + par + inc + mis + spu + tn
    return p, r, hmean(p, r), div(tp + tn, n, zd)


def partial_f1(c, cfg):
    zd = cfg["zero_division"]
    cor, par, inc, mis, spu, _ = (c[k] for k in OUTCOMES)
    credit = cor + 0.5 * par
    rden = cor + par + inc + mis if cfg["incorrect_counts_as"] == ["fp", "fn"] else cor + par + mis
    return hmean(div(credit, cor + par + inc + spu, zd), div(credit, rden, zd))


def doc_scores(c, cfg):
    """SPEC §3.2: a document with |Truth| = |Pred| = 0 scores P = R = empty_document_score."""
    p, r, f, a = strict(c, cfg)
    truth = c["exact"] + c["partial"] + c["incorrect"] + c["missed"]
    pred = c["exact"] + c["partial"] + c["incorrect"] + c["spurious"]
    if truth == 0 and pred == 0:
        p = r = cfg["empty_document_score"]
        f = hmean(p, r)
    return p, r, f, a


def scores(model, weights, fields, cfg):
    """Every headline score with document d counted weights[d] times."""
    zd = cfg["zero_division"]
    docs = model["docs"]
    tot = {k: 0 for k in OUTCOMES}
    fsum = [{k: 0 for k in OUTCOMES} for _ in fields]
    n = ms_p = ms_r = ms_f = ms_a = 0.0
    ne = nt = valid = rec = ti = pi = 0
    for d, w in enumerate(weights):
        if w == 0:
            continue
        doc = docs[d]
        for k in OUTCOMES:
            tot[k] += w * doc["counts"][k]
        for f, fc in enumerate(doc["fields"]):
            for i, k in enumerate(OUTCOMES):
                fsum[f][k] += w * fc[i]
        p, r, f1, a = doc_scores(doc["counts"], cfg)
        ms_p += w * p
        ms_r += w * r
        ms_f += w * f1
        ms_a += w * a
        n += w
        ne += w * doc["numeric_exact"]
        nt += w * doc["numeric_total"]
        valid += w * (1 if doc["valid"] else 0)
        rec += w * doc["recognised"]
        ti += w * doc["truth_items"]
        pi += w * doc["pred_items"]
    out = {}
    out["micro.precision"], out["micro.recall"], out["micro.f1"], out["micro.accuracy"] = strict(tot, cfg)
    mp, mr = div(ms_p, n, zd), div(ms_r, n, zd)
    out["macro_documents.precision"] = mp
    out["macro_documents.recall"] = mr
    out["macro_documents.f1"] = hmean(mp, mr) if cfg["macro_f1"] == "harmonic" else div(ms_f, n, zd)
    out["macro_documents.accuracy"] = div(ms_a, n, zd)
    kept = []
    for f, c in enumerate(fsum):
        truth = c["exact"] + c["partial"] + c["incorrect"] + c["missed"]
        pred = c["exact"] + c["partial"] + c["incorrect"] + c["spurious"]
        if truth + pred > 0:
            kept.append((fields[f], strict(c, cfg)))
    for i, name in enumerate(["precision", "recall", "f1", "accuracy"]):
        out["macro_fields." + name] = div(sum(s[i] for _, s in kept), len(kept), zd)
    fw = cfg.get("field_weights", {})
    if fw:
        ws = [fw.get(name, 1.0) for name, _ in kept]
        out["macro_fields_weighted.f1"] = div(sum(w * s[2] for w, (_, s) in zip(ws, kept)), sum(ws), zd)
    # SPEC §3.5, numeric_precision null: its weight spread over the others.
    wts = cfg["document_extraction_score"]["weights"]
    wn, wf, wsv = wts["numeric_precision"], wts["field_f1_partial"], wts["schema_validity"]
    fp1, sv = partial_f1(tot, cfg), div(valid, n, zd)
    if nt > 0:
        des = wn * (ne / nt) + wf * fp1 + wsv * sv
    elif wf + wsv == 0:
        des = zd
    else:
        des = (1 + wn / (wf + wsv)) * (wf * fp1 + wsv * sv)
    out["document_extraction_score"] = des
    if model["has_items"]:
        out["items.f1"] = hmean(div(rec, pi, zd), div(rec, ti, zd))
    return out


def quantile(xs, q):
    """Hyndman & Fan type 7 on sorted xs."""
    h = (len(xs) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def holm(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    adj, run = [0.0] * m, 0.0
    for j, i in enumerate(order):
        run = max(run, min(1.0, (m - j) * ps[i]))
        adj[i] = run
    return adj


def run_case(case):
    cfg, fields, models = case["config"], case["fields"], case["models"]
    st = case["settings"]
    B, alpha = st["resamples"], st["alpha"]
    rng = WyRand(st["seed"])
    n = len(models[0]["docs"])
    point = [scores(m, [1] * n, fields, cfg) for m in models]
    draws = [{k: [] for k in p} for p in point]
    for _ in range(B):
        w = [0] * n
        for _ in range(n):
            w[rng.below(n)] += 1
        for mi, m in enumerate(models):
            s = scores(m, w, fields, cfg)
            for k in draws[mi]:
                draws[mi][k].append(s[k])
    intervals = []
    for mi in range(len(models)):
        iv = {}
        for k, xs in draws[mi].items():
            xs = sorted(xs)
            iv[k] = {"estimate": point[mi][k], "low": quantile(xs, alpha / 2), "high": quantile(xs, 1 - alpha / 2)}
        intervals.append(iv)
    pairs = [(a, b) for a in range(len(models)) for b in range(a + 1, len(models))]
    extreme = []
    for a, b in pairs:
        ones = [1] * n
        counts = {}
        for _ in range(B):
            swap = [rng.below(2) == 1 for _ in range(n)]
            ma = {"docs": [models[b]["docs"][d] if swap[d] else models[a]["docs"][d] for d in range(n)],
                  "has_items": models[a]["has_items"]}
            mb = {"docs": [models[a]["docs"][d] if swap[d] else models[b]["docs"][d] for d in range(n)],
                  "has_items": models[b]["has_items"]}
            sa, sb = scores(ma, ones, fields, cfg), scores(mb, ones, fields, cfg)
            for k in sa:
                if k in sb:
                    obs = abs(point[a][k] - point[b][k])
                    if abs(sa[k] - sb[k]) >= obs - 1e-12:
                        counts[k] = counts.get(k, 0) + 1
        extreme.append(counts)
    comparisons = []
    if len(models) > 1:
        order = ["micro.precision", "micro.recall", "micro.f1", "micro.accuracy",
                 "macro_documents.precision", "macro_documents.recall", "macro_documents.f1",
                 "macro_documents.accuracy", "macro_fields.precision", "macro_fields.recall",
                 "macro_fields.f1", "macro_fields.accuracy", "document_extraction_score",
                 "items.f1", "macro_fields_weighted.f1"]
        for k in order:
            idx = [p for p, (a, b) in enumerate(pairs) if k in point[a] and k in point[b]]
            ps = [(extreme[p].get(k, 0) + 1) / (B + 1) for p in idx]
            adj = holm(ps)
            for p, pv, pa in zip(idx, ps, adj):
                a, b = pairs[p]
                comparisons.append({"score": k, "a": models[a]["name"], "b": models[b]["name"],
                                    "difference": point[a][k] - point[b][k], "p_value": pv,
                                    "p_adjusted": pa, "significant": pa <= alpha})
    return {"intervals": intervals, "comparisons": comparisons}


def generate(seed=20240605):
    """Random per-document counts: 3 models × 40 documents × 4 fields."""
    rnd = random.Random(seed)
    fields = ["a", "b", "items[].x", "total"]
    cases = []
    for variant in range(2):
        cfg = {
            "zero_division": [0, 1][variant],
            "incorrect_counts_as": [["fp", "fn"], ["fp"]][variant],
            "empty_document_score": 1,
            "macro_f1": ["harmonic", "mean"][variant],
            "document_extraction_score": {"weights": {"numeric_precision": 0.5, "field_f1_partial": 0.35,
                                                      "schema_validity": 0.15}},
            "field_weights": [{"total": 3, "a": 0.5}, {}][variant],
        }
        models = []
        for mi in range(3):
            docs = []
            for d in range(40):
                fcs = []
                for f in fields:
                    if f == "items[].x" and mi == 2:
                        fcs.append([0] * 6)
                        continue
                    fc = [0] * 6
                    slots = 3 if f == "items[].x" else 1
                    for _ in range(slots):
                        fc[rnd.choices(range(6), weights=[6 - mi, 1, 1 + mi, 1, mi, 2])[0]] += 1
                    fcs.append(fc)
                counts = {k: sum(fc[i] for fc in fcs) for i, k in enumerate(OUTCOMES)}
                total_numeric = fcs[3][0] + fcs[3][1] + fcs[3][2] + fcs[3][3]
                ti = rnd.randint(0, 3) if mi < 2 else 0
                pi = rnd.randint(0, 3) if mi < 2 else 0
                docs.append({
                    "counts": counts, "fields": fcs,
                    "numeric_exact": fcs[3][0], "numeric_total": total_numeric,
                    "valid": rnd.random() < 0.9 - 0.2 * mi,
                    "recognised": rnd.randint(0, min(ti, pi)), "truth_items": ti, "pred_items": pi,
                })
            models.append({"name": ["good", "fair", "poor"][mi], "has_items": mi < 2, "docs": docs})
        cases.append({"config": cfg, "fields": fields, "models": models,
                      "settings": {"resamples": 200, "seed": [42, 7][variant], "alpha": [0.05, 0.1][variant]}})
    # One document: every resample is the data itself.
    single = json.loads(json.dumps(cases[0]))
    for m in single["models"]:
        m["docs"] = m["docs"][:1]
    single["settings"] = {"resamples": 50, "seed": 1, "alpha": 0.05}
    cases.append(single)
    return {"cases": cases}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--generate", action="store_true", help="rewrite the fixture first")
    args = ap.parse_args()
    os.makedirs(DATA, exist_ok=True)
    fixture_path = os.path.join(DATA, "fixture.json")
    if args.generate or not os.path.exists(fixture_path):
        with open(fixture_path, "w") as f:
            json.dump(generate(), f, separators=(",", ":"))
            f.write("\n")
    with open(fixture_path) as f:
        fixture = json.load(f)
    expected = {"cases": [run_case(c) for c in fixture["cases"]]}
    # The first draws of the stream, for the generator test.
    rng = WyRand(42)
    expected["wyrand_seed_42"] = [str(rng.next_u64()) for _ in range(4)]
    rng = WyRand(42)
    expected["below_10_seed_42"] = [rng.below(10) for _ in range(8)]
    with open(os.path.join(DATA, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    print("wrote", os.path.join(DATA, "expected.json"))


if __name__ == "__main__":
    main()
