/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What core/main.c calls of the MAD layer (core/mad/port.c): its client,
 * registered at load after the core's own clients and before any ULP's.
 */
#ifndef OOT_CORE_MAD_CLIENT_H
#define OOT_CORE_MAD_CLIENT_H

int port_client_register(void);
void port_client_unregister(void);

#endif
