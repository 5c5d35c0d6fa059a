/**
 * Saves a text the page made as a file in the browser's downloads (an export, a script), through a
 * link to a blob that is let go of once the download has had time to start.
 */
export function saveFile(name: string, type: string, text: string): void {
	const url = URL.createObjectURL(new Blob([text], { type }));
	const a = document.createElement('a');
	a.href = url;
	a.download = name;
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
