/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The internal interface of core/sa/: the subnet administration client
 * (<rdma/ib_sa.h>) of ib_core.
 *
 *   wire.c      the records' wire layouts (PathRecord, MCMemberRecord,
 *               GUIDInfoRecord, ClassPortInfo), both ways
 *   port.c      the "sa" client: per InfiniBand port, the MAD agent, the
 *               SM's address (LID, SL, P_Key index) and the SA's
 *               ClassPortInfo (its response time bounds each try of a
 *               query from below), renewed on port events
 *   query.c     queries: the SA MAD, its id, its send with timeout and
 *               retries, the answer or the failure to the query's owner,
 *               cancellation; SA clients (ib_sa_register_client)
 *   path.c      PathRecord queries, address vectors from paths
 *   guid.c      GUIDInfoRecord queries
 *   mcmember.c  MCMemberRecord queries (join, leave) for mcast.c
 *   mcast.c     the "sa_multicast" client: multicast groups of a port,
 *               members, counts of the join states, joins and leaves,
 *               errors on port events
 *
 * path.c, guid.c and mcmember.c sit on query.c, which sits on port.c and
 * wire.c; mcast.c sits on mcmember.c.  port.c tells mcast.c of port
 * events.
 *
 * Lock order (outermost first):
 *   sa_mc_port.lock (mcast.c)        a port's groups, and each group's
 *                                    members and state
 *   sa_queries' xa_lock (query.c)    query ids
 *   sa_port.lock (port.c)            a port's SM address, ClassPortInfo
 * MAD layer calls (posting, cancelling) are made under none of them but
 * the xarray's lock (ib_cancel_mad() takes only the agent's spinlock).
 * Callbacks of SA users run with no lock of ours held.
 *
 * Declarations only (core/device/internal.h says why).
 */
#ifndef OOT_CORE_SA_INTERNAL_H
#define OOT_CORE_SA_INTERNAL_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_sa.h>

struct ib_class_port_info;
struct ib_mad_agent;
struct ib_mad_recv_wc;
struct ib_mad_send_buf;
struct ib_mad_send_wc;
struct ib_sa_mad;
struct sa_port;
struct sa_sm_ah;

/* Bytes of each record on the wire */
#define SA_PATH_REC_BYTES	64
#define SA_MCMEMBER_REC_BYTES	52
#define SA_GUIDINFO_REC_BYTES	72

/* How many times a query's MAD goes out within its timeout */
#define SA_QUERY_TRIES		4

/* wire.c */
void wire_mcmember_pack(const struct ib_sa_mcmember_rec *rec, void *attr);
void wire_mcmember_unpack(const void *attr, struct ib_sa_mcmember_rec *rec);
void wire_guidinfo_pack(const struct ib_sa_guidinfo_rec *rec, void *attr);
void wire_guidinfo_unpack(const void *attr, struct ib_sa_guidinfo_rec *rec);

/* port.c */
struct sa_port *sa_port_get(struct ib_device *device, u32 port_num);
struct ib_device *sa_port_device(struct sa_port *port);
u32 sa_port_num(struct sa_port *port);
struct ib_mad_agent *sa_port_agent(struct sa_port *port);
struct sa_sm_ah *sa_port_ah_get(struct sa_port *port);
struct ib_ah *sa_ah(struct sa_sm_ah *sm_ah, u16 *pkey_index);
void sa_ah_put(struct sa_sm_ah *sm_ah);
u8 sa_port_path_mask(struct ib_device *device, u32 port_num);
unsigned long sa_port_resp_ms(struct sa_port *port);
bool sa_port_cpi(struct sa_port *port, struct ib_class_port_info *cpi);
void sa_port_cpi_done(struct sa_port *port,
		      const struct ib_class_port_info *cpi);

/* query.c */
typedef void (*sa_query_done_t)(struct ib_sa_query *query, int status,
				const struct ib_sa_mad *mad);
struct ib_sa_query *sa_query_new(struct ib_sa_client *client,
				 struct ib_device *device, u32 port_num,
				 size_t priv_size, gfp_t gfp);
void *sa_query_priv(struct ib_sa_query *query);
struct ib_sa_mad *sa_query_mad(struct ib_sa_query *query, u8 method,
			       __be16 attr_id, ib_sa_comp_mask comp_mask);
int sa_query_send(struct ib_sa_query *query, unsigned long timeout_ms,
		  sa_query_done_t done, void (*release)(struct ib_sa_query *),
		  gfp_t gfp, struct ib_sa_query **handle);
void sa_query_abandon(struct ib_sa_query *query);
void sa_query_recv(struct ib_mad_agent *agent,
		   struct ib_mad_send_buf *send_buf,
		   struct ib_mad_recv_wc *recv_wc);
void sa_query_sent(struct ib_mad_agent *agent,
		   struct ib_mad_send_wc *send_wc);
int sa_query_cpi(struct sa_port *port, unsigned long timeout_ms);
void sa_client_get(struct ib_sa_client *client);
void sa_client_put(struct ib_sa_client *client);

/* mcmember.c */
typedef void (*sa_mcmember_done_t)(int status,
				   const struct ib_sa_mcmember_rec *rec,
				   void *context);
int sa_mcmember_query(struct ib_sa_client *client, struct ib_device *device,
		      u32 port_num, u8 method,
		      const struct ib_sa_mcmember_rec *rec,
		      ib_sa_comp_mask comp_mask, unsigned long timeout_ms,
		      sa_mcmember_done_t done, void *context,
		      struct ib_sa_query **handle);

#endif
