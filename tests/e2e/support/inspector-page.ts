import type { Locator, Page } from 'playwright-core';
import type { LaunchedExtension } from './launch-extension';
import { tabIdOf } from './tab-id-of';

/** What a run showed: "Result · took 12 ms" or "Error · …", and the text below it. */
export interface ShownRun {
  meta: string;
  text: string;
  isError: boolean;
}

/** A page in a new tab, and the inspector that watched that tab from before the page loaded. */
export interface InspectedPage {
  page: Page;
  tabId: number;
  inspector: InspectorPage;
}

/** The devtools inspector opened as a tab (`devtools-panel.html?tabId=N`), read as a person sees it. */
export class InspectorPage {
  constructor(readonly page: Page) {}

  static async open(extension: LaunchedExtension, tabId: number): Promise<InspectorPage> {
    const page = await extension.openExtensionPage(`devtools-panel.html?tabId=${tabId}`);
    await page.locator('.inspector-header').waitFor();
    return new InspectorPage(page);
  }

  /** A new tab with the inspector already watching it, then navigated to `url`: no change is missed. */
  static async watchNewTab(extension: LaunchedExtension, url: string): Promise<InspectedPage> {
    const page = await extension.context.newPage();
    const tabId = await tabIdOf(page);
    const inspector = await InspectorPage.open(extension, tabId);
    await page.goto(url);
    return { page, tabId, inspector };
  }

  tool(name: string): Locator {
    return this.page.locator(`article.tool[data-tool="${name}"]`);
  }

  async toolNames(): Promise<string[]> {
    return (await this.page.locator('article.tool .tool-name').allTextContents()).sort();
  }

  /** Waits until the listed tools are exactly `names`; fails after `timeoutMs`. */
  async waitForTools(names: readonly string[], timeoutMs = 1_000): Promise<number> {
    const expected = JSON.stringify([...names].sort());
    const started = Date.now();
    let shown: string[] = [];
    while (Date.now() - started <= timeoutMs) {
      shown = await this.toolNames();
      if (JSON.stringify(shown) === expected) return Date.now() - started;
      await this.page.waitForTimeout(25);
    }
    throw new Error(`After ${timeoutMs} ms the inspector listed [${shown.join(', ')}], not [${[...names].sort().join(', ')}].`);
  }

  async setTimeoutSeconds(seconds: number): Promise<void> {
    await this.page.getByLabel('Timeout (s)').fill(String(seconds));
  }

  /** The control of a field of the tool's run form, found as a person finds it: by the label that names it ("qty", "qty *"). */
  field(name: string, field: string): Locator {
    const named = new RegExp(`^${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);
    return this.tool(name).locator('.field').filter({ has: this.page.locator(':scope > label', { hasText: named }) }).locator('input, textarea, select').first();
  }

  /** Opens the tool's run form, fills it (by field name), runs it and waits for what it shows. */
  /**
   * Fills the tool's run form and runs it. `anyway`: values the page's whole schema refuses (a
   * pattern, a length), sent as a developer does to see what the page makes of them: the form says
   * what it refused in `refused`, and "Run anyway" sends them.
   */
  async run(name: string, values: Record<string, string | boolean | string[]> = {}, timeoutMs = 10_000, { anyway = false } = {}): Promise<ShownRun & { refused?: string }> {
    const card = this.tool(name);
    await this.openRunForm(name);
    for (const [field, value] of Object.entries(values)) {
      // A list of choices is a group of checkboxes named by the field: those whose option is listed are checked.
      if (Array.isArray(value)) {
        const group = card.getByRole('group', { name: new RegExp(`^${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`) });
        for (const box of await group.getByRole('checkbox').all()) {
          const label = (await box.locator('xpath=..').textContent()) ?? '';
          await box.setChecked(value.some((wanted) => label === wanted || label.endsWith(` (${wanted})`)));
        }
        continue;
      }
      const input = this.field(name, field);
      const isSelect = (await input.evaluate((element) => element.tagName)) === 'SELECT';
      // A boolean the tool may go without is a select: "(not set)", "true", "false". A choice the
      // page names is listed as "Weekly (weekly)": it is picked by its value too.
      if (isSelect) {
        const wanted = String(value);
        const labels = await input.locator('option').allTextContents();
        // A value that reads as another JSON value ("2") is shown as JSON.
        const shown = [wanted, JSON.stringify(wanted)];
        await input.selectOption({ label: labels.find((label) => shown.some((value) => label === value || label.endsWith(` (${value})`))) ?? wanted });
      }
      else if (typeof value === 'boolean') await input.setChecked(value);
      else await input.fill(value);
    }
    await card.getByRole('button', { name: 'Run in page' }).click();
    let refused: string | undefined;
    if (anyway) {
      refused = (await card.locator('.problem').textContent({ timeout: timeoutMs })) ?? '';
      await card.getByRole('button', { name: `Run anyway: ${name}` }).click();
    }
    const result = card.locator('.run-result');
    await result.waitFor({ timeout: timeoutMs });
    return {
      ...(refused !== undefined ? { refused } : {}),
      meta: (await result.locator('.run-meta').textContent()) ?? '',
      text: (await result.locator('.run-text').textContent()) ?? '',
      isError: (await result.getAttribute('class'))?.includes('error') ?? false,
    };
  }

  async openRunForm(name: string): Promise<void> {
    await this.openSection(name, 'Run');
  }

  /** Opens one of a tool's sections ("Run", "Schema" or "Returns") unless it is open already. */
  async openSection(name: string, label: 'Run' | 'Schema' | 'Returns'): Promise<void> {
    const details = this.tool(name).locator('details', { has: this.page.locator('summary', { hasText: label }) });
    if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open))) await details.locator('summary').click();
  }

  /** The message the form shows when `validateArgs` refuses the arguments. */
  async problem(name: string): Promise<string> {
    return (await this.tool(name).getByRole('alert').textContent()) ?? '';
  }

  async dropped(): Promise<Array<{ name: string; reason: string }>> {
    const items = this.page.locator('section.dropped li');
    const names = await items.locator('.dropped-name').allTextContents();
    const reasons = await items.locator('.dropped-reason').allTextContents();
    return names.map((name, index) => ({ name, reason: reasons[index] ?? '' }));
  }

  async changes(): Promise<string[]> {
    return this.page.locator('section.change-log li').evaluateAll((items) =>
      items.map((item) => `${item.querySelector('.change-kind')?.textContent} ${item.querySelector('.change-name')?.textContent}`),
    );
  }
}
