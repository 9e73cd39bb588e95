// SPDX-License-Identifier: MIT
// The firmware's network for issue 49: what GNU-EFI lacks of the UEFI specification (HTTP,
// IPv4 configuration, service binding; written from UEFI 2.10 sections 11.1, 28.5, 29.6), and
// what efi_netboot.c, efi_http.c, efi_runfiles.c and efi_ship.c give each other.
#ifndef CHASE_EFI_NET_H
#define CHASE_EFI_NET_H

#include "efi_internal.h"
#include "run/ship.h"

/* ---- UEFI 2.10 section 11.1: EFI_SERVICE_BINDING_PROTOCOL ---------------------------------- */
typedef struct _CHASE_SERVICE_BINDING {
    EFI_STATUS (*CreateChild)(struct _CHASE_SERVICE_BINDING *This, EFI_HANDLE *ChildHandle);
    EFI_STATUS (*DestroyChild)(struct _CHASE_SERVICE_BINDING *This, EFI_HANDLE ChildHandle);
} CHASE_SERVICE_BINDING;

/* ---- 29.6: EFI_HTTP_PROTOCOL ------------------------------------------------------------------
 */
#define CHASE_HTTP_SB_GUID                                                                         \
    {                                                                                              \
        0xbdc8e6af, 0xd9bc, 0x4379,                                                                \
        {                                                                                          \
            0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c                                         \
        }                                                                                          \
    }
#define CHASE_HTTP_GUID                                                                            \
    {                                                                                              \
        0x7a59b29b, 0x910b, 0x4171,                                                                \
        {                                                                                          \
            0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b                                         \
        }                                                                                          \
    }
/* 28.10: EFI_TLS_SERVICE_BINDING_PROTOCOL: where it is, HTTP can speak https */
#define CHASE_TLS_SB_GUID                                                                          \
    {                                                                                              \
        0x952cb795, 0xff36, 0x48cf,                                                                \
        {                                                                                          \
            0xa2, 0x49, 0x4d, 0xf4, 0x86, 0xd6, 0xab, 0x8d                                         \
        }                                                                                          \
    }

typedef enum { ChaseHttpVersion10, ChaseHttpVersion11 } CHASE_HTTP_VERSION;
/* EFI_HTTP_METHOD's order: Get, Post, Patch, Options, Connect, Head, Put, ... */
typedef enum { ChaseHttpGet = 0, ChaseHttpPut = 6 } CHASE_HTTP_METHOD;

typedef struct {
    BOOLEAN UseDefaultAddress;
    EFI_IPv4_ADDRESS LocalAddress;
    EFI_IPv4_ADDRESS LocalSubnet;
    UINT16 LocalPort;
} CHASE_HTTPv4_ACCESS_POINT;

typedef struct {
    CHASE_HTTP_VERSION HttpVersion;
    UINT32 TimeOutMillisec;
    BOOLEAN LocalAddressIsIPv6;
    union {
        CHASE_HTTPv4_ACCESS_POINT *IPv4Node;
        void *IPv6Node;
    } AccessPoint;
} CHASE_HTTP_CONFIG_DATA;

typedef struct {
    CHASE_HTTP_METHOD Method;
    CHAR16 *Url;
} CHASE_HTTP_REQUEST_DATA;

/* EFI_HTTP_STATUS_CODE is an enumeration, not the number: efi_http.c maps it. */
typedef struct {
    UINT32 StatusCode;
} CHASE_HTTP_RESPONSE_DATA;

typedef struct {
    CHAR8 *FieldName;
    CHAR8 *FieldValue;
} CHASE_HTTP_HEADER;

typedef struct {
    union {
        CHASE_HTTP_REQUEST_DATA *Request;
        CHASE_HTTP_RESPONSE_DATA *Response;
    } Data;
    UINTN HeaderCount;
    CHASE_HTTP_HEADER *Headers;
    UINTN BodyLength;
    void *Body;
} CHASE_HTTP_MESSAGE;

typedef struct {
    EFI_EVENT Event;
    EFI_STATUS Status;
    CHASE_HTTP_MESSAGE *Message;
} CHASE_HTTP_TOKEN;

typedef struct _CHASE_HTTP {
    EFI_STATUS (*GetModeData)(struct _CHASE_HTTP *This, CHASE_HTTP_CONFIG_DATA *Data);
    EFI_STATUS (*Configure)(struct _CHASE_HTTP *This, CHASE_HTTP_CONFIG_DATA *Data);
    EFI_STATUS (*Request)(struct _CHASE_HTTP *This, CHASE_HTTP_TOKEN *Token);
    EFI_STATUS (*Cancel)(struct _CHASE_HTTP *This, CHASE_HTTP_TOKEN *Token);
    EFI_STATUS (*Response)(struct _CHASE_HTTP *This, CHASE_HTTP_TOKEN *Token);
    EFI_STATUS (*Poll)(struct _CHASE_HTTP *This);
} CHASE_HTTP;

/* ---- 28.5: EFI_IP4_CONFIG2_PROTOCOL -----------------------------------------------------------
 */
