import { asSentence } from '../../text/as-sentence';
import { defaultReplyTokens, estimateMessageTokens, isTurnOver, type ModelChunk, type ModelRequest } from '@webmcp-agents/local-agent';
import { EngineError } from '../engine';
import { createServerMemory, postChatRequest, type ServerMemory } from './chat-request';
import { readServerSentEvents } from './read-server-sent-events';
import { defaultReplyTimeouts, startIdleTimer, timeoutsForPrompt, type IdleTimer, type ReplyTimeouts } from './reply-timeouts';
import { serverHost } from './server-address';
import { contextRefusal } from './context-refusal';
import { lengthError } from './length-error';
import { replyEnd, type StreamCounts } from './reply-end';
import { connectionBroken, logHintOnOptions, notAnApi, replyUnreadable, serverModelLabel, serverStalled } from './server-errors';
import { createServerToolCalls } from './server-tool-calls';
import { readUnopenedThought } from './unopened-thought';
import { serverUsage, type ServerFigures } from './server-usage';

export interface OpenAiReplyOptions {
  address: string;
  model: string;
  temperature: number;
  fetch: typeof fetch;
  /** What the server refused before, shared by the engine's replies. */
  memory?: ServerMemory;
  /** 120 s for the first byte, and 50 ms more a token of the prompt, and 60 s between chunks, unless set. */
  timeouts?: Partial<ReplyTimeouts>;
  /** The model's context as the server said it, where it did. */
  contextTokens?: number;
  /** The person's "Longest reply", for what a cut-off reply's hint offers (see longerReply). */
  replyTokens?: number;
}

/**
 * One streamed chunk as OpenAI-compatible servers send it. A model that thinks anyway streams its
 * thoughts in `reasoning` (Ollama) or `reasoning_content` (llama.cpp, vLLM): not shown, but alive,
 * counted (a reply cut off with thoughts and no text was spent thinking), and given on as thinking
 * for the trace.
 */
interface CompletionChunk extends ServerFigures {
  choices?: {
    delta?: Thoughts & { content?: unknown; tool_calls?: unknown };
    /** A whole completion where a stream was asked for (a server that sent JSON without its type). */
    message?: Thoughts & { content?: unknown; tool_calls?: unknown };
    /** A legacy completion's chunk, which some servers send on this endpoint too. */
    text?: unknown;
    finish_reason?: string | null;
  }[];
  error?: { message?: string } | string;
  /** vLLM's error inside a stream is the chunk itself: `{"object": "error", "message": …}`. */
  object?: unknown;
  message?: unknown;
}

interface Thoughts {
  reasoning?: string | null;
  reasoning_content?: string | null;
}

/**
 * Streams one chat completion over SSE from a local server: text deltas, then the usage with
 * the server's token counts and the speed measured here (or the server's own, where it says).
 */
export async function* streamOpenAiReply(request: ModelRequest, options: OpenAiReplyOptions): AsyncGenerator<ModelChunk> {
  const startedAt = performance.now();
  const promptTokens = request.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
  const timer = startIdleTimer(timeoutsForPrompt({ ...defaultReplyTimeouts, ...options.timeouts }, promptTokens));
  try {
    const memory = options.memory ?? createServerMemory();
    const maxTokens = request.maxTokens ?? defaultReplyTokens;
    const response = await postChatRequest(request, { ...options, maxTokens, memory }, timer);
    const reading = { address: options.address, model: options.model, timer, startedAt, maxTokens, contextTokens: options.contextTokens, replyTokens: options.replyTokens, memory };
    const type = response.headers.get('content-type') ?? '';
    // A server that ignores `stream: true` answers with the whole completion at once.
    if (/\bjson\b/i.test(type)) yield* readWholeReply(response, request, reading);
    else if (/\bhtml\b/i.test(type)) throw notAnApi(options.address);
    else yield* readReply(response.body!, request, reading);
  } finally {
    timer.stop();
  }
}

interface ReplyReading {
  address: string;
  model: string;
  timer: IdleTimer;
  startedAt: number;
  maxTokens: number;
  contextTokens: number | undefined;
  memory: ServerMemory;
}

