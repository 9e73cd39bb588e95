// SPDX-License-Identifier: MIT
// A streaming JSON writer onto a strbuf, indented for people.
#include "lib/json.h"

static void indent(struct json *j)
{
    strbuf_puts(j->out, "\n");
    for (int i = 0; i < j->depth; i++)
        strbuf_puts(j->out, "  ");
}

static void escaped(struct strbuf *out, const char *s)
{
    strbuf_puts(out, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            strbuf_append(out, e, 2);
        } else if (c == '\n') {
            strbuf_puts(out, "\\n");
        } else if (c < 0x20 || c >= 0x7f) {
            strbuf_printf(out, "\\u%04x", c);
        } else {
            strbuf_append(out, (const char *)&c, 1);
        }
    }
    strbuf_puts(out, "\"");
}

static void member(struct json *j, const char *key)
{
    if (j->depth > 0) {
        if (!j->first[j->depth])
            strbuf_puts(j->out, ",");
        j->first[j->depth] = false;
        indent(j);
    }
    if (key) {
        escaped(j->out, key);
        strbuf_puts(j->out, ": ");
    }
}

static void scope_open(struct json *j, const char *key, const char *bracket)
{
    member(j, key);
    strbuf_puts(j->out, bracket);
    if (j->depth + 1 < JSON_MAX_DEPTH)
        j->depth++;
    j->first[j->depth] = true;
}

static void scope_close(struct json *j, const char *bracket)
{
    bool empty = j->first[j->depth];
    if (j->depth > 0)
        j->depth--;
    if (!empty)
        indent(j);
    strbuf_puts(j->out, bracket);
    if (j->depth == 0)
        strbuf_puts(j->out, "\n");
}

void json_init(struct json *j, struct strbuf *out)
{
    j->out = out;
    j->depth = 0;
    j->first[0] = true;
}

void json_object_begin(struct json *j, const char *key)
{
    scope_open(j, key, "{");
}

void json_object_end(struct json *j)
{
    scope_close(j, "}");
}

void json_array_begin(struct json *j, const char *key)
{
    scope_open(j, key, "[");
}

void json_array_end(struct json *j)
{
    scope_close(j, "]");
}

void json_string(struct json *j, const char *key, const char *value)
{
    member(j, key);
    if (value)
        escaped(j->out, value);
    else
        strbuf_puts(j->out, "null");
}

void json_u64(struct json *j, const char *key, uint64_t value)
{
    member(j, key);
    strbuf_printf(j->out, "%llu", (unsigned long long)value);
}

void json_double(struct json *j, const char *key, double value, int decimals)
{
    member(j, key);
    if (value != value || value > 1e18 || value < -1e18)
        strbuf_puts(j->out, "null");
    else
        strbuf_printf(j->out, "%.*f", decimals, value);
}

void json_bool(struct json *j, const char *key, bool value)
{
    member(j, key);
    strbuf_puts(j->out, value ? "true" : "false");
}
