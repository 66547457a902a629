"""The Dask example (python/examples/dask_eval.py, docs/distributed.md) on a
LocalCluster of two worker processes: its report is, byte for byte, the
one-process evaluation's (issue 16, item 3)."""

import importlib
import os
import warnings
from pathlib import Path

import pytest

import fieldscope

distributed = pytest.importorskip("dask.distributed")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dask_eval.py"


@pytest.fixture
def example(monkeypatch):
    """The example as a module that the worker processes import too (Dask
    sends functions by reference to their module)."""
    folder = str(EXAMPLE.parent)
    monkeypatch.syspath_prepend(folder)
    paths = [folder, *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))
    return importlib.import_module("dask_eval")

def test_the_dask_example_gives_the_one_process_report(example, tmp_path):
    models, schema = example.write_synth_shards(str(tmp_path), 400, 5)
    shards = example.find_shards(str(tmp_path), models)
    assert len(shards) == 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fieldscope.EvaluationWarning)
        with distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0"
        ) as cluster, distributed.Client(cluster) as client:
            client.wait_for_workers(2)
            on_dask = example.evaluate_on_dask(client, shards, schema)
            with_bootstrap = example.evaluate_on_dask(
                client, shards, schema, bootstrap=50, details=True
            )
            workers = {w["id"] for w in client.scheduler_info()["workers"].values()}
        single = example.evaluate_here(shards, schema)
        single_bootstrap = example.evaluate_here(shards, schema, bootstrap=50, details=True)
    assert len(workers) == 2
    assert on_dask.documents == 400
    assert on_dask.to_dict() == single.to_dict()
    assert on_dask.to_json() == single.to_json()
    assert on_dask.to_markdown() == single.to_markdown()
    assert with_bootstrap.to_json() == single_bootstrap.to_json()
    assert "bootstrap" in with_bootstrap.to_dict()
    print(
        f"dask: {on_dask.documents} documents, {len(shards)} shards, "
        f"{len(workers)} worker processes; report equal to the one-process run"
    )


def test_the_dask_example_prints_each_warning_once(tmp_path):
    """Issue 32: the example run with ``--compare`` makes the same report
    three ways (on Dask, merged here, in one process): each warning is
    shown once, on one line; `good` plants no unparseable output; the
    Markdown it prints reads `\\<aggressive>`, not `&lt;aggressive&gt;`."""
    import subprocess
    import sys

    p = subprocess.run(
        [sys.executable, str(EXAMPLE), "--synth", "300", "--shards", "3", "--compare"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stderr.splitlines() if "EvaluationWarning: " in l]
    assert lines, p.stderr
    assert len(lines) == len(set(lines)), p.stderr
    assert all(l.startswith("fieldscope:0: EvaluationWarning: ") for l in lines), p.stderr
    # No source line echoed under a warning (each is one line).
    assert "  return fieldscope" not in p.stderr and "  single = " not in p.stderr
    # Only the planted faults: conservative's and aggressive's raw outputs.
    assert not any("<good>" in l for l in lines), p.stderr
    assert any("<aggressive> (aggressive): the raw model output of" in l for l in lines)
    assert "reports equal: True" in p.stdout
    assert "&lt;" not in p.stdout and "\\<aggressive>" in p.stdout
