"""learn, evaluate_partial and merge (issue 16, item 3): the bytes are the
CLI's (`fieldscope learn`, `eval --partial`), and the merge of the shards'
partial results is, byte for byte, the report of one evaluation over all
their documents and `fieldscope merge`'s output."""

import json
import warnings

import pytest

import fieldscope

MODELS = ["good", "conservative", "aggressive"]
FORMATS = ["json", "markdown", "latex", "csv", "html"]


def _cut(lines, cuts):
    bounds = [0, *cuts, len(lines)]
    return ["".join(lines[a:b]) for a, b in zip(bounds, bounds[1:])]


@pytest.fixture(scope="module")
def sharded(synth_dir, tmp_path_factory):
    """synth's 300 documents in four uneven shards (one of a single
    document), the shards written in another order than synth's; the whole
    files are the shards joined in that order."""
    out = tmp_path_factory.mktemp("shards")
    cuts = [1, 120, 170]
    order = [2, 0, 3, 1]
    names = ["truth"] + MODELS
    pieces = {
        n: _cut((synth_dir / f"{n}.jsonl").read_text("utf-8").splitlines(keepends=True), cuts)
        for n in names
    }
    shards = []
    for k, i in enumerate(order):
        for n in names:
            (out / f"{n}-{k}.jsonl").write_text(pieces[n][i], "utf-8")
        shards.append(
            (str(out / f"truth-{k}.jsonl"), {m: str(out / f"{m}-{k}.jsonl") for m in MODELS})
        )
    for n in names:
        (out / f"{n}.jsonl").write_text("".join(pieces[n][i] for i in order), "utf-8")
    whole = (str(out / "truth.jsonl"), {m: str(out / f"{m}.jsonl") for m in MODELS})
    return {
        "dir": out,
        "shards": shards,
        "whole": whole,
        "schema": str(synth_dir / "invoice.schema.json"),
    }


def _cli_inputs(truth, predictions, schema):
    args = ["--truth", truth, "--schema", schema]
    for name, path in predictions.items():
        args += ["--pred", f"{name}={path}"]
    return args


@pytest.fixture(scope="module")
def partials(sharded):
    """The learned fields (from the whole files) and each shard's partial
    result, with details, made through the Python API."""
    truth, preds = sharded["whole"]
    learned = fieldscope.learn(truth, preds, schema=sharded["schema"])
    parts = [
        fieldscope.evaluate_partial(
            t, p, schema=sharded["schema"], learned=learned, details=True
        )
        for t, p in sharded["shards"]
    ]
    return learned, parts


def _quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fieldscope.EvaluationWarning)
        return f(*args, **kwargs)


def test_learn_and_evaluate_partial_write_the_clis_bytes(cli, sharded, partials, tmp_path):
    learned, parts = partials
    truth, preds = sharded["whole"]
    cli.ok("learn", *_cli_inputs(truth, preds, sharded["schema"]), "--out", tmp_path / "l.cbor")
    assert (tmp_path / "l.cbor").read_bytes() == learned
    for k, (t, p) in enumerate(sharded["shards"]):
        out = tmp_path / f"p{k}.cbor"
        args = _cli_inputs(t, p, sharded["schema"])
        cli.ok("eval", *args, "--learned", tmp_path / "l.cbor", "--partial", out, "--details")
        assert out.read_bytes() == parts[k], f"shard {k}"
    # learned= also takes the file's path.
    t, p = sharded["shards"][3]
    again = fieldscope.evaluate_partial(
        t, p, schema=sharded["schema"], learned=tmp_path / "l.cbor", details=True
    )
    assert again == parts[3]


