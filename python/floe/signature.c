/* Text signatures for inspect.signature and help(): a docstring of the
 * module's style, "name(args) -> result\n\nText", becomes CPython's
 * "name($self, args)\n--\n\nReturns: result\n\nText" once, at import, so
 * that every method and function keeps one docstring, written the readable
 * way, and still has a signature (docs/python.md, "API reference").
 * tests/python/test_signatures.py checks every method's. */
#include "_floe.h"

#include <stdlib.h>
#include <string.h>

const char *floe_py_signed_doc(const char *doc, const char *first) {
    if (!doc) return doc;
    const char *open = strchr(doc, '(');
    if (!open || open == doc || strstr(doc, "\n--\n\n")) return doc;
    for (const char *c = doc; c < open; c++)
        if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
            return doc; /* no "name(" first: left as it is */
    const char *close = open;
    for (int depth = 0; *close; close++) {
        depth += *close == '(' ? 1 : *close == ')' ? -1 : 0;
        if (depth == 0) break;
    }
    if (!*close) return doc;
    size_t n = strlen(doc);
    char *out = malloc(2 * n + 64); /* lives as long as the module: the method tables point to it */
    if (!out) return doc;
    char *o = out;
    memcpy(o, doc, (size_t)(open - doc) + 1);
    o += open - doc + 1;
    if (first) {
        o += sprintf(o, "%s", first);
        const char *q = open + 1;
        while (*q == ' ' || *q == '\n') q++;
        if (q < close) o += sprintf(o, ", ");
    }
    /* the arguments on one line; `inf` (no literal) as math.inf */
    int space = 0;
    for (const char *c = open + 1; c <= close; c++) {
        if (*c == ' ' || *c == '\n') {
            space = 1;
            continue;
        }
        if (space && o[-1] != '(' && o[-1] != ' ') *o++ = ' ';
        space = 0;
        if (!strncmp(c, "=inf", 4) && (c[4] == ',' || c[4] == ')')) {
            o += sprintf(o, "=math.inf");
            c += 3;
            continue;
        }
        *o++ = *c;
    }
    o += sprintf(o, "\n--\n\n");
    const char *rest = close + 1;
    while (*rest == ' ' || *rest == '\n') { /* "-> result", perhaps on the next line */
        if (!strncmp(rest, "\n\n", 2)) break;
        rest++;
    }
    if (!strncmp(rest, "->", 2)) {
        rest += 2;
        while (*rest == ' ') rest++;
        const char *eol = strchr(rest, '\n');
        size_t len = eol ? (size_t)(eol - rest) : strlen(rest);
        o += sprintf(o, "Returns: %.*s\n", (int)len, rest);
        rest += len;
    }
    while (*rest == '\n') rest++;
    if (*rest) o += sprintf(o, "\n%s", rest);
    *o = 0;
    return out;
}
