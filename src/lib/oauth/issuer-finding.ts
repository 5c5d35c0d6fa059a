/**
 * The finding an issuer verdict (oauth/issuer.ts) adds to the callback's Exchange, raised from the
 * catalogue (catalogue/mix-up.ts). Apart from issuer.ts, which the callback step imports, so that
 * the page's first load carries the verdict's logic and not the findings' words.
 */
import type { Finding } from '$lib/exchange/types';
import type { IssuerVerdict } from './issuer';
import { raise } from './catalogue/raise';
import * as mixUp from './catalogue/mix-up';

/** The finding the issuer verdict adds to the callback's Exchange. */
export function issuerFinding(v: IssuerVerdict): Finding | undefined {
	switch (v.result) {
		case 'match':
			return raise(mixUp.ISSUER_OK, v.returned, v.from);
		case 'mismatch':
			return raise(mixUp.ISSUER_MISMATCH, v.returned, v.expected, v.from);
		case 'origin-mismatch':
			return raise(mixUp.ISSUER_OFF_ORIGIN, v.returned, v.authorization_origin);
		case 'not-checked':
			return raise(mixUp.ISSUER_NOT_CHECKED, v.returned);
		case 'not-sent':
			if (v.required) return raise(mixUp.ISSUER_MISSING, v.expected);
			return v.expected === undefined ? undefined : raise(mixUp.ISSUER_NOT_SENT, v.expected);
	}
}
