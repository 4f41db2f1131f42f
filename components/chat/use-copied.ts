import { useEffect, useState } from 'preact/hooks';
import { copyText } from '@/lib/text/copy-text';
import { withoutUnseenText } from '@/lib/text/hidden-characters';

/** How long "Copied" stays on a button before it says "Copy" again. */
const copiedShownMs = 2_000;

export type CopyState = 'copied' | 'failed' | undefined;

/**
 * A Copy button's state: `copy` puts text on the clipboard, and the state says how that went for
 * two seconds ("copied"), or until the next try ("failed": the browser refused the clipboard).
 * What the model wrote goes without the characters that spell words unseen (see
 * withoutUnseenText): pasted elsewhere, say into another assistant, they would speak unseen there.
 */
export function useCopied(): [CopyState, (text: string) => void] {
  const [copied, setCopied] = useState<CopyState>(undefined);
  useEffect(() => {
    if (copied === undefined) return undefined;
    const timer = setTimeout(() => setCopied(undefined), copiedShownMs);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = (text: string) => void copyText(withoutUnseenText(text)).then(() => setCopied('copied'), () => setCopied('failed'));
  return [copied, copy];
}
