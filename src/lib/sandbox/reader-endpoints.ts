/**
 * The sandbox's table of reader API endpoints, below `/sandbox/reader/api/0/`: each name with its
 * method and the zone it counts in (the service's API docs §5 step 7: zone 2 needs `read write`, so
 * the writes are there). The sandbox answers by it (api.server.ts adds each endpoint's handler), and
 * the API console reads it to say a call's zone before Send (ui/zone-prediction.ts), so both count
 * the same way. Plain data: it imports nothing, and runs in the browser too.
 */

export type ReaderZone = 1 | 2;

export interface ReaderEndpoint {
	method: 'GET' | 'POST';
	zone: ReaderZone;
	/** True when the path may continue after the name (stream/contents/<stream id>). */
	prefix?: boolean;
}

export const READER_ENDPOINTS = {
	'user-info': { method: 'GET', zone: 1 },
	'subscription/list': { method: 'GET', zone: 1 },
	'tag/list': { method: 'GET', zone: 1 },
	'unread-count': { method: 'GET', zone: 1 },
	'stream/contents': { method: 'GET', zone: 1, prefix: true },
	'stream/items/ids': { method: 'GET', zone: 1 },
	'edit-tag': { method: 'POST', zone: 2 },
	'mark-all-as-read': { method: 'POST', zone: 2 }
} as const satisfies Record<string, ReaderEndpoint>;

export type ReaderEndpointName = keyof typeof READER_ENDPOINTS;

/** The endpoint a path (below the API base) names, and the rest of the path after it. */
export function readerEndpointAt(
	path: string
): { name: ReaderEndpointName; endpoint: ReaderEndpoint; rest: string } | undefined {
	const clean = path.replace(/^\/+|\/+$/g, '');
	const table: Record<string, ReaderEndpoint> = READER_ENDPOINTS;
	if (Object.hasOwn(table, clean))
		return { name: clean as ReaderEndpointName, endpoint: table[clean]!, rest: '' };
	for (const [name, endpoint] of Object.entries(table)) {
		if (endpoint.prefix && clean.startsWith(name + '/'))
			return {
				name: name as ReaderEndpointName,
				endpoint,
				rest: clean.slice(name.length + 1)
			};
	}
	return undefined;
}
