#!/usr/bin/env python3
"""Builds the seed corpus of every fuzz target, drawn from ../shared/corpora and Samples/.

usage: scripts/fuzz-corpus.py OUTPUT_DIR [CORPORA_DIR]

Writes OUTPUT_DIR/TARGET/ for each target: pieces of real .bib files (entries, field values,
author lists, group comments, Bdsk-File plists), and reading lists, links, queries and
citations made from their cite keys, plus the hand-written seeds in Fuzz/seeds/TARGET/.
Deterministic: the same corpora give the same seeds.
"""
import base64
import hashlib
import json
import os
import plistlib
import re
import shutil
import struct
import sys
import urllib.parse
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAP = 600  # seeds per target drawn from the corpora (hand-written seeds come on top)


def bib_files(corpora):
    paths = [os.path.join(ROOT, "Samples", "library.bib")]
    for folder, _, names in os.walk(os.path.join(corpora, "bib")):
        paths += [os.path.join(folder, name) for name in names if name.endswith((".bib", ".bibtex"))]
    return sorted(paths)


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


def entries_of(data):
    """Splits a .bib file at lines that start with @."""
    starts = [m.start() for m in re.finditer(rb"(?m)^[ \t]*@", data)]
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)])]


def braced_value(data, start):
    """The text inside the braces that open at data[start], or None."""
    depth = 0
    for index in range(start, min(len(data), start + 20000)):
        if data[index] == ord("{"):
            depth += 1
        elif data[index] == ord("}"):
            depth -= 1
            if depth == 0:
                return data[start + 1:index]
    return None


def field_values(data, names):
    pattern = rb"(?im)^\s*(?:" + b"|".join(names) + rb")\s*=\s*\{"
    for match in re.finditer(pattern, data):
        value = braced_value(data, match.end() - 1)
        if value:
            yield value


def comments(data, prefixes):
    for match in re.finditer(rb"@comment\s*\{", data, re.IGNORECASE):
        body = braced_value(data, match.end() - 1)
        if body is None:
            continue
        for prefix in prefixes:
            if body.startswith(prefix):
                yield body[len(prefix):].rstrip(b"}").strip()


def cite_keys(data):
    return [m.group(1).decode("utf-8", "replace") for m in re.finditer(rb"@\w+\s*\{\s*([^,\s{}]+)\s*,", data)]


def pick(items, cap=CAP):
    """At most cap distinct items, chosen by hash so the choice is stable and spread out."""
    unique = {hashlib.sha1(item).hexdigest(): item for item in items if item}
    return [unique[key] for key in sorted(unique)[:cap]]


def bookmark_tree(keys, depth, with_notes):
    children = []
    for index, key in enumerate(keys[:6]):
        reference = {"CiteKey": key, "Page": index + 1}
        if index % 2:
            reference["LastPage"] = index + 3
        if index % 3 == 0:
            reference["Library"] = "library.bib"
        bookmark = {"Class": "Bookmark", "Name": f"{key} p. {index + 1}", "Reference": reference}
        if with_notes and index % 2 == 0:
            bookmark["Notes"] = [f"note on {key}"]
        children.append(bookmark)
    children.append({"Class": "Notemark", "Name": "Remember", "Text": "read the appendix"})
    if depth > 0:
        children.append(bookmark_tree(keys[6:], depth - 1, with_notes))
    folder = {"Class": "Folder", "Name": f"Folder {depth}", "Children": children}
    return folder


