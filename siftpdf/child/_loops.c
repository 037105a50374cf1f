/* Loops of the page evidence (siftpdf.child.evidence) that call into PDFium many times a
 * page, in C: the straight strokes of a path (_rule_segments: four calls a segment), the
 * wide spaces inside a run of text (_gaps: a glyph box or two a space), and the stretches of
 * characters each text object drew (_spans: a call a character asked about); and the calls
 * made of each stretch of a text object (_merge: seven) and each run (_make_runs: four), in
 * one call each.
 *
 * PDFium is the one pypdfium2 loaded: its entry points come as addresses (bind), so this
 * module links to nothing. Its arithmetic is Python's, in the same order, on the same doubles
 * (built with -ffp-contract=off: no fused multiply-add), so what it finds is what the Python
 * loops find, bit for bit; the caller rounds and keeps it as before. Where this module is not
 * built (no C compiler, SIFTPDF_PURE=1), the Python loops run.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>

typedef void *(*get_segment_f)(void *path, int index);
typedef int (*get_point_f)(void *segment, float *x, float *y);
typedef int (*get_int_f)(void *segment);
typedef struct { float left, top, right, bottom; } rectf; /* FS_RECTF (fpdfview.h) */
typedef int (*get_box_f)(void *textpage, int index, rectf *rect);
typedef void *(*get_object_f)(void *textpage, int index);

static get_segment_f get_segment;
static get_point_f get_point;
static get_int_f get_type, get_close;
static get_box_f get_loose_box;
static get_object_f get_text_object;

/* FPDF_SEGMENT_LINETO, _BEZIERTO, _MOVETO (fpdf_edit.h) */
enum { LINETO = 0, BEZIERTO = 1, MOVETO = 2 };

/* What a loop called before bind (or bind_probe) raises. */
static PyObject *unbound(void) {
    PyErr_SetString(PyExc_RuntimeError, "PDFium's entry points are not bound");
    return NULL;
}

static PyObject *bind(PyObject *self, PyObject *args) {
    unsigned long long segment, point, type, close, loose_box, text_object;
    if (!PyArg_ParseTuple(args, "KKKKKK", &segment, &point, &type, &close, &loose_box, &text_object))
        return NULL;
    if (!segment || !point || !type || !close || !loose_box || !text_object) {
        PyErr_SetString(PyExc_ValueError, "an entry point of PDFium is missing");
        return NULL;
    }
    get_segment = (get_segment_f)(uintptr_t)segment;
    get_point = (get_point_f)(uintptr_t)point;
    get_type = (get_int_f)(uintptr_t)type;
    get_close = (get_int_f)(uintptr_t)close;
    get_loose_box = (get_box_f)(uintptr_t)loose_box;
    get_text_object = (get_object_f)(uintptr_t)text_object;
    Py_RETURN_NONE;
}

/* A stroke (x0, y0, x1, y1) that siftpdf.child.evidence._Ruler.add may keep: along an axis
 * within the slack and long enough (NaN fails both tests, as in Python). */
static int keep(PyObject *out, double x0, double y0, double x1, double y1, double slack, double least) {
    if (!((fabs(y1 - y0) <= slack && fabs(x1 - x0) >= least) || (fabs(x1 - x0) <= slack && fabs(y1 - y0) >= least)))
        return 0;
    PyObject *stroke = Py_BuildValue("(dddd)", x0, y0, x1, y1);
    if (stroke == NULL)
        return -1;
    int failed = PyList_Append(out, stroke);
    Py_DECREF(stroke);
    return failed;
}

static PyObject *straight(PyObject *self, PyObject *args) {
    unsigned long long handle;
    int count, curved;
    long segments, most;
    double a, b, c, d, e, f, slack, least;
    if (!PyArg_ParseTuple(args, "Ki(dddddd)llidd", &handle, &count, &a, &b, &c, &d, &e, &f, &segments, &most,
                          &curved, &slack, &least))
        return NULL;
    if (get_segment == NULL)
        return unbound();
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    void *path = (void *)(uintptr_t)handle;
    int started = 0, have_last = 0;
    double start_x = 0, start_y = 0, last_x = 0, last_y = 0;
    for (int index = 0; index < count; index++) {
        segments += 1;
        if (segments > most)
            break;
        void *segment = get_segment(path, index);
        float fx, fy;
        if (segment == NULL || !get_point(segment, &fx, &fy))
            continue;
        double x = fx, y = fy;
        double px = a * x + c * y + e, py = b * x + d * y + f;
        int kind = get_type(segment);
        if (kind == BEZIERTO && count > curved)
            break;
        if (kind == LINETO && have_last && keep(out, last_x, last_y, px, py, slack, least) < 0)
            goto failed;
        if (kind == MOVETO || !started) {
            start_x = px, start_y = py, started = 1;
        }
        last_x = px, last_y = py, have_last = 1;
        if (get_close(segment) && started) {
            if (keep(out, px, py, start_x, start_y, slack, least) < 0)
                goto failed;
            last_x = start_x, last_y = start_y;
        }
    }
    return Py_BuildValue("(Nl)", out, segments);
failed:
    Py_DECREF(out);
    return NULL;
}

