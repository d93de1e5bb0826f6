#!/usr/bin/python3
# -*- coding: utf-8 -*-
"""Generate the bibread sample library: Samples/papers/*.pdf and Samples/library.bib.

How to run (from the repository root, with Debian's system Python, which has
pycairo from the apt package ``python3-cairo``; everything else is stdlib):

    /usr/bin/python3 Samples/make-samples.py

The script only writes inside the directory that contains it (Samples/).
Output is reproducible: running it twice gives byte-identical files, because
the PDF creation/modification dates are fixed, no random numbers are used and
all plists are serialised deterministically.  Check with, for example:

    /usr/bin/python3 Samples/make-samples.py && sha256sum Samples/library.bib Samples/papers/*.pdf > /tmp/a
    /usr/bin/python3 Samples/make-samples.py && sha256sum Samples/library.bib Samples/papers/*.pdf | diff /tmp/a - && echo identical

(Byte-identity holds for a given cairo version; cairo writes its version in
the PDF /Producer field and may lay out objects differently in other versions.)

The prose in the PDFs is original text written for the bibread project; the
fictional "authors" on the PDFs are not the authors of the works cited in
library.bib.  Everything in Samples/ is dedicated to the public domain (CC0 1.0).
"""

import base64
import math
import os
import plistlib
import struct

import cairo

HERE = os.path.dirname(os.path.abspath(__file__))
PAPERS = os.path.join(HERE, "papers")

A4 = (595.276, 841.89)
LETTER = (612.0, 792.0)

FACES = {
    "rm": ("DejaVu Serif", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL),
    "it": ("DejaVu Serif", cairo.FONT_SLANT_ITALIC, cairo.FONT_WEIGHT_NORMAL),
    "bf": ("DejaVu Serif", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD),
    "tt": ("DejaVu Sans Mono", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL),
}

CC0_NOTE = ("Sample document written for the bibread project. "
            "Dedicated to the public domain under CC0 1.0.")


def norm(text):
    """Collapse all runs of white space (including newlines) to one space."""
    return " ".join(text.split())


def roman(n):
    vals = [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


# ---------------------------------------------------------------------------
# Layout: a very small galley/page builder.  Text is measured with cairo's
# toy font API (text_extents) and broken into lines greedily (first fit),
# then justified by spreading the inter-word space.  Pages are collected as
# lists of drawing operations and rendered afterwards, so that a table of
# contents can refer to page numbers that are only known after layout.
# ---------------------------------------------------------------------------

class Page:
    def __init__(self, kind="text", figure=None):
        self.kind = kind          # "text" or "figure" (image-only page)
        self.figure = figure
        self.ops = []
        self.foot_ops = []        # drawn after the body (keeps content order = reading order)
        self.first = False        # first page of the document: no running head


class Layouter:
    def __init__(self, ctx, spec):
        self.ctx = ctx
        self.spec = spec
        self.W, self.H = spec["page"]
        self.left, self.right, self.top, self.bottom_margin = spec["margins"]
        self.bottom = self.H - self.bottom_margin
        self.textw = self.W - self.left - self.right
        self.size = spec["size"]
        self.lead = spec["leading"]
        self.gutter = spec.get("gutter", 18.0)
        self.max_stretch = spec.get("max_stretch", 1.0)
        self.para_gap = spec.get("para_gap", 0.25) * self.lead
        # Vertical offset of each further column.  Text extractors such as
        # pdftotext mistake two columns on one baseline grid for a table and
        # then interleave them line by line; a half-line offset avoids that.
        self.col_offset = spec.get("col_offset", 0.0)
        self.pages = []
        self.pending = []         # figures waiting for the end of the current page
        self.headings = []        # (level, number, title, page index, y)
        self.sec = [0, 0]
        self.frames = []
        self.fi = 0
        self.y = 0.0
        self.frame_top = 0.0
        self.after_heading = True

    # -- measuring ----------------------------------------------------------
    def font(self, key, size):
        fam, slant, weight = FACES[key]
        self.ctx.select_font_face(fam, slant, weight)
        self.ctx.set_font_size(size)

    def tw(self, text, key, size):
        self.font(key, size)
        return self.ctx.text_extents(text).x_advance

    # -- pages and frames -----------------------------------------------------
    def new_page(self, columns=None):
        if self.pages:
            for fig in self.pending:
                self.pages.append(Page("figure", fig))
            self.pending = []
        page = Page()
        self.pages.append(page)
        self.set_frames(self.top, columns if columns else self.spec.get("columns", 1))
        return page

    def set_frames(self, top, columns):
        colw = (self.textw - (columns - 1) * self.gutter) / columns
        self.frames = [(self.left + i * (colw + self.gutter), colw) for i in range(columns)]
        self.fi = 0
        self.frame_top = top
        self.y = top
        self.top_of_frames = top

    def finish(self):
        for fig in self.pending:
            self.pages.append(Page("figure", fig))
        self.pending = []

    @property
    def page(self):
        return self.pages[-1]

    def frame(self):
        return self.frames[self.fi]

    def next_frame(self):
        if self.fi + 1 < len(self.frames):
            self.fi += 1
            self.frame_top = self.top_of_frames + self.fi * self.col_offset
            self.y = self.frame_top
        else:
            self.new_page()

    def need(self, h):
        if self.y + h > self.bottom + 0.01:
            self.next_frame()
            return True
        return False

    def at_frame_top(self):
        return abs(self.y - self.frame_top) < 0.01

    # -- primitive operations ----------------------------------------------
    def text_op(self, key, size, x, baseline, text):
        self.page.ops.append(("text", key, size, x, baseline, text))

    def wrap(self, words, width, key, size, first_indent=0.0):
        space = self.tw(" ", key, size)
        lines, cur, curw = [], [], 0.0
        avail = width - first_indent
        for word in words:
            w = self.tw(word, key, size)
            if cur and curw + space + w > avail:
                lines.append((cur, curw))
                cur, curw = [word], w
                avail = width
            else:
                curw = curw + space + w if cur else w
                cur.append(word)
        if cur:
            lines.append((cur, curw))
        return lines, space

    def emit_lines(self, text, key, size, lead, align="justify", indent=0.0, inset=0.0):
        words = norm(text).split(" ")
        x0, width = self.frame()
        lines, space = self.wrap(words, width - 2 * inset, key, size, indent)
        for i, (ws, natural) in enumerate(lines):
            self.need(lead)
            x0, width = self.frame()
            left = x0 + inset + (indent if i == 0 else 0.0)
            avail = width - 2 * inset - (indent if i == 0 else 0.0)
            base = self.y + size
            last = i == len(lines) - 1
            if align == "center":
                self.text_op(key, size, x0 + (width - natural) / 2.0, base, " ".join(ws))
            elif (align == "justify" and not last and len(ws) > 1
                  and (avail - natural) / (len(ws) - 1) <= self.max_stretch * space):
                # Justify by spreading the spaces, but leave very loose lines
                # ragged: huge gaps look bad and confuse text extraction.
                extra = (avail - natural) / (len(ws) - 1)
                x = left
                for w in ws:
                    self.text_op(key, size, x, base, w)
                    x += self.tw(w, key, size) + space + extra
            else:
                self.text_op(key, size, left, base, " ".join(ws))
            self.y += lead

    # -- block types ---------------------------------------------------------
    def paragraph(self, text):
        indent = 0.0 if self.after_heading else 1.5 * self.size
        self.emit_lines(text, "rm", self.size, self.lead, "justify", indent)
        self.y += self.para_gap
        self.after_heading = False

    def heading(self, level, title):
        if level == 1:
            self.sec = [self.sec[0] + 1, 0]
            num = "%d" % self.sec[0]
            size = self.size * 1.25
        else:
            self.sec[1] += 1
            num = "%d.%d" % tuple(self.sec)
            size = self.size * 1.05
        hl = size * 1.4
        before = self.lead * (1.0 if level == 1 else 0.5)
        if not self.at_frame_top():
            if self.need(before + hl + 2 * self.lead):
                before = 0.0
        if not self.at_frame_top():
            self.y += before
        self.headings.append((level, num, title, len(self.pages) - 1, self.y))
        self.emit_lines(num + "  " + title, "bf", size, hl, "left")
        self.y += self.lead * 0.2
        self.after_heading = True

    def code(self, lines):
        size = self.size * 0.82
        lead = size * 1.3
        self.y += self.lead * 0.3
        for line in lines:
            self.need(lead)
            x0, _ = self.frame()
            self.text_op("tt", size, x0 + 12.0, self.y + size, line)
            self.y += lead
        self.y += self.lead * 0.5
        self.after_heading = True

    def display(self, text):
        self.y += self.lead * 0.3
        self.emit_lines(text, "it", self.size, self.lead, "center")
        self.y += self.lead * 0.5
        self.after_heading = True

    def run(self, blocks):
        for block in blocks:
            kind = block[0]
            if kind == "h1":
                self.heading(1, block[1])
            elif kind == "h2":
                self.heading(2, block[1])
            elif kind == "p":
                self.paragraph(block[1])
            elif kind == "code":
                self.code(block[1])
            elif kind == "display":
                self.display(block[1])
            elif kind == "figure":
                self.pending.append(block[1])
            else:
                raise ValueError(kind)

    # -- title page ----------------------------------------------------------
    def title_block(self):
        spec = self.spec
        page = self.new_page(columns=1)
        page.first = True
        self.y = self.top + 6.0
        self.emit_lines(spec["title"], "bf", 19.0, 25.0, "center", inset=20.0)
        self.y += 8.0
        self.emit_lines(spec["authors"], "rm", 12.0, 16.0, "center")
        self.emit_lines(spec["affil"], "it", 9.5, 13.0, "center")
        self.y += 16.0
        self.emit_lines("Abstract", "bf", 10.0, 14.0, "center")
        self.y += 2.0
        self.emit_lines(spec["abstract"], "rm", 9.5, 13.0, "justify", inset=28.0)
        self.y += 4.0
        self.emit_lines("Keywords: " + spec["keywords"], "it", 9.0, 12.5, "left", inset=28.0)
        self.y += 18.0
        # CC0 note at the foot of the first page
        fy = self.bottom + 16.0
        page.foot_ops.append(("rule", self.left, fy - 9.0, self.left + 120.0, fy - 9.0))
        page.foot_ops.append(("text", "it", 7.5, self.left, fy, CC0_NOTE))
        self.after_heading = True


# ---------------------------------------------------------------------------
# Figures (image-only pages: vector drawing, no text at all)
# ---------------------------------------------------------------------------

GRAPH_NODES = [
    (0.50, 0.08), (0.20, 0.15), (0.80, 0.14), (0.35, 0.28), (0.64, 0.30),
    (0.10, 0.38), (0.90, 0.40), (0.48, 0.46), (0.25, 0.56), (0.72, 0.58),
    (0.08, 0.70), (0.52, 0.68), (0.92, 0.72), (0.33, 0.82), (0.68, 0.86),
    (0.15, 0.93), (0.50, 0.95), (0.86, 0.94),
]


def graph_edges():
    edges = []
    n = len(GRAPH_NODES)
    for i in range(n):
        for j in range(i + 1, n):
            (x1, y1), (x2, y2) = GRAPH_NODES[i], GRAPH_NODES[j]
            d = math.hypot(x1 - x2, (y1 - y2) * 1.3)
            if d < 0.34:
                edges.append((i, j, d))
    return edges


def dijkstra_tree(source):
    n = len(GRAPH_NODES)
    adj = [[] for _ in range(n)]
    for i, j, d in graph_edges():
        adj[i].append((j, d))
        adj[j].append((i, d))
    dist = [math.inf] * n
    pred = [None] * n
    dist[source] = 0.0
    done = [False] * n
    for _ in range(n):
        u = min((k for k in range(n) if not done[k]), key=lambda k: (dist[k], k))
        done[u] = True
        for v, d in adj[u]:
            if dist[u] + d < dist[v] - 1e-12:
                dist[v] = dist[u] + d
                pred[v] = u
    return dist, pred


def draw_shortest_path_figure(ctx, W, H):
    m = 70.0
    bw, bh = W - 2 * m, H - 2 * m

    def pt(k):
        x, y = GRAPH_NODES[k]
        return m + 20 + x * (bw - 40), m + 20 + y * (bh - 40)

    ctx.save()
    ctx.set_source_rgb(0.35, 0.35, 0.35)
    ctx.set_line_width(0.8)
    ctx.rectangle(m, m, bw, bh)
    ctx.stroke()
    ctx.set_source_rgb(0.75, 0.75, 0.75)
    ctx.set_line_width(1.2)
    for i, j, _ in graph_edges():
        ctx.move_to(*pt(i))
        ctx.line_to(*pt(j))
        ctx.stroke()
    dist, pred = dijkstra_tree(0)
    ctx.set_source_rgb(0, 0, 0)
    ctx.set_line_width(4.0)
    ctx.set_line_cap(cairo.LINE_CAP_ROUND)
    for v, u in enumerate(pred):
        if u is not None:
            ctx.move_to(*pt(u))
            ctx.line_to(*pt(v))
            ctx.stroke()
    far = max(d for d in dist if d < math.inf)
    for k in range(len(GRAPH_NODES)):
        x, y = pt(k)
        ctx.arc(x, y, 13.0, 0, 2 * math.pi)
        shade = 0.0 if k == 0 else 0.25 + 0.7 * dist[k] / far
        ctx.set_source_rgb(shade, shade, shade)
        ctx.fill_preserve()
        ctx.set_source_rgb(0, 0, 0)
        ctx.set_line_width(1.5)
        ctx.stroke()
    # a small scale bar (lines only)
    ctx.set_line_width(1.0)
    ctx.move_to(m + 20, H - m - 12)
    ctx.line_to(m + 120, H - m - 12)
    for x in (m + 20, m + 70, m + 120):
        ctx.move_to(x, H - m - 16)
        ctx.line_to(x, H - m - 8)
    ctx.stroke()
    ctx.restore()


FIGURES = {"shortest-path-tree": draw_shortest_path_figure}


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------

def set_font(ctx, key, size):
    fam, slant, weight = FACES[key]
    ctx.select_font_face(fam, slant, weight)
    ctx.set_font_size(size)


def render(spec, ctx, surface, pages, labels, body_offset, headings):
    W, H = spec["page"]
    left, right, top, bottom = spec["margins"]
    for idx, page in enumerate(pages):
        ctx.save()
        ctx.set_source_rgb(0, 0, 0)
        if page.kind == "figure":
            FIGURES[page.figure](ctx, W, H)
        else:
            if not page.first:
                set_font(ctx, "it", 8.0)
                head = spec["running_head"]
                ctx.move_to((W - ctx.text_extents(head).x_advance) / 2.0, top - 22.0)
                ctx.show_text(head)
                ctx.set_line_width(0.4)
                ctx.move_to(left, top - 16.0)
                ctx.line_to(W - right, top - 16.0)
                ctx.stroke()
            for op in page.ops + page.foot_ops:
                if op[0] == "text":
                    _, key, size, x, y, text = op
                    set_font(ctx, key, size)
                    ctx.move_to(x, y)
                    ctx.show_text(text)
                elif op[0] == "rule":
                    _, x1, y1, x2, y2 = op
                    ctx.set_line_width(0.5)
                    ctx.move_to(x1, y1)
                    ctx.line_to(x2, y2)
                    ctx.stroke()
            set_font(ctx, "rm", 9.0)
            label = labels[idx]
            lw = ctx.text_extents(label).x_advance
            if spec.get("columns", 1) > 1:
                # Outer margin: a centred number would sit in the gutter and
                # make pdftotext merge the two columns.
                ctx.move_to(W - right - lw, H - bottom / 2.0)
            else:
                ctx.move_to((W - lw) / 2.0, H - bottom / 2.0)
            ctx.show_text(label)
        ctx.restore()
        if spec.get("page_labels"):
            surface.set_page_label(labels[idx])
        ctx.show_page()
    if spec.get("outline"):
        parent = cairo.PDF_OUTLINE_ROOT
        for level, num, title, page_index, y in headings:
            dest = "page=%d pos=[%.2f %.2f]" % (body_offset + page_index + 1, left, max(y - 4.0, 0.0))
            if level == 1:
                parent = surface.add_outline(cairo.PDF_OUTLINE_ROOT, num + " " + title, dest,
                                             cairo.PDF_OUTLINE_FLAG_OPEN)
            else:
                surface.add_outline(parent, num + " " + title, dest, 0)


def build_pdf(spec):
    path = os.path.join(PAPERS, spec["file"])
    W, H = spec["page"]
    surface = cairo.PDFSurface(path, W, H)
    surface.set_metadata(cairo.PDF_METADATA_TITLE, spec["title"])
    surface.set_metadata(cairo.PDF_METADATA_AUTHOR, spec["authors"])
    surface.set_metadata(cairo.PDF_METADATA_SUBJECT, spec["subject"])
    surface.set_metadata(cairo.PDF_METADATA_KEYWORDS, spec["keywords"])
    surface.set_metadata(cairo.PDF_METADATA_CREATOR, "bibread Samples/make-samples.py")
    surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, spec["date"])
    surface.set_metadata(cairo.PDF_METADATA_MOD_DATE, spec["date"])
    ctx = cairo.Context(surface)

    if spec.get("front_matter"):
        # Body first, so that the contents page knows where the sections start.
        body = Layouter(ctx, spec)
        body.new_page()
        body.run(spec["blocks"])
        body.finish()
        front = Layouter(ctx, spec)
        front.title_block()
        front.new_page()
        front.after_heading = True
        front.emit_lines("Contents", "bf", 15.0, 24.0, "left")
        front.y += 8.0
        nfront = 2
        for level, num, title, page_index, y in body.headings:
            size = 11.0 if level == 1 else 10.0
            key = "bf" if level == 1 else "rm"
            lead = 19.0 if level == 1 else 15.0
            if level == 1:
                front.y += 4.0
            indent = 0.0 if level == 1 else 22.0
            x0 = front.left + indent
            base = front.y + size
            label = str(page_index + 1)
            entry = num + " " + title
            front.text_op(key, size, x0, base, entry)
            # Dot leaders keep each entry on one text line for extractors.
            # (No link annotations here: with cairo 1.16.0, TAG_LINK rects on
            # this page produced a PDF with dangling object references.)
            xr = front.W - front.right - front.tw(label, key, size)
            xd = x0 + front.tw(entry, key, size)
            dot = front.tw(" .", "rm", size)
            ndots = int((xr - xd - 3.0) / dot)
            front.text_op("rm", size, xd, base, " ." * ndots)
            front.text_op(key, size, xr, base, label)
            front.y += lead
        front.finish()
        assert len(front.pages) == nfront
        pages = front.pages + body.pages
        labels = [roman(i + 1) for i in range(nfront)] + [str(i + 1) for i in range(len(body.pages))]
        render(spec, ctx, surface, pages, labels, nfront, body.headings)
    else:
        lay = Layouter(ctx, spec)
        lay.title_block()
        lay.set_frames(lay.y, spec.get("columns", 1))
        lay.run(spec["blocks"])
        lay.finish()
        labels = [str(i + 1) for i in range(len(lay.pages))]
        render(spec, ctx, surface, lay.pages, labels, 0, lay.headings)
    surface.finish()



