"""Confidence (SPEC §8) from Python.

- The frames (`confidence_frame`, `reliability_frame`) on a small dataset
  worked out by hand, and equal to the JSON report value for value.
- Agreement on random pairs: each pair becomes one document with one field
  `v`, right or wrong as the pair says, its confidence inline, beside the
  field or as the document's number; the report's scores are compared with
  scikit-learn (`roc_auc_score`, `brier_score_loss`, `calibration_curve`),
  with stickler-eval's metrics (`AUROCMetric`, `BrierScoreMetric`,
  `ECEMetric`, `ErrorCaptureAtBudgetMetric`) where the definitions coincide,
  and with an independent numpy computation of SPEC §8.3's definitions
  where they differ (docs/confidence.md, "Agreement with scikit-learn and
  stickler-eval", says where and why).
"""

import json
import math

import pytest

import fieldscope

pd = pytest.importorskip("pandas")
np = pytest.importorskip("numpy")

# One text field per document: no numeric value, which the report warns about.
pytestmark = pytest.mark.filterwarnings("ignore:model .*numeric_precision is null")

# --- the frames, by hand -----------------------------------------------------

TRUTH = [
    {"id": "d1", "total": "10.00", "date": "2024-01-05",
     "items": [{"desc": "pen", "amount": 2}, {"desc": "ink", "amount": 5}]},
    {"id": "d2", "total": "7.50", "date": "2024-02-01", "items": []},
    {"id": "d3", "total": "3.00", "date": None, "items": [{"desc": "cap", "amount": 1}]},
]  # fmt: skip
SURE = [
    {"id": "d1",
     "total": {"_value": "10.00", "_confidence": 0.9, "_page": 1},
     "date": {"_value": "March", "_confidence": 0.8},
     "items": {"_value": [{"desc": "pen", "amount": 2},
                          {"desc": "ink", "amount": {"_value": 6, "_confidence": 0.3}}],
               "_confidence": 0.6}},
    {"id": "d2", "total": "7.50", "date": "2024-02-01",
     "_confidence": {"total": 0.95, "date": 0.4}},
    {"id": "d3", "total": "3.00", "date": None, "_confidence": 0.99},
]  # fmt: skip

MODEL_COLUMNS = [
    "pairs", "with_confidence", "accuracy", "mean_confidence", "brier", "ece",
    "ece_equal_mass", "mce", "auroc", "aurc", "straight_through_threshold",
    "straight_through_documents", "straight_through_rate", "straight_through_accuracy",
]  # fmt: skip
FIELD_COLUMNS = [
    "pairs", "accuracy", "mean_confidence", "ece", "auroc", "recommended_threshold", "coverage",
]  # fmt: skip


@pytest.fixture(scope="module")
def small():
    # "plain" carries no confidence, so its block is null.
    plain = [{**r, "total": "0"} for r in TRUTH]
    return fieldscope.evaluate(TRUTH, {"sure": SURE, "plain": plain})


