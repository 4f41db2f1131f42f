import { Fragment } from 'preact';

/**
 * Where an address may break: after a dot, after a colon that no slash follows, after the last of
 * a run of slashes (`http://` / `127.0.0.1:` / `4078`, never `http:` / `//`).
 */
const breakAfter = /(?<=\.)|(?<=:)(?!\/)|(?<=\/)(?!\/)/;

/**
 * An address (a site, a host) in a narrow line: it wraps after its dots, colons and slashes
 * (`http://127.0.0.1:` above `4078`), not at its last letter. The element's `overflow-wrap:
 * anywhere` is left for a part longer than the line. Its text is unchanged for copying and for a
 * screen reader.
 */
export function AddressText({ text }: { text: string }) {
  const parts = text.split(breakAfter);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
