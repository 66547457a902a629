"""The ``fieldscope`` console script and ``python -m fieldscope``: the
command-line tool itself (the Rust ``fieldscope::cli::run``), with the same
flags, output and exit status as the ``fieldscope`` binary."""

import os
import sys
from typing import List, Optional

from fieldscope import _native

__all__ = ["main"]


def run(argv: Optional[List[str]] = None) -> int:
    """Run ``fieldscope ARGS…`` and return its exit status (0 success, 2
    bad input or usage), writing its output to ``sys.stdout`` and
    ``sys.stderr``.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after the program name; default ``sys.argv[1:]``.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    code, out, err = _native.run_cli(["fieldscope"] + [os.fspath(a) for a in args])
    for stream, data in ((sys.stdout, out), (sys.stderr, err)):
        if not data:
            continue
        buffer = getattr(stream, "buffer", None)
        stream.flush()
        if buffer is not None:
            buffer.write(data)
            buffer.flush()
        else:
            stream.write(data.decode("utf-8", "replace"))
            stream.flush()
    return code


def main() -> None:
    """The console script: exits with the tool's status."""
    sys.exit(run())