def test_confidence_frame_by_hand(small):
    # The pairs of "sure", in document order (correct = exact or true negative):
    #   d1 total 0.9 ✓, date 0.8 ✗, items[0] desc 0.6 ✓, amount 0.6 ✓,
    #      items[1] desc 0.6 ✓, amount 0.3 ✗ (the inline 0.3 beats the list's 0.6);
    #   d2 total 0.95 ✓, date 0.4 ✓; d3 total 0.99 ✓, date 0.99 ✓ (null = null).
    # d3's truth item is unmatched: no pair. Slots: 6 + 2 + 4 = 12.
    f = small.confidence_frame("model")
    assert f.index.name == "model"
    assert list(f.index) == ["sure", "plain"]
    assert list(f.columns) == MODEL_COLUMNS
    s = f.loc["sure"]
    exact = pytest.approx
    assert s["pairs"] == 10
    assert s["with_confidence"] == exact(10 / 12, abs=1e-15)
    assert s["accuracy"] == exact(8 / 10, abs=1e-15)
    assert s["mean_confidence"] == exact(7.13 / 10, abs=1e-15)
    # Σ(c − y)²: correct 0.01 + 3·0.16 + 0.0025 + 0.36 + 2·0.0001; wrong 0.64 + 0.09.
    assert s["brier"] == exact(1.5827 / 10, abs=1e-15)
    # Bins 3 (0.3, on its lower edge), 4, 6 (three 0.6), 8, 9 (0.9, 0.95, 0.99, 0.99):
    # gaps 0.3, 0.6, 0.4, 0.8, 1 − 0.9575.
    assert s["ece"] == exact((0.3 + 0.6 + 3 * 0.4 + 0.8 + 4 * 0.0425) / 10, abs=1e-15)
    assert s["mce"] == exact(0.8, abs=1e-15)
    # Equal mass, 10 bins of 10 pairs: bin ⌊10·r/10⌋ = r, r = #smaller; the
    # three 0.6 share bin 2 and the two 0.99 bin 8, so the bins are those of
    # the equal-width ones: the same ECE.
    assert s["ece_equal_mass"] == exact(s["ece"], abs=1e-15)
    # AUROC: wrong pairs at 0.8 and 0.3; correct ones above both: 0.9, 0.95,
    # 0.99, 0.99 (2 each), above 0.3 only: 0.6 ×3, 0.4 (1 each) → 12 / (8·2).
    assert s["auroc"] == exact(0.75, abs=1e-15)
    # Risk–coverage, highest first: 0.99 (2, 0 wrong), 0.95 (3, 0), 0.9 (4, 0),
    # 0.8 (5, 1), 0.6 (8, 1), 0.4 (9, 1), 0.3 (10, 2).
    aurc = 1 / 5 * 0.1 + 1 / 8 * 0.3 + 1 / 9 * 0.1 + 2 / 10 * 0.1
    assert s["aurc"] == exact(aurc, abs=1e-15)
    # Straight through at 0.95: only d3 (0.99, 0.99; its missing item holds
    # nothing back), which is wrong (an item missed).
    assert s["straight_through_threshold"] == 0.95
    assert s["straight_through_documents"] == 1
    assert s["straight_through_rate"] == exact(1 / 3, abs=1e-15)
    assert s["straight_through_accuracy"] == 0.0
    # No confidence at all: pairs 0, NaN elsewhere.
    p = f.loc["plain"]
    assert p["pairs"] == 0
    assert all(math.isnan(p[c]) for c in MODEL_COLUMNS if c != "pairs")


def test_confidence_frame_fields_by_hand(small):
    f = small.confidence_frame("field")
    assert f.index.names == ["model", "field"]
    assert list(f.columns) == FIELD_COLUMNS
    assert list(f.index) == [
        ("sure", "date"), ("sure", "items[].amount"), ("sure", "items[].desc"), ("sure", "total"),
    ]  # fmt: skip
    date = f.loc[("sure", "date")]  # 0.8 ✗, 0.4 ✓, 0.99 ✓
    assert date["pairs"] == 3
    assert date["accuracy"] == pytest.approx(2 / 3, abs=1e-15)
    assert date["mean_confidence"] == pytest.approx(2.19 / 3, abs=1e-15)
    assert date["ece"] == pytest.approx((0.8 + 0.6 + 0.01) / 3, abs=1e-15)
    assert date["auroc"] == 0.5  # 0.99 above 0.8, 0.4 below
    amount = f.loc[("sure", "items[].amount")]  # 0.6 ✓, 0.3 ✗
    assert (amount["pairs"], amount["auroc"]) == (2, 1.0)
    assert amount["ece"] == pytest.approx((0.4 + 0.3) / 2, abs=1e-15)
    total = f.loc[("sure", "total")]  # 0.9, 0.95, 0.99, all right
    assert total["accuracy"] == 1.0 and math.isnan(total["auroc"])
    assert total["ece"] == pytest.approx(1 - 2.84 / 3, abs=1e-15)
    # Fewer than confidence.min_pairs (20) pairs: no recommended threshold.
    assert f["recommended_threshold"].isna().all()
    assert (f["coverage"] == 0.0).all()


