#!/usr/bin/env python3
"""An independent MemPalace-style hub writer for interop tests (Python 3 stdlib only).

Usage: python3 test/hub_writer.py <palace dir> <script.json>

Appends the events (and artifacts) listed in script.json the way MemPalace's logstream.py does:
its own ids (evt_<UTC stamp>_<12 hex>), created_at, replica.json, origin_seq = rowid set in the
same BEGIN IMMEDIATE transaction, HLC strictly greater than max(hlc), canonical metadata JSON
(json.dumps sort_keys, ensure_ascii=False), artifact sha256/size. script.json is a list of steps:
  {"artifact": {"kind", "content", "created_by"}}            -> stores an artifact
  {"event": {...fields..., "artifact_refs": [step indexes]}} -> appends an event
  {"ack": {"target": step index, "from_agent", "status"}}    -> appends an event.ack
Prints a JSON list with the id written by each step.
"""

import hashlib
import json
import os
import secrets
import sqlite3
import sys
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
  id TEXT PRIMARY KEY, type TEXT NOT NULL, stream TEXT NOT NULL, room TEXT NOT NULL,
  topic TEXT, from_agent TEXT NOT NULL, to_agent TEXT, correlation_id TEXT,
  branch TEXT, base_commit TEXT, status TEXT, body TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL, metadata_json TEXT NOT NULL DEFAULT '{}',
  origin_replica TEXT, origin_seq INTEGER, hlc TEXT);
CREATE INDEX IF NOT EXISTS events_stream_created_idx ON events(stream, created_at);
CREATE INDEX IF NOT EXISTS events_correlation_idx ON events(correlation_id, created_at);
CREATE INDEX IF NOT EXISTS events_to_agent_idx ON events(to_agent, created_at);
CREATE INDEX IF NOT EXISTS events_type_idx ON events(type, created_at);
CREATE INDEX IF NOT EXISTS events_topic_created_idx ON events(topic, created_at);
CREATE UNIQUE INDEX IF NOT EXISTS events_origin_seq_idx ON events(origin_replica, origin_seq);
CREATE INDEX IF NOT EXISTS events_hlc_idx ON events(hlc);
CREATE TABLE IF NOT EXISTS artifacts (
  id TEXT PRIMARY KEY, kind TEXT NOT NULL, sha256 TEXT NOT NULL, size_bytes INTEGER NOT NULL,
  content TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL,
  metadata_json TEXT NOT NULL DEFAULT '{}', origin_replica TEXT);
CREATE INDEX IF NOT EXISTS artifacts_sha256_idx ON artifacts(sha256);
CREATE TABLE IF NOT EXISTS event_artifacts (
  event_id TEXT NOT NULL, artifact_id TEXT NOT NULL, PRIMARY KEY (event_id, artifact_id));
CREATE TABLE IF NOT EXISTS read_cursors (
  scope TEXT NOT NULL, agent TEXT NOT NULL, last_seq INTEGER NOT NULL,
  updated_at TEXT NOT NULL, PRIMARY KEY (scope, agent));
"""


def replica_id(palace):
    path = os.path.join(palace, "replica.json")
    if not os.path.exists(path):
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({"replica_id": "rep_" + secrets.token_hex(6)}, fh)
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["replica_id"]


def new_id(prefix):
    return prefix + "_" + time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "_" + secrets.token_hex(6)


def now_created_at():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def next_hlc(conn, replica):
    """Above the newest stamp at most 60 s ahead of now (a clock far ahead is not followed) or our own newest."""
    ms = int(time.time() * 1000)
    row = conn.execute("SELECT max(hlc) FROM events WHERE hlc < ?", ("%013d" % (ms + 60_000 + 1),)).fetchone()
    own = conn.execute("SELECT hlc FROM events WHERE origin_replica = ? ORDER BY origin_seq DESC LIMIT 1", (replica,)).fetchone()
    last = max([h for h in (row[0], own[0] if own else None) if h], default=None)
    if last:
        last_ms, last_counter = int(last[:13]), int(last[14:20], 16)
        if ms <= last_ms:
            return "%013d-%06x-%s" % (last_ms, last_counter + 1, replica)
    return "%013d-%06x-%s" % (ms, 0, replica)


def append(conn, replica, ev, artifact_ids):
    conn.execute("BEGIN IMMEDIATE")
    try:
        for aid in artifact_ids:
            if conn.execute("SELECT 1 FROM artifacts WHERE id = ?", (aid,)).fetchone() is None:
                raise ValueError("artifact_ids references unknown artifact %r" % aid)
        eid = new_id("evt")
        meta = json.dumps(ev.get("metadata") or {}, ensure_ascii=False, sort_keys=True)
        cur = conn.execute(
            "INSERT INTO events (id, type, stream, room, topic, from_agent, to_agent, correlation_id, branch,"
            " base_commit, status, body, created_at, metadata_json, origin_replica, hlc)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (eid, ev["type"], ev["stream"], ev["room"], ev.get("topic"), ev["from_agent"], ev.get("to_agent"),
             ev.get("correlation_id"), ev.get("branch"), ev.get("base_commit"), ev.get("status"),
             ev.get("body", ""), now_created_at(), meta, replica, next_hlc(conn, replica)))
        conn.execute("UPDATE events SET origin_seq = rowid WHERE rowid = ?", (cur.lastrowid,))
        for aid in artifact_ids:
            conn.execute("INSERT INTO event_artifacts (event_id, artifact_id) VALUES (?, ?)", (eid, aid))
        conn.execute("COMMIT")
        return eid
    except Exception:
        conn.execute("ROLLBACK")
        raise


def main():
    palace, script = sys.argv[1], sys.argv[2]
    os.makedirs(palace, mode=0o700, exist_ok=True)
    replica = replica_id(palace)
    conn = sqlite3.connect(os.path.join(palace, "logstream.sqlite3"), timeout=10, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(SCHEMA)
    with open(script, encoding="utf-8") as fh:
        steps = json.load(fh)
    written = []
    for step in steps:
        if "artifact" in step:
            a = step["artifact"]
            aid = new_id("art")
            data = a["content"].encode("utf-8")
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(
                "INSERT INTO artifacts (id, kind, sha256, size_bytes, content, created_by, created_at, metadata_json,"
                " origin_replica) VALUES (?, ?, ?, ?, ?, ?, ?, '{}', ?)",
                (aid, a["kind"], hashlib.sha256(data).hexdigest(), len(data), a["content"], a["created_by"],
                 now_created_at(), replica))
            conn.execute("COMMIT")
            written.append(aid)
        elif "event" in step:
            ev = dict(step["event"])
            refs = [written[i] for i in ev.pop("artifact_refs", [])]
            written.append(append(conn, replica, ev, refs))
        elif "ack" in step:
            a = step["ack"]
            target = conn.execute("SELECT * FROM events WHERE id = ?", (written[a["target"]],)).fetchone()
            cols = [d[0] for d in conn.execute("SELECT * FROM events LIMIT 0").description]
            t = dict(zip(cols, target))
            written.append(append(conn, replica, {
                "type": "event.ack", "stream": t["stream"], "room": t["room"], "topic": t["topic"],
                "from_agent": a["from_agent"], "to_agent": t["from_agent"],
                "correlation_id": t["correlation_id"] or t["id"], "status": a.get("status"),
                "body": a.get("body", ""), "metadata": {"ack_of": t["id"]}}, []))
    conn.close()
    print(json.dumps(written))


if __name__ == "__main__":
    main()
