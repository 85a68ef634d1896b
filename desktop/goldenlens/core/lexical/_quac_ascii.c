/*
 * FMEval's "QuAC protocol" lexical work on ASCII text, in C: the normalisation of a text
 * (normalised) and its word set (normalised_words), the seven lexical values of a whole row
 * (row_values) with a target's distinct words worked out once (distinct_words), and the two
 * substring tests of the refusal test's first step for each text of a
 * batch (lower_contains_each: goldenlens.core.lexical.refusal).
 *
 * normalised_words gives what goldenlens.core.lexical.normalise.normalised_words (the reference, in
 * Python) gives:
 *
 *   1. lower-case (A-Z only: the text is ASCII);
 *   2. delete every character of Python's string.punctuation;
 *   3. split on the single space " " only, drop the empty pieces and the articles
 *      "a", "an" and "the", join the rest with one space: the normalised text;
 *   4. the words are normalised.split(), Python's split on any whitespace, as a set.
 *
 * The words are a frozenset, as the reference's are; normalised gives the text alone.
 *
 * row_values gives what LexicalScorer.values gives in set counting for an ASCII response
 * against an ASCII answer's targets and a fact whose scores are all scored (the caller,
 * goldenlens.core.lexical.batch, sends every other row to Python): the response stripped and
 * normalised once, its words held as spans of that text in a small hash set, each target's
 * distinct words (prepared once per question) looked up in it, so no Python object is made but
 * the seven floats. Precision, recall and F1 are NLTK's
 * (and so FMEval's) divisions in the same order; built with -ffp-contract=off, and no
 * multiply-add occurs in them anyway, so each double is the one Python computes.
 *
 * Only for ASCII text (a ValueError otherwise): Python's str.lower and str.split follow
 * Unicode beyond it. Property tests (tests/core/test_quac_ascii.py) hold both functions to the
 * Python reference and to FMEval's algorithm on any ASCII text. Built as an optional extension:
 * where no C compiler is at hand, GoldenLens runs the Python reference instead, with the same
 * numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
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

/* Steps 1-3 of the normalisation of source[0:length] written into normal (at least length + 1
 * bytes); returns the normalised text's length. */
static Py_ssize_t normalise_into(const unsigned char *source, Py_ssize_t length, char *normal)
{
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
    return size;
}

/* The ASCII data of text, or NULL with a TypeError or ValueError set (name: the argument). */
static const unsigned char *ascii_data(PyObject *text, const char *name, Py_ssize_t *length)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str", name);
        return NULL;
    }
    if (PyUnicode_READY(text) < 0) {
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(text)) {
        PyErr_Format(PyExc_ValueError, "%s must be ASCII text", name);
        return NULL;
    }
    *length = PyUnicode_GET_LENGTH(text);
    return PyUnicode_1BYTE_DATA(text);
}

/* The normalised text of an ASCII str in a new buffer (PyMem_Free it) and its length; NULL with
 * an exception set for other text. */
