#!/usr/bin/env python3
"""Stand-in for Dropbox's HTTP API v2, for tests only.

Dropbox cannot run on a test machine, so this small server imitates the part of its documented
protocol that bibread's sync uses, serving the files of a local folder as if they were the
contents of a Dropbox account. It is a test double: nothing here talks to Dropbox.

Endpoints (all POST, all on one base URL; real Dropbox splits them between api.dropboxapi.com
and content.dropboxapi.com):

- /2/files/list_folder            JSON body {"path": "" | "/Sub", "recursive": bool, "limit": n}
- /2/files/list_folder/continue   JSON body {"cursor": "..."}
- /2/files/download               Dropbox-API-Arg header {"path": "/a/b.pdf" | "id:..."}, empty body
- /2/files/upload                 Dropbox-API-Arg header {"path", "mode", "autorename", "strict_conflict",
                                  "content_hash", "mute"}, the file's bytes as the body
- /2/files/create_folder_v2       JSON body {"path": "/a/b", "autorename": bool}
- /2/files/delete_v2              JSON body {"path": "/a/b.txt", "parent_rev": REV (optional)}
- /2/auth/token/revoke            no argument: revokes the access token of the call (and its refresh token)
- /oauth2/token                   form body: grant_type=authorization_code (code, code_verifier, client_id)
                                  or grant_type=refresh_token (refresh_token, client_id)
- GET /oauth2/authorize           client_id, response_type=code, code_challenge, code_challenge_method,
                                  token_access_type: the page Dropbox shows after the user allows the
                                  app without a redirect_uri, with the code to paste (no browser here:
                                  the stand-in allows at once)

Protocol points followed (see Tests/Servers/README.md for the list):
- `Authorization: Bearer TOKEN`; a well-formed wrong token is 401 `invalid_access_token`,
  a missing or malformed header is 400 with a text body, as Dropbox answers.
- RPC endpoints need `Content-Type: application/json`; download refuses a form content type
  (libcurl's default for an empty POST), both 400 with a text body.
- Endpoint errors are 409 with `{"error_summary": "path/not_found/...", "error": {...}}`.
- Paths are case-insensitive; "" is the root and "/" is refused (400), as by Dropbox.
- Listing entries carry `.tag`, name, path_lower, path_display, id, and for files
  client_modified, server_modified, rev, size, is_downloadable, content_hash.
- content_hash: SHA-256 of the concatenated SHA-256 digests of the file's 4 MiB blocks, hex.
- Pagination: `limit` (1...2000, default 2000) entries per page, `has_more` and an opaque
  cursor; a cursor from the last page reports later changes (files and folders added or
  modified, `deleted` entries for removed paths) on /2/files/list_folder/continue.
- Download answers the file bytes with `Dropbox-API-Result` (the file's metadata, JSON with
  non-ASCII escaped) and honours `Range` (206, `Content-Range`).
- Upload (`Content-Type: application/octet-stream`) answers the new file's metadata (JSON). Its
  `mode` (WriteMode) is "add" (the default), "overwrite" or {".tag": "update", "update": REV}:
  add refuses an existing file with other contents, update one whose rev is not REV, both with
  409 `path/conflict/file/...` (a folder in the way: `path/conflict/folder/...`); with
  `strict_conflict` update also refuses when the file is gone. With `autorename` a conflict is
  written beside it instead ("name (1).ext" for add, "name (conflicted copy).ext" for update).
  A `content_hash` that does not match the body is 409 `content_hash_mismatch/...`. A body cut
  short (the client gone) writes nothing; a whole one replaces the file atomically.
- create_folder_v2 answers {"metadata": folder metadata} and makes missing parents; something
  in the way is 409 `path/conflict/folder/...` (a folder), `path/conflict/file/...` (a file) or
  `path/conflict/file_ancestor/...` (a file where a parent should be); with `autorename` a
  conflict makes "name (1)" instead.
- delete_v2 answers {"metadata": the removed entry's metadata} (a folder goes with its
  contents); nothing there is 409 `path_lookup/not_found/...`. With `parent_rev` (9 or more
  hex digits, else 400) only a file whose rev it is goes: a folder is `path_lookup/not_file/...`
  and another rev `path_lookup/not_found/...` (Dropbox documents `parent_rev` but not the error
  a stale one gets; this is the stand-in's choice, and bibread checks either way).

OAuth (see Tests/Servers/README.md): PKCE is checked (S256: base64url without padding of the
SHA-256 of the verifier must be the challenge given at /oauth2/authorize; plain: equal), codes
are single-use, errors are 400 {"error": "invalid_grant", "error_description": ...}. Access
tokens it issues expire after --token-lifetime seconds (401 `expired_access_token`); the fixed
--token never expires. Test-only controls (neither logged nor counted): POST /__expire_tokens
{"after_requests": n} (after n more API calls, every access token issued by then expires),
POST /__revoke_all (as if the user removed the app at dropbox.com), GET /__issued (the tokens
issued, and how many refresh grants were answered).

Run: python3 -u dropbox_standin.py --root DIR --token TOKEN [--app-key KEY] [--token-lifetime S]
     [--port 0] [--ready-file F] [--request-log F] [--parent-pid PID]
Binds 127.0.0.1 only. With --port 0 the kernel picks the port, written to --ready-file.
"""

