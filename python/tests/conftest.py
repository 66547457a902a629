"""Shared fixtures: the repository's test data and the Rust CLI binary that
the package must agree with (``target/debug/fieldscope``, or
``$FIELDSCOPE_CLI``; built with cargo when missing)."""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Warnings some tests' data gives on purpose, silenced where expected (a
# module's ``pytestmark``); anything else still shows in the summary.
#: A model given the truth's own records (a test of identical inputs).
TRUTH_AS_PREDICTIONS = pytest.mark.filterwarnings(
    "ignore:.*the predictions are the ground truth's records:fieldscope.EvaluationWarning"
)
#: Data without a numeric truth value (SPEC's examples, tiny inputs).
NO_NUMBERS = pytest.mark.filterwarnings(
    "ignore:model .*numeric_precision is null:fieldscope.EvaluationWarning"
)
#: `fieldscope synth`'s planted faults: conservative's and aggressive's raw
#: outputs that do not parse.
PLANTED_FAULTS = pytest.mark.filterwarnings(
    "ignore:.*the raw model output of .* did not parse:fieldscope.EvaluationWarning"
)
DATA = ROOT / "tests" / "data"
EXAMPLE = DATA / "example"


def _cli_path() -> Path:
    given = os.environ.get("FIELDSCOPE_CLI")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    return target / "debug" / "fieldscope"


@pytest.fixture(scope="session")
def cli_binary() -> Path:
    path = _cli_path()
    if not path.exists():
        subprocess.run(
            ["cargo", "build", "--locked", "--bin", "fieldscope"],
            cwd=ROOT,
            check=True,
        )
    assert path.exists(), f"the fieldscope binary is not at {path}"
    return path


class Cli:
    """Runs the Rust binary; returns (exit status, stdout text, stderr text)."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary

    def __call__(self, *args, cwd=None):
        p = subprocess.run(
            [str(self.binary), *map(str, args)],
            cwd=cwd,
            capture_output=True,
        )
        return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")

    def ok(self, *args, cwd=None) -> str:
        code, out, err = self(*args, cwd=cwd)
        assert code == 0, err
        return out

    def report(self, *args, cwd=None) -> dict:
        return json.loads(self.ok("eval", *args, cwd=cwd))


@pytest.fixture(scope="session")
def cli(cli_binary) -> Cli:
    return Cli(cli_binary)


@pytest.fixture(scope="session")
def synth_dir(cli, tmp_path_factory) -> Path:
    """``fieldscope synth --documents 300``: truth, three models, a schema."""
    out = tmp_path_factory.mktemp("synth")
    cli.ok("synth", "--documents", "300", "--seed", "7", "--out", out)
    return out


def without_lines(messages):
    """Warnings without the ``(line N)`` that only files know."""
    return [re.sub(r" \(line \d+\)", "", m) for m in messages]


def read_jsonl(path: Path):
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
