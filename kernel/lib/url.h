// SPDX-License-Identifier: MIT
// The results key's URL (http://HOST[:PORT][/PATH], https://...) taken apart for the uploader.
#ifndef CHASE_URL_H
#define CHASE_URL_H

#include <stdbool.h>
#include <stdint.h>

#define URL_HOST_MAX 128 /* a DNS name or dotted IPv4 address, with its NUL */
#define URL_PATH_MAX 192 /* the whole results value fits a configuration entry (192) */
#define URL_PORT_HTTP 80
#define URL_PORT_HTTPS 443

struct url {
    bool https;
    char host[URL_HOST_MAX];
    uint16_t port;           /* the scheme's own when the URL names none */
    char path[URL_PATH_MAX]; /* without its leading and trailing '/': "" or "a/b" */
    bool host_is_ipv4;       /* host is a dotted quad, in ipv4[] */
    uint8_t ipv4[4];
};

/*
 * Take an http:// or https:// URL apart. The host is letters, digits, '.' and '-'; the path's
 * characters [A-Za-z0-9._~/-] only (no query, fragment, user or percent escapes: the uploader
 * adds its own parts to it). False with a reason in why (capacity why_cap) when malformed.
 */
bool url_parse(const char *text, struct url *u, char *why, unsigned why_cap);

#endif
