#!/usr/bin/env python3
"""Bench helper: appends N events to a hub from another process, the way MemPalace does, one
every INTERVAL ms, and prints "<event id> <epoch ms after COMMIT>" per event.

Usage: python3 bench/hub_latency_writer.py <palace> <count> <interval_ms>
"""
import os
import sqlite3
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test"))
import hub_writer  # noqa: E402


def main():
    palace, count, interval = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    replica = hub_writer.replica_id(palace)
    conn = sqlite3.connect(os.path.join(palace, "logstream.sqlite3"), timeout=10, isolation_level=None)
    for i in range(count):
        eid = hub_writer.append(conn, replica, {
            "type": "chat.message", "stream": "project/bench", "room": "rooms", "from_agent": "bench-writer",
            "to_agent": "*", "body": "latency probe %d" % i}, [])
        print(eid, int(time.time() * 1000), flush=True)
        time.sleep(interval / 1000.0)
    conn.close()


if __name__ == "__main__":
    main()
