// SPDX-License-Identifier: GPL-2.0
/*
 * Suite "rdma_cm_ports" (core/cma/ports.c, the binding half of addr.c):
 * wildcard binds of the port spaces, ephemeral ports, the sharing rules
 * (reuseaddr, afonly, a wildcard against a specific address), the
 * service ID of a port, and the errnos of bad binds.  No connection
 * manager needed, and a device only for binds to a specific address.
 */
#include <kunit/test.h>
#include <net/ip.h>
#include <rdma/ib.h>
#include "cenv.h"

/* A port the cases use: above the usual privileged ones */
#define PORT	18515

static struct rdma_cm_id *bound(struct kunit *test, struct cenv_case *c,
				const char *addr, u16 port, int reuse,
				int expect)
{
	struct rdma_cm_id *id = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					IB_QPT_RC);
	union cenv_sa sa;

	if (reuse >= 0)
		KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(id, reuse), 0);
	cenv_sa(test, &sa, addr, port);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, &sa.sa), expect);
	return id;
}

static u16 port_of(struct rdma_cm_id *id)
{
	return ntohs(((struct sockaddr_in *)&id->route.addr.src_addr)->sin_port);
}

static void wildcard_twice_conflicts(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);

	bound(test, c, "0.0.0.0", PORT, -1, 0);
	bound(test, c, "0.0.0.0", PORT, -1, -EADDRNOTAVAIL);
	/* another port space does not conflict */
	KUNIT_EXPECT_EQ(test, port_of(bound(test, c, "0.0.0.0", PORT + 1, -1,
					    0)), PORT + 1);
}

/*
 * A wildcard bind holds its port for every address, and a bind to one
 * address holds it against a later wildcard; two binds to the same
 * address and port are "in use".  Specific addresses need a device.
 */
static void wildcard_and_specific_conflict(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, true);

	bound(test, c, "0.0.0.0", PORT, -1, 0);
	bound(test, c, "10.74.0.1", PORT, -1, -EADDRNOTAVAIL);
	bound(test, c, "10.74.0.1", PORT + 2, -1, 0);
	bound(test, c, "0.0.0.0", PORT + 2, -1, -EADDRNOTAVAIL);
	bound(test, c, "10.74.0.1", PORT + 2, -1, -EADDRINUSE);
}

static void reuseaddr_shares(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);

	bound(test, c, "0.0.0.0", PORT, 1, 0);
	bound(test, c, "0.0.0.0", PORT, 1, 0);
	/* both must allow it */
	bound(test, c, "0.0.0.0", PORT, 0, -EADDRNOTAVAIL);
}

static void udp_space_is_separate(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *udp = cenv_id(test, c, &init_net, RDMA_PS_UDP,
					 IB_QPT_UD);
	union cenv_sa sa;

	bound(test, c, "0.0.0.0", PORT, -1, 0);
	cenv_sa(test, &sa, "0.0.0.0", PORT);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(udp, &sa.sa), 0);
}

static void ephemeral_port_in_range(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	int low, high, i;
	u16 p[4];

	inet_get_local_port_range(&init_net, &low, &high);
	for (i = 0; i < ARRAY_SIZE(p); i++) {
		p[i] = port_of(bound(test, c, "0.0.0.0", 0, -1, 0));
		KUNIT_EXPECT_GE(test, p[i], low);
		KUNIT_EXPECT_LE(test, p[i], high);
	}
	/* wildcards do not share an ephemeral port either */
	for (i = 1; i < ARRAY_SIZE(p); i++)
		KUNIT_EXPECT_NE(test, p[i], p[0]);
}

static void ipv6_wildcard_and_afonly(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *v6;
	union cenv_sa sa;

	/* bindv6only is 0: an IPv6 wildcard also takes IPv4's port */
	bound(test, c, "::", PORT, -1, 0);
	bound(test, c, "0.0.0.0", PORT, -1, -EADDRNOTAVAIL);

	v6 = cenv_id(test, c, &init_net, RDMA_PS_TCP, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, rdma_set_afonly(v6, 1), 0);
	cenv_sa(test, &sa, "::", PORT + 2);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(v6, &sa.sa), 0);
	/* still settable while bound */
	KUNIT_EXPECT_EQ(test, rdma_set_afonly(v6, 1), 0);
	bound(test, c, "0.0.0.0", PORT + 2, -1, 0);
	bound(test, c, "::", PORT + 2, -1, -EADDRNOTAVAIL);
}

