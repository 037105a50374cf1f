"""Generate the test fixtures (and the bundled sample) from scratch.

    python tests/make_fixtures.py OUTDIR            # the small fixtures
    python tests/make_fixtures.py OUTDIR --big      # plus the 2,100-page document
    python tests/make_fixtures.py --sample PATH     # the demo sample PDF

Nothing here downloads anything; reportlab draws, pypdf encrypts and edits outlines.
"""

from __future__ import annotations

import argparse
import codecs
import io
import sys
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    TextStringObject,
)
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

PHRASES = {1: "alpha quantum lighthouse", 2: "beta crimson harbor", 3: "gamma velvet mountain"}
NEEDLE_PAGE = 1337
NEEDLE = "needle in page thirteen thirty seven zebra"
FILLER = ("The quick brown fox jumps over the lazy dog while the committee reviews "
          "the annual report on regional water supply and the harbour accounts.")


def _page(c: canvas.Canvas, lines: list[str], size: int = 11) -> None:
    c.setFont("Helvetica", size)
    y = A4[1] - 72
    for line in lines:
        c.drawString(72, y, line)
        y -= size * 1.5
    c.showPage()


def three_page() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setTitle("Three Page Test")
    for n in (1, 2, 3):
        _page(c, [f"Page {n} of the three page test", f"The phrase here is {PHRASES[n]}.", FILLER])
    c.save()
    return buf.getvalue()


def scanned(pages: int = 2) -> bytes:
    from PIL import Image, ImageDraw
    from reportlab.lib.utils import ImageReader

    image = Image.new("L", (850, 1100), 255)
    draw = ImageDraw.Draw(image)
    for y in range(100, 1000, 40):
        draw.rectangle([80, y, 770, y + 14], fill=30)  # looks like lines of print, holds no text
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    for _ in range(pages):
        c.drawImage(ImageReader(image), 0, 0, width=A4[0], height=A4[1])
        c.showPage()
    c.save()
    return buf.getvalue()


def encrypted(data: bytes, user: str, owner: str, algorithm: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user, owner_password=owner, algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pages_doc(count: int, title: str, body: dict[int, list[str]] | None = None) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setTitle(title)
    body = body or {}
    for n in range(1, count + 1):
        _page(c, body.get(n, [f"This is page {n} of {count}.", FILLER]))
    c.save()
    return buf.getvalue()


def _title(raw: bytes) -> ByteStringObject:
    return ByteStringObject(raw)


def outline_doc() -> bytes:
    """Four pages; an outline with nested items, a /GoTo action, a named destination,
    UTF-16BE and PDFDocEncoding titles, and a loop back to the first item."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pages_doc(4, "Outline Test"))))
    pages = [p.indirect_reference for p in writer.pages]

    def dest(index: int) -> ArrayObject:
        return ArrayObject([pages[index], NameObject("/Fit")])

    # Named destination "sec12" -> page 3, through the /Names /Dests name tree.
    names = DictionaryObject({NameObject("/Names"): ArrayObject([TextStringObject("sec12"), dest(2)])})
    writer._root_object[NameObject("/Names")] = DictionaryObject(
        {NameObject("/Dests"): writer._add_object(names)})

    root = writer._add_object(DictionaryObject({NameObject("/Type"): NameObject("/Outlines")}))
    ch1 = writer._add_object(DictionaryObject({NameObject("/Title"): _title(b"Chapter 1"),
                                               NameObject("/Dest"): dest(0)}))
    s11 = writer._add_object(DictionaryObject({
        NameObject("/Title"): _title(b"Section 1.1 \x84 by action"),  # PDFDoc 0x84 is an em dash
        NameObject("/A"): DictionaryObject({NameObject("/S"): NameObject("/GoTo"), NameObject("/D"): dest(1)}),
    }))
    s12 = writer._add_object(DictionaryObject({
        NameObject("/Title"): _title(codecs.BOM_UTF16_BE + "Section 1.2 — named ✓".encode("utf-16-be")),
        NameObject("/Dest"): TextStringObject("sec12"),
    }))
    ch2 = writer._add_object(DictionaryObject({NameObject("/Title"): _title(b"Caf\xe9 chapter 2"),
                                               NameObject("/Dest"): dest(3)}))
    root_d, ch1_d, s11_d, s12_d, ch2_d = (o.get_object() for o in (root, ch1, s11, s12, ch2))
    root_d.update({NameObject("/First"): ch1, NameObject("/Last"): ch2, NameObject("/Count"): NumberObject(4)})
    ch1_d.update({NameObject("/Parent"): root, NameObject("/First"): s11, NameObject("/Last"): s12,
                  NameObject("/Next"): ch2, NameObject("/Count"): NumberObject(2)})
    s11_d.update({NameObject("/Parent"): ch1, NameObject("/Next"): s12})
    s12_d.update({NameObject("/Parent"): ch1, NameObject("/Prev"): s11,
                  NameObject("/First"): ch1})  # a loop: a child pointing back at its parent
    ch2_d.update({NameObject("/Parent"): root, NameObject("/Prev"): ch1,
                  NameObject("/Next"): ch1})  # and a sibling loop
    writer._root_object[NameObject("/Outlines")] = root
    writer.set_page_label(0, 1, style="/r")  # i, ii
    writer.set_page_label(2, 3, style="/D", start=1)  # 1, 2
    writer._info.get_object()[NameObject("/Title")] = _title(
        codecs.BOM_UTF16_BE + "Outline Tëst".encode("utf-16-be"))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def long_doc(pages: int = 40) -> bytes:
    """A document well over the default 40,000-character cap, with an outline."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pages_doc(
        pages, "A Long Report", {n: [f"Long report page {n}."] + [FILLER] * 14 for n in range(1, pages + 1)}))))
    for chapter in range(0, pages, 10):
        parent = writer.add_outline_item(title=f"Chapter {chapter // 10 + 1}", page_number=chapter)
        writer.add_outline_item(title=f"Section {chapter // 10 + 1}.1", page_number=chapter + 4, parent=parent)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def big_doc(pages: int = 2100) -> bytes:
    body = {NEEDLE_PAGE: [f"This is page {NEEDLE_PAGE} of {pages}.", f"Here lies the {NEEDLE}.", FILLER]}
    return pages_doc(pages, "Two Thousand One Hundred Pages", body)