static char *normalised_buffer(PyObject *text, Py_ssize_t *size)
{
    Py_ssize_t length;
    const unsigned char *source = ascii_data(text, "the text", &length);
    if (source == NULL) {
        return NULL;
    }
    /* Each kept piece is written followed by one space, so the buffer needs at most the
     * text's length plus the space after its last piece. */
    char *normal = PyMem_Malloc(length + 2);
    if (normal == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    *size = normalise_into(source, length, normal);
    return normal;
}

static PyObject *normalised_words(PyObject *module, PyObject *text)
{
    (void)module;
    Py_ssize_t size;
    char *normal = normalised_buffer(text, &size);
    if (normal == NULL) {
        return NULL;
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

static PyObject *normalised(PyObject *module, PyObject *text)
{
    (void)module;
    Py_ssize_t size;
    char *normal = normalised_buffer(text, &size);
    if (normal == NULL) {
        return NULL;
    }
    PyObject *result = PyUnicode_DecodeASCII(normal, size, NULL);
    PyMem_Free(normal);
    return result;
}

/* ---- The scores of one response against one target and one fact (row_values) ---------- */

/* Python's ``needle in haystack`` for byte strings. */
static int contains(const char *haystack, Py_ssize_t size, const char *needle, Py_ssize_t length)
{
    if (length == 0) {
        return 1;
    }
    const char *last = haystack + size - length; /* the last place a match can start */
    for (const char *at = haystack; at <= last; at++) {
        at = memchr(at, needle[0], (size_t)(last - at + 1));
        if (at == NULL) {
            return 0;
        }
        if (memcmp(at, needle, (size_t)length) == 0) {
            return 1;
        }
    }
    return 0;
}

/* ``any(all(part in text for part in group) for group in groups)`` for an ASCII text and a
 * tuple of tuples of str: 1, 0, or -1 with an exception set. A part that is not ASCII is in
 * no ASCII text. */
static int any_group_in(PyObject *groups, const char *text, Py_ssize_t size)
{
    if (!PyTuple_Check(groups)) {
        PyErr_SetString(PyExc_TypeError, "the fact's groups must be a tuple of tuples of str");
        return -1;
    }
    for (Py_ssize_t g = 0; g < PyTuple_GET_SIZE(groups); g++) {
        PyObject *group = PyTuple_GET_ITEM(groups, g);
        if (!PyTuple_Check(group)) {
            PyErr_SetString(PyExc_TypeError, "the fact's groups must be a tuple of tuples of str");
            return -1;
        }
        int all = 1;
        for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(group) && all; p++) {
            PyObject *part = PyTuple_GET_ITEM(group, p);
            if (!PyUnicode_Check(part)) {
                PyErr_SetString(PyExc_TypeError, "the fact's groups must be a tuple of tuples of str");
                return -1;
            }
            if (PyUnicode_READY(part) < 0) {
                return -1;
            }
            all = PyUnicode_IS_ASCII(part) &&
                  contains(text, size, (const char *)PyUnicode_1BYTE_DATA(part), PyUnicode_GET_LENGTH(part));
        }
        if (all) {
            return 1;
        }
    }
    return 0;
}

/* ---- Two substring tests of each text of a batch (lower_contains_each) ------------------- */

/* The words of two lists, found in one pass over a text: bit ``w`` of ``pairs[c0 * 128 + c1]``
 * is set when word ``w`` begins with the bytes c0 c1, and of ``singles[c0]`` when it is c0 alone
 * (a word that is not ASCII is in no ASCII text and is left out; one with a capital letter is
 * in no lower-cased text, and no lower-cased byte finds it). */
#define FINDER_WORDS 64
typedef struct {
    uint64_t pairs[128 * 128];
    uint64_t singles[128];
    uint64_t of_list[2];
    int empty[2]; /* the list holds "": found in every text */
    const char *words[FINDER_WORDS];
    Py_ssize_t lengths[FINDER_WORDS];
} word_finder;

/* Add the tuple of str ``words`` as list ``list`` of ``finder``; 0, or -1 with an exception set. */
static int finder_add(word_finder *finder, int list, PyObject *words, int *count)
{
    if (!PyTuple_Check(words)) {
        PyErr_SetString(PyExc_TypeError, "the words must be a tuple of str");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(words); i++) {
        PyObject *word = PyTuple_GET_ITEM(words, i);
        if (!PyUnicode_Check(word)) {
            PyErr_SetString(PyExc_TypeError, "the words must be a tuple of str");
            return -1;
        }
        if (PyUnicode_READY(word) < 0) {
            return -1;
        }
        if (!PyUnicode_IS_ASCII(word)) {
            continue;
        }
        Py_ssize_t length = PyUnicode_GET_LENGTH(word);
        const unsigned char *data = PyUnicode_1BYTE_DATA(word);
        if (length == 0) {
            finder->empty[list] = 1;
            continue;
        }
        if (*count == FINDER_WORDS) {
            PyErr_SetString(PyExc_ValueError, "lower_contains_each() looks for at most 64 words in all");
            return -1;
        }
        uint64_t bit = (uint64_t)1 << *count;
        finder->words[*count] = (const char *)data;
        finder->lengths[*count] = length;
        finder->of_list[list] |= bit;
        if (length == 1) {
            finder->singles[data[0]] |= bit;
        } else {
            finder->pairs[data[0] * 128 + data[1]] |= bit;
        }
        (*count)++;
    }
    return 0;
}

static unsigned char lower_byte(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + ('a' - 'A')) : c;
}

/* Whether the ASCII ``text`` lower-cased holds a word of each list of ``finder``. */
static int finder_finds_both(const word_finder *finder, const unsigned char *text, Py_ssize_t length)
{
    int found[2] = {finder->empty[0], finder->empty[1]};
    uint64_t active = (found[0] ? 0 : finder->of_list[0]) | (found[1] ? 0 : finder->of_list[1]);
    for (Py_ssize_t at = 0; at < length && active && !(found[0] && found[1]); at++) {
        unsigned char first = lower_byte(text[at]);
        uint64_t hits = finder->singles[first];
        if (at + 1 < length) {
            hits |= finder->pairs[first * 128 + lower_byte(text[at + 1])];
        }
        hits &= active;
        while (hits) {
            int w = __builtin_ctzll(hits);
            hits &= hits - 1;
            Py_ssize_t size = finder->lengths[w];
            if (size > length - at) {
                continue;
            }
            const unsigned char *word = (const unsigned char *)finder->words[w];
            Py_ssize_t k = 2;
            while (k < size && lower_byte(text[at + k]) == word[k]) {
                k++;
            }
            if (k >= size) {
                int list = (finder->of_list[0] >> w) & 1 ? 0 : 1;
                found[list] = 1;
                active &= ~finder->of_list[list];
                hits &= active;
            }
        }
    }
    return found[0] && found[1];
}

static PyObject *lower_contains_each(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "lower_contains_each() takes a list of str and two tuples of words");
        return NULL;
    }
    word_finder *finder = PyMem_Calloc(1, sizeof(word_finder));
    if (finder == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *out = NULL;
    int count = 0;
    if (finder_add(finder, 0, args[1], &count) < 0 || finder_add(finder, 1, args[2], &count) < 0) {
        goto done;
    }
    PyObject *texts = args[0];
    Py_ssize_t size = PyList_GET_SIZE(texts);
    out = PyList_New(size);
    if (out == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "the texts must be str");
            Py_CLEAR(out);
            goto done;
        }
        if (PyUnicode_READY(text) < 0) {
            Py_CLEAR(out);
            goto done;
        }
        PyObject *answer = Py_None; /* not ASCII */
        if (PyUnicode_IS_ASCII(text)) {
            int both = finder_finds_both(finder, PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text));
            answer = both ? Py_True : Py_False;
        }
        Py_INCREF(answer);
        PyList_SET_ITEM(out, i, answer);
    }
