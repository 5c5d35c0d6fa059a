/**
 * Who is asking: the connection's peer, and the client address the per-address limits count.
 *
 * The proxy headers (HOST_HEADER, PROTOCOL_HEADER, PORT_HEADER, ADDRESS_HEADER) are believed only on
 * connections from a trusted proxy (PLAYGROUND_TRUSTED_PROXIES, `isTrustedProxy` in config.server.js):
 * a client that reaches the server directly could otherwise name any host in X-Forwarded-Host (and
 * pass the host check: DNS rebinding) or any address in X-Forwarded-For (and escape its caps).
 * adapter-node hands the Node request over as `platform.req`, whose socket knows the peer; in dev
 * and preview there is none, and nothing is trusted.
 */
import type { Config } from './config.server.js';
import { isTrustedProxy } from './config.server.js';

/** The connection's peer address, from the Node request adapter-node passes as `platform.req`. */
export function peerAddress(platform: App.Platform | undefined): string | undefined {
	return platform?.req?.socket?.remoteAddress ?? undefined;
}

/**
 * The client's address as the limits count it: from a trusted proxy with ADDRESS_HEADER, the
 * address that header names (adapter-node's `getClientAddress`); on any other connection the
 * socket's own. Undefined when the proxy's request lacks the header (adapter-node throws then,
 * which would have been a 500; the callers answer 400 with NO_ADDRESS_MESSAGE). Without the Node
 * request (dev, preview), the adapter's answer, which reads no header there.
 */
export function clientAddress(
	event: { getClientAddress(): string; platform?: App.Platform | undefined },
	proxy: Pick<Config['proxy'], 'addressHeader' | 'trusted'>
): string | undefined {
	const peer = peerAddress(event.platform);
	if (peer !== undefined && !(proxy.addressHeader && isTrustedProxy(peer, proxy.trusted)))
		return peer;
	try {
		return event.getClientAddress();
	} catch {
		return undefined;
	}
}
