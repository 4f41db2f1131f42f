import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../lib/engines/engine';
import { createOpenAiEngine } from '../../lib/engines/openai/openai-engine';
import { normalizeServerAddress } from '../../lib/engines/openai/server-address';
import { contextRefusal } from '../../lib/engines/openai/context-refusal';
import { connectionBroken, notAnApi, replyUnfinished, replyUnreadable, serverDown, serverRefused, serverSilent, serverStalled } from '../../lib/engines/openai/server-errors';
import { defaultSettings } from '../../lib/settings';
import { startFakeOllama } from './support/fake-ollama-server';

const address = 'http://localhost:11434/v1';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** The error a model load against a fake server ends with. */
async function loadError(models: string[], model: string): Promise<unknown> {
  const server = await startFakeOllama({ replies: [], models });
  servers.push(server);
  const engine = createOpenAiEngine({ ...defaultSettings, openaiBaseUrl: server.address, model });
  return engine.load(() => {}).then(() => undefined, (error: unknown) => error);
}

/** Every error the local server engine words, as the panel and the options page get them. */
async function everyServerError(): Promise<EngineError[]> {
  const refused = (status: number, model?: string) => serverRefused(address, new Response('{"error": "no"}', { status }), model);
  const errors = [
    serverDown(address),
    serverStalled(address, 'first-byte', 30_000),
    serverStalled(address, 'between-chunks', 30_000),
    serverSilent(address, 10_000),
    connectionBroken(address),
    replyUnfinished(address),
    replyUnreadable(address),
    replyUnreadable(address, 'Connect'),
    notAnApi(address),
    notAnApi(address, 'a list of models'),
    await refused(403),
    await refused(401),
    await refused(404, 'mistral:7b'),
    await refused(404),
    await refused(500),
    await refused(500, 'qwen3:1.7b'),
    await refused(429, 'qwen3:1.7b'),
    await serverRefused(address, new Response('{"error": "Loading model"}', { status: 503 })),
    await serverRefused(address, new Response('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>', { status: 502 })),
    await loadError([], ''),
    await loadError(['qwen3:1.7b'], 'mistral:7b'),
    (() => {
      try {
        normalizeServerAddress('olama');
      } catch (error) {
        return error;
      }
    })(),
  ];
  for (const error of errors) expect(error).toBeInstanceOf(EngineError);
  return errors as EngineError[];
}

