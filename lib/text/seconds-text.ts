/** "1 second", "2.5 seconds", "60 seconds": a wait in words, to a tenth of a second. */
export function secondsText(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 100) / 10;
  return seconds === 1 ? '1 second' : `${seconds.toLocaleString('en-US')} seconds`;
}
