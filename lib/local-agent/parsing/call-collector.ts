import { isRecord } from '@webmcp-agents/chat';
import type { ParsedCall } from '../types';
import { argumentsMessage, unknownToolMessage, unreadableMessage } from './call-messages';
import { readJson } from './read-json';
import type { WrittenCall } from './written-order';

/**
 * Most calls and errors one reply yields. No agent step runs more, and a reply of thousands of
 * empty tags must not cost thousands of error messages.
 */
export const MAX_CALLS_PER_REPLY = 64;

/** Gathers the calls and the messages about wrong ones, checking every name against the offer. */
export class CallCollector {
  readonly calls: ParsedCall[] = [];
  readonly errors: string[] = [];
  /**
   * Every call and mistake read, in the order the model wrote them. Repeats are included: they
   * count toward the limit though each message is kept once.
   */
  readonly writtenOrder: WrittenCall[] = [];
  private leftOut = false;

  constructor(private readonly toolNames: ReadonlySet<string>) {}

  /** Whether the reply has yielded as many calls and errors as are read. */
  get full(): boolean {
    return this.writtenOrder.length >= MAX_CALLS_PER_REPLY;
  }

  /**
   * Says that a call was cut by the end of what is read of a long reply (see MAX_READ): read as
   * cut short, it would run with what came before the cut alone.
   */
  noteCutAtReadLimit(limit: string): void {
    this.writtenOrder.push({ errorAt: this.errors.length });
    this.errors.push(unreadableMessage(`a call was cut off where the reply passes the ${limit} that is read`, ''));
  }

  /** Says, once, that calls past the limit were left unread. */
  noteLeftOut(): void {
    if (this.leftOut) return;
    this.leftOut = true;
    this.writtenOrder.push({ errorAt: this.errors.length });
    this.errors.push(unreadableMessage(`a reply may hold at most ${MAX_CALLS_PER_REPLY} calls; the rest were not read`, ''));
  }

  // A model stuck in a loop repeats one wrong call many times: the errors need its message once,
  // and each copy keeps its place in the written order.
  private addError(message: string, asked?: Record<string, unknown>): void {
    const known = this.errors.indexOf(message);
    const errorAt = known === -1 ? this.errors.push(message) - 1 : known;
    this.writtenOrder.push(asked ? { errorAt, arguments: asked } : { errorAt });
  }

  /** `rawArguments` is undefined when the model wrote none: that is a call without arguments. */
  addCall(name: string, rawArguments: unknown): void {
    this.addRead(name, toArgumentsObject(rawArguments));
  }

  /** A call with its arguments, null where they are no object or could not be read. */
  private addRead(name: string, argumentsObject: Record<string, unknown> | null): void {
    if (this.full) {
      this.noteLeftOut();
      return;
    }
    if (!this.toolNames.has(name)) {
      // The person's card for a call to a missing tool shows what the model asked of it.
      this.addError(unknownToolMessage(name, this.toolNames), argumentsObject ?? undefined);
    } else if (argumentsObject === null) {
      this.addError(argumentsMessage(name));
    } else {
      this.writtenOrder.push({ callAt: this.calls.length });
      this.calls.push({ name, arguments: argumentsObject });
    }
  }

  /** A JSON value that should be a call, or an array of calls. */
  addValue(value: unknown, cutShort: boolean, offending: string): void {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const shape = describeCall(item);
      if (typeof shape === 'object') this.addCall(shape.name, shape.arguments);
      else if (shape === 'no-name' && cutShort) this.addUnreadable('it was cut off before the tool name', offending);
      else this.addUnreadable(shape === 'no-name' ? 'it has no "name"' : 'it is not a JSON object', offending);
    }
  }

  /** A call that could not be read: an unknown name is the more useful thing to say. */
  addBrokenCall(name: string | null, reason: string, offending: string): void {
    if (name !== null && !this.toolNames.has(name)) this.addRead(name, null);
    else this.addUnreadable(reason, offending);
  }

  addUnreadable(reason: string, offending: string): void {
    if (this.full) this.noteLeftOut();
    else this.addError(unreadableMessage(reason, offending));
  }

  /** A collector for a reading that is kept only if it succeeds (see `absorb`). */
  fork(): CallCollector {
    return new CallCollector(this.toolNames);
  }

  /** Takes in a fork's reading, each call and mistake in its written place, up to the reply's limit. */
  absorb(other: CallCollector): void {
    for (const written of other.writtenOrder) {
      if (this.full) {
        this.noteLeftOut();
        return;
      }
      if ('callAt' in written) {
        this.writtenOrder.push({ callAt: this.calls.length });
        this.calls.push(other.calls[written.callAt]!);
      } else {
        this.addError(other.errors[written.errorAt]!, written.arguments);
      }
    }
  }
}

/** A call's name and raw arguments, or why the value is not a call. */
export type CallShape = { name: string; arguments: unknown; hasArguments: boolean } | 'no-name' | 'not-object';

/**
 * Reads `{"name", "arguments"}`, with `parameters` when `arguments` is missing, the Prompt API's
 * `{"type": "tool_call", …}` (same fields) and OpenAI's `{"type": "function", "function": {…}}`.
 */
export function describeCall(value: unknown): CallShape {
  if (!isRecord(value)) return 'not-object';
  const inner = value['type'] === 'function' && isRecord(value['function']) ? value['function'] : value;
  const name = inner['name'];
  if (typeof name !== 'string' || name === '') return 'no-name';
  if (Object.hasOwn(inner, 'arguments')) return { name, arguments: inner['arguments'], hasArguments: true };
  if (Object.hasOwn(inner, 'parameters')) return { name, arguments: inner['parameters'], hasArguments: true };
  return { name, arguments: undefined, hasArguments: false };
}

/** Missing arguments are `{}`; a string is read as JSON; anything but an object is refused. */
function toArgumentsObject(rawArguments: unknown): Record<string, unknown> | null {
  if (rawArguments === undefined) return {};
  if (isRecord(rawArguments)) return rawArguments;
  if (typeof rawArguments !== 'string') return null;
  const start = rawArguments.search(/\S/);
  if (start === -1) return {};
  const read = readJson(rawArguments, start, rawArguments.length);
  if (!read.ok || !isRecord(read.value)) return null;
  return rawArguments.slice(read.end).trim() === '' ? read.value : null;
}
