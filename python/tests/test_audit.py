"""Suspected truth errors and corrections (SPEC §9.3) from Python.

- ``suspects_frame()`` on a small dataset worked out by hand (JSON values
  kept as objects: an absent truth is None), equal to the
  JSON report's ``suspected_truth_errors`` row for row;
- ``evaluate(..., corrections=...)`` with a list of dicts and with a file,
  equal to ``fieldscope eval --corrections`` byte for byte (JSON), each
  applied correction a warning, a correction that does not fit an
  ``InputError`` naming it.
"""

import json
import math

import pytest

import fieldscope

pd = pytest.importorskip("pandas")

TRUTH = [
    {"id": "a", "total": 100, "name": "Acme",
     "items": [{"qty": 1, "sku": "X"}, {"qty": 2, "sku": "Y"}]},
    {"id": "b", "total": 5},
]  # fmt: skip


def model(total, qty, name_b, conf=None):
    a = {"id": "a", "total": total, "name": "Acme",
         "items": [{"qty": 1, "sku": "X"}, {"qty": qty, "sku": "Y"}]}  # fmt: skip
    b = {"id": "b", "total": 5, "name": name_b}
    if conf is not None:
        a["_confidence"] = conf
        b["_confidence"] = conf
    return [a, b]


MODELS = {
    "m0": model(200, 3, "Zed", conf=0.9),
    "m1": model(200, 3, "zed"),
    "m2": model(300, 4, "Zed ", conf=0.5),
}


@pytest.fixture(scope="module")
def report():
    return fieldscope.evaluate(TRUTH, MODELS)


def test_suspects_frame_by_hand(report):
    # M = 3: at least max(2, ⌈0.5·3⌉ = 2) models must agree.
    # b.name: truth absent, all three say "Zed" (equal after normalisation):
    #   support 3, confidences 0.9 (m0) and 0.5 (m2) → mean 0.7.
    # a.total: 200 (m0, m1) against 100; m2 says 300: support 2, mean 0.9.
    # a.items[1].qty: 3 (m0, m1) against 2 (truth item 1, matched by sku Y):
    #   support 2, mean 0.9. Order: support, then confidence, then id and field.
    f = report.suspects_frame()
    assert list(f.columns) == [
        "id", "field", "truth", "proposed", "models", "support", "mean_confidence",
    ]  # fmt: skip
    assert list(zip(f["id"], f["field"])) == [
        ("b", "name"), ("a", "items[1].qty"), ("a", "total"),
    ]  # fmt: skip
    assert f["truth"].tolist() == [None, 2, 100]
    assert f["proposed"].tolist() == ["Zed", 3, 200]
    assert f["models"].tolist() == [["m0", "m1", "m2"], ["m0", "m1"], ["m0", "m1"]]
    assert f["support"].dtype == "int64"
    assert f["support"].tolist() == [3, 2, 2]
    assert f["mean_confidence"].tolist() == pytest.approx([0.7, 0.9, 0.9], abs=1e-15)
    rows = report.to_dict()["suspected_truth_errors"]
    assert len(rows) == len(f)
    for row, (_, r) in zip(rows, f.iterrows()):
        for key in ["id", "field", "truth", "proposed", "models", "support"]:
            assert row[key] == r[key]
        assert row["mean_confidence"] == pytest.approx(r["mean_confidence"], abs=0)


def test_one_model_has_no_suspect_and_an_empty_frame():
    r = fieldscope.evaluate(TRUTH, {"only": MODELS["m0"]})
    assert r.to_dict()["suspected_truth_errors"] == []
    f = r.suspects_frame()
    assert len(f) == 0
    assert list(f.columns)[-1] == "mean_confidence"


def test_a_null_mean_confidence_is_nan():
    r = fieldscope.evaluate(TRUTH, {"m1": MODELS["m1"], "m1b": MODELS["m1"]})
    f = r.suspects_frame()
    assert len(f) == 3
    assert all(math.isnan(x) for x in f["mean_confidence"])


def corrections_of(report):
    return [
        {"id": s["id"], "field": s["field"], "from": s["truth"], "to": s["proposed"]}
        for s in report.to_dict()["suspected_truth_errors"]
    ]


def test_corrections_as_a_list_and_as_a_file_match_the_cli(report, tmp_path, cli):
    corrections = corrections_of(report)
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(TRUTH))
    preds = []
    for name, records in MODELS.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(records))
        preds += ["--pred", f"{name}={path}"]
    cfile = tmp_path / "c.json"
    cfile.write_text(json.dumps(corrections))
    expected = cli.report("--truth", truth, "--corrections", cfile, *preds)
    # Each correction applied is a warning, first.
    assert expected["warnings"][:3] == [
        f'{cfile}: correction 1 (id "b", field `name`) applied: null → "Zed"',
        f'{cfile}: correction 2 (id "a", field `items[1].qty`) applied: 2 → 3',
        f'{cfile}: correction 3 (id "a", field `total`) applied: 100 → 200',
    ]
    assert expected["suspected_truth_errors"] == []
    with pytest.warns(fieldscope.EvaluationWarning):
        from_file = fieldscope.evaluate(
            str(truth), {n: str(tmp_path / f"{n}.json") for n in MODELS}, corrections=cfile
        )
    assert from_file.to_dict() == expected
    # In memory: the same report, the warnings naming `<corrections>`.
    with pytest.warns(fieldscope.EvaluationWarning):
        in_memory = fieldscope.evaluate(TRUTH, MODELS, corrections=corrections)
    got = in_memory.to_dict()
    assert got["warnings"][0] == (
        '<corrections>: correction 1 (id "b", field `name`) applied: null → "Zed"'
    )
    got["warnings"] = expected["warnings"]
    expected_models = json.loads(json.dumps(expected["models"]).replace(str(tmp_path) + "/", ""))
    assert got["models"] == expected_models
    assert got["suspected_truth_errors"] == []


def test_a_correction_that_does_not_fit_is_refused():
    bad = [{"id": "a", "field": "total", "from": 101, "to": 200}]
    with pytest.raises(fieldscope.InputError) as e:
        fieldscope.evaluate(TRUTH, MODELS, corrections=bad)
    assert str(e.value) == (
        '<corrections>: correction 1 (id "a", field `total`) refused: '
        "the truth there is 100, not 101"
    )
    with pytest.raises(fieldscope.InputError, match="no truth document has this id"):
        fieldscope.evaluate(
            TRUTH, MODELS, corrections=[{"id": "zz", "field": "total", "from": 1, "to": 2}]
        )
    with pytest.raises(TypeError, match="corrections: expected a path or a list of dicts"):
        fieldscope.evaluate(TRUTH, MODELS, corrections=5)