static void bad_binds(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *id = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					IB_QPT_RC);
	struct rdma_cm_id *odd = cenv_id(test, c, &init_net,
					 (enum rdma_ucm_port_space)0x0999,
					 IB_QPT_RC);
	struct sockaddr_storage unix_sa = { .ss_family = AF_UNIX };
	union cenv_sa sa;

	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, (struct sockaddr *)&unix_sa),
			-EAFNOSUPPORT);
	/* a link-local address names its interface */
	cenv_sa(test, &sa, "fe80::1", PORT);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, &sa.sa), -EINVAL);
	/* not an address of this host */
	cenv_sa(test, &sa, "192.0.2.1", PORT);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, &sa.sa), -EADDRNOTAVAIL);
	/* an unknown port space */
	cenv_sa(test, &sa, "0.0.0.0", PORT);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(odd, &sa.sa), -EPROTONOSUPPORT);
	/* failures left the ID unbound: it binds now, once */
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, &sa.sa), 0);
	KUNIT_EXPECT_EQ(test, rdma_bind_addr(id, &sa.sa), -EINVAL);
}

static void option_states(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *id = bound(test, c, "0.0.0.0", PORT, -1, 0);

	/* bound: reuse may be allowed, not withdrawn */
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(id, 1), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(id, 0), -EINVAL);
	/* listening: the port is its own, afonly fixed */
	KUNIT_ASSERT_EQ(test, rdma_listen(id, 4), 0);
	KUNIT_EXPECT_EQ(test, rdma_set_reuseaddr(id, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, rdma_set_afonly(id, 0), -EINVAL);
	/* the listener gave up sharing: a reusing ID cannot join it */
	bound(test, c, "0.0.0.0", PORT, 1, -EADDRNOTAVAIL);
	KUNIT_EXPECT_EQ(test, rdma_listen(id, 4), -EINVAL);
}

static void service_ids(struct kunit *test)
{
	struct cenv_case *c = cenv_case(test, false);
	struct rdma_cm_id *tcp = cenv_id(test, c, &init_net, RDMA_PS_TCP,
					 IB_QPT_RC);
	struct rdma_cm_id *udp = cenv_id(test, c, &init_net, RDMA_PS_UDP,
					 IB_QPT_UD);
	struct sockaddr_ib sib = {
		.sib_family = AF_IB,
		.sib_sid = cpu_to_be64(0x123456789abcdef0ULL),
	};
	union cenv_sa sa;

	cenv_sa(test, &sa, "10.1.2.3", 0x1234);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rdma_get_service_id(tcp, &sa.sa)),
			0x0000000001061234ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rdma_get_service_id(udp, &sa.sa)),
			0x0000000001111234ULL);
	cenv_sa(test, &sa, "fd00::1", 4791);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(rdma_get_service_id(tcp, &sa.sa)),
			RDMA_IB_IP_PS_TCP | 4791);
	KUNIT_EXPECT_EQ(test, rdma_get_service_id(tcp, (struct sockaddr *)&sib),
			sib.sib_sid);
}

static struct kunit_case cma_ports_cases[] = {
	KUNIT_CASE(wildcard_twice_conflicts),
	KUNIT_CASE(wildcard_and_specific_conflict),
	KUNIT_CASE(reuseaddr_shares),
	KUNIT_CASE(udp_space_is_separate),
	KUNIT_CASE(ephemeral_port_in_range),
	KUNIT_CASE(ipv6_wildcard_and_afonly),
	KUNIT_CASE(bad_binds),
	KUNIT_CASE(option_states),
	KUNIT_CASE(service_ids),
	{}
};

static struct kunit_suite cma_ports_suite = {
	.name = "rdma_cm_ports",
	.suite_init = cenv_up,
	.suite_exit = cenv_down,
	.test_cases = cma_ports_cases,
};

kunit_test_suites(&cma_ports_suite);
