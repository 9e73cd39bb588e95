// SPDX-License-Identifier: MIT
// run.json's "memory_nodes": the memory nodes, their ranges and processors, and SLIT's distances;
// and "hmat": the firmware's advertised latency and bandwidth per pair, its memory-side caches.
#include "lib/json.h"
#include "machine/hmat.h"
#include "machine/numa_table.h"
#include "platform.h"
#include "run/results.h"

static void node_json(struct json *j, const struct plat_numa *t, unsigned i)
{
    const struct plat_node *nd = &t->node[i];
    json_object_begin(j, NULL);
    json_u64(j, "node", i);
    json_u64(j, "domain", nd->domain);
    json_u64(j, "mem_bytes", nd->mem_bytes);
    json_u64(j, "free_bytes", nd->free_bytes);
    json_u64(j, "special_bytes", nd->special_bytes);
    json_bool(j, "cpu_less", !numa_node_has_cpu(t, i));
    json_array_begin(j, "ranges");
    for (unsigned k = 0; k < nd->nranges; k++) {
        json_object_begin(j, NULL);
        json_u64(j, "base", nd->range[k].base);
        json_u64(j, "size_bytes", nd->range[k].size_bytes);
        json_bool(j, "hotplug", nd->range[k].hotplug);
        json_bool(j, "nonvolatile", nd->range[k].nonvolatile);
        json_object_end(j);
    }
    json_array_end(j);
    json_array_begin(j, "apic_ids");
    for (unsigned k = 0; k < nd->ncpus; k++)
        json_u64(j, NULL, nd->apic_id[k]);
    json_array_end(j);
    json_array_begin(j, "processors"); /* plat ids; lost or unknown ones are left out */
    for (unsigned k = 0; k < nd->ncpus; k++)
        if (nd->cpu[k] >= 0)
            json_u64(j, NULL, (uint64_t)nd->cpu[k]);
    json_array_end(j);
    /* the node whose processor numa chases this node's memory from when it has none: by SLIT */
    int near = node_nearest_cpu_node(t, i);
    if (near >= 0)
        json_u64(j, "nearest_processor_node", (uint64_t)near);
    else
        json_string(j, "nearest_processor_node", NULL);
    json_object_end(j);
}

#define PS_PER_NS 1000.0

/* One pair: each of the six figures (latency in ns, bandwidth in MB/s), null when not given. */
static void pair_json(struct json *j, const struct hmat_pair *p)
{
    json_object_begin(j, NULL);
    json_u64(j, "initiator", p->initiator);
    json_u64(j, "target", p->target);
    json_u64(j, "hierarchy", p->hierarchy); /* 0: memory, 1..3: memory-side cache level */
    for (unsigned d = 0; d < HMAT_DATA_TYPES; d++) {
        static const char *const names[HMAT_DATA_TYPES] = {
            "access_latency_ns",    "read_latency_ns",    "write_latency_ns",
            "access_bandwidth_mbs", "read_bandwidth_mbs", "write_bandwidth_mbs"};
        if (!(p->have & 1u << d))
            json_string(j, names[d], NULL);
        else if (d <= HMAT_WRITE_LATENCY)
            json_double(j, names[d], (double)p->value[d] / PS_PER_NS, 3);
        else
            json_u64(j, names[d], p->value[d]);
    }
    json_object_end(j);
}

static void cache_json(struct json *j, const struct hmat_cache *c)
{
    json_object_begin(j, NULL);
    json_u64(j, "mem_domain", c->mem_domain);
    json_u64(j, "size_bytes", c->size_bytes);
    json_u64(j, "level", c->level);
    json_u64(j, "total_levels", c->total_levels);
    json_string(j, "associativity", hmat_cache_associativity(c->associativity));
    json_string(j, "write_policy", hmat_cache_policy(c->write_policy));
    json_u64(j, "line_bytes", c->line_bytes);
    json_u64(j, "address_mode", c->address_mode); /* ACPI 6.5: 1 extended-linear */
    json_u64(j, "smbios_handles", c->smbios_handles);
    json_object_end(j);
}

/* run.json's "hmat": present false with the reason when the firmware has none. */
static void hmat_json(struct json *j)
{
    char why[200] = "";
    const struct hmat *h = plat_hmat(why, sizeof(why));
    json_object_begin(j, "hmat");
    json_bool(j, "present", h != NULL);
    json_string(j, "note", h ? NULL : why);
    if (h) {
        json_u64(j, "revision", h->revision);
        json_bool(j, "units_known", h->units_known); /* false: revision 1, figures as given */
        json_array_begin(j, "domains");
        for (unsigned i = 0; i < h->ndomains; i++) {
            json_object_begin(j, NULL);
            json_u64(j, "mem_domain", h->domain[i].mem_domain);
            if (h->domain[i].initiator_valid)
                json_u64(j, "attached_initiator", h->domain[i].initiator);
            else
                json_string(j, "attached_initiator", NULL);
            json_object_end(j);
        }
        json_array_end(j);
        json_array_begin(j, "pairs");
        for (unsigned i = 0; i < h->npairs; i++)
            pair_json(j, &h->pair[i]);
        json_array_end(j);
        json_array_begin(j, "memory_side_caches");
        for (unsigned i = 0; i < h->ncaches; i++)
            cache_json(j, &h->cache[i]);
        json_array_end(j);
        json_u64(j, "dropped", h->dropped);
        json_u64(j, "unknown_structures", h->unknown);
        json_bool(j, "figure_overflow", h->figure_overflow);
    }
    json_object_end(j);
}

void results_nodes_json(struct json *j)
{
    struct plat_numa t;
    char why[200] = "";
    unsigned n = plat_numa(&t, why, sizeof(why));
    json_object_begin(j, "memory_nodes");
    json_string(j, "source", n ? t.source : NULL);
    json_string(j, "note", n ? (t.note[0] ? t.note : NULL) : why);
    json_array_begin(j, "nodes");
    for (unsigned i = 0; i < n; i++)
        node_json(j, &t, i);
    json_array_end(j);
    json_bool(j, "slit", n && t.slit);
    json_array_begin(j, "distance"); /* [from node][to node], SLIT's; empty when unknown */
    for (unsigned i = 0; n && t.slit && i < n; i++) {
        json_array_begin(j, NULL);
        for (unsigned k = 0; k < n; k++)
            json_u64(j, NULL, plat_numa_distance(&t, i, k));
        json_array_end(j);
    }
    json_array_end(j);
    json_object_end(j);
    if (n)
        node_table_free(&t);
    hmat_json(j);
}