# ---------------------------------------------------------------------------
# The five sample documents.  Original prose written for this project.
# ---------------------------------------------------------------------------

LINE_BREAKING = {
    "file": "line-breaking.pdf",
    "page": A4,
    "margins": (72.0, 72.0, 78.0, 78.0),
    "size": 10.5,
    "leading": 14.5,
    "columns": 1,
    "date": "2024-03-18T10:15:00+01:00",
    "title": "Breaking Paragraphs into Lines: Notes on the Total-Fit Method",
    "running_head": "Breaking Paragraphs into Lines",
    "authors": "Léa Fournier and Samuel Okafor",
    "affil": "bibread sample library · March 2024",
    "subject": "An essay on the Knuth–Plass line-breaking algorithm",
    "keywords": "line breaking, typesetting, dynamic programming, TeX",
    "abstract": """A paragraph of running text has to be cut into lines before it can
        be printed, and the choice of where to cut has a surprisingly large effect on
        how the page looks. These notes retell, in plain language, the method that
        Donald Knuth and Michael Plass described in 1981 and that TeX still uses today.
        We explain the model of boxes, glue and penalties, show how badness and
        demerits turn a question of taste into a number, and describe how dynamic
        programming finds the best set of breakpoints for a whole paragraph at once
        instead of one line at a time.""",
    "blocks": [
        ("h1", "Introduction"),
        ("p", """Anyone who has written a word processor has met the problem of line
            breaking, usually on the first afternoon. The obvious approach is to keep
            adding words to the current line until the next one would not fit, then
            start a new line and carry on. This greedy method is fast, simple and easy
            to explain, and for most informal text it is perfectly adequate. It is also
            the reason why so many documents have a loose, gappy line followed by a
            tight, crowded one, as if the paragraph had been set by two different people
            who were not on speaking terms."""),
        ("p", """The alternative is to look at the paragraph as a whole. If a slightly
            looser first line allows the second and third lines to come out evenly, the
            paragraph looks better, even though no single decision was locally optimal.
            Knuth and Plass called this the total-fit approach, and their paper in
            Software—Practice and Experience is one of the classic accounts of how a
            question of typographic taste can be turned into a well-posed optimisation
            problem."""),
        ("p", """These notes follow the structure of that paper loosely. They are not a
            substitute for it: the original runs to sixty-six pages and contains a
            wealth of examples, historical remarks and variations that we do not attempt
            to reproduce. Our aim is a short, readable map of the main ideas, suitable
            for a reader who wants to understand why the paragraphs on their screen look
            the way they do."""),
        ("h1", "The first-fit method"),
        ("p", """Let us first be precise about the greedy method. Words are added to a
            line as long as the natural width of the line does not exceed the measure,
            that is, the width of the text block. When the next word does not fit, the
            line is ended and the spaces in it are stretched so that the line is
            justified on both margins. The method never looks back: once a line has been
            ended, it stays ended."""),
        ("p", """Two weaknesses follow directly from this description. First, the amount
            of stretching in a line depends entirely on the length of the word that
            happened to be too long for it, so that a line ending just before a long
            word can become very loose. Second, the method has no way of trading a
            little ugliness in one place for a great deal of beauty in another. A naïve
            fix is to allow the spaces to shrink as well as stretch, and to prefer
            shrinking when possible; this helps, but it merely moves the problem
            elsewhere."""),
        ("p", """It is worth stressing that the greedy method is not bad because it is
            simple. It is bad because it optimises the wrong quantity. Each line is as
            full as possible, but readers do not see lines one at a time. They see a
            paragraph, and the eye is drawn to the worst line in it, to rivers of white
            space running down through several lines, and to sudden changes of texture
            from one line to the next."""),
        ("h1", "Boxes, glue and penalties"),
        ("p", """The first great simplification in the Knuth–Plass paper is an abstract
            model of a paragraph that is independent of the particular fonts and
            languages involved. A paragraph is a sequence of three kinds of item. A box
            is something of fixed width that is never broken, such as a letter, a word
            or a small picture. Glue is white space with a natural width, a
            stretchability and a shrinkability. A penalty marks a place where a break is
            possible and attaches a cost to breaking there; a very large penalty forbids
            a break, and a very negative one forces it."""),
        ("p", """The start of a paragraph set in a ten-point font might therefore be
            described by the following list of items, where the three numbers after
            each glue item are its natural width, its stretchability and its
            shrinkability, all in printer's points:"""),
        ("code", [
            'box "The" glue 3.33 +1.67 -1.11',
            'box "quick" glue 3.33 +1.67 -1.11',
            'box "brown" glue 3.33 +1.67 -1.11',
            '...',
            'glue 0 +fill penalty -infinity',
        ]),
        ("p", """A line break may occur at glue, provided the glue immediately follows a
            box, or at a penalty. When a line is broken at glue, the glue disappears at
            the margin. When it is broken at a penalty, the penalty may contribute
            material of its own, which is how a hyphen appears at the end of a line when
            a word is broken there but not otherwise. The final glue of infinite
            stretchability fills the last line, and the final penalty forces the break
            that ends the paragraph."""),
        ("p", """This small vocabulary is astonishingly expressive. By choosing the
            widths, stretchabilities and penalties appropriately, one can describe
            ragged-right setting, centred lines, hanging punctuation, and even the
            alignment of a column of figures, all without changing the algorithm that
            chooses the breaks. The algorithm knows nothing about words; it only knows
            about items and their numbers."""),
        ("h1", "Badness and demerits"),
        ("p", """Once a candidate line has been chosen, we can compute its adjustment
            ratio: the amount by which its glue must be stretched or shrunk, divided by
            the total stretchability or shrinkability available. A ratio of zero means
            the line is set at its natural width; a ratio of one means that all the
            available stretch has been used. Shrinking beyond the available
            shrinkability is not allowed, so a ratio below minus one makes the line
            infeasible."""),
        ("p", """TeX turns the ratio into a badness of roughly one hundred times the
            cube of its absolute value, capped at ten thousand. The cube is chosen so
            that small adjustments are almost free while large ones become expensive
            very quickly. A line that uses all of its stretch has badness 100; a line
            that needs twice its stretch has badness 800, which most readers would
            consider unacceptable and which TeX rejects with its default tolerance of
            200."""),
        ("p", """Badness describes a single line. To compare whole paragraphs, the
            algorithm adds up demerits, one term per line. In TeX the demerits of a line
            are the square of the sum of the line penalty and the badness, plus the
            square of any penalty at the break, plus extra charges for visually awkward
            situations: two hyphenated lines in a row, or a very loose line directly
            after a very tight one. Squaring has the same effect as cubing did for
            badness: it makes the algorithm prefer many small imperfections to one large
            one."""),
        ("p", """The extra charge for neighbouring lines is organised through four
            fitness classes, called tight, decent, loose and very loose. If two adjacent
            lines belong to classes that are not next to each other, the paragraph is
            charged an additional amount, which TeX calls adjdemerits. This simple rule
            does a great deal to prevent the jarring changes of texture that are so
            characteristic of greedy line breaking."""),
        ("h1", "Finding the best breakpoints"),
        ("p", """With a cost attached to each line, choosing the breaks becomes a
            shortest-path problem. Consider a graph whose nodes are the feasible
            breakpoints of the paragraph, together with a start node. There is an edge
            from breakpoint a to breakpoint b whenever the material between them can be
            set as a single line within the chosen tolerance, and the weight of that
            edge is the demerits of that line. The best way to break the paragraph is
            the cheapest path from the start to the final, forced break."""),
        ("p", """Because the graph is acyclic and its nodes come in the order of the
            text, the cheapest path can be found by dynamic programming in a single
            left-to-right scan. The algorithm keeps a list of active nodes: breakpoints
            from which a line could still reach the current position. At each new legal
            breakpoint it considers every active node, computes the demerits of the line
            between them, and remembers the best predecessor. Active nodes are removed
            once the material after them has become too long to fit on one line."""),
        ("p", """In the worst case this is quadratic in the length of the paragraph, but
            in practice the active list stays short, because a line can only be so long.
            The running time is therefore close to linear, and the method is fast enough
            to run on every paragraph of a book. When it was first implemented, on the
            computers of the late 1970s, this was by no means obvious, and a good part of
            the paper is devoted to engineering details that keep the active list
            small."""),
        ("p", """One subtle point is that the best predecessor depends not only on the
            position but also on the fitness class of the previous line, since adjacent
            classes affect the demerits. The algorithm therefore keeps up to four active
            nodes for each position, one per class. It also handles paragraphs whose
            lines have different lengths, as when a paragraph flows around an
            illustration, by keeping track of line numbers as well."""),
        ("h1", "Refinements"),
        ("p", """The basic algorithm is easily extended. A looseness parameter asks for a
            paragraph that is one or more lines longer or shorter than optimal, which is
            useful for avoiding a single word on the last line of a page. Hyphenation is
            integrated naturally: a hyphenation point is simply a flagged penalty, and
            the algorithm decides whether using it is worth the cost. TeX first tries to
            break a paragraph without hyphenation, using a stricter tolerance, and only
            considers hyphens if that first pass fails."""),
        ("p", """Modern systems have built on the same foundation. Micro-typographic
            extensions, such as those in pdfTeX, allow the glyphs themselves to be
            expanded by a percent or two and punctuation to hang slightly into the
            margin; these variations enter the optimisation as additional sources of
            stretch. Text in languages without spaces between words, such as Chinese or
            Japanese, needs a different notion of legal breakpoint, but the idea of a
            global cost still applies. Even the narrow columns of a café menu or a
            newspaper benefit from it, since narrow measures are where greedy breaking
            does most damage."""),
        ("h1", "Conclusion"),
        ("p", """The lasting contribution of Knuth and Plass is not a particular formula
            for badness, which later systems have tuned in many different ways, but the
            demonstration that line breaking can be treated as a global optimisation
            with a clear objective. Once the problem is stated that way, questions that
            once seemed to be matters of taste become questions of parameters, and the
            parameters can be discussed, measured and improved."""),
        ("p", """More than forty years on, the total-fit method remains the standard
            against which other line breakers are measured, and web browsers have begun
            to offer balanced and “pretty” text wrapping inspired by it. The paragraphs
            of this note, for what it is worth, were broken by the simplest greedy
            method, which the attentive reader will by now be able to recognise."""),
    ],
}

