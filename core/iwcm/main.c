// SPDX-License-Identifier: GPL-2.0
/*
 * iw_cm module entry: the work queue events are delivered from, and the
 * sysctl net/iw_cm/default_backlog (the backlog of a listen with backlog 0).
 */
#include "abi/iw_cm/iwcm.h"
#include <net/net_namespace.h>
#include "internal.h"
#include "rdma_version.h"

/* Delivers every identifier's events; created at load, no lock. */
struct workqueue_struct *iwcm_wq;

/* The backlog of iw_cm_listen(id, 0); the sysctl writes it, 1 or more. */
static int iwcm_backlog = 256;

static struct ctl_table iwcm_sysctl[] = {
	{
		.procname	= "default_backlog",
		.data		= &iwcm_backlog,
		.maxlen		= sizeof(iwcm_backlog),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= SYSCTL_INT_MAX,
	},
	{ }
};

static struct ctl_table_header *iwcm_sysctl_hdr;

int iwcm_default_backlog(void)
{
	return READ_ONCE(iwcm_backlog);
}

static int __init iwcm_init(void)
{
	/* Consumers' handlers may allocate for block I/O (NVMe over iWARP) */
	iwcm_wq = alloc_workqueue("iw_cm_wq", WQ_MEM_RECLAIM, 0);
	if (!iwcm_wq)
		return -ENOMEM;
	iwcm_sysctl_hdr = register_net_sysctl(&init_net, "net/iw_cm",
					      iwcm_sysctl);
	if (!iwcm_sysctl_hdr) {
		destroy_workqueue(iwcm_wq);
		return -ENOMEM;
	}
	return 0;
}

static void __exit iwcm_exit(void)
{
	unregister_net_sysctl_table(iwcm_sysctl_hdr);
	destroy_workqueue(iwcm_wq);
}

module_init(iwcm_init);
module_exit(iwcm_exit);

MODULE_DESCRIPTION("iWARP connection manager");
MODULE_LICENSE("GPL");
MODULE_VERSION(RDMA_VERSION_STRING);
