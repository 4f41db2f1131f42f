/**
 * A wait in words: "1 second", "12.5 seconds"; from a minute on in whole minutes and seconds ("2
 * minutes 26 seconds"), as a person counts a long wait (the side panel's count shows "2 min 26 s").
 */
export function secondsText(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 100) / 10;
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds.toLocaleString('en-US')} seconds`;
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  const minuteWords = minutes === 1 ? '1 minute' : `${minutes.toLocaleString('en-US')} minutes`;
  return rest === 0 ? minuteWords : `${minuteWords} ${rest === 1 ? '1 second' : `${rest} seconds`}`;
}