TEX_TOUR = {
    "file": "tex-tour.pdf",
    "page": A4,
    "margins": (80.0, 80.0, 84.0, 84.0),
    "size": 10.5,
    "leading": 14.5,
    "columns": 1,
    "front_matter": True,
    "page_labels": True,
    "outline": True,
    "date": "2023-10-09T14:00:00+02:00",
    "title": "A Short Tour of the TeX Typesetting System",
    "running_head": "A Short Tour of the TeX Typesetting System",
    "authors": "Marta Kowalska and Jonas Weber",
    "affil": "Lecture notes · bibread sample library · October 2023",
    "subject": "Introductory lecture notes on TeX",
    "keywords": "TeX, typesetting, macros, boxes and glue, METAFONT",
    "abstract": """TeX is a typesetting program written by Donald E. Knuth between 1977
        and 1982 and left essentially unchanged, apart from bug fixes, since 1990. It is
        still used every day to produce books, journals and theses, particularly in
        mathematics and the sciences. These notes give a short guided tour of the system
        for readers who have used LaTeX but never looked underneath it: where TeX came
        from, how it reads its input, how it builds pages out of boxes and glue, how it
        typesets mathematics, and what happens to its output. The front matter of this
        document is numbered with roman numerals and the body with arabic numerals, and
        a document outline is provided for navigation.""",
    "blocks": [
        ("h1", "Origins"),
        ("h2", "A book that looked wrong"),
        ("p", """In 1976 Knuth received the galley proofs of the second edition of the
            second volume of The Art of Computer Programming. The first edition had been
            set in hot metal on a Monotype machine, but the publisher had moved to
            phototypesetting, and the new proofs looked, to Knuth's eye, dreadful. The
            mathematics in particular had lost the careful spacing that skilled
            compositors had given it."""),
        ("p", """Knuth's response was characteristic. Rather than complain, he decided
            that typesetting was, at bottom, a matter of putting the right marks in the
            right places, and that a computer ought to be able to do it well. He
            expected the project to take a few months of a sabbatical year. It took the
            better part of a decade."""),
        ("h2", "TeX78 and TeX82"),
        ("p", """The first version, now usually called TeX78, was written in the SAIL
            language at Stanford, and the second edition of volume two was eventually
            typeset with it. Experience with that program, and with a growing community
            of users at other institutions, showed that a more portable and more
            carefully designed program was needed. Knuth rewrote the system from
            scratch, and the result, TeX82, was written in WEB, a literate-programming
            language that combines Pascal code with its documentation."""),
        ("p", """TeX82 is the program that survives today. Around 1990 Knuth extended it
            to handle eight-bit input and multiple hyphenation tables, producing version
            3, and announced that he would make no further changes apart from fixing
            bugs. Each bug-fix release adds a digit to the version number, which
            therefore converges to π; the most recent releases are numbered 3.141592653.
            METAFONT, TeX's companion program for designing fonts, converges in the same
            way to e."""),
        ("h1", "How TeX reads its input"),
        ("h2", "Characters and category codes"),
        ("p", """TeX reads a file line by line and converts each character into a token.
            What kind of token it becomes depends on the character's category code, a
            number from 0 to 15 that can be changed at any time. The backslash normally
            has category 0, which means it starts a control sequence; the braces have
            categories 1 and 2 and delimit groups; the dollar sign, category 3, switches
            into and out of mathematics; letters have category 11 and most other
            characters category 12."""),
        ("p", """Because category codes can be changed, the same input can mean
            completely different things in different contexts. This is how verbatim
            environments work, and it is also the source of some of TeX's most famous
            puzzles. A macro argument is tokenised when it is read, so changing category
            codes inside an argument has no effect on material that has already been
            tokenised."""),
        ("h2", "Macros and expansion"),
        ("p", """Most of what users think of as TeX is in fact a collection of macros. A
            macro is defined with \\def and replaced by its definition whenever it is
            expanded. Plain TeX, the format that Knuth describes in The TeXbook, consists
            of somewhat over a thousand lines of such definitions; LaTeX, written by
            Leslie Lamport on top of TeX in the mid-1980s, is a much larger collection
            that adds the familiar structure of sections, environments and
            cross-references. A minimal example:"""),
        ("code", [
            "\\def\\hello#1{Hello, #1!}",
            "\\hello{world}   % expands to: Hello, world!",
        ]),
        ("p", """Expansion happens in TeX's mouth, as Knuth puts it, and the resulting
            primitive commands are digested in its stomach. The distinction matters:
            some operations, such as \\edef or \\expandafter, work entirely in the mouth,
            while others, such as assigning a value to a register, take place only when
            the stomach gets round to them."""),
        ("h1", "Boxes and glue"),
        ("h2", "Horizontal and vertical lists"),
        ("p", """Everything TeX typesets is a box. A character is a box, a line of text
            is a box containing smaller boxes, and a page is a box containing lines.
            Between boxes TeX places glue: space with a natural size that can stretch or
            shrink. Horizontal lists become lines, and vertical lists become pages; the
            same mechanism of boxes and glue is used in both directions."""),
        ("p", """The elegance of this model is that it reduces layout to arithmetic. To
            centre a line, surround it with glue that can stretch infinitely; to push
            something to the right margin, put infinite glue on its left. TeX provides
            three orders of infinite glue, called fil, fill and filll, and the higher
            order always wins, which makes it possible to combine layouts in predictable
            ways."""),
        ("h2", "Paragraphs and pages"),
        ("p", """When a paragraph ends, TeX breaks the horizontal list into lines using
            the total-fit algorithm of Knuth and Plass, which considers the paragraph as
            a whole rather than line by line. The resulting lines are appended to the
            main vertical list, and the page builder decides where to end each page.
            Unlike line breaking, page breaking in TeX is done one page at a time,
            because in 1982 holding a whole book in memory was out of the question."""),
        ("p", """The page builder uses a simpler cost function than the line breaker,
            with penalties for breaking just after a heading or for leaving a single line
            of a paragraph at the top or bottom of a page. These are the widows and
            orphans of traditional typography, and the parameters \\widowpenalty and
            \\clubpenalty control how hard TeX tries to avoid them."""),
        ("h1", "Mathematics"),
        ("p", """Mathematics was the reason TeX was written, and its treatment of
            formulas remains its greatest strength. In math mode, TeX classifies each
            atom as an ordinary symbol, a large operator, a binary operation, a
            relation, an opening or closing delimiter, or punctuation, and inserts space
            between adjacent atoms according to a table that depends on both classes and
            on the current style."""),
        ("p", """There are four main styles: display, text, script and scriptscript. A
            fraction in display style has a numerator in text style, whose own
            superscripts are in script style, and so on. The rules, set out in Appendix G
            of The TeXbook, describe precisely how every part of a formula is placed,
            using parameters that are stored in the math fonts themselves. This is why a
            formula typed as $x^2 + y^2 = z^2$ comes out with correct spacing without any
            effort from the author."""),
        ("h1", "Fonts and output"),
        ("h2", "METAFONT and Computer Modern"),
        ("p", """Knuth also needed fonts, and he designed them with a second program,
            METAFONT, in which each character is described by a program that draws it
            with a pen. The Computer Modern family, based on a Monotype cut of a
            nineteenth-century modern typeface, is defined by a single set of programs
            with some sixty parameters, from which roman, italic, sans serif and
            typewriter faces at many sizes can be generated."""),
        ("h2", "DVI and its successors"),
        ("p", """TeX itself does not know what a printer is. It writes a
            device-independent file, or DVI file, which records the position of every
            character and rule on every page. Separate programs, called drivers,
            translate DVI into the language of a particular printer or screen. Today most
            users never see a DVI file, because pdfTeX, written by Hàn Thế Thành in the
            1990s, produces PDF directly, and its successors XeTeX and LuaTeX add support
            for Unicode and modern OpenType fonts."""),
        ("h1", "Legacy"),
        ("p", """TeX is unusual among programs of its age in that it is still in daily
            use with essentially the same code. Part of the reason is its stability:
            documents written in the 1980s can still be processed today and produce the
            same output. Part is Knuth's famous reward for bugs, which started at $2.56
            and doubled each year up to a maximum of $327.68, and which encouraged a
            generation of users to read the source code with unusual care."""),
        ("p", """The ideas in TeX have also outlived the program. Boxes and glue appear
            in many later layout engines, and the total-fit line breaker has been
            reimplemented many times. When you next read a well-set paragraph in a
            journal, there is a fair chance that some part of it was shaped by decisions
            made at Stanford more than forty years ago."""),
    ],
}

