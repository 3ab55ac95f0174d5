"""Instructions a program ran under qemu user mode, from its log of
translated and executed blocks (qemu -d in_asm,exec,nochain -D LOG): each
executed block counted with its number of instructions.

    python scripts/qemu_count.py LOG
"""

import re
import sys

ADDRESS = re.compile(r"0x([0-9a-f]+):\s")


def main(path):
    size, total, block = {}, 0, None
    with open(path, errors="replace") as log:
        for line in log:
            if line.startswith("IN:"):
                block = None
            elif line.startswith("Trace"):
                total += size[int(line.split("[", 1)[1].split("/")[1], 16)]
            elif match := ADDRESS.match(line):
                if block is None:
                    block = int(match[1], 16)
                    size[block] = 0
                size[block] += 1
    print(total)


if __name__ == "__main__":
    main(sys.argv[1])