def link_of(plist):
    payload = struct.pack("<I", len(plist)) + zlib.compress(plist, 9)
    return "bibread://bookmarks?" + urllib.parse.quote(base64.b64encode(payload).decode(), safe="")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    output = sys.argv[1]
    corpora = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "..", "shared", "corpora")
    if not os.path.isdir(corpora):
        sys.exit(f"fuzz-corpus: {corpora}: no corpora folder (../shared/corpora)")
    seeds = {name: [] for name in os.listdir(os.path.join(ROOT, "Fuzz", "seeds"))}
    keys = []
    for path in bib_files(corpora):
        data = read_bytes(path)
        chunk = b""
        for entry in entries_of(data):
            if len(chunk) + len(entry) > 4096 and chunk:
                seeds["bibtex"].append(chunk)
                chunk = b""
            chunk += entry
        if chunk:
            seeds["bibtex"].append(chunk[:16384])
        seeds["latex"] += [v for v in field_values(data, [b"title", b"booktitle", b"journal", b"note"]) if b"\\" in v or b"$" in v]
        seeds["names"] += list(field_values(data, [b"author", b"editor"]))
        seeds["bibdesk-groups"] += list(comments(data, [b"BibDesk Static Groups{", b"BibDesk Smart Groups{"]))
        seeds["jabref-groups"] += list(comments(data, [b"jabref-meta: grouping:", b"jabref-meta: groupstree:"]))
        for value in re.findall(rb"(?im)^\s*bdsk-file-\d+\s*=\s*\{([A-Za-z0-9+/=\s]+)\}", data):
            try:
                seeds["bdsk-file"].append(base64.b64decode(b"".join(value.split())))
            except ValueError:
                pass
        keys += cite_keys(data)
    keys = sorted(set(keys), key=lambda k: hashlib.sha1(k.encode()).hexdigest())[:400]
    words = sorted({w.lower() for v in seeds["latex"] for w in re.findall(rb"[A-Za-z]{4,}", v)})[:300]
    names = sorted({n.split(b",")[0].split()[-1].lower() for v in seeds["names"] for n in v.split(b" and ") if n.split(b",")[0].split()})[:300]
    for index in range(0, min(len(words), len(names)), 2):
        word, name = words[index].decode(), names[index].decode("utf-8", "replace")
        seeds["query"].append(f"author:{name} {word} -{words[index + 1].decode() if index + 1 < len(words) else 'x'} year:19{index % 100:02d}..2020".encode())
        seeds["query"].append(f'title:"{word} {name}" OR keywords:{word}'.encode())
    for index in range(0, len(keys) - 12, 12):
        group = keys[index:index + 12]
        tree = bookmark_tree(group, index % 3, index % 2 == 0)
        tree["IncludesPageNotes"] = "YES" if index % 2 == 0 else "NO"
        binary = plistlib.dumps(tree, fmt=plistlib.FMT_BINARY)
        seeds["bookmark-plist"] += [plistlib.dumps(tree, fmt=plistlib.FMT_XML), binary]
        seeds["bookmark-json"].append(json.dumps(tree, indent=index % 3).encode())
        seeds["bookmark-link"].append(link_of(binary).encode())
        seeds["bookmark-link"].append(b"\x01" + struct.pack("<I", len(binary)) + zlib.compress(binary, 9))
        quoted = [urllib.parse.quote(k, safe="") for k in group]
        seeds["reference-link"].append(
            f"bibread://open?refs=[{quoted[0]}:12-14,{quoted[0]}:20],[{quoted[1]}],[{quoted[2]}:5]&library=library&intention={['read', 'study', 'cite', 'listen'][index % 4]}".encode())
        seeds["reference-link"].append(f"{group[3]}:{index + 1}-{index + 4}".encode())
        seeds["citation"].append(f"\\cite[p.~{index + 5}]{{{group[4]},{group[5]}}}".encode())
        seeds["citation"].append(f"[see @{group[6]}, pp. 33-35; @{group[7]}]".encode())
        seeds["citation"].append(f"\\citep[][chap.~2]{{{group[8]}}}".encode())
    if os.path.isdir(output):
        shutil.rmtree(output)
    for target, items in seeds.items():
        folder = os.path.join(output, target)
        os.makedirs(folder)
        chosen = pick(items)
        hand = os.path.join(ROOT, "Fuzz", "seeds", target)
        chosen += [read_bytes(os.path.join(hand, name)) for name in sorted(os.listdir(hand))]
        for item in chosen:
            with open(os.path.join(folder, hashlib.sha1(item).hexdigest()), "wb") as handle:
                handle.write(item)
        print(f"{target}: {len(chosen)} seeds")


if __name__ == "__main__":
    main()
