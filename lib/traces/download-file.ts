/** Hands the person a file as a download, from an extension page. */
export function downloadFile(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once click() returns; a moment later the URL can go.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
