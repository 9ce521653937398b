/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test driver's uverbs definitions (tobj.c), declared the way a driver
 * declares its own through ops.driver_def: IDR objects with create, use,
 * change, adopt and destroy methods, an FD object, a method with every
 * kind of attribute, a write() command of each framing, and what the
 * method-tree suite merges and disables.
 *
 * Every handler and destroy records what it saw in tobj_log, which the
 * cases read; one case runs at a time.
 */
#ifndef RDMA_KUNIT_TOBJ_H
#define RDMA_KUNIT_TOBJ_H

#include <linux/completion.h>
#include <rdma/uverbs_ioctl.h>
#include "uvk.h"

#define TOBJ_NS		(1U << UVERBS_ID_NS_SHIFT)

enum {
	TOBJ_OBJ = TOBJ_NS,	/* IDR */
	TOBJ_OBJ2,		/* another IDR type */
	TOBJ_FD,		/* FD */
	TOBJ_DISABLED,		/* IDR, UAPI_DEF_IS_OBJ_SUPPORTED false */
	TOBJ_NEEDS_FN,		/* IDR, needs ops.alloc_xrcd */
};

/* Method ids, per object (a driver has 8 per object). */
enum {
	TOBJ_M_CREATE = TOBJ_NS,	/* of TOBJ_OBJ */
	TOBJ_M_USE,
	TOBJ_M_SET,
	TOBJ_M_ADOPT,
	TOBJ_M_DESTROY,
};

enum {
	TOBJ_M_CREATE2 = TOBJ_NS,	/* of TOBJ_OBJ2 */
};

enum {
	TOBJ_M_FD_CREATE = TOBJ_NS,	/* of TOBJ_FD */
	TOBJ_M_FD_USE,
};

enum {
	TOBJ_M_ATTRS = TOBJ_NS,		/* of UVERBS_OBJECT_DEVICE */
	TOBJ_M_NEEDS_DISABLED,		/* needs a TOBJ_DISABLED handle */
};

enum {
	TOBJ_M_DISABLED = TOBJ_NS,	/* of TOBJ_DISABLED */
};

enum {
	TOBJ_M_NEEDS_FN = TOBJ_NS,	/* of TOBJ_NEEDS_FN */
};

/* Driver attribute ids start after UVERBS_ATTR_UHW_IN and _OUT. */
#define TOBJ_NS_ATTR	(TOBJ_NS + 2)

enum {
	TOBJ_A_HANDLE = TOBJ_NS_ATTR,
	TOBJ_A_VALUE,		/* const u64 */
	TOBJ_A_PARENT,		/* IDR READ */
	TOBJ_A_FAIL,		/* const: TOBJ_FAIL_* */
	TOBJ_A_WAIT,		/* const: block in the handler (tobj_gate) */
	TOBJ_A_OUT,		/* PTR_OUT u64 */
};

/* What a create does wrong, on request. */
enum {
	TOBJ_FAIL_NONE,
	TOBJ_FAIL_BEFORE_HW,	/* fail before the object exists */
	TOBJ_FAIL_AFTER_HW,	/* uverbs_finalize_uobj_create(), then fail */
	TOBJ_FAIL_PROTO,	/* return -EPROTONOSUPPORT */
};

/* TOBJ_M_ATTRS: one attribute of each kind. */
enum {
	TOBJ_A_IN_STRUCT = TOBJ_NS_ATTR,	/* PTR_IN struct tobj_in, zero_trailing */
	TOBJ_A_IN_COPY,		/* PTR_IN 16..64 bytes, alloc_and_copy */
	TOBJ_A_IN_U32,		/* PTR_IN exactly 4 bytes */
	TOBJ_A_OUT8,		/* PTR_OUT at least 8 bytes */
	TOBJ_A_ENUM,		/* ENUM_IN of tobj_enum_specs */
	TOBJ_A_RAW_FD,		/* RAW_FD */
	TOBJ_A_IDRS,		/* IDRS_ARRAY of 1 to 4 TOBJ_OBJ, READ */
	TOBJ_A_FLAGS,		/* FLAGS_IN: bits 0, 1 known (32), and 40 (64) */
	TOBJ_A_CONST16,		/* CONST_IN of a u16 */
	TOBJ_A_MAND,		/* PTR_IN u32, mandatory */
	TOBJ_A_RET,		/* const: what the handler returns */
};

/**
 * struct tobj_in - the structure of TOBJ_A_IN_STRUCT (b is its last
 *	member the kernel needs; c is optional)
 * @a: anything
 * @b: anything
 * @c: anything
 */
struct tobj_in {
	u64 a;
	u64 b;
	u64 c;
};