def test_confidence_frame_all_levels(small):
    f = small.confidence_frame()
    assert list(f.columns) == [
        "model", "level", "field", *MODEL_COLUMNS, "recommended_threshold", "coverage",
    ]  # fmt: skip
    # A model row's field is missing: None, or NaN in pandas 3's string dtype.
    rows = zip(f["model"], f["level"], f["field"])
    assert [(m, lv, None if pd.isna(fd) else fd) for m, lv, fd in rows] == [
        ("sure", "model", None),
        ("sure", "field", "date"),
        ("sure", "field", "items[].amount"),
        ("sure", "field", "items[].desc"),
        ("sure", "field", "total"),
        ("plain", "model", None),
    ]
    assert f["pairs"].tolist() == [10, 3, 2, 2, 3, 0]
    assert f["pairs"].dtype == "int64"
    fields = f[f["level"] == "field"]
    assert fields["with_confidence"].isna().all() and fields["brier"].isna().all()
    assert f[f["level"] == "model"]["recommended_threshold"].isna().all()
    # The same numbers as the one-level frames.
    by_model = small.confidence_frame("model")
    assert f.loc[0, "ece"] == by_model.loc["sure", "ece"]
    by_field = small.confidence_frame("field")
    assert f.loc[1, "ece"] == by_field.loc[("sure", "date"), "ece"]
    with pytest.raises(ValueError, match="level"):
        small.confidence_frame("document")


def test_reliability_frame_by_hand(small):
    f = small.reliability_frame()
    assert f.index.names == ["model", "bin"]
    assert list(f.columns) == ["low", "high", "count", "accuracy", "mean_confidence"]
    assert list(f.index) == [("sure", k) for k in range(10)]  # "plain" has no bins
    assert f["low"].tolist() == [k / 10 for k in range(10)]
    assert f["high"].tolist() == [(k + 1) / 10 for k in range(10)]
    assert f["count"].tolist() == [0, 0, 0, 1, 1, 0, 3, 0, 1, 4]
    assert f.loc[("sure", 3), "accuracy"] == 0.0  # 0.3 on the edge: bin [0.3, 0.4)
    assert f.loc[("sure", 9), "mean_confidence"] == pytest.approx(3.83 / 4, abs=1e-15)
    assert math.isnan(f.loc[("sure", 0), "accuracy"])
    assert math.isnan(f.loc[("sure", 0), "mean_confidence"])


def _same(frame_value, json_value):
    if json_value is None:
        return isinstance(frame_value, float) and math.isnan(frame_value)
    return frame_value == json_value


def assert_frames_equal_json(report):
    """Every cell of both frames is the JSON report's value (null → NaN)."""
    d = report.to_dict()
    by_model = report.confidence_frame("model")
    by_field = report.confidence_frame("field")
    bins = report.reliability_frame()
    everything = report.confidence_frame()
    n_fields = n_bins = 0
    for m in d["models"]:
        c = m["confidence"]
        row = by_model.loc[m["name"]]
        if c is None:
            assert row["pairs"] == 0
            continue
        for key in MODEL_COLUMNS[:10]:
            assert _same(row[key], c[key]), (m["name"], key)
        for key in ("threshold", "documents", "rate", "accuracy"):
            assert _same(row[f"straight_through_{key}"], c["straight_through"][key])
        for path, fc in c["fields"].items():
            n_fields += 1
            for key in FIELD_COLUMNS:
                assert _same(by_field.loc[(m["name"], path), key], fc[key]), (path, key)
        for k, b in enumerate(c["bins"]):
            n_bins += 1
            for key in ("low", "high", "count", "accuracy", "mean_confidence"):
                assert _same(bins.loc[(m["name"], k), key], b[key]), (k, key)
    assert len(by_field) == n_fields and len(bins) == n_bins
    assert len(everything) == len(d["models"]) + n_fields


def test_frames_equal_the_json(small):
    assert_frames_equal_json(small)


# --- agreement on random pairs ----------------------------------------------

N = 2000


def random_pairs(seed, decimals):
    """(confidence, correct) pairs: confidences uniform on [0, 1] (rounded
    to `decimals` places, so with ties and values on bin edges, when given),
    correct with probability c^1.5 (a slightly overconfident model)."""
    rng = np.random.default_rng(seed)
    c = rng.random(N)
    if decimals is not None:
        c = np.round(c, decimals)
    y = rng.random(N) < c**1.5
    return [float(x) for x in c], [bool(x) for x in y]