WORDS = ("water supply harbour committee annual report regional accounts river basin storage "
         "reservoir treatment quality network pressure demand meter tariff revenue capital works "
         "maintenance pipeline district council review budget estimate forecast summer winter "
         "rainfall catchment licence abstraction drought resilience customer service leakage").split()


def dense_doc(pages: int = 2100) -> bytes:
    """A dense report like the ones people search: A4, a 9 pt running header, 50 lines of
    11 pt Times body text (about 4,200 characters) and a page number on every page."""
    import random

    rng = random.Random(2100)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setTitle("Dense Report")
    for n in range(1, pages + 1):
        c.setFont("Helvetica", 9)
        c.drawString(72, A4[1] - 40, "Regional Water Supply — Annual Report of the Harbour Committee")
        c.setFont("Times-Roman", 11)
        y = A4[1] - 72
        for _ in range(50):
            line: list[str] = []
            while sum(len(w) + 1 for w in line) < 78:
                line.append(rng.choice(WORDS))
            if n == NEEDLE_PAGE and y == A4[1] - 72:
                line = NEEDLE.split()
            c.drawString(72, y, " ".join(line))
            y -= 13.6
        c.setFont("Helvetica", 9)
        c.drawCentredString(A4[0] / 2, 30, str(n))
        c.showPage()
    c.save()
    return buf.getvalue()


def sample() -> bytes:
    """The bundled demo document: a short field guide with an outline."""
    sections = [
        ("1 Why rivers meander", [
            "A river on a flat plain rarely runs straight. Water on the outside of a bend moves",
            "faster and cuts the bank, while slower water on the inside drops its sand, so every",
            "bend grows a little each flood season until the loop is cut off as an oxbow lake.",
            "The steeper the valley, the straighter the channel: meanders need a gentle slope",
            "and banks soft enough to erode, which is why they are common on alluvial plains.",
        ]),
        ("2 Reading a flood plain", [
            "Oxbow lakes, levees and scroll bars record where the channel used to be. A map of",
            "the flood plain is a history of the river: the older the scroll bar, the further it",
            "lies from the present channel. Surveyors date them by the trees that grow on them.",
            "Natural levees form where floodwater leaves the channel and slows at once, dropping",
            "its coarsest load on the bank; the finer silt settles far out in the back swamps.",
        ]),
        ("3 Measuring discharge", [
            "Discharge is the volume of water passing a cross-section each second. Hydrologists",
            "measure the depth and velocity at stations across the channel and add up the",
            "product of area and velocity. A rating curve then links discharge to stage height.",
            "Gauging stations record stage every fifteen minutes, and the rating curve turns",
            "each reading into discharge until a flood reshapes the bed and it must be redrawn.",
        ]),
        ("4 Sediment budgets", [
            "A sediment budget balances what enters a reach with what leaves it and what is",
            "stored. Dams trap sediment, so reaches below them starve and cut down into their",
            "beds; this is why deltas shrink when rivers upstream are dammed.",
            "Measuring the load is hard: suspended sediment is sampled with bottles lowered",
            "through the water column, while bed load is caught in traps set on the river bed.",
        ]),
        ("5 Field safety", [
            "Never wade a river above knee depth, keep a throw line on the bank, and check the",
            "gauge upstream before you start: a storm an hour away raises the water quickly.",
        ]),
    ]
    return article("A Field Guide to Rivers", sections)


