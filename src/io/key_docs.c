/* The docs' key tables (docs/scene-format.md) written from the key tables
 * themselves (floe.h, "key tables"): `floe keys --markdown` prints them
 * between begin and end comments, tools/key_tables.py puts them into the
 * docs and CTest `key_tables` fails when the docs differ. */
#include <floe/floe_io.h>

#include <stdio.h>
#include <string.h>

/* A number as the docs write it: 1e+09 -> 1e9. */
static void pretty(const char *in, char *out, size_t len) {
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < len; p++) {
        if (p[0] == 'e' && p[1] == '+') {
            out[k++] = 'e';
            p++;
            while (p[1] == '0') p++;
            continue;
        }
        if (p[0] == 'e' && p[1] == '-' && p[2] == '0') {
            out[k++] = 'e';
            if (k + 1 < len) out[k++] = '-';
            p += 2;
            while (p[0] == '0' && p[1] >= '0' && p[1] <= '9') p++;
            p--;
            continue;
        }
        out[k++] = *p;
    }
    out[k] = 0;
}

static void unit_text(const char *u, char *out, size_t len) {
    if (!u || !*u) {
        snprintf(out, len, "–");
        return;
    }
    size_t k = 0;
    for (const char *p = u; *p && k + 4 < len; p++) {
        if (p[0] == '^' && (p[1] == '2' || p[1] == '3')) {
            const char *sup = p[1] == '2' ? "²" : "³";
            memcpy(out + k, sup, strlen(sup));
            k += strlen(sup);
            p++;
        } else out[k++] = *p;
    }
    out[k] = 0;
}

/* `name`, `name` or `name` from the key's words. */
static void words_md(const floe_key *k, char *out, size_t len) {
    char w[256];
    floe_key_words_text(k, w, sizeof w);
    size_t j = 0;
    for (const char *p = w; *p && j + 1 < len; p++) out[j++] = *p == '\'' ? '`' : *p;
    out[j] = 0;
}

static void allowed(const floe_key *k, char *out, size_t len) {
    char r[64], w[200];
    floe_key_range_text(k, r, sizeof r);
    pretty(r, r, sizeof r);
    switch (k->kind) {
        case FLOE_KEY_NUMBER:
            if (k->words) {
                words_md(k, w, sizeof w);
                snprintf(out, len, "%s or %s", w, r);
            } else snprintf(out, len, "%s", r);
            return;
        case FLOE_KEY_INT:
        case FLOE_KEY_INT64:
            snprintf(out, len, "integer %s", r);
            return;
        case FLOE_KEY_BOOL:
            snprintf(out, len, "true or false");
            return;
        case FLOE_KEY_VEC3:
            if (!strcmp(r, "finite")) snprintf(out, len, "3 finite numbers");
            else snprintf(out, len, "3 numbers, each in %s", r);
            return;
        case FLOE_KEY_ENUM:
        case FLOE_KEY_OWN:
            if (k->words) words_md(k, out, len);
            else snprintf(out, len, "see the meaning");
            return;
        case FLOE_KEY_NAME:
            snprintf(out, len, "1 to 63 characters, unique");
            return;
        case FLOE_KEY_BOX:
            snprintf(out, len, "two corners, the first %s the second", k->min_open ? "below" : "not above");
            return;
        case FLOE_KEY_MAP:
            snprintf(out, len, "a mapping of the keys below");
            return;
        case FLOE_KEY_TRIANGLES:
            snprintf(out, len, "%d to %d triangles", (int)k->min, (int)k->max);
            return;
        case FLOE_KEY_SIZE:
            snprintf(out, len, "a size in %s, a range [min, max] or a distribution {dist: ...}", r);
            return;
        case FLOE_KEY_SIZES3:
            snprintf(out, len, "3 sizes, each in %s, a range or a distribution", r);
            return;
        case FLOE_KEY_MATERIAL:
            snprintf(out, len, "a declared material");
            return;
        case FLOE_KEY_GROUPS:
            snprintf(out, len, "a group's name or a list of names");
            return;
        case FLOE_KEY_GROUP:
            snprintf(out, len, "one group's name");
            return;
        case FLOE_KEY_SINK:
            snprintf(out, len, "a sink's name");
            return;
        default:
            snprintf(out, len, "–");
    }
}

/* Text in a table cell: a | escaped. */
static void cell(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '|') fputc('\\', f);
        fputc(*s, f);
    }
}

static int is_word(const floe_key *k, const char *s) { return floe_key_word(k, s, NULL); }

/* Whether some key of t (or of its sub-tables) is taken by some kinds only. */
static int has_only(const floe_key_table *t) {
    for (int i = 0; i < t->n; i++)
        if (t->keys[i].only || (t->keys[i].sub && has_only(t->keys[i].sub))) return 1;
    return 0;
}

static void rows(FILE *f, const floe_key_table *t, const char *prefix, int kinds) {
    for (int i = 0; i < t->n; i++) {
        const floe_key *k = &t->keys[i];
        char u[32], a[320], d[128], choice[256] = "";
        unit_text(k->unit, u, sizeof u);
        allowed(k, a, sizeof a);
        if (k->def[0] == '[' || k->def[0] == '.' || is_word(k, k->def)) snprintf(d, sizeof d, "`%s`", k->def);
        else if (!strcmp(k->def, "required")) snprintf(d, sizeof d, "**required**");
        else snprintf(d, sizeof d, "%s", strcmp(k->def, "-") ? k->def : "–");
        if (k->choice) {
            size_t n = (size_t)snprintf(choice, sizeof choice, "; one %s of ", k->choice);
            int first = 1;
            for (int j = 0; j < t->n && n < sizeof choice; j++)
                if (t->keys[j].choice && !strcmp(t->keys[j].choice, k->choice)) {
                    n += (size_t)snprintf(choice + n, sizeof choice - n, "%s`%s`", first ? "" : ", ", t->keys[j].key);
                    first = 0;
                }
        }
        fprintf(f, "| `%s%s` | ", prefix, k->key);
        if (kinds) {
            for (const char *p = k->only ? k->only : "all"; *p; p++) fputs(*p == ',' ? ", " : (char[]){*p, 0}, f);
            fprintf(f, " | ");
        }
        fprintf(f, "%s | %s | %s%s | ", u, d, a, choice);
        cell(f, k->doc);
        fprintf(f, " |\n");
        if (k->kind == FLOE_KEY_MAP && k->sub) {
            char p[128];
            snprintf(p, sizeof p, "%s%s.", prefix, k->key);
            rows(f, k->sub, p, kinds);
        }
    }
}

void floe_key_table_markdown(FILE *f, const floe_key_table *t) {
    fprintf(f, "<!-- keys:%s (written by `floe keys --markdown` from the code's key table) -->\n", t->name);
    int kinds = has_only(t);
    if (kinds)
        fprintf(f, "| key | kinds | unit | default | allowed | meaning |\n| --- | --- | --- | --- | --- | --- |\n");
    else fprintf(f, "| key | unit | default | allowed | meaning |\n| --- | --- | --- | --- | --- |\n");
    rows(f, t, "", kinds);
    fprintf(f, "<!-- /keys:%s -->\n", t->name);
}

void floe_key_tables_markdown(FILE *f) {
    for (int i = 0; i < floe_key_table_count(); i++) {
        const floe_key_table *t = floe_key_table_at(i);
        if (strchr(t->name, '.')) continue; /* a sub-table: in its parent's rows */
        floe_key_table_markdown(f, t);
        fprintf(f, "\n");
    }
    floe_key_table_markdown(f, floe_dense_key_table());
}
