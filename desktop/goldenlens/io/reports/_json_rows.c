/*
 * The rows of a JSON report, in C: goldenlens.io.reports.json_report.fresh_rows_text fills each
 * row's pieces of text (the literal JSON between the holes, taken from the line json.dumps
 * writes) with the row's JSON texts (question id, pipeline and flag list, encoded by Python's
 * json module) and its seven values written as Python writes a float (float.__repr__: the
 * shortest text that reads back as the same double, PyOS_double_to_string with 'r'), and joins
 * the rows with the separator, in one buffer: no Python object is made per row or per value.
 *
 * The rows of a run share few distinct values (0.0, 1.0, ratios of small word counts), so each
 * value's text is worked out once and kept in a table of this module, looked up by its bits
 * after that (-0.0 and 0.0 are two keys; the GIL guards the table; a value whose slots are
 * taken is written without being kept). A value that is not a finite float (None: not scored) makes the call return
 * None; the caller then writes the rows the general way. Built as an optional extension: where
 * no C compiler is at hand, the same text is joined in Python. tests/io/test_fresh_row_json.py
 * holds the two to the same text.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define HOLES 10 /* question id, pipeline, the seven values, the flags */
#define VALUES 7
#define SLOTS 4096 /* the value texts kept (a power of two) */

typedef struct {
    uint64_t bits;
    int length; /* 0: an empty slot */
    char text[32];
} value_text;

/* Each value's text, kept across calls. */
static value_text value_texts[SLOTS];

typedef struct {
    char *data;
    Py_ssize_t size, room;
} buffer;

static int buffer_add(buffer *out, const char *text, Py_ssize_t length)
{
    if (out->size + length > out->room) {
        Py_ssize_t room = out->room * 2 > out->size + length ? out->room * 2 : out->size + length;
        char *data = PyMem_Realloc(out->data, (size_t)room);
        if (data == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        out->data = data;
        out->room = room;
    }
    memcpy(out->data + out->size, text, (size_t)length);
    out->size += length;
    return 0;
}

/* The UTF-8 of a str, added; -1 with an exception set if it is not a str. */
static int buffer_add_str(buffer *out, PyObject *text, const char *name)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "%s must be str", name);
        return -1;
    }
    Py_ssize_t length;
    const char *data = PyUnicode_AsUTF8AndSize(text, &length);
    return data == NULL ? -1 : buffer_add(out, data, length);
}