def article(title: str, sections: list[tuple[str, list[str]]]) -> bytes:
    """A document of one section a page (a bold heading, its lines, a footer), the outline
    naming each section: the bundled sample and the documentation's other files."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setTitle(title)
    for number, (heading, lines) in enumerate(sections, 1):
        c.bookmarkPage(f"s{number}")
        c.addOutlineEntry(heading, f"s{number}", level=0)
        c.setFont("Helvetica-Bold", 15)
        c.drawString(72, A4[1] - 72, heading)
        c.setFont("Helvetica", 11)
        y = A4[1] - 104
        for line in lines:
            c.drawString(72, y, line)
            y -= 16
        c.setFont("Helvetica", 9)
        c.drawCentredString(A4[0] / 2, 40, f"{title} · {number}")
        c.showPage()
    c.save()
    return buf.getvalue()


def attention_paper() -> bytes:
    """Fifteen pages standing in for the paper the README fetches (arXiv 1706.03762, also its
    paper.pdf): attention heads, the optimizer, the learning rate, numbered tables."""
    sections = [
        ("1 Introduction", ["Recurrent models read a sequence one position at a time, which keeps",
                            "training from running in parallel. We propose a model built on attention",
                            "alone, with no recurrence, that trains faster and translates better."]),
        ("2 Background", ["Convolutional models shorten the path between distant positions, but the",
                          "number of operations still grows with the distance. Self-attention",
                          "relates every position of a sequence to every other in one step."]),
        ("3 Model Architecture", ["The encoder maps a sequence of symbols to a sequence of vectors; the",
                                  "decoder then writes the output one symbol at a time. Both are stacks",
                                  "of six identical layers with residual connections around each part."]),
        ("3.1 Scaled Dot-Product Attention", ["The attention function compares a query with every key, scales the",
                                              "products by the square root of the key size, and weights the values",
                                              "by a softmax of the result."]),
        ("3.2 Multi-Head Attention", ["Each attention head projects the queries, keys and values to a smaller",
                                      "size and attends on its own; the heads are joined and projected again.",
                                      "With eight heads the model attends to several subspaces at once."]),
        ("3.3 Position-wise Feed-Forward Networks", [
            "Every layer also holds a feed-forward network applied to each position",
            "on its own: two linear maps with a rectified linear unit between them."]),
        ("3.4 Positional Encoding", ["Since the model has no recurrence, the order of the sequence is added to",
                                     "the embeddings as sines and cosines of different frequencies."]),
        ("4 Why Self-Attention", ["Table 1 compares the layers by their cost per layer, the operations that",
                                  "must run one after another, and the longest path between two positions.",
                                  "A self-attention layer connects all positions in a constant number of steps."]),
        ("5 Training", ["We trained on about four million sentence pairs, batched by length so that",
                        "each batch held about twenty-five thousand source and target tokens."]),
        ("5.3 Optimizer", ["We used the Adam optimizer with beta1 0.9, beta2 0.98 and epsilon 1e-9.",
                           "The learning rate rose linearly for the first four thousand steps and then",
                           "fell with the inverse square root of the step number."]),
        ("6 Results", ["Table 2 shows the translation scores: the big model is better than every",
                       "model reported before it, at a fraction of their training cost."]),
        ("6.2 Model Variations", ["Table 3 varies the model: a single attention head is worse than eight,",
                                  "and too many heads are worse too. Dropout helps against over-fitting."]),
        ("7 Conclusion", ["The Transformer is the first sequence model built entirely on attention.",
                          "We plan to apply it to images, audio and video."]),
        ("References", ["[1] A layer normalization method. [2] Neural translation by joint alignment.",
                        "[3] Long short-term memory. [4] Adam, a method for stochastic optimization."]),
        ("Attention Visualizations", ["Figures of the attention of several heads in the fifth layer, following",
                                      "long-distance dependencies in one sentence."]),
    ]
    return article("Attention Is All You Need", sections)


def thesis(pages: int = 20) -> bytes:
    """A thesis long enough for ``pages 14-16``, its learning rate chapter on page 15."""
    sections = [(f"{n} Chapter {n}", [f"This is chapter {n} of the thesis.", FILLER[:80]]) for n in range(1, pages + 1)]
    sections[14] = ("15 Tuning the learning rate", ["The learning rate was halved whenever the validation loss",
                                                     "stopped falling for three epochs."])
    return article("Learning to Read Rivers", sections)


def book(pages: int = 40) -> bytes:
    """A manual of some length whose chapters speak of interrupts (the grep examples' book.pdf)."""
    sections = [(f"{n} Chapter {n}", [f"Chapter {n} of the manual.", FILLER[:80]]) for n in range(1, pages + 1)]
    for n in (3, 17, 29):
        sections[n - 1] = (f"{n} Interrupts, part {n}", [
            "An interrupt stops the program at the next instruction; the handler runs,",
            "then the program goes on where it stopped. Mask an interrupt while you",
            "change the table of handlers."])
    return article("A Manual of Small Machines", sections)


# --- organization fixtures: what a user would notice if organization broke -----------------

PAPER_HEADER = "Journal of Synthetic Results, Vol. 7"
PAPER_TITLE = "Measuring Rivers with Synthetic Columns"
PAPER_ABSTRACT = ("Abstract. We describe a synthetic two-column article whose layout exercises reading "
                  "order, running headers, page numbers, hyphenation, tables, figures and footnotes. The "
                  "abstract spans both columns and must come first, before the left column begins.")
PAPER_FOOTNOTE = "1 Supported by the imaginary foundation for tidy documents."
PAPER_CAPTION = "Figure 1: Discharge measured at three stations along the synthetic river."
PAPER_TABLE = [["Station", "Depth (m)", "Velocity (m/s)", "Discharge"],
               ["Upper weir", "1.20", "0.85", "14.3"],
               ["Mill bridge", "2.05", "0.61", "21.7"],
               ["Estuary gauge", "3.40", "0.42", "33.9"]]
_WORDS = ("the river carries sediment downstream while hydrologists measure depth velocity and "
          "discharge at stations across the channel each season and the rating curve links stage "
          "height to the volume of water passing every second although floods reshape the banks "
          "considerably and instrumentation requires recalibration afterwards the characteristic "
          "sedimentation measurements approximately reconstruct hydrodynamic morphology").split()


def _sentence_text(seed: int, words: int) -> str:
    picked = [_WORDS[(seed * 7 + i * 3) % len(_WORDS)] for i in range(words)]
    return picked[0].capitalize() + " " + " ".join(picked[1:]) + "."


def paper_paragraphs() -> list[tuple[str, str]]:
    """The article's flow: ("heading", text) and ("para", text) items, in reading order."""
    flow: list[tuple[str, str]] = []
    for section, title in enumerate(["Introduction", "Methods", "Results", "Discussion"], 1):
        flow.append(("heading", f"{section} {title}"))
        for k in range(4):
            seed = section * 10 + k
            flow.append(("para", f"P{section}{k} " + " ".join(_sentence_text(seed + j, 9 + (seed + j) % 7)
                                                              for j in range(4 + (seed % 3)))))
    return flow


class _Columns:
    """A tiny two-column typesetter: justified lines, first-line indents, word hyphenation."""

    width, height = 612.0, 792.0
    margin, gutter, top, bottom = 54.0, 18.0, 712.0, 72.0
    size, leading = 10.0, 12.0

    def __init__(self, c: canvas.Canvas) -> None:
        self.c = c
        self.col_width = (self.width - 2 * self.margin - self.gutter) / 2
        self.page, self.column, self.y = 1, 0, self.top
        self.placed: dict[str, list[tuple[int, int]]] = {}  # paragraph -> (page, column) visited

    def x(self) -> float:
        return self.margin + self.column * (self.col_width + self.gutter)

    def furniture(self) -> None:
        self.c.setFont("Helvetica", 8)
        self.c.drawCentredString(self.width / 2, 750, PAPER_HEADER)
        self.c.drawCentredString(self.width / 2, 40, str(self.page))

    def next_column(self) -> None:
        if self.column == 0:
            self.column, self.y = 1, self.column_top
            return
        self.c.showPage()
        self.page += 1
        self.furniture()
        self.column, self.y = 0, self.top
        self.column_top = self.top

    column_top = top

    def need(self, height: float) -> None:
        if self.y - height < self.bottom:
            self.next_column()

    def heading(self, text: str) -> None:
        self.need(3 * self.leading)
        self.y -= self.leading * 0.8
        self.c.setFont("Times-Bold", 12)
        self.c.drawString(self.x(), self.y, text)
        self.y -= self.leading * 1.6

    def paragraph(self, text: str) -> None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        lines, words, indent = [], text.split(), self.size
        current: list[str] = []
        for word in words:
            room = self.col_width - (indent if not lines else 0)
            trial = " ".join(current + [word])
            if stringWidth(trial, "Times-Roman", self.size) <= room:
                current.append(word)
                continue
            if len(word) >= 8:  # hyphenate: the first part that fits, then a hyphen
                for cut in range(len(word) - 3, 2, -1):
                    head = " ".join(current + [word[:cut] + "-"])
                    if stringWidth(head, "Times-Roman", self.size) <= room:
                        lines.append(current + [word[:cut] + "-"])
                        current, word = [], word[cut:]
                        break
            if current:
                lines.append(current)
            current = [word]
        lines.append(current)
        for index, line in enumerate(lines):
            self.need(self.leading)
            self.placed.setdefault(text, [])
            if (self.page, self.column) not in self.placed[text]:
                self.placed[text].append((self.page, self.column))
            x = self.x() + (indent if index == 0 else 0)
            room = self.col_width - (indent if index == 0 else 0)
            self._justified(x, " ".join(line), room, last=index == len(lines) - 1)
            self.y -= self.leading
        self.y -= self.leading * 0.3

    def _justified(self, x: float, line: str, room: float, last: bool) -> None:
        from reportlab.pdfbase.pdfmetrics import stringWidth

        t = self.c.beginText(x, self.y)
        t.setFont("Times-Roman", self.size)
        gaps = line.count(" ")
        if not last and gaps:
            t.setWordSpace((room - stringWidth(line, "Times-Roman", self.size)) / gaps)
        t.textLine(line)
        self.c.drawText(t)


def two_column_paper() -> tuple[bytes, dict[str, list[tuple[int, int]]]]:
    """Three pages of a two-column article. Returns the PDF and, per paragraph, the
    (page, column) places it was set in (a paragraph in two places crossed a break)."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(612, 792))
    c.setTitle("")
    cols = _Columns(c)
    cols.furniture()
    c.setFont("Times-Bold", 18)
    c.drawCentredString(306, 700, PAPER_TITLE)
    t = c.beginText(54, 670)
    t.setFont("Times-Italic", 10)
    from reportlab.pdfbase.pdfmetrics import stringWidth

    words, line = PAPER_ABSTRACT.split(), []
    for word in words:  # the abstract is set full width, justified
        if stringWidth(" ".join(line + [word]), "Times-Italic", 10) > 504:
            t.setWordSpace((504 - stringWidth(" ".join(line), "Times-Italic", 10)) / (len(line) - 1))
            t.textLine(" ".join(line))
            line = []
        line.append(word)
    t.setWordSpace(0)
    t.textLine(" ".join(line))
    c.drawText(t)
    cols.top = cols.column_top = cols.y = 620
    c.setFont("Times-Roman", 8)
    c.drawString(54, 84, PAPER_FOOTNOTE)  # under the left column of page 1
    cols.bottom = 100
    flow = paper_paragraphs()
    for index, (kind, text) in enumerate(flow):
        if kind == "heading":
            cols.heading(text)
        else:
            cols.paragraph(text)
        if cols.page == 2 and cols.bottom == 100:
            cols.bottom = 72
        if cols.page == 1 and cols.top == 620 and cols.column == 1:
            cols.top = 712
        if index == 5:  # a figure with its caption, in the flow
            cols.need(110)
            image = Image.new("L", (200, 120), 200)
            c.drawImage(ImageReader(image), cols.x() + 20, cols.y - 80, width=200, height=80)
            cols.y -= 92
            c.setFont("Times-Roman", 9)
            words = PAPER_CAPTION.split()
            cut = max(n for n in range(len(words))
                      if stringWidth(" ".join(words[:n]), "Times-Roman", 9) <= cols.col_width)
            cut = len(" ".join(words[:cut]))
            c.drawString(cols.x(), cols.y, PAPER_CAPTION[:cut])
            cols.y -= 11
            c.drawString(cols.x(), cols.y, PAPER_CAPTION[cut + 1:])
            cols.y -= 20
    c.showPage()
    cols.page += 1
    cols.furniture()
    _table(c, 54, 700)  # a full-width table on the last page
    c.setFont("Times-Roman", 10)
    c.drawString(54, 600, "The table above lists every station with its measured discharge.")
    c.showPage()
    c.save()
    return buf.getvalue(), cols.placed


def _table(c: canvas.Canvas, x: float, y: float) -> None:
    columns = [0, 150, 280, 410]
    for r, row in enumerate(PAPER_TABLE):
        c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 9)
        for offset, cell in zip(columns, row, strict=True):
            c.drawString(x + offset, y - r * 14, cell)


REG_HEADER = "滨江市公共数据管理条例"
REG_CHAPTERS = {
    "第一章　总则": [
        "第一条　为了规范公共数据的收集、共享、开放和安全管理，促进公共数据依法有序流动，"
        "提升政府治理能力和公共服务水平，根据有关法律、行政法规，结合本市实际，制定本条例。",
        "第二条　本市行政区域内公共数据的收集、归集、共享、开放、利用和安全管理等活动，适用本条例。",
        "第三条　市人民政府应当加强对公共数据管理工作的领导，建立健全公共数据管理协"
        "调机制，研究解决公共数据管理工作中的重大问题，并将所需经费列入本级财政预算。",
    ],
    "第二章　收集与共享": [
        "第四条　公共管理和服务机构应当按照法定权限和程序收集公共数据，不得超出"
        "履行职责的需要收集，不得泄露、篡改、毁损或者非法向他人提供所收集的数据。",
        "第五条　公共数据以共享为原则，不共享为例外。公共管理和服务机构之间共享公"
        "共数据，应当通过统一的共享平台进行，并明确共享数据的使用范围、用途和期限。",
        "第六条　公共管理和服务机构对获取的共享数据的准确性有异议的，可以向数据"
        "提供单位提出校核申请，数据提供单位应当在五个工作日内予以校核并反馈结果。",
    ],
    "第三章　开放与利用": [
        "第七条　公共数据开放应当遵循需求导向、安全可控、分级分类、统一标准、便捷高效的原则，"
        "依法依规向社会开放，鼓励社会力量开发利用公共数据资源，促进数字经济发展和社会治理创新。",
        "第八条　自然人、法人和非法人组织可以通过开放平台获取无条件开"
        "放的公共数据，也可以依照本条例申请获取有条件开放的公共数据。",
        "第九条　违反本条例规定的，由有关主管部门责令改正；情节严重的，依法追究法律责任。",
    ],
    "第四章　安全管理": [
        f"第{n}条　公共管理和服务机构应当落实公共数据安全管理责任，建立健全第{n}类数据的分级分类保护、"
        "访问控制、日志审计和应急处置制度，定期开展安全评估，及时消除安全隐患，保障公共数据全生命周期安全。"
        for n in ("十", "十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八", "十九", "二十")
    ],
}


def chinese_regulation() -> bytes:
    """A regulation set like a printed gazette: chapter headings, provisions wrapped over
    full-width lines with a two-character first-line indent, a running header and
    full-width page numbers such as '— ５６ —'."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    size, per_line, x0 = 14.0, 28, 100.0
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    state = {"page": 1, "y": 740.0}

    def furniture() -> None:
        c.setFont("STSong-Light", 10)
        c.drawCentredString(A4[0] / 2, 800, REG_HEADER)
        folio = str(55 + state["page"]).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
        c.drawCentredString(A4[0] / 2, 40, f"— {folio} —")

    def line(text: str, x: float) -> None:
        if state["y"] < 90:
            c.showPage()
            state["page"] += 1
            state["y"] = 740.0
            furniture()
        c.setFont("STSong-Light", size)
        c.drawString(x, state["y"], text)
        state["y"] -= size * 1.6

    furniture()
    for chapter, provisions in REG_CHAPTERS.items():
        c.setFont("STSong-Light", 16)
        state["y"] -= 8
        c.drawCentredString(A4[0] / 2, state["y"], chapter)
        state["y"] -= 16 * 2
        for text in provisions:
            first = per_line - 2
            line(text[:first], x0 + 2 * size)
            for start in range(first, len(text), per_line):
                line(text[start:start + per_line], x0)
        state["y"] -= 30  # chapters keep their distance: and the document reaches page four
    c.showPage()
    c.save()
    return buf.getvalue()


FORM_VISIBLE = "Applicant: Alexandria Montgomery"
FORM_HIDDEN = "Wellington of Lower Saxony"


def clipped_form() -> bytes:
    """A form whose applicant cell clips the end of an over-long name."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 780, "Permit application form")
    from reportlab.pdfbase.pdfmetrics import stringWidth

    cell = 4 + stringWidth(FORM_VISIBLE + " ", "Helvetica", 11)  # the name runs out of its cell
    c.rect(72, 700, cell, 24)
    c.saveState()
    path = c.beginPath()
    path.rect(72, 700, cell, 24)
    c.clipPath(path, stroke=0, fill=0)
    c.setFont("Helvetica", 11)
    c.drawString(76, 708, f"{FORM_VISIBLE} {FORM_HIDDEN}")
    c.restoreState()
    c.setFont("Helvetica", 11)
    c.drawString(72, 660, "Signature of the applicant and the date of the application.")
    c.showPage()
    c.save()
    return buf.getvalue()


def two_page_with_header() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    for n in (1, 2):
        c.setFont("Helvetica", 8)
        c.drawCentredString(A4[0] / 2, 810, "Quarterly Harbour Bulletin")
        c.drawCentredString(A4[0] / 2, 30, str(n))
        c.setFont("Helvetica", 11)
        c.drawString(72, 700, f"Harbour notice number {n} concerns the dredging schedule.")
        c.showPage()
    c.save()
    return buf.getvalue()


def garbled_scan() -> bytes:
    """A scanned page whose invisible text layer decodes to symbols, then a normal page."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    c.drawImage(ImageReader(Image.new("L", (400, 560), 230)), 0, 0, width=A4[0], height=A4[1])
    c.setFont("Helvetica", 11)
    for row in range(20):
        c.drawString(72, 760 - row * 16, "¤¦§¨ ©«¬® ¯°±´ ¶·¸» ×÷¤¦ §¨©«"[row % 5:] + " ¬®¯°±")
    c.showPage()
    c.setFont("Helvetica", 11)
    c.drawString(72, 760, "An ordinary page of readable text follows the scan.")
    c.showPage()
    c.save()
    return buf.getvalue()


def type3_codes(pages: int = 1, readable: bool = True, first: int = 1) -> bytes:
    """``pages`` pages set in a Type 3 font of drawn glyphs that maps none of them to Unicode
    (no ToUnicode, glyph names that name nothing: /a1, /a2 …, codes handed out from ``first``
    in order of use, as dvips wrote TeX's bitmap fonts), then, when ``readable``, a page of
    Helvetica. Codes from 1 read as control characters; from 33 as the characters of those
    codes ('A' for 65), and the font's glyphs are then set apart one by one, as some such
    producers placed each glyph: each reads as a word of one letter."""
    glyphs = 8
    procs = b" ".join(b"/a%d %d 0 R" % (code, 6 + k) for k, code in enumerate(range(first, first + glyphs), 1))
    font = (b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 500 700] /FontMatrix [0.001 0 0 0.001 0 0] "
            b"/CharProcs << " + procs + b" >> /Encoding << /Type /Encoding /Differences [%d " % first
            + b" ".join(b"/a%d" % code for code in range(first, first + glyphs)) + b"] >> "
            b"/FirstChar %d /LastChar %d /Widths [" % (first, first + glyphs - 1)
            + b" ".join([b"550"] * glyphs) + b"] /Resources << >> >>")
    words = [bytes(range(first + k % 3, first + k % 3 + 4 + k % 5)) for k in range(40)]
    lines = [b" ".join(b"<%s>" % word.hex().encode() for word in words[row::8]) for row in range(8)]
    if first > 32:  # each glyph set apart from the next
        lines = [b" -400 ".join(b"<%02x>" % code for word in words[row::8] for code in word) for row in range(8)]
    coded = b"BT /T 11 Tf 14 TL 72 760 Td " + b" ".join(b"[" + line + b"] TJ T*" for line in lines) + b" ET"
    plain = b"BT /H 11 Tf 72 760 Td (A page of ordinary text follows the coded ones.) Tj ET"
    kids = pages + (1 if readable else 0)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (7 + glyphs + k) for k in range(kids))
               + b"] /Count %d >>" % kids,
               font, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", _stream(coded), _stream(plain)]
    objects += [_stream(b"550 0 0 0 500 700 d1 %d 0 %d 600 re f" % (40 + 20 * (code % 4), 300 + 20 * code))
                for code in range(1, glyphs + 1)]
    resources = b"/Resources << /Font << /T 3 0 R /H 4 0 R >> >>"
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] " + resources
                + b" /Contents %d 0 R >>" % (5 if k < pages else 6) for k in range(kids)]
    return raw_pdf(objects)