/* siftpdf.child.evidence._gaps, written the same way: the spaces of ``text`` (the run's
 * characters from ``first`` on the text page) with the glyph before ending ``wide`` or more
 * before the glyph after starts (``narrow`` between a figure's end and a figure's start), two
 * glyph boxes a space (one when the box of the glyph before is the one held), while the
 * budget of boxes lasts. The boxes are read into the caller's buffer (``rect``, the address
 * of its FS_RECTF), as the Python loop reads them: what the buffer holds afterwards is the
 * same too. */
static PyObject *gaps(PyObject *self, PyObject *args) {
    unsigned long long handle, buffer;
    int first;
    PyObject *text, *ends, *starts;
    double wide, narrow;
    long budget;
    if (!PyArg_ParseTuple(args, "KiUddlUUK", &handle, &first, &text, &wide, &narrow, &budget, &ends, &starts,
                          &buffer))
        return NULL;
    if (get_loose_box == NULL || buffer == 0)
        return unbound();
    void *textpage = (void *)(uintptr_t)handle;
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    rectf *rect = (rectf *)(uintptr_t)buffer;
    Py_ssize_t held = -1;
    int held_ok = 0;
    Py_ssize_t index = PyUnicode_FindChar(text, ' ', 0, length, 1);
    while (index > 0) {
        Py_ssize_t end = index + 1;
        while (end < length && PyUnicode_READ(kind, data, end) == ' ')
            end++;
        if (end >= length || budget <= 0)
            break;
        budget -= 2;
        int ok = index - 1 == held ? held_ok : get_loose_box(textpage, first + (int)index - 1, rect);
        held = -1;
        if (ok) {
            double right = rect->right;
            held = end;
            held_ok = get_loose_box(textpage, first + (int)end, rect);
            double gap = (double)rect->left - right;
            if (held_ok && (gap >= wide || (gap >= narrow &&
                            PyUnicode_FindChar(ends, PyUnicode_READ(kind, data, index - 1), 0,
                                               PyUnicode_GET_LENGTH(ends), 1) >= 0 &&
                            PyUnicode_FindChar(starts, PyUnicode_READ(kind, data, end), 0,
                                               PyUnicode_GET_LENGTH(starts), 1) >= 0))) {
                PyObject *found = Py_BuildValue("(ndd)", index, right, (double)rect->left);
                if (found == NULL || PyList_Append(out, found) < 0) {
                    Py_XDECREF(found);
                    Py_DECREF(out);
                    return NULL;
                }
                Py_DECREF(found);
            }
        }
        index = PyUnicode_FindChar(text, ' ', end, length, 1);
    }
    return Py_BuildValue("(Nl)", out, budget);
}

/* siftpdf.child.evidence._spans for text without right-to-left script, decided the same way:
 * the same questions about which object drew which character (whose answers do not depend on
 * when they are asked), so the same stretches. */
typedef struct {
    void *textpage;
    int kind;
    const void *data;
    Py_ssize_t count;
} page_text;

static unsigned long long object_at(const page_text *page, Py_ssize_t index) {
    return (unsigned long long)(uintptr_t)get_text_object(page->textpage, (int)index);
}

static Py_ssize_t bisect_end(const page_text *page, unsigned long long obj, Py_ssize_t same, Py_ssize_t other) {
    while (other - same > 1) {
        Py_ssize_t middle = (same + other) / 2;
        if (object_at(page, middle) == obj)
            same = middle;
        else
            other = middle;
    }
    return other;
}

static int has_newline(const page_text *page, Py_ssize_t from, Py_ssize_t to) {
    for (Py_ssize_t at = from; at < to && at < page->count; at++)
        if (PyUnicode_READ(page->kind, page->data, at) == '\n')
            return 1;
    return 0;
}

static Py_ssize_t gallop_end(const page_text *page, Py_ssize_t start, unsigned long long obj) {
    Py_ssize_t same = start, step = 1, count = page->count;
    while (same + step < count && object_at(page, same + step) == obj) {
        same += step;
        step *= 2;
    }
    Py_ssize_t other = bisect_end(page, obj, same, same + step < count ? same + step : count);
    if (has_newline(page, start, other) && other - start > 1) {
        other = start + 1;
        while (other < count && object_at(page, other) == obj)
            other++;
    }
    return other;
}