def pair_records(conf, correct, how):
    truth, pred = [], []
    for i, (c, y) in enumerate(zip(conf, correct)):
        t = f"value {i}"
        v = t if y else "zzz"
        truth.append({"id": f"d{i}", "v": t})
        if how == "inline":
            pred.append({"id": f"d{i}", "v": {"_value": v, "_confidence": c}})
        elif how == "beside":
            pred.append({"id": f"d{i}", "v": v, "_confidence": {"v": c}})
        else:  # the document's number
            pred.append({"id": f"d{i}", "v": v, "_confidence": c})
    return truth, pred


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
    return path


# (seed, decimals, how the confidence is written, as files or in memory, bins)
CASES = {
    "2-decimals-inline-file": (11, 2, "inline", "file", 10),
    "3-decimals-document-file": (12, 3, "document", "file", 10),
    "floats-beside-memory": (13, None, "beside", "memory", 10),
    "1-decimal-inline-file-7-bins": (14, 1, "inline", "file", 7),
    "floats-inline-memory-15-bins": (15, None, "inline", "memory", 15),
}


@pytest.fixture(scope="module", params=list(CASES), ids=list(CASES))
def case(request, tmp_path_factory):
    seed, decimals, how, where, bins = CASES[request.param]
    conf, correct = random_pairs(seed, decimals)
    truth, pred = pair_records(conf, correct, how)
    if where == "file":
        d = tmp_path_factory.mktemp(request.param)
        truth, pred = write_jsonl(d / "truth.jsonl", truth), write_jsonl(d / "m.jsonl", pred)
    report = fieldscope.evaluate(
        truth, {"m": pred}, config={"confidence": {"bins": bins}}, details=True
    )
    c = report.to_dict()["models"][0]["confidence"]
    return {
        "name": request.param,
        "c": np.array(conf),
        "y": np.array(correct),
        "bins": bins,
        "block": c,
        "report": report,
    }


def test_pairs_read_back(case):
    """The report's pairs are the generated ones, in document order: each
    confidence read to the same float (also from a file), each value right
    or wrong as its pair says."""
    details = case["report"].to_dict()["models"][0]["document_details"]
    read = [d["fields"][0]["confidence"] for d in details]
    right = [d["fields"][0]["outcome"] == "exact" for d in details]
    assert read == case["c"].tolist()
    assert right == case["y"].tolist()
    block = case["block"]
    assert block["pairs"] == N and block["with_confidence"] == 1.0
    assert list(block["fields"]) == ["v"]


def test_frames_equal_the_json_on_random_pairs(case):
    assert_frames_equal_json(case["report"])


def test_sklearn_auroc_and_brier(case):
    metrics = pytest.importorskip("sklearn.metrics")
    c, y, block = case["c"], case["y"], case["block"]
    # Both AUROC: ties count ½ (sklearn's trapezoids through tied scores).
    assert block["auroc"] == pytest.approx(metrics.roc_auc_score(y, c), rel=1e-12, abs=0)
    # Brier: the same mean; numpy sums pairwise, fieldscope in input order.
    assert block["brier"] == pytest.approx(metrics.brier_score_loss(y, c), rel=1e-12, abs=0)
    assert block["fields"]["v"]["auroc"] == block["auroc"]


def test_sklearn_calibration_curve_bins(case):
    """sklearn's uniform bins are closed on the right, (k/B, (k+1)/B], with
    edges np.linspace(0, 1, B + 1) (3·0.1 = 0.30000000000000004); fieldscope's
    [k/B, (k+1)/B) with edges k/B (0.3). They agree unless a confidence lies
    on an edge: then sklearn's bins are reproduced by moving exactly those
    confidences one bin down."""
    calibration = pytest.importorskip("sklearn.calibration")
    c, y, block, B = case["c"], case["y"], case["block"], case["bins"]
    prob_true, prob_pred = calibration.calibration_curve(y, c, n_bins=B, strategy="uniform")
    ours = [b for b in block["bins"] if b["count"] > 0]
    linspace = np.linspace(0.0, 1.0, B + 1)
    on_edge = np.isin(c, linspace[1:-1]) | np.isin(c, [k / B for k in range(1, B)])
    if not on_edge.any():
        assert len(prob_true) == len(ours)
        assert prob_true.tolist() == pytest.approx([b["accuracy"] for b in ours], abs=1e-12)
        assert prob_pred.tolist() == pytest.approx([b["mean_confidence"] for b in ours], abs=1e-12)
    # sklearn's rule in numpy: bin = #inner linspace edges strictly below c.
    theirs = np.searchsorted(linspace[1:-1], c, side="left")
    ours_k = our_bins(c, B)
    moved = theirs != ours_k
    assert np.array_equal(moved, on_edge)
    assert (theirs[moved] == ours_k[moved] - 1).all()
    if case["name"].startswith("2-"):
        assert moved.any()  # 0.1, 0.2, … occur: the difference shows
    nonzero = np.bincount(theirs, minlength=B) > 0
    acc = np.bincount(theirs, weights=y, minlength=B)[nonzero] / np.bincount(theirs, minlength=B)[nonzero]
    assert prob_true.tolist() == pytest.approx(acc.tolist(), abs=1e-12)