TYPE3_HEAD = "The other heads"
TYPE3_LINES = ["the other heads hold the rest and the", "border holds the bands at the other",
               "end that the heads hold as there is"]


def type3_scaled() -> bytes:
    """A heading and a paragraph of three lines in a Type 3 font whose own matrix sets its
    size (FontMatrix 0.0417: glyph space 1000 to the em, a 10-point em at 0.24 Tf), as dvips
    wrote TeX's bitmap fonts: the text's size is 0.24 to a reader that leaves the font's
    matrix out. Its glyphs are named (they map to letters); capitals and ascenders stand 700
    units tall, the x-height 460."""
    letters = "Tabdehlnorst"
    tall = set("Tbdhlt")
    procs = b" ".join(b"/%s %d 0 R" % (char.encode(), 8 + k) for k, char in enumerate(letters))
    codes = b" ".join(b"%d /%s" % (ord(char), char.encode()) for char in letters)
    widths = b" ".join(b"500" if chr(code) in letters else b"250" for code in range(32, 117))
    font = (b"<< /Type /Font /Subtype /Type3 /FontBBox [0 -200 500 700] /FontMatrix [0.0417 0 0 0.0417 0 0] "
            b"/CharProcs << /space 7 0 R " + procs + b" >> /Encoding << /Type /Encoding /Differences [32 /space "
            + codes + b"] >> /FirstChar 32 /LastChar 116 /Widths [" + widths + b"] /Resources << >> >>")
    head = b"BT /T 0.384 Tf 72 700 Td (%s) Tj ET " % TYPE3_HEAD.encode()
    body = b"BT /T 0.24 Tf 12 TL 72 670 Td " + b" ".join(b"(%s) Tj T*" % line.encode() for line in TYPE3_LINES) + b" ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [6 0 R] /Count 1 >>", font,
               _stream(head + body), b"<< >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /T 3 0 R >> >>"
               b" /Contents 4 0 R >>", _stream(b"250 0 0 0 0 0 d1")]
    objects += [_stream(b"500 0 0 0 400 700 d1 50 0 400 %d re f" % (700 if char in tall else 460)) for char in letters]
    return raw_pdf(objects)


