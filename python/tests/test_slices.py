"""Slices (SPEC §9.2) from Python: ``Report.slices_frame()`` equal to the
JSON report's ``slices`` value for value, the same report as
``fieldscope eval --slice-by``, a small case by hand, and the error
without ``slice_by``."""

import json
import math

import pytest

import fieldscope
from conftest import PLANTED_FAULTS

pd = pytest.importorskip("pandas")

#: `fieldscope synth`'s dates are strings that read as dates: suggested.
SYNTH_DATES = pytest.mark.filterwarnings(
    "ignore:compare `.*_date` as a date:fieldscope.SuggestionWarning"
)

pytestmark = pytest.mark.filterwarnings("ignore:model .*numeric_precision is null")

TRUTH = [
    {"id": "a", "region": "N", "x": "1", "y": "2"},
    {"id": "b", "region": "N", "x": "1", "y": "NOT_FOUND"},
    {"id": "c", "region": "S", "x": "1"},
    {"id": "d", "x": "1", "y": "3"},
]
PRED = [
    {"id": "a", "x": "1", "y": "2"},
    {"id": "b", "x": "9"},
    {"id": "c", "x": "1", "y": "5"},
    {"id": "d"},
]
CONFIG = {"preset": "exact", "id_field": "id", "ignored_fields": ["region"], "slice_by": ["region"]}


def test_slices_frame_by_hand():
    r = fieldscope.evaluate(TRUTH, {"m": PRED}, config=CONFIG)
    f = r.slices_frame()
    assert list(f.columns) == [
        "model", "key", "value", "documents", "precision", "recall", "f1", "accuracy",
        "delta", "p_value", "p_holm", "weak",
    ]  # fmt: skip
    assert list(f["value"]) == [None, "N", "S"]
    assert list(f["documents"]) == [1, 2, 1]
    # N = {a, b}: a exact 2; b x incorrect, y a true negative: TP 2, FP 1, FN 1:
    # P = R = F1 = 2/3, accuracy (2 + 1)/(3 + 0 + 1) = 3/4.
    n = f.iloc[1]
    assert n["precision"] == pytest.approx(2 / 3, abs=1e-15)
    assert n["f1"] == pytest.approx(2 / 3, abs=1e-15)
    assert n["accuracy"] == pytest.approx(3 / 4, abs=1e-15)
    # S = {c}: x exact, y spurious: P 1/2, R 1, F1 2/3.
    assert f.iloc[2]["f1"] == pytest.approx(2 / 3, abs=1e-15)
    # Four documents: none tested (fewer than 10 inside and outside).
    assert f["delta"].isna().all() and f["p_holm"].isna().all()
    assert not f["weak"].any()


@PLANTED_FAULTS
@SYNTH_DATES
def test_slices_frame_equals_the_json_and_the_cli(cli, synth_dir):
    truth = synth_dir / "truth.jsonl"
    preds = [synth_dir / "good.jsonl", synth_dir / "aggressive.jsonl"]
    r = fieldscope.evaluate(
        truth, preds, config={"slice_by": ["currency", "_items"], "slices": {"resamples": 200}}
    )
    report = json.loads(r.to_json())
    config = synth_dir / "slices-config.json"
    config.write_text(json.dumps({"slices": {"resamples": 200}}))
    args = ["--truth", truth, "--config", config, "--slice-by", "currency,_items"]
    for p in preds:
        args += ["--pred", p]
    assert report["slices"] == cli.report(*args)["slices"]
    f = r.slices_frame()
    rows = [(m["name"], s) for m in report["slices"]["models"] for s in m["slices"]]
    assert len(f) == len(rows) > 8
    for (_, row), (name, s) in zip(f.iterrows(), rows):
        assert row["model"] == name
        assert (row["key"], row["value"], row["documents"]) == (s["key"], s["value"], s["documents"])
        for k in ("precision", "recall", "f1", "accuracy"):
            assert row[k] == s["micro"][k]
        for k in ("delta", "p_value", "p_holm"):
            assert (math.isnan(row[k]) and s[k] is None) or row[k] == s[k]
        assert bool(row["weak"]) == s["weak"]


def test_slices_frame_needs_slice_by():
    r = fieldscope.evaluate(TRUTH, {"m": PRED}, config={"id_field": "id"})
    assert "slices" not in json.loads(r.to_json())
    with pytest.raises(ValueError, match="slice_by"):
        r.slices_frame()
