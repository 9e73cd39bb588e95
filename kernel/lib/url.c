// SPDX-License-Identifier: MIT
// Parsing the results key's http:// or https:// URL into host, port and path.
#include "lib/url.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

static bool is_alnum(char c)
{
    return kisdigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool host_char(char c)
{
    return is_alnum(c) || c == '.' || c == '-';
}

static bool path_char(char c)
{
    return is_alnum(c) || c == '.' || c == '_' || c == '~' || c == '/' || c == '-';
}

/* A dotted quad "a.b.c.d", each 0..255: true with the bytes. */
static bool parse_ipv4(const char *s, uint8_t out[4])
{
    for (unsigned i = 0; i < 4; i++) {
        unsigned v = 0, digits = 0;
        for (; kisdigit(*s) && digits < 4; s++, digits++)
            v = v * 10 + (unsigned)(*s - '0');
        if (!digits || v > 255 || (i < 3 && *s++ != '.'))
            return false;
        out[i] = (uint8_t)v;
    }
    return *s == 0;
}

/* ":PORT" at *p (moved past it); false when malformed or 0 or above 65535. */
static bool parse_port(const char **p, uint16_t *port)
{
    unsigned v = 0, digits = 0;
    for ((*p)++; kisdigit(**p) && digits < 6; (*p)++, digits++)
        v = v * 10 + (unsigned)(**p - '0');
    if (!digits || v == 0 || v > 65535)
        return false;
    *port = (uint16_t)v;
    return true;
}

bool url_parse(const char *text, struct url *u, char *why, unsigned why_cap)
{
    kmemset(u, 0, sizeof(*u));
    const char *p = text;
    if (kstrncmp(p, "http://", 7) == 0) {
        p += 7;
    } else if (kstrncmp(p, "https://", 8) == 0) {
        u->https = true;
        p += 8;
    } else {
        ksnprintf(why, why_cap, "not an http:// or https:// URL");
        return false;
    }
    u->port = u->https ? URL_PORT_HTTPS : URL_PORT_HTTP;
    size_t n = 0;
    for (; host_char(*p); p++) {
        if (n + 1 >= sizeof(u->host)) {
            ksnprintf(why, why_cap, "the host name is longer than %d characters", URL_HOST_MAX - 1);
            return false;
        }
        u->host[n++] = *p;
    }
    if (!n) {
        ksnprintf(why, why_cap, "no host after the scheme");
        return false;
    }
    if (*p == ':' && !parse_port(&p, &u->port)) {
        ksnprintf(why, why_cap, "the port is not a number from 1 to 65535");
        return false;
    }
    if (*p && *p != '/') {
        ksnprintf(why, why_cap, "'%c' after the host (only :PORT and /PATH may follow)", *p);
        return false;
    }
    while (*p == '/')
        p++;
    for (n = 0; *p; p++) {
        if (!path_char(*p) || n + 1 >= sizeof(u->path)) {
            ksnprintf(
                why, why_cap,
                "the path may hold only letters, digits and . _ ~ / - (no query, no escapes)");
            return false;
        }
        u->path[n++] = *p;
    }
    while (n && u->path[n - 1] == '/')
        u->path[--n] = 0;
    u->host_is_ipv4 = parse_ipv4(u->host, u->ipv4);
    return true;
}