def form_image() -> bytes:
    """A paragraph, a picture drawn inside a form XObject that the page moves to the middle of
    the page (x 300-400, y 200-280: the image's own box in the form is at its origin), and a
    paragraph below it."""
    image = b"<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8" \
            b" /Length 4 >>\nstream\n\x00\x80\x80\x00\nendstream"
    drawn = b"q 100 0 0 80 0 0 cm /Im1 Do Q"
    form = (b"<< /Type /XObject /Subtype /Form /BBox [0 0 100 80] /Resources << /XObject << /Im1 7 0 R >> >>"
            b" /Length %d >>\nstream\n" % len(drawn) + drawn + b"\nendstream")
    body = (b"BT /F1 11 Tf 72 700 Td (The paragraph above the picture says what it shows.) Tj ET "
            b"q 1 0 0 1 300 200 cm /Fm1 Do Q "
            b"BT /F1 11 Tf 72 100 Td (The paragraph below the picture comes after it.) Tj ET")
    return raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >>"
                    b" /XObject << /Fm1 6 0 R >> >> /Contents 5 0 R >>",
                    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
                    _stream(body), form, image])


GBK_LINES = ["关于公司年度报告中有关财务事项的说明", "上海证券交易所", "我们对问询函所提及的财务事项进行了审慎核查"]