/* What TOBJ_M_ATTRS knows of TOBJ_A_FLAGS, read as 32 and as 64 bits. */
#define TOBJ_FLAGS32_KNOWN	0x3ULL
#define TOBJ_FLAGS64_KNOWN	(TOBJ_FLAGS32_KNOWN | BIT_ULL(40))
/* What the flags read as before the handler reads them. */
#define TOBJ_FLAGS_UNREAD	0x5a5a5a5aU

/* The driver attribute added to GET_CONTEXT. */
#define TOBJ_A_GET_CONTEXT_DRV	TOBJ_NS_ATTR

/* write() commands of the test driver. */
#define TOBJ_CMD		50	/* legacy, udata in and out */
#define TOBJ_CMD_EX		50	/* extended */

/**
 * struct tobj_cmd - the request of TOBJ_CMD
 * @response: the response's user address
 * @x: anything
 * @driver_data: the driver's part
 */
struct tobj_cmd {
	__aligned_u64 response;
	__aligned_u64 x;
	__aligned_u64 driver_data[];
};

/**
 * struct tobj_cmd_resp - the response of TOBJ_CMD
 * @y: x + 1
 * @driver_data: the driver's part
 */
struct tobj_cmd_resp {
	__aligned_u64 y;
	__aligned_u64 driver_data[];
};

/**
 * struct tobj_cmd_ex - the request of TOBJ_CMD_EX
 * @x: anything
 * @x2: optional (the last member it must have is @x)
 */
struct tobj_cmd_ex {
	__aligned_u64 x;
	__aligned_u64 x2;
};

/**
 * struct tobj_cmd_ex_resp - the response of TOBJ_CMD_EX
 * @y: x + 1
 * @len: the response_length: what the caller gets of this
 */
struct tobj_cmd_ex_resp {
	__aligned_u64 y;
	__u32 len;
	__u32 reserved;
};

#define TOBJ_MAX_LOG	32

/**
 * struct tobj_destroy_rec - one call of a destroy_object
 * @value: the object's value
 * @why: the reason
 * @ret: what it returned
 */
struct tobj_destroy_rec {
	u64 value;
	enum rdma_remove_reason why;
	int ret;
};

/**
 * struct tobj_log - what the handlers saw
 * @destroys: destroy_object calls, in order
 * @ndestroys: their number
 * @fd_destroys: FD destroy_object calls
 * @fd_why: the reason of the last one
 * @attrs: TOBJ_M_ATTRS's record (filled by its handler)
 * @write_ucore: TOBJ_CMD/TOBJ_CMD_EX: ucore in and out lengths
 * @write_udata: their driver_udata in and out lengths
 * @write_udata_in: the first 8 bytes of driver data in, if any
 * @stuck: an object whose destroy always refuses, freed by the case
 */
struct tobj_log {
	struct tobj_destroy_rec destroys[TOBJ_MAX_LOG];
	int ndestroys;
	int fd_destroys;
	enum rdma_remove_reason fd_why;
	struct {
		int calls;
		u16 struct_len;
		struct tobj_in in;
		u8 copy[64];
		u16 copy_len;
		u32 u32_val;
		int enum_id;
		u64 enum_val;
		int raw_fd;
		int nidrs;
		u64 idr_values[4];
		int flags_ret;
		u32 flags;
		int flags64_ret;
		u64 flags64;
		int const_ret;
		u16 const_val;
		bool pool_zeroed;
		bool big_zeroed;
		size_t uhw_in, uhw_out;
		u64 uhw_in_val;
	} attrs;
	size_t write_ucore[2];
	size_t write_udata[2];
	u64 write_udata_in;
	void *stuck;
};

/**
 * struct tobj_gate - where a handler given TOBJ_A_WAIT blocks
 * @entered: completed when a handler reaches it
 * @release: the handler goes on once this is completed
 */
struct tobj_gate {
	struct completion entered;
	struct completion release;
};

/* A value that makes an object's destroy refuse forever. */
#define TOBJ_VALUE_STUCK	0x57c4ULL
/* A value whose destroy blocks at tobj_gate, then succeeds. */
#define TOBJ_VALUE_GATE		0x6a7eULL

extern struct tobj_log tobj_log;
extern struct tobj_gate tobj_gate;
extern const struct uapi_definition tobj_driver_def[];

void tobj_reset(void);

/* Requests of the test objects (tobj.c), 0 or a negative errno. */
long tobj_create(struct uvk *u, struct file *f, u64 value, u32 *handle);
long tobj_create_child(struct uvk *u, struct file *f, u64 value, u32 parent,
		       u32 *handle);
long tobj_use(struct uvk *u, struct file *f, u32 handle, u64 *value);
long tobj_destroy(struct uvk *u, struct file *f, u32 handle);

#endif