INCOMPLETENESS = {
    "file": "incompleteness.pdf",
    "page": LETTER,
    "margins": (72.0, 72.0, 80.0, 80.0),
    "size": 11.5,
    "leading": 20.0,          # a generously spaced "draft manuscript"
    "columns": 1,
    "date": "2024-05-06T16:45:00+02:00",
    "title": "Incompleteness for Working Programmers: Gödel's 1931 Theorems Retold",
    "running_head": "Incompleteness for Working Programmers (draft)",
    "authors": "Ingrid Halvorsen",
    "affil": "Draft manuscript · bibread sample library · May 2024",
    "subject": "An essay on Gödel's incompleteness theorems for programmers",
    "keywords": "Gödel, incompleteness, logic, halting problem, diagonal lemma",
    "abstract": """In 1931 Kurt Gödel showed that any consistent formal system strong
        enough to express elementary arithmetic contains statements that it can neither
        prove nor refute, and that such a system cannot prove its own consistency. This
        essay retells the argument for readers who are more at home with programs than
        with formal logic. We treat a formal system as a program that enumerates
        theorems, explain Gödel numbering as a form of serialization, present the
        diagonal lemma as a quine, and connect the result to Turing's halting problem.
        We close with a list of common misreadings, a conversation in a café, and a few
        remarks on what the theorems do not say.""",
    "blocks": [
        ("h1", "Introduction"),
        ("p", """At the beginning of the twentieth century, mathematics seemed to be in
            danger. Paradoxes discovered in the foundations of set theory, most famously
            Russell's paradox of the set of all sets that do not contain themselves,
            suggested that intuitive reasoning about infinite collections could lead to
            contradictions. David Hilbert proposed a way out. Mathematics should be
            written down in a completely formal language, with axioms and rules of
            inference so precise that a machine could check every proof, and then the
            consistency of the whole system should be proved by elementary, finitary
            means that nobody could doubt."""),
        ("p", """Hilbert's programme was attractive because it promised certainty without
            requiring anyone to believe in actual infinities. The formal system could
            talk about infinite sets as much as it liked; the consistency proof would
            only need to reason about finite strings of symbols. If the programme
            succeeded, mathematics would rest on a foundation as secure as arithmetic on
            small numbers."""),
        ("p", """In September 1930, at a conference in Königsberg, a twenty-four-year-old
            logician from Vienna announced a result showing that the programme could not
            succeed in its original form. Kurt Gödel had proved that every consistent
            formal system that includes a modest amount of arithmetic is incomplete:
            there are statements in its language that it can neither prove nor refute.
            Shortly afterwards he showed that such a system cannot prove its own
            consistency either. The paper, published in 1931 in the Monatshefte für
            Mathematik und Physik, is one of the most celebrated in the history of
            logic."""),
        ("p", """The theorems have a reputation for being difficult, and their original
            proof is indeed long and technical. But the core idea is one that programmers
            use every day. A formal system is, in the end, a program that produces
            theorems. Programs can be fed their own source code as input. And a program
            that reasons about its own behaviour can be led into the same trap as the
            liar who says “this sentence is false”. The aim of this essay is to make that
            analogy precise enough to be convincing, while leaving the full details to
            the textbooks."""),
        ("h1", "Formal systems as programs"),
        ("p", """A formal system consists of a language, a set of axioms and some rules
            of inference. The language specifies which strings of symbols are
            well-formed formulas. The axioms are particular formulas that are accepted
            without proof. The rules of inference, such as modus ponens, say how new
            formulas may be derived from old ones. A proof is a finite sequence of
            formulas, each of which is either an axiom or follows from earlier formulas
            by a rule, and a theorem is the last formula of a proof."""),
        ("p", """The important property, from our point of view, is that checking a proof
            is mechanical. Given a candidate sequence of formulas, a program can decide
            whether it is a correct proof by checking each step. It follows that the set
            of theorems can be listed by a program: generate all finite strings in order
            of length, check each one to see whether it is a proof, and print its last
            line whenever it is. Such a program will run forever, but every theorem will
            eventually be printed."""),
        ("p", """Logicians say that the set of theorems of such a system is recursively
            enumerable. For a programmer it is enough to remember that a formal system is
            no more and no less than a theorem-printing program. Any claim about what a
            formal system can or cannot prove is a claim about what a certain program
            will or will not print."""),
        ("p", """We need one more ingredient: the system must be able to talk about
            arithmetic. Specifically, it must have names for the natural numbers, symbols
            for addition and multiplication, and enough axioms to prove the simple facts
            about them, such as 2 + 2 = 4, that a pocket calculator can check. Peano
            arithmetic is more than enough, and so is Zermelo–Fraenkel set theory, the
            usual foundation for modern mathematics. Even a much weaker system, called
            Robinson arithmetic, will do."""),
        ("h1", "Arithmetization"),
        ("p", """The first of Gödel's key ideas is that statements about formulas can be
            translated into statements about numbers. Assign a number to each symbol of
            the language, and then encode a string of symbols as a single number, for
            instance by using the symbol codes as exponents of successive primes. The
            formula 0 = 0 might become 2^a × 3^b × 5^a for suitable codes a and b. Every
            formula, and every finite sequence of formulas, now has a Gödel number."""),
        ("p", """To a programmer this is simply serialization. We are used to the idea
            that any data structure can be written out as a sequence of bytes, and a
            sequence of bytes is just a large number written in base 256. Gödel's
            encoding with prime exponents is less efficient than a modern file format,
            but it has the advantage that the operations needed to decode it can be
            defined using nothing but addition, multiplication and bounded search."""),
        ("p", """Once formulas are numbers, properties of formulas become properties of
            numbers. The property of being a well-formed formula corresponds to a set of
            numbers, and so does the property of being an axiom. More importantly, the
            relation “p is the Gödel number of a proof of the formula with Gödel number
            f” is a relation between two numbers, and it is a decidable one: a program
            can check it. Gödel showed, in painstaking detail, that it can be expressed
            by a formula of arithmetic. The original paper defines forty-five functions
            and relations in sequence, each built from the previous ones, culminating in
            the proof relation."""),
        ("p", """From the proof relation we obtain a formula Prov(f), which says that
            there exists some p such that p is a proof of f. Notice the quantifier.
            Checking a given proof is mechanical, but searching for a proof is not
            guaranteed to terminate, and this asymmetry between checking and searching
            will reappear when we come to Turing."""),
        ("h1", "Representability and the diagonal lemma"),
        ("p", """The system does not merely contain formulas that describe its own proof
            relation; it can also prove enough about them. If a particular number p
            really is the code of a proof of f, the system can prove that fact, because
            it amounts to a long but finite calculation. If p is not such a code, the
            system can prove that too. Logicians say that decidable relations are
            representable in the system. This is where the requirement of a modest
            amount of arithmetic comes in."""),
        ("p", """The second key idea is self-reference. Gödel showed how to construct,
            for any property expressed by a formula P(x), a sentence G that says of
            itself that it has the property P. More precisely, the system proves that G
            is equivalent to P applied to the Gödel number of G. This result is now
            called the diagonal lemma, or the fixed-point lemma."""),
        ("p", """Programmers know the diagonal lemma under another name. A quine is a
            program that prints its own source code, and the standard construction of a
            quine is exactly Gödel's construction. Write a program template with a hole
            in it. Write a function that takes a piece of text, substitutes a quoted copy
            of the text into the hole, and returns the result. Then apply the function to
            the template itself. The output is a program that contains a description of
            itself and can therefore act on that description. In Python the whole
            construction fits in two lines:"""),
        ("code", [
            "s = 's = %r\\nprint(s %% s)'",
            "print(s % s)",
        ]),
        ("p", """In the quine, the operation that performs substitution plays the role
            of Gödel's diagonal function, which takes the number of a formula with one
            free variable and returns the number of the formula obtained by substituting
            that very number into it. Because substitution is a mechanical operation on
            strings, it is representable, and the rest of the construction goes
            through."""),
        ("p", """There is nothing paradoxical about the diagonal lemma itself. It does not
            let a sentence assert anything the system could not already express; it
            merely arranges for the sentence to be about itself. The trouble begins when
            the property P is chosen to be unprovability."""),
        ("h1", "The first incompleteness theorem"),
        ("p", """Apply the diagonal lemma to the property “is not provable”. We obtain a
            sentence G such that the system proves G to be equivalent to the statement
            that G is not provable. Informally, G says “I am not a theorem”. Now suppose
            the system is consistent. If it proved G, then, since the proof is a finite
            object, it could also prove that G is provable, which by the equivalence
            contradicts G. So a consistent system does not prove G."""),
        ("p", """Could the system refute G instead, by proving its negation? The negation
            of G says that G is provable. If the system proved that while G were not
            actually provable, it would be asserting the existence of a proof that does
            not exist. Gödel needed a slightly stronger assumption, called
            ω-consistency, to rule this out. In 1936 J. Barkley Rosser found a cleverer
            sentence, which says roughly “for every proof of me there is a shorter proof
            of my negation”, and showed that plain consistency is enough."""),
        ("p", """So, if the system is consistent, G is undecidable: neither G nor its
            negation is a theorem. Moreover, G is true, in the sense that what it says
            about the natural numbers is the case. It says that no number codes a proof
            of G, and indeed none does. We have found a true arithmetical statement that
            the system cannot prove."""),
        ("p", """It is important to see why adding G as a new axiom does not help. The
            new system is again a formal system with a theorem-printing program, and the
            construction can be repeated to produce a new sentence G′ that the extended
            system cannot prove. Incompleteness is not a defect of a particular set of
            axioms; it is a property of every consistent, effectively given system that
            contains enough arithmetic."""),
        ("p", """The phrase “effectively given” is doing real work. If we allowed the set
            of axioms to be arbitrary, we could simply take all true sentences of
            arithmetic as axioms, and the resulting system would be complete. But no
            program can list those axioms, so no machine could check proofs in that
            system. Gödel's theorem is a statement about the limits of mechanical
            verification."""),
        ("h1", "The second incompleteness theorem"),
        ("p", """The first theorem shows that a consistent system cannot prove G. The
            argument that established this was itself quite elementary; it used only the
            kind of reasoning that can be carried out inside the system. If we formalise
            that argument, we obtain a proof, inside the system, of the implication “if
            the system is consistent, then G is not provable”, which is to say, “if the
            system is consistent, then G”."""),
        ("p", """Now suppose the system could prove its own consistency, expressed as a
            sentence Con saying that no number codes a proof of 0 = 1. Combining that
            proof with the formalised implication would yield a proof of G, which we know
            is impossible for a consistent system. Therefore a consistent system cannot
            prove Con. This is the second incompleteness theorem, and it is the one that
            dealt the decisive blow to Hilbert's programme in its original form."""),
        ("p", """John von Neumann, who attended the Königsberg meeting, found the second
            theorem for himself soon after hearing Gödel announce the first, and wrote to
            him about it, only to learn that Gödel had already obtained it. The details
            of formalising the argument are delicate and were not fully written out by
            Gödel; they were supplied by Hilbert and Bernays in the second volume of
            their Grundlagen der Mathematik, which appeared in 1939. Later, Martin Löb
            distilled the required properties of the provability predicate into three
            simple conditions and used them to prove a striking generalisation now known
            as Löb's theorem."""),
        ("p", """Hilbert's programme did not simply die. Gerhard Gentzen showed in 1936
            that the consistency of Peano arithmetic can be proved by finitary means
            supplemented with a single non-finitary principle: induction along a
            well-ordering of length ε₀. The study of which principles are needed to prove
            which theorems, pursued today in proof theory and reverse mathematics, is a
            thriving field, and it owes its existence to the question that Gödel's
            theorem made unavoidable."""),
        ("h1", "Turing and the halting problem"),
        ("p", """Five years after Gödel, Alan Turing approached the same territory from a
            different direction. In his paper on computable numbers he defined an
            abstract machine, now called a Turing machine, and argued that it captures
            everything that can be computed by following explicit rules. He then showed
            that no such machine can decide, for an arbitrary machine and input, whether
            that machine will eventually halt."""),
        ("p", """The proof is another diagonal argument, and it is short enough to give in
            full. Suppose there were a program halts(p, x) that always terminated and
            correctly reported whether program p halts on input x. Build a new program d
            that takes a program p as input, asks halts(p, p), and then does the
            opposite: if the answer is yes, d loops forever, and if the answer is no, d
            halts. In code:"""),
        ("code", [
            "def d(p):",
            "    if halts(p, p):",
            "        while True:",
            "            pass",
            "    return \"done\"",
        ]),
        ("p", """Now ask what d does when given its own source code. If it halts, then
            halts(d, d) said no, so it should not have halted; if it loops, then
            halts(d, d) said yes, so it should have halted. Either way we have a
            contradiction, so halts cannot exist."""),
        ("p", """Incompleteness follows from the halting problem almost at once. For a
            given program p, the statement “p does not halt on input p” can be expressed
            in arithmetic. If a consistent formal system could prove every true
            statement of this form, we could decide halting by running two searches in
            parallel: one simulating p until it halts, and one listing theorems until a
            proof of non-halting appears. One of them would always finish. Since halting
            is undecidable, there must be programs that never halt for which the system
            cannot prove that fact."""),
        ("p", """This route to incompleteness is, for many programmers, the most
            convincing one. It replaces the careful construction of a self-referential
            sentence by a fact that anyone who has tried to write a perfect
            infinite-loop detector has felt in their bones. It also shows that the
            undecidable sentences are not curiosities: there are as many of them as there
            are programs whose non-termination is beyond the reach of the system."""),
        ("p", """Alonzo Church, working independently in Princeton, reached an equivalent
            result with his lambda calculus at almost the same time, and the thesis that
            the two formalisms capture exactly the computable functions bears both their
            names. Turing went to Princeton in 1936 to work with Church, and it was there
            that he wrote his doctoral thesis on ordinal logics, a study of what happens
            when one adds consistency statements to a system again and again."""),
        ("h1", "Common misreadings"),
        ("p", """Few theorems have been quoted as often, or as loosely, as Gödel's. It is
            worth listing some claims the theorems do not support, because a naïve
            reading of the informal statement leads to all of them."""),
        ("p", """The theorems do not say that there are mathematical truths that can
            never be known. They say that no single consistent, effectively axiomatised
            system proves all arithmetical truths. The sentence G for a particular system
            is easily seen to be true by anyone who accepts that the system is
            consistent; it simply cannot be proved inside that system."""),
        ("p", """The theorems do not say that mathematics is inconsistent, or that proofs
            are unreliable. Every theorem proved in Peano arithmetic remains as secure as
            it was before 1931. What changed is the hope that the security of the whole
            enterprise could be certified from within by elementary means."""),
        ("p", """The theorems do not apply to every formal system. Systems that are too
            weak to express arithmetic can be complete and decidable. Presburger
            arithmetic, which has addition but not multiplication, is complete, and so is
            the first-order theory of the real numbers as an ordered field, as Tarski
            showed. Incompleteness is the price of expressive power, not of
            formality."""),
        ("p", """Finally, the theorems do not by themselves show that human minds are not
            machines. Arguments to that effect, associated with J. R. Lucas and later
            with Roger Penrose, have been debated at length; most logicians consider them
            inconclusive, because they assume that we can know our own reasoning to be
            consistent, which is precisely what the second theorem casts into doubt."""),
        ("p", """On the other hand, the undecidable sentences are not all artificial. In
            1977 Jeff Paris and Leo Harrington found a natural statement of finite
            combinatorics, a strengthened form of Ramsey's theorem, that is true but not
            provable in Peano arithmetic. Goodstein's theorem, about sequences of numbers
            that grow enormously before eventually returning to zero, is another example.
            In set theory, Gödel himself showed in 1940 that the continuum hypothesis
            cannot be refuted from the usual axioms, and Paul Cohen showed in 1963 that
            it cannot be proved from them either."""),
        ("h1", "A conversation in a café"),
        ("p", """The mathematician Alfréd Rényi is credited with the remark that a
            mathematician is a machine for turning coffee into theorems, a line that his
            friend and collaborator Paul Erdős repeated so often that it is frequently
            attributed to him. Erdős was not a logician. But the café culture of central
            Europe, in Budapest where Erdős and Rényi learned their mathematics and in
            Vienna where Gödel took part in the discussions of the Vienna Circle, was one
            of the great engines of twentieth-century mathematics."""),
        ("p", """Imagine, then, a conversation in such a café. A programmer asks whether
            Gödel's theorem means that her compiler can never be proved correct. The
            logician at the next table says no: a particular compiler can certainly be
            verified, as the CompCert project has done for a realistic C compiler,
            because the statement to be proved is specific. What cannot exist is a single
            verifier that settles every question about every program."""),
        ("p", """The programmer then asks whether her proof assistant might one day prove
            its own soundness. Again the answer is subtle. A proof assistant can prove
            the soundness of a weaker system, or of a copy of itself with a smaller
            universe of types, and such results are routinely used. But by the second
            incompleteness theorem it cannot prove the consistency of its own logic in
            full, unless that logic is inconsistent, in which case the proof is
            worthless."""),
        ("p", """By the time the coffee is finished, the two have agreed that
            incompleteness is less a wall than a horizon. Every consistent system has
            statements beyond its reach, but every such statement can be brought within
            reach by a stronger system, which has a horizon of its own. Mathematics does
            not end; it simply never closes."""),
        ("h1", "Conclusion"),
        ("p", """Gödel's theorems are sometimes presented as a catastrophe for the
            foundations of mathematics. They are better seen as a discovery about the
            nature of formal reasoning, as fundamental as the discovery that the square
            root of two is irrational. Both results say that a certain kind of
            completeness is impossible, and both opened up more mathematics than they
            closed off."""),
        ("p", """For programmers, the theorems have a practical moral. Any sufficiently
            expressive system that reasons about programs, whether a type checker, a
            static analyser or a proof assistant, must either reject some correct
            programs, accept some incorrect ones, or fail to terminate on some inputs.
            Rice's theorem makes this precise for properties of programs, and every tool
            designer makes the trade-off, consciously or not. Knowing why the trade-off
            is unavoidable is, perhaps, the most useful thing that logic has to teach
            software engineering."""),
        ("p", """Gödel spent the rest of his career at the Institute for Advanced Study in
            Princeton, where he became a close friend of Albert Einstein; the two were
            often seen walking home together. He continued to work on the foundations of
            set theory and, later, on philosophy, and he never lost the conviction that
            mathematical objects are as real as physical ones. The incompleteness
            theorems, on this view, do not limit what is true. They limit only what any
            one set of rules can reach."""),
    ],
}

