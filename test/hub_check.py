#!/usr/bin/env python3
"""Validate a MemPalace hub (logstream.sqlite3) the way MemPalace's logstream.py would write it.

Usage: python3 test/hub_check.py <palace dir | logstream.sqlite3>

Checks every event and artifact row against spec/hub-logstream.md sections 2-5 (id and
created_at formats, origin_seq = rowid, HLC shape and order, canonical metadata JSON, routing
fields, status enum, body limits, ack links, artifact sha256/size), prints a JSON summary on
stdout and exits 1 on any violation (2 on usage errors). Python 3 standard library only.
"""

import hashlib
import json
import os
import re
import sqlite3
import sys

EVENT_ID_RE = re.compile(r"^evt_\d{8}T\d{6}_[0-9a-f]{12}$")
ARTIFACT_ID_RE = re.compile(r"^art_\d{8}T\d{6}_[0-9a-f]{12}$")
CREATED_AT_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
HLC_RE = re.compile(r"^(\d{13})-([0-9a-f]{6})-(.+)$")
REPLICA_RE = re.compile(r"^rep_(?:[0-9a-f]{12}|[0-9a-f]{32})$")
TYPE_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
STATUSES = {"open", "claimed", "ready", "applied", "blocked", "failed", "superseded"}
KINDS = {"patch", "file", "log", "json", "note"}
MAX_BODY = 256 * 1024
MAX_META = 64 * 1024
MAX_ARTIFACT = 4 * 1024 * 1024
V4_EVENT_COLUMNS = {"topic", "origin_replica", "origin_seq", "hlc"}


class Checker:
    def __init__(self):
        self.violations = []
        self.count = 0

    def fail(self, where, message):
        self.count += 1
        if len(self.violations) < 200:
            self.violations.append({"where": where, "message": message})


def routing_ok(value, required):
    """The rule of logstream._sanitize_routing, applied to a stored (already sanitised) value."""
    if value is None:
        return not required, "missing"
    if not isinstance(value, str) or value == "" or value != value.strip():
        return False, "not a trimmed non-empty string"
    if len(value) > 256:
        return False, "longer than 256 characters"
    if any(ord(ch) < 0x20 or ch == "\x7f" for ch in value):
        return False, "contains control characters"
    return True, ""


