// Set up by vitest.unit.config.ts, the configuration mutation testing runs the unit tests with.
// StrykerJS runs one mutant after another in the same test environment, and measures which tests
// reach a mutant by running each test once: a memo cache would hand a test what an earlier test
// (or the run of an earlier mutant) built, so the code that builds it would be credited to that
// one test only, and a mutant in it could survive tests that would kill it. Each test starts with
// the redaction matchers forgotten.
import { beforeEach } from 'vitest';
import { matcherCache } from '$lib/exchange/redact';

beforeEach(() => matcherCache.clear());