import argparse
import base64
import datetime
import hashlib
import json
import os
import re
import secrets
import shutil
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

BLOCK_SIZE = 4 * 1024 * 1024
DEFAULT_LIMIT = 2000


def content_hash(path):
    """Dropbox's content hash: SHA-256 over the SHA-256 digests of each 4 MiB block."""
    overall = hashlib.sha256()
    with open(path, "rb") as handle:
        while True:
            block = handle.read(BLOCK_SIZE)
            if not block:
                break
            overall.update(hashlib.sha256(block).digest())
    return overall.hexdigest()


def dropbox_time(seconds):
    return datetime.datetime.fromtimestamp(int(seconds), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Account:
    """The local folder seen as a Dropbox account."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.lock = threading.Lock()
        self.hash_cache = {}
        self.listings = {}  # listing id -> {"path", "recursive", "limit", "entries", "state"}
        self.write_lock = threading.Lock()  # one upload's check and write at a time

    # Paths -------------------------------------------------------------------------------

    def resolve(self, dropbox_path):
        """The local path and display path for a Dropbox path ("" is the root), matching each
        component case-insensitively (exact case first); None when missing."""
        if dropbox_path.startswith("id:"):
            return self.resolve_id(dropbox_path)
        if dropbox_path == "":
            return self.root, ""
        local = self.root
        display = ""
        for component in dropbox_path.strip("/").split("/"):
            if component in ("", ".", ".."):
                return None
            if not os.path.isdir(local):
                return None
            names = os.listdir(local)
            if component in names:
                match = component
            else:
                lowered = [name for name in names if name.lower() == component.lower()]
                if not lowered:
                    return None
                match = sorted(lowered)[0]
            local = os.path.join(local, match)
            display += "/" + match
        return local, display

    def resolve_id(self, file_id):
        for local, display in self.walk(self.root, ""):
            if self.entry_id(display) == file_id:
                return local, display
        return None

    def walk(self, local, display):
        """Every entry below a folder, each folder before its contents, names sorted ignoring case."""
        try:
            names = sorted(os.listdir(local), key=lambda name: (name.lower(), name))
        except OSError:
            return
        for name in names:
            child = os.path.join(local, name)
            child_display = display + "/" + name
            if os.path.isdir(child):
                yield child, child_display
                yield from self.walk(child, child_display)
            elif os.path.isfile(child):
                yield child, child_display

    # Metadata ----------------------------------------------------------------------------

    @staticmethod
    def entry_id(display):
        digest = hashlib.sha256(display.lower().encode("utf-8")).digest()[:16]
        return "id:" + base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def file_hash(self, local, stat):
        key = (local, stat.st_mtime_ns, stat.st_size, stat.st_ino)
        with self.lock:
            cached = self.hash_cache.get(key)
        if cached is None:
            cached = content_hash(local)
            with self.lock:
                self.hash_cache[key] = cached
        return cached

    def metadata(self, local, display):
        name = display.rsplit("/", 1)[-1]
        if os.path.isdir(local):
            return {".tag": "folder", "name": name, "path_lower": display.lower(),
                    "path_display": display, "id": self.entry_id(display)}
        stat = os.stat(local)
        digest = self.file_hash(local, stat)
        rev = hashlib.sha256(f"{display.lower()}|{stat.st_mtime_ns}|{stat.st_size}|{digest}".encode()).hexdigest()[:16]
        modified = dropbox_time(stat.st_mtime)
        return {".tag": "file", "name": name, "path_lower": display.lower(), "path_display": display,
                "id": self.entry_id(display), "client_modified": modified, "server_modified": modified,
                "rev": rev, "size": stat.st_size, "is_downloadable": True, "content_hash": digest}

    def listing_entries(self, local, display, recursive):
        entries = []
        if recursive:
            if display != "":
                entries.append(self.metadata(local, display))
            for child, child_display in self.walk(local, display):
                entries.append(self.metadata(child, child_display))
        else:
            for name in sorted(os.listdir(local), key=lambda name: (name.lower(), name)):
                child = os.path.join(local, name)
                if os.path.isdir(child) or os.path.isfile(child):
                    entries.append(self.metadata(child, display + "/" + name))
        return entries

    @staticmethod
    def state_of(entries):
        return {entry["path_lower"]: (entry[".tag"], entry.get("rev"), entry["path_display"]) for entry in entries}

    # Listings and cursors ----------------------------------------------------------------

    def new_listing(self, path, recursive, limit, entries):
        listing_id = uuid.uuid4().hex
        with self.lock:
            self.listings[listing_id] = {"path": path, "recursive": recursive, "limit": limit,
                                         "entries": entries, "state": self.state_of(entries)}
        return listing_id

    def page(self, listing_id, offset):
        with self.lock:
            listing = self.listings[listing_id]
        entries = listing["entries"][offset:offset + listing["limit"]]
        end = offset + len(entries)
        has_more = end < len(listing["entries"])
        cursor = encode_cursor(listing_id, end)
        return {"entries": entries, "cursor": cursor, "has_more": has_more}

    def changes_since(self, listing_id):
        """A new listing holding what changed since the complete listing `listing_id`."""
        with self.lock:
            old = self.listings[listing_id]
        resolved = self.resolve(old["path"])
        if resolved is None or not os.path.isdir(resolved[0]):
            current = []
        else:
            current = self.listing_entries(resolved[0], resolved[1], old["recursive"])
        new_state = self.state_of(current)
        deleted = set(path for path in old["state"] if path not in new_state)
        changes = []
        for path in sorted(deleted):
            if any(path.startswith(gone + "/") for gone in deleted):
                continue  # a deleted folder's entry covers its contents
            display = old["state"][path][2]
            changes.append({".tag": "deleted", "name": display.rsplit("/", 1)[-1], "path_lower": path,
                            "path_display": display})
        for entry in current:
            if old["state"].get(entry["path_lower"], (None, None, None))[:2] != (entry[".tag"], entry.get("rev")):
                changes.append(entry)
        listing_id = uuid.uuid4().hex
        with self.lock:
            self.listings[listing_id] = {"path": old["path"], "recursive": old["recursive"], "limit": old["limit"],
                                         "entries": changes, "state": new_state}
        return listing_id

    def listing_exists(self, listing_id):
        with self.lock:
            return listing_id in self.listings

    def listing_length(self, listing_id):
        with self.lock:
            return len(self.listings[listing_id]["entries"])


class OAuth:
    """The app's authorizations: codes given at /oauth2/authorize, refresh tokens, access tokens."""

    SCOPES = "files.content.read files.content.write files.metadata.read"

    def __init__(self, app_key, lifetime):
        self.app_key = app_key
        self.lifetime = lifetime
        self.lock = threading.Lock()
        self.codes = {}     # code -> {"challenge", "method", "offline"}
        self.refresh = {}   # refresh token -> {"revoked": bool}
        self.access = {}    # access token -> {"refresh": token or None, "expires": time, "calls_left": n or None, "revoked"}
        self.refresh_grants = 0
        self.expire_countdown = None  # calls answered before every token issued so far expires

    def new_code(self, challenge, method, offline):
        code = secrets.token_urlsafe(32)
        with self.lock:
            self.codes[code] = {"challenge": challenge, "method": method, "offline": offline}
        return code

    def new_access(self, refresh):
        token = "sl." + secrets.token_urlsafe(48)
        with self.lock:
            self.access[token] = {"refresh": refresh, "expires": time.time() + self.lifetime, "revoked": False}
        return token

    def exchange_code(self, code, verifier):
        """The token answer for a code and its verifier; an OAuthError when refused."""
        with self.lock:
            grant = self.codes.pop(code, None)  # single use, whatever the outcome
        if grant is None:
            raise OAuthError("invalid_grant", "code doesn't exist or has expired")
        if not isinstance(verifier, str) or not re.fullmatch(r"[A-Za-z0-9._~-]{43,128}", verifier):
            raise OAuthError("invalid_request", "invalid code_verifier")
        if grant["method"] == "S256":
            derived = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).decode("ascii").rstrip("=")
        else:
            derived = verifier
        if derived != grant["challenge"]:
            raise OAuthError("invalid_grant", "invalid code verifier")
        answer = {"token_type": "bearer", "expires_in": self.lifetime, "scope": self.SCOPES,
                  "account_id": "dbid:AAD-standin-account", "uid": "12345"}
        refresh = None
        if grant["offline"]:
            refresh = secrets.token_urlsafe(48)
            with self.lock:
                self.refresh[refresh] = {"revoked": False}
            answer["refresh_token"] = refresh
        answer["access_token"] = self.new_access(refresh)
        return answer

    def refresh_access(self, refresh):
        with self.lock:
            known = self.refresh.get(refresh)
            self.refresh_grants += 1
        if known is None or known["revoked"]:
            raise OAuthError("invalid_grant", "refresh token is invalid or revoked")
        return {"access_token": self.new_access(refresh), "token_type": "bearer", "expires_in": self.lifetime}

    def check(self, token):
        """None when `token` may call the API now, else the error tag (and counts the call)."""
        with self.lock:
            if self.expire_countdown is not None:
                if self.expire_countdown == 0:
                    for issued in self.access.values():
                        issued["expires"] = 0
                    self.expire_countdown = None
                else:
                    self.expire_countdown -= 1
            access = self.access.get(token)
            if access is None or access["revoked"]:
                return "invalid_access_token"
            if time.time() >= access["expires"]:
                return "expired_access_token"
            return None

    def revoke(self, token):
        """Revokes an access token and, as Dropbox does, its refresh token and that token's other access tokens."""
        with self.lock:
            refresh = self.access[token]["refresh"]
            if refresh is not None:
                self.refresh[refresh]["revoked"] = True
            for access in self.access.values():
                if access is self.access[token] or (refresh is not None and access["refresh"] == refresh):
                    access["revoked"] = True

    def revoke_all(self):
        with self.lock:
            for grant in self.refresh.values():
                grant["revoked"] = True
            for access in self.access.values():
                access["revoked"] = True

    def expire_after(self, calls):
        """After `calls` more API calls (of any token), every token issued by then expires, as
        when its time is up in the middle of a sync; tokens issued later do not."""
        with self.lock:
            self.expire_countdown = calls

    def issued(self):
        with self.lock:
            return {"access_tokens": list(self.access), "refresh_tokens": list(self.refresh),
                    "refresh_grants": self.refresh_grants}


