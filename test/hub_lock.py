#!/usr/bin/env python3
"""Holds a hub's write lock from another process, the way a busy MemPalace writer would.

Usage: python3 test/hub_lock.py <palace dir | logstream.sqlite3> <hold_ms>

Opens the file with Python's sqlite3 (no busy wait), runs BEGIN EXCLUSIVE, prints "locked" and
flushes, holds the lock for hold_ms (or until stdin closes, whichever comes first), rolls back
and exits 0. Python 3 standard library only.
"""
import os
import select
import sqlite3
import sys
import time


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    path, hold_ms = sys.argv[1], int(sys.argv[2])
    if os.path.isdir(path):
        path = os.path.join(path, "logstream.sqlite3")
    conn = sqlite3.connect(path, timeout=10, isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    deadline = time.monotonic() + hold_ms / 1000.0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([sys.stdin], [], [], left)
        if ready and not sys.stdin.read(1):
            break  # stdin closed: the caller is done
    conn.execute("ROLLBACK")
    conn.close()


if __name__ == "__main__":
    main()
