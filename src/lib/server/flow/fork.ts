/**
 * One fork at a time. A fork is a flow made from another under a new id, with a copy of its setup
 * and tokens: "Replay this code" makes one, "Replay the previous refresh token" another
 * (replay.ts). The fork records its parent (`fork_of` in its sealed session: the parent's id and
 * what made it), and the parent finds its fork among the browser's flows by that record. The server
 * stays stateless: the link between the two lives in the fork's own cookie, and goes with it. What
 * the try found about the tokens both hold (revoked; the parent's refresh token superseded) the
 * parent records too, when the try runs (`fork_found`, `fork_superseded`): it outlives the fork.
 *
 * A flow has at most one fork. A second is refused while the first exists, with the first's id, so
 * that the page links to it and offers "Close that fork", which drops it (session.ts `dropFlow`;
 * its tab then says it was closed). Once the fork is gone, closed or dropped to make room, a new
 * one may be made. Writing a fork counts as a use of its parent, and the parent is never dropped
 * to make room for its own fork (flow-cap.ts); a fork that could not fit beside its parent is
 * refused before anything is sent.
 *
 * The copy a duplicated tab makes of its flow (the `fork` action, sealed-flow.ts) is not a fork in
 * this sense: it holds no tokens, records no parent, and is a flow of its own.
 */
import type { Session } from '../session/session';

/** The fork of the flow `parent` among a browser's flows, if it has one: its id, and what made it. */
export function forkOf(
	flows: { id: string; session: Session }[],
	parent: string
):
	| {
			id: string;
			by: NonNullable<Session['fork_of']>['by'];
			superseded: boolean;
			revoked?: number;
	  }
	| undefined {
	const found = flows.find((f) => f.id !== parent && f.session.fork_of?.flow === parent);
	const of = found?.session.fork_of;
	return (
		found &&
		of && {
			id: found.id,
			by: of.by,
			superseded: !!of.superseded,
			...(of.revoked === undefined ? {} : { revoked: of.revoked })
		}
	);
}

/** The id of the fork of the flow `parent` among a browser's flows, if it has one. */
export function forkIn(
	flows: { id: string; session: Session }[],
	parent: string
): string | undefined {
	return forkOf(flows, parent)?.id;
}

/**
 * What this flow's fork found about the tokens the flow holds (replay.ts): revoked, by a replay of
 * their code or a try of a superseded refresh token. The live fork's word, else that of a fork
 * since closed (`fork_found`), and only while the flow holds that same set.
 */
export function revokedByFork(
	session: Session,
	fork: ReturnType<typeof forkOf>
): NonNullable<Session['fork_of']>['by'] | null {
	const at = session.tokens?.obtained_at;
	if (at === undefined) return null;
	if (fork?.revoked === at) return fork.by;
	return session.fork_found?.revoked === at ? session.fork_found.by : null;
}

/**
 * Why this flow's refreshes are held, if they are: its fork's try refreshed and superseded its
 * refresh token, and the fork holds the newer tokens ('fork': take them, or close the fork), or that
 * fork was dropped to make room for newer flows, with them ('gone': the token here is superseded
 * all the same, and a refresh would send it).
 */
export function refreshHold(
	session: Session,
	fork: ReturnType<typeof forkOf>
): 'fork' | 'gone' | undefined {
	if (fork?.by === 'refresh' && fork.superseded) return 'fork';
	const at = session.tokens?.obtained_at;
	return at !== undefined && session.fork_superseded === at ? 'gone' : undefined;
}
