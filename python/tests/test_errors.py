"""Errors are Python errors: every malformed input of tests/data/malformed/
raises ``fieldscope.InputError`` with the CLI's message (and its warnings
cases warn as the CLI does); bad configuration keys, presets and values
raise ``ValueError`` naming the key; a Rust panic is a ``RuntimeError``;
the evaluation releases the GIL."""

import json
import re
import threading
import time

import pytest

import fieldscope
from conftest import DATA, NO_NUMBERS, PLANTED_FAULTS, TRUTH_AS_PREDICTIONS

pytestmark = [NO_NUMBERS, PLANTED_FAULTS, TRUTH_AS_PREDICTIONS]

MALFORMED = DATA / "malformed"
MANIFEST = json.loads((MALFORMED / "cases.json").read_text("utf-8"))["cases"]
TRUTH = "../example/truth.jsonl"
CAREFUL = "../example/careful.jsonl"


def call(role, name):
    """The API call of one case, run in tests/data/malformed/ so that files
    are named as the manifest names them."""
    truth, preds, kwargs = TRUTH, {"careful": CAREFUL}, {}
    if role == "truth":
        truth = name
    elif role == "predictions":
        preds = [name]
    else:
        kwargs[role] = name
    return fieldscope.evaluate(truth, preds, **kwargs)


def cli_args(role, name):
    args = ["eval", "--truth", TRUTH, "--pred", CAREFUL]
    if role == "truth":
        args[2] = name
    elif role == "predictions":
        args[4] = name
    else:
        args += [f"--{role}", name]
    return args


ERRORS = [c for c in MANIFEST if "error" in c]
WARNINGS = [c for c in MANIFEST if "warnings" in c]


@pytest.mark.parametrize("case", ERRORS, ids=[f"{c['role']}-{c['file']}" for c in ERRORS])
def test_every_malformed_input_raises_input_error_with_the_cli_message(case, cli, monkeypatch):
    monkeypatch.chdir(MALFORMED)
    with pytest.raises(fieldscope.InputError) as caught:
        call(case["role"], case["file"])
    e = caught.value
    assert isinstance(e, ValueError)
    assert str(e) == case["error"]
    # The CLI, run here and now, prints the same after "error: ".
    code, out, err = cli(*cli_args(case["role"], case["file"]), cwd=MALFORMED)
    assert (code, out, err) == (2, "", f"error: {e}\n")
    # The position, as the message gives it.
    assert e.path == case["file"]
    where = re.match(re.escape(case["file"]) + r"(?::(\d+))?(?::(\d+))?: ", case["error"])
    assert where, case["error"]
    line, column = where.groups()
    assert e.line == (int(line) if line else None)
    assert e.column == (int(column) if column else None)


@pytest.mark.parametrize("case", WARNINGS, ids=[f"{c['role']}-{c['file']}" for c in WARNINGS])
def test_malformed_but_usable_inputs_warn_as_the_cli_does(case, cli, monkeypatch):
    monkeypatch.chdir(MALFORMED)
    with pytest.warns(fieldscope.EvaluationWarning):
        report = call(case["role"], case["file"])
    naming = [w for w in report.warnings if case["file"] in w]
    assert naming == case["warnings"]
    code, out, _ = cli(*cli_args(case["role"], case["file"]), cwd=MALFORMED)
    assert code == 0
    assert report.to_dict() == json.loads(out)


@pytest.mark.parametrize(
    "config, key",
    [
        ({"string_threshhold": 0.5}, "unknown key `string_threshhold`"),
        ({"string_match": {"cer_threshold": "high"}}, "key `string_match.cer_threshold` expects a number"),
        ({"incorrect_counts_as": "fp"}, "key `incorrect_counts_as` expects an array of strings"),
        ({"preset": "lenient"}, "key `preset` expects one of"),
        (["strict"], None),
    ],
)  # fmt: skip
def test_a_bad_config_dict_is_a_value_error_naming_the_key(config, key):
    if key is None:
        with pytest.raises(TypeError, match="config: expected a path or a dict"):
            fieldscope.evaluate(TRUTH, {"m": []}, config=config)
        return
    with pytest.raises(ValueError) as caught:
        fieldscope.evaluate([{"id": "a"}], {"m": []}, config=config)
    assert not isinstance(caught.value, fieldscope.InputError)
    assert str(caught.value).startswith(key)


def test_a_bad_argument_is_a_value_error_naming_it():
    truth, preds = [{"id": "a", "x": 1}], {"m": [{"id": "a", "x": 1}]}
    with pytest.raises(ValueError, match=r'^preset: .*"lenient"'):
        fieldscope.evaluate(truth, preds, preset="lenient")
    with pytest.raises(ValueError, match="^metrics: unknown metric 'bleu'"):
        fieldscope.evaluate(truth, preds, metrics=["anls_star", "bleu"])
    with pytest.raises(ValueError, match="^bootstrap: needs at least 1"):
        fieldscope.evaluate(truth, preds, bootstrap=0)
    with pytest.raises(ValueError, match="^alpha: 1.5"):
        fieldscope.evaluate(truth, preds, bootstrap=10, alpha=1.5)
    with pytest.raises(ValueError, match='^costs: no model is named "x"; the models are: m'):
        fieldscope.evaluate(truth, preds, costs={"x": 1.0})
    with pytest.raises(ValueError, match=r"^costs\['m'\]"):
        fieldscope.evaluate(truth, preds, costs={"m": float("inf")})
    with pytest.raises(ValueError, match="^averaging: 'weighted'"):
        fieldscope.evaluate(truth, preds).models_frame("weighted")


def test_an_invalid_schema_dict_is_an_input_error_without_a_path():
    with pytest.raises(fieldscope.InputError) as caught:
        fieldscope.evaluate([{"id": "a"}], {"m": []}, schema={"type": "money"})
    assert caught.value.path is None
    assert str(caught.value).startswith("the schema is not a valid JSON Schema (draft-07)")


def test_a_panic_becomes_runtime_error():
    with pytest.raises(RuntimeError, match="a test of the panic guard"):
        fieldscope._native._panic_for_tests()
    # The interpreter goes on, and so does the package.
    assert fieldscope.evaluate([{"id": "a", "x": 1}], {"m": [{"id": "a", "x": 1}]}).models == ["m"]


def test_the_evaluation_releases_the_gil(cli, tmp_path):
    # 1,000 documents × 3 models: about 1 s in the test run's dev build,
    # about 0.14 s in a release build (10,000 take 1.4 s): long enough to
    # see a held GIL either way (3,000 made this the suite's slowest test).
    cli.ok("synth", "--documents", "1000", "--out", tmp_path)
    files = [tmp_path / f"{m}.jsonl" for m in ("good", "conservative", "aggressive")]
    args = (tmp_path / "truth.jsonl", files)
    kwargs = {"schema": tmp_path / "invoice.schema.json"}
    start = time.perf_counter()
    fieldscope.evaluate(*args, **kwargs)
    alone = time.perf_counter() - start

    done = threading.Event()
    worker = threading.Thread(target=lambda: (fieldscope.evaluate(*args, **kwargs), done.set()))
    ticks = []
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
    worker.join()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    # Holding the GIL would stop this loop for the whole evaluation.
    assert alone > 0.05, alone
    assert max(gaps) < alone / 2, (max(gaps), alone)
    assert len(ticks) > 1000
