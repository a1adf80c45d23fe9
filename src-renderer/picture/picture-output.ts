/**
 * Where a picture goes: the clipboard (a PNG ClipboardItem, in Electron and in a browser alike)
 * or a file through the browser's download (Electron shows its save dialog, as exports do).
 */

export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // the download has the bytes once it starts; the URL is kept a while for slow starts
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function copyPng(blob: Blob): Promise<void> {
  if (!navigator.clipboard?.write || typeof ClipboardItem === 'undefined') {
    throw new Error('this browser cannot put pictures on the clipboard');
  }
  await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
}

/** A canvas's pixels as a PNG blob. */
export function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the picture could not be encoded'))),
      'image/png',
    ),
  );
}

/** A file name from a view's name: letters, digits, dots and dashes. */
export function pictureFileName(name: string, ext: 'png' | 'svg'): string {
  const base = name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'picture';
  return `${base}.${ext}`;
}