describe('the local server engine\'s error wording', () => {
  // Hints are shown as text in the panel and on the options page: Markdown would show raw.
  it('writes commands as plain words, with no Markdown backticks', async () => {
    for (const error of await everyServerError()) {
      for (const words of [error.message, error.hint, error.optionsHint ?? '']) expect(words).not.toContain('`');
    }
    expect(serverDown(address).hint).toContain('for Ollama, run ollama serve');
  });

  it('says a model is missing only where the server\'s 404 says so, and else gives the server\'s own words', async () => {
    const refused404 = (body: object | string) => serverRefused(address, new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 404 }), 'qwen3:1.7b');
    // LM Studio lists the model, but has none loaded.
    const notLoaded = await refused404({ error: 'No models loaded. Please load a model in the developer page or use the `lms load` command.' });
    expect(notLoaded.message).toBe(
      'The server at localhost:11434 answered HTTP 404: No models loaded. Please load a model in the developer page or use the `lms load` command.',
    );
    expect([notLoaded.hint, notLoaded.optionsHint]).toEqual([
      'Do what the server says (load the model in it, say), then send your request again.',
      'Do what the server says (load the model in it, say), then press Try it again.',
    ]);
    // Ollama's and vLLM's words for a model they do not have.
    for (const body of [{ error: 'model "qwen3:1.7b" not found, try pulling it first' }, { object: 'error', message: 'The model `qwen3:1.7b` does not exist.', type: 'NotFoundError', code: 404 }, '']) {
      expect((await refused404(body)).message).toBe('The server at localhost:11434 has no model called "qwen3:1.7b".');
    }
  });

  it("asks to wait for a server that is busy or loading (429, 503), as long as its Retry-After says, not to read its log", async () => {
    const limited = await serverRefused(address, new Response('{"error": "Rate limit reached for requests"}', { status: 429, headers: { 'retry-after': '30' } }), 'qwen3:1.7b');
    expect(limited.message).toBe('The server at localhost:11434 answered HTTP 429: Rate limit reached for requests. It is taking no more requests for now.');
    expect([limited.hint, limited.optionsHint]).toEqual(['Wait 30 seconds, as it asks, then send your request again.', 'Wait 30 seconds, as it asks, then press Try it again.']);
    const loading = await serverRefused(address, new Response('{"error": "Loading model"}', { status: 503, headers: { 'retry-after': 'soon' } }));
    expect(loading.message).toBe('The server at localhost:11434 answered HTTP 503: Loading model. It is busy, or still loading the model.');
    expect([loading.hint, loading.optionsHint]).toEqual(['Wait a moment, then send your request again.', 'Wait a moment, then press Connect again.']);
    const later = await serverRefused(address, new Response('', { status: 503, headers: { 'retry-after': new Date(Date.now() + 125_000).toUTCString() } }), 'qwen3:1.7b');
    expect(later.hint).toMatch(/^Wait 2 minutes \d+ seconds, as it asks, then send your request again\.$/);
    const tomorrow = await serverRefused(address, new Response('{"error": "Daily quota reached"}', { status: 429, headers: { 'retry-after': '86400' } }), 'qwen3:1.7b');
    expect(tomorrow.hint).toBe('It asks to wait more than an hour: wait that long, then send your request again.');
    // A proxy's 503 that says neither a wait nor a load: its server may be down, and the log says.
    const proxy = await serverRefused(address, new Response('<html><head><title>503 Service Temporarily Unavailable</title></head></html>', { status: 503 }), 'qwen3:1.7b');
    expect(proxy.hint).toBe("Check the server's own log, then send your request again.");
  });

  it('names a proxy\'s error page by its title, never quoting its markup', async () => {
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center>nginx/1.18.0</center></body></html>';
    const error = await serverRefused(address, new Response(page, { status: 502 }));
    expect(error.message).toBe('The server at localhost:11434 answered HTTP 502: 502 Bad Gateway.');
  });

  it('on the options page, never sends the person to the options', async () => {
    const errors = await everyServerError();
    for (const error of errors) expect(error.optionsHint ?? error.hint).not.toMatch(/\bthe options\b/);
    // The panel's words still point there: it has no address field of its own.
    expect(serverDown(address).hint).toContain('correct its address in the options');
    expect(serverDown(address).optionsHint).toBe(
      'Start your local server (for Ollama, run ollama serve; in LM Studio, start the server in its Developer tab; ' +
        'for llama.cpp, run llama-server), or correct the address, then press Connect again.',
    );
    // A server on another computer is not "your local server": it is named by its host.
    expect(serverDown('http://gpu-box.lan:11434/v1').hint).toMatch(/^Start the server on gpu-box\.lan \(for Ollama, run ollama serve;/);
  });

  it('tells an https address on this computer to try plain http, which local servers speak', () => {
    expect(serverDown('https://127.0.0.1:8080/v1').optionsHint).toBe(
      'Local servers speak plain http: try http://127.0.0.1:8080/v1. Else start your local server (for Ollama, run ollama serve; ' +
        'in LM Studio, start the server in its Developer tab; for llama.cpp, run llama-server), or correct the address, then press Connect again.',
    );
    // A server elsewhere may well speak https: nothing is said of it.
    expect(serverDown('https://gpu-box.lan/v1').hint).toMatch(/^Start the server on gpu-box\.lan/);
    expect(serverDown('http://localhost:11434/v1').hint).not.toContain('plain http');
  });

  it('asks whether a name that reads as localhost mistyped meant localhost, before sending the person to start a server there', () => {
    expect(serverDown('http://localhots:11434/v1').optionsHint).toBe(
      'Did you mean localhost? "localhots" names another computer. Else start the server on localhots (for Ollama, run ollama serve; ' +
        'in LM Studio, start the server in its Developer tab; for llama.cpp, run llama-server), or correct the address, then press Connect again.',
    );
    for (const slip of ['locahost', 'lcoalhost', 'localhostt', 'LOCALHOTS']) expect(serverDown(`http://${slip}:8080/v1`).hint).toMatch(/^Did you mean localhost\?/);
    // A computer with a name of its own is no slip.
    for (const name of ['gpu-box', 'lab', 'localhost.lan', 'lovelace']) expect(serverDown(`http://${name}:8080/v1`).hint).not.toContain('Did you mean');
  });

  // The options page sends no request of its own: Connect and Try it do, and are pressed again.
  it('on the options page, says which button to press again, never to send a request', async () => {
    for (const error of await everyServerError()) expect(error.optionsHint ?? error.hint).not.toMatch(/send your request/i);
    expect((await serverRefused(address, new Response('{"error": "out of memory"}', { status: 500 }))).optionsHint).toBe(
      "Check the server's own log, then press Connect again.",
    );
    expect((await serverRefused(address, new Response('{"error": "out of memory"}', { status: 500 }), 'qwen3:1.7b')).optionsHint).toBe(
      "Check the server's own log, then press Try it again.",
    );
  });
});

