/**
 * Saving bytes the page holds as a file the user keeps: a Blob behind a temporary object URL and
 * an `<a download>` click. Works the same in the browser shell (the browser's download) and in
 * the desktop app (Electron asks where to save).
 */

/** Offers `data` as a download named `fileName`. */
export function saveBlob(data: Blob, fileName: string): void {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click was handled; the download keeps its own reference.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** base64 (as the engine sends pieces) to bytes. */
export function fromBase64(data: string): Uint8Array<ArrayBuffer> {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Bytes to base64, in slices so large pieces do not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  const SLICE = 0x8000;
  for (let i = 0; i < bytes.length; i += SLICE) text += String.fromCharCode(...bytes.subarray(i, i + SLICE));
  return btoa(text);
}
