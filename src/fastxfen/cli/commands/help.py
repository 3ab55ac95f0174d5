"""``fastxfen help [TOPIC]``: the longer explanations of the command line,
one topic at a time (help_texts.TOPICS)."""

from __future__ import annotations

import sys

from fastxfen.cli.help_texts import TOPICS


def run(args) -> int:
    """Print the topic (without one, the list of topics); return 0."""
    if args.topic is None:
        lines = ["topics (fastxfen help TOPIC):"]
        lines += [f"  {name:12s} {summary}" for name, (summary, _) in TOPICS.items()]
        sys.stdout.write("\n".join(lines) + "\n")
    else:
        sys.stdout.write(TOPICS[args.topic][1])
    return 0
