#!/usr/bin/env python3
"""Independent check of `fieldscope eval --bootstrap`: re-implements, from
the definitions in src/eval/bootstrap.rs's docs and SPEC.md section 3, the
resampling (fastrand's WyRand generator and Lemire's bounded integers, as
published by fastrand 2), the scores (SPEC 3.1 strict scores, 3.2 macro over
documents), the type-7 percentile intervals, the paired bootstrap test and
the Holm correction, reading each document's counts from the CLI's
--details output, and compares every number (tolerance 1e-12).

    python3 tests/reference/bootstrap_compare.py   # after cargo build

Not needed by the test command; tests/suite/cli.rs pins the CLI's numbers
that this script reproduces.
"""
import json, os, subprocess, sys, tempfile

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


def ratio(num, den, zd):
    return zd if den == 0 else num / den


def strict(c, cfg):
    fp_fn = "fn" in cfg["incorrect_counts_as"]
    tp = c["exact"]
    fp = c["incorrect"] + c["partial"] + c["spurious"]
    fn = c["missed"] + (c["incorrect"] + c["partial"] if fp_fn else 0)
    n = c["exact"] + c["partial"] + c["incorrect"] + c["missed"] + c["spurious"] + c["true_negative"]
    zd = cfg["zero_division"]
    p, r = ratio(tp, tp + fp, zd), ratio(tp, tp + fn, zd)
    f1 = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return [p, r, f1, ratio(tp + c["true_negative"], n, zd)]


def doc_scores(c, cfg):
    s = strict(c, cfg)
    truth = c["exact"] + c["partial"] + c["incorrect"] + c["missed"]
    pred = c["exact"] + c["partial"] + c["incorrect"] + c["spurious"]
    if truth == 0 and pred == 0:
        e = cfg["empty_document_score"]
        s[0] = s[1] = e
        s[2] = 0.0 if e + e == 0 else 2 * e * e / (e + e)
    return s


def mean(xs, empty):
    return sum(xs) / len(xs) if xs else empty


def scores(docs, cfg):
    keys = ["exact", "partial", "incorrect", "missed", "spurious", "true_negative"]
    total = {k: sum(d[k] for d in docs) for k in keys}
    micro = strict(total, cfg)
    per = [doc_scores(d, cfg) for d in docs]
    zd = cfg["zero_division"]
    mp, mr = mean([s[0] for s in per], zd), mean([s[1] for s in per], zd)
    if cfg["macro_f1"] == "harmonic":
        mf = 0.0 if mp + mr == 0 else 2 * mp * mr / (mp + mr)
    else:
        mf = mean([s[2] for s in per], zd)
    return micro + [mp, mr, mf, mean([s[3] for s in per], zd)]


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


def reference(report, resamples, seed, level, alpha):
    cfg = report["config"]
    models = [(m["name"], [d["counts"] for d in m["document_details"]]) for m in report["models"]]
    n = len(models[0][1])
    rng = WyRand(seed)
    values = [[] for _ in models]
    for _ in range(resamples):
        w = [0] * n
        for _ in range(n):
            w[rng.below(n)] += 1
        for k, (_, docs) in enumerate(models):
            drawn = [d for d, c in zip(docs, w) for _ in range(c)]
            values[k].append(scores(drawn, cfg))
    est = [scores(docs, cfg) for _, docs in models]
    tail = (1 - level) / 2
    names = ["precision", "recall", "f1", "accuracy"]
    out_models = []
    for k, (name, _) in enumerate(models):
        iv = []
        for j in range(8):
            v = sorted(x[j] for x in values[k])
            iv.append({"estimate": est[k][j], "low": quantile(v, tail), "high": quantile(v, 1 - tail)})
        out_models.append({"name": name,
                           "micro": dict(zip(names, iv[:4])),
                           "macro_documents": dict(zip(names, iv[4:]))})
    paired = []
    for metric, j in [("micro.f1", 2), ("macro_documents.f1", 6)]:
        tests = []
        for a in range(len(models)):
            for b in range(a + 1, len(models)):
                d = est[a][j] - est[b][j]
                extreme = sum(1 for r in range(resamples)
                              if abs((values[a][r][j] - values[b][r][j]) - d) >= abs(d))
                tests.append((a, b, d, min(1.0, (1 + extreme) / (resamples + 1))))
        for (a, b, d, p), ph in zip(tests, holm([t[3] for t in tests])):
            paired.append({"metric": metric, "a": models[a][0], "b": models[b][0], "difference": d,
                           "p_value": p, "p_holm": ph, "significant": ph <= alpha})
    return out_models, paired


def close(a, b, path, bad):
    if isinstance(a, dict):
        for k in b:
            close(a.get(k), b[k], f"{path}.{k}", bad)
    elif isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            close(x, y, f"{path}[{i}]", bad)
    elif isinstance(b, float) and isinstance(a, (int, float)):
        if abs(a - b) > 1e-12:
            bad.append(f"{path}: rust {a} reference {b}")
    elif a != b:
        bad.append(f"{path}: rust {a!r} reference {b!r}")


def main():
    cases = []
    ex = os.path.join(ROOT, "tests", "data", "example")
    cases.append(("example", ["--truth", f"{ex}/truth.jsonl", "--pred", f"{ex}/careful.jsonl",
                              "--pred", f"eager={ex}/eager.json", "--schema", f"{ex}/schema.json"], 1000, 1))
    tmp = tempfile.mkdtemp()
    subprocess.check_call([CLI, "synth", "--documents", "40", "--seed", "5", "--out", tmp])
    cases.append(("synth-40", ["--truth", f"{tmp}/truth.jsonl", "--pred", f"{tmp}/good.jsonl",
                               "--pred", f"{tmp}/conservative.jsonl", "--pred", f"{tmp}/aggressive.jsonl"], 300, 7))
    failed = 0
    for name, args, resamples, seed in cases:
        out = subprocess.run([CLI, "eval", *args, "--details", "--bootstrap", str(resamples), "--seed", str(seed)],
                             capture_output=True, text=True, check=True).stdout
        report = json.loads(out)
        models, paired = reference(report, resamples, seed, 0.95, 0.05)
        bad = []
        close(report["bootstrap"]["models"], models, "models", bad)
        close(report["bootstrap"]["paired"], paired, "paired", bad)
        print(f"{name}: {'agrees' if not bad else 'DIFFERS'} ({resamples} resamples, seed {seed})")
        for b in bad[:10]:
            print("   ", b)
        failed += bool(bad)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
