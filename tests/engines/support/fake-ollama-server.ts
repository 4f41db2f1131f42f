import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOllamaOptions {
  models?: string[];
  replies: readonly string[];
  /** Origins allowed to call (Ollama's OLLAMA_ORIGINS); others get 403. Absent: all allowed. */
  allowedOrigins?: readonly string[];
  /** Sends no CORS headers at all, and refuses a preflight (405), as a server made for no browser does. */
  noCors?: boolean;
  /** Characters per streamed chunk. */
  chunkSize?: number;
  /** The reply stops after this many tokens with `finish_reason: "length"` (num_predict, n_predict). */
  lengthLimitTokens?: number;
  /** Streams the whole reply whatever `max_tokens` asked, as a server that ignores it does. */
  ignoresMaxTokens?: boolean;
  /** The reply fails at once the way some llama.cpp builds say it: an `error:` line, then `data: [DONE]`. */
  errorEventMessage?: string;
  /** The `type` of that error: llama.cpp's `exceed_context_size_error` unless set. */
  errorEventType?: string;
  /**
   * The model's context, as llama.cpp's `-c` sets it: a prompt of more tokens (each four characters
   * of its messages, the way `qwenTokens` would be too slow here) is refused with HTTP 400 and
   * llama.cpp's `exceed_context_size_error`; a reply that fills the rest stops there with
   * `finish_reason: "length"`, as llama.cpp does without context shift.
   */
  contextTokens?: number;
  /**
   * Answers a chat request other than as a stream: the whole completion as JSON (a server that
   * ignores `stream: true`), a web page (an address that is a site or a proxy), or SSE lines of
   * data that is not JSON (then `data: [DONE]`, or the end of the body without it); the whole
   * completion as JSON with no content type; a JSON error under the stream's type (a proxy, or a
   * server whose runner died); an `error:` line that ends the body without a line break; plain
   * text (a proxy's words under HTTP 200); Ollama's own NDJSON (its native API behind a rewrite);
   * the reply (a JSON list of `{name, arguments}`) as OpenAI's `tool_calls`, streamed in pieces or
   * whole, with no content, as a server that parses the model's calls itself sends them.
   */
  answerAs?:
    | 'whole-json'
    | 'web-page'
    | 'unreadable-stream'
    | 'unreadable-stream-unended'
    | 'untyped-whole-json'
    | 'json-error-as-stream'
    | 'error-line-unended'
    | 'plain-text'
    | 'ndjson'
    | 'tool-calls-stream'
    | 'tool-calls-whole';
  /**
   * Answers `GET /v1/models` other than with the list: a web page (a router's, or a site on the
   * wrong port), text that is not JSON, JSON without a `data` list, HTTP 500 (a model that
   * failed to load), or never (it keeps the connection open, as a busy server does).
   */
  modelsAs?: 'web-page' | 'not-json' | 'no-list' | 'server-error' | 'silent';
  /**
   * Says the model's context the way one server does: llama.cpp's `/props`, Ollama's `/api/ps`
   * (only once a reply has loaded the model) or LM Studio's `/api/v0/models/{model}`.
   */
  saysContext?: { as: 'llama.cpp' | 'ollama' | 'lm-studio'; tokens: number };
  /**
   * Whose models the list says they are (`owned_by`): the server's own word where `saysContext`
   * names one (llama.cpp's "llamacpp", LM Studio's "organization_owner"), else Ollama's "library".
   */
  ownedBy?: string;
  /** More fields in each model of the list, as vLLM's `max_model_len` or llama.cpp's `meta`. */
  modelFields?: Record<string, unknown>;
  /** Refuses `reasoning_effort` with HTTP 400, as Ollama does for a model that cannot think. */
  refuseReasoningEffort?: boolean;
  /**
   * Refuses a request with any of these fields, as a strict server refuses arguments it does not
   * know: HTTP 400 in OpenAI's words, or 422 as a FastAPI app says it.
   */
  refuseFields?: { fields: string[]; as: 'openai' | 'fastapi' };
  /**
   * Streams the model's thoughts in `delta.reasoning` first, as Ollama does: this many, this far
   * apart. `toTheLimit`: they use up the reply's length, which stops with `length` before any text.
   */
  reasoning?: { chunks: number; intervalMs: number; toTheLimit?: boolean };
  /** Reads the prompt at this many tokens a second before it answers, headers and all, as a server on a CPU does. */
  promptTokensPerSecond?: number;
  /** Stops sending and leaves the connection open: before the response's headers, or after this many deltas. */
  stall?: 'before-headers' | { afterDeltas: number };
  /** Ends the body after this many deltas: closed cleanly without `[DONE]`, or broken off. */
  cut?: { afterDeltas: number; how: 'close' | 'break'; /** A pause first, so that what was sent reaches the client before the break. */ afterMs?: number };
  /** Breaks the connection off once the reply and its finish reason are sent, before `[DONE]`. */
  breakAfterFinish?: boolean;
  /** Sends neither `[DONE]` nor the end of the body once the reply and its finish reason are sent, as a buffering proxy may. */
  hangAfterFinish?: boolean;
  /** Answers only requests that bring this key as `Authorization: Bearer`, as llama.cpp and vLLM started with `--api-key` do; others get HTTP 401. */
  apiKey?: string;
}

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  max_tokens?: number;
  reasoning_effort?: string;
  chat_template_kwargs?: Record<string, unknown>;
}