static Py_ssize_t next_break(const page_text *page, Py_ssize_t start) {
    for (Py_ssize_t at = start; at < page->count; at++) {
        Py_UCS4 c = PyUnicode_READ(page->kind, page->data, at);
        if (c == '\r' || c == '\n')
            return at;
    }
    return page->count;
}

static Py_ssize_t stretch_end(const page_text *page, Py_ssize_t start, unsigned long long obj, Py_ssize_t line_end) {
    if (line_end - start <= 1)
        return -1;
    Py_ssize_t last = line_end - 1;
    if (object_at(page, last) == obj) {
        if (line_end == page->count)
            return page->count;
        return object_at(page, line_end) != obj ? line_end : -1;
    }
    return bisect_end(page, obj, start, last);
}

static PyObject *spans(PyObject *self, PyObject *args) {
    unsigned long long handle;
    PyObject *chars;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "KUn", &handle, &chars, &count))
        return NULL;
    if (get_text_object == NULL)
        return unbound();
    if (count > PyUnicode_GET_LENGTH(chars) || count > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "more characters counted than the text holds");
        return NULL;
    }
    page_text page = {(void *)(uintptr_t)handle, PyUnicode_KIND(chars), PyUnicode_DATA(chars), count};
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_ssize_t start = 0, line_end = -1;
    while (start < count) {
        unsigned long long obj = object_at(&page, start);
        Py_ssize_t other;
        if (has_newline(&page, start, start + 2)) {
            other = start + 1;
            while (other < count && object_at(&page, other) == obj)
                other++;
        } else {
            if (line_end < start)
                line_end = next_break(&page, start);
            other = obj ? stretch_end(&page, start, obj, line_end) : -1;
            if (other < 0)
                other = gallop_end(&page, start, obj);
        }
        PyObject *stretch = Py_BuildValue("(nnK)", start, other, obj);
        if (stretch == NULL || PyList_Append(out, stretch) < 0) {
            Py_XDECREF(stretch);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(stretch);
        start = other;
    }
    return out;
}

/* The entry points siftpdf.child.evidence asks of each stretch of a text object (``_merge``)
 * and each run (``_make_runs``), and the output buffers of its probe they write into: bound
 * once (bind_probe), called in the order the Python makes the calls, so that the buffers hold
 * afterwards what they would hold there, and the caller reads them as before. */
typedef int (*object_out_f)(void *object, void *out);
typedef int (*object_four_f)(void *object, void *a, void *b, void *c, void *d);
typedef void *(*object_handle_f)(void *object);
typedef int (*char_out_f)(void *textpage, int index, void *out);
typedef int (*char_two_f)(void *textpage, int index, void *a, void *b);
typedef int (*char_four_f)(void *textpage, int index, void *a, void *b, void *c, void *d);

static struct {
    object_out_f font_size, matrix;
    char_out_f char_matrix, loose_box;
    object_four_f fill, bounds;
    object_handle_f font, clip;
    char_two_f origin;
    char_four_f char_fill;
    void *size, *matrix_out, *drawn, *rect, *rgba[4], *edges[4], *x, *y;
} probe;

static PyObject *bind_probe(PyObject *self, PyObject *args) {
    unsigned long long a[24];
    if (!PyArg_ParseTuple(args, "(KKKKKKKKKK)(KKKKKKKKKKKKKK)", &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6],
                          &a[7], &a[8], &a[9], &a[10], &a[11], &a[12], &a[13], &a[14], &a[15], &a[16], &a[17],
                          &a[18], &a[19], &a[20], &a[21], &a[22], &a[23]))
        return NULL;
    for (int k = 0; k < 24; k++)
        if (!a[k]) {
            PyErr_SetString(PyExc_ValueError, "an entry point of PDFium or a buffer is missing");
            return NULL;
        }
    probe.font_size = (object_out_f)(uintptr_t)a[0];
    probe.matrix = (object_out_f)(uintptr_t)a[1];
    probe.char_matrix = (char_out_f)(uintptr_t)a[2];
    probe.fill = (object_four_f)(uintptr_t)a[3];
    probe.bounds = (object_four_f)(uintptr_t)a[4];
    probe.font = (object_handle_f)(uintptr_t)a[5];
    probe.clip = (object_handle_f)(uintptr_t)a[6];
    probe.loose_box = (char_out_f)(uintptr_t)a[7];
    probe.origin = (char_two_f)(uintptr_t)a[8];
    probe.char_fill = (char_four_f)(uintptr_t)a[9];
    probe.size = (void *)(uintptr_t)a[10];
    probe.matrix_out = (void *)(uintptr_t)a[11];
    probe.drawn = (void *)(uintptr_t)a[12];
    probe.rect = (void *)(uintptr_t)a[13];
    for (int k = 0; k < 4; k++) {
        probe.rgba[k] = (void *)(uintptr_t)a[14 + k];
        probe.edges[k] = (void *)(uintptr_t)a[18 + k];
    }
    probe.x = (void *)(uintptr_t)a[22];
    probe.y = (void *)(uintptr_t)a[23];
    Py_RETURN_NONE;
}

