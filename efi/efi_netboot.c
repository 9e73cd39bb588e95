// SPDX-License-Identifier: MIT
// A network boot: how chase came (PXE's TFTP or an HTTP boot's URI, from the loaded image's
// device), the boot NIC's MAC, and the configuration read back from that server in PXELINUX's
// order (chase/<uuid>.cfg, chase/01-<mac>.cfg, chase/default.cfg).
#include "efi_net.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define DP_MAC_IFTYPE_ETHERNET 1 /* MAC_ADDR_DEVICE_PATH.IfType: an Ethernet MAC (6 bytes) */
#define DP_HEADER_BYTES 4        /* Type, SubType, Length[2] */
#define CONFIG_TRIES 3           /* the names PXELINUX tries, by UUID, by MAC, then default */

static EFI_DEVICE_PATH *image_device_path(EFI_HANDLE image, EFI_HANDLE *device)
{
    EFI_LOADED_IMAGE *li = NULL;
    if (uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&li) !=
        EFI_SUCCESS)
        return NULL;
    *device = li->DeviceHandle;
    return DevicePathFromHandle(li->DeviceHandle);
}

/* The MAC and URI nodes of a device path. */
static void scan_path(EFI_DEVICE_PATH *dp, struct run_fleet *fleet, char *uri, size_t uri_cap)
{
    for (; dp && !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp)) {
        unsigned len = DevicePathNodeLength(dp);
        const UINT8 *body = (const UINT8 *)dp + DP_HEADER_BYTES;
        if (len < DP_HEADER_BYTES)
            break; /* malformed: stop rather than loop */
        if (DevicePathType(dp) != MESSAGING_DEVICE_PATH)
            continue;
        if (DevicePathSubType(dp) == CHASE_DP_MSG_MAC && len >= DP_HEADER_BYTES + 33 &&
            body[32] == DP_MAC_IFTYPE_ETHERNET) {
            kmemcpy(fleet->mac, body, SHIP_MAC_BYTES);
            fleet->mac_known = true;
        }
        if (DevicePathSubType(dp) == CHASE_DP_MSG_URI && len > DP_HEADER_BYTES) {
            size_t n = len - DP_HEADER_BYTES < uri_cap - 1 ? len - DP_HEADER_BYTES : uri_cap - 1;
            kmemcpy(uri, body, n);
            uri[n] = 0;
        }
    }
}

/* The first NIC's MAC (Simple Network Protocol), for a machine booted from a disk. */
static void first_nic_mac(struct run_fleet *fleet)
{
    EFI_SIMPLE_NETWORK *snp = NULL;
    if (uefi_call_wrapper(BS->LocateProtocol, 3, &SimpleNetworkProtocol, NULL, (void **)&snp) !=
            EFI_SUCCESS ||
        !snp || !snp->Mode || snp->Mode->HwAddressSize < SHIP_MAC_BYTES)
        return;
    kmemcpy(fleet->mac, snp->Mode->CurrentAddress.Addr, SHIP_MAC_BYTES);
    fleet->mac_known = true;
}

void efi_netboot_detect(EFI_HANDLE image, struct run_fleet *fleet, char *uri, size_t uri_cap)
{
    EFI_HANDLE device = NULL;
    EFI_DEVICE_PATH *dp = image_device_path(image, &device);
    void *pxe = NULL;
    uri[0] = 0;
    fleet->boot = "disk";
    scan_path(dp, fleet, uri, uri_cap);
    if (uri[0])
        fleet->boot = "http";
    else if (device && uefi_call_wrapper(BS->HandleProtocol, 3, device, &PxeBaseCodeProtocol,
                                         &pxe) == EFI_SUCCESS)
        fleet->boot = "pxe";
    if (!fleet->mac_known)
        first_nic_mac(fleet);
}

/* The TFTP server PXE loaded chase from: the PXE reply's, the proxy offer's, else DHCP's. */
static void pxe_server(const EFI_PXE_BASE_CODE_MODE *mode, EFI_IP_ADDRESS *ip)
{
    const EFI_PXE_BASE_CODE_PACKET *p = &mode->DhcpAck;
    if (mode->PxeReplyReceived)
        p = &mode->PxeReply;
    else if (mode->ProxyOfferReceived)
        p = &mode->ProxyOffer;
    kmemset(ip, 0, sizeof(*ip));
    kmemcpy(ip->v4.Addr, p->Dhcpv4.BootpSiAddr, 4);
}