def gbk_text() -> bytes:
    """A page of Chinese set in SimSun through the predefined CMap GBK-EUC-H, the font not
    embedded, invisible over where a scan would be and one glyph a text object (as an OCR
    program wrote a scan's text layer), and a line of figures in Helvetica. PDFium reads the
    figures alone: it leaves such objects of one glyph out of the page's text."""
    content = b"BT /H 10 Tf 72 800 Td (2016 306) Tj ET\n" + b"".join(
        b"q 1 0 0 1 %d %d cm BT 3 Tr /C 12 Tf 0 0 Td <%s> Tj ET Q\n"
        % (72 + 12 * column, 760 - 24 * row, char.encode("gbk").hex().encode())
        for row, line in enumerate(GBK_LINES) for column, char in enumerate(line))
    return raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /C 4 0 R"
                    b" /H 6 0 R >> >> /Contents 7 0 R >>",
                    b"<< /Type /Font /Subtype /Type0 /BaseFont /SimSun-GBK-EUC-H /Encoding /GBK-EUC-H"
                    b" /DescendantFonts [5 0 R] >>",
                    b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /SimSun /CIDSystemInfo << /Registry (Adobe)"
                    b" /Ordering (GB1) /Supplement 2 >> /FontDescriptor 8 0 R /DW 1000 >>",
                    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", _stream(content),
                    b"<< /Type /FontDescriptor /FontName /SimSun /Flags 32 /FontBBox [0 -141 1000 859] /ItalicAngle 0"
                    b" /Ascent 859 /Descent -141 /CapHeight 683 /StemV 80 >>"])


