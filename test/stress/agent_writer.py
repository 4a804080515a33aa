#!/usr/bin/env python3
"""An agent writing a role file while Muster edits it (Python 3 stdlib only).

Usage: python3 test/stress/agent_writer.py <pattern> <file> <count> <tag> <max pause ms> <seed> [<stall every> <stall ms> [<stall max ms> <where>]]

Writes <count> unique lines `agent-<tag>-<n>` (n = 0000...) at the end of <file>, one write at a
time, the way agents and editors write:
  append    open in append mode (O_APPEND|O_CREAT), write the line, close
  truncate  read the file, open it for writing (O_TRUNC|O_CREAT), write old content + line, close
  rename    read the file, write old content + line to a temp file, rename it over the file
Pauses a random 0..<max pause ms> between writes. With <stall every> N, every N-th write stalls
<stall ms> after opening the file and before writing to it, as a process descheduled between two
system calls on a loaded machine does (for truncate, the file sits empty meanwhile). With <stall max
ms>, each stall lasts a random <stall ms>..<stall max ms>; <where> `mid` stalls halfway through the
write instead (truncate: the file sits half-written; rename: the temp file does, and the rename
lands later, built from the older read). A read that finds the file missing (another
writer's rename in flight) is retried, as an agent's tool would.

Pacing: prints `w <n>` after its n-th write, and writes the n-th line only once it was allowed to:
the harness sends `<allowed>` lines on stdin (it starts allowed 40), so the agent keeps pace with
the edits it races against however loaded the machine is. Prints `done <count>` at the end.
"""

import os
import random
import sys
import time


def read(path):
    for _ in range(10000):
        try:
            with open(path, "rb") as f:
                return f.read()
        except FileNotFoundError:
            time.sleep(0.0005)
    raise SystemExit(f"{path} stayed missing")


def main():
    pattern, path, count, tag, pause_ms, seed = sys.argv[1:7]
    stall_every, stall_ms = (int(sys.argv[7]), int(sys.argv[8])) if len(sys.argv) > 8 else (0, 0)
    stall_max = int(sys.argv[9]) if len(sys.argv) > 9 else stall_ms
    mid = len(sys.argv) > 10 and sys.argv[10] == "mid"
    rng = random.Random(int(seed))
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.agent-{os.getpid()}.tmp")
    allowed = 40
    for n in range(int(count)):
        while n >= allowed:
            got = sys.stdin.readline()
            if not got:
                raise SystemExit("stdin closed before the writes were allowed")
            allowed = max(allowed, int(got))
        line = f"agent-{tag}-{n:04d}\n".encode()
        stalled = stall_every and n % stall_every == stall_every - 1
        secs = rng.uniform(stall_ms, stall_max) / 1000
        stall = (lambda: time.sleep(secs)) if stalled and not mid else (lambda: None)
        midway = (lambda: time.sleep(secs)) if stalled and mid else (lambda: None)
        if pattern == "append":
            with open(path, "ab") as f:
                stall()
                f.write(line)
        elif pattern == "truncate":
            old = read(path)
            if old and not old.endswith(b"\n"):
                old += b"\n"
            with open(path, "wb") as f:
                stall()
                whole = old + line
                half = len(whole) // 2
                f.write(whole[:half])
                f.flush()
                midway()
                f.write(whole[half:])
        elif pattern == "rename":
            old = read(path)
            if old and not old.endswith(b"\n"):
                old += b"\n"
            with open(tmp, "wb") as f:
                stall()
                whole = old + line
                f.write(whole[: len(whole) // 2])
                f.flush()
                midway()
                f.write(whole[len(whole) // 2 :])
            os.rename(tmp, path)
        else:
            raise SystemExit(f"unknown pattern {pattern}")
        print(f"w {n + 1}", flush=True)
        time.sleep(rng.uniform(0, float(pause_ms)) / 1000)
    print(f"done {count}", flush=True)


if __name__ == "__main__":
    main()
