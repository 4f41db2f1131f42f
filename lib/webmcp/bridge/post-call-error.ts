// How a failed call reaches the content script, the same for a tool's call and a form's response;
// free of extension APIs, as everything the page-world bridge imports must be.
import { toErrorPayload } from '../../messaging/to-error-payload';
import { cutAndSay } from '../cut-and-say';
import { toolLimits } from '../tool-limits';
import type { ExtensionEnd } from './extension-end';

/** Posts `error` as the answer to `callId`, its message cut to what a tool's error may hold. */
export function postCallError(extension: ExtensionEnd, callId: string, error: unknown): void {
  const payload = toErrorPayload(error, Infinity);
  extension.post({ type: 'call-error', callId, error: { ...payload, message: cutAndSay(payload.message, toolLimits.errorCharacters) } });
}
