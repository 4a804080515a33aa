#!/usr/bin/env python3
"""A third-party reader of a role file (Python 3 stdlib only): reads it in a loop until <stop file>
exists, then prints `reads <n> missing <m>` (m: reads that found the path missing, ENOENT).

Usage: python3 test/stress/reader_loop.py <file> <stop file>
"""

import os
import sys
import time


def main():
    path, stop = sys.argv[1:3]
    reads = missing = 0
    while not os.path.exists(stop):
        try:
            with open(path, "rb") as f:
                f.read()
        except FileNotFoundError:
            missing += 1
        reads += 1
        if reads % 200 == 0:
            time.sleep(0.001)
    print(f"reads {reads} missing {missing}", flush=True)


if __name__ == "__main__":
    main()