describe('which server errors say the prompt was longer than the model\'s context', () => {
  it.each([
    ['llama.cpp', { type: 'exceed_context_size_error', n_ctx: 2048 }, 'request (2300 tokens) exceeds the available context size (2048 tokens), try increasing it', 2048],
    // As LM Studio's users quote it (0.3.x), and as newer versions say it.
    ['LM Studio', undefined, 'Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input', 7866],
    ['LM Studio, newer', undefined, 'The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input.', 4096],
    ['an OpenAI-style server', { code: 'context_length_exceeded' }, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", 8192],
    // The prompt fits, but not with the reply: a shorter prompt is the cure.
    ['vLLM', undefined, "'max_tokens' or 'max_completion_tokens' is too large: 1024. This model's maximum context length is 4096 tokens and your request has 3300 input tokens (1024 > 4096 - 3300).", 4096],
    ['vLLM, a prompt alone too long', undefined, 'The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.', 4096],
    ['vLLM, newer', undefined, "The input (5000 tokens) is longer than the model's context length (4096 tokens).", 4096],
    ['a Mistral-style server', undefined, 'Prompt contains 5000 tokens, too large for model with 4096 maximum context length', 4096],
    ['Text Generation Inference', undefined, 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 5000 `inputs` tokens and 1024 `max_new_tokens`', 4096],
    ['Ollama', undefined, 'the input length exceeds the context length', undefined],
  ] as const)('%s', (_server, error, detail, contextTokens) => {
    expect(contextRefusal(error, detail, '"m"', { loose: false })).toMatchObject({ code: 'context-full', contextTokens });
  });

  it('reads a refusal for a prompt too long whatever status it comes with (TGI answers 422, Ollama 500), and says it once', async () => {
    const refused = (status: number, body: unknown) => serverRefused(address, new Response(JSON.stringify(body), { status }), 'qwen3:1.7b');
    const tgi = await refused(422, { error: 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 5000 `inputs` tokens and 1024 `max_new_tokens`', error_type: 'validation' });
    const ollama = await refused(500, { error: 'the input length exceeds the context length' });
    expect([tgi.code, ollama.code]).toEqual(['context-full', 'context-full']);
    expect(tgi).toMatchObject({ contextTokens: 4096 });
    // Other refusals keep their own words, with one full stop.
    const other = await refused(500, { error: { message: 'Out of memory.' } });
    expect(other.message).toBe('The server at localhost:11434 answered HTTP 500: Out of memory.');
  });

  it("reads a server fault that names the context as the server's, not as a prompt too long: only a 400 may say it in words of its own", async () => {
    const refused = (status: number, body: unknown) => serverRefused(address, new Response(JSON.stringify(body), { status }), 'qwen3:1.7b');
    const loading = await refused(500, { error: 'Failed to load model: context length of 32768 is too large for the memory available' });
    expect(loading).toMatchObject({ code: 'unavailable', message: 'The server at localhost:11434 answered HTTP 500: Failed to load model: context length of 32768 is too large for the memory available.' });
    expect((await refused(500, { error: 'KV cache allocation failed for n_ctx: 32768' })).code).toBe('unavailable');
    expect((await refused(422, { error: 'The context window exceeds the GPU memory' })).code).toBe('unavailable');
    expect((await refused(400, { error: 'The prompt exceeds the context window' })).code).toBe('context-full');
  });

  it("reads Text Generation Inference's limit on the prompt alone, and not its refusal of the reply's own length", async () => {
    const refused = (body: unknown) => serverRefused(address, new Response(JSON.stringify(body), { status: 422 }), 'qwen3:1.7b', 1_024);
    const prompt = await refused({ error: 'Input validation error: `inputs` must have less than 2048 tokens. Given: 3000', error_type: 'validation' });
    // Fitted to 2,048 tokens of prompt beside the 1,024 the reply was asked.
    expect(prompt).toMatchObject({ code: 'context-full', contextTokens: 3_072, message: 'This conversation no longer fits in the 2,048 prompt tokens the server allows "qwen3:1.7b".' });
    const reply = await refused({ error: 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 1512. Given: 30 `inputs` tokens and 3984 `max_new_tokens`', error_type: 'validation' });
    expect(reply.code).toBe('unavailable');
  });

  it.each([
    // The reply's own length fills the context: a shorter prompt would not help.
    "'max_tokens' or 'max_completion_tokens' is too large: 1024. This model's maximum context length is 1024 tokens and your request has 41 input tokens (1024 > 1024 - 41).",
    // The server's own settings.
    'Requested context size 32768 exceeds the maximum supported by the model (8192).',
    'model "m" not found, try pulling it first',
  ])('not: %s', (detail) => {
    expect(contextRefusal(undefined, detail, '"m"', { loose: true })).toBeUndefined();
  });
});
