/**
 * A Redis server of the tests' own (Debian's `redis-server`, installed by `.ci/run`), on a free
 * loopback port, by default with append-only persistence written on every command, stopped by its
 * PID. The implementation is shared with the bench: scripts/lib/redis.js.
 */
export {
	NO_CONFIG_FLAGS,
	NO_PERSISTENCE_FLAGS,
	PERSISTENCE_FLAGS,
	startRedis,
	type Redis as TestRedis
} from '../../scripts/lib/redis.js';