done:
    PyMem_Free(finder);
    return out;
}

/* A set of words, each a piece of a text this module holds, by open addressing. */
typedef struct {
    const char *start; /* NULL: an empty slot */
    Py_ssize_t length;
} word_slot;

typedef struct {
    word_slot *slots;
    size_t mask; /* slots - 1, a power of two less one */
} word_set;

static size_t word_hash(const char *word, Py_ssize_t length)
{
    size_t hash = (size_t)14695981039346656037ULL; /* FNV-1a */
    for (Py_ssize_t i = 0; i < length; i++) {
        hash = (hash ^ (unsigned char)word[i]) * (size_t)1099511628211ULL;
    }
    return hash;
}

/* The slot of word: where it is, or the empty slot where it belongs. */
static word_slot *word_slot_of(const word_set *set, const char *word, Py_ssize_t length)
{
    size_t at = word_hash(word, length) & set->mask;
    for (;;) {
        word_slot *slot = &set->slots[at];
        if (slot->start == NULL ||
            (slot->length == length && memcmp(slot->start, word, (size_t)length) == 0)) {
            return slot;
        }
        at = (at + 1) & set->mask;
    }
}

/* The next word of text[*at:size] (split on str.split()'s whitespace): its start and length
 * set, 0 when there is none left. */
static int next_word(const char *text, Py_ssize_t size, Py_ssize_t *at, const char **start, Py_ssize_t *length)
{
    Py_ssize_t i = *at;
    while (i < size && is_whitespace((unsigned char)text[i])) {
        i++;
    }
    Py_ssize_t first = i;
    while (i < size && !is_whitespace((unsigned char)text[i])) {
        i++;
    }
    *at = i;
    *start = text + first;
    *length = i - first;
    return i > first;
}

/* Slots for the words of a text of size characters, at most two in three of them filled. */
static size_t slots_for(Py_ssize_t size)
{
    size_t words = (size_t)size / 2 + 1, slots = 8;
    while (slots < words * 3 / 2 + 1) {
        slots <<= 1;
    }
    return slots;
}