def raw_pdf(objects: list[bytes]) -> bytes:
    """A PDF written by hand from its objects (1 is the catalog), for what reportlab won't draw."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _stream(content: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"


# A ToUnicode CMap as producers write one for symbols beyond the BMP (UTF-16 surrogate pairs),
# and as broken producers write one: lone surrogates.
_ODD_CMAP = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CMapName /OddUnicode def
/CMapType 2 def
1 begincodespacerange
<00> <FF>
endcodespacerange
1 beginbfrange
<20> <7E> <0020>
endbfrange
4 beginbfchar
<80> <D83DDE00>
<81> <D835DC00>
<82> <D800>
<83> <DC00>
endbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end"""
ODD_PAGES = 6


def odd_unicode() -> bytes:
    """Six pages whose text maps through ToUnicode to an emoji and a mathematical letter (beyond
    the BMP), and to two lone surrogates that no UTF-8 writer accepts; a running head and a
    folio on each page."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 4 0 R >>",
               _stream(_ODD_CMAP)]
    kids = []
    for page in range(1, ODD_PAGES + 1):
        content = (b"BT /F1 9 Tf 72 800 Td (Odd Unicode Report) Tj ET "
                   b"BT /F1 12 Tf 72 700 Td (Page %d says hello \x80\x81 and \x82 then \x83 world) Tj ET "
                   b"BT /F1 12 Tf 72 680 Td (A second line of ordinary words on this page.) Tj ET "
                   b"BT /F1 9 Tf 300 40 Td (%d) Tj ET") % (page, page)
        kids.append(f"{len(objects) + 1} 0 R")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >>"
                       b" /Contents %d 0 R >>" % (len(objects) + 2))
        objects.append(_stream(content))
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {ODD_PAGES} >>".encode()
    return raw_pdf(objects)


WATERMARK = "CONFIDENTIAL DRAFT COPY"
WATERMARK_LINES = [f"double value{n} = weight{n} * factor{n};" for n in range(24)]


def watermarked() -> bytes:
    """Three pages of a code listing in small type under a large diagonal watermark, which
    crosses the baselines of many listing lines."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    for _ in range(3):
        c.saveState()
        c.translate(90, 250)
        c.rotate(45)
        c.setFont("Helvetica", 48)
        c.drawString(0, 0, WATERMARK)
        c.restoreState()
        c.setFont("Courier", 9.75)
        for row, line in enumerate(WATERMARK_LINES):
            c.drawString(72, 700 - row * 16.5, line)
        c.showPage()
    c.save()
    return buf.getvalue()


CELL_ROWS = [("03/25/2016", "07/01/2015", "Maxim Integrated"), ("08/29/2015", "07/02/2015", "Hill Education"),
             ("09/02/2015", "07/06/2015", "Memorial Center"), ("09/30/2016", "07/07/2015", "Bosch Systems")]


def clipped_cells() -> bytes:
    """A table whose first column's cells are each drawn under a clip the size of the cell,
    and whose next column starts just past that clip, unclipped: every cell is visible. The
    clipped cells end in spaces that run past the clip, as a producer padding its cells does."""
    content = b""
    for row, cells in enumerate(CELL_ROWS):
        y = 700 - row * 14
        content += (b"q 70 %d 52 13 re W n BT /F1 9.75 Tf 72 %d Td (%s    ) Tj ET Q "
                    b"BT /F1 9.75 Tf 124 %d Td (%s) Tj ET BT /F1 9.75 Tf 190 %d Td (%s) Tj ET\n"
                    % (y - 3, y, cells[0].encode(), y, cells[1].encode(), y, cells[2].encode()))
    return raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >>"
                    b" /Contents 5 0 R >>",
                    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
                    _stream(content)])


FIGURE_LABELS = ["Query table of song lengths", "Screwed Up at five oh two", "Ghetto Queen at five sharp"]


def scaled_figure() -> bytes:
    """A figure drawn as a form XObject, scaled and shifted onto the page, its labels under the
    form's clip: the clip is in the form's coordinates, and the labels are plainly visible but
    for the last letters of each, which run past the form's right edge."""
    labels = b"".join(b"BT /F1 12 Tf 200 %d Td (%s) Tj ET " % (80 - 25 * n, text.encode())
                      for n, text in enumerate(FIGURE_LABELS))
    drawn = b"q 0 0 300 100 re W n " + labels + b"Q"
    form = (b"<< /Type /XObject /Subtype /Form /BBox [0 0 300 100] /Resources << /Font << /F1 4 0 R >> >>"
            b" /Length %d >>\nstream\n" % len(drawn) + drawn + b"\nendstream")
    body = (b"BT /F1 11 Tf 72 700 Td (A paragraph of body text above the figure.) Tj ET "
            b"q 0.75 0 0 0.75 100 400 cm /Fm1 Do Q")
    return raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >>"
                    b" /XObject << /Fm1 6 0 R >> >> /Contents 5 0 R >>",
                    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
                    _stream(body), form])


