// SPDX-License-Identifier: MIT
// HTTP through the firmware's own stack: a child of EFI_HTTP_SERVICE_BINDING_PROTOCOL per
// request, IPv4 configured by DHCP through EFI_IP4_CONFIG2_PROTOCOL when the NIC has no address.
#include "efi_net.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define HTTP_POLL_US 1000   /* between polls of a request in flight */
#define DHCP_POLL_MS 100    /* between looks at the interface's address */
#define HTTP_HEADERS_MAX 5  /* Host, Content-Length, Content-Type, Authorization, Connection */
#define IP4_INFO_BYTES 4096 /* the interface information with its route table after it */

static EFI_GUID http_sb_guid = CHASE_HTTP_SB_GUID;
static EFI_GUID http_guid = CHASE_HTTP_GUID;
static EFI_GUID tls_sb_guid = CHASE_TLS_SB_GUID;
static EFI_GUID ip4_config2_guid = CHASE_IP4_CONFIG2_GUID;

/* EFI_HTTP_STATUS_CODE's enumeration (29.6) as the numbers HTTP sends. */
static const unsigned http_status_numbers[] = {
    0,   100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303,
    304, 305, 307, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410,
    411, 412, 413, 414, 415, 416, 417, 500, 501, 502, 503, 504, 505, 308};

BOOLEAN efi_http_has_tls(void)
{
    UINTN count = 0;
    EFI_HANDLE *handles = NULL;
    if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &tls_sb_guid, NULL, &count,
                          &handles) != EFI_SUCCESS)
        return FALSE;
    uefi_call_wrapper(BS->FreePool, 1, handles);
    return count > 0;
}

/* The NIC to use: the one chase was loaded through, else the first with HTTP. */
static EFI_HANDLE http_nic(EFI_HANDLE image)
{
    EFI_LOADED_IMAGE *li = NULL;
    EFI_HANDLE nic = NULL;
    if (uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li) ==
        EFI_SUCCESS) {
        EFI_DEVICE_PATH *dp = DevicePathFromHandle(li->DeviceHandle);
        if (dp &&
            uefi_call_wrapper(BS->LocateDevicePath, 3, &http_sb_guid, &dp, &nic) == EFI_SUCCESS)
            return nic;
    }
    UINTN count = 0;
    EFI_HANDLE *handles = NULL;
    if (uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &http_sb_guid, NULL, &count,
                          &handles) != EFI_SUCCESS)
        return NULL;
    nic = count ? handles[0] : NULL;
    uefi_call_wrapper(BS->FreePool, 1, handles);
    return nic;
}

/* The interface's IPv4 address into a (zeros when none yet); FALSE when it cannot be read. */
static BOOLEAN ip4_address(CHASE_IP4_CONFIG2 *cfg, UINT8 a[4])
{
    static UINT8 info[IP4_INFO_BYTES];
    UINTN size = sizeof(info);
    if (uefi_call_wrapper(cfg->GetData, 4, cfg, ChaseIp4Config2InterfaceInfo, &size, info) !=
        EFI_SUCCESS)
        return FALSE;
    kmemcpy(a, ((CHASE_IP4_CONFIG2_INTERFACE_INFO *)info)->StationAddress.Addr, 4);
    return TRUE;
}