/* ``" ".join(dict.fromkeys(text.split()))`` of an ASCII text: its distinct words, each once, in
 * the order first met (what row_values takes as a target's words, worked out once a question). */
static PyObject *distinct_words(PyObject *module, PyObject *text)
{
    (void)module;
    Py_ssize_t length;
    const char *data = (const char *)ascii_data(text, "the text", &length);
    if (data == NULL) {
        return NULL;
    }
    size_t slot_count = slots_for(length);
    size_t slot_bytes = slot_count * sizeof(word_slot);
    word_slot *slots = PyMem_Malloc(slot_bytes + (size_t)length + 1);
    if (slots == NULL) {
        return PyErr_NoMemory();
    }
    memset(slots, 0, slot_bytes);
    char *out = (char *)(slots + slot_count);
    word_set seen = {slots, slot_count - 1};
    Py_ssize_t size = 0, at = 0, word_length;
    const char *word;
    while (next_word(data, length, &at, &word, &word_length)) {
        word_slot *slot = word_slot_of(&seen, word, word_length);
        if (slot->start == NULL) {
            slot->start = word;
            slot->length = word_length;
            if (size) {
                out[size++] = ' ';
            }
            memcpy(out + size, word, (size_t)word_length);
            size += word_length;
        }
    }
    PyObject *result = PyUnicode_DecodeASCII(out, size, NULL);
    PyMem_Free(slots);
    return result;
}

/* The scores of a response's words (a set of in_response words) against one target's distinct
 * words (each once, separated by whitespace): how QA Accuracy counts them, as NLTK and FMEval
 * compute them. */
static void target_scores(const word_set *response_words, Py_ssize_t in_response, const char *distinct,
                          Py_ssize_t distinct_length, double *scores)
{
    Py_ssize_t in_target = 0, common = 0, at = 0, word_length;
    const char *word;
    while (next_word(distinct, distinct_length, &at, &word, &word_length)) {
        in_target++;
        common += word_slot_of(response_words, word, word_length)->start != NULL;
    }
    double precision = 0.0, recall = 0.0, f1 = 0.0;
    if (in_response && in_target) {
        precision = (double)common / (double)in_response;
        recall = (double)common / (double)in_target;
        if (precision != 0.0 && recall != 0.0) {
            f1 = 1.0 / (0.5 / precision + 0.5 / recall);
        }
    }
    scores[0] = f1;
    scores[1] = precision;
    scores[2] = recall;
}

/* The ASCII texts of target number index of targets, a tuple of (stripped, normalised,
 * distinct words) triples; -1 with an exception set when it is not one. */
static int target_texts(PyObject *targets, Py_ssize_t index, const unsigned char **texts, Py_ssize_t *lengths)
{
    static const char *const names[3] = {"a target", "a normalised target", "a target's distinct words"};
    PyObject *triple = PyTuple_GET_ITEM(targets, index);
    if (!PyTuple_Check(triple) || PyTuple_GET_SIZE(triple) != 3) {
        PyErr_SetString(PyExc_TypeError,
                        "each target must be a (stripped, normalised, distinct words) triple of str");
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        texts[k] = ascii_data(PyTuple_GET_ITEM(triple, k), names[k], &lengths[k]);
        if (texts[k] == NULL) {
            return -1;
        }
    }
    return 0;
}

