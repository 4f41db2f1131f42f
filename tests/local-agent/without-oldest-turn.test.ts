import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@webmcp-agents/chat';
import { messagesTokens } from '../../lib/local-agent/messages-tokens';
import { withoutOlderHalf, withoutOldestTurn } from '../../lib/local-agent/without-oldest-turn';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistant = (content: string): ChatMessage => ({ role: 'assistant', content });

describe('withoutOldestTurn', () => {
  it('takes out the first message and the replies up to the next user message', () => {
    const history = [user('a'), assistant('b'), assistant('c'), user('d'), assistant('e')];
    expect(withoutOldestTurn(history)).toEqual([user('d'), assistant('e')]);
  });

  it('leaves nothing of a single turn; a history that opens with a reply loses that reply up to the person', () => {
    expect(withoutOldestTurn([user('a'), assistant('b')])).toEqual([]);
    expect(withoutOldestTurn([assistant('x'), user('a')])).toEqual([user('a')]);
  });
});

describe('withoutOlderHalf', () => {
  it('drops whole turns, oldest first, until at most half the tokens are left', () => {
    const long = 'word '.repeat(200);
    const history = [user(long), assistant(long), user('short'), assistant('short'), user('last'), assistant('last')];
    const kept = withoutOlderHalf(history);
    expect(kept).toEqual(history.slice(2));
    expect(messagesTokens(kept)).toBeLessThanOrEqual(messagesTokens(history) / 2);
  });

  it('stops as soon as what is left is half or less', () => {
    const history = [user('same'), user('same')];
    expect(withoutOlderHalf(history)).toEqual([user('same')]);
  });

  it('leaves nothing where the newest turn alone is over half', () => {
    const history = [user('a'), assistant('b'), user('c'.repeat(400)), assistant('d')];
    expect(withoutOlderHalf(history)).toEqual([]);
  });
});
