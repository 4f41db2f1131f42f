import type { EngineStatus, SessionState, ToolCard, Turn } from '@/lib/agent/session-state';

export const tabId = 7;

export function engineStatus(overrides: Partial<EngineStatus> = {}): EngineStatus {
  return { engineId: 'webllm', engineLabel: 'WebLLM', model: 'Qwen3-1.7B-q4f16_1', state: 'ready', ...overrides };
}

export function sessionState(overrides: Partial<SessionState> = {}): SessionState {
  return {
    tabId,
    url: 'https://shop.example/mugs',
    origin: 'https://shop.example',
    turns: [],
    running: false,
    toolCount: 3,
    pageReachable: true,
    suggestions: [],
    engine: engineStatus(),
    siteAllowed: false,
    agentOff: false,
    agentOffBy: [],
    ...overrides,
  };
}

export function turn(overrides: Partial<Turn> = {}): Turn {
  return { id: 'turn-1', request: 'add two mugs to the cart', items: [], startedAt: 1_000, ...overrides };
}

export function toolCard(overrides: Partial<ToolCard> = {}): ToolCard {
  return { kind: 'tool', callId: 'call-1', name: 'add_to_cart', arguments: { product: 'mug', quantity: 2 }, state: 'running', ...overrides };
}