SHORTEST_PATHS = {
    "file": "shortest-paths.pdf",
    "page": A4,
    "margins": (56.0, 56.0, 72.0, 72.0),
    "size": 9.5,
    "leading": 12.5,
    "columns": 2,
    "gutter": 24.0,
    "para_gap": 0.0,
    "col_offset": 6.25,
    "date": "2022-09-21T18:30:00+02:00",
    "title": "Shortest Paths, Sixty Years On: A Commentary on Dijkstra's Note of 1959",
    "running_head": "Shortest Paths, Sixty Years On",
    "authors": "Pieter de Vries and Ana Pérez",
    "affil": "Reading-group notes · bibread sample library · September 2022",
    "subject": "A commentary on Dijkstra's shortest-path algorithm",
    "keywords": "shortest paths, graphs, Dijkstra's algorithm, priority queues, random graphs",
    "abstract": """In three pages of Numerische Mathematik, Edsger W. Dijkstra described
        two algorithms on graphs with weighted edges: one for the minimum spanning tree
        and one for the shortest path between two nodes. The second has become one of
        the best-known algorithms in computer science. This commentary explains the
        algorithm and why it is correct, discusses its running time with different
        priority queues, and surveys what has happened since, from negative edge weights
        to road networks with millions of junctions. A full-page figure illustrates a
        shortest-path tree.""",
    "blocks": [
        ("h1", "Introduction"),
        ("p", """The note that Dijkstra published in 1959 is famously short. It considers
            n points connected by branches of given length and poses two problems: to
            construct the tree of minimum total length connecting all the points, and to
            find the path of minimum total length between two given points. For each
            problem it gives an algorithm in a few paragraphs of prose, without
            pseudo-code, without proofs in the modern sense, and without a single
            figure."""),
        ("p", """Dijkstra later recalled that he had designed the shortest-path algorithm
            in 1956, in about twenty minutes, while sitting with his fiancée on a café
            terrace in Amsterdam, without pencil and paper. He wanted a problem whose
            answer a non-mathematical audience could understand, to demonstrate the new
            ARMAC computer at the Mathematical Centre, and he chose the shortest route
            between two cities on a simplified road map of the Netherlands."""),
        ("p", """The absence of pencil and paper, he said, forced him to avoid all
            avoidable complexity. The result is an algorithm that fits in the head, and
            that is perhaps the main reason why it is still taught in the first weeks of
            every course on algorithms."""),
        ("h1", "The problem"),
        ("p", """We are given a directed graph with n nodes and m edges, a source node s,
            and a non-negative length w(u, v) for each edge. The length of a path is the
            sum of the lengths of its edges, and the distance d(v) from s to v is the
            length of a shortest path, or infinity if v cannot be reached. The
            single-source problem asks for d(v) for every node v, together with a
            shortest-path tree that records, for each node, the last edge of a shortest
            path to it."""),
        ("p", """The requirement that lengths be non-negative is essential. With negative
            lengths a shortest path may not exist at all, because a cycle of negative
            total length can be traversed as often as one likes. Even without such
            cycles, the greedy reasoning below breaks down."""),
        ("h1", "The algorithm"),
        ("p", """Dijkstra's algorithm maintains a tentative distance D(v) for every node,
            initially zero for the source and infinity elsewhere, and a set S of nodes
            whose distances are known to be final. At each step it selects the node u
            outside S with the smallest tentative distance, adds u to S, and relaxes
            every edge leaving u: if D(u) + w(u, v) is smaller than D(v), it lowers D(v)
            to that value and records u as the predecessor of v."""),
        ("code", [
            "D[s] = 0; D[v] = ∞ for v ≠ s",
            "Q = all nodes",
            "while Q is not empty:",
            "    u = node in Q with least D[u]",
            "    remove u from Q",
            "    for each edge (u, v):",
            "        if D[u] + w(u,v) < D[v]:",
            "            D[v] = D[u] + w(u,v)",
            "            pred[v] = u",
        ]),
        ("figure", "shortest-path-tree"),
        ("p", """Figure 1, on a page of its own after this one, shows the result on a
            small graph. The thin grey lines are the edges of the graph and the thick
            black lines form the shortest-path tree from the source, which is drawn as a
            solid black disc; nodes further from the source are drawn in lighter shades.
            Every node other than the source is reached along exactly one thick line, and
            following the thick lines back from any node traces a shortest path to the
            source."""),
        ("h1", "Why it works"),
        ("p", """The correctness argument rests on a single invariant: when a node u is
            selected, D(u) equals the true distance d(u). Suppose not, and consider a
            shortest path from s to u. It starts inside S and at some point leaves S for
            the first time, along an edge (x, y) with x in S and y outside. Because x was
            final when it was selected, the edge (x, y) was relaxed, so D(y) is at most
            d(y), which is at most d(u) because lengths are non-negative. But u was
            selected as the node with the smallest tentative distance, so D(u) ≤ D(y).
            Together these give D(u) ≤ d(u), and since tentative distances never
            underestimate, D(u) = d(u)."""),
        ("p", """The argument uses non-negativity in exactly one place, the step from
            d(y) to d(u). That is also why the algorithm fails with negative lengths: a
            node that looks far away may later turn out to be reachable cheaply through a
            negative edge, after the algorithm has already declared some other node
            final."""),
        ("h1", "Running time"),
        ("p", """Dijkstra's original formulation scans all nodes to find the minimum,
            giving a running time proportional to n², which is perfectly adequate for
            dense graphs, where m is close to n² anyway. For sparse graphs, such as road
            networks, it pays to keep the tentative distances in a priority queue. With a
            binary heap, each extraction and each decrease of a key costs O(log n), for a
            total of O((n + m) log n)."""),
        ("p", """In 1984 Michael Fredman and Robert Tarjan introduced the Fibonacci heap,
            in which decreasing a key takes constant amortised time. With it, Dijkstra's
            algorithm runs in O(m + n log n), which is optimal for comparison-based
            methods that visit the nodes in order of distance. In practice, simpler
            structures such as pairing heaps or, when lengths are small integers, bucket
            queues are often faster."""),
        ("h1", "Negative lengths and all pairs"),
        ("p", """When some lengths are negative but there is no negative cycle, the
            Bellman–Ford algorithm solves the single-source problem in O(nm) time by
            relaxing every edge n − 1 times. It also detects negative cycles, which makes
            it the method of choice in settings such as currency arbitrage, where a
            negative cycle corresponds to a profitable sequence of exchanges."""),
        ("p", """For all pairs of nodes, one can run Dijkstra's algorithm from every
            source, or use the Floyd–Warshall algorithm, whose three nested loops are a
            classic of dynamic programming. Johnson's algorithm combines the two ideas:
            it uses one run of Bellman–Ford to reweight the edges so that all lengths
            become non-negative without changing which paths are shortest, and then runs
            Dijkstra's algorithm from every node."""),
        ("h1", "Road networks"),
        ("p", """On a continental road network with tens of millions of junctions, even a
            well-implemented Dijkstra search takes seconds, far too long for an
            interactive route planner. Goal-directed search, in the form of the A*
            algorithm of Hart, Nilsson and Raphael, uses a lower bound on the remaining
            distance, such as the straight-line distance, to explore nodes in the
            direction of the target first."""),
        ("p", """The largest gains come from preprocessing. Techniques such as
            contraction hierarchies, introduced by Geisberger and colleagues in 2008, add
            shortcut edges that allow a query to skip over unimportant junctions. After a
            few minutes of preprocessing, a shortest path across Europe can be found in
            well under a millisecond, while the query algorithm remains, at its heart, a
            bidirectional version of Dijkstra's."""),
        ("h1", "Random graphs as test inputs"),
        ("p", """How should one test a shortest-path implementation? A natural source of
            inputs is the random graph model of Erdős and Rényi, in which a fixed number
            of edges is chosen uniformly at random among all possible ones; the closely
            related model in which each edge is present independently with a fixed
            probability is due to Gilbert. The 1959 paper of Erdős and Rényi, published
            in the same year as Dijkstra's note, showed that such graphs change their
            structure abruptly as edges are added: with somewhat fewer than n log n / 2
            edges the graph is almost surely disconnected, and with somewhat more it is
            almost surely connected."""),
        ("p", """Random graphs are convenient but can be misleading, because their
            distances are short and their structure is unlike that of road networks,
            which are nearly planar and have a strong hierarchy of roads. A naïve
            benchmark on random graphs may therefore favour data structures that perform
            poorly on real maps. Careful experimental studies use a mixture of synthetic
            and real inputs, and the DIMACS implementation challenge on shortest paths in
            2006 provided a shared set of road networks that is still in use."""),
        ("h1", "Conclusion"),
        ("p", """Sixty years after its publication, Dijkstra's note remains a model of
            clarity. The algorithm it describes is simple enough to discover in twenty
            minutes without writing anything down, yet rich enough to have inspired
            decades of work on data structures, heuristics and engineering. Few papers of
            three pages have had such a long reach."""),
    ],
}

