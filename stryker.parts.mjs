// The whole mutation list in parts (see scripts/stryker/parts.js and docs/testing.md):
// `PART=3 npm run mutate:part` runs part 3, incrementally, into reports/mutation/part-3.json;
// `node scripts/stryker/score.js` sums the parts.
import base from './stryker.config.mjs';
import { PART_COUNT, filesOf } from './scripts/stryker/parts.js';

const part = Number(process.env.PART);

export default {
	...base,
	// Read when Stryker starts, not when the file is loaded (knip loads it to find its plugins).
	get mutate() {
		if (!Number.isInteger(part) || part < 1 || part > PART_COUNT) {
			throw new Error(`PART must be a part's number, 1 to ${PART_COUNT}`);
		}
		return filesOf(part);
	},
	incrementalFile: `reports/stryker-part-${part}-incremental.json`,
	reporters: ['clear-text', 'progress', 'json'],
	jsonReporter: { fileName: `reports/mutation/part-${part}.json` }
};
