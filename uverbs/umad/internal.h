/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ib_umad: MADs from userspace (<rdma/ib_user_mad.h>), what its files
 * share.
 *
 *   main.c   module entry: device numbers, the infiniband_mad class, the
 *            "umad" and "issm" clients
 *   port.c   per port with MADs: /dev/infiniband/umadN and issmN, their
 *            sysfs attributes, netlink's GET_CHARDEV, the port's end
 *   file.c   a umadN file: open, release, poll, the ioctls (agents, the
 *            P_Key index mode)
 *   recv.c   what an agent receives (and the sends that timed out),
 *            queued for read()
 *   send.c   write(): a struct ib_user_mad to send, its address, TID and
 *            RMPP segments; the end of a send
 *   issm.c   issmN: whoever holds it open is the port's subnet manager
 *            (IB_PORT_SM)
 *
 * Lock order (outermost first):
 *
 *   umad_port.files_lock   the port's device (NULL once it is going) and
 *                          its list of open files; held across agent
 *                          registration and unregistration
 *   umad_file.lock         the file's agents and P_Key mode
 *   umad_file.qlock        the file's receive queue, its outstanding
 *                          sends and @dead (spinlock)
 *
 * ib_unregister_mad_agent() waits for the agent's handlers, which take
 * umad_file.qlock: it is never called with umad_file.lock or qlock held.
 *
 * Lifetime: a port's two struct devices each hold a reference on the
 * umad_device that holds the port; an open file holds its cdev, and so
 * its struct device.  The RDMA device is only used while the port's
 * files_lock says it is still there (the client's remove() clears it,
 * marks every file dead and unregisters their agents).
 */
#ifndef OOT_UVERBS_UMAD_INTERNAL_H
#define OOT_UVERBS_UMAD_INTERNAL_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_user_mad.h>

#define UMAD_MAX_AGENTS		32
/* Received MADs a file keeps for read() before it drops new ones */
#define UMAD_MAX_QUEUED		200000

/**
 * struct umad_port - one port's umadN and issmN
 * @ibdev: the RDMA device; NULL once it is going (under @files_lock)
 * @port_num: the port
 * @devnum: N
 * @owner: the umad_device this port is part of
 * @dev: umadN
 * @cdev: its character device
 * @sm_dev: issmN
 * @sm_cdev: its character device
 * @sm_sem: held by the one opener of issmN
 * @files_lock: see "Lock order"; protects @ibdev and @files
 * @files: the open umadN files (struct umad_file.port_link)
 */
struct umad_port {
	struct ib_device *ibdev;
	u32 port_num;
	int devnum;
	struct umad_device *owner;
	struct device dev;
	struct cdev cdev;
	struct device sm_dev;
	struct cdev sm_cdev;
	struct semaphore sm_sem;
	struct mutex files_lock;
	struct list_head files;
};

/**
 * struct umad_device - the ports of an RDMA device, the umad client's data
 * @ref: one for the client, one per struct device of its ports
 * @first_port: the port of @ports[0]
 * @ports: per port; those without MADs unused (ibdev NULL)
 */
struct umad_device {
	struct kref ref;
	u32 first_port;
	struct umad_port ports[];
};

struct umad_file;

/**
 * struct umad_agent - an agent of a file
 * @file: the file
 * @id: its index in the file's agents, what userspace names it by
 * @agent: the MAD layer's agent (whose context this is)
 */
struct umad_agent {
	struct umad_file *file;
	u32 id;
	struct ib_mad_agent *agent;
};

/**
 * struct umad_file - an open umadN
 * @port: its port
 * @port_link: on the port's list of files, under its files_lock
 * @lock: protects @agents, @use_pkey_index, @used; writers of @dead hold
 *	it too
 * @agents: by id; NULL where free
 * @use_pkey_index: the header of read() and write() is struct
 *	ib_user_mad_hdr (with pkey_index), else struct ib_user_mad_hdr_old
 * @used: an agent was registered: the header form is fixed
 * @qlock: protects @recvs, @nqueued, @sends and @dead
 * @recvs: packets for read(), oldest first
 * @nqueued: how many
 * @sends: sends outstanding (for the duplicate rule)
 * @dead: the agents are gone (the file is closing or the device went):
 *	read() fails, nothing is queued
 * @wait: woken when a packet is queued or the file dies
 */
struct umad_file {
	struct umad_port *port;
	struct list_head port_link;
	struct mutex lock;
	struct umad_agent *agents[UMAD_MAX_AGENTS];
	bool use_pkey_index;
	bool used;
	spinlock_t qlock;
	struct list_head recvs;
	u32 nqueued;
	struct list_head sends;
	bool dead;
	wait_queue_head_t wait;
};

/**
 * struct umad_packet - a MAD on its way to or from userspace
 * @link: on the file's recvs (to read) or sends (outstanding)
 * @rwc: a received MAD (its segments), or NULL for a send's report
 * @msg: the send buffer of a send while it is outstanding
 * @len: bytes of MAD read() returns after the header
 * @hdr: the header read() returns (a send's: as written, with a status)
 * @mad: the first bytes of a sent MAD as it went out (its TID, for the
 *	duplicate rule and the timeout report)
 */
struct umad_packet {
	struct list_head link;
	struct ib_mad_recv_wc *rwc;
	struct ib_mad_send_buf *msg;
	size_t len;
	struct ib_user_mad_hdr hdr;
	u8 mad[IB_MGMT_RMPP_HDR];
};

/* The size of the header userspace reads and writes on @file. */
static inline size_t umad_hdr_size(const struct umad_file *file)
{
	return READ_ONCE(file->use_pkey_index) ?
	       sizeof(struct ib_user_mad_hdr) :
	       sizeof(struct ib_user_mad_hdr_old);
}

/* ---- main.c ---- */
extern struct class umad_class;

/* ---- port.c ---- */
extern struct ib_client umad_client;
extern struct ib_client umad_issm_client;
int port_chrdev_init(void);
void port_chrdev_exit(void);

/* ---- file.c ---- */
extern const struct file_operations umad_fops;
bool file_queue(struct umad_file *file, struct umad_packet *packet);
void file_kill(struct umad_file *file);

/* ---- recv.c ---- */
void recv_handler(struct ib_mad_agent *agent, struct ib_mad_send_buf *sbuf,
		  struct ib_mad_recv_wc *rwc);
ssize_t recv_read(struct file *filp, char __user *buf, size_t count,
		  loff_t *pos);
void recv_free(struct umad_packet *packet);

/* ---- send.c ---- */
void send_handler(struct ib_mad_agent *agent, struct ib_mad_send_wc *wc);
ssize_t send_write(struct file *filp, const char __user *buf, size_t count,
		   loff_t *pos);

/* ---- issm.c ---- */
extern const struct file_operations umad_issm_fops;

#endif
