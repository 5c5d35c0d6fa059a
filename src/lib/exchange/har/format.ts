/**
 * The HAR 1.2 format, as this playground writes it (http://www.softwareishard.com/blog/har-12-spec/):
 * its types and the rules both directions share. What HAR has no field for travels in custom fields
 * with a leading underscore, as the spec allows.
 */
import type { Failure, Finding, Redaction, Step } from '../types';

/** `log.creator.name` of the files this playground writes; an import tells its own files by it. */
export const HAR_CREATOR = 'feed-reader-oauth-playground';

interface HarNameValue {
	name: string;
	value: string;
}

export interface HarCookie {
	name: string;
	value: string;
	path?: string;
	domain?: string;
	expires?: string;
	httpOnly?: boolean;
	secure?: boolean;
}

export interface HarPostData {
	mimeType: string;
	text: string;
	params?: HarNameValue[];
}

export interface HarRequest {
	method: string;
	url: string;
	httpVersion: string;
	cookies: HarCookie[];
	headers: HarNameValue[];
	queryString: HarNameValue[];
	postData?: HarPostData;
	headersSize: number;
	bodySize: number;
}

interface HarContent {
	size: number;
	mimeType: string;
	text?: string;
	encoding?: string;
	/** HAR 1.2's comment: why there is no text. */
	comment?: string;
}

export interface HarResponse {
	status: number;
	statusText: string;
	httpVersion: string;
	cookies: HarCookie[];
	headers: HarNameValue[];
	content: HarContent;
	redirectURL: string;
	headersSize: number;
	bodySize: number;
}

export interface HarTimings {
	blocked: number;
	dns: number;
	connect: number;
	ssl: number;
	send: number;
	wait: number;
	receive: number;
}

export interface HarEntry {
	startedDateTime: string;
	time: number;
	request: HarRequest;
	response: HarResponse;
	cache: Record<string, never>;
	timings: HarTimings;
	_id: string;
	_step: Step;
	_findings: Finding[];
	_failure?: Failure;
	_note?: string;
	_redactions?: Redaction[];
	_truncated?: boolean;
	/** Sent again on purpose, from a fork (a replayed code, a try of a superseded refresh token). */
	_replay?: true;
}

export interface Har {
	log: {
		version: '1.2';
		creator: { name: string; version: string };
		entries: HarEntry[];
	};
}

/** An ISO 8601 date for `startedDateTime`; the epoch when the text is not a date. */
export function validDate(s: string): string {
	const t = Date.parse(s);
	return Number.isNaN(t) ? new Date(0).toISOString() : new Date(t).toISOString();
}
