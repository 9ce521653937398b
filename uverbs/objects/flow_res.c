// SPDX-License-Identifier: GPL-2.0
/*
 * The objects a steering flow uses (flow actions, counters), for drivers
 * that create flows: what <rdma/uverbs_std_types.h> calls a flow's
 * resources.  Each one added holds a usecnt on its object until the set
 * is freed with the flow.  The flow's owner serialises all calls on one
 * set; there is no lock.
 */
#include "abi/ib_uverbs/uverbs_cmd.h"

/**
 * flow_resources_alloc() - an empty set of resources for a flow
 * @num_specs: how many resources (flow specifications) it may hold
 *
 * Return: the set, or NULL when out of memory.
 */
struct ib_uflow_resources *flow_resources_alloc(size_t num_specs)
{
	struct ib_uflow_resources *res = kzalloc(sizeof(*res), GFP_KERNEL);

	if (!res || !num_specs)
		goto out;
	res->collection = kcalloc(num_specs, sizeof(*res->collection),
				  GFP_KERNEL);
	res->counters = kcalloc(num_specs, sizeof(*res->counters),
				GFP_KERNEL);
	if (!res->collection || !res->counters) {
		kfree(res->collection);
		kfree(res->counters);
		kfree(res);
		return NULL;
	}
out:
	if (res)
		res->max = num_specs;
	return res;
}
EXPORT_SYMBOL(flow_resources_alloc);

/**
 * flow_resources_add() - a flow uses another object
 * @uflow_res: the flow's set, from flow_resources_alloc()
 * @type: IB_FLOW_SPEC_ACTION_HANDLE (@ibobj is a struct ib_flow_action)
 *	or IB_FLOW_SPEC_ACTION_COUNT (a struct ib_counters)
 * @ibobj: the object; its usecnt is taken
 *
 * An object of another type, or one more than the set was allocated
 * for, is not added (and logged).
 */
void flow_resources_add(struct ib_uflow_resources *uflow_res,
			enum ib_flow_spec_type type, void *ibobj)
{
	if (uflow_res->num >= uflow_res->max) {
		pr_err_ratelimited("ib_uverbs: flow resource set full (%zu)\n",
				   uflow_res->max);
		return;
	}
	if (type == IB_FLOW_SPEC_ACTION_HANDLE) {
		struct ib_flow_action *action = ibobj;

		atomic_inc(&action->usecnt);
		uflow_res->collection[uflow_res->collection_num++] = action;
	} else if (type == IB_FLOW_SPEC_ACTION_COUNT) {
		struct ib_counters *counters = ibobj;

		atomic_inc(&counters->usecnt);
		uflow_res->counters[uflow_res->counters_num++] = counters;
	} else {
		pr_err_ratelimited("ib_uverbs: flow resource of type %#x\n",
				   type);
		return;
	}
	uflow_res->num++;
}
EXPORT_SYMBOL(flow_resources_add);

/**
 * ib_uverbs_flow_resources_free() - free a flow's set of resources
 * @uflow_res: the set, or NULL
 *
 * The objects in it are no longer used by the flow.
 */
void ib_uverbs_flow_resources_free(struct ib_uflow_resources *uflow_res)
{
	struct ib_uflow_resources *res = uflow_res;

	if (!res)
		return;
	while (res->counters_num)
		atomic_dec(&res->counters[--res->counters_num]->usecnt);
	while (res->collection_num)
		atomic_dec(&res->collection[--res->collection_num]->usecnt);
	kfree(res->counters);
	kfree(res->collection);
	kfree(res);
}
EXPORT_SYMBOL(ib_uverbs_flow_resources_free);
