// The two limiters the playground loads, by their own files: the package's index loads every
// store it supports (Mongo, MySQL, Postgres, …), which would add about 50 ms to each start.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
	import { RateLimiterMemory } from 'rate-limiter-flexible';
	export default RateLimiterMemory;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
	import { RateLimiterRedis } from 'rate-limiter-flexible';
	export default RateLimiterRedis;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
	import { RateLimiterRes } from 'rate-limiter-flexible';
	export default RateLimiterRes;
}