/* Make sure the NIC has an IPv4 address: DHCP through IP4Config2 when it has none. */
static BOOLEAN ensure_address(EFI_HANDLE nic, char *why, size_t why_cap)
{
    static BOOLEAN done;
    CHASE_IP4_CONFIG2 *cfg = NULL;
    UINT8 a[4] = {0};
    if (done)
        return TRUE;
    if (uefi_call_wrapper(BS->HandleProtocol, 3, nic, &ip4_config2_guid, (void **)&cfg) !=
            EFI_SUCCESS ||
        !ip4_address(cfg, a)) {
        ksnprintf(why, why_cap, "the NIC has no EFI_IP4_CONFIG2_PROTOCOL");
        return FALSE;
    }
    if (!(a[0] | a[1] | a[2] | a[3])) {
        CHASE_IP4_CONFIG2_POLICY dhcp = ChaseIp4Config2PolicyDhcp;
        con_printf("chase: network: no IPv4 address yet: asking DHCP (at most %u s)\n",
                   EFI_NET_DHCP_WAIT_S);
        uefi_call_wrapper(cfg->SetData, 4, cfg, ChaseIp4Config2Policy, sizeof(dhcp), &dhcp);
        for (unsigned ms = 0; ms < EFI_NET_DHCP_WAIT_S * 1000 && !(a[0] | a[1] | a[2] | a[3]);
             ms += DHCP_POLL_MS) {
            uefi_call_wrapper(BS->Stall, 1, DHCP_POLL_MS * 1000);
            ip4_address(cfg, a);
        }
    }
    if (!(a[0] | a[1] | a[2] | a[3])) {
        ksnprintf(why, why_cap, "no IPv4 address: DHCP gave none in %u s", EFI_NET_DHCP_WAIT_S);
        return FALSE;
    }
    con_printf("chase: network: IPv4 address %u.%u.%u.%u\n", a[0], a[1], a[2], a[3]);
    done = TRUE;
    return TRUE;
}

/* Wait for a request or response in flight (polling the stack): FALSE when it timed out. */
static BOOLEAN wait_token(CHASE_HTTP *http, CHASE_HTTP_TOKEN *token)
{
    for (unsigned us = 0; us < (EFI_HTTP_TIMEOUT_MS + 1000) * 1000u; us += HTTP_POLL_US) {
        uefi_call_wrapper(http->Poll, 1, http);
        if (uefi_call_wrapper(BS->CheckEvent, 1, token->Event) == EFI_SUCCESS)
            return TRUE;
        uefi_call_wrapper(BS->Stall, 1, HTTP_POLL_US);
    }
    uefi_call_wrapper(http->Cancel, 2, http, token);
    return FALSE;
}

/* What a network status means, for the console (UEFI 2.10 appendix D; TCP's own in 28.1). */
static const char *net_reason(EFI_STATUS st)
{
    switch (st & ~EFI_ERROR_MASK) {
    case 17: /* EFI_NO_MAPPING */
        return "no IPv4 address";
    case 18: /* EFI_TIMEOUT */
        return "no connection in time";
    case 104: /* EFI_CONNECTION_FIN */
        return "the server closed the connection";
    case 105: /* EFI_CONNECTION_RESET */
        return "the connection was reset (nothing listening there?)";
    case 106: /* EFI_CONNECTION_REFUSED */
        return "the connection was refused";
    default:
        return "the firmware's HTTP failed";
    }
}

/* Send one request and its body; FALSE with why. */
static BOOLEAN send_request(CHASE_HTTP *http, CHASE_HTTP_TOKEN *token, CHASE_HTTP_METHOD method,
                            const char *url, CHASE_HTTP_HEADER *h, UINTN nh, const void *body,
                            size_t len, char *why, size_t why_cap)
{
    static CHAR16 url16[EFI_NET_URL_MAX];
    size_t i = 0;
    for (; url[i] && i + 1 < EFI_NET_URL_MAX; i++)
        url16[i] = (CHAR16)(unsigned char)url[i];
    url16[i] = 0;
    CHASE_HTTP_REQUEST_DATA req = {method, url16};
    CHASE_HTTP_MESSAGE msg = {{.Request = &req}, nh, h, len, (void *)body};
    token->Message = &msg;
    token->Status = EFI_SUCCESS;
    EFI_STATUS st = uefi_call_wrapper(http->Request, 2, http, token);
    if (st == EFI_SUCCESS && !wait_token(http, token))
        st = EFI_TIMEOUT;
    else if (st == EFI_SUCCESS)
        st = token->Status;
    if (st != EFI_SUCCESS)
        ksnprintf(why, why_cap, "the request was not sent: %s (status 0x%llx)", net_reason(st),
                  (unsigned long long)st);
    return st == EFI_SUCCESS;
}