async function* readReply(body: ReadableStream<Uint8Array>, request: ModelRequest, reading: ReplyReading): AsyncGenerator<ModelChunk> {
  const { address, timer } = reading;
  const counts: StreamCounts = { events: 0, deltas: 0, thoughts: 0, unreadable: 0, strayLines: 0 };
  let firstTokenAt: number | undefined;
  let last: ServerFigures = {};
  let finishReason: string | undefined;
  let sawDone = false;
  const toolCalls = createServerToolCalls();
  let callPieces = 0;
  const unopened = readUnopenedThought(reading.memory.opensThoughtInPrompt, reading.model);
  try {
    // Every chunk of bytes resets the timer, reasoning deltas and keep-alive comments included.
    for await (const data of readServerSentEvents(body, timer.touch, () => (counts.strayLines += 1))) {
      counts.events += 1;
      if (data === '[DONE]') {
        sawDone = true;
        break;
      }
      const chunk = parseChunk(data);
      if (!chunk) {
        counts.unreadable += 1;
        continue;
      }
      const error = chunk.error ?? errorChunkWords(chunk);
      if (error) throw streamError(reading, error);
      if (chunk.usage) last = { ...last, usage: chunk.usage };
      if (chunk.timings) last = { ...last, timings: chunk.timings };
      const delta = chunk.choices?.[0]?.delta;
      const apart = thoughtText(delta);
      if (apart) counts.thoughts += 1;
      const newCallPieces = toolCalls.add(delta?.tool_calls ?? chunk.choices?.[0]?.message?.tool_calls);
      callPieces += newCallPieces;
      const text = contentText(delta?.content ?? chunk.choices?.[0]?.message?.content ?? chunk.choices?.[0]?.text);
      // The reply ended as its last word said: text after a finish reason means it went on.
      finishReason = chunk.choices?.[0]?.finish_reason ?? (text ? undefined : finishReason);
      timer.finished(Boolean(finishReason));
      // Each delta holds a token at least: past the cap, the server ignored `max_tokens`. The reply
      // is cut here, as the server would have cut it, and the connection closes, so it stops too.
      if (counts.deltas + counts.thoughts + callPieces + (text ? 1 : 0) > reading.maxTokens) {
        finishReason = 'length';
        last = { ...last, usage: { ...last.usage, completion_tokens: reading.maxTokens } };
        break;
      }
      // The model's first piece, whatever it is (a thought, a call's, text): the prompt was read by then,
      // and the speed of what follows counts every token it wrote, those held back too.
      if (newCallPieces > 0 || text || apart) firstTokenAt ??= performance.now();
      if (apart) yield { type: 'thinking', text: apart };
      const piece = text ? unopened.read(text) : { thought: false };
      if (piece.thought) {
        counts.thoughts += 1;
        // Text read as thoughts is held; the thought is given whole as it closes.
        yield piece.closed ? { type: 'thinking', text: piece.closed } : { type: 'thinking' };
      }
      if (!piece.text) {
        // More of the reply came that is held until its end (a call's pieces): no text, but no
        // silence either, which the panel would count as a server that stalled.
        if (newCallPieces > 0 || (text && !piece.thought)) yield { type: 'text-delta', text: '' };
        continue;
      }
      firstTokenAt ??= performance.now();
      counts.deltas += 1;
      yield { type: 'text-delta', text: piece.text };
      // The time the reader took over that delta is not the server's silence.
      timer.touch();
    }
  } catch (error) {
    if (!endWasSaid(finishReason, error, request) && !isTurnOver(request.signal.reason)) {
      // What the model thought until the failure is kept for the trace, as thoughts sent apart are.
      const { thoughts } = unopened.end(true);
      if (thoughts && !request.signal.aborted) yield { type: 'thinking', text: thoughts };
      throw readFailure(error, request, address, timer);
    }
  }
  // Text held as thoughts that no `</think>` closed was the answer, unless the reply was cut off.
  const { answer, thoughts } = request.signal.aborted ? {} : unopened.end(finishReason === 'length');
  if (thoughts) yield { type: 'thinking', text: thoughts };
  if (answer) {
    firstTokenAt ??= performance.now();
    counts.deltas += 1;
    yield { type: 'text-delta', text: answer };
  }
  const calls = request.signal.aborted ? '' : toolCalls.text();
  if (calls) {
    firstTokenAt ??= performance.now();
    counts.deltas += 1;
    yield { type: 'text-delta', text: calls };
  }
  yield* replyEnd(request, reading, { counts, last, finishReason, sawDone, firstTokenAt });
}

