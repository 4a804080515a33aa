#!/usr/bin/env python3
"""A stand-in for `mempalace serve` (a MemPalace hub server), Python 3 stdlib only, for tests.

Usage: python3 test/hub_server.py --palace DIR [--host 127.0.0.1] [--port 0] [--token T | --token-file F]
                                  [--read-only] [--max-clients N] [--legacy] [--ping-seconds S]

Serves one palace's real logstream.sqlite3 (test/hub_logstream.py) with upstream's wire format. It
follows these upstream MemPalace files (github.com/MemPalace/mempalace), written by the project
from reading them, no code copied:
  mempalace/mcp_server/http.py        @ 0b36d963  routes, Host/Origin/bearer policy, 16 MiB request
                                                  cap, SSE limits (8 clients, 500 per batch, 15 s
                                                  ping, 0.3 s + 0-0.4 s poll), /sync routes
  mempalace/mcp_server/protocol.py    @ 83ac0404  handle_request: envelopes, -32600/-32601/-32602/
                                                  -32003/-32000 texts, argument whitelist and
                                                  integer coercion, results as indent=2 JSON text
                                                  with no size cap (the 50,000-character
                                                  _fit_response of older releases is gone: a list
                                                  of 26 large events comes back whole)
  mempalace/mcp_server/tools_coord.py @ 9a2f8b77  the logstream tools: `writer` filters authors on
                                                  list/wait, `from_agent` there is the caller (a
                                                  note says so), task_create, artifact_put/get
  mempalace/hlc.py                    @ 02ffc398  stamps (see test/hub_writer.py)
Routes:
  GET  /healthz            no auth, "ok\\n"
  GET  /statusz            bearer; server/palace/writer/requests/clients JSON
  POST /mcp                bearer; JSON-RPC 2.0: initialize, ping, tools/list, tools/call of the
                           eight logstream tools; results {"content":[{"type":"text","text":"<JSON>"}]}
  GET  /logstream/stream   bearer; SSE `id:`/`event: logstream`/`data:` frames, `: ping` comments,
                           cursor from `since_event_id` or `Last-Event-ID`, 503 + Retry-After when full
  GET  /sync/version_vector, /sync/ops?origin=&after=&limit=, /sync/artifact?id=   bearer; RFC 004 pulls
`--legacy` behaves like an older hub: list/wait have no `writer` argument (unknown arguments are
-32602) and `from_agent` filters by author. `--ping-seconds` shortens upstream's 15 s heartbeat
(tests only). Prints {"url", "port", "pid"} as one JSON line once listening; SIGTERM stops it.
"""

import argparse
import hashlib
import hmac
import json
import os
import random
import signal
import sys
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hub_logstream import Logstream  # noqa: E402

VERSION = "3.9.0"
PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
MAX_REQUEST_BYTES = 16 * 1024 * 1024
SSE_BATCH = 500
SSE_POLL_BASE_S = 0.3
SSE_POLL_JITTER_S = 0.4
WRITE_TOOLS = {"mempalace_event_append", "mempalace_task_create", "mempalace_event_ack", "mempalace_artifact_put",
               "mempalace_patch_submit"}
FROM_AGENT_NOTE = ("from_agent is your identity and does not filter event_list/event_wait. "
                   "Filter by who wrote an event with writer=<agent>; for your inbox use to_agent=<you>.")


def props(**kinds):
    return {name: {"type": kind} for name, kind in kinds.items()}


FILTERS = props(stream="string", room="string", topic="string", type="string", to_agent="string", from_agent="string",
                correlation_id="string", status="string", since_event_id="string", since_created_at="string")


