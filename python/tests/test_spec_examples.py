"""SPEC §6: every worked example through the Python API, with its exact
numbers (the same cases as tests/suite/spec_examples.rs)."""

import pytest

import fieldscope
from conftest import NO_NUMBERS, TRUTH_AS_PREDICTIONS

pytestmark = [NO_NUMBERS, TRUTH_AS_PREDICTIONS]


def example_1():
    """17 fields, 8 present in truth; 3 right, 2 wrong, 3 left empty, and
    NOT_FOUND on all 9 absent ones."""
    truth = {"id": "doc"}
    pred = {"id": "doc"}
    for i in range(1, 18):
        key = f"f{i:02}"
        t = f"value number {i}" if i <= 8 else "NOT_FOUND"
        if i <= 3:
            p = t
        elif i in (4, 5):
            p = f"zzz {i}"
        else:
            p = "NOT_FOUND"
        truth[key] = t
        pred[key] = p
    return [truth], {"conservative": [pred]}


def test_example_1_not_found_preset():
    truth, preds = example_1()
    m = fieldscope.evaluate(truth, preds, preset="not-found").to_dict()["models"][0]
    assert m["counts"] == {
        "exact": 3,
        "partial": 0,
        "incorrect": 2,
        "missed": 3,
        "spurious": 0,
        "true_negative": 9,
    }
    assert m["micro"]["accuracy"] == pytest.approx(12 / 17, abs=1e-15)
    assert f"{m['micro']['accuracy']:.4f}" == "0.7059"
    assert m["micro"]["precision"] == pytest.approx(0.6, abs=1e-15)
    assert m["micro"]["recall"] == pytest.approx(0.5, abs=1e-15)
    assert f"{m['micro']['f1']:.4f}" == "0.5455"


def test_example_1_exact_preset():
    truth, preds = example_1()
    m = fieldscope.evaluate(truth, preds, preset="exact").to_dict()["models"][0]
    assert m["micro"]["recall"] == pytest.approx(3 / 8, abs=1e-15)
    assert m["micro"]["precision"] == pytest.approx(0.6, abs=1e-15)


def codes(truth, pred):
    report = fieldscope.evaluate(
        [{"id": "r1", "codes": truth}], {"m": [{"id": "r1", "codes": pred}]}
    )
    s = report.to_dict()["models"][0]["sets"]["codes"]
    assert s["documents"] == 1
    return s


def test_example_2_multi_label_codes():
    s = codes(["12345"], ["12345", "67890", "11111", "22222", "33333"])
    assert s["precision"] == pytest.approx(0.2, abs=1e-15)
    assert s["recall"] == 1.0
    assert s["accuracy"] == pytest.approx(0.6, abs=1e-15)
    assert s["legacy_accuracy"] == pytest.approx(0.2, abs=1e-15)
    assert f"{s['f1']:.4f}" == "0.3333"
    s = codes(["12345"], ["12345", "67890", "11111"])
    assert f"{s['accuracy']:.4f}" == "0.6667"
    assert f"{s['legacy_accuracy']:.4f}" == "0.3333"
    s = codes(["1", "2"], ["1", "3"])
    assert s["accuracy"] == pytest.approx(0.5, abs=1e-15)
    assert s["legacy_accuracy"] == pytest.approx(0.5, abs=1e-15)


def test_example_3_micro_versus_macro():
    truth = [
        {"id": "A", "entities": []},
        {"id": "B", "entities": []},
        {"id": "C", "entities": ["y"]},
    ]
    silent = [dict(r) for r in truth]
    hallucinating = [
        {"id": "A", "entities": []},
        {"id": "B", "entities": ["x"]},
        {"id": "C", "entities": ["y"]},
    ]
    report = fieldscope.evaluate(truth, {"silent": silent, "hallucinating": hallucinating})
    s, h = report.to_dict()["models"]
    assert s["macro_documents"]["precision"] == 1.0
    assert s["macro_documents"]["recall"] == 1.0
    assert s["macro_documents"]["f1"] == 1.0
    assert (s["micro"]["precision"], s["micro"]["recall"]) == (1.0, 1.0)
    assert h["macro_documents"]["precision"] == pytest.approx(2 / 3, abs=1e-15)
    assert h["macro_documents"]["recall"] == pytest.approx(2 / 3, abs=1e-15)
    assert f"{h['macro_documents']['precision']:.4f}" == "0.6667"
    assert h["micro"]["precision"] == pytest.approx(0.5, abs=1e-15)
    assert h["micro"]["recall"] == 1.0
    # The same numbers through the frames.
    frame = report.models_frame("macro_documents")
    assert frame.loc["hallucinating", "precision"] == pytest.approx(2 / 3, abs=1e-15)
    assert report.models_frame("micro").loc["hallucinating", "precision"] == 0.5


def test_example_4_cer():
    truth = [{"id": "1", "number": "Invoice 1234"}, {"id": "2", "number": "Invoice 1234"}]
    pred = [{"id": "1", "number": "Invoice 1243"}, {"id": "2", "number": "invoice 124"}]
    report = fieldscope.evaluate(truth, {"m": pred}, preset="invoice-cer")
    m = report.to_dict()["models"][0]
    f = m["fields"][0]
    assert f["field"] == "number"
    assert f["counts"]["incorrect"] == 1
    assert f["counts"]["exact"] == 1
    # Pooled: (2 + 1) / (12 + 12); mean: (2/12 + 1/12) / 2.
    assert f["cer"] == pytest.approx(3 / 24, abs=1e-15)
    assert f["mean_cer"] == pytest.approx((2 / 12 + 1 / 12) / 2, abs=1e-15)
    assert m["cer"] == pytest.approx(3 / 24, abs=1e-15)
