#!/usr/bin/env python3
"""An HTTP file server whose failures a test chooses, path by path, at run time. For tests only.

Serves the files under --root for GET and HEAD (single `Range` → 206, `If-Range`,
`If-None-Match` → 304, ETag and Last-Modified), on 127.0.0.1 only, HTTP/1.1 with keep-alive.
A folder is listed by WebDAV `PROPFIND` (Depth 1: the folder and what is directly in it, with
`resourcetype`, `getcontentlength`, `getetag` — the GET's — and `getlastmodified`, as lighttpd
answers; symbolic links are left out), so the server can stand in for a WebDAV remote whose
listings misbehave; GET of a folder is 404. `DELETE` is answered only through a `status` fault
(with "method": "DELETE", e.g. the 412 that a server which checks `If-Match` before looking
for the file sends for a file that is not there); else 404 for nothing there, 405 for a file.

Faults are set with a control request that is not served as a file and not logged:

    POST /__fault   {"path": "/papers/a.pdf", "fault": {"kind": "status", "status": 503}}
    POST /__reset   (clears every fault)

`path` is the decoded URL path, or "*" for every path without a fault of its own. Kinds:

- none                              serve normally (removes the path's fault)
- status       {"status": 503}      answer that status, with a short text body, or with
               {"body": "..."}      this text as the body (as UTF-8, byte for byte),
               {"method": "GET"}    only for that method (others are served normally), and
               {"retry_after": "2"} with a Retry-After header
- truncate     {"bytes": n}         announce the full Content-Length, send n bytes, close
- slow         {"bytes_per_second": n}  send the body at about n bytes a second
- die_after    {"bytes": n}         send headers and n bytes, then the whole process exits
                                    (os._exit), as if the server were killed
- fail_times   {"times": n, "status": 503, "retry_after": "2"}  the first n requests get the
                                    status (and Retry-After when given), then normal
- close_delimited {"bytes": n}      GET answers without Content-Length (HTTP/1.1, `Connection:
                                    close`): the body ends when the server closes; with "bytes",
                                    after the first n bytes (cut short, and nothing says so)
- listing_without_lengths           PROPFIND of this folder leaves out `getcontentlength`
- extra_entries {"hrefs": ["/../x.bib"], "bytes": 10}  a PROPFIND of the folder lists these
                                    hrefs too, exactly as given, as files of that many bytes

A listing (PROPFIND) honours only status, fail_times, listing_without_lengths and extra_entries;
a file request (GET, HEAD) ignores listing_without_lengths and extra_entries.

Faults live in memory: a restarted server starts with none.

Run: python3 -u fault_server.py --root DIR [--port 0] [--ready-file F] [--request-log F]
     [--timed-request-log F] [--parent-pid PID]

--timed-request-log F also logs each request as "SECONDS METHOD /path", SECONDS since the epoch
when it arrived (for tests of how long a client waits between requests).
"""

import argparse
import email.utils
import json
import mimetypes
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 64 * 1024


def parse_range(header, size):
    """(start, end) inclusive for a single `bytes=` range, "unsatisfiable", or None (whole file)."""
    if not header:
        return None
    match = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", header)
    if match is None or (match.group(1) == "" and match.group(2) == ""):
        return None  # several ranges or a malformed header: serve the whole file
    first, last = match.group(1), match.group(2)
    if first == "":
        length = int(last)
        if length == 0 or size == 0:
            return "unsatisfiable"
        return max(0, size - length), size - 1
    start = int(first)
    if start >= size:
        return "unsatisfiable"
    end = size - 1 if last == "" else min(int(last), size - 1)
    if end < start:
        return None
    return start, end