/* Read name over TFTP into a new buffer; NULL (and *len 0) when it is not there. */
static char *tftp_read(EFI_PXE_BASE_CODE *pxe, const EFI_IP_ADDRESS *server, const char *name,
                       UINTN *len)
{
    UINT64 size = EFI_NET_CONFIG_MAX - 1;
    char *buf = plat_alloc(EFI_NET_CONFIG_MAX);
    *len = 0;
    if (!buf)
        return NULL;
    EFI_STATUS st =
        uefi_call_wrapper(pxe->Mtftp, 10, pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, FALSE, &size,
                          NULL, (EFI_IP_ADDRESS *)server, (UINT8 *)name, NULL, FALSE);
    if (st != EFI_SUCCESS || size >= EFI_NET_CONFIG_MAX) {
        plat_free(buf);
        return NULL;
    }
    buf[size] = 0;
    *len = (UINTN)size;
    return buf;
}

/* The names to try, in PXELINUX's order (a name left "" is skipped). */
static void config_names(char names[CONFIG_TRIES][80], const char *uuid,
                         const struct run_fleet *fleet)
{
    const UINT8 *m = fleet->mac;
    names[0][0] = names[1][0] = 0;
    if (uuid && uuid[0])
        ksnprintf(names[0], 80, "chase/%s.cfg", uuid);
    if (fleet->mac_known)
        ksnprintf(names[1], 80, "chase/01-%02x-%02x-%02x-%02x-%02x-%02x.cfg", m[0], m[1], m[2],
                  m[3], m[4], m[5]);
    kstrlcpy(names[2], "chase/default.cfg", 80);
}

/* The base an HTTP boot's URI gives: everything up to its last '/'. */
static void uri_base(const char *uri, char *base, size_t cap)
{
    size_t cut = 0;
    for (size_t i = 0; uri[i]; i++)
        if (uri[i] == '/')
            cut = i + 1;
    cut = cut < cap ? cut : cap - 1;
    kmemcpy(base, uri, cut);
    base[cut] = 0;
}

/* One name from the server: over HTTP for an HTTP boot, else by PXE's TFTP. */
static char *fetch(EFI_HANDLE image, EFI_PXE_BASE_CODE *pxe, const EFI_IP_ADDRESS *server,
                   const char *base, const char *name, UINTN *len, char *from, size_t from_cap)
{
    if (!pxe) {
        char url[EFI_NET_URL_MAX], why[160];
        size_t got = 0;
        char *buf = plat_alloc(EFI_NET_CONFIG_MAX);
        ksnprintf(url, sizeof(url), "%s%s", base, name);
        ksnprintf(from, from_cap, "%s", url);
        unsigned code = buf ? efi_http_request(image, ChaseHttpGet, url, "", NULL, 0, buf,
                                               EFI_NET_CONFIG_MAX - 1, &got, why, sizeof(why))
                            : 0;
        if (code != 200) {
            plat_free(buf);
            return NULL;
        }
        buf[got] = 0;
        *len = got;
        return buf;
    }
    const UINT8 *a = server->v4.Addr;
    ksnprintf(from, from_cap, "tftp://%u.%u.%u.%u/%s", a[0], a[1], a[2], a[3], name);
    return tftp_read(pxe, server, name, len);
}

char *efi_netboot_config(EFI_HANDLE image, const char *uuid, struct run_fleet *fleet,
                         const char *uri, UINTN *len)
{
    EFI_HANDLE device = NULL;
    EFI_PXE_BASE_CODE *pxe = NULL;
    EFI_IP_ADDRESS server;
    char names[CONFIG_TRIES][80], base[EFI_NET_URL_MAX], from[EFI_NET_URL_MAX], tried[400] = "";
    *len = 0;
    image_device_path(image, &device);
    if (kstrcmp(fleet->boot, "pxe") == 0) {
        uefi_call_wrapper(BS->HandleProtocol, 3, device, &PxeBaseCodeProtocol, (void **)&pxe);
        if (!pxe || !pxe->Mode)
            return NULL;
        pxe_server(pxe->Mode, &server);
    }
    uri_base(uri, base, sizeof(base));
    config_names(names, uuid, fleet);
    for (unsigned i = 0; i < CONFIG_TRIES; i++) {
        if (!names[i][0])
            continue;
        char *text = fetch(image, pxe, &server, base, names[i], len, from, sizeof(from));
        if (text) {
            kstrlcpy(fleet->config_from, from, sizeof(fleet->config_from));
            con_printf("chase: network boot (%s): configuration %s\n", fleet->boot, from);
            return text;
        }
        size_t t = kstrlen(tried);
        ksnprintf(tried + t, sizeof(tried) - t, "%s%s", t ? ", " : "", from);
    }
    con_printf("chase: network boot (%s): no configuration file found (tried %s): defaults\n",
               fleet->boot, tried);
    return NULL;
}