/** A chat completion sent whole (`stream: false` answers), read as one delta. */
async function* readWholeReply(response: Response, request: ModelRequest, reading: ReplyReading): AsyncGenerator<ModelChunk> {
  let body: CompletionChunk | undefined;
  try {
    body = parseChunk(await response.text());
  } catch (error) {
    throw readFailure(error, request, reading.address, reading.timer);
  }
  if (request.signal.aborted) return;
  if (body?.error) throw streamError(reading, body.error);
  const choice = body?.choices?.[0];
  const toolCalls = createServerToolCalls();
  toolCalls.add(choice?.message?.tool_calls);
  const calls = toolCalls.text();
  const thoughts = thoughtText(choice?.message);
  // A message with calls, or only thoughts, may have no content at all (null), as OpenAI's own API sends it.
  const text = contentText(choice?.message?.content) ?? (calls || thoughts ? '' : undefined);
  if (typeof text !== 'string') throw replyUnreadable(reading.address);
  const firstTokenAt = performance.now();
  if (thoughts) yield { type: 'thinking', text: thoughts };
  if (text) yield { type: 'text-delta', text };
  if (calls) yield { type: 'text-delta', text: text ? `\n${calls}` : calls };
  // Its figures come before a cut-off, as a stream's do.
  yield { type: 'usage', usage: serverUsage(body ?? {}, { startedAt: reading.startedAt, firstTokenAt, endedAt: firstTokenAt }) };
  // One that went on past the model's own turn to the limit was whole at the cut.
  if (choice?.finish_reason === 'length' && !isTurnOver(request.signal.reason)) throw lengthError(body ?? {}, reading, !text && isThought(choice.message));
}

/**
 * A delta's text: a string, or a list of parts (`[{type: "text", text}]`, as some proxies send
 * content); anything else holds none.
 */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.flatMap((part: unknown) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? [(part as { text: string }).text] : []));
  return parts.length > 0 ? parts.join('') : undefined;
}

/**
 * A reply the server said had ended, whole or at its length limit, ends as it said, though the
 * connection broke before `[DONE]`: a whole one is the answer, a cut one says it was cut off.
 */
function endWasSaid(finishReason: string | undefined, error: unknown, request: ModelRequest): boolean {
  return finishReason !== undefined && !(error instanceof EngineError) && !request.signal.aborted;
}

/** The thoughts a delta or message holds apart from its text (Ollama's field, or llama.cpp's and vLLM's), where it holds any. */
function thoughtText(message: Thoughts | undefined): string | undefined {
  const words = (field: unknown) => (typeof field === 'string' && field !== '' ? field : undefined);
  return words(message?.reasoning) ?? words(message?.reasoning_content);
}

function isThought(message: Thoughts | undefined): boolean {
  return thoughtText(message) !== undefined;
}

/** Stop stays the loop's own abort; a silent server or a broken connection says what happened. */
function readFailure(error: unknown, request: ModelRequest, address: string, timer: IdleTimer): unknown {
  if (request.signal.aborted) return error;
  if (error instanceof EngineError) return error;
  if (timer.expired) return serverStalled(address, timer.expired, timer.waitedMs);
  return connectionBroken(address);
}

function parseChunk(data: string): CompletionChunk | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as CompletionChunk) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The words of a chunk that is an error itself rather than a piece of the reply: vLLM's
 * (`"object": "error"`), or a server's `event: error` whose data holds only a message.
 */
function errorChunkWords(chunk: CompletionChunk): { message: string } | undefined {
  if (typeof chunk.message !== 'string' || (chunk.choices !== undefined && chunk.object !== 'error')) return undefined;
  return { message: chunk.message };
}

function streamError({ address, model }: ReplyReading, error: NonNullable<CompletionChunk['error']>): EngineError {
  const message = typeof error === 'string' ? error : (error.message ?? 'unknown error');
  // An error inside a reply the server took comes of the reply itself: the words of any server count.
  const tooLong = contextRefusal(error, message, serverModelLabel(address, model), { loose: true });
  if (tooLong) return tooLong;
  return new EngineError(
    'unavailable',
    `The server at ${serverHost(address)} stopped the reply: ${sentence(message.slice(0, 200))}`,
    'Check the server\'s own log, then send your request again.',
    logHintOnOptions('Try it'),
  );
}

/** A server's words as a sentence of the message (see asSentence). */
function sentence(words: string): string {
  return asSentence(words, 'it gave no reason.');
}