static PyObject *row_values(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 4 || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) == 0) {
        PyErr_SetString(PyExc_TypeError,
                        "row_values() takes a response, a non-empty tuple of (stripped, normalised, "
                        "distinct words) targets, and the fact's groups lower-cased and normalised");
        return NULL;
    }
    PyObject *targets = args[1];
    const unsigned char *texts[3];
    Py_ssize_t lengths[3], length;
    const unsigned char *response = ascii_data(args[0], "the response", &length);
    if (response == NULL) {
        return NULL;
    }
    for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(targets); t++) {
        if (target_texts(targets, t, texts, lengths) < 0) {
            return NULL;
        }
    }

    /* response.strip(): what QA Accuracy's exact match compares and the normalisation reads. */
    Py_ssize_t first = 0, end = length;
    while (first < end && is_whitespace(response[first])) {
        first++;
    }
    while (end > first && is_whitespace(response[end - 1])) {
        end--;
    }
    size_t response_slots = slots_for(end - first);
    /* One block: the word set (first, where the allocation is aligned for it), then the
     * response lower-cased and its normalised text. */
    size_t slot_bytes = response_slots * sizeof(word_slot);
    word_slot *slots = PyMem_Malloc(slot_bytes + (size_t)length + (size_t)(end - first) + 2);
    if (slots == NULL) {
        return PyErr_NoMemory();
    }
    memset(slots, 0, slot_bytes);
    char *lower = (char *)(slots + response_slots);
    char *normal = lower + length;
    for (Py_ssize_t i = 0; i < length; i++) {
        unsigned char c = response[i];
        lower[i] = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : (char)c;
    }
    Py_ssize_t size = normalise_into(response + first, end - first, normal);

    word_set response_words = {slots, response_slots - 1};
    Py_ssize_t in_response = 0, at = 0, word_length;
    const char *word;
    while (next_word(normal, size, &at, &word, &word_length)) {
        word_slot *slot = word_slot_of(&response_words, word, word_length);
        if (slot->start == NULL) {
            slot->start = word;
            slot->length = word_length;
            in_response++;
        }
    }

    /* QA Accuracy: each of its five scores is the best over the targets. */
    double best[5] = {0.0, 0.0, 0.0, 0.0, 0.0}; /* f1, precision, recall, exact, quasi-exact */
    for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(targets); t++) {
        target_texts(targets, t, texts, lengths); /* checked above */
        double scores[5];
        target_scores(&response_words, in_response, (const char *)texts[2], lengths[2], scores);
        scores[3] = lengths[0] == end - first && memcmp(response + first, texts[0], (size_t)lengths[0]) == 0;
        scores[4] = lengths[1] == size && memcmp(normal, texts[1], (size_t)size) == 0;
        for (int k = 0; k < 5; k++) {
            if (scores[k] > best[k]) {
                best[k] = scores[k];
            }
        }
    }

    /* Factual Knowledge: a fact part in the response lower-cased (exact) or in its normalised
     * text (quasi-exact). */
    int exact = any_group_in(args[2], lower, length);
    int quasi = exact < 0 ? -1 : any_group_in(args[3], normal, size);
    PyMem_Free(slots);
    if (quasi < 0) {
        return NULL;
    }
    return Py_BuildValue("(ddddddd)", (double)exact, (double)quasi, best[0], best[1], best[2], best[3],
                         best[4]);
}

static PyMethodDef methods[] = {
    {"normalised_words", normalised_words, METH_O,
     "normalised_words(text, /)\n--\n\n"
     "FMEval's QuAC normalisation of an ASCII ``text`` and the set of its words: "
     "``goldenlens.core.lexical.normalise.normalised_words`` (ValueError for other text)."},
    {"normalised", normalised, METH_O,
     "normalised(text, /)\n--\n\n"
     "FMEval's QuAC normalisation of an ASCII ``text``: ``goldenlens.core.lexical.normalise.normalise`` "
     "(ValueError for other text)."},
    {"distinct_words", distinct_words, METH_O,
     "distinct_words(text, /)\n--\n\n"
     "The distinct words of an ASCII ``text``, each once in the order first met, joined by spaces: "
     "``\" \".join(dict.fromkeys(text.split()))`` (ValueError for other text)."},
    {"lower_contains_each", (PyCFunction)(void (*)(void))lower_contains_each, METH_FASTCALL,
     "lower_contains_each(texts, words, others, /)\n--\n\n"
     "For each str of the list ``texts``: ``None`` when it is not ASCII, else whether its lower-cased "
     "text contains a word of the tuple ``words`` and a word of the tuple ``others``: "
     "``any(w in t.lower() for w in words) and any(w in t.lower() for w in others)``."},
    {"row_values", (PyCFunction)(void (*)(void))row_values, METH_FASTCALL,
     "row_values(response, targets, lower_groups, normalised_groups, /)\n--\n\n"
     "The seven lexical values of an ASCII response against ASCII (stripped, normalised, distinct "
     "words) targets "
     "and a fact's parts lower-cased and normalised: "
     "``LexicalScorer.values`` in set counting (ValueError for other text)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT,
    "goldenlens.core.lexical._quac_ascii",
    "FMEval's QuAC-protocol normalisation and lexical scores of ASCII text, in C "
    "(see goldenlens.core.lexical.normalise and goldenlens.core.lexical.batch).",
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
