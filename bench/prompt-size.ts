import type { ChatMessage, ToolDescriptor } from '@webmcp-agents/chat';
import {
  compactSchema,
  defaultInstructions,
  fitShownTools,
  hermesFormat,
  rankTools,
  rankToolsWithScores,
  runLocalAgent,
  searchScorer,
  type AgentEvent,
  systemPromptRoom,
  type CompactTool,
  type ShownTool,
} from '@webmcp-agents/local-agent';
import { createReplayEngine } from '../lib/engines/replay-engine';
import type { ActiveRun } from '../lib/agent/active-run';
import { SessionHistory } from '../lib/agent/session-history';
import type { Turn } from '../lib/agent/session-state';
import type { BenchSection } from './bench-section';
import { qwenTokens, renderQwenChat, sharedPrefixLength } from './qwen-tokens';
import { readRankSet } from './rank-sets';
import { benchTokenEstimate } from './token-estimate';
import { runDirectly } from './run-directly';

const rawTool = (tool: ToolDescriptor): CompactTool => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema });
const compact = (tool: ToolDescriptor): CompactTool => ({
  name: tool.name,
  description: tool.description.slice(0, 400),
  parameters: compactSchema(tool.inputSchema),
});
const systemTokens = (tools: CompactTool[]) => qwenTokens(hermesFormat.systemPrompt(tools, defaultInstructions)).length;

/** The system prompt's size in Qwen3 tokens: the whole pool raw and compacted, and the ranked top 8. */
export async function benchPromptSize(): Promise<BenchSection[]> {
  const mcp = readRankSet('rank-mcp.json');
  const bfcl = readRankSet('rank-bfcl.json');
  if (!mcp || !bfcl) return [];
  const top8 = mcp.queries.map((query) => systemTokens(rankTools(mcp.pool, query.query, { max: 8 })));
  // As the agent shows them to a model with a 4,096-token context (the catalogue's): fitted.
  const promptFor = (shown: readonly ShownTool[]) => hermesFormat.systemPrompt(shown.map(({ tool }) => tool), defaultInstructions);
  const fitted = mcp.queries.map((query) => fitShownTools(rankToolsWithScores(mcp.pool, query.query, { max: 8 }), systemPromptRoom(4_096, query.query), promptFor).shown);
  const fittedTokens = fitted.map((shown) => systemTokens(shown.map(({ tool }) => tool)));
  const pageTools = bfcl.pool.slice(0, 50);
  const page8 = bfcl.queries.slice(0, 50).map((query) => systemTokens(rankTools(pageTools, query.query, { max: 8 })));
  const page8Search = bfcl.queries
    .slice(0, 50)
    .map((query) => systemTokens(rankTools(pageTools, query.query, { max: 8, scorer: searchScorer })));
  const sizes: BenchSection = {
    title: 'Prompt size (Qwen3 tokens, Hermes format, system prompt with the default instructions)',
    rows: [
      { prompt: `rank-mcp pool, all ${mcp.pool.length} tools, raw schemas`, tokens: systemTokens(mcp.pool.map(rawTool)) },
      { prompt: `rank-mcp pool, all ${mcp.pool.length} tools, compacted`, tokens: systemTokens(mcp.pool.map(compact)) },
      { prompt: 'rank-mcp, top 8 after ranking (median over the queries)', tokens: median(top8) },
      { prompt: 'rank-mcp, top 8 after ranking (largest)', tokens: Math.max(...top8) },
      { prompt: 'rank-mcp, top 8 fitted to a 4,096-token context (median)', tokens: median(fittedTokens) },
      { prompt: 'rank-mcp, top 8 fitted to a 4,096-token context (largest)', tokens: Math.max(...fittedTokens) },
      { prompt: '50 page tools (rank-bfcl), top 8 (median)', tokens: median(page8) },
      { prompt: '50 page tools (rank-bfcl), top 8 (largest)', tokens: Math.max(...page8) },
      { prompt: '50 page tools, top 8 by the extension\'s ranker (median)', tokens: median(page8Search) },
      { prompt: '50 page tools, top 8 by the extension\'s ranker (largest)', tokens: Math.max(...page8Search) },
    ],
    notes: [
      'Target (issue 7): with 50 realistic page tools and max 8, the system prompt ≤ 1,200 Qwen3 tokens.',
      `Fitted: the agent keeps, best first, the tools whose prompt leaves room for the request, a reply and some tool results (\`fitShownTools\`); it kept all 8 for ${fitted.filter((shown) => shown.length === 8).length} of ${fitted.length} rank-mcp queries, ${Math.min(...fitted.map((shown) => shown.length))} at the fewest. It measures with \`estimateTokens\`, cautious (see the token estimate below), so that a run still has room for its tool results at the second step.`,
    ],
  };
  return [sizes, await benchPrefixReuse(pageTools), await benchFollowUp(pageTools.slice(0, 5)), benchTokenEstimate()];
}

/**
 * Runs a three-step run and counts, for each step, the prompt tokens an engine with a prefix
 * cache must newly prefill, beside the tokens of the messages that are new since the last step.
 * The replies start as Qwen3 told not to think writes them under WebLLM (an empty reasoning
 * block), and the engine's cache holds each reply as the model wrote it, as WebLLM's does.
 */
