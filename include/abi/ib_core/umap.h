/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of one user mapping of a uverbs file, private to the target's
 * core (core_priv.h) and shared by ib_core's mmap helpers
 * (rdma_umap_priv_init() takes it) and ib_uverbs' mapping code, which
 * zaps the mappings of a disassociated file.  Its members are fixed by
 * the CRC of rdma_umap_priv_init() (Documentation/abi.rst).
 */
#ifndef OOT_ABI_IB_CORE_UMAP_H
#define OOT_ABI_IB_CORE_UMAP_H

#include <linux/list.h>

struct vm_area_struct;
struct rdma_user_mmap_entry;

/**
 * struct rdma_umap_priv - a VMA of a uverbs file
 * @vma: the mapping (its vm_private_data points back here)
 * @list: in the file's umaps, under its umap_lock
 * @entry: the mmap entry it maps, holding a reference, or NULL
 */
struct rdma_umap_priv {
	struct vm_area_struct *vma;
	struct list_head list;
	struct rdma_user_mmap_entry *entry;
};

/* ib_core's export that takes it (core/umap/io.c), for ib_uverbs. */
void rdma_umap_priv_init(struct rdma_umap_priv *priv,
			 struct vm_area_struct *vma,
			 struct rdma_user_mmap_entry *entry);

#endif
