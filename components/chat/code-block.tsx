import type { Tokens } from 'marked';
import { useCopied } from './use-copied';

/**
 * A fenced code block of a reply, with its language and a Copy button: code a person asked for
 * is meant to be taken elsewhere, and selecting a long block by hand is fiddly. Copy takes the
 * code as streamed so far, without its fences.
 */
export function CodeBlock({ token, html }: { token: Tokens.Code; html: string }) {
  const [copied, copyCode] = useCopied();
  // A model may write anything after the fence: a first word of reasonable length is a language.
  const language = /^[\w#+.-]{1,24}$/.exec(token.lang?.trim().split(/\s/)[0] ?? '')?.[0];
  const copy = () => copyCode(token.text);
  return (
    <div class="markdown-block code-block" dir="ltr">
      <div class="code-bar">
        {language && <span class="code-language">{language}</span>}
        <button type="button" class="code-copy" data-testid="copy-code" aria-label={copied === 'copied' ? undefined : language ? `Copy the ${language} code` : 'Copy the code'} onClick={copy}>
          {copied === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      {/* The block's scroller, not its pre: Chromium makes a wide one a Tab stop, which needs a name. */}
      <div class="code-scroll" role="group" aria-label={language ? `${language} code` : 'Code'} dangerouslySetInnerHTML={{ __html: html }} />
      <span class="visually-hidden" role="status">
        {copied === 'copied' ? 'Code copied.' : copied === 'failed' ? 'The browser would not copy the code: select it and copy it by hand.' : ''}
      </span>
    </div>
  );
}