def tool_schemas(legacy):
    """The eight logstream tools' input schemas (argument names as upstream declares them)."""
    writer = {} if legacy else props(writer="string")
    routing = props(topic="string", to_agent="string", correlation_id="string", branch="string", base_commit="string",
                    body="string", metadata="object")
    return {
        "mempalace_event_append": ({**props(type="string", stream="string", room="string", from_agent="string",
                                            status="string", artifact_ids="array"), **routing},
                                   ["type", "stream", "room", "from_agent"]),
        "mempalace_task_create": (props(project="string", from_agent="string", to_agent="string", goal="string",
                                        branch="string", base_commit="string", done="string"),
                                  ["project", "from_agent", "to_agent", "goal", "branch", "base_commit", "done"]),
        "mempalace_event_list": ({**FILTERS, **props(before_event_id="string", limit="integer", order="string",
                                                     preview="boolean"), **writer}, []),
        "mempalace_event_wait": ({**FILTERS, **props(timeout_ms="integer", limit="integer"), **writer}, []),
        "mempalace_event_ack": (props(event_id="string", from_agent="string", status="string", body="string",
                                      topic="string"), ["event_id", "from_agent"]),
        "mempalace_artifact_put": (props(kind="string", content="string", created_by="string", metadata="object"),
                                   ["kind", "content", "created_by"]),
        "mempalace_artifact_get": (props(artifact_id="string"), ["artifact_id"]),
        "mempalace_patch_submit": ({**props(content="string", from_agent="string", stream="string", room="string"),
                                    **{k: v for k, v in routing.items()}}, ["content", "from_agent", "stream"]),
    }


def preview(event):
    body = event.get("body") or ""
    if len(body) <= 200:
        return event
    return {**event, "body": body[:200], "body_truncated": True, "body_length": len(body)}


class Tools:
    """The logstream tools' handlers (upstream result shapes: errors are results, not JSON-RPC errors)."""

    def __init__(self, ls, legacy):
        self.ls = ls
        self.legacy = legacy

    def _write(self, key, fn):
        try:
            return {"success": True, key: fn()} if key else {"success": True, **fn()}
        except ValueError as exc:
            return {"success": False, "error": str(exc)}

    def mempalace_event_append(self, **a):
        return self._write("event", lambda: self.ls.append_event(**a))

    def mempalace_task_create(self, **a):
        return self._write(None, lambda: self.ls.create_task(**a))

    def mempalace_event_ack(self, **a):
        return self._write("event", lambda: self.ls.ack_event(**a))

    def mempalace_artifact_put(self, **a):
        return self._write("artifact", lambda: self.ls.put_artifact(**a))

    def mempalace_patch_submit(self, **a):
        return self._write(None, lambda: self.ls.submit_patch(**a))

    def mempalace_artifact_get(self, artifact_id):
        try:
            artifact = self.ls.get_artifact(artifact_id)
        except ValueError as exc:
            return {"error": str(exc)}
        return {"artifact": artifact} if artifact else {"error": f"artifact {artifact_id!r} not found"}

    def _author(self, a):
        """Newer hubs filter authors by `writer` (from_agent is the caller); older ones by from_agent."""
        if self.legacy:
            return a, False
        writer = a.pop("writer", None)
        caller = a.pop("from_agent", None)
        return {**a, "from_agent": writer}, bool(caller and not writer)

    def mempalace_event_list(self, preview_=False, **a):
        a, note = self._author(a)
        order = a.pop("order", None)
        if order is None and not self.legacy:
            order = "asc" if a.get("since_event_id") else "desc"
        try:
            events = self.ls.list_events(order=order, **a)
        except ValueError as exc:
            return {"error": str(exc)}
        if preview_:
            events = [preview(e) for e in events]
        out = {"events": events, "count": len(events)}
        if note:
            out["note"] = FROM_AGENT_NOTE
        return out

    def mempalace_event_wait(self, timeout_ms=60000, **a):
        a, note = self._author(a)
        try:
            out = self.ls.wait_events(timeout_ms=timeout_ms, **a)
        except ValueError as exc:
            return {"error": str(exc)}
        out["count"] = len(out["events"])
        if note:
            out["note"] = FROM_AGENT_NOTE
        return out


def rpc_error(req_id, code, message, data=None):
    error = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": req_id, "error": error}