INFORMATION_THEORY = {
    "file": "information-theory.pdf",
    "page": LETTER,
    "margins": (96.0, 96.0, 84.0, 84.0),
    "size": 11.0,
    "leading": 16.0,
    "columns": 1,
    "date": "2025-02-03T09:00:00+01:00",
    "title": "What Shannon Measured: A Short Introduction to Information Theory",
    "running_head": "What Shannon Measured",
    "authors": "Chiara Bianchi",
    "affil": "Seminar handout · bibread sample library · February 2025",
    "subject": "A short introduction to Shannon's information theory",
    "keywords": "information theory, entropy, channel capacity, coding",
    "abstract": """Claude Shannon's paper “A Mathematical Theory of Communication”,
        published in two parts in the Bell System Technical Journal in 1948, created the
        field of information theory almost single-handed. This short handout explains
        the central quantity of the paper, entropy, and the two theorems that give it
        meaning: the source coding theorem, which says how far data can be compressed,
        and the noisy-channel coding theorem, which says how fast data can be sent
        reliably over an unreliable channel.""",
    "blocks": [
        ("h1", "The question"),
        ("p", """Engineers at Bell Laboratories in the 1940s knew a great deal about
            signals, bandwidth and noise, but they had no general way of saying how much
            information a message contained. Shannon's insight was to set meaning aside
            altogether. “These semantic aspects of communication are irrelevant to the
            engineering problem,” he wrote. What matters is that a message is selected
            from a set of possible messages, and the amount of information is a measure
            of how much freedom there was in that choice."""),
        ("p", """If the choice is between two equally likely messages, such as yes and
            no, one binary digit is enough to convey it. Shannon adopted the word bit for
            this unit, crediting it to his colleague John Tukey. A choice between eight
            equally likely messages needs three bits, and in general a choice among N
            equally likely messages needs log₂ N bits."""),
        ("h1", "Entropy"),
        ("p", """Most messages are not equally likely. In English text the letter e is
            far more common than z, and the letter q is almost always followed by u.
            Shannon defined the entropy of a source that emits n different symbols with
            probabilities p1, p2, …, pn as"""),
        ("display", "H = −(p1 log₂ p1 + p2 log₂ p2 + … + pn log₂ pn)."),
        ("p", """Entropy is measured in bits per symbol. It is largest when all symbols
            are equally likely and zero when one symbol is certain. Shannon showed that
            it is essentially the only function with a few natural properties, such as
            adding up correctly when a choice is broken into successive choices. He chose
            the name, according to a well-known but possibly apocryphal story, on the
            advice of John von Neumann, who pointed out that nobody really knows what
            entropy is, so in a debate one would always have the advantage."""),
        ("p", """For English, Shannon later estimated, from experiments in which people
            guessed the next letter of a text, that the entropy is roughly one bit per
            letter, far below the 4.7 bits that 26 equally likely letters would need. The
            difference is redundancy, and redundancy is what makes compression
            possible. It is also what makes a naïve substitution cipher so easy to
            break."""),
        ("h1", "The coding theorems"),
        ("p", """The source coding theorem says that a source with entropy H can be
            encoded using, on average, as close to H bits per symbol as desired, and no
            fewer. Huffman's algorithm of 1952 gives an optimal code for individual
            symbols, and arithmetic coding, developed in the 1970s, comes arbitrarily
            close to the entropy even when symbols are coded together. Every compressed
            file format in use today is an engineering answer to the question that this
            theorem poses."""),
        ("p", """The more surprising result concerns noise. A channel that sometimes
            corrupts the symbols sent through it has a capacity C, measured in bits per
            use of the channel. Shannon proved that information can be transmitted with
            an error probability as small as desired at any rate below C, and at no rate
            above it. Before 1948, engineers generally assumed that reducing errors
            required reducing the rate, perhaps all the way to zero; Shannon showed that
            there is a sharp threshold instead. For a channel of bandwidth B disturbed by
            white Gaussian noise, the capacity is given by the Shannon–Hartley
            formula"""),
        ("display", "C = B log₂(1 + S/N),"),
        ("p", """where S/N is the ratio of signal power to noise power. A telephone line
            with a bandwidth of about 3000 hertz and a signal-to-noise ratio of 30
            decibels has a capacity of roughly 30000 bits per second, which is close to
            what the fastest analogue modems of the 1990s eventually achieved."""),
        ("h1", "Legacy"),
        ("p", """Shannon's proof of the channel coding theorem was not constructive: it
            showed that random codes are good, without saying how to decode them
            efficiently. Finding practical codes that approach capacity took almost half
            a century, until the turbo codes of 1993 and the rediscovery of Gallager's
            low-density parity-check codes from the early 1960s. Both are used in mobile
            telephones today, along with the polar codes of Erdal Arıkan."""),
        ("p", """The ideas have travelled far beyond telephony. Entropy appears in
            statistics, machine learning and cryptography, and even in discussions of the
            thermodynamics of computation. It is a fitting legacy for a paper that began
            by setting meaning aside: by measuring only the freedom of choice, Shannon
            found a quantity that turned out to mean a great deal."""),
    ],
}