def our_bins(c, B):
    """SPEC §8.3's equal-width bin of each confidence: k with k/B ≤ c <
    (k+1)/B, the last closed at 1, edges computed as k/B."""
    edges = np.array([k / B for k in range(1, B)])
    return np.searchsorted(edges, c, side="right")


def test_stickler_auroc_brier_ece(case):
    stickler = pytest.importorskip("stickler.structured_object_evaluator.models.confidence")
    c, y, block, B = case["c"], case["y"], case["block"], case["bins"]
    pairs = [
        stickler.ConfidencePair(is_match=bool(m), confidence=float(x), similarity=1.0 if m else 0.0)
        for x, m in zip(c, y)
    ]
    # AUROC: average ranks over ties = Mann–Whitney with ties ½.
    auroc = stickler.AUROCMetric().compute(pairs)["value"]
    assert block["auroc"] == pytest.approx(auroc, rel=1e-12, abs=0)
    # Brier: Σ(c − y)²/n in input order, as fieldscope: the same float.
    assert block["brier"] == stickler.BrierScoreMetric().compute(pairs)["value"]
    # ECE: the same bins ([k/B, (k+1)/B), edges k/B, the last closed at 1),
    # the same weights n_k/n, per-bin sums in input order: the same floats.
    # Only an empty bin differs: stickler says accuracy and mean confidence
    # 0.0, fieldscope null.
    ece = stickler.ECEMetric(n_bins=B).compute(pairs)
    assert block["ece"] == ece["value"]
    assert len(block["bins"]) == len(ece["bins"]) == B
    for ours, theirs in zip(block["bins"], ece["bins"]):
        assert [ours["low"], ours["high"]] == theirs["range"]
        assert ours["count"] == theirs["count"]
        if ours["count"]:
            assert ours["accuracy"] == theirs["accuracy"]
            assert ours["mean_confidence"] == theirs["mean_confidence"]
        else:
            assert ours["accuracy"] is None and theirs["accuracy"] == 0.0
            assert ours["mean_confidence"] is None and theirs["mean_confidence"] == 0.0
    # The per-field ECE of the one field is the model's.
    assert block["fields"]["v"]["ece"] == ece["value"]


def test_stickler_error_capture(case):
    """stickler reviews k = max(1, ⌊b·n⌋) pairs, lowest confidence first in a
    stable sort (input order breaks ties); SPEC §8.3 reviews ⌈b·n⌉ and
    counts a tie cut through at its expectation, k_in/|g| of its errors.
    With n = 2000 and the default budgets b·n is whole; without ties the
    shares are then equal, with ties each is checked against its own rule."""
    stickler = pytest.importorskip("stickler.structured_object_evaluator.models.confidence")
    c, y, block = case["c"], case["y"], case["block"]
    budgets = [e["budget"] for e in block["error_capture"]]
    pairs = [
        stickler.ConfidencePair(is_match=bool(m), confidence=float(x), similarity=0.0)
        for x, m in zip(c, y)
    ]
    theirs = stickler.ErrorCaptureAtBudgetMetric(budgets=budgets).compute(pairs)["budgets"]
    wrong = ~y
    ties = len(np.unique(c)) < len(c)
    order = np.argsort(c, kind="stable")
    for e in block["error_capture"]:
        t = theirs[f"{e['budget']:.2f}"]
        k = e["reviewed"]
        assert k == math.ceil(e["budget"] * N) == t["fields_reviewed"]
        stable = wrong[order[:k]].sum() / wrong.sum()
        assert t["pct_errors_caught"] == pytest.approx(stable, abs=1e-15)
        if not ties:
            assert e["share"] == pytest.approx(t["pct_errors_caught"], abs=1e-15)
        else:
            cut = c[order[k - 1]]
            below = c < cut
            group = c == cut
            k_in = k - below.sum()
            expected = (wrong[below].sum() + wrong[group].sum() * k_in / group.sum()) / wrong.sum()
            assert e["share"] == pytest.approx(expected, abs=1e-12)


