"""Every input shape — a path (str or os.PathLike), bytes, a list of dicts, a
dict id → record, a DataFrame — gives the same report; and what the
in-memory conversion does with Python values."""

import json
import math
from decimal import Decimal
from pathlib import Path

import pytest

import fieldscope
from conftest import EXAMPLE, read_jsonl, NO_NUMBERS, TRUTH_AS_PREDICTIONS

pytestmark = [NO_NUMBERS, TRUTH_AS_PREDICTIONS]

pd = pytest.importorskip("pandas")


def scores(report):
    """The report without its warnings (they name the inputs)."""
    d = report.to_dict()
    d.pop("warnings")
    return d


def example_shapes():
    truth_path = EXAMPLE / "truth.jsonl"
    records = read_jsonl(truth_path)
    return {
        "str": str(truth_path),
        "PathLike": truth_path,
        "bytes": truth_path.read_bytes(),
        "list": records,
        "id_map": {r["id"]: r for r in records},
        # dtype=object keeps each value as given: a float64 column would
        # turn the integer total 240 into 240.0 (see the next test).
        "DataFrame": pd.DataFrame(records, dtype=object),
    }


def test_a_float64_column_makes_integers_floats_as_pandas_does():
    # pandas stores the totals 1500.0, 89.9 and 240 as float64: 240 becomes
    # 240.0, a different text, so the CER of that value differs (the
    # outcome does not: numbers compare by value).
    records = read_jsonl(EXAMPLE / "truth.jsonl")
    assert pd.DataFrame(records).to_dict("records")[2]["total"] == 240.0
    preds = {"careful": EXAMPLE / "careful.jsonl"}
    a = fieldscope.evaluate(EXAMPLE / "truth.jsonl", preds).to_dict()["models"][0]
    b = fieldscope.evaluate(pd.DataFrame(records), preds).to_dict()["models"][0]
    assert a["counts"] == b["counts"] and a["micro"] == b["micro"]
    total_a = next(f for f in a["fields"] if f["field"] == "total")
    total_b = next(f for f in b["fields"] if f["field"] == "total")
    assert total_a["counts"] == total_b["counts"]
    assert total_a["cer"] != total_b["cer"]


@pytest.mark.parametrize("shape", list(example_shapes()))
def test_every_truth_shape_gives_the_same_report(shape):
    preds = {"careful": EXAMPLE / "careful.jsonl", "eager": EXAMPLE / "eager.json"}
    # Both with details: the Markdown's per-field error tables (SPEC §9.1)
    # come with them.
    reference = fieldscope.evaluate(
        EXAMPLE / "truth.jsonl", preds, schema=EXAMPLE / "schema.json", details=True
    )
    report = fieldscope.evaluate(
        example_shapes()[shape], preds, schema=EXAMPLE / "schema.json", details=True
    )
    d, r = scores(report), scores(reference)
    for m in d["models"] + r["models"]:
        m.pop("document_details")
    assert d == r
    assert report.to_markdown() == reference.to_markdown()


@pytest.mark.parametrize("shape", list(example_shapes()))
def test_every_prediction_shape_gives_the_same_report(shape):
    shapes = example_shapes()
    careful = read_jsonl(EXAMPLE / "careful.jsonl")
    given = {
        "str": str(EXAMPLE / "careful.jsonl"),
        "PathLike": EXAMPLE / "careful.jsonl",
        "bytes": (EXAMPLE / "careful.jsonl").read_bytes(),
        "list": careful,
        "id_map": {r["id"]: r for r in careful},
        "DataFrame": pd.DataFrame(careful, dtype=object),
    }[shape]
    assert shape in shapes
    reference = fieldscope.evaluate(EXAMPLE / "truth.jsonl", {"careful": EXAMPLE / "careful.jsonl"})
    report = fieldscope.evaluate(EXAMPLE / "truth.jsonl", {"careful": given})
    assert scores(report) == scores(reference)
    assert report.to_csv() == reference.to_csv()


def test_schema_and_config_as_dicts_equal_their_files():
    schema = json.loads((EXAMPLE / "schema.json").read_text("utf-8"))
    config = json.loads((EXAMPLE / "metrics_config.json").read_text("utf-8"))
    files = fieldscope.evaluate(
        EXAMPLE / "truth.jsonl",
        [EXAMPLE / "careful.jsonl"],
        schema=EXAMPLE / "schema.json",
        config=EXAMPLE / "metrics_config.json",
    )
    dicts = fieldscope.evaluate(
        EXAMPLE / "truth.jsonl", [EXAMPLE / "careful.jsonl"], schema=schema, config=config
    )
    assert files.to_json() == dicts.to_json()
    assert dicts.to_dict()["config"]["preset"] == "exact"


def test_in_memory_warnings_name_the_input():
    truth = [{"id": "a", "x": 1}, {"id": "b", "x": 2}]
    with pytest.warns(fieldscope.EvaluationWarning) as caught:
        report = fieldscope.evaluate(truth, {"m": [{"id": "a", "x": 1}]})
    assert report.warnings == [
        '<m> (m): 1 ground-truth document(s) have no prediction record and count as '
        'empty predictions (every truth value missed, not schema-valid): "b"'
    ]
    assert [str(w.message) for w in caught] == report.warnings


