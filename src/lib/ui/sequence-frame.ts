/**
 * The sequence diagram's frame: its three lanes and its size for a given width and number of
 * arrows, without the arrows themselves. A fresh page shows the frame alone (SequenceFrame.svelte),
 * so its first load carries this and not the arrows' layout (sequence.ts), which loads with the
 * first exchange.
 */
export type Lane = 'browser' | 'playground' | 'service';

const LANES: readonly { id: Lane; name: string; short: string }[] = [
	{ id: 'browser', name: 'Browser', short: 'Browser' },
	{ id: 'playground', name: 'Playground server', short: 'Playground' },
	{ id: 'service', name: 'Service', short: 'Service' }
];

export const GEOMETRY = {
	pad: 8,
	headerTop: 6,
	headerHeight: 28,
	firstRow: 44,
	rowHeight: 54,
	emptyHeight: 64,
	bottom: 10,
	/** Estimated widths of one character: labels are 12 px monospace, lane names 13 px sans-serif. */
	labelChar: 7.4,
	nameChar: 7.6,
	minWidth: 240,
	defaultWidth: 640
} as const;

interface LaneBox {
	id: Lane;
	name: string;
	label: string;
	x: number;
	boxWidth: number;
}

export interface SequenceFrame {
	width: number;
	height: number;
	/** True when the labels had to be shortened. */
	compact: boolean;
	lanes: LaneBox[];
	laneTop: number;
	laneBottom: number;
	/** No arrow yet: the frame says where they will appear. */
	empty: boolean;
	/** Where the empty-state hint goes. */
	hintY: number;
}

/** The frame for `rows` arrows at the measured `width` (0 or less: not measured yet). */
export function frameOf(width: number | undefined, rows: number): SequenceFrame {
	const g = GEOMETRY;
	const w = Math.max(g.minWidth, Math.round(width && width > 0 ? width : g.defaultWidth));
	const col = (w - 2 * g.pad) / 3;
	const lanes: LaneBox[] = LANES.map((l, i) => {
		const label = l.name.length * g.nameChar + 16 <= col - 8 ? l.name : l.short;
		return {
			id: l.id,
			name: l.name,
			label,
			x: g.pad + col * (i + 0.5),
			boxWidth: Math.min(col - 8, label.length * g.nameChar + 16)
		};
	});
	const laneBottom = g.firstRow + (rows ? rows * g.rowHeight : g.emptyHeight);
	return {
		width: w,
		height: laneBottom + g.bottom,
		compact: lanes.some((l) => l.label !== l.name),
		lanes,
		laneTop: g.headerTop + g.headerHeight,
		laneBottom,
		empty: rows === 0,
		hintY: g.firstRow + g.emptyHeight / 2
	};
}