class OAuthError(Exception):
    def __init__(self, error, description):
        super().__init__(error)
        self.error = error
        self.description = description


def encode_cursor(listing_id, offset):
    raw = json.dumps({"l": listing_id, "o": offset}).encode()
    return "AA" + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor):
    if not isinstance(cursor, str) or not cursor.startswith("AA"):
        return None
    body = cursor[2:]
    try:
        decoded = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        return str(decoded["l"]), int(decoded["o"])
    except (ValueError, KeyError, TypeError):
        return None


PATH_PATTERN = re.compile(r"(?:/.*)?|id:.*|ns:[0-9]+(?:/.*)?", re.DOTALL)


class ApiError(Exception):
    def __init__(self, status, body, content_type):
        super().__init__(status)
        self.status = status
        self.body = body
        self.content_type = content_type


def bad_request(function, message):
    text = f'Error in call to API function "{function}": {message}'
    return ApiError(400, text.encode("utf-8"), "text/plain; charset=utf-8")


def endpoint_error(summary, error):
    body = json.dumps({"error_summary": summary + "/...", "error": error}).encode("utf-8")
    return ApiError(409, body, "application/json")


def path_error(tag):
    return endpoint_error(f"path/{tag}", {".tag": "path", "path": {".tag": tag}})


RPC_CONTENT_TYPES = ("application/json", "application/json; charset=utf-8", "text/plain; charset=dropbox-cors-hack")
DOWNLOAD_REFUSED_CONTENT_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "DropboxStandIn/1.0"

    def version_string(self):
        return self.server_version

    # Plumbing ----------------------------------------------------------------------------

    def log_request_line(self):
        self.server.log_request_line(f"{self.command} {self.path.split('?', 1)[0]}")

    def read_body(self):
        """Reads the whole request body (always, so that a keep-alive connection stays in step);
        notes in `body_cut_short` when the client went away before sending all of it."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        body = self.rfile.read(length) if length > 0 else b""
        self.body_cut_short = len(body) < length
        return body

    def send_bytes(self, status, body, content_type, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, value):
        self.send_bytes(200, json.dumps(value).encode("utf-8"), "application/json")

    def check_authorization(self, function):
        header = self.headers.get("Authorization")
        if header is None:
            raise bad_request(function, 'Must provide HTTP header "Authorization" or URL parameter "authorization".')
        match = re.fullmatch(r"Bearer (\S+)", header.strip())
        if match is None:
            raise bad_request(function, f'Invalid authorization value in HTTP header "Authorization": "{header}".  '
                                        'Expecting "Bearer <oauth2-access-token>".')
        if match.group(1) == self.server.token:
            return
        problem = self.server.oauth.check(match.group(1))
        if problem is not None:
            body = json.dumps({"error_summary": problem + "/...", "error": {".tag": problem}}).encode("utf-8")
            raise ApiError(401, body, "application/json")
        self.access_token = match.group(1)

    def rpc_argument(self, function):
        content_type = (self.headers.get("Content-Type") or "").strip()
        body = self.body
        if content_type.lower() not in RPC_CONTENT_TYPES:
            raise bad_request(function, f'Bad HTTP "Content-Type" header: "{content_type}".  Expecting one of '
                                        '"application/json", "application/json; charset=utf-8", '
                                        '"text/plain; charset=dropbox-cors-hack".')
        try:
            argument = json.loads(body.decode("utf-8")) if body else None
        except (UnicodeDecodeError, ValueError):
            raise bad_request(function, "request body: could not decode input as JSON")
        if not isinstance(argument, dict):
            raise bad_request(function, "request body: expected object, got " + type(argument).__name__)
        return argument

    # Endpoints ---------------------------------------------------------------------------

    def do_POST(self):
        route = self.path.split("?", 1)[0]
        if route.startswith("/__"):
            self.body = self.read_body()
            self.control(route)
            return
        self.log_request_line()
        handlers = {"/2/files/list_folder": self.list_folder,
                    "/2/files/list_folder/continue": self.list_folder_continue,
                    "/2/files/download": self.download,
                    "/2/files/upload": self.upload,
                    "/2/files/create_folder_v2": self.create_folder,
                    "/2/files/delete_v2": self.delete,
                    "/2/auth/token/revoke": self.revoke,
                    "/oauth2/token": self.token}
        handler = handlers.get(route)
        self.body = self.read_body()
        try:
            if handler is None:
                self.send_bytes(404, b"Unknown API function: " + route.encode("utf-8", "replace"),
                                "text/plain; charset=utf-8")
                return
            handler()
        except ApiError as error:
            self.send_bytes(error.status, error.body, error.content_type)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def do_GET(self):
        route = self.path.split("?", 1)[0]
        if route == "/__issued":
            self.send_json(self.server.oauth.issued())
            return
        self.log_request_line()
        if route == "/oauth2/authorize":
            self.authorize()
            return
        self.send_bytes(405, b"Method not allowed; Dropbox's API uses POST.", "text/plain; charset=utf-8")

    # OAuth -------------------------------------------------------------------------------

    def control(self, route):
        """The test-only controls (not Dropbox's): not logged, not counted."""
        oauth = self.server.oauth
        if route == "/__expire_tokens":
            oauth.expire_after(int(json.loads(self.body or b"{}").get("after_requests", 0)))
        elif route == "/__revoke_all":
            oauth.revoke_all()
        else:
            self.send_bytes(404, b"no such control", "text/plain; charset=utf-8")
            return
        self.send_json({})

    def authorize(self):
        """What the user's browser gets once they allowed the app (no redirect_uri: the code is
        shown to be pasted). Dropbox shows its errors as a page too."""
        query = {key: values[0] for key, values in parse_qs(urlsplit(self.path).query).items()}
        oauth = self.server.oauth
        problem = None
        if query.get("client_id") != oauth.app_key:
            problem = "Invalid client_id"
        elif query.get("response_type") != "code":
            problem = "Invalid response_type: the stand-in knows the code flow only"
        elif "redirect_uri" in query:
            problem = "The stand-in shows the code; it does not redirect"
        elif query.get("code_challenge_method", "plain") not in ("S256", "plain"):
            problem = "Invalid code_challenge_method"
        elif not re.fullmatch(r"[A-Za-z0-9._~-]{43,128}", query.get("code_challenge", "")):
            problem = "Invalid code_challenge"
        elif query.get("token_access_type", "legacy") not in ("offline", "online", "legacy"):
            problem = "Invalid token_access_type"
        if problem is not None:
            self.send_bytes(400, f"<html><body><p>{problem}</p></body></html>".encode(), "text/html; charset=utf-8")
            return
        code = oauth.new_code(query["code_challenge"], query.get("code_challenge_method", "plain"),
                              query.get("token_access_type") == "offline")
        page = ("<html><body><h1>Access code generated</h1><p>Enter this code into the app to finish:</p>"
                f'<input id="auth-code" value="{code}" readonly></body></html>')
        self.send_bytes(200, page.encode(), "text/html; charset=utf-8")

    def token(self):
        """/oauth2/token: form-encoded, answers JSON; its errors are 400 {"error", "error_description"}."""
        oauth = self.server.oauth
        try:
            content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            if content_type != "application/x-www-form-urlencoded":
                raise OAuthError("invalid_request", "Content-Type must be application/x-www-form-urlencoded")
            form = {key: values[0] for key, values in parse_qs(self.body.decode("utf-8", "replace")).items()}
            if form.get("client_id") != oauth.app_key:
                raise OAuthError("invalid_client", "Invalid client_id or client_secret")
            grant = form.get("grant_type")
            if grant == "authorization_code":
                if "code_verifier" not in form:
                    raise OAuthError("invalid_request", "No auth function available for given request")
                answer = oauth.exchange_code(form.get("code", ""), form["code_verifier"])
            elif grant == "refresh_token":
                answer = oauth.refresh_access(form.get("refresh_token", ""))
            else:
                raise OAuthError("unsupported_grant_type", f"grant_type must be authorization_code or refresh_token")
        except OAuthError as error:
            body = json.dumps({"error": error.error, "error_description": error.description}).encode("utf-8")
            raise ApiError(400, body, "application/json")
        self.send_json(answer)

    def revoke(self):
        """/2/auth/token/revoke: no argument (an empty body or null); answers null."""
        function = "auth/token/revoke"
        self.access_token = None
        self.check_authorization(function)
        if self.body.strip() not in (b"", b"null"):
            raise bad_request(function, "request body: expected null, got value")
        if self.access_token is not None:
            self.server.oauth.revoke(self.access_token)
        self.send_bytes(200, b"null", "application/json")

    def list_folder(self):
        function = "files/list_folder"
        self.check_authorization(function)
        argument = self.rpc_argument(function)
        path = argument.get("path")
        if not isinstance(path, str):
            raise bad_request(function, 'request body: missing required field "path"')
        if path == "/" or PATH_PATTERN.fullmatch(path) is None:
            raise bad_request(function, f"request body: path: '{path}' did not match pattern "
                                        "'(/(.|[\\r\\n])*)?|id:.*|(ns:[0-9]+(/.*)?)'")
        recursive = bool(argument.get("recursive", False))
        limit = argument.get("limit", DEFAULT_LIMIT)
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 2000:
            raise bad_request(function, f"request body: limit: {limit!r} is not within range [1, 2000]")
        resolved = self.server.account.resolve(path)
        if resolved is None:
            raise path_error("not_found")
        local, display = resolved
        if not os.path.isdir(local):
            raise path_error("not_folder")
        entries = self.server.account.listing_entries(local, display, recursive)
        listing_id = self.server.account.new_listing(path, recursive, limit, entries)
        self.send_json(self.server.account.page(listing_id, 0))

    def list_folder_continue(self):
        function = "files/list_folder/continue"
        self.check_authorization(function)
        argument = self.rpc_argument(function)
        decoded = decode_cursor(argument.get("cursor"))
        if decoded is None:
            raise bad_request(function, 'request body: cursor: Invalid "cursor" parameter')
        listing_id, offset = decoded
        account = self.server.account
        if not account.listing_exists(listing_id):
            raise endpoint_error("reset", {".tag": "reset"})
        if offset >= account.listing_length(listing_id):
            listing_id = account.changes_since(listing_id)
            offset = 0
        self.send_json(account.page(listing_id, offset))

    def download(self):
        function = "files/download"
        self.check_authorization(function)
        content_type = (self.headers.get("Content-Type") or "").strip()
        if content_type.split(";")[0].strip().lower() in DOWNLOAD_REFUSED_CONTENT_TYPES:
            raise bad_request(function, f'Bad HTTP "Content-Type" header: "{content_type}".  Expecting one of '
                                        '"text/plain", "text/plain; charset=utf-8", "application/octet-stream", '
                                        '"application/octet-stream; charset=utf-8".')
        argument, path = self.api_argument(function)
        resolved = self.server.account.resolve(path)
        if resolved is None:
            raise path_error("not_found")
        local, display = resolved
        if os.path.isdir(local):
            raise path_error("not_file")
        metadata = self.server.account.metadata(local, display)
        with open(local, "rb") as handle:
            data = handle.read()
        size = len(data)
        headers = {"Dropbox-API-Result": json.dumps(metadata), "Accept-Ranges": "bytes"}
        byte_range = parse_range(self.headers.get("Range"), size)
        if byte_range == "unsatisfiable":
            headers["Content-Range"] = f"bytes */{size}"
            self.send_bytes(416, b"", "application/octet-stream", headers)
            return
        if byte_range is None:
            self.send_bytes(200, data, "application/octet-stream", headers)
            return
        start, end = byte_range
        headers["Content-Range"] = f"bytes {start}-{end}/{size}"
        self.send_bytes(206, data[start:end + 1], "application/octet-stream", headers)

    def api_argument(self, function):
        """The Dropbox-API-Arg header's object and its "path"."""
        raw = self.headers.get("Dropbox-API-Arg")
        if raw is None:
            raise bad_request(function, 'Must provide HTTP header "Dropbox-API-Arg" or URL parameter "arg".')
        if any(ord(character) > 127 for character in raw):
            raise bad_request(function, 'HTTP header "Dropbox-API-Arg": non-ASCII characters must be escaped (\\uXXXX).')
        try:
            argument = json.loads(raw)
        except ValueError:
            raise bad_request(function, 'HTTP header "Dropbox-API-Arg": could not decode input as JSON')
        path = argument.get("path") if isinstance(argument, dict) else None
        if not isinstance(path, str):
            raise bad_request(function, 'HTTP header "Dropbox-API-Arg": missing required field "path"')
        if PATH_PATTERN.fullmatch(path) is None or path in ("", "/"):
            raise bad_request(function, f"HTTP header \"Dropbox-API-Arg\": path: '{path}' did not match pattern "
                                        "'(/(.|[\\r\\n])*|id:.*)|(rev:[0-9a-f]{9,})|(ns:[0-9]+(/.*)?)'")
        return argument, path

    def upload(self):
        function = "files/upload"
        self.check_authorization(function)
        content_type = (self.headers.get("Content-Type") or "").strip()
        if content_type.split(";")[0].strip().lower() != "application/octet-stream":
            raise bad_request(function, f'Bad HTTP "Content-Type" header: "{content_type}".  Expecting one of '
                                        '"application/octet-stream", "text/plain; charset=dropbox-cors-hack".')
        argument, path = self.api_argument(function)
        if self.body_cut_short:
            self.close_connection = True
            return  # the client is gone: nothing is written, nobody to answer
        mode = argument.get("mode", "add")
        tag = mode if isinstance(mode, str) else mode.get(".tag") if isinstance(mode, dict) else None
        if tag not in ("add", "overwrite", "update") or (tag == "update" and not isinstance(mode.get("update"), str)):
            raise bad_request(function, 'HTTP header "Dropbox-API-Arg": mode: expected "add", "overwrite" or {".tag": "update", "update": rev}')
        expected_hash = argument.get("content_hash")
        if expected_hash is not None and expected_hash != bytes_content_hash(self.body):
            raise endpoint_error("content_hash_mismatch", {".tag": "content_hash_mismatch"})
        if path.startswith("id:") or path.startswith("ns:"):
            raise bad_request(function, "the stand-in uploads to paths only")
        account = self.server.account
        with account.write_lock:
            parent, name = path.rstrip("/").rsplit("/", 1)
            resolved_parent = account.resolve(parent) if parent else (account.root, "")
            if resolved_parent is not None and not os.path.isdir(resolved_parent[0]):
                raise upload_conflict("file_ancestor")
            if resolved_parent is None:
                local_parent = os.path.join(account.root, *parent.strip("/").split("/"))
                display_parent = parent
            else:
                local_parent, display_parent = resolved_parent
            existing = account.resolve(path)
            conflict = None
            if existing is not None and os.path.isdir(existing[0]):
                conflict = "folder"
            elif tag == "add" and existing is not None:
                with open(existing[0], "rb") as handle:
                    if handle.read() != self.body:
                        conflict = "file"
            elif tag == "update":
                if existing is None:
                    conflict = "file" if argument.get("strict_conflict", False) else None
                elif account.metadata(*existing)["rev"] != mode["update"]:
                    conflict = "file"
            if conflict is not None and not argument.get("autorename", False):
                raise upload_conflict(conflict)
            if existing is not None and conflict is None:
                local, display = existing
                if tag == "add":
                    self.send_json(account.metadata(local, display))  # the same contents: nothing to write
                    return
            else:
                stem, dot, extension = name.rpartition(".")
                if conflict is None:
                    chosen = name
                elif tag == "update":
                    chosen = f"{stem} (conflicted copy).{extension}" if dot else f"{name} (conflicted copy)"
                else:
                    number = 1
                    while account.resolve(f"{display_parent}/{stem} ({number}).{extension}" if dot else f"{display_parent}/{name} ({number})"):
                        number += 1
                    chosen = f"{stem} ({number}).{extension}" if dot else f"{name} ({number})"
                local, display = os.path.join(local_parent, chosen), f"{display_parent}/{chosen}"
            write_atomically(local, self.body)
            self.send_json(account.metadata(local, display))

    def rpc_path(self, function, argument):
        """The "path" of an RPC argument that names an entry below the root (not "" or "/")."""
        path = argument.get("path")
        if not isinstance(path, str):
            raise bad_request(function, 'request body: missing required field "path"')
        if PATH_PATTERN.fullmatch(path) is None or path in ("", "/") or path.startswith("id:"):
            raise bad_request(function, f"request body: path: '{path}' did not match pattern "
                                        "'(/(.|[\\r\\n])*)|(ns:[0-9]+(/.*)?)'")
        if path.startswith("ns:"):
            raise bad_request(function, "the stand-in takes paths only")
        return path

    def create_folder(self):
        function = "files/create_folder_v2"
        self.check_authorization(function)
        argument = self.rpc_argument(function)
        path = self.rpc_path(function, argument).rstrip("/")
        account = self.server.account
        with account.write_lock:
            local, display = account.root, ""
            components = path.strip("/").split("/")
            for index, component in enumerate(components):
                if component in ("", ".", ".."):
                    raise endpoint_error("path/malformed_path", {".tag": "path", "path": {".tag": "malformed_path"}})
                resolved = account.resolve(f"{display}/{component}")
                last = index == len(components) - 1
                if resolved is None:
                    local, display = os.path.join(local, component), f"{display}/{component}"
                    os.mkdir(local)
                    continue
                if not last:
                    if not os.path.isdir(resolved[0]):
                        raise write_conflict("path", "file_ancestor")
                    local, display = resolved
                    continue
                if not argument.get("autorename", False):
                    raise write_conflict("path", "folder" if os.path.isdir(resolved[0]) else "file")
                number = 1
                while account.resolve(f"{display}/{component} ({number})") is not None:
                    number += 1
                local, display = os.path.join(local, f"{component} ({number})"), f"{display}/{component} ({number})"
                os.mkdir(local)
            self.send_json({"metadata": account.metadata(local, display)})

    def delete(self):
        function = "files/delete_v2"
        self.check_authorization(function)
        argument = self.rpc_argument(function)
        path = self.rpc_path(function, argument)
        parent_rev = argument.get("parent_rev")
        if parent_rev is not None and (not isinstance(parent_rev, str) or re.fullmatch(r"[0-9a-f]{9,}", parent_rev) is None):
            raise bad_request(function, f"request body: parent_rev: '{parent_rev}' did not match pattern '[0-9a-f]+'")
        account = self.server.account
        with account.write_lock:
            resolved = account.resolve(path)
            if resolved is None:
                raise lookup_error("not_found")
            local, display = resolved
            metadata = account.metadata(local, display)
            if parent_rev is not None:
                if os.path.isdir(local):
                    raise lookup_error("not_file")
                if metadata["rev"] != parent_rev:
                    raise lookup_error("not_found")
            if os.path.isdir(local):
                shutil.rmtree(local)
            else:
                os.unlink(local)
            directory = os.open(os.path.dirname(local), os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
            self.send_json({"metadata": metadata})

    def log_message(self, format, *args):
        sys.stderr.write("dropbox-standin: %s - %s\n" % (self.address_string(), format % args))


def write_conflict(tag, kind):
    """A WriteError conflict of the union member `tag` (create_folder_v2's "path")."""
    return endpoint_error(f"{tag}/conflict/{kind}", {".tag": tag, tag: {".tag": "conflict", "conflict": {".tag": kind}}})


def lookup_error(kind):
    """delete_v2's DeleteError.path_lookup (a LookupError)."""
    return endpoint_error(f"path_lookup/{kind}", {".tag": "path_lookup", "path_lookup": {".tag": kind}})


def upload_conflict(kind):
    return endpoint_error(f"path/conflict/{kind}", {".tag": "path", "reason": {".tag": "conflict", "conflict": {".tag": kind}},
                                                    "upload_session_id": uuid.uuid4().hex})


def bytes_content_hash(data):
    overall = hashlib.sha256()
    for start in range(0, len(data), BLOCK_SIZE):
        overall.update(hashlib.sha256(data[start:start + BLOCK_SIZE]).digest())
    return overall.hexdigest()


def write_atomically(path, data):
    """As Dropbox commits a file: whole or not at all (a temporary file, flushed, renamed)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = os.path.join(os.path.dirname(path), f".standin-upload-{uuid.uuid4().hex}")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


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
        if length == 0:
            return "unsatisfiable"
        return max(0, size - length), size - 1
    start = int(first)
    if start >= size:
        return "unsatisfiable"
    end = size - 1 if last == "" else min(int(last), size - 1)
    if end < start:
        return None
    return start, end


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, account, token, request_log, oauth):
        super().__init__(address, Handler)
        self.account = account
        self.token = token
        self.oauth = oauth
        self.request_log = request_log
        self.log_lock = threading.Lock()

    def log_request_line(self, line):
        if self.request_log is None:
            return
        with self.log_lock:
            with open(self.request_log, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")


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
    parser = argparse.ArgumentParser(description="Stand-in for Dropbox's HTTP API v2, for tests only.")
    parser.add_argument("--root", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--app-key", default="standinappkey01")
    parser.add_argument("--token-lifetime", type=int, default=14400)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ready-file")
    parser.add_argument("--request-log")
    parser.add_argument("--parent-pid", type=int)
    arguments = parser.parse_args()

    if arguments.parent_pid:
        threading.Thread(target=watch_parent, args=(arguments.parent_pid,), daemon=True).start()
    server = Server(("127.0.0.1", arguments.port), Account(arguments.root), arguments.token, arguments.request_log,
                    OAuth(arguments.app_key, arguments.token_lifetime))
    port = server.server_address[1]
    print(f"dropbox-standin: serving {arguments.root} on http://127.0.0.1:{port}", flush=True)
    if arguments.ready_file:
        write_ready_file(arguments.ready_file, port)
    server.serve_forever()


if __name__ == "__main__":
    main()
