/**
 * Start over, with Undo (and a save that dropped the tokens, with the same slot). Start over replaces the flow with a fresh one and keeps the old one sealed
 * inside it (`undo: { session, until }`) for UNDO_MS; the `undo` action puts it back within that
 * time. Any other action drops it (`withoutUndo`, applied where the flow is sealed, sealed-flow.ts), so Undo is
 * offered until the next action or 30 seconds, whichever comes first.
 */
import { emptySession, rememberState, type Session } from '../session/session';
import { refuse, UNDO_GONE, undoTooLate, type Refused } from './refusals';

/** How long Start over can be undone. */
export const UNDO_MS = 30_000;

/** The old flow, kept in the fresh session's `undo` field until `until` (ms since the epoch). */
export interface UndoSlot {
	session: Session;
	until: number;
}
type Undoable = Session & { undo?: UndoSlot };

/** The session's undo slot, if Start over left one. */
export function undoSlot(session: Session): UndoSlot | undefined {
	return (session as Undoable).undo;
}

/** The flow that follows Start over: nothing of the old one but what the new one must remember. */
export function freshSession(old: Session): Session {
	// The old consent request's state is remembered, so its late redirect is "already used or
	// restarted" (callback-route.ts), never an unsolicited one.
	const recent = rememberState(old.recent_states, old.pending?.state);
	return recent.length ? { ...emptySession(), recent_states: recent } : emptySession();
}

/** The session without its undo slot (the same object when it has none). */
export function withoutUndo(session: Session): Session {
	if (!undoSlot(session)) return session;
	const { undo: _undo, ...rest } = session as Undoable;
	return rest;
}

/** `next`, holding `old` (never an older undo, nor a notice) in its undo slot until `now + UNDO_MS`. */
export function withUndo(next: Session, old: Session, now = Date.now()): Session {
	const { notice: _notice, ...kept } = withoutUndo(old);
	const held: Undoable = { ...withoutUndo(next), undo: { session: kept, until: now + UNDO_MS } };
	return held;
}

/** Start over: a fresh session that holds the old one until `now + UNDO_MS`. */
export function startOver(old: Session, now = Date.now()): Session {
	return withUndo(freshSession(old), old, now);
}

/** The undo slot is past its time (then the next page load drops it: it holds the old flow's secret). */
export function undoExpired(session: Session, now = Date.now()): boolean {
	const slot = undoSlot(session);
	return !!slot && now > slot.until;
}

export type Undone = { ok: true; session: Session } | Refused;

/** Undo: the session Start over replaced, while its slot lasts. */
export function undoStartOver(current: Session, now = Date.now()): Undone {
	const slot = undoSlot(current);
	if (!slot) return refuse(UNDO_GONE);
	if (now > slot.until) return refuse(undoTooLate(UNDO_MS / 1000));
	return { ok: true, session: slot.session };
}