def test_python_values_convert_as_json_would():
    # Tuples are arrays, Decimal and numpy numbers are numbers, dates are ISO
    # strings, composed and decomposed letters compare equal (NFC).
    import datetime

    import numpy as np

    truth = [
        {
            "id": "a",
            "total": 10.5,
            "count": 3,
            "date": "2025-01-15",
            "codes": ["1", "2"],
            "name": "Caf\u00e9",
        }
    ]
    pred = [
        {
            "id": "a",
            "total": Decimal("10.50"),
            "count": np.int64(3),
            "date": datetime.date(2025, 1, 15),
            "codes": ("1", "2"),
            "name": "Cafe\u0301",
        }
    ]
    m = fieldscope.evaluate(truth, {"m": pred}).to_dict()["models"][0]
    assert m["counts"]["exact"] == 6
    assert m["micro"]["f1"] == 1.0


def test_big_integers_are_read_as_a_json_file_reads_them(tmp_path):
    big = 2**70
    truth = [{"id": "a", "n": big}]
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps({"id": "a", "n": big}) + "\n", "utf-8")
    from_file = fieldscope.evaluate(truth, {"m": path})
    from_memory = fieldscope.evaluate(truth, {"m": [{"id": "a", "n": big}]})
    assert scores(from_file) == scores(from_memory)


def test_a_dataframe_s_missing_values_are_null():
    truth = pd.DataFrame([{"id": "a", "x": "1", "y": "q"}, {"id": "b", "x": "2"}])
    assert math.isnan(truth.loc[1, "y"])
    as_null = fieldscope.evaluate(
        [{"id": "a", "x": "1", "y": "q"}, {"id": "b", "x": "2", "y": None}],
        {"m": [{"id": "a", "x": "1", "y": "q"}, {"id": "b", "x": "2"}]},
    )
    from_frame = fieldscope.evaluate(
        truth, {"m": [{"id": "a", "x": "1", "y": "q"}, {"id": "b", "x": "2"}]}
    )
    assert scores(from_frame) == scores(as_null)
    # 3 present truth values, all predicted: micro recall 1.
    assert from_frame.to_dict()["models"][0]["micro"]["recall"] == 1.0


def test_nan_in_a_list_of_dicts_is_an_input_error():
    with pytest.raises(fieldscope.InputError) as e:
        fieldscope.evaluate([{"id": "a", "x": 1}], {"m": [{"id": "a", "x": float("nan")}]})
    assert str(e.value) == (
        "<m>: record 1: key `x`: NaN and infinity are not JSON numbers; use None or a string"
    )
    assert e.value.path == "<m>"
    assert e.value.record == "record 1"
    assert e.value.line is None


@pytest.mark.parametrize(
    "records, message",
    [
        ([1], "<truth>: record 1: expected a record (a dict), found an int"),
        ([{"id": "a"}, ["x"]], "<truth>: record 2: expected a record (a dict), found a list"),
        ([{"id": "a", "v": {1: "x"}}], "<truth>: record 1: key `v`: the key 1 is an int; every key must be a str"),
        ([{"id": "a", "v": [0, {"w": object()}]}], "<truth>: record 1: key `v[1].w`: found an object, which is not a JSON value (expected a dict, list, str, int, float, bool or None)"),
        ({"a": {"x": 1}, "b": 2}, '<truth>: record "b": expected a record (a dict) for this id, found an int'),
    ],
)  # fmt: skip
def test_malformed_in_memory_records_name_the_record_and_key(records, message):
    with pytest.raises(fieldscope.InputError) as e:
        fieldscope.evaluate(records, {"m": []})
    assert str(e.value) == message


def test_too_deep_nesting_is_an_error_not_a_crash():
    deep = "x"
    for _ in range(200):
        deep = [deep]
    with pytest.raises(fieldscope.InputError, match="nesting too deep"):
        fieldscope.evaluate([{"id": "a", "v": deep}], {"m": []})


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match="truth: expected a path"):
        fieldscope.evaluate(42, {"m": []})
    with pytest.raises(TypeError, match="predictions"):
        fieldscope.evaluate([], "not a dict".encode())
    with pytest.raises(TypeError, match="list of predictions holds paths"):
        fieldscope.evaluate([], [[{"id": "a"}]])
    # A list is several schemas (SPEC §7.2): paths or (name, schema) pairs.
    with pytest.raises(TypeError, match=r"schema\[0\]: expected a path or a \(name, schema\) pair"):
        fieldscope.evaluate([], {"m": []}, schema=[{}, {}])


def test_names_of_a_list_of_paths_are_the_stems(tmp_path):
    p = tmp_path / "model.v2.jsonl"
    p.write_text('{"id": "a", "x": 1}\n', "utf-8")
    report = fieldscope.evaluate([{"id": "a", "x": 1}], [p])
    assert report.models == ["model.v2"]
    assert fieldscope.evaluate([{"id": "a", "x": 1}], str(p)).models == ["model.v2"]


def test_bytes_are_sniffed_like_a_file_without_an_extension():
    csv = b"id,total\na,10\n"
    jsonl = b'{"id": "a", "total": 10}\n'
    truth = [{"id": "a", "total": "10"}]
    a = fieldscope.evaluate(truth, {"m": csv}).to_dict()["models"][0]
    b = fieldscope.evaluate(truth, {"m": jsonl}).to_dict()["models"][0]
    assert a["micro"]["f1"] == b["micro"]["f1"] == 1.0


def test_a_path_that_does_not_exist_is_an_os_error(tmp_path):
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(OSError, match="nope.jsonl: cannot read the file"):
        fieldscope.evaluate(missing, {"m": []})
    assert isinstance(Path(missing), Path)
