// The content script's answers to the background: its own file so the setup only wires, and what
// a frame without the permission refuses is read in one place.
import { handleContentMessages } from '../messaging/runtime-messaging';
import type { BridgeSource } from './bridge-source';
import type { FrameFacts, FrameToolsPermission } from './frame-tools-permission';
import type { PageToolReader } from './page-tool-reader';
import type { PageToolSource } from './page-tool-source';
import { readPageResult } from './read-page-result';
import { logFailedReading } from './log-failed-reading';
import { abortToolCall, runToolCall, type RunningCalls } from './run-tool-call';

export interface PageToolRequestsInput {
  frame: FrameFacts;
  permission: FrameToolsPermission;
  reader: PageToolReader;
  bridge: BridgeSource;
  sources: readonly PageToolSource[];
}

/**
 * Answers the background's requests for this frame's tools, its tool calls and aborts, and the
 * page's result. Gives back how to stop answering.
 */
export function handlePageToolRequests({ frame, permission, reader, bridge, sources }: PageToolRequestsInput): () => void {
  const running: RunningCalls = new Map();
  return handleContentMessages({
    // Answered at once (the answer also tells the background this script is here); the report follows.
    'tools-request': ({ lookAgain }) => {
      // A polyfill may set its context up after the bridge last looked: asking again is cheap.
      bridge.refresh();
      // Walking the page for what no event announced is not: only when a panel opens on the tab.
      if (lookAgain) for (const source of sources) source.lookAgain?.();
      if (reader.hasReported()) reader.reportNow().catch(logFailedReading);
      return null;
    },
    'tool-execute': (call) =>
      permission.allowed ? runToolCall(reader, call, running) : { status: 'error', error: { name: 'NotAllowedError', message: permission.reason } },
    'tool-abort': ({ callId }) => {
      abortToolCall(running, callId);
      return null;
    },
    // Only the top frame's page is asked, and only once a call of this tab loaded it.
    'page-result-request': () => (frame.isTop ? readPageResult() : null),
  });
}
