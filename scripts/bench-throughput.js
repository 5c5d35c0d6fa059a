// `node scripts/bench-throughput.js [runs]`: figure (c) of `npm run bench` alone, `runs` times (3 by
// default), each on a server of its own with its own samples, as the full bench measures it: the
// user-info action's steps per second at 16 and 64 concurrent requests, and the playground's own
// CPU per step. For settling a (c) figure that swings between full runs; nothing is written to
// bench/results.json.
import http from 'node:http';
import { ensureBuild } from './ensure-build.js';
import { startBenchServer } from './bench/server.js';
import { prepareSamples } from './bench/samples.js';
import { measureExchange } from './bench/a-exchange.js';
import { measureThroughput, ownCpuMs } from './bench/c-throughput.js';

const runs = Number(process.argv[2] ?? 3);
if (!Number.isInteger(runs) || runs < 1) {
	console.error('usage: node scripts/bench-throughput.js [runs, a whole number from 1]');
	process.exit(2);
}
ensureBuild();
for (let i = 1; i <= runs; i++) {
	const srv = await startBenchServer();
	try {
		const { sessions, codes } = await prepareSamples(srv.base);
		// The exchange gives the tokens the direct requests use.
		const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
		const { tokens } = await measureExchange({ base: srv.base, agent: one, sessions, codes });
		one.destroy();
		const load = await measureThroughput({ base: srv.base, pid: srv.pid, sessions, tokens });
		const own = ownCpuMs(load);
		const line = load
			.map(
				(l, k) =>
					`${Math.round(l.playground.perSecond)} steps/s at ${l.concurrency}, own CPU ${own[k]} ms`
			)
			.join('; ');
		console.log(`(c) run ${i}: ${line}`);
	} finally {
		await srv.stop();
	}
}
