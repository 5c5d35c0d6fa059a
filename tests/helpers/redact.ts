/**
 * Redaction as the tests call it, one text, exchange or value at a time, each through a redactor of
 * its own (redact.ts `createRedactor`): no call is handed matchers that an earlier one built.
 */
import { createRedactor, type Secret } from '$lib/exchange/redact';
import type { Exchange } from '$lib/exchange/types';

/** The text with every copy of these secrets replaced by `<redacted>`. */
export const redactText = (text: string, secrets: Secret[]): string =>
	createRedactor(secrets).text(text);

/** The exchange with these secrets replaced everywhere, and where each was found noted. */
export const redactExchange = (ex: Exchange, secrets: Secret[]): Exchange =>
	createRedactor(secrets).exchange(ex);

/** Plain data with these secrets replaced in every string and key. */
export const redactValue = <T>(value: T, secrets: Secret[]): T =>
	createRedactor(secrets).value(value);
