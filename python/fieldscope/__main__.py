"""``python -m fieldscope``: the command-line tool (see ``fieldscope._cli``)."""

from fieldscope._cli import main

if __name__ == "__main__":
    main()
