/*
 * FMEval's "QuAC protocol" normalisation of an ASCII text and its word set, in one pass.
 *
 * The same result as goldenlens.core.normalise.normalised_words (the reference, in Python):
 *
 *   1. lower-case (A-Z only: the text is ASCII);
 *   2. delete every character of Python's string.punctuation;
 *   3. split on the single space " " only, drop the empty pieces and the articles
 *      "a", "an" and "the", join the rest with one space: the normalised text;
 *   4. the words are normalised.split(), Python's split on any whitespace, as a set.
 *
 * The words are a frozenset, as the reference's are. Only for ASCII text (a ValueError otherwise): Python's str.lower and str.split follow
 * Unicode beyond it, and the callers send other text down the Python path. A property test
 * (tests/core/test_quac_ascii.py) holds this module to the Python reference on any ASCII
 * text. Built as an optional extension: where no C compiler is at hand, GoldenLens runs the
 * Python reference instead, with the same numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* string.punctuation: !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~ */
static int is_punctuation(unsigned char c)
{
    return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
           (c >= 0x7B && c <= 0x7E);
}

/* What str.split() splits at, among ASCII characters (Python's _Py_ascii_whitespace). */
static int is_whitespace(unsigned char c)
{
    return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
}

static int is_article(const char *piece, Py_ssize_t length)
{
    switch (length) {
    case 1:
        return piece[0] == 'a';
    case 2:
        return piece[0] == 'a' && piece[1] == 'n';
    case 3:
        return piece[0] == 't' && piece[1] == 'h' && piece[2] == 'e';
    default:
        return 0;
    }
}

static PyObject *normalised_words(PyObject *module, PyObject *text)
{
    (void)module;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "normalised_words() takes a str");
        return NULL;
    }
    if (PyUnicode_READY(text) < 0) {
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(text)) {
        PyErr_SetString(PyExc_ValueError, "normalised_words() takes ASCII text only");
        return NULL;
    }
    const unsigned char *source = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);

    /* Each kept piece is written followed by one space, so the buffer needs at most the
     * text's length plus the space after its last piece. */
    char *normal = PyMem_Malloc(length + 2);
    if (normal == NULL) {
        return PyErr_NoMemory();
    }
    Py_ssize_t size = 0;        /* bytes of normal written */
    Py_ssize_t piece_start = 0; /* where the current piece starts in normal */
    int kept = 0;               /* some piece was kept */
    for (Py_ssize_t i = 0; i <= length; i++) {
        unsigned char c = i < length ? source[i] : ' '; /* the end closes the last piece */
        if (c == ' ') {
            Py_ssize_t piece_length = size - piece_start;
            if (piece_length == 0 || is_article(normal + piece_start, piece_length)) {
                size = piece_start; /* dropped; the space after the previous kept piece stays */
            } else {
                normal[size++] = ' ';
                piece_start = size;
                kept = 1;
            }
            continue;
        }
        if (is_punctuation(c)) {
            continue;
        }
        normal[size++] = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : (char)c;
    }
    if (kept) {
        size--; /* the space after the last kept piece */
    }

    /* A frozenset, as the Python reference gives: brand new, so it may be filled in place. */
    PyObject *words = PyFrozenSet_New(NULL);
    if (words == NULL) {
        PyMem_Free(normal);
        return NULL;
    }
    Py_ssize_t i = 0;
    while (i < size) {
        while (i < size && is_whitespace((unsigned char)normal[i])) {
            i++;
        }
        Py_ssize_t start = i;
        while (i < size && !is_whitespace((unsigned char)normal[i])) {
            i++;
        }
        if (i > start) {
            PyObject *word = PyUnicode_DecodeASCII(normal + start, i - start, NULL);
            if (word == NULL || PySet_Add(words, word) < 0) {
                Py_XDECREF(word);
                Py_DECREF(words);
                PyMem_Free(normal);
                return NULL;
            }
            Py_DECREF(word);
        }
    }
    PyObject *normalised = PyUnicode_DecodeASCII(normal, size, NULL);
    PyMem_Free(normal);
    if (normalised == NULL) {
        Py_DECREF(words);
        return NULL;
    }
    PyObject *result = PyTuple_Pack(2, normalised, words);
    Py_DECREF(normalised);
    Py_DECREF(words);
    return result;
}

static PyMethodDef methods[] = {
    {"normalised_words", normalised_words, METH_O,
     "normalised_words(text, /)\n--\n\n"
     "FMEval's QuAC normalisation of an ASCII ``text`` and the set of its words: "
     "``goldenlens.core.normalise.normalised_words`` (ValueError for other text)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT,
    "goldenlens.core._quac_ascii",
    "FMEval's QuAC normalisation of ASCII text, in C (see goldenlens.core.normalise).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__quac_ascii(void)
{
    return PyModule_Create(&module_definition);
}