/* float.__repr__ of ``value``, from the table or worked out and kept there. */
static int buffer_add_value(buffer *out, double value, value_text *table)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    size_t slot = (size_t)((bits ^ (bits >> 29) ^ (bits >> 47)) * 0x9E3779B97F4A7C15ULL >> 53) & (SLOTS - 1);
    for (int probe = 0; probe < 8; probe++, slot = (slot + 1) & (SLOTS - 1)) {
        value_text *entry = &table[slot];
        if (entry->length && entry->bits == bits) {
            return buffer_add(out, entry->text, entry->length);
        }
        if (entry->length == 0) {
            char *text = PyOS_double_to_string(value, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
            if (text == NULL) {
                return -1;
            }
            size_t length = strlen(text);
            int added = buffer_add(out, text, (Py_ssize_t)length);
            if (length < sizeof(entry->text)) {
                memcpy(entry->text, text, length);
                entry->length = (int)length;
                entry->bits = bits;
            }
            PyMem_Free(text);
            return added;
        }
    }
    /* Eight slots taken by other values: written without keeping it. */
    char *text = PyOS_double_to_string(value, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (text == NULL) {
        return -1;
    }
    int added = buffer_add(out, text, (Py_ssize_t)strlen(text));
    PyMem_Free(text);
    return added;
}

/* The seven finite floats of a row, or 0 when some value is not one (None: not scored);
 * -1 with an exception set when ``values`` is not a tuple or list. */
static int row_doubles(PyObject *values, double *found)
{
    if (!PyTuple_Check(values) && !PyList_Check(values)) {
        PyErr_SetString(PyExc_TypeError, "a row's values must be a tuple or a list");
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(values) != VALUES) {
        PyErr_SetString(PyExc_ValueError, "a row has seven values");
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(values);
    for (int k = 0; k < VALUES; k++) {
        if (!PyFloat_CheckExact(items[k])) {
            return 0;
        }
        found[k] = PyFloat_AS_DOUBLE(items[k]);
        if (!isfinite(found[k])) {
            return 0;
        }
    }
    return 1;
}

static PyObject *json_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 6 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != HOLES + 1 ||
        !PyList_Check(args[1]) || !PyList_Check(args[2]) || !PyList_Check(args[3]) || !PyList_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError,
                        "json_rows() takes the 11 pieces of a row, lists of question ids, pipelines, values "
                        "and flags (JSON texts), and the separator");
        return NULL;
    }
    PyObject *pieces = args[0], *question_ids = args[1], *pipelines = args[2], *values = args[3];
    PyObject *flags = args[4], *separator = args[5];
    Py_ssize_t rows = PyList_GET_SIZE(question_ids);
    if (PyList_GET_SIZE(pipelines) != rows || PyList_GET_SIZE(values) != rows || PyList_GET_SIZE(flags) != rows) {
        PyErr_SetString(PyExc_ValueError, "json_rows() takes lists of the same length");
        return NULL;
    }
    const char *piece_text[HOLES + 1];
    Py_ssize_t piece_length[HOLES + 1], separator_length, row_bytes = 0;
    for (int p = 0; p <= HOLES; p++) {
        PyObject *piece = PyTuple_GET_ITEM(pieces, p);
        if (!PyUnicode_Check(piece)) {
            PyErr_SetString(PyExc_TypeError, "the pieces must be str");
            return NULL;
        }
        piece_text[p] = PyUnicode_AsUTF8AndSize(piece, &piece_length[p]);
        if (piece_text[p] == NULL) {
            return NULL;
        }
        row_bytes += piece_length[p];
    }
    if (!PyUnicode_Check(separator)) {
        PyErr_SetString(PyExc_TypeError, "the separator must be str");
        return NULL;
    }
    const char *separator_text = PyUnicode_AsUTF8AndSize(separator, &separator_length);
    if (separator_text == NULL) {
        return NULL;
    }

    value_text *table = value_texts;
    buffer out = {NULL, 0, 0};
    PyObject *result = NULL;
    out.room = rows * (row_bytes + separator_length + 7 * 20 + 40) + 1;
    out.data = PyMem_Malloc((size_t)out.room);
    if (out.data == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < rows; i++) {
        double row[VALUES];
        int finite = row_doubles(PyList_GET_ITEM(values, i), row);
        if (finite <= 0) {
            if (finite == 0) {
                result = Py_NewRef(Py_None);
            }
            goto done;
        }
        if ((i && buffer_add(&out, separator_text, separator_length) < 0) ||
            buffer_add(&out, piece_text[0], piece_length[0]) < 0 ||
            buffer_add_str(&out, PyList_GET_ITEM(question_ids, i), "a question id") < 0 ||
            buffer_add(&out, piece_text[1], piece_length[1]) < 0 ||
            buffer_add_str(&out, PyList_GET_ITEM(pipelines, i), "a pipeline") < 0 ||
            buffer_add(&out, piece_text[2], piece_length[2]) < 0) {
            goto done;
        }
        for (int k = 0; k < VALUES; k++) {
            if (buffer_add_value(&out, row[k], table) < 0 || buffer_add(&out, piece_text[3 + k], piece_length[3 + k]) < 0) {
                goto done;
            }
        }
        if (buffer_add_str(&out, PyList_GET_ITEM(flags, i), "a flag list") < 0 ||
            buffer_add(&out, piece_text[HOLES], piece_length[HOLES]) < 0) {
            goto done;
        }
    }
    result = PyUnicode_DecodeUTF8(out.data, out.size, "strict");
done:
    PyMem_Free(out.data);
    return result;
}

static PyMethodDef methods[] = {
    {"json_rows", (PyCFunction)(void (*)(void))json_rows, METH_FASTCALL,
     "json_rows(pieces, question_ids, pipelines, values, flags, separator, /)\n--\n\n"
     "Each row's line of the JSON report, the 11 ``pieces`` filled with its question id, pipeline "
     "and flag list (JSON texts) and its seven values (float.__repr__), joined by ``separator``; "
     "None when a value is not a finite float."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT,
    "goldenlens.io.reports._json_rows",
    "The rows of a JSON report, in C (see goldenlens.io.reports.json_report.fresh_rows_text).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__json_rows(void)
{
    return PyModule_Create(&module_definition);
}