DOCUMENTS = [LINE_BREAKING, TEX_TOUR, INCOMPLETENESS, SHORTEST_PATHS, INFORMATION_THEORY]


# ---------------------------------------------------------------------------
# library.bib
# ---------------------------------------------------------------------------

def fake_alias_data(rel):
    """Deterministic bytes shaped roughly like a classic Mac OS AliasRecord.

    Real BibDesk stores an alias (or, in newer versions, bookmark data) that
    only macOS can resolve; readers are expected to fall back to relativePath.
    """
    name = os.path.basename(rel).encode("utf-8")[:63]
    vol = b"Macintosh HD"
    rec = bytearray()
    rec += b"\0\0\0\0"                   # application-specific creator
    rec += struct.pack(">HHH", 0, 2, 0)       # record size (patched), version 2, kind: file
    rec += bytes([len(vol)]) + vol.ljust(27, b"\0")
    rec += struct.pack(">I", 0xD5A1C3E0)      # volume creation date
    rec += b"H+" + struct.pack(">H", 5)       # file system, disk type
    rec += struct.pack(">I", 0x0001A2B3)      # parent directory id
    rec += bytes([len(name)]) + name.ljust(63, b"\0")
    rec += struct.pack(">I", 0x00C0FFEE)      # file number
    rec += struct.pack(">I", 0xD5A1C3E1)      # file creation date
    rec += b"PDF " + b"prvw"                  # file type and creator
    rec += struct.pack(">hh", -1, -1)         # nlvl from / to
    rec += b"\0" * 16
    posix = ("/Users/sample/Documents/bibread/Samples/" + rel).encode("utf-8")
    rec += struct.pack(">HH", 18, len(posix)) + posix + (b"\0" if len(posix) % 2 else b"")
    rec += struct.pack(">hH", -1, 0)          # end of tagged data
    rec[4:6] = struct.pack(">H", len(rec))
    return bytes(rec)


def b64(data):
    return base64.b64encode(data).decode("ascii")


def bdsk_file_keyed(rel):
    """Bdsk-File-N value as BibDesk writes it: an NSKeyedArchiver binary plist
    of an NSDictionary {relativePath, aliasData}, in the usual object order."""
    UID = plistlib.UID
    archive = {
        "$archiver": "NSKeyedArchiver",
        "$version": 100000,
        "$top": {"root": UID(1)},
        "$objects": [
            "$null",
            {"NS.keys": [UID(2), UID(3)], "NS.objects": [UID(4), UID(5)], "$class": UID(6)},
            "relativePath",
            "aliasData",
            rel,
            fake_alias_data(rel),
            {"$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]},
        ],
    }
    return b64(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False))


def bdsk_file_keyed_reordered(rel):
    """The same information with a different (equally valid) object layout:
    root object at index 2, class first, keys in the other order, the
    relativePath key at index 5 and its value at index 6.  A reader must
    follow $top and the UIDs instead of assuming fixed positions."""
    UID = plistlib.UID
    archive = {
        "$version": 100000,
        "$objects": [
            "$null",
            {"$classname": "NSMutableDictionary",
             "$classes": ["NSMutableDictionary", "NSDictionary", "NSObject"]},
            {"$class": UID(1), "NS.keys": [UID(3), UID(5)], "NS.objects": [UID(4), UID(6)]},
            "aliasData",
            fake_alias_data(rel),
            "relativePath",
            rel,
        ],
        "$archiver": "NSKeyedArchiver",
        "$top": {"root": UID(2)},
    }
    return b64(plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False))


def bdsk_file_plain(rel):
    """A plain (non-archived) binary plist dictionary {relativePath: ...}."""
    return b64(plistlib.dumps({"relativePath": rel}, fmt=plistlib.FMT_BINARY))


def xml_plist(obj):
    return plistlib.dumps(obj, fmt=plistlib.FMT_XML, sort_keys=True).decode("utf-8")


BIBDESK_STATIC_GROUPS = [
    {"group name": "To read",
     "keys": "turing1936computable,heyl2023understanding,geisberger2008contraction,muller2015fundamentals"},
    {"group name": "Typesetting course",
     "keys": "knuth1981breaking,knuth1984texbook,lamport1994latex,plass1981optimal,"
             "knuth1983web,vanderberg2018hyphenation"},
]

# comparison codes (BDSKStringComparison): 0 group contains, 1 group does not
# contain, 2 contains, 3 does not contain, 4 equal, 5 not equal,
# 6 starts with, 7 ends with, 8 smaller, 9 larger.  conjunction 0 = all (AND).
BIBDESK_SMART_GROUPS = [
    {"conditions": [{"comparison": 8, "key": "Year", "value": "1960", "version": "1"}],
     "conjunction": 0,
     "group name": "Before 1960"},
    {"conditions": [{"comparison": 2, "key": "Keywords", "value": "typesetting", "version": "1"}],
     "conjunction": 0,
     "group name": "Typesetting"},
]

