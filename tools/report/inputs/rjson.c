// SPDX-License-Identifier: MIT
// A small, strict JSON reader (a tree of nodes) for run.json, safe on malformed input.
#include "inputs/rjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
    const char *p;
    const char *end;
    const char *start;
    size_t nodes;
    char *err;
    size_t cap;
    bool failed;
};

static struct rjson *parse_value(struct parser *ps, int depth);

static size_t line_of(const struct parser *ps)
{
    size_t line = 1;
    for (const char *q = ps->start; q < ps->p && q < ps->end; q++)
        line += *q == '\n';
    return line;
}

static void fail(struct parser *ps, const char *what)
{
    if (!ps->failed)
        snprintf(ps->err, ps->cap, "%s at line %zu", what, line_of(ps));
    ps->failed = true;
}

static void skip_ws(struct parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static struct rjson *new_node(struct parser *ps, enum rjson_type type)
{
    if (++ps->nodes > RJSON_MAX_NODES) {
        fail(ps, "too many JSON values");
        return NULL;
    }
    struct rjson *n = calloc(1, sizeof(*n));
    if (!n)
        fail(ps, "out of memory");
    else
        n->type = type;
    return n;
}

static bool literal(struct parser *ps, const char *word)
{
    size_t k = strlen(word);
    if ((size_t)(ps->end - ps->p) < k || memcmp(ps->p, word, k) != 0)
        return false;
    ps->p += k;
    return true;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = (c >= '0' && c <= '9')   ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                         : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Append code point cp as UTF-8 (surrogates and NUL become '?'); returns bytes written. */
static size_t put_utf8(char *o, unsigned cp)
{
    if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
        o[0] = '?';
        return 1;
    }
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* One escape after the backslash at ps->p; returns bytes written to o, 0 on error. */
static size_t parse_escape(struct parser *ps, char *o)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    if (ps->p >= ps->end)
        return 0;
    const char *hit = strchr(from, *ps->p);
    if (*ps->p != 'u') {
        if (!hit || *ps->p == 0)
            return 0;
        ps->p++;
        o[0] = to[hit - from];
        return 1;
    }
    if (ps->end - ps->p < 5)
        return 0;
    int cp = hex4(ps->p + 1);
    if (cp < 0)
        return 0;
    ps->p += 5;
    unsigned u = (unsigned)cp;
    if (u >= 0xD800 && u <= 0xDBFF && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
        int lo = hex4(ps->p + 2);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            u = 0x10000 + ((u - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
            ps->p += 6;
        }
    }
    return put_utf8(o, u);
}

/* A string starting at the opening quote; returns a malloc'd copy or NULL (error recorded). */
static char *parse_string_raw(struct parser *ps)
{
    ps->p++; /* the quote */
    const char *q = ps->p;
    while (q < ps->end && *q != '"')
        q += (*q == '\\' && q + 1 < ps->end) ? 2 : 1;
    /* Decoded text is never longer than the source (an escape of 6 bytes gives at most 4). */
    char *out = malloc((size_t)(q - ps->p) + 1);
    if (!out) {
        fail(ps, "out of memory");
        return NULL;
    }
    size_t o = 0;
    while (ps->p < ps->end && *ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) {
            fail(ps, "control character in a string");
            goto bad;
        }
        if (c == '\\') {
            ps->p++;
            size_t k = parse_escape(ps, out + o);
            if (k == 0) {
                fail(ps, "bad escape in a string");
                goto bad;
            }
            o += k;
        } else {
            out[o++] = (char)c;
            ps->p++;
        }
    }
    if (ps->p >= ps->end) {
        fail(ps, "unterminated string");
        goto bad;
    }
    ps->p++;
    out[o] = 0;
    return out;
bad:
    free(out);
    return NULL;
}

static struct rjson *parse_number(struct parser *ps)
{
    const char *s = ps->p;
    if (ps->p < ps->end && *ps->p == '-')
        ps->p++;
    size_t digits = 0;
    while (ps->p < ps->end && ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '.' || *ps->p == 'e' ||
                               *ps->p == 'E' || *ps->p == '+' || *ps->p == '-')) {
        digits += (*ps->p >= '0' && *ps->p <= '9');
        ps->p++;
    }
    size_t n = (size_t)(ps->p - s);
    char buf[64];
    if (digits == 0 || n >= sizeof(buf)) {
        fail(ps, "bad number");
        return NULL;
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + n || !isfinite(v)) {
        fail(ps, "bad number");
        return NULL;
    }
    struct rjson *node = new_node(ps, RJSON_NUMBER);
    if (node)
        node->number = v;
    return node;
}

