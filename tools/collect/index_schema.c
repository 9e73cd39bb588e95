// SPDX-License-Identifier: MIT
// fleet.sqlite's tables and the SQL that fills them from a run's run.json (?4) and
// chase-report --json (?5): SQLite's own JSON functions read the documents, so a field the
// firmware adds is stored (in identity) before any column names it.
#include "index_sql.h"

#include <stddef.h>

const char index_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS machines(machine TEXT PRIMARY KEY, run_id TEXT, start_time TEXT,"
    " vendor TEXT, product TEXT, serial TEXT, uuid TEXT, sku TEXT, family TEXT, asset_tag TEXT,"
    " board TEXT, firmware_vendor TEXT, firmware_version TEXT, firmware_date TEXT, cpu TEXT,"
    " cpu_vendor TEXT, cpu_family INTEGER, cpu_model INTEGER, cpu_stepping INTEGER,"
    " microcode TEXT, memory_summary TEXT, dimms INTEGER, memory_bytes INTEGER, mac TEXT,"
    " identity TEXT);"
    "CREATE TABLE IF NOT EXISTS runs(machine TEXT, run_id TEXT, path TEXT, start_time TEXT,"
    " end_time TEXT, status TEXT, platform TEXT, arch TEXT, simulated INTEGER, profile TEXT,"
    " experiments TEXT, firmware_version TEXT, microcode TEXT, memory_summary TEXT,"
    " dram_latency_ns REAL, dram_lower_bound INTEGER, dram_core_cycles REAL, levels INTEGER,"
    " report_error TEXT, boot TEXT, config_from TEXT, machine_from TEXT,"
    " PRIMARY KEY(machine, run_id));"
    "CREATE TABLE IF NOT EXISTS files(machine TEXT, run_id TEXT, name TEXT, size INTEGER,"
    " sha256 TEXT);"
    "CREATE TABLE IF NOT EXISTS dimms(machine TEXT, run_id TEXT, slot INTEGER, locator TEXT,"
    " bank TEXT, installed INTEGER, size_bytes INTEGER, type TEXT, speed_mts INTEGER,"
    " configured_speed_mts INTEGER, manufacturer TEXT, part_number TEXT, serial TEXT,"
    " asset_tag TEXT);"
    "CREATE TABLE IF NOT EXISTS levels(machine TEXT, run_id TEXT, level INTEGER, name TEXT,"
    " size_bytes INTEGER, latency_ns REAL, core_cycles REAL, kind TEXT, confidence REAL,"
    " cpuid_size_bytes INTEGER);"
    "CREATE TABLE IF NOT EXISTS verdicts(machine TEXT, run_id TEXT, experiment TEXT,"
    " status TEXT, verdict TEXT);"
    "CREATE TABLE IF NOT EXISTS verdict_items(machine TEXT, run_id TEXT, experiment TEXT,"
    " item TEXT, idx INTEGER, value REAL, unit TEXT);"
    "CREATE TABLE IF NOT EXISTS verdict_rows(machine TEXT, run_id TEXT, experiment TEXT,"
    " item TEXT, row INTEGER, col TEXT, value REAL, text TEXT);";

const char *const index_tables[] = {"machines", "runs",          "files",        "dimms", "levels",
                                    "verdicts", "verdict_items", "verdict_rows", NULL};

/* ?1 machine, ?2 run id, ?3 path, ?4 run.json, ?5 chase-report --json (or NULL), ?6 error. */
const char *const index_fill_sql[] = {
    "INSERT INTO runs VALUES(?1, ?2, ?3,"
    " json_extract(?4, '$.start_time'), json_extract(?4, '$.end_time'),"
    " json_extract(?4, '$.status'), json_extract(?4, '$.platform'),"
    " json_extract(?4, '$.arch'), json_extract(?4, '$.simulated'),"
    " json_extract(?4, '$.config.profile'),"
    " (SELECT group_concat(value, ',') FROM json_each(?4, '$.config.experiments')),"
    " json_extract(?4, '$.machine_identity.smbios.firmware.version'),"
    " json_extract(?4, '$.machine_identity.microcode.revision'),"
    " json_extract(?4, '$.machine_identity.smbios.memory_summary'),"
    " json_extract(?5, '$.dram_latency_ns'), json_extract(?5, '$.dram_lower_bound'),"
    " json_extract(?5, '$.dram_core_cycles'), json_array_length(?5, '$.levels'), ?6,"
    " json_extract(?4, '$.boot'), json_extract(?4, '$.config_from'),"
    " json_extract(?4, '$.machine_from'))",

    /* The machine's identity as its latest run (by start time, then run id) gives it; the
       serial, UUID, SKU and asset tag under the names run.json may give them. */
    "INSERT INTO machines VALUES(?1, ?2, json_extract(?4, '$.start_time'),"
    " json_extract(?4, '$.machine_identity.smbios.system.manufacturer'),"
    " json_extract(?4, '$.machine_identity.smbios.system.product'),"
    " coalesce(json_extract(?4, '$.machine_identity.smbios.system.serial_number'),"
    "  json_extract(?4, '$.machine_identity.smbios.system.serial')),"
    " json_extract(?4, '$.machine_identity.smbios.system.uuid'),"
    " coalesce(json_extract(?4, '$.machine_identity.smbios.system.sku'),"
    "  json_extract(?4, '$.machine_identity.smbios.system.sku_number')),"
    " json_extract(?4, '$.machine_identity.smbios.system.family'),"
    " json_extract(?4, '$.machine_identity.smbios.chassis.asset_tag'),"
    " json_extract(?4, '$.machine_identity.smbios.board.product'),"
    " json_extract(?4, '$.machine_identity.smbios.firmware.vendor'),"
    " json_extract(?4, '$.machine_identity.smbios.firmware.version'),"
    " json_extract(?4, '$.machine_identity.smbios.firmware.date'),"
    " json_extract(?4, '$.cpu.brand'), json_extract(?4, '$.cpu.vendor'),"
    " json_extract(?4, '$.cpu.family'), json_extract(?4, '$.cpu.model'),"
    " json_extract(?4, '$.cpu.stepping'),"
    " json_extract(?4, '$.machine_identity.microcode.revision'),"
    " json_extract(?4, '$.machine_identity.smbios.memory_summary'),"
    " json_extract(?4, '$.machine_identity.smbios.memory_installed'),"
    " json_extract(?4, '$.machine_identity.smbios.memory_bytes'),"
    " json_extract(?4, '$.boot_nic.mac'), json_extract(?4, '$.machine_identity'))"
    " ON CONFLICT(machine) DO UPDATE SET (run_id, start_time, vendor, product, serial, uuid,"
    " sku, family, asset_tag, board, firmware_vendor, firmware_version, firmware_date, cpu,"
    " cpu_vendor, cpu_family, cpu_model, cpu_stepping, microcode, memory_summary, dimms,"
    " memory_bytes, mac, identity) = (excluded.run_id, excluded.start_time, excluded.vendor,"
    " excluded.product, excluded.serial, excluded.uuid, excluded.sku, excluded.family,"
    " excluded.asset_tag, excluded.board, excluded.firmware_vendor, excluded.firmware_version,"
    " excluded.firmware_date, excluded.cpu, excluded.cpu_vendor, excluded.cpu_family,"
    " excluded.cpu_model, excluded.cpu_stepping, excluded.microcode, excluded.memory_summary,"
    " excluded.dimms, excluded.memory_bytes, excluded.mac, excluded.identity)"
    " WHERE coalesce(excluded.start_time, '') || excluded.run_id >="
    " coalesce(machines.start_time, '') || machines.run_id",

    "INSERT INTO dimms SELECT ?1, ?2, d.key, json_extract(d.value, '$.locator'),"
    " json_extract(d.value, '$.bank'), json_extract(d.value, '$.installed'),"
    " json_extract(d.value, '$.size_bytes'), json_extract(d.value, '$.type'),"
    " json_extract(d.value, '$.speed_mts'), json_extract(d.value, '$.configured_speed_mts'),"
    " json_extract(d.value, '$.manufacturer'), json_extract(d.value, '$.part_number'),"
    " coalesce(json_extract(d.value, '$.serial_number'), json_extract(d.value, '$.serial')),"
    " json_extract(d.value, '$.asset_tag')"
    " FROM json_each(?4, '$.machine_identity.smbios.memory_devices') d",

    "INSERT INTO levels SELECT ?1, ?2, l.key + 1, json_extract(l.value, '$.name'),"
    " json_extract(l.value, '$.size_bytes'), json_extract(l.value, '$.latency_ns'),"
    " json_extract(l.value, '$.core_cycles'), json_extract(l.value, '$.kind'),"
    " json_extract(l.value, '$.confidence'), json_extract(l.value, '$.cpuid_size_bytes')"
    " FROM json_each(?5, '$.levels') l",

    "INSERT INTO verdicts SELECT ?1, ?2, e.key, json_extract(?4, '$.experiments.' || e.key),"
    " json_extract(e.value, '$.verdict') FROM json_each(?5, '$.verdicts') e",

    /* A verdict is a list of typed items: every number (an array's elements by index), with
       its unit; the index never names an experiment or an item. */
    "INSERT INTO verdict_items SELECT ?1, ?2, e.key, i.key, NULL, i.value,"
    " (SELECT u.value FROM json_each(e.value, '$.units') u WHERE u.key = i.key)"
    " FROM json_each(?5, '$.verdicts') e, json_each(e.value) i"
    " WHERE i.type IN ('integer', 'real', 'null')",
    "INSERT INTO verdict_items SELECT ?1, ?2, e.key, i.key, a.key, a.value,"
    " (SELECT u.value FROM json_each(e.value, '$.units') u WHERE u.key = i.key)"
    " FROM json_each(?5, '$.verdicts') e, json_each(e.value) i, json_each(i.value) a"
    " WHERE i.type = 'array' AND a.type IN ('integer', 'real', 'null')",
    /* ... and every cell of a verdict's tables (an array of objects): number or text. */
    "INSERT INTO verdict_rows SELECT ?1, ?2, e.key, i.key, a.key, c.key,"
    " CASE WHEN c.type IN ('integer', 'real') THEN c.value END,"
    " CASE WHEN c.type = 'text' THEN c.value END"
    " FROM json_each(?5, '$.verdicts') e, json_each(e.value) i, json_each(i.value) a,"
    " json_each(a.value) c"
    " WHERE i.type = 'array' AND a.type = 'object' AND c.type IN ('integer', 'real', 'text',"
    " 'null')",
    NULL};