async function benchPrefixReuse(tools: ToolDescriptor[]): Promise<BenchSection> {
  const first = tools[0]!;
  const reply = `<think>\n\n</think>\n\n<tool_call>\n{"name": "${first.name}", "arguments": {}}\n</tool_call>`;
  const replies = [reply, reply.replace('{}', '{"page": 2}'), '<think>\n\n</think>\n\nAll done.'];
  const model = createReplayEngine(replies);
  await runLocalAgent({
    request: `Please ${first.description.toLowerCase()}`,
    model,
    format: hermesFormat,
    getTools: () => tools,
    executeTool: async () => ({ text: JSON.stringify({ ok: true, items: [1, 2, 3] }) }),
    scorer: searchScorer,
  });
  const rows = model.requests.map((request, index) => {
    const tokens = qwenTokens(renderQwenChat(request.messages));
    if (index === 0) return { step: 1, 'prompt tokens': tokens.length, 'new tokens to prefill': tokens.length, 'new messages (tokens)': tokens.length };
    const previous = model.requests[index - 1]!;
    const previousReply: ChatMessage = { role: 'assistant', content: replies[index - 1]! };
    const cached = qwenTokens(renderQwenChat([...previous.messages, previousReply]));
    const newMessages = request.messages.slice(previous.messages.length);
    return {
      step: index + 1,
      'prompt tokens': tokens.length,
      'new tokens to prefill': tokens.length - sharedPrefixLength(cached, tokens),
      'new messages (tokens)': qwenTokens(renderQwenChat(newMessages)).length,
    };
  });
  return {
    title: 'Prefix reuse across the steps of one run (50 page tools, max 8)',
    rows,
    notes: [
      'Each reply starts with the empty reasoning block Qwen3 writes under WebLLM when told not to think; the cache holds the reply as written, as WebLLM keeps it, and the agent sends it back so. Before stop 49 the agent took the block out: 54 and 58 new tokens here, counted by shared token prefix, and WebLLM, which reuses its cache only where the messages match whole, prefilled every step whole.',
      'The system prompt stays byte-identical while the shown tools do not change, so an engine that keeps its KV cache only prefills what is new.',
      'Target (issue 7): new prompt tokens on a step whose tools did not change ≤ the size of the new messages.',
    ],
  };
}

/**
 * A request and a follow-up on a page of five tools, the history as the tab's session gives it
 * (`SessionHistory`): the tokens the follow-up's first step must newly prefill, with WebLLM's rule
 * (it reuses its cache only where the messages before the last are exactly those it holds, its
 * last reply as written) and with a cache that reuses any shared token prefix (llama.cpp's,
 * Ollama's).
 */
async function benchFollowUp(tools: ToolDescriptor[]): Promise<BenchSection> {
  const first = tools[0]!;
  const think = '<think>\n\n</think>\n\n';
  const replies = [`${think}<tool_call>\n{"name": "${first.name}", "arguments": {}}\n</tool_call>`, `${think}Done: three items.`, `${think}The second one.`];
  const rows = [];
  // The history of the agent before stop 50 is what a follow-up still reads where the tools changed.
  for (const [label, wholeRun] of [['requests and answers (before stop 50)', false], ['the request before as the model read it', true]] as const) {
    const model = createReplayEngine(replies);
    const history = new SessionHistory();
    history.enter('https://shop.example');
    let lastStart: Extract<AgentEvent, { type: 'step-start' }> | undefined;
    // As the extension runs it: the tools and results fitted to the default model's 4,096-token context.
    const run = (request: string, given: ChatMessage[]) =>
      runLocalAgent({
        request,
        history: given,
        model,
        format: hermesFormat,
        contextTokens: 4_096,
        getTools: () => tools,
        executeTool: async () => ({ text: JSON.stringify({ ok: true, items: [1, 2, 3] }) }),
        scorer: searchScorer,
        onEvent: (event) => void (event.type === 'step-start' && (lastStart = event)),
      });
    const reader = 'replay:qwen3:hermes';
    const request = `Please ${first.description.toLowerCase()}`;
    const result = await run(request, history.forRun('https://shop.example', 4_096, { tools, request, reader }).history);
    const read = { prompt: lastStart!.messages, allToolsShown: !lastStart!.notShownCount, reader, contextTokens: 4_096, tools };
    history.remember({ request, items: [] } as unknown as Turn, result, {} as ActiveRun, read);
    const followUp = 'Which one is second?';
    await run(followUp, history.forRun('https://shop.example', 4_096, wholeRun ? { tools, request: followUp, reader } : undefined).history);
    const held = [...model.requests[1]!.messages, { role: 'assistant' as const, content: replies[1]! }];
    const sent = model.requests[2]!.messages;
    const tokens = qwenTokens(renderQwenChat(sent));
    const matchesWhole = JSON.stringify(sent.slice(0, -1)) === JSON.stringify(held);
    rows.push({
      history: label,
      'prompt tokens': tokens.length,
      'new tokens (WebLLM)': matchesWhole ? qwenTokens(renderQwenChat(sent.slice(-1))).length : tokens.length,
      'new tokens (shared prefix)': tokens.length - sharedPrefixLength(qwenTokens(renderQwenChat(held)), tokens),
    });
  }
  return {
    title: 'Prefix reuse at the first step of a follow-up request (5 page tools)',
    rows,
    notes: [
      'Each request\'s history as `SessionHistory.forRun` gives it. From stop 50, where the page offers the same few tools (no more than the model is shown, so the system prompt is the same), the follow-up reads the last run as the model read it (its call, the result and the reply as written): WebLLM then prefills only the new request. Before, it read the requests and answers only, and WebLLM, which reuses its cache only where the messages match whole, prefilled the whole prompt; as it still does where the tools changed, where the page offers more tools than are shown (ranked anew for each request), or where the last run would take over a quarter of the context.',
      'A server that reuses any shared prefix (llama.cpp, Ollama) prefilled little either way: the system prompt and the request before came first in both.',
    ],
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

await runDirectly(import.meta.url, benchPromptSize);
