import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { Marked, type Links, type Token, type TokensList } from 'marked';
import { escapeHtml } from './escape-html';

const safeHref = /^(?:https?:|mailto:)/i;
/** A model's `#` heading is an h3: the request it answers is the h2 above it. */
const answerHeadingShift = 2;

/**
 * Markdown whose output is safe by construction: raw HTML is shown as text, images as their alt
 * text (a model could leak data through an image URL), links only when they go to the web or mail.
 */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html: ({ text, block }) => (block ? `<p>${escapeHtml(text.trim())}</p>` : escapeHtml(text)),
    image: ({ text }) => (text ? escapeHtml(`[image: ${text}]`) : ''),
    checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
    // The answer sits under its request's heading, an h2: its own headings come below it, so a
    // screen reader's list of headings keeps each answer's sections inside its request.
    heading({ tokens, depth }) {
      const level = Math.min(depth + answerHeadingShift, 6);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    link({ href: written, title, tokens, text }) {
      const label = this.parser.parseInline(tokens);
      // Percent-encoded, as a browser sends them: the marks shown by their code in the text (see
      // showDirectionControls) are not rewritten in the address, which goes where it says.
      const href = written.replace(directionControl, encodeURIComponent);
      if (!safeHref.test(href)) return label;
      // A model may word a link as one address and point it at another: say where it goes.
      const titleAttribute = ` title="${escapeHtml(title ? `${title} (${href})` : href)}"`;
      const link = `<a href="${escapeHtml(href)}"${titleAttribute} target="_blank" rel="noopener noreferrer">${label}</a>`;
      const host = webHost(href);
      // A user part (`https://bank.example@evil.example/`) reads as one host and goes to another;
      // a host of other scripts may pass for a Latin one ("раураl.com"), and says its ASCII name.
      if (host) return !sameAddress(text, href) || hasUserPart(href) || isInternationalHost(host) ? `${link} (${escapeHtml(host)})` : link;
      // A mail link worded as a web address, or as another mailbox, says whom it writes to.
      const recipients = mailRecipients(href);
      return recipients !== undefined && !sameAddress(text.replace(/^mailto:/i, ''), recipients) ? `${link} (mail to ${escapeHtml(recipients || 'nobody named')})` : link;
    },
  },
});

function webHost(href: string): string | undefined {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

function isInternationalHost(host: string): boolean {
  return /(?:^|\.)xn--/i.test(host);
}

/** Whom a `mailto:` link writes to: its address and any `to`, `cc` and `bcc` it adds, comma-separated. */
function mailRecipients(href: string): string | undefined {
  try {
    const url = new URL(href);
    if (url.protocol !== 'mailto:') return undefined;
    // A mail program reads the fields whatever their case (`?BCC=`), and a `+` as a plus (RFC 6068), not a space.
    const fields = url.search.slice(1).split('&').map((pair) => pair.split('='));
    const added = fields.flatMap(([field = '', value = '']) => (['to', 'cc', 'bcc'].includes(readEscapes(field).toLowerCase()) ? [readEscapes(value)] : []));
    const addresses = [readEscapes(url.pathname), ...added].flatMap((list) => list.split(',')).map((address) => asciiDomain(address.trim()));
    return addresses.filter((address) => address !== '').join(', ');
  } catch {
    return undefined;
  }
}

/** A mailbox whose domain is in other scripts, with the domain's ASCII name ("раураl.com" passes for "paypal.com"). */
function asciiDomain(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0 || /^[\x00-\x7f]*$/.test(address)) return address;
  try {
    return `${address.slice(0, at)}@${new URL(`http://${address.slice(at + 1)}`).hostname}`;
  } catch {
    return address;
  }
}

/** `%40` as `@`; an escape that reads as nothing (`%E0`) left as written, not the note dropped. */
function readEscapes(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// The label is the address itself (as an autolink, or written out with or without its scheme,
// in code or emphasis).
function sameAddress(label: string, href: string): boolean {
  const bare = (address: string) =>
    address.replace(/[`*_~]/g, '').trim().replace(/^https?:\/\//i, '').replace(/\/$/, '').toLowerCase();
  return bare(label) === bare(href);
}

function hasUserPart(href: string): boolean {
  try {
    const url = new URL(href);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

// The sanitizer is the second line of defence, with the same rules as the renderer.
const sanitizeConfig: Config = {
  ALLOWED_TAGS: [
    'p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'hr',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  ],
  ALLOWED_ATTR: ['href', 'title', 'target', 'rel', 'start', 'align'],
  ALLOWED_URI_REGEXP: safeHref,
  // Values of these are not addresses; without this the strict address rule above would drop them.
  ADD_URI_SAFE_ATTR: ['target', 'rel', 'start', 'align'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

const probe = '<p>a<img src="x"><a href="https://example.com/" target="_blank" rel="noopener noreferrer">b</a><script>c</script></p>';
const probeExpected = '<p>a<a href="https://example.com/" target="_blank" rel="noopener noreferrer">b</a></p>';

let purifier: Purifier | null | undefined;

/** DOMPurify, when it works in this DOM: some test DOMs mangle its output, browsers do not. */
function workingPurifier(): Purifier | null {
  if (purifier !== undefined) return purifier;
  try {
    const candidate = DOMPurify(window);
    // Set once: passing the configuration to every call re-parses it, which doubles the cost of a block.
    candidate.setConfig({ ...sanitizeConfig, RETURN_TRUSTED_TYPE: false });
    const works = candidate.isSupported && candidate.sanitize(probe) === probeExpected;
    purifier = works ? candidate : null;
  } catch {
    purifier = null;
  }
  return purifier;
}

/**
 * Lexes a model's Markdown into top-level blocks, which `renderMarkdownBlock` renders one at a time.
 * `knownLinks` are reference definitions from text before this one (the first definition wins).
 */
export function lexMarkdown(text: string, knownLinks?: Links): TokensList {
  const lexer = new markdown.Lexer(markdown.defaults);
  if (knownLinks) Object.assign(lexer.tokens.links, knownLinks);
  return lexer.lex(normalizeLineEnds(text));
}

/** One top-level block as safe HTML: formatting and outbound links only. Never throws. */
export function renderMarkdownBlock(token: Token): string {
  try {
    const html = markdown.parser([token]);
    const sanitizer = workingPurifier();
    return showDirectionControls(sanitizer ? sanitizer.sanitize(html) : html);
  } catch {
    return plainParagraph(token.raw);
  }
}

// The marks that embed, override or isolate a direction: a reply could turn words around with them
// ("‮01$ ten" drawn as "net $10"), or run one over a link's note of its host.
const directionControl = /[\u202a-\u202e\u2066-\u2069]/g;

/** Each direction control shown by its code, as in a tool's result, where it turns nothing around. */
function showDirectionControls(html: string): string {
  return html.replace(directionControl, (control) => `\u27e8U+${control.charCodeAt(0).toString(16).toUpperCase()}\u27e9`);
}

/** A model's Markdown as safe HTML: formatting and outbound links only. Never throws. */
export function renderMarkdown(text: string): string {
  try {
    return lexMarkdown(text).map(renderMarkdownBlock).join('');
  } catch {
    return plainParagraph(text);
  }
}

/** The lexer turns CR LF into LF; doing it first keeps block lengths equal to the text's. */
export function normalizeLineEnds(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

function plainParagraph(text: string): string {
  return `<p>${showDirectionControls(escapeHtml(text)).replace(/\n/g, '<br>')}</p>`;
}