class Faults:
    def __init__(self):
        self.lock = threading.Lock()
        self.by_path = {}

    def set(self, path, fault):
        with self.lock:
            if fault.get("kind", "none") == "none":
                self.by_path.pop(path, None)
            else:
                self.by_path[path] = dict(fault)

    def reset(self):
        with self.lock:
            self.by_path.clear()

    def take(self, path):
        """The fault to apply to one request for `path` (fail_times counts down here)."""
        with self.lock:
            key = path if path in self.by_path else "*"
            fault = self.by_path.get(key)
            if fault is None:
                return None
            if fault["kind"] == "fail_times":
                if fault.get("times", 0) <= 0:
                    return None
                fault["times"] -= 1
                taken = {"kind": "status", "status": fault.get("status", 503)}
                if "retry_after" in fault:
                    taken["retry_after"] = fault["retry_after"]
                return taken
            return dict(fault)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FaultServer/1.0"

    def version_string(self):
        return self.server_version

    def log_message(self, format, *args):
        sys.stderr.write("fault-server: %s - %s\n" % (self.address_string(), format % args))

    def url_path(self):
        return urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)

    def read_body(self):
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        return self.rfile.read(length) if length > 0 else b""

    def send_text(self, status, text, extra=None):
        body = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    # Control -----------------------------------------------------------------------------

    def do_POST(self):
        path = self.url_path()
        body = self.read_body()
        if path == "/__fault":
            try:
                request = json.loads(body.decode("utf-8"))
                self.server.faults.set(str(request["path"]), request["fault"])
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                self.send_text(400, f"bad fault request: {error}\n")
                return
            self.send_text(200, "ok\n")
        elif path == "/__reset":
            self.server.faults.reset()
            self.send_text(200, "ok\n")
        else:
            self.server.log_request_line(f"POST {urllib.parse.urlsplit(self.path).path}")
            self.send_text(405, "method not allowed\n", {"Allow": "GET, HEAD, PROPFIND"})

    # Files -------------------------------------------------------------------------------

    def do_HEAD(self):
        self.serve()

    def start_request(self, exists):
        """Logs the request and takes its fault. Answers a `status` fault (with its Retry-After),
        or 404 when the local path asked for is outside the root or not what `exists` wants,
        and returns None; else returns the fault and the local path."""
        path = self.url_path()
        self.server.log_request_line(f"{self.command} {urllib.parse.urlsplit(self.path).path}")
        fault = self.server.faults.take(path)
        if fault is not None and fault["kind"] == "status" and fault.get("method", self.command) == self.command:
            status = int(fault.get("status", 500))
            extra = {"Retry-After": str(fault["retry_after"])} if "retry_after" in fault else None
            self.send_text(status, fault.get("body", f"fault: status {status}\n"), extra)
            return None
        local = os.path.realpath(os.path.join(self.server.root, path.lstrip("/")))
        if not (local == self.server.root or local.startswith(self.server.root + os.sep)) or not exists(local):
            self.send_text(404, "not found\n")
            return None
        return fault, local

    def do_GET(self):
        self.serve()

    def serve(self):
        fault, local = self.start_request(os.path.isfile) or (None, None)
        if local is None:
            return
        with open(local, "rb") as handle:
            stat = os.fstat(handle.fileno())
            data = handle.read()
        size = len(data)
        etag = '"%x-%x"' % (stat.st_mtime_ns, size)
        last_modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        headers = {"ETag": etag, "Last-Modified": last_modified, "Accept-Ranges": "bytes",
                   "Content-Type": mimetypes.guess_type(local)[0] or "application/octet-stream"}

        if_none_match = self.headers.get("If-None-Match")
        if fault is not None and fault["kind"] == "listing_without_lengths":
            fault = None
        if if_none_match is not None and (if_none_match.strip() == "*" or etag in [tag.strip() for tag in if_none_match.split(",")]):
            self.send_response(304)
            for key in ("ETag", "Last-Modified"):
                self.send_header(key, headers[key])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return

        byte_range = parse_range(self.headers.get("Range"), size)
        if_range = self.headers.get("If-Range")
        if byte_range is not None and if_range is not None and if_range.strip() not in (etag, last_modified):
            byte_range = None  # the client's copy is stale: send the whole file
        if byte_range == "unsatisfiable":
            self.send_text(416, "range not satisfiable\n", {"Content-Range": f"bytes */{size}"})
            return
        if byte_range is None:
            status, body = 200, data
        else:
            start, end = byte_range
            status, body = 206, data[start:end + 1]
            headers["Content-Range"] = f"bytes {start}-{end}/{size}"

        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        if fault is not None and fault["kind"] == "close_delimited":
            # No length: the body is delimited by the end of the connection (RFC 9112, 6.3).
            self.send_header("Connection", "close")
            self.close_connection = True
            if "bytes" in fault:
                body = body[:max(0, int(fault["bytes"]))]
        else:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "HEAD":
            return
        self.send_body(body, fault)

    def do_DELETE(self):
        self.read_body()
        # A `status` fault answers it; else nothing there is 404 (answered by start_request).
        if self.start_request(os.path.lexists) is None:
            return
        self.send_text(405, "method not allowed: DELETE is answered only with a fault\n", {"Allow": "GET, HEAD, PROPFIND"})

    # Listings ----------------------------------------------------------------------------

    def do_PROPFIND(self):
        self.read_body()
        fault, local = self.start_request(os.path.exists) or (None, None)
        if local is None:
            return
        path = self.url_path()
        with_lengths = fault is None or fault["kind"] != "listing_without_lengths"
        href = urllib.parse.quote(path if path.endswith("/") or not os.path.isdir(local) else path + "/")
        responses = [self.propfind_response(href, local, with_lengths)]
        if os.path.isdir(local) and self.headers.get("Depth", "infinity") != "0":
            for name in sorted(os.listdir(local)):
                child = os.path.join(local, name)
                if os.path.islink(child):
                    continue
                responses.append(self.propfind_response(href + urllib.parse.quote(name) + ("/" if os.path.isdir(child) else ""),
                                                        child, with_lengths))
        if fault is not None and fault["kind"] == "extra_entries":
            size = int(fault.get("bytes", 10))
            for extra in fault.get("hrefs", []):
                responses.append("<D:response><D:href>%s</D:href><D:propstat><D:prop><D:resourcetype/>"
                                 "<D:getcontentlength>%d</D:getcontentlength></D:prop>"
                                 "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n" % (xml_escape(extra), size))
        body = ('<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">\n'
                + "".join(responses) + "</D:multistatus>\n").encode("utf-8")
        self.send_response(207)
        self.send_header("Content-Type", 'application/xml; charset="utf-8"')
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    @staticmethod
    def propfind_response(href, local, with_lengths):
        """One <D:response> for a file or folder, with the ETag a GET of it sends."""
        stat = os.stat(local)
        props = "<D:getlastmodified>%s</D:getlastmodified>" % email.utils.formatdate(stat.st_mtime, usegmt=True)
        if os.path.isdir(local):
            props += "<D:resourcetype><D:collection/></D:resourcetype>"
        else:
            props += "<D:resourcetype/><D:getetag>%s</D:getetag>" % ('"%x-%x"' % (stat.st_mtime_ns, stat.st_size))
            if with_lengths:
                props += "<D:getcontentlength>%d</D:getcontentlength>" % stat.st_size
        return ("<D:response><D:href>%s</D:href><D:propstat><D:prop>%s</D:prop>"
                "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>\n" % (xml_escape(href), props))

    def send_body(self, body, fault):
        kind = fault["kind"] if fault else None
        try:
            if kind == "truncate":
                self.wfile.write(body[:max(0, int(fault.get("bytes", 0)))])
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
            elif kind == "die_after":
                self.wfile.write(body[:max(0, int(fault.get("bytes", 0)))])
                self.wfile.flush()
                sys.stderr.write("fault-server: die_after fault, exiting mid-transfer\n")
                sys.stderr.flush()
                os._exit(3)
            elif kind == "close_delimited":
                self.wfile.write(body)
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
            elif kind == "slow":
                rate = max(1, int(fault.get("bytes_per_second", 1)))
                step = max(1, rate // 20)
                for offset in range(0, len(body), step):
                    self.wfile.write(body[offset:offset + step])
                    self.wfile.flush()
                    time.sleep(step / rate)
            else:
                for offset in range(0, len(body), CHUNK):
                    self.wfile.write(body[offset:offset + CHUNK])
        except (BrokenPipeError, ConnectionResetError, OSError):
            self.close_connection = True


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, root, request_log, timed_request_log=None):
        super().__init__(address, Handler)
        self.root = os.path.realpath(root)
        self.faults = Faults()
        self.request_log = request_log
        self.timed_request_log = timed_request_log
        self.log_lock = threading.Lock()

    def log_request_line(self, line):
        arrived = time.time()
        with self.log_lock:
            if self.request_log is not None:
                with open(self.request_log, "a", encoding="utf-8") as handle:
                    handle.write(line + "\n")
            if self.timed_request_log is not None:
                with open(self.timed_request_log, "a", encoding="utf-8") as handle:
                    handle.write(f"{arrived:.3f} {line}\n")


def watch_parent(parent_pid):
    """Exit when the process that started us is gone (a crashed test must not leave us running)."""
    while True:
        if os.getppid() != parent_pid:
            os._exit(0)
        time.sleep(0.5)


def write_ready_file(path, port):
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(f"{port}\n")
    os.replace(temporary, path)


def main():
    parser = argparse.ArgumentParser(description="HTTP file server with faults chosen at run time, for tests.")
    parser.add_argument("--root", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ready-file")
    parser.add_argument("--request-log")
    parser.add_argument("--timed-request-log")
    parser.add_argument("--parent-pid", type=int)
    arguments = parser.parse_args()

    if arguments.parent_pid:
        threading.Thread(target=watch_parent, args=(arguments.parent_pid,), daemon=True).start()
    server = Server(("127.0.0.1", arguments.port), arguments.root, arguments.request_log, arguments.timed_request_log)
    port = server.server_address[1]
    print(f"fault-server: serving {arguments.root} on http://127.0.0.1:{port}", flush=True)
    if arguments.ready_file:
        write_ready_file(arguments.ready_file, port)
    server.serve_forever()


if __name__ == "__main__":
    main()