BIB_TEMPLATE = r"""%% This BibTeX bibliography file was created using BibDesk.
%% https://bibdesk.sourceforge.io/

%% Created for bibread at 2026-01-10 09:41:12 +0100 


%% Saved with string encoding Unicode (UTF-8) 

%% bibread sample library.  Written for the bibread project and dedicated to
%% the public domain (CC0 1.0).  Generated by Samples/make-samples.py: change
%% the generator, not this file.  It deliberately mixes BibDesk and JabRef
%% conventions (linked files, groups, upper- and lower-case field names).
%% Entries whose note says "Fictitious" do not describe real publications.
%% The PDFs in papers/ are stand-in essays, not the cited works.

@string{spe = "Software---Practice and Experience"}

@string{aw = {Addison-Wesley}}

@string{acm = "Association for Computing Machinery"}

@string{stoc = "Annual ACM Symposium on Theory of Computing"}

@string{stancs = "Computer Science Department, Stanford University"}

@string{bstj = {Bell System Technical Journal}}

@string{plms = {Proceedings of the London Mathematical Society}}

@string{lncs = {Lecture Notes in Computer Science}}

@article{knuth1981breaking,
	Annote = {The total-fit line-breaking algorithm of {\TeX}: boxes, glue and penalties; badness and demerits; dynamic programming over the feasible breakpoints.},
	Author = {Knuth, Donald E. and Plass, Michael F.},
	Date-Added = {2022-03-14 10:12:44 +0100},
	Date-Modified = {2024-11-02 18:30:05 +0100},
	Doi = {10.1002/spe.4380111102},
	Journal = spe,
	Keywords = {typesetting, algorithms, line breaking},
	Month = nov,
	Number = {11},
	Pages = {1119--1184},
	Rating = {5},
	Read = {1},
	Title = {Breaking Paragraphs into Lines},
	Volume = {11},
	Year = {1981},
	Bdsk-File-1 = {@@FILE_LINE_BREAKING@@},
	Bdsk-Url-1 = {https://doi.org/10.1002/spe.4380111102}}

@book{knuth1984texbook,
	Address = {Reading, Massachusetts},
	Author = {Knuth, Donald E.},
	Date-Added = {2022-03-14 10:15:02 +0100},
	Date-Modified = {2023-10-09 14:03:51 +0200},
	Isbn = {0-201-13447-0},
	Keywords = {typesetting, TeX},
	Publisher = aw,
	Rating = {4},
	Read = {1},
	Series = {Computers \& Typesetting},
	Title = {The {\TeX}book},
	Volume = {A},
	Year = {1984},
	Bdsk-File-1 = {@@FILE_TEX_TOUR@@}}

@book{lamport1994latex,
	Address = {Reading, Massachusetts},
	Author = {Lamport, Leslie},
	Date-Added = {2022-04-02 16:40:19 +0200},
	Date-Modified = {2022-04-02 16:41:07 +0200},
	Edition = {Second},
	Isbn = {0-201-52983-1},
	Keywords = {typesetting, LaTeX},
	Publisher = aw # { Publishing Company},
	Rating = {4},
	Title = {{\LaTeX}: A Document Preparation System},
	Year = {1994}}

@article{goedel1931formal,
	Author = {G{\"o}del, Kurt},
	Date-Added = {2022-06-20 21:05:33 +0200},
	Date-Modified = {2024-05-06 16:50:12 +0200},
	Doi = {10.1007/BF01700692},
	Journal = {Monatshefte f{\"u}r Mathematik und Physik},
	Keywords = {logic, incompleteness},
	Language = {german},
	Number = {1},
	Pages = {173--198},
	Rating = {5},
	Title = {{\"U}ber formal unentscheidbare S{\"a}tze der \emph{Principia Mathematica} und verwandter Systeme {I}},
	Volume = {38},
	Year = {1931},
	groups = {Classics},
	Bdsk-File-1 = {@@FILE_INCOMPLETENESS@@},
	Bdsk-Url-1 = {https://doi.org/10.1007/BF01700692}}

@Article{dijkstra1959note,
  author   = {Dijkstra, Edsger W.},
  journal  = {Numerische Mathematik},
  title    = {A Note on Two Problems in Connexion with Graphs},
  year     = {1959},
  number   = {1},
  pages    = {269--271},
  volume   = {1},
  doi      = {10.1007/BF01386390},
  file     = {Full text:papers/shortest-paths.pdf:PDF},
  keywords = {graphs, shortest paths, algorithms},
}

@Article{shannon1948mathematical,
  author   = {Shannon, Claude E.},
  journal  = bstj,
  title    = {A Mathematical Theory of Communication},
  year     = {1948},
  month    = jul,
  number   = {3},
  pages    = {379--423},
  volume   = {27},
  doi      = {10.1002/j.1538-7305.1948.tb01338.x},
  file     = {:papers/information-theory.pdf:PDF;Slides:papers/information-theory-slides.pdf:PDF},
  groups   = {Classics},
  keywords = {information theory, entropy},
}

@Article{turing1936computable,
  author   = {Turing, Alan M.},
  journal  = plms,
  title    = {On Computable Numbers, with an Application to the \emph{Entscheidungsproblem}},
  year     = {1936},
  number   = {1},
  pages    = {230--265},
  volume   = {42},
  doi      = {10.1112/plms/s2-42.1.230},
  file     = {Full text:papers/missing.pdf:PDF},
  groups   = {Classics},
  keywords = {computability, logic},
  note     = {Series 2},
}

@article{erdos1959random,
	Author = {Erd\H{o}s, Paul and R{\'e}nyi, Alfr{\'e}d},
	Date-Added = {2022-09-02 11:27:40 +0200},
	Date-Modified = {2022-09-21 18:35:00 +0200},
	Journal = {Publicationes Mathematicae Debrecen},
	Keywords = {graphs, random graphs, probability},
	Pages = {290--297},
	Title = {On Random Graphs {I}},
	Volume = {6},
	Year = {1959}}

@inproceedings{cook1971complexity,
	Address = {New York, NY, USA},
	Author = {Cook, Stephen A.},
	Booktitle = "Proceedings of the Third " # stoc,
	Date-Added = {2023-01-11 09:14:27 +0100},
	Date-Modified = {2023-01-11 09:20:02 +0100},
	Doi = {10.1145/800157.805047},
	Keywords = {complexity, NP-completeness, logic},
	Month = may,
	Pages = {151--158},
	Publisher = acm,
	Series = {STOC '71},
	Title = {The Complexity of Theorem-Proving Procedures},
	Year = {1971},
	Bdsk-Url-1 = {https://doi.org/10.1145/800157.805047}}

@incollection{karp1972reducibility,
	Author = {Karp, Richard M.},
	Crossref = {miller1972complexity},
	Date-Added = {2023-01-11 09:22:51 +0100},
	Date-Modified = {2023-02-03 17:45:10 +0100},
	Doi = {10.1007/978-1-4684-2001-2_9},
	Keywords = {complexity, NP-completeness, graphs},
	Pages = {85--103},
	Read = {1},
	Title = {Reducibility among Combinatorial Problems}}

@proceedings{miller1972complexity,
	Address = {New York},
	Booktitle = {Complexity of Computer Computations},
	Date-Added = {2023-01-11 09:23:30 +0100},
	Date-Modified = {2023-01-11 09:23:30 +0100},
	Editor = {Miller, Raymond E. and Thatcher, James W.},
	Publisher = {Plenum Press},
	Series = {The IBM Research Symposia Series},
	Title = {Complexity of Computer Computations},
	Year = {1972}}

@phdthesis{plass1981optimal,
	Address = {Stanford, California},
	Author = {Plass, Michael Frederick},
	Date-Added = {2022-03-14 10:20:00 +0100},
	Date-Modified = {2025-06-30 08:12:45 +0200},
	Keywords = {typesetting, pagination, algorithms},
	Month = jun,
	School = {Stanford University},
	Title = {Optimal Pagination Techniques for Automatic Typesetting Systems},
	Year = {1981}}

@mastersthesis{vanderberg2018hyphenation,
	Address = {Utrecht},
	Author = {van der Berg, Jr, Pieter},
	Date-Added = {2024-02-19 13:02:11 +0100},
	Date-Modified = {2024-02-19 13:05:40 +0100},
	Keywords = {typesetting, hyphenation},
	Note = {Fictitious entry, included to test name parsing},
	School = {Hogeschool voor Typografie},
	Title = {Hyphenation Patterns Revisited: {Liang}'s Algorithm and {Dutch} Compound Words},
	Type = {{MSc} thesis},
	Year = {2018}}

@techreport{knuth1983web,
	Address = "Stanford, " # "California",
	Author = {Knuth, Donald E.},
	Date-Added = {2022-11-05 19:48:03 +0100},
	Date-Modified = {2022-11-05 19:48:03 +0100},
	Institution = stancs,
	Keywords = {literate programming, TeX},
	Month = sep,
	Number = {STAN-CS-83-980},
	Title = {The {WEB} System of Structured Documentation},
	Year = {1983}}

@misc{unicode2023linebreak,
	Author = {{The Unicode Consortium}},
	Date-Added = {2025-03-03 12:00:41 +0100},
	Date-Modified = {2025-03-03 12:04:09 +0100},
	Howpublished = {\url{https://www.unicode.org/reports/tr14/}},
	Keywords = {typesetting, line breaking, Unicode},
	Note = {Unicode Standard Annex \#14},
	Title = {Unicode Line Breaking Algorithm},
	Year = {2023},
	Bdsk-Url-1 = {https://www.unicode.org/reports/tr14/}}

@misc{yamada2019kinsoku,
	Author = {山田, 太郎},
	Date-Added = {2025-03-03 12:10:55 +0100},
	Date-Modified = {2025-03-04 08:31:17 +0100},
	Howpublished = {Lecture notes},
	Keywords = {typesetting, line breaking, Japanese},
	Language = {japanese},
	Note = {Fictitious entry. The title means ``Notes on line-breaking rules (kinsoku) in Japanese typesetting''},
	Title = {日本語組版における禁則処理の覚え書き},
	Year = {2019}}

@misc{heyl2023understanding,
	archivePrefix = {arXiv},
	author = {Heyl, Johannes and Butterworth, Joshua and Viti, Serena},
	date-added = {2023-09-14 20:09:08 +0200},
	date-modified = {2023-09-14 20:09:08 +0200},
	eprint = {2309.06784},
	keywords = {machine learning, astrochemistry},
	month = sep,
	primaryClass = {astro-ph.GA},
	title = {Understanding Molecular Abundances in Star-Forming Regions Using Interpretable Machine Learning},
	url = {https://arxiv.org/abs/2309.06784},
	year = {2023},
	bdsk-url-1 = {https://arxiv.org/abs/2309.06784},
	bdsk-url-2 = {https://arxiv.org/pdf/2309.06784.pdf}}

@manual{hanthethanh2022pdftex,
	Author = {Hàn, Thế Thành and Rahtz, Sebastian and Hagen, Hans and others},
	Date-Added = {2022-12-01 22:16:30 +0100},
	Date-Modified = {2023-10-09 14:10:02 +0200},
	Keywords = {typesetting, TeX, PDF},
	Note = {Distributed with {\TeX} Live},
	Title = {The pdf{\TeX} User Manual},
	Url = {https://ctan.org/pkg/pdftex},
	Year = {2022},
	Bdsk-Url-1 = {https://ctan.org/pkg/pdftex}}

@online{dvorak2021linebreaking,
	Author = {Dvo{\v{r}}{\'a}k, Jana},
	Date = {2021-05-04},
	Date-Added = {2024-02-11 10:30:00 +0100},
	Date-Modified = {2024-02-11 10:31:12 +0100},
	Keywords = {typesetting, line breaking},
	Note = {Fictitious blog post},
	Title = {Why {TeX}'s Line Breaker Still Matters},
	Url = {https://example.org/blog/why-tex-line-breaking-still-matters},
	Urldate = {2024-02-11},
	Bdsk-Url-1 = {https://example.org/blog/why-tex-line-breaking-still-matters}}

@article{vanderaalst1998petri,
	Author = {van der Aalst, Wil M. P.},
	Date-Added = {2023-05-17 15:45:21 +0200},
	Date-Modified = {2023-05-17 15:47:02 +0200},
	Doi = {10.1142/S0218126698000043},
	Journal = {Journal of Circuits, Systems and Computers},
	Keywords = {Petri nets, workflow, graphs},
	Number = {1},
	Pages = {21--66},
	Title = {The Application of {Petri} Nets to Workflow Management},
	Volume = {8},
	Year = {1998}}

@book{cormen2009introduction,
	Address = {Cambridge, Massachusetts},
	Author = {Cormen, Thomas H. and Leiserson, Charles E. and Rivest, Ronald L. and Stein, Clifford},
	Date-Added = {2022-09-02 11:30:12 +0200},
	Date-Modified = {2026-01-10 09:41:12 +0100},
	Edition = {Third},
	Isbn = {978-0-262-03384-8},
	Keywords = {algorithms, graphs, textbook},
	Publisher = {MIT Press},
	Rating = {3},
	Read = {1},
	Title = {Introduction to Algorithms},
	Year = {2009}}

@inproceedings{geisberger2008contraction,
	Address = {Berlin, Heidelberg},
	Author = {Geisberger, Robert and Sanders, Peter and Schultes, Dominik and Delling, Daniel},
	Booktitle = {Experimental Algorithms: 7th International Workshop, {WEA} 2008},
	Date-Added = {2022-09-21 18:40:00 +0200},
	Date-Modified = {2022-09-21 18:40:00 +0200},
	Doi = {10.1007/978-3-540-68552-4_24},
	Editor = {McGeoch, Catherine C.},
	Keywords = {graphs, shortest paths, route planning},
	Pages = {319--333},
	Publisher = {Springer},
	Series = lncs,
	Title = {Contraction Hierarchies: Faster and Simpler Hierarchical Routing in Road Networks},
	Volume = {5038},
	Year = {2008}}

@article{perez2007ipython,
	Author = {Pérez, Fernando and Granger, Brian E.},
	Date-Added = {2024-08-08 14:14:14 +0200},
	Date-Modified = {2024-08-08 14:20:31 +0200},
	Doi = {10.1109/MCSE.2007.53},
	Journal = {Computing in Science \& Engineering},
	Keywords = {scientific computing, software},
	Month = may,
	Number = {3},
	Pages = {21--29},
	Title = {{IPython}: A System for Interactive Scientific Computing},
	Volume = {9},
	Year = {2007},
	Bdsk-Url-1 = {https://doi.org/10.1109/MCSE.2007.53}}

@book{muller2015fundamentals,
	Address = {Cham},
	Author = {Müller, Meinard},
	Doi = {10.1007/978-3-319-21945-5},
	Keywords = {music, signal processing, algorithms},
	Publisher = {Springer},
	Title = {Fundamentals of Music Processing: Audio, Analysis, Algorithms, Applications},
	Year = {2015}}

@article{tarjan1975efficiency,
	Annote = {Union by rank with path compression: a sequence of $m$ operations on $n$ elements takes $O(m\,\alpha(m, n))$ time, where $\alpha$ is a functional inverse of Ackermann's function.},
	Author = {Tarjan, Robert Endre},
	Date-Added = {2026-01-05 17:02:09 +0100},
	Date-Modified = {2026-01-05 17:02:09 +0100},
	Doi = {10.1145/321879.321884},
	Journal = {Journal of the ACM},
	Keywords = {algorithms, data structures},
	Month = apr,
	Number = {2},
	Pages = {215--225},
	Title = {Efficiency of a Good But Not Linear Set Union Algorithm},
	Volume = {22},
	Year = {1975}}

@comment{BibDesk Static Groups{
@@BIBDESK_STATIC_GROUPS@@}}

@comment{BibDesk Smart Groups{
@@BIBDESK_SMART_GROUPS@@}}

@Comment{jabref-meta: databaseType:bibtex;}

@Comment{jabref-meta: grouping:
0 AllEntriesGroup:;
1 StaticGroup:Classics\;0\;1\;0x8a8a8aff\;\;\;;
1 KeywordGroup:Graphs\;0\;keywords\;graphs\;0\;0\;1\;0x8a8a8aff\;\;\;;
}
"""


def make_bib():
    text = BIB_TEMPLATE
    text = text.replace("@@FILE_LINE_BREAKING@@", bdsk_file_keyed("papers/line-breaking.pdf"))
    text = text.replace("@@FILE_TEX_TOUR@@", bdsk_file_keyed_reordered("papers/tex-tour.pdf"))
    text = text.replace("@@FILE_INCOMPLETENESS@@", bdsk_file_plain("papers/incompleteness.pdf"))
    text = text.replace("@@BIBDESK_STATIC_GROUPS@@", xml_plist(BIBDESK_STATIC_GROUPS))
    text = text.replace("@@BIBDESK_SMART_GROUPS@@", xml_plist(BIBDESK_SMART_GROUPS))
    assert "@@" not in text
    with open(os.path.join(HERE, "library.bib"), "w", encoding="utf-8", newline="\n") as fp:
        fp.write(text)


def main():
    os.makedirs(PAPERS, exist_ok=True)
    for spec in DOCUMENTS:
        build_pdf(spec)
    make_bib()


if __name__ == "__main__":
    main()