/**
 * A local HTTP server that answers like Ollama's OpenAI-compatible API: `GET /v1/models`, and
 * `POST /v1/chat/completions` streamed as SSE chunks, a final chunk, a usage chunk when asked
 * for, and `data: [DONE]`; CORS headers for an origin it allows, 403 for one it does not; 404
 * for a model it lacks. It can also misbehave the ways real servers do: refuse `reasoning_effort`,
 * think aloud in `delta.reasoning`, go silent, or end the body in the middle of a reply.
 */
export async function startFakeOllama(options: FakeOllamaOptions) {
  const models = options.models ?? ['qwen3:1.7b', 'llama3.2:3b'];
  const requests: ChatRequestBody[] = [];
  /** Chat requests answered with an HTTP error instead of a reply. */
  const refused: ChatRequestBody[] = [];
  const origins: (string | undefined)[] = [];
  /** The `Authorization` header of each request, as it came. */
  const authorizations: (string | undefined)[] = [];
  /** Replies whose connection the client closed before the reply ended. */
  const closedByClient: ChatRequestBody[] = [];
  /** The path of each GET request, in order. */
  const asked: string[] = [];

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    if (request.method === 'GET') asked.push(request.url ?? '');
    origins.push(request.headers.origin);
    authorizations.push(request.headers.authorization);
    const origin = request.headers.origin;
    if (origin && options.allowedOrigins && !options.allowedOrigins.some((allowed) => originMatches(allowed, origin))) {
      response.writeHead(403).end();
      return;
    }
    if (options.noCors && request.method === 'OPTIONS') {
      response.writeHead(405).end();
      return;
    }
    // An allowed origin gets CORS headers, and its preflight an empty answer, as Ollama gives them.
    if (origin && !options.noCors) {
      response.setHeader('access-control-allow-origin', origin);
      response.setHeader('access-control-allow-headers', 'authorization, content-type, accept, user-agent');
      response.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    }
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendJson(response, 401, { error: { code: 401, message: 'Invalid API Key', type: 'authentication_error' } });
      return;
    }
    if (request.method === 'GET' && request.url === '/v1/models' && options.modelsAs) {
      answerModelsAs(response, options.modelsAs);
      return;
    }
    if (request.method === 'GET' && request.url === '/v1/models') {
      const ownedBy = options.ownedBy ?? { 'llama.cpp': 'llamacpp', 'lm-studio': 'organization_owner', ollama: 'library' }[options.saysContext?.as ?? 'ollama'];
      const data = models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: ownedBy, ...options.modelFields }));
      sendJson(response, 200, { object: 'list', data });
      return;
    }
    const says = options.saysContext;
    if (request.method === 'GET' && says?.as === 'llama.cpp' && request.url === '/props') {
      sendJson(response, 200, { default_generation_settings: { n_ctx: says.tokens }, total_slots: 1 });
      return;
    }
    if (request.method === 'GET' && says?.as === 'ollama' && request.url === '/api/ps') {
      const loaded = requests.length > 0 ? [{ name: requests[0]!.model, model: requests[0]!.model, context_length: says.tokens }] : [];
      sendJson(response, 200, { models: loaded });
      return;
    }
    if (request.method === 'GET' && says?.as === 'lm-studio' && request.url?.startsWith('/api/v0/models/')) {
      sendJson(response, 200, { id: decodeURIComponent(request.url.slice('/api/v0/models/'.length)), state: 'loaded', max_context_length: 131_072, loaded_context_length: says.tokens });
      return;
    }
    if (request.method === 'POST' && request.url === '/v1/chat/completions') {
      const body = JSON.parse(await readBody(request)) as ChatRequestBody;
      if (!models.includes(body.model)) {
        sendJson(response, 404, { error: { message: `model "${body.model}" not found, try pulling it first`, type: 'api_error' } });
        return;
      }
      const unknown = options.refuseFields?.fields.find((field) => field in body);
      if (options.refuseFields && unknown !== undefined) {
        refused.push(body);
        if (options.refuseFields.as === 'openai') sendJson(response, 400, { error: { message: `Unrecognized request argument supplied: ${unknown}`, type: 'invalid_request_error' } });
        else sendJson(response, 422, { detail: [{ type: 'extra_forbidden', loc: ['body', unknown], msg: 'Extra inputs are not permitted', input: body[unknown as keyof ChatRequestBody] }] });
        return;
      }
      if (options.refuseReasoningEffort && body.reasoning_effort !== undefined) {
        refused.push(body);
        sendJson(response, 400, { error: { message: `think value "${body.reasoning_effort}" is not supported for this model`, type: 'invalid_request_error' } });
        return;
      }
      const promptTokens = promptTokensOf(body);
      if (options.contextTokens !== undefined && promptTokens > options.contextTokens) {
        refused.push(body);
        const message = `request (${promptTokens} tokens) exceeds the available context size (${options.contextTokens} tokens), try increasing it`;
        sendJson(response, 400, { error: { code: 400, message, type: 'exceed_context_size_error', n_prompt_tokens: promptTokens, n_ctx: options.contextTokens } });
        return;
      }
      const reply = options.replies[requests.length] ?? '(no more replies)';
      requests.push(body);
      if (options.answerAs === 'whole-json') {
        // Its own length limit cuts a whole completion as it does a stream.
        const limit = (options.lengthLimitTokens ?? Infinity) * 4;
        const message = { role: 'assistant', content: reply.slice(0, limit) };
        const finish = reply.length > limit ? 'length' : 'stop';
        sendJson(response, 200, { id: 'chatcmpl-1', object: 'chat.completion', model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 12, completion_tokens: 5 } });
        return;
      }
      if (options.answerAs === 'untyped-whole-json') {
        const message = { role: 'assistant', content: reply };
        response.writeHead(200).end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: body.model, choices: [{ index: 0, message, finish_reason: 'stop' }] }));
        return;
      }
      if (options.answerAs === 'json-error-as-stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end(JSON.stringify({ error: { message: 'model runner has unexpectedly stopped' } }, null, 2));
        return;
      }
      if (options.answerAs === 'error-line-unended') {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end('error: {"message":"the model crashed"}');
        return;
      }
      if (options.answerAs === 'web-page') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><head><title>Welcome to nginx!</title></head><body>Welcome</body></html>');
        return;
      }
      if (options.answerAs === 'unreadable-stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {not json\n\ndata: [DONE]\n\n');
        return;
      }
      if (options.answerAs === 'plain-text') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found');
        return;
      }
      if (options.answerAs === 'ndjson') {
        const line = (content: string, done: boolean) => `${JSON.stringify({ model: body.model, message: { role: 'assistant', content }, done })}\n`;
        response.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(line(reply, false) + line('', true));
        return;
      }
      // Only a reply that is a list of calls: the model's answer after them streams as text.
      if ((options.answerAs === 'tool-calls-whole' || options.answerAs === 'tool-calls-stream') && reply.startsWith('[')) {
        const calls = (JSON.parse(reply) as { name: string; arguments: unknown }[]).map((call, index) => ({
          index,
          id: `call_${index}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
        const base = { id: 'chatcmpl-7', model: body.model };
        if (options.answerAs === 'tool-calls-whole') {
          const message = { role: 'assistant', content: null, tool_calls: calls };
          sendJson(response, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'tool_calls' }] });
          return;
        }
        const event = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        let stream = event({ role: 'assistant', content: null });
        for (const call of calls) {
          stream += event({ tool_calls: [{ ...call, function: { name: call.function.name, arguments: '' } }] });
          for (let start = 0; start < call.function.arguments.length; start += 5) {
            stream += event({ tool_calls: [{ index: call.index, function: { arguments: call.function.arguments.slice(start, start + 5) } }] });
          }
        }
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end(`${stream}${event({}, 'tool_calls')}data: [DONE]\n\n`);
        return;
      }
      if (options.answerAs === 'unreadable-stream-unended') {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {"oops": tru\n\ndata: [[[\n\n');
        return;
      }
      response.on('close', () => {
        if (!response.writableFinished) closedByClient.push(body);
      });
      await streamReply(response, body, reply, options);
      return;
    }
    sendJson(response, 404, { error: 'page not found' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `http://127.0.0.1:${port}/v1`,
    requests,
    refused,
    origins,
    authorizations,
    closedByClient,
    asked,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The prompt's tokens as this server counts them: four characters of its messages each. */
function promptTokensOf(body: ChatRequestBody): number {
  return Math.ceil(body.messages.reduce((sum, message) => sum + message.content.length, 0) / 4);
}

async function streamReply(response: ServerResponse, body: ChatRequestBody, fullReply: string, options: FakeOllamaOptions) {
  if (options.stall === 'before-headers') return;
  if (options.promptTokensPerSecond) await new Promise((resolve) => setTimeout(resolve, (promptTokensOf(body) / options.promptTokensPerSecond!) * 1_000));
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  if (options.errorEventMessage !== undefined) {
    response.write(`error: ${JSON.stringify({ code: 400, message: options.errorEventMessage, type: options.errorEventType ?? 'exceed_context_size_error' })}\n\n`);
    response.end('data: [DONE]\n\n');
    return;
  }
  const chunkSize = options.chunkSize ?? 6;
  // The reply stops at `max_tokens`, the server's own limit, or where it fills the model's context
  // (llama.cpp without context shift), whichever comes first.
  const room = options.contextTokens === undefined ? Infinity : options.contextTokens - promptTokensOf(body);
  const limitTokens = Math.min((options.ignoresMaxTokens ? undefined : body.max_tokens) ?? Infinity, options.lengthLimitTokens ?? Infinity, room);
  const thoughtToTheLimit = options.reasoning?.toTheLimit === true;
  const cut = thoughtToTheLimit || fullReply.length > limitTokens * 4;
  const reply = cut ? fullReply.slice(0, thoughtToTheLimit ? 0 : limitTokens * 4) : fullReply;
  const base = { id: 'chatcmpl-42', object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, system_fingerprint: 'fp_ollama' };
  const send = (value: unknown) => response.write(`data: ${JSON.stringify(value)}\n\n`);
  for (let index = 0; index < (options.reasoning?.chunks ?? 0); index += 1) {
    send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '', reasoning: `Thinking step ${index}. ` }, finish_reason: null }] });
    await new Promise((resolve) => setTimeout(resolve, options.reasoning!.intervalMs));
  }
  for (let start = 0, deltas = 0; start < reply.length; start += chunkSize, deltas += 1) {
    if (typeof options.stall === 'object' && deltas === options.stall.afterDeltas) return;
    if (options.cut && deltas === options.cut.afterDeltas) {
      if (options.cut.afterMs) await new Promise((resolve) => setTimeout(resolve, options.cut!.afterMs));
      if (options.cut.how === 'close') response.end();
      else response.destroy();
      return;
    }
    send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: reply.slice(start, start + chunkSize) }, finish_reason: null }] });
    await new Promise((resolve) => setImmediate(resolve));
  }
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: cut ? 'length' : 'stop' }] });
  if (body.stream_options?.include_usage) {
    const promptTokens = promptTokensOf(body);
    const completionTokens = thoughtToTheLimit ? limitTokens : Math.ceil(reply.length / 4);
    send({ ...base, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } });
  }
  if (options.breakAfterFinish) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    response.destroy();
    return;
  }
  if (options.hangAfterFinish) return;
  response.end('data: [DONE]\n\n');
}

function answerModelsAs(response: ServerResponse, as: NonNullable<FakeOllamaOptions['modelsAs']>) {
  if (as === 'silent') return;
  if (as === 'web-page') {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><head><title>Router login</title></head><body>Log in</body></html>');
  } else if (as === 'server-error') {
    sendJson(response, 500, { error: { message: 'model failed to load: out of memory', code: 500 } });
  } else if (as === 'not-json') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"this is": not json at all ]]]');
  } else {
    sendJson(response, 200, { status: 'ok' });
  }
}

function originMatches(pattern: string, origin: string): boolean {
  if (pattern.endsWith('*')) return origin.startsWith(pattern.slice(0, -1));
  return pattern === origin;
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}