/* _merge's questions about the text object ``object`` whose stretch starts at ``start``: its
 * font size, its matrix (whether it has one), the matrix the character is drawn with (whether
 * PDFium tells it), its fill colour and bounds, into the probe's buffers; its font and clip
 * path handles (0: none) returned. */
static PyObject *stretch(PyObject *self, PyObject *args) {
    unsigned long long object_handle, textpage_handle;
    int start;
    if (!PyArg_ParseTuple(args, "KKi", &object_handle, &textpage_handle, &start))
        return NULL;
    if (probe.font_size == NULL)
        return unbound();
    void *object = (void *)(uintptr_t)object_handle;
    probe.font_size(object, probe.size);
    int has_matrix = probe.matrix(object, probe.matrix_out);
    int drawn = probe.char_matrix((void *)(uintptr_t)textpage_handle, start, probe.drawn);
    probe.fill(object, probe.rgba[0], probe.rgba[1], probe.rgba[2], probe.rgba[3]);
    probe.bounds(object, probe.edges[0], probe.edges[1], probe.edges[2], probe.edges[3]);
    void *font = probe.font(object);
    void *clip = probe.clip(object);
    return Py_BuildValue("(iiKK)", has_matrix, drawn, (unsigned long long)(uintptr_t)font,
                         (unsigned long long)(uintptr_t)clip);
}

/* _make_runs's questions about a run's first and last glyphs: the box of both (the union, as
 * min and max of two written out there: a NaN keeps the first), the first's origin and fill
 * colour into the probe's buffers (whether it has one returned). */
static PyObject *run_box(PyObject *self, PyObject *args) {
    unsigned long long textpage_handle;
    int first, last;
    if (!PyArg_ParseTuple(args, "Kii", &textpage_handle, &first, &last))
        return NULL;
    if (probe.loose_box == NULL)
        return unbound();
    void *textpage = (void *)(uintptr_t)textpage_handle;
    rectf *rect = (rectf *)probe.rect;
    probe.loose_box(textpage, first, rect);
    double x0 = rect->left, y0 = rect->bottom, x1 = rect->right, y1 = rect->top;
    if (last != first) {
        probe.loose_box(textpage, last, rect);
        double left = rect->left, bottom = rect->bottom, right = rect->right, top = rect->top;
        x0 = left < x0 ? left : x0;
        y0 = bottom < y0 ? bottom : y0;
        x1 = right > x1 ? right : x1;
        y1 = top > y1 ? top : y1;
    }
    probe.origin(textpage, first, probe.x, probe.y);
    int filled = probe.char_fill(textpage, first, probe.rgba[0], probe.rgba[1], probe.rgba[2], probe.rgba[3]);
    return Py_BuildValue("(ddddi)", x0, y0, x1, y1, filled);
}

static PyMethodDef methods[] = {
    {"bind_probe", bind_probe, METH_VARARGS,
     "bind_probe(entry_points, buffers): the entry points stretch and run_box call (font size, object matrix, "
     "character matrix, object fill, object bounds, font, clip path, loose character box, character origin, "
     "character fill) and the buffers they write (size, matrix, drawn matrix, rect, rgba x4, bounds x4, x, y)."},
    {"stretch", stretch, METH_VARARGS,
     "stretch(object, textpage, start) -> (has_matrix, drawn, font, clip): a text object's properties, the "
     "rest in the probe's buffers."},
    {"run_box", run_box, METH_VARARGS,
     "run_box(textpage, first, last) -> (x0, y0, x1, y1, filled): a run's box, its first glyph's origin and fill "
     "in the probe's buffers."},
    {"bind", bind, METH_VARARGS,
     "bind(get_segment, get_point, get_type, get_close, get_loose_char_box, get_text_object): PDFium's entry "
     "points, by address."},
    {"spans", spans, METH_VARARGS,
     "spans(textpage, chars, count) -> [(start, end, object)]: the stretches of characters each text object drew "
     "(text without right-to-left script)."},
    {"gaps", gaps, METH_VARARGS,
     "gaps(textpage, first, text, wide, narrow, budget, ends, starts, rect) -> (gaps, budget): the wide spaces of a "
     "run as (offset, right of the glyph before, left of the glyph after), and the glyph boxes left."},
    {"straight", straight, METH_VARARGS,
     "straight(path, count, matrix, segments, most, curved, slack, least) -> (strokes, segments): the "
     "straight strokes along an axis of a path's first count segments in page space, and the segments "
     "counted, from segments on, stopping past most (or at a curve of a path longer than curved)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_loops", NULL, -1, methods};

PyMODINIT_FUNC PyInit__loops(void) { return PyModule_Create(&module); }