class Dispatcher:
    """Upstream's stateless JSON-RPC dispatcher, limited to the protocol methods and the logstream tools."""

    def __init__(self, tools, read_only, legacy):
        self.tools = tools
        self.read_only = read_only
        self.schemas = tool_schemas(legacy)

    def handle(self, request):
        if not isinstance(request, dict):
            return rpc_error(None, -32600, "Invalid Request")
        req_id = request.get("id")
        method = request.get("method") if isinstance(request.get("method"), str) else ""
        params = request.get("params") if isinstance(request.get("params"), dict) else {}
        if method == "initialize":
            wanted = params.get("protocolVersion", PROTOCOL_VERSIONS[-1])
            version = wanted if wanted in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
            return {"jsonrpc": "2.0", "id": req_id, "result": {
                "protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": {"name": "mempalace", "version": VERSION}}}
        if method == "ping":
            return {"jsonrpc": "2.0", "id": req_id, "result": {}}
        if method.startswith("notifications/"):
            return None
        if method == "tools/list":
            # Read-only hides the refused tools (dispatch refuses them too).
            return {"jsonrpc": "2.0", "id": req_id, "result": {"tools": [
                {"name": n, "description": n, "inputSchema": {"type": "object", "properties": p, "required": r}}
                for n, (p, r) in self.schemas.items() if not (self.read_only and n in WRITE_TOOLS)]}}
        if method == "tools/call":
            return self.call(req_id, params)
        if req_id is None:
            return None
        return rpc_error(req_id, -32601, f"Unknown method: {method}")

    def call(self, req_id, params):
        if "name" not in params:
            return rpc_error(req_id, -32602, "Invalid params: 'name' is required for tools/call")
        name, args = params.get("name"), params.get("arguments") or {}
        if not isinstance(name, str) or not isinstance(args, dict):
            return rpc_error(req_id, -32602, "Invalid params: 'name' must be a string and 'arguments' an object")
        if name not in self.schemas:
            return rpc_error(req_id, -32601, f"Unknown tool: {name}")
        schema, required = self.schemas[name]
        unknown = [k for k in args if k not in schema]
        if unknown:
            word = "parameter" if len(unknown) == 1 else "parameters"
            return rpc_error(req_id, -32602, f"Unknown {word} {', '.join(repr(k) for k in unknown)} for tool {name}")
        args = dict(args)
        for key, value in list(args.items()):
            try:
                if schema[key]["type"] == "integer" and not isinstance(value, int):
                    args[key] = int(value)
            except (TypeError, ValueError):
                return rpc_error(req_id, -32602, f"Invalid value for parameter '{key}'")
        if self.read_only and name in WRITE_TOOLS:
            return rpc_error(req_id, -32003, "Server is in read-only mode; this tool is disabled", {"tool": name})
        missing = [k for k in required if k not in args]
        if missing:
            word = "parameter" if len(missing) == 1 else "parameters"
            return rpc_error(req_id, -32602, f"Missing required {word} {', '.join(repr(k) for k in missing)} for tool {name}")
        if "preview" in args:
            args["preview_"] = args.pop("preview")
        try:
            result = getattr(self.tools, name)(**args)
        except Exception as exc:  # upstream: -32000 "Internal tool error" with the class and message
            return rpc_error(req_id, -32000, "Internal tool error", {"error_class": type(exc).__name__, "message": str(exc)})
        text = json.dumps(result, indent=2, ensure_ascii=False)  # whole: upstream has no response cap
        return {"jsonrpc": "2.0", "id": req_id, "result": {"content": [{"type": "text", "text": text}]}}


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 10
    server: Server

    def log_message(self, fmt, *args):
        pass

    def record(self, status):
        srv = self.server
        with srv.stats_lock:
            srv.request_count += 1
            srv.status_counts[str(status)] = srv.status_counts.get(str(status), 0) + 1

    def send_error(self, code, message=None, explain=None):
        self.record(code)
        super().send_error(code, message, explain)

    def send_bytes(self, status, body, content_type):
        self.record(status)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True

    def send_json(self, status, payload):
        self.send_bytes(status, json.dumps(payload, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

    def rejected(self, require_auth):
        """Upstream's policy: Host pinned on loopback binds, a present Origin must be loopback, bearer token."""
        srv = self.server
        if srv.enforce_host_pin and (self.headers.get("Host") or "").strip().lower() not in srv.allowed_hosts:
            self.send_error(403, "Forbidden")
            return True
        origin = self.headers.get("Origin")
        if origin and (urlparse(origin).hostname or "").lower() not in ("127.0.0.1", "localhost", "::1"):
            self.send_error(403, "Forbidden")
            return True
        if require_auth and srv.token and not hmac.compare_digest(self.headers.get("Authorization", ""), f"Bearer {srv.token}"):
            self.send_error(401, "Unauthorized")
            return True
        return False

    def do_GET(self):
        path = urlparse(self.path).path
        if path == "/healthz":
            if not self.rejected(False):
                self.send_bytes(200, b"ok\n", "text/plain; charset=utf-8")
        elif path == "/statusz":
            if not self.rejected(True):
                self.send_json(200, self.server.status_payload())
        elif path == "/logstream/stream":
            if not self.rejected(True):
                self.stream()
        elif path.startswith("/sync/"):
            if not self.rejected(True) and not self.sync(path):
                self.send_error(404, "Not Found")
        elif not self.rejected(False):
            self.send_error(404, "Not Found")

    def sync(self, path):
        """RFC 004 pull endpoints (upstream `_http_serve_sync`); False when the path is not one."""
        ls, query = self.server.ls, dict(parse_qsl(urlparse(self.path).query))
        try:
            if path == "/sync/version_vector":
                self.send_json(200, {"replica_id": ls.replica_id, "version_vector": ls.version_vector()})
            elif path == "/sync/ops":
                origin = query.get("origin") or ""
                events = ls.list_ops(origin, after_seq=int(query.get("after", "0") or 0),
                                     limit=int(query.get("limit", "500") or 500))
                self.send_json(200, {"origin": origin, "events": events, "count": len(events)})
            elif path == "/sync/artifact":
                artifact_id = query.get("id") or ""
                artifact = ls.get_artifact(artifact_id)
                if artifact is None:
                    self.send_json(404, {"error": f"artifact {artifact_id!r} not found"})
                else:
                    self.send_json(200, {"artifact": artifact})
            else:
                return False
        except (ValueError, TypeError) as exc:
            self.send_json(400, {"error": str(exc)})
        return True

    def do_POST(self):
        if self.rejected(True):
            return
        if urlparse(self.path).path != "/mcp":
            self.send_error(404, "Not Found")
            return
        try:
            length = int(self.headers.get("Content-Length", "0") or "0")
        except ValueError:
            length = 0
        if length < 0 or length > MAX_REQUEST_BYTES:
            self.send_json(413, rpc_error(None, -32600, "Request too large"))
            return
        try:
            request = json.loads(self.rfile.read(length).decode("utf-8"))
        except Exception:
            self.send_json(400, rpc_error(None, -32700, "Parse error"))
            return
        response = self.server.dispatcher.handle(request)
        if response is None:
            self.record(202)
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            return
        self.send_json(200, response)

    def stream(self):
        """The live tail: replay after the cursor, then poll; one frame per event; pings while idle."""
        srv = self.server
        query = dict(parse_qsl(urlparse(self.path).query))
        filters = {k: (query.get(k) or None) for k in
                   ("stream", "room", "topic", "type", "to_agent", "from_agent", "correlation_id", "status")}
        cursor = query.get("since_event_id") or self.headers.get("Last-Event-ID") or None

        def after(cursor_id):
            return srv.ls.list_events(since_event_id=cursor_id, limit=SSE_BATCH, **filters)

        try:
            if cursor is None:
                cursor = srv.ls.latest_event_id()
            if cursor:
                after(cursor)
            else:
                srv.ls.list_events(limit=1, **filters)
        except ValueError as exc:
            self.send_json(400, {"error": str(exc)})
            return
        with srv.sse_lock:
            full = srv.sse_clients >= srv.max_clients
            if not full:
                srv.sse_clients += 1
        if full:
            self.record(503)
            self.send_response(503)
            self.send_header("Retry-After", "5")
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            return
        try:
            self.record(200)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Accel-Buffering", "no")
            self.end_headers()
            self.wfile.flush()
            last_write = time.monotonic()
            while not srv.stopping:
                events = after(cursor) if cursor else srv.ls.list_events(limit=SSE_BATCH, **filters)
                for event in events:
                    frame = f"id: {event['id']}\nevent: logstream\ndata: {json.dumps(event, ensure_ascii=False)}\n\n"
                    self.wfile.write(frame.encode("utf-8"))
                    cursor = event["id"]
                    last_write = time.monotonic()
                if events:
                    self.wfile.flush()
                elif time.monotonic() - last_write >= srv.ping_seconds:
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
                    last_write = time.monotonic()
                time.sleep(SSE_POLL_BASE_S + random.random() * SSE_POLL_JITTER_S)
        except (BrokenPipeError, ConnectionResetError, TimeoutError, OSError):
            pass  # the client went away: the normal end of a stream
        finally:
            with srv.sse_lock:
                srv.sse_clients -= 1
            self.close_connection = True


def build(args):
    token = args.token
    if args.token_file:
        with open(args.token_file, encoding="utf-8") as fh:
            token = fh.read().strip()
    if token is None:
        token = os.environ.get("MEMPALACE_MCP_HTTP_TOKEN", "").strip()
    srv = Server((args.host, args.port), Handler)
    port = srv.server_address[1]
    srv.enforce_host_pin = args.host.strip().lower() in LOOPBACK
    srv.allowed_hosts = {v for n in set(LOOPBACK) | {args.host.lower()} for v in (n, f"{n}:{port}")}
    srv.token = token
    srv.ls = Logstream(args.palace)
    srv.dispatcher = Dispatcher(Tools(srv.ls, args.legacy), args.read_only, args.legacy)
    srv.stats_lock = threading.Lock()
    srv.request_count = 0
    srv.status_counts = {}
    srv.sse_lock = threading.Lock()
    srv.sse_clients = 0
    env_max = os.environ.get("MEMPALACE_SSE_MAX_CLIENTS", "")
    srv.max_clients = args.max_clients if args.max_clients is not None else max(0, int(env_max or 8))
    srv.ping_seconds = args.ping_seconds
    srv.stopping = False
    started, started_mono = datetime.now().isoformat(), time.monotonic()
    palace_hash = hashlib.sha256(os.path.abspath(args.palace).encode("utf-8")).hexdigest()[:16]

    def status_payload():
        with srv.stats_lock:
            requests = {"total": srv.request_count, "by_status": dict(srv.status_counts)}
        return {
            "ok": True,
            "server": {"name": "mempalace", "version": VERSION, "transport": "http", "scheme": "http", "bind_host": args.host,
                       "port": port, "started_at": started, "uptime_seconds": round(time.monotonic() - started_mono, 3)},
            "palace": {"path_hash": palace_hash, "backend": "chroma", "sqlite_integrity": {"ok": None}},
            "writer": {"read_only": args.read_only, "peer_writer_read_only": False, "peer_writer_lock_failed": False},
            "requests": requests,
            "clients": {"active_window_seconds": 120.0, "active": [], "recent": [], "sse": srv.sse_clients},
        }

    srv.status_payload = status_payload
    return srv


def main():
    p = argparse.ArgumentParser(description="stand-in MemPalace hub server (tests)")
    p.add_argument("--palace", required=True)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--token")
    p.add_argument("--token-file")
    p.add_argument("--read-only", action="store_true")
    p.add_argument("--max-clients", type=int)
    p.add_argument("--legacy", action="store_true")
    p.add_argument("--ping-seconds", type=float, default=15.0)
    args = p.parse_args()
    srv = build(args)

    def stop(_sig, _frame):
        srv.stopping = True
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    port = srv.server_address[1]
    print(json.dumps({"url": f"http://{args.host}:{port}", "port": port, "pid": os.getpid()}), flush=True)
    try:
        srv.serve_forever(poll_interval=0.2)
    finally:
        srv.server_close()
        srv.ls.close()


if __name__ == "__main__":
    main()