def canonical(text, where, chk):
    """Parse metadata_json and check it is exactly json.dumps(..., ensure_ascii=False, sort_keys=True)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as exc:
        chk.fail(where, f"metadata_json is not JSON: {exc}")
        return None
    if not isinstance(value, dict):
        chk.fail(where, "metadata_json is not an object")
        return None
    if json.dumps(value, ensure_ascii=False, sort_keys=True) != text:
        chk.fail(where, f"metadata_json is not canonical: {text[:120]!r}")
    if len(text.encode("utf-8")) > MAX_META:
        chk.fail(where, "metadata_json exceeds 64 KiB")
    return value


def check(path):
    palace = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    db_file = os.path.join(path, "logstream.sqlite3") if os.path.isdir(path) else path
    chk = Checker()
    summary = {"file": db_file, "replica_id": None, "events": 0, "artifacts": 0, "acks": 0,
               "legacy_rows": 0, "types": {}}

    local = None
    replica_file = os.path.join(palace, "replica.json")
    try:
        with open(replica_file, encoding="utf-8") as handle:
            local = json.load(handle).get("replica_id")
        if not isinstance(local, str) or not REPLICA_RE.match(local):
            chk.fail("replica.json", f"invalid replica_id {local!r}")
            local = None
    except FileNotFoundError:
        chk.fail("replica.json", "missing")
    except (OSError, ValueError, AttributeError) as exc:
        chk.fail("replica.json", f"unreadable: {exc}")
    summary["replica_id"] = local

    conn = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True, timeout=10)
    conn.row_factory = sqlite3.Row
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    if mode.lower() != "wal":
        chk.fail("pragma", f"journal_mode is {mode}, expected wal")
    columns = {r["name"] for r in conn.execute("PRAGMA table_info(events)")}
    missing = V4_EVENT_COLUMNS - columns
    if missing:
        chk.fail("schema", f"events lacks v4 columns {sorted(missing)}")
    tables = {r["name"] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    for table in ("events", "artifacts", "event_artifacts", "read_cursors"):
        if table not in tables:
            chk.fail("schema", f"missing table {table}")

    by_id = {}
    max_hlc = None
    acks = []
    for row in conn.execute("SELECT rowid, * FROM events ORDER BY rowid"):
        summary["events"] += 1
        ev = dict(row)
        where = f"event rowid={ev['rowid']} id={ev['id']}"
        summary["types"][ev["type"]] = summary["types"].get(ev["type"], 0) + 1
        if not isinstance(ev["id"], str) or not EVENT_ID_RE.match(ev["id"]):
            chk.fail(where, "bad event id")
        if not isinstance(ev["created_at"], str) or not CREATED_AT_RE.match(ev["created_at"]):
            chk.fail(where, f"bad created_at {ev['created_at']!r}")
        if not isinstance(ev["type"], str) or not TYPE_RE.match(ev["type"]):
            chk.fail(where, f"bad type {ev['type']!r}")
        for field, required in (("stream", True), ("room", True), ("from_agent", True), ("topic", False),
                                ("to_agent", False), ("correlation_id", False), ("branch", False),
                                ("base_commit", False)):
            ok, why = routing_ok(ev.get(field), required)
            if not ok:
                chk.fail(where, f"{field} {why}")
        if ev["status"] is not None and ev["status"] not in STATUSES:
            chk.fail(where, f"bad status {ev['status']!r}")
        body = ev["body"]
        if not isinstance(body, str) or "\x00" in body or len(body.encode("utf-8")) > MAX_BODY:
            chk.fail(where, "body is not text without NUL within 256 KiB")
        ev["metadata"] = canonical(ev["metadata_json"], where, chk) or {}

        origin = ev.get("origin_replica")
        if origin is None:
            summary["legacy_rows"] += 1
        else:
            if local is not None and origin == local and ev.get("origin_seq") != ev["rowid"]:
                chk.fail(where, f"origin_seq {ev.get('origin_seq')} != rowid {ev['rowid']}")
            if not isinstance(ev.get("origin_seq"), int) or ev["origin_seq"] < 1:
                chk.fail(where, "origin_seq is not a positive integer")
            hlc = ev.get("hlc")
            m = HLC_RE.match(hlc) if isinstance(hlc, str) else None
            if not m:
                chk.fail(where, f"bad hlc {hlc!r}")
            else:
                if m.group(3) != origin:
                    chk.fail(where, "hlc replica differs from origin_replica")
                # A locally authored stamp is strictly greater than every stamp already in the file.
                if (local is None or origin == local) and max_hlc is not None and hlc <= max_hlc:
                    chk.fail(where, f"hlc {hlc} not greater than previous max {max_hlc}")
                if max_hlc is None or hlc > max_hlc:
                    max_hlc = hlc
        if ev["id"] in by_id:
            chk.fail(where, "duplicate id")
        by_id[ev["id"]] = ev
        if ev["type"] == "event.ack":
            acks.append(ev)

    for ack in acks:
        summary["acks"] += 1
        where = f"ack rowid={ack['rowid']} id={ack['id']}"
        target_id = ack["metadata"].get("ack_of")
        target = by_id.get(target_id)
        if target is None:
            chk.fail(where, f"ack_of {target_id!r} does not name an existing event")
            continue
        if target["rowid"] >= ack["rowid"]:
            chk.fail(where, "ack precedes its target")
        if ack["to_agent"] != target["from_agent"]:
            chk.fail(where, f"to_agent {ack['to_agent']!r} != target from_agent {target['from_agent']!r}")
        if (ack["stream"], ack["room"]) != (target["stream"], target["room"]):
            chk.fail(where, "stream/room not copied from the target")
        if ack["correlation_id"] != (target["correlation_id"] or target["id"]):
            chk.fail(where, "correlation_id not copied from the target")

    artifacts = {}
    for row in conn.execute("SELECT * FROM artifacts"):
        summary["artifacts"] += 1
        art = dict(row)
        where = f"artifact id={art['id']}"
        artifacts[art["id"]] = art
        if not isinstance(art["id"], str) or not ARTIFACT_ID_RE.match(art["id"]):
            chk.fail(where, "bad artifact id")
        if art["kind"] not in KINDS:
            chk.fail(where, f"bad kind {art['kind']!r}")
        if not isinstance(art["created_at"], str) or not CREATED_AT_RE.match(art["created_at"]):
            chk.fail(where, "bad created_at")
        content = art["content"]
        if not isinstance(content, str) or not content or "\x00" in content:
            chk.fail(where, "content is not non-empty text without NUL")
            continue
        raw = content.encode("utf-8")
        # Muster's demo keeps one artifact changed after storing on purpose (its patch must be
        # refused); its metadata says so. It is counted, not accepted silently.
        try:
            tampered_on_purpose = json.loads(art["metadata_json"] or "{}").get("demo_tampered") is True
        except (ValueError, AttributeError):
            tampered_on_purpose = False
        if tampered_on_purpose:
            summary["demo_tampered"] = summary.get("demo_tampered", 0) + 1
        elif hashlib.sha256(raw).hexdigest() != art["sha256"]:
            chk.fail(where, "sha256 does not match content")
        if tampered_on_purpose:
            pass
        elif len(raw) != art["size_bytes"] or len(raw) > MAX_ARTIFACT:
            chk.fail(where, "size_bytes does not match content (or exceeds 4 MiB)")
        canonical(art["metadata_json"], where, chk)

    links = 0
    for row in conn.execute("SELECT event_id, artifact_id FROM event_artifacts"):
        links += 1
        if row["event_id"] not in by_id:
            chk.fail("event_artifacts", f"unknown event {row['event_id']}")
        if row["artifact_id"] not in artifacts:
            chk.fail("event_artifacts", f"unknown artifact {row['artifact_id']}")
    summary["event_artifacts"] = links
    conn.close()

    summary["violation_count"] = chk.count
    summary["violations"] = chk.violations
    summary["ok"] = chk.count == 0
    return summary


def main(argv):
    if len(argv) != 2 or not os.path.exists(argv[1]):
        print(json.dumps({"error": "usage: hub_check.py <palace dir | logstream.sqlite3>"}))
        return 2
    summary = check(argv[1])
    print(json.dumps(summary, ensure_ascii=False, sort_keys=True, indent=2))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
