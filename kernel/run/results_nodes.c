// SPDX-License-Identifier: MIT
// run.json's "memory_nodes": the memory nodes, their ranges and processors, and SLIT's distances.
#include "lib/json.h"
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
}