/* The Content-Length header of a response; -1 when it has none. */
static long long content_length(const CHASE_HTTP_MESSAGE *m)
{
    for (UINTN i = 0; m->Headers && i < m->HeaderCount; i++) {
        if (kstrcasecmp((const char *)m->Headers[i].FieldName, "Content-Length") != 0)
            continue;
        long long v = 0;
        for (const CHAR8 *p = m->Headers[i].FieldValue; *p >= '0' && *p <= '9'; p++)
            v = v * 10 + (*p - '0');
        return v;
    }
    return -1;
}

/* Receive the answer: its status number (0 with why when none came), the body into out. */
static unsigned receive(CHASE_HTTP *http, CHASE_HTTP_TOKEN *token, char *out, size_t cap,
                        size_t *got, char *why, size_t why_cap)
{
    CHASE_HTTP_RESPONSE_DATA resp = {0};
    /* a PUT's answer: the status line and headers only */
    CHASE_HTTP_MESSAGE msg = {{.Response = &resp}, 0, NULL, out ? cap : 0, out};
    token->Message = &msg;
    token->Status = EFI_SUCCESS;
    *got = 0;
    EFI_STATUS st = uefi_call_wrapper(http->Response, 2, http, token);
    const char *stage = "the firmware refused to wait for it";
    unsigned n = sizeof(http_status_numbers) / sizeof(http_status_numbers[0]);
    long long want = content_length(&msg);
    if (st == EFI_SUCCESS && resp.StatusCode && resp.StatusCode < n && (!out || want == 0)) {
        /* EDK II parses the status line inside Response(); with no body to read it may never
           signal the token, so the answer is taken as it stands */
        if (msg.Headers)
            uefi_call_wrapper(BS->FreePool, 1, msg.Headers);
        uefi_call_wrapper(http->Cancel, 2, http, token);
        return http_status_numbers[resp.StatusCode];
    }
    if (st == EFI_SUCCESS) {
        stage = "none in time";
        st = wait_token(http, token) ? token->Status : EFI_TIMEOUT;
        if (st != EFI_SUCCESS && st != EFI_TIMEOUT)
            stage = "the firmware's HTTP failed reading it";
    }
    if (st != EFI_SUCCESS && resp.StatusCode && resp.StatusCode < n) {
        if (msg.Headers) /* an error status (EDK II's EFI_HTTP_ERROR): the number says it */
            uefi_call_wrapper(BS->FreePool, 1, msg.Headers);
        return http_status_numbers[resp.StatusCode];
    }
    if (st != EFI_SUCCESS) {
        ksnprintf(why, why_cap, "no answer: %s (status 0x%llx)", stage, (unsigned long long)st);
        return 0;
    }
    *got = msg.BodyLength;
    if (msg.Headers)
        uefi_call_wrapper(BS->FreePool, 1, msg.Headers);
    /* the rest of a body that came in pieces */
    while (out && want > 0 && *got < (size_t)want && *got < cap) {
        CHASE_HTTP_MESSAGE more = {{.Response = NULL}, 0, NULL, cap - *got, out + *got};
        token->Message = &more;
        if (uefi_call_wrapper(http->Response, 2, http, token) != EFI_SUCCESS ||
            !wait_token(http, token) || token->Status != EFI_SUCCESS || more.BodyLength == 0)
            break;
        *got += more.BodyLength;
    }
    return resp.StatusCode < n ? http_status_numbers[resp.StatusCode] : 0;
}

