import { describe, expect, it } from 'vitest';
import { undoAfterSnapshot } from '@/lib/sidepanel/new-chat-undo';
import { sessionState, turn } from './session-fixtures';

const cleared = sessionState({ turns: [], canUndoNewChat: true });
const before = sessionState({ turns: [turn()] });
const cutOff = sessionState({ turns: [] });

describe('what a snapshot tells the panel of New chat and its Undo', () => {
  it('says New chat pressed here started one once the snapshot offers Undo', () => {
    expect(undoAfterSnapshot('pressed', cleared)).toBe('started');
  });

  it('waits on after New chat while a snapshot still has the chat, and gives up on one with neither chat nor offer', () => {
    expect(undoAfterSnapshot('pressed', before)).toBe('pressed');
    expect(undoAfterSnapshot('pressed', cutOff)).toBe('none');
  });

  it('says Undo brought the conversation back when the offer is gone and the turns are there', () => {
    expect(undoAfterSnapshot('asked', before)).toBe('done');
    expect(undoAfterSnapshot('asked', cutOff)).toBe('none');
    expect(undoAfterSnapshot('asked', cleared)).toBe('asked');
  });

  it('forgets a new chat started here once the offer ends, and stays quiet about an offer found', () => {
    expect(undoAfterSnapshot('started', before)).toBe('none');
    expect(undoAfterSnapshot('started', cleared)).toBe('started');
    expect(undoAfterSnapshot('none', cleared)).toBe('none');
    expect(undoAfterSnapshot('done', before)).toBe('done');
  });
});