def test_stickler_error_capture_rounding():
    """Where b·n is not whole, stickler floors and fieldscope (SPEC's ⌈b·n⌉)
    rounds up: 0.3 × 7 = 2.1 reviews 2 pairs there, 3 here."""
    stickler = pytest.importorskip("stickler.structured_object_evaluator.models.confidence")
    conf = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
    correct = [False, True, False, True, True, True, True]
    truth, pred = pair_records(conf, correct, "inline")
    block = fieldscope.evaluate(truth, {"m": pred}).to_dict()["models"][0]["confidence"]
    ours = {e["budget"]: e for e in block["error_capture"]}[0.3]
    pairs = [
        stickler.ConfidencePair(is_match=m, confidence=x, similarity=0.0)
        for x, m in zip(conf, correct)
    ]
    theirs = stickler.ErrorCaptureAtBudgetMetric(budgets=[0.3]).compute(pairs)["budgets"]["0.30"]
    assert (ours["reviewed"], theirs["fields_reviewed"]) == (3, 2)
    assert (ours["share"], theirs["pct_errors_caught"]) == (1.0, 0.5)


def test_spec_definitions_in_numpy(case):
    """The scores no reference library computes as SPEC §8.3 defines them
    (equal-mass ECE, MCE, AURC, thresholds, coverage at accuracy), computed
    here from the definitions with numpy."""
    c, y, block, B = case["c"], case["y"], case["block"], case["bins"]
    n = len(c)
    assert block["accuracy"] == pytest.approx(y.mean(), abs=1e-15)
    assert block["mean_confidence"] == pytest.approx(c.mean(), rel=1e-12)

    def ece_of(k):
        gaps = []
        for b in range(B):
            inside = k == b
            if inside.any():
                gaps.append((inside.sum() / n, abs(y[inside].mean() - c[inside].mean())))
        return sum(w * g for w, g in gaps), max(g for _, g in gaps)

    ece, mce = ece_of(our_bins(c, B))
    assert block["ece"] == pytest.approx(ece, abs=1e-12)
    assert block["mce"] == pytest.approx(mce, abs=1e-12)
    # Equal mass: bin ⌊B·r/n⌋, r = #pairs with a strictly smaller confidence.
    r = np.searchsorted(np.sort(c), c, side="left")
    ece_mass, _ = ece_of(B * r // n)
    assert block["ece_equal_mass"] == pytest.approx(ece_mass, abs=1e-12)

    # Risk–coverage over the distinct values, highest first.
    values = np.unique(c)[::-1]
    accepted = np.array([(c >= t).sum() for t in values])
    right = np.array([y[c >= t].sum() for t in values])
    coverage = accepted / n
    risk = 1 - right / accepted
    aurc = float(np.sum(risk * np.diff(np.concatenate([[0.0], coverage]))))
    assert block["aurc"] == pytest.approx(aurc, abs=1e-12)

    for row in block["thresholds"]:
        taken = c >= row["threshold"]
        assert row["accepted"] == taken.sum()
        assert row["coverage"] == pytest.approx(taken.mean(), abs=1e-15)
        assert row["accuracy"] == pytest.approx(y[taken].mean(), abs=1e-15)
    for row in block["coverage_at_accuracy"]:
        # The lowest distinct τ whose accepted accuracy reaches the target.
        ok = [i for i in range(len(values)) if right[i] >= row["target"] * accepted[i] - 1e-9]
        if ok:
            best = max(ok, key=lambda i: coverage[i])
            assert row["threshold"] == values[best]
            assert row["coverage"] == pytest.approx(coverage[best], abs=1e-15)
        else:
            assert row["threshold"] is None and row["coverage"] == 0.0