CHART_LABELS = ["Copyset 1", "Copyset 2", "Copyset 3"]


def chart_in_form() -> bytes:
    """A paper's page with a diagram drawn in a form XObject that the page places at 0.4 of its
    size (a figure made as a PDF of its own and included): its labels, side by side over the
    boxes they name, are set at 20 points in the form, 8 on the page, below the 10-point body
    around them."""
    body = b"".join(b"BT /F1 10 Tf 72 %d Td (Line %d of the body text, long enough to set the page's body size.) Tj ET "
                    % (720 - 12 * n - (n >= 10) * 160, n) for n in range(16))
    drawn = b"".join(b"%d 0 200 280 re S BT /F1 20 Tf %d 300 Td (%s) Tj ET " % (300 * n, 300 * n, label.encode())
                     for n, label in enumerate(CHART_LABELS))
    form = (b"<< /Type /XObject /Subtype /Form /BBox [0 0 1000 400] /Resources << /Font << /F1 4 0 R >> >>"
            b" /Length %d >>\nstream\n" % len(drawn) + drawn + b"\nendstream")
    body += b"q 0.4 0 0 0.4 72 420 cm /Fm1 Do Q"
    return raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >>"
                    b" /XObject << /Fm1 6 0 R >> >> /Contents 5 0 R >>",
                    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
                    _stream(body), form])


CUT_HEAD = "SALTZER ET AL. End-to-End Arguments"


def cut_head() -> bytes:
    """Three pages whose running head sits so high that the page's edge cuts its letters in
    half (the page clips to its media box): still plainly readable."""
    pages = []
    for page in range(1, 4):
        content = (b"q 0 0 595 842 re W n BT /F1 14 Tf 72 838 Td (%s %d) Tj ET "
                   b"BT /F1 11 Tf 72 700 Td (Body text of page %d, which says something.) Tj ET Q"
                   % (CUT_HEAD.encode(), page, page))
        pages.append(content)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [4 0 R 6 0 R 8 0 R] /Count 3 >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    for n, content in enumerate(pages):
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >>"
                       b" /Contents %d 0 R >>" % (5 + 2 * n))
        objects.append(_stream(content))
    return raw_pdf(objects)


SPREAD_SHOWN, SPREAD_HIDDEN, OFFSET_SHOWN = "Left page words shown", "Facing page words hidden", "Offset box words"


def cropped_spread() -> bytes:
    """Two pages cut from spreads by their crop boxes: page 1 shows the left half of a wide
    media box (the facing page's text lies beyond its right edge); page 2's crop box does not
    start at the origin, and all its text lies inside it."""
    contents = [b"BT /F1 11 Tf 72 600 Td (%s) Tj ET BT /F1 11 Tf 572 600 Td (%s) Tj ET"
                % (SPREAD_SHOWN.encode(), SPREAD_HIDDEN.encode()),
                b"BT /F1 11 Tf 172 650 Td (%s) Tj ET" % OFFSET_SHOWN.encode()]
    boxes = [b"/MediaBox [0 0 1000 700] /CropBox [0 0 500 700]", b"/MediaBox [0 0 600 800] /CropBox [100 100 500 700]"]
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 >>",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    for n, (content, box) in enumerate(zip(contents, boxes, strict=True)):
        objects.append(b"<< /Type /Page /Parent 2 0 R %s /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>"
                       % (box, 5 + 2 * n))
        objects.append(_stream(content))
    return raw_pdf(objects)


def blank_pages(count: int = 3) -> bytes:
    """Pages with nothing on them: no text, no images."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4)
    for _ in range(count):
        c.showPage()
    c.save()
    return buf.getvalue()


def write_all(outdir: Path, big: bool = False) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    base = three_page()
    files = {
        "three_page.pdf": base,
        "scanned.pdf": scanned(),
        "encrypted_user.pdf": encrypted(base, "secret", "owner", "AES-256"),
        "encrypted_owner_aes.pdf": encrypted(base, "", "owner", "AES-128"),
        "encrypted_owner_rc4.pdf": encrypted(base, "", "owner", "RC4-128"),
        "truncated.pdf": base[: int(len(base) * 0.6)],
        "outline.pdf": outline_doc(),
        "long.pdf": long_doc(),
        "hundred.pdf": long_doc(100),  # four 32-page chunks: split over up to four workers
        "junk_prefix.pdf": b"garbage before the header\n" + base,
        "not_a_pdf.txt": b"just some text, no PDF here\n",
        "paper_2col.pdf": two_column_paper()[0],
        "regulation_cn.pdf": chinese_regulation(),
        "clipped_form.pdf": clipped_form(),
        "two_page_header.pdf": two_page_with_header(),
        "garbled_scan.pdf": garbled_scan(),
        "odd_unicode.pdf": odd_unicode(),
        "blank.pdf": blank_pages(),
        "watermarked.pdf": watermarked(),
        "clipped_cells.pdf": clipped_cells(),
        "scaled_figure.pdf": scaled_figure(),
        "chart_in_form.pdf": chart_in_form(),
        "cut_head.pdf": cut_head(),
        "cropped_spread.pdf": cropped_spread(),
        # Cut where the repair pass still finds every page but none of their contents.
        "damaged_empty.pdf": sample()[: len(sample()) // 2],
    }
    if big:
        files["big_2100.pdf"] = big_doc()
    for name, data in files.items():
        (outdir / name).write_bytes(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path)
    parser.add_argument("--big", action="store_true", help="also the 2,100-page document")
    parser.add_argument("--sample", type=Path, help="write the demo sample PDF here")
    args = parser.parse_args()
    if args.sample:
        args.sample.write_bytes(sample())
    if args.outdir:
        write_all(args.outdir, args.big)
    return 0


if __name__ == "__main__":
    sys.exit(main())