/* The request's headers into h (texts in hv); returns how many. */
static UINTN make_headers(CHASE_HTTP_HEADER *h, char hv[HTTP_HEADERS_MAX][256],
                          CHASE_HTTP_METHOD method, const char *url, const char *token, size_t len)
{
    static const char *names[HTTP_HEADERS_MAX] = {"Host", "User-Agent", "Content-Length",
                                                  "Content-Type", "Authorization"};
    const char *host = kstrchr(url, '/') ? kstrchr(url, '/') + 2 : url; /* after "//" */
    size_t n = 0;
    while (host[n] && host[n] != '/' && n + 1 < sizeof(hv[0]))
        n++;
    kmemcpy(hv[0], host, n);
    hv[0][n] = 0;
    kstrlcpy(hv[1], "chase/" CHASE_VERSION, sizeof(hv[1]));
    UINTN count = 2;
    if (method == ChaseHttpPut) {
        ksnprintf(hv[2], sizeof(hv[2]), "%llu", (unsigned long long)len);
        kstrlcpy(hv[3], "application/octet-stream", sizeof(hv[3]));
        count = 4;
        if (token && token[0]) {
            ksnprintf(hv[4], sizeof(hv[4]), "Bearer %s", token);
            count = 5;
        }
    }
    for (UINTN i = 0; i < count; i++) {
        h[i].FieldName = (CHAR8 *)names[i];
        h[i].FieldValue = (CHAR8 *)hv[i];
    }
    return count;
}

/* A configured HTTP child on nic: TRUE with *child and *http. */
static BOOLEAN http_child(EFI_HANDLE nic, CHASE_SERVICE_BINDING **sb, EFI_HANDLE *child,
                          CHASE_HTTP **http, char *why, size_t why_cap)
{
    static CHASE_HTTPv4_ACCESS_POINT v4 = {.UseDefaultAddress = TRUE};
    CHASE_HTTP_CONFIG_DATA cfg = {
        ChaseHttpVersion11, EFI_HTTP_TIMEOUT_MS, FALSE, {.IPv4Node = &v4}};
    *child = NULL;
    EFI_STATUS st = uefi_call_wrapper(BS->HandleProtocol, 3, nic, &http_sb_guid, (void **)sb);
    if (st == EFI_SUCCESS)
        st = uefi_call_wrapper((*sb)->CreateChild, 2, *sb, child);
    if (st == EFI_SUCCESS)
        st = uefi_call_wrapper(BS->HandleProtocol, 3, *child, &http_guid, (void **)http);
    if (st == EFI_SUCCESS)
        st = uefi_call_wrapper((*http)->Configure, 2, *http, &cfg);
    if (st != EFI_SUCCESS)
        ksnprintf(why, why_cap, "the firmware's HTTP would not start (status 0x%llx)",
                  (unsigned long long)st);
    return st == EFI_SUCCESS;
}

unsigned efi_http_request(EFI_HANDLE image, CHASE_HTTP_METHOD method, const char *url,
                          const char *token, const void *body, size_t len, char *out,
                          size_t out_cap, size_t *out_len, char *why, size_t why_cap)
{
    EFI_HANDLE nic = http_nic(image), child = NULL;
    CHASE_SERVICE_BINDING *sb = NULL;
    CHASE_HTTP *http = NULL;
    CHASE_HTTP_HEADER h[HTTP_HEADERS_MAX];
    static char hv[HTTP_HEADERS_MAX][256];
    CHASE_HTTP_TOKEN tok = {0};
    unsigned code = 0;
    size_t got = 0;
    if (!nic) {
        ksnprintf(why, why_cap, "the firmware has no HTTP (EFI_HTTP_SERVICE_BINDING_PROTOCOL)");
        return 0;
    }
    if (!ensure_address(nic, why, why_cap))
        return 0;
    if (uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &tok.Event) != EFI_SUCCESS) {
        ksnprintf(why, why_cap, "no event for the request");
        return 0;
    }
    UINTN nh = make_headers(h, hv, method, url, token, len);
    CHASE_HTTP_TOKEN rx = {0};
    if (uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &rx.Event) == EFI_SUCCESS &&
        http_child(nic, &sb, &child, &http, why, why_cap) &&
        send_request(http, &tok, method, url, h, nh, body, len, why, why_cap))
        code = receive(http, &rx, out, out_cap, &got, why, why_cap);
    if (out_len)
        *out_len = got;
    if (child)
        uefi_call_wrapper(sb->DestroyChild, 2, sb, child);
    uefi_call_wrapper(BS->CloseEvent, 1, tok.Event);
    if (rx.Event)
        uefi_call_wrapper(BS->CloseEvent, 1, rx.Event);
    return code;
}
