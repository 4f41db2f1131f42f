// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mountPanel, type MountedPanel } from './mount-panel';
import { sessionState, tabId, toolCard, turn } from './session-fixtures';

let panel: MountedPanel | undefined;
afterEach(() => panel?.unmount());

const offButton = () => panel!.container.querySelector<HTMLButtonElement>('[data-testid="agent-off-here"]');
const onButton = () => panel!.find('agent-on') as HTMLButtonElement | null;
const detail = () => panel!.container.querySelector('.site-detail')?.textContent;

describe('turning the agent off on a site from the panel', () => {
  it('is a button under the site’s name, named for the site, that asks the background to turn it off there', async () => {
    panel = await mountPanel();
    const button = offButton()!;
    expect(button.tagName).toBe('BUTTON');
    expect(button.type).toBe('button');
    expect(button.textContent).toBe('Turn agent off');
    expect(button.getAttribute('aria-label')).toBe('Turn agent off on shop.example');
    expect(detail()).toBe('3 tools');

    button.focus();
    button.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'set-agent-off', tabId, origin: 'https://shop.example', off: true });
  });

  it('shows the agent off once the settings say so, with focus on the way to turn it back on', async () => {
    panel = await mountPanel();
    offButton()!.focus();
    offButton()!.click();
    await panel.deliver({ type: 'snapshot', state: sessionState({ agentOff: true, agentOffBy: ['https://shop.example'] }) });
    expect(detail()).toBe('Agent off on this site');
    expect(offButton()).toBeNull();
    expect(panel.find('agent-off')?.textContent).toContain('You turned it off for shop.example, so the model gets nothing from this page and runs none of its tools.');
    expect(onButton()?.textContent).toBe('Turn the agent on here');
    expect(document.activeElement).toBe(onButton());
  });

  it('is offered while a run goes on, which it stops (the background ends the run)', async () => {
    panel = await mountPanel({ running: true, turns: [turn({ items: [toolCard({ state: 'waiting', approvalReason: 'consequential' })] })] });
    expect(panel.model.running.value).toBe(true);
    expect(offButton()?.disabled).toBe(false);
    offButton()!.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'set-agent-off', tabId, origin: 'https://shop.example', off: true });
  });

  it('cannot be pressed, off or back on, while the panel reconnects, so a press never goes nowhere', async () => {
    const cases: Array<[Parameters<typeof mountPanel>[0], () => HTMLButtonElement | null | undefined]> = [
      [{}, offButton],
      [{ agentOff: true, agentOffBy: ['https://shop.example'] }, onButton],
    ];
    for (const [state, button] of cases) {
      panel = await mountPanel(state);
      button()?.focus();
      panel.background.port.drop();
      await panel.flush();
      expect(button()?.getAttribute('aria-disabled')).toBe('true');
      button()?.click();
      await panel.flush();
      expect(panel.posted().filter((message) => message.type === 'set-agent-off')).toEqual([]);
      // Not `disabled`: Chrome would take the focus off it, to the top of the panel.
      expect(document.activeElement).toBe(button());
      panel.unmount();
    }
    panel = undefined;
  });

  it('is not offered where there is no web site to list: a browser page, a file, a page the background names no site of', async () => {
    const pages = [
      { url: 'chrome://newtab/', origin: '', pageReachable: false, closedPage: 'browser' as const, toolCount: 0 },
      { url: 'file:///home/me/tools.html', origin: 'file://', toolCount: 2 },
      { url: 'file:///home/me/tools.html', origin: 'null', toolCount: 2 },
      { url: 'https://shop.example/blank', origin: '', toolCount: 0 },
    ];
    for (const page of pages) {
      panel = await mountPanel(page);
      expect(offButton(), page.origin || page.url).toBeNull();
      panel.unmount();
    }
    panel = undefined;
  });

  it('is offered on a web page that offers no tools yet, and on a site whose host has no dot', async () => {
    for (const origin of ['https://blog.example', 'http://wiki:8080']) {
      panel = await mountPanel({ url: `${origin}/start`, origin, toolCount: 0 });
      expect(offButton()?.getAttribute('aria-label'), origin).toBe(`Turn agent off on ${origin.replace('https://', '')}`);
      offButton()!.click();
      await panel.flush();
      expect(panel.posted().at(-1)).toEqual({ type: 'set-agent-off', tabId, origin, off: true });
      panel.unmount();
    }
    panel = undefined;
  });
});

describe('turning the agent back on from the note', () => {
  it('removes the site’s own entry: the panel asks, moves focus on, and shows the tools once the settings change', async () => {
    panel = await mountPanel({ agentOff: true, agentOffBy: ['https://shop.example'], suggestions: ['Find mugs'] });
    expect(panel.container.textContent).not.toContain('Ask this page');
    expect(panel.model.canSend.value).toBe(false);
    onButton()!.focus();
    onButton()!.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'set-agent-off', tabId, origin: 'https://shop.example', off: false });
    expect(document.activeElement).toBe(panel.find('chat-input'));

    await panel.deliver({ type: 'snapshot', state: sessionState({ suggestions: ['Find mugs'] }) });
    expect(panel.find('agent-off')).toBeNull();
    expect(detail()).toBe('3 tools');
    expect(offButton()).not.toBeNull();
    expect(panel.container.textContent).toContain('Ask this page');
    expect(panel.findAll('suggestion')).toHaveLength(1);
    expect(panel.model.canSend.value).toBe(true);
  });

  it('names a wider entry it removes, the parent domain whose subdomains it covers, before it is pressed', async () => {
    panel = await mountPanel({
      url: 'https://www.bank.example/accounts',
      origin: 'https://www.bank.example',
      agentOff: true,
      agentOffBy: ['https://bank.example', 'https://www.bank.example'],
    });
    expect(panel.find('agent-off')?.textContent).toContain(
      'You turned it off for bank.example and its subdomains, this site among them, so the model gets nothing from this page and runs none of its tools.',
    );
    expect(onButton()?.textContent).toBe('Turn the agent on for bank.example and its subdomains');
    onButton()!.click();
    await panel.flush();
    expect(panel.posted().at(-1)).toEqual({ type: 'set-agent-off', tabId, origin: 'https://www.bank.example', off: false });
  });

  it('names an entry without a port that it removes as covering every port, and one of a parent domain so too', async () => {
    panel = await mountPanel({ url: 'http://127.0.0.1:38733/shop', origin: 'http://127.0.0.1:38733', agentOff: true, agentOffBy: ['http://127.0.0.1'] });
    expect(panel.find('agent-off')?.textContent).toContain('You turned it off for http://127.0.0.1 on every port, this site among them,');
    expect(onButton()?.textContent).toBe('Turn the agent on for http://127.0.0.1 on every port');
    panel.unmount();
    panel = await mountPanel({ url: 'https://www.bank.example:8443/', origin: 'https://www.bank.example:8443', agentOff: true, agentOffBy: ['https://bank.example'] });
    expect(onButton()?.textContent).toBe('Turn the agent on for bank.example and its subdomains, on every port');
  });

  it('names a site kept with its scheme as the header does, and its own entry of the other scheme as this site', async () => {
    panel = await mountPanel({ url: 'http://127.0.0.1:8080/', origin: 'http://127.0.0.1:8080', agentOff: true, agentOffBy: ['http://127.0.0.1:8080'] });
    expect(panel.find('agent-off')?.textContent).toContain('You turned it off for http://127.0.0.1:8080,');
    panel.unmount();
    panel = await mountPanel({ agentOff: true, agentOffBy: ['http://shop.example'] });
    expect(onButton()?.textContent).toBe('Turn the agent on here');
  });
});
