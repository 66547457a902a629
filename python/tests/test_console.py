"""The ``fieldscope`` console script and ``python -m fieldscope`` are the
CLI itself: the same output, messages and exit status as the Rust binary."""

import subprocess
import sys
from pathlib import Path

import pytest

import fieldscope
from conftest import EXAMPLE

SCRIPT = Path(sys.executable).parent / "fieldscope"

RUNS = [
    ["eval", "--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl", "--format", "markdown"],
    ["eval", "--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl",
     "--pred", EXAMPLE / "eager.json", "--schema", EXAMPLE / "schema.json", "--details"],
    ["sweep", "--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl", "--param", "item",
     "--values", "0.5,1", "--format", "csv"],
    ["eval", "--truth", EXAMPLE / "truth.jsonl", "--pred", "m=" + str(EXAMPLE / "missing.jsonl")],
    ["eval", "--truth", EXAMPLE / "truth.jsonl"],
    ["eval", "--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl", "--format", "pdf"],
    ["--help"],
    ["eval", "--help"],
    ["--version"],
]  # fmt: skip


def run(command, args):
    p = subprocess.run([*command, *map(str, args)], capture_output=True)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("args", RUNS, ids=[" ".join(map(str, a[:1] + a[-2:])) for a in RUNS])
def test_console_script_and_module_equal_the_binary(cli_binary, args):
    expected = run([str(cli_binary)], args)
    assert run([str(SCRIPT)], args) == expected
    assert run([sys.executable, "-m", "fieldscope"], args) == expected


def test_exit_status_is_the_binary_s(cli_binary):
    code, out, err = run([str(SCRIPT)], ["eval", "--truth", EXAMPLE / "truth.jsonl"])
    assert code == 2 and out == b"" and b"--pred" in err
    assert run([str(SCRIPT)], ["--version"])[0] == 0


def test_run_in_process_writes_to_sys_stdout(capsysbinary, cli_binary):
    args = ["eval", "--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl", "--format", "csv"]
    assert fieldscope.run(args) == 0
    out, err = capsysbinary.readouterr()
    assert (0, out, err) == run([str(cli_binary)], args)


def test_out_writes_the_file(tmp_path):
    out = tmp_path / "report.html"
    code, stdout, _ = run(
        [str(SCRIPT)],
        ["eval", "--truth", EXAMPLE / "truth.jsonl", "--pred", EXAMPLE / "careful.jsonl",
         "--format", "html", "--out", out],
    )  # fmt: skip
    assert (code, stdout) == (0, b"")
    report = fieldscope.evaluate(EXAMPLE / "truth.jsonl", [EXAMPLE / "careful.jsonl"])
    assert out.read_text("utf-8") == report.to_html()