def test_merge_is_the_single_evaluation_and_the_clis_merge_in_every_format(
    cli, sharded, partials, tmp_path
):
    _, parts = partials
    truth, preds = sharded["whole"]
    files = []
    for k, part in enumerate(parts):
        (tmp_path / f"p{k}.cbor").write_bytes(part)
        files.append(tmp_path / f"p{k}.cbor")
    for options, flags in [
        ({}, []),
        ({"details": True}, ["--details"]),
        ({"bootstrap": 40, "seed": 3}, ["--bootstrap", "40", "--seed", "3"]),
    ]:
        merged = _quiet(fieldscope.merge, parts, **options)
        single = _quiet(fieldscope.evaluate, truth, preds, schema=sharded["schema"], **options)
        assert merged.documents == 300
        assert merged.to_dict() == single.to_dict()
        assert merged.to_json() == single.to_json()
        assert merged.warnings == single.warnings
        for fmt in FORMATS:
            text = cli.ok("merge", *files, "--format", fmt, *flags)
            assert getattr(merged, f"to_{fmt}")() == text, (fmt, flags)
            assert getattr(single, f"to_{fmt}")() == text, (fmt, flags)
    # Paths of partial files merge as their bytes do.
    assert _quiet(fieldscope.merge, files).to_json() == _quiet(fieldscope.merge, parts).to_json()


def test_the_merged_report_has_the_single_runs_numbers(sharded, partials):
    _, parts = partials
    merged = _quiet(fieldscope.merge, parts, details=True).to_dict()
    # Every document's details, in the order of the shards as given.
    ids = [json.loads(line)["id"] for line in open(sharded["whole"][0], encoding="utf-8")]
    for model in merged["models"]:
        assert [d["id"] for d in model["document_details"]] == ids
    # The model's counts are the sums of its documents' counts (SPEC §3.1,
    # micro: pooled over documents and fields), outcome by outcome.
    for model in merged["models"]:
        for outcome, total in model["counts"].items():
            assert total == sum(d["counts"][outcome] for d in model["document_details"])
        assert sum(model["counts"].values()) > 300

def test_a_partial_without_learned_merges_only_with_itself(sharded, partials):
    _, parts = partials
    t, p = sharded["shards"][1]
    alone = fieldscope.evaluate_partial(t, p, schema=sharded["schema"])
    assert (
        _quiet(fieldscope.merge, [alone]).to_json()
        == _quiet(fieldscope.evaluate, t, p, schema=sharded["schema"]).to_json()
    )
    with pytest.raises(fieldscope.InputError, match="learnt from other documents") as e:
        fieldscope.merge([parts[0], alone])
    assert e.value.path == "partials[1]"


def test_merge_refuses_partials_that_do_not_belong_together(sharded, partials):
    learned, parts = partials
    # Shards out of order: not the documents the learnt fields list.
    with pytest.raises(fieldscope.InputError):
        fieldscope.merge([parts[1], parts[0], parts[2], parts[3]])
    # A shard missing.
    with pytest.raises(fieldscope.InputError):
        fieldscope.merge(parts[:3])
    # Details asked of partials made without them.
    t, p = sharded["shards"][0]
    plain = fieldscope.evaluate_partial(t, p, schema=sharded["schema"], learned=learned)
    with pytest.raises(fieldscope.InputError, match="details"):
        fieldscope.merge([plain, *parts[1:]], details=True)
    # Another configuration than the learnt one.
    with pytest.raises(fieldscope.InputError, match="configuration"):
        fieldscope.evaluate_partial(
            t, p, schema=sharded["schema"], learned=learned, preset="exact"
        )
    # Not a partial result at all.
    with pytest.raises(fieldscope.InputError, match="not a fieldscope partial result") as e:
        fieldscope.merge([b"{}"])
    assert e.value.path == "partials[0]"


def test_bad_arguments_are_python_errors(sharded, partials):
    _, parts = partials
    with pytest.raises(ValueError, match="at least one"):
        fieldscope.merge([])
    with pytest.raises(TypeError, match=r"partials\[1\]"):
        fieldscope.merge([parts[0], 7])
    with pytest.raises(ValueError, match="bootstrap"):
        fieldscope.merge(parts, bootstrap=0)
    with pytest.raises(ValueError, match="alpha"):
        fieldscope.merge(parts, bootstrap=10, alpha=1.5)
    with pytest.raises(TypeError, match="learned"):
        t, p = sharded["shards"][0]
        fieldscope.evaluate_partial(t, p, learned=12)
    with pytest.raises(fieldscope.InputError, match="learned-fields"):
        fieldscope.evaluate_partial(t, p, learned=b"not cbor")