#define CHASE_IP4_CONFIG2_GUID                                                                     \
    {                                                                                              \
        0x5b446ed1, 0xe30b, 0x4faa,                                                                \
        {                                                                                          \
            0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80                                         \
        }                                                                                          \
    }

typedef enum {
    ChaseIp4Config2InterfaceInfo,
    ChaseIp4Config2Policy,
} CHASE_IP4_CONFIG2_DATA_TYPE;

typedef enum { ChaseIp4Config2PolicyStatic, ChaseIp4Config2PolicyDhcp } CHASE_IP4_CONFIG2_POLICY;

typedef struct {
    CHAR16 Name[32];
    UINT8 IfType;
    UINT32 HwAddressSize;
    EFI_MAC_ADDRESS HwAddress;
    EFI_IPv4_ADDRESS StationAddress;
    EFI_IPv4_ADDRESS SubnetMask;
    UINT32 RouteTableSize;
    void *RouteTable;
} CHASE_IP4_CONFIG2_INTERFACE_INFO;

typedef struct _CHASE_IP4_CONFIG2 {
    EFI_STATUS(*SetData)
    (struct _CHASE_IP4_CONFIG2 *This, CHASE_IP4_CONFIG2_DATA_TYPE Type, UINTN Size, void *Data);
    EFI_STATUS(*GetData)
    (struct _CHASE_IP4_CONFIG2 *This, CHASE_IP4_CONFIG2_DATA_TYPE Type, UINTN *Size, void *Data);
    void *RegisterDataNotify;
    void *UnregisterDataNotify;
} CHASE_IP4_CONFIG2;

/* ---- 10.3.4: the messaging device path nodes chase reads --------------------------------------
 */
#define CHASE_DP_MSG_MAC 0x0b /* MAC_ADDR_DEVICE_PATH: 32 address bytes, then IfType */
#define CHASE_DP_MSG_URI 0x18 /* URI_DEVICE_PATH: the URI's bytes, not NUL-terminated */

/* ---- chase's own ------------------------------------------------------------------------------
 */
#define EFI_HTTP_TIMEOUT_MS 10000      /* a request's connect and its answer: a LAN answers in ms */
#define EFI_NET_DHCP_WAIT_S 20         /* DHCP through IPv4 configuration: a few round trips */
#define EFI_NET_URL_MAX 512            /* results URL, machine, run id and file name */
#define EFI_NET_CONFIG_MAX (64u << 10) /* a configuration file from the network at most */

/*
 * How chase came (fleet->boot "pxe", "http" or "disk") and the boot NIC's MAC; for an HTTP
 * boot the URI it was loaded from in uri (capacity uri_cap, "" otherwise).
 */
void efi_netboot_detect(EFI_HANDLE image, struct run_fleet *fleet, char *uri, size_t uri_cap);
/*
 * Read the configuration from the server chase came from, in PXELINUX's order (chase/<uuid>.cfg,
 * chase/01-<mac>.cfg, chase/default.cfg), saying which was used or that none was found. The
 * text from plat_alloc (NUL-terminated, length *len) or NULL; fleet->config_from names it.
 */
char *efi_netboot_config(EFI_HANDLE image, const char *uuid, struct run_fleet *fleet,
                         const char *uri, UINTN *len);

/*
 * One HTTP request (GET or PUT) of url through EFI_HTTP_PROTOCOL on a NIC (the boot NIC near
 * image when it has one), configuring IPv4 by DHCP first when the interface has no address.
 * PUT sends body (len bytes) with the headers (Host, Content-Length, Authorization: Bearer
 * token when token is not ""). GET fills out (capacity out_cap, *out_len). Returns the HTTP
 * status (200 ...), or 0 with the reason in why when no answer came.
 */
unsigned efi_http_request(EFI_HANDLE image, CHASE_HTTP_METHOD method, const char *url,
                          const char *token, const void *body, size_t len, char *out,
                          size_t out_cap, size_t *out_len, char *why, size_t why_cap);
/* Whether the firmware has TLS for https (EFI_TLS_SERVICE_BINDING_PROTOCOL somewhere). */
BOOLEAN efi_http_has_tls(void);

/* The run folder in memory, every file plat_file_write wrote (the latest version): its files
   into *files (an array owned by efi_runfiles.c); returns how many. */
unsigned efi_runfiles(const struct ship_file **files);
/* Give the in-memory run folder back. */
void efi_runfiles_release(void);
/* Keep name's latest version in memory; false when out of memory (the disk copy stands). */
BOOLEAN efi_runfiles_put(const char *name, const void *data, size_t len);

/*
 * Write every in-memory file to a new \chase\runs\NNNN on a writable volume other than the
 * boot volume's folder: TRUE with the place ("fs1:\chase\runs\0001"-like) in where.
 */
BOOLEAN efi_files_fallback(const struct ship_file *files, unsigned n, char *where, size_t cap);
/* Whether this run has a folder on the boot volume (its files are there). */
BOOLEAN efi_files_have_folder(void);

/* After the run: send the run folder where the results key says, or say where it is instead. */
void efi_ship_run(EFI_HANDLE image, struct run_fleet *fleet);

#endif
