"""The logstream a MemPalace hub server serves (Python 3 stdlib only), for test/hub_server.py.

Written by the project from spec/hub-logstream.md sections 2-6 and from reading upstream's
logstream.py (v4) for its rules and error texts; the storage (schema, ids, HLC, replica.json) is
test/hub_writer.py's. Every public method raises ValueError with upstream's message on bad input,
which the server turns into the tools' `{"error": ...}` results.
"""

import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
from datetime import date, datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hub_writer  # noqa: E402  (the project's MemPalace-style writer: schema, ids, HLC)

STATUSES = ("open", "claimed", "ready", "applied", "blocked", "failed", "superseded")
KINDS = ("patch", "file", "log", "json", "note")
TYPE_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
BASE_COMMIT_RE = re.compile(r"^[0-9a-fA-F]{7,64}$")
ISO_DATE_RE = re.compile(r"^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$")
ISO_UTC_RE = re.compile(r"^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:Z|\+00:00)$")
MAX_BODY = 256 * 1024
MAX_ARTIFACT = 4 * 1024 * 1024
MAX_METADATA = 64 * 1024
MAX_ROUTING = 256
MAX_LIMIT = 500
MAX_WAIT_MS = 300_000
# Upstream's full advisory sentences for doubtful patches (content is stored unchanged).
WARN_NEWLINE = ("patch content does not end with a trailing newline; git apply will reject the final hunk as corrupt"
                " \u2014 store the diff byte-exactly including its trailing newline")
WARN_CRLF = ("patch content contains carriage returns (CRLF line endings); git apply often rejects CRLF diffs"
             " \u2014 generate the diff with LF endings")
TASK_DELIVERY = ("Close the loop through MemPalace: claim the request, then submit a patch "
                 "with mempalace_patch_submit or reply with blocked/failed evidence.")


def routing(value, field, required=True):
    """A short routing field: trimmed, non-empty, at most 256 characters, no control characters."""
    if value is None or value == "":
        if required:
            raise ValueError(f"{field} must be a non-empty string")
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{field} must be a non-empty string")
    value = value.strip()
    if len(value) > MAX_ROUTING:
        raise ValueError(f"{field} exceeds maximum length of {MAX_ROUTING} characters")
    if any(ord(ch) < 0x20 or ch == "\x7f" for ch in value):
        raise ValueError(f"{field} contains control characters")
    return value


def event_type(value):
    if not isinstance(value, str) or not value.strip():
        raise ValueError("type must be a non-empty string")
    value = value.strip()
    if not TYPE_RE.match(value):
        raise ValueError(f"type={value!r} is not a valid event type (lowercase letters, digits, '.', '_', '-'; max 64 chars)")
    return value


def status_value(value):
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value not in STATUSES:
        raise ValueError(f"status={value!r} is not one of: {', '.join(sorted(STATUSES))}")
    return value


def body_text(value, max_bytes=MAX_BODY, field="body"):
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{field} must be a string")
    if "\x00" in value:
        raise ValueError(f"{field} contains null bytes")
    size = len(value.encode("utf-8"))
    if size > max_bytes:
        raise ValueError(f"{field} is {size} bytes; maximum is {max_bytes} bytes")
    return value


def metadata_json(value):
    if value is None:
        return "{}"
    if not isinstance(value, dict):
        raise ValueError("metadata must be an object")
    encoded = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if len(encoded.encode("utf-8")) > MAX_METADATA:
        raise ValueError(f"metadata exceeds maximum size of {MAX_METADATA} bytes")
    return encoded


def iso_temporal(value, field):
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError(f"{field} must be a string")
    value = value.strip()
    try:
        if ISO_DATE_RE.match(value):
            date.fromisoformat(value)
        elif ISO_UTC_RE.match(value):
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        else:
            raise ValueError
    except ValueError:
        raise ValueError(f"{field}={value!r} is not a valid ISO-8601 date or UTC datetime "
                         "(expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)") from None
    return value[:-6] + "Z" if value.endswith("+00:00") else value


def task_text(value, label):
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"task {label} must not be empty")
    return value.strip()