/* Elements of an array or members of an object, after the opening bracket. */
static struct rjson *parse_container(struct parser *ps, int depth, bool object)
{
    struct rjson *node = new_node(ps, object ? RJSON_OBJECT : RJSON_ARRAY);
    if (!node)
        return NULL;
    char close = object ? '}' : ']';
    struct rjson **tail = &node->child;
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return node;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(ps);
        if (object) {
            if (ps->p >= ps->end || *ps->p != '"') {
                fail(ps, "expected a member name");
                break;
            }
            key = parse_string_raw(ps);
            skip_ws(ps);
            if (!key || ps->p >= ps->end || *ps->p != ':') {
                free(key);
                fail(ps, "expected ':'");
                break;
            }
            ps->p++;
        }
        struct rjson *child = parse_value(ps, depth + 1);
        if (!child) {
            free(key);
            break;
        }
        child->key = key;
        *tail = child;
        tail = &child->next;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return node;
        }
        fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
        break;
    }
    rjson_free(node);
    return NULL;
}

static struct rjson *parse_value(struct parser *ps, int depth)
{
    if (depth > RJSON_MAX_DEPTH) {
        fail(ps, "JSON nested too deeply");
        return NULL;
    }
    skip_ws(ps);
    if (ps->p >= ps->end) {
        fail(ps, "unexpected end of JSON");
        return NULL;
    }
    char c = *ps->p;
    if (c == '{' || c == '[')
        return parse_container(ps, depth, c == '{');
    if (c == '"') {
        char *s = parse_string_raw(ps);
        struct rjson *n = s ? new_node(ps, RJSON_STRING) : NULL;
        if (!n)
            free(s);
        else
            n->string = s;
        return n;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        return parse_number(ps);
    struct rjson *n = NULL;
    bool is_true = literal(ps, "true");
    if (is_true || literal(ps, "false")) {
        n = new_node(ps, RJSON_BOOL);
        if (n)
            n->boolean = is_true;
    } else if (literal(ps, "null")) {
        n = new_node(ps, RJSON_NULL);
    } else {
        fail(ps, "unexpected character");
    }
    return n;
}

struct rjson *rjson_parse(const char *text, size_t len, char *err, size_t cap)
{
    struct parser ps = {text, text + len, text, 0, err, cap, false};
    if (cap > 0)
        err[0] = 0;
    struct rjson *root = parse_value(&ps, 0);
    if (root) {
        skip_ws(&ps);
        if (ps.p != ps.end) {
            fail(&ps, "text after the JSON document");
            rjson_free(root);
            root = NULL;
        }
    }
    return root;
}

void rjson_free(struct rjson *root)
{
    /* Iterative over siblings, recursive over depth (bounded by RJSON_MAX_DEPTH). */
    while (root) {
        struct rjson *next = root->next;
        rjson_free(root->child);
        free(root->string);
        free(root->key);
        free(root);
        root = next;
    }
}

const struct rjson *rjson_get(const struct rjson *obj, const char *key)
{
    if (!obj || obj->type != RJSON_OBJECT || !key)
        return NULL;
    for (const struct rjson *c = obj->child; c; c = c->next)
        if (c->key && strcmp(c->key, key) == 0)
            return c;
    return NULL;
}

const struct rjson *rjson_path(const struct rjson *root, const char *path)
{
    char name[128];
    const struct rjson *v = root;
    while (v && path && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n >= sizeof(name))
            return NULL;
        memcpy(name, path, n);
        name[n] = 0;
        v = rjson_get(v, name);
        path = dot ? dot + 1 : NULL;
    }
    return v;
}

bool rjson_number(const struct rjson *v, double *out)
{
    if (!v || v->type != RJSON_NUMBER)
        return false;
    *out = v->number;
    return true;
}

const char *rjson_string(const struct rjson *v)
{
    return v && v->type == RJSON_STRING ? v->string : NULL;
}

bool rjson_true(const struct rjson *v)
{
    return v && v->type == RJSON_BOOL && v->boolean;
}

size_t rjson_count(const struct rjson *v)
{
    size_t n = 0;
    if (v && (v->type == RJSON_ARRAY || v->type == RJSON_OBJECT))
        for (const struct rjson *c = v->child; c; c = c->next)
            n++;
    return n;
}