def task_slug(value, fallback="work"):
    slug = re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")
    return slug[:40].rstrip("_") or fallback


class Logstream:
    """One palace's logstream.sqlite3, shared by the server's threads (one connection, one lock)."""

    def __init__(self, palace):
        os.makedirs(palace, mode=0o700, exist_ok=True)
        self.palace = palace
        self.replica_id = hub_writer.replica_id(palace)
        self.conn = sqlite3.connect(os.path.join(palace, "logstream.sqlite3"), timeout=10,
                                    isolation_level=None, check_same_thread=False)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.executescript(hub_writer.SCHEMA)
        self.lock = threading.Lock()

    def close(self):
        with self.lock:
            self.conn.close()

    # ---- envelopes ----

    def _event(self, row):
        try:
            metadata = json.loads(row["metadata_json"])
        except (TypeError, ValueError):
            metadata = {}
        return {
            "id": row["id"], "seq": row["rowid"], "origin_replica": row["origin_replica"], "origin_seq": row["origin_seq"],
            "hlc": row["hlc"], "type": row["type"], "stream": row["stream"], "room": row["room"], "topic": row["topic"],
            "from_agent": row["from_agent"], "to_agent": row["to_agent"], "correlation_id": row["correlation_id"],
            "branch": row["branch"], "base_commit": row["base_commit"], "status": row["status"], "artifact_ids": [],
            "body": row["body"], "created_at": row["created_at"], "metadata": metadata,
        }

    def _with_artifacts(self, events):
        if events:
            by_id = {e["id"]: e for e in events}
            marks = ",".join("?" for _ in by_id)
            for row in self.conn.execute(
                    f"SELECT event_id, artifact_id FROM event_artifacts WHERE event_id IN ({marks}) ORDER BY artifact_id",
                    list(by_id)):
                by_id[row["event_id"]]["artifact_ids"].append(row["artifact_id"])
        return events

    # ---- writes ----

    def append_event(self, type, stream, room, from_agent, to_agent=None, correlation_id=None, branch=None,
                     base_commit=None, status=None, body="", metadata=None, artifact_ids=None, topic=None):
        ev = {
            "type": event_type(type), "stream": routing(stream, "stream"), "room": routing(room, "room"),
            "topic": routing(topic, "topic", False), "from_agent": routing(from_agent, "from_agent"),
            "to_agent": routing(to_agent, "to_agent", False), "correlation_id": routing(correlation_id, "correlation_id", False),
            "branch": routing(branch, "branch", False), "base_commit": routing(base_commit, "base_commit", False),
            "status": status_value(status), "body": body_text(body),
        }
        meta = metadata_json(metadata)
        if artifact_ids is None:
            artifact_ids = []
        if not isinstance(artifact_ids, list) or not all(isinstance(a, str) and a for a in artifact_ids):
            raise ValueError("artifact_ids must be a list of artifact id strings")
        artifact_ids = list(dict.fromkeys(artifact_ids))
        ev["metadata"] = json.loads(meta)
        with self.lock:
            eid = hub_writer.append(self.conn, self.replica_id, ev, artifact_ids)
            row = self.conn.execute("SELECT rowid, * FROM events WHERE id = ?", (eid,)).fetchone()
            event = self._event(row)
        event["artifact_ids"] = artifact_ids
        return event

    def put_artifact(self, kind, content, created_by, metadata=None):
        if not isinstance(kind, str) or kind not in KINDS:
            raise ValueError(f"kind={kind!r} is not one of: {', '.join(sorted(KINDS))}")
        created_by = routing(created_by, "created_by")
        if not isinstance(content, str) or not content:
            raise ValueError("content must be a non-empty string")
        if "\x00" in content:
            raise ValueError("content contains null bytes")
        raw = content.encode("utf-8")
        if len(raw) > MAX_ARTIFACT:
            raise ValueError(f"content is {len(raw)} bytes; maximum is {MAX_ARTIFACT} bytes")
        meta = metadata_json(metadata)
        record = {"id": hub_writer.new_id("art"), "kind": kind, "sha256": hashlib.sha256(raw).hexdigest(),
                  "size_bytes": len(raw), "created_by": created_by, "created_at": hub_writer.now_created_at(),
                  "origin_replica": self.replica_id}
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            self.conn.execute(
                "INSERT INTO artifacts (id, kind, sha256, size_bytes, content, created_by, created_at, metadata_json,"
                " origin_replica) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (record["id"], kind, record["sha256"], len(raw), content, created_by, record["created_at"], meta,
                 self.replica_id))
            self.conn.execute("COMMIT")
        warnings = []
        if kind == "patch" and not content.endswith("\n"):
            warnings.append(WARN_NEWLINE)
        if kind == "patch" and "\r" in content:
            warnings.append(WARN_CRLF)
        if warnings:
            record["warnings"] = warnings
        return record

    def ack_event(self, event_id, from_agent, status=None, body="", topic=None):
        event_id = routing(event_id, "event_id")
        with self.lock:
            target = self.conn.execute("SELECT rowid, * FROM events WHERE id = ?", (event_id,)).fetchone()
        if target is None:
            raise ValueError(f"event {event_id!r} not found")
        return self.append_event(
            type="event.ack", stream=target["stream"], room=target["room"],
            topic=topic if topic is not None else target["topic"], from_agent=from_agent, to_agent=target["from_agent"],
            correlation_id=target["correlation_id"] or target["id"], status=status, body=body,
            metadata={"ack_of": event_id})

    def submit_patch(self, content, from_agent, stream, room="patches", to_agent=None, correlation_id=None,
                     branch=None, base_commit=None, body="", metadata=None, topic=None):
        artifact = self.put_artifact(kind="patch", content=content, created_by=from_agent, metadata=metadata)
        event = self.append_event(
            type="patch.ready", stream=stream, room=room, topic=topic, from_agent=from_agent, to_agent=to_agent,
            correlation_id=correlation_id, branch=branch, base_commit=base_commit, status="ready", body=body,
            metadata=metadata, artifact_ids=[artifact["id"]])
        return {"artifact": artifact, "event": event}

    def create_task(self, project, from_agent, to_agent, goal, branch, base_commit, done):
        project = task_text(project, "project")
        from_agent = task_text(from_agent, "requesting agent")
        to_agent = task_text(to_agent, "destination agent")
        branch = task_text(branch, "branch")
        sha = task_text(base_commit, "base commit")
        if not BASE_COMMIT_RE.match(sha):
            raise ValueError("task base commit must be a hexadecimal Git object id (at least 7 characters), "
                             "not a branch or tag")
        if not isinstance(goal, str) or not goal.strip():
            raise ValueError("task goal must not be empty")
        if not isinstance(done, str) or not done.strip():
            raise ValueError("task definition of done must not be empty")
        correlation_id = f"task_{task_slug(goal)}_{os.urandom(4).hex()}"
        event = self.append_event(
            type="task.request", stream=f"project/{task_slug(project, 'project')}", room="delegation",
            from_agent=from_agent, to_agent=to_agent, correlation_id=correlation_id, branch=branch,
            base_commit=sha.lower(), status="open",
            body=f"Goal:\n{goal}\n\nDefinition of done:\n{done}\n\nDelivery:\n{TASK_DELIVERY}")
        handoff = (f"Open MemPalace task {correlation_id} as {to_agent}. "
                   "Claim it, follow its exact definition of done, and deliver through the logstream.")
        return {"task": event, "handoff": handoff}

    # ---- reads ----

    def get_artifact(self, artifact_id):
        artifact_id = routing(artifact_id, "artifact_id")
        with self.lock:
            row = self.conn.execute("SELECT * FROM artifacts WHERE id = ?", (artifact_id,)).fetchone()
        if row is None:
            return None
        try:
            metadata = json.loads(row["metadata_json"])
        except (TypeError, ValueError):
            metadata = {}
        return {"id": row["id"], "kind": row["kind"], "sha256": row["sha256"], "size_bytes": row["size_bytes"],
                "content": row["content"], "created_by": row["created_by"], "created_at": row["created_at"],
                "origin_replica": row["origin_replica"], "metadata": metadata}

    def list_events(self, stream=None, room=None, topic=None, type=None, to_agent=None, from_agent=None,
                    correlation_id=None, status=None, since_event_id=None, before_event_id=None,
                    since_created_at=None, limit=50, order="asc"):
        equal = [("stream", routing(stream, "stream", False)), ("room", routing(room, "room", False)),
                 ("topic", routing(topic, "topic", False)), ("type", event_type(type) if type not in (None, "") else None),
                 ("from_agent", routing(from_agent, "from_agent", False)),
                 ("correlation_id", routing(correlation_id, "correlation_id", False)), ("status", status_value(status))]
        to_agent = routing(to_agent, "to_agent", False)
        since_event_id = routing(since_event_id, "since_event_id", False)
        before_event_id = routing(before_event_id, "before_event_id", False)
        since_created_at = iso_temporal(since_created_at, "since_created_at")
        order = "asc" if order is None else order.lower().strip() if isinstance(order, str) else order
        if order not in ("asc", "desc"):
            raise ValueError(f"order={order!r} must be 'asc' or 'desc'")
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
            raise ValueError("limit must be a positive integer")
        where = [f"{col} = ?" for col, v in equal if v is not None]
        params = [v for _col, v in equal if v is not None]
        if to_agent is not None:
            where.append("(to_agent = ? OR to_agent = '*')")
            params.append(to_agent)
        if since_created_at is not None:
            where.append("created_at >= ?")
            params.append(since_created_at)
        with self.lock:
            for field, anchor_id, op in (("since_event_id", since_event_id, ">"), ("before_event_id", before_event_id, "<")):
                if anchor_id is not None:
                    anchor = self.conn.execute("SELECT rowid FROM events WHERE id = ?", (anchor_id,)).fetchone()
                    if anchor is None:
                        raise ValueError(f"{field} {anchor_id!r} not found")
                    where.append(f"rowid {op} ?")
                    params.append(anchor["rowid"])
            sql = "SELECT rowid, * FROM events" + (" WHERE " + " AND ".join(where) if where else "")
            sql += f" ORDER BY rowid {'DESC' if order == 'desc' else 'ASC'} LIMIT ?"
            rows = self.conn.execute(sql, params + [min(limit, MAX_LIMIT)]).fetchall()
            return self._with_artifacts([self._event(r) for r in rows])

    def version_vector(self):
        """{origin_replica: highest origin_seq held} (upstream's RFC 004 anti-entropy summary)."""
        with self.lock:
            rows = self.conn.execute("SELECT origin_replica, max(origin_seq) AS top FROM events "
                                     "WHERE origin_replica IS NOT NULL GROUP BY origin_replica").fetchall()
        return {r["origin_replica"]: r["top"] for r in rows}

    def list_ops(self, origin, after_seq=0, limit=500):
        """One origin's events after `after_seq`, in author order (origin_seq), for a pulling peer."""
        if not isinstance(limit, int) or limit < 1:
            raise ValueError("limit must be a positive integer")
        with self.lock:
            rows = self.conn.execute("SELECT rowid, * FROM events WHERE origin_replica = ? AND origin_seq > ? "
                                     "ORDER BY origin_seq LIMIT ?", (origin, after_seq, min(limit, MAX_LIMIT))).fetchall()
            return self._with_artifacts([self._event(r) for r in rows])

    def latest_event_id(self):
        with self.lock:
            row = self.conn.execute("SELECT id FROM events ORDER BY rowid DESC LIMIT 1").fetchone()
        return row["id"] if row else None

    def wait_events(self, timeout_ms=60_000, **filters):
        if not isinstance(timeout_ms, (int, float)) or timeout_ms < 0:
            raise ValueError("timeout_ms must be a non-negative number")
        deadline = time.monotonic() + min(timeout_ms, MAX_WAIT_MS) / 1000.0
        attempt = 0
        while True:
            events = self.list_events(**filters)
            if events:
                return {"timed_out": False, "events": events}
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return {"timed_out": True, "events": []}
            time.sleep(min(min(1.0, 0.25 * (1.5 ** attempt)), remaining))
            attempt += 1
