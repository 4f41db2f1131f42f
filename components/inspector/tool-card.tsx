import { useSignal, type ReadonlySignal } from '@preact/signals';
import { HiddenCharacters } from '@/components/shared/json-text';
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { LintFinding } from '@/lib/devtools/lint-tools';
import type { PageTool } from '@/lib/registry/types';
import { pure } from '@/components/shared/pure';
import { AnnotationBadges } from './annotation-badges';
import type { InspectorModel } from './inspector-model';
import { OutputSchemaView, SchemaView } from './schema-view';
import { ToolRunner } from './tool-runner';

/**
 * One tool: name, title, description, hints, origin, lint findings; the run form, the schema and
 * the output schema (where the tool has one) open on demand (a page may offer hundreds).
 * Everything is rendered as text. It renders again only when its props change: a pass that draws
 * more cards leaves the ones drawn alone.
 */
export const ToolCard = pure(function ToolCard({ model, tool, findings = [], onLeftWithFocus }: ToolCardProps) {
  const { outputSchema } = tool;
  const card = useRef<HTMLElement>(null);
  // Run before the card leaves the page: once it has, the focus is on the page body.
  useLayoutEffect(() => () => {
    if (card.current?.contains(document.activeElement)) onLeftWithFocus?.(tool.name);
  }, []);
  return (
    <article class="tool" data-tool={tool.name} aria-label={`Tool ${tool.name}`} ref={card}>
      <header class="tool-header">
        <h3 class="tool-name">{tool.name}</h3>
        {tool.title && (
          <span class="tool-title" dir="auto" lang={tool.lang}>
            <HiddenCharacters text={tool.title} />
          </span>
        )}
        <AnnotationBadges annotations={tool.annotations} />
      </header>
      {/* A long one scrolls, and is then a stop for Tab: named for a screen reader. */}
      <p class="tool-description" dir="auto" lang={tool.lang} role="group" aria-label={`Description of ${tool.name}`}>
        <HiddenCharacters text={tool.description} />
      </p>
      <p class="tool-meta">
        {tool.origin} · frame {tool.frameId} · {tool.source}
      </p>
      {findings.length > 0 && (
        <ul class="findings" aria-label="Lint findings">
          {findings.map((finding, index) => (
            <li key={index} class={`finding ${finding.level}`}>
              {/* The level in words too, not only in colour. */}
              <span class="finding-level">{finding.level === 'warning' ? 'Warning: ' : 'Note: '}</span>
              {/* It may quote the page's names: a direction override there turns nothing else around. */}
              <HiddenCharacters text={finding.message} />
            </li>
          ))}
        </ul>
      )}
      {/* Open or not as the model keeps it: the card may go (a filter, a listing without the tool) and come back. */}
      <Disclosure label="Run" toolName={tool.name} open={model.runFormOf(tool).open} onToggle={(open) => model.setRunFormOpen(tool, open)}>
        {() => <ToolRunner model={model} tool={tool} />}
      </Disclosure>
      <Disclosure label="Schema" toolName={tool.name}>{() => <SchemaView schema={tool.inputSchema} forModel={model.agentSchemaOf(tool)} />}</Disclosure>
      {outputSchema && <Disclosure label="Returns" toolName={tool.name}>{() => <OutputSchemaView schema={outputSchema} />}</Disclosure>}
    </article>
  );
});

interface ToolCardProps {
  model: InspectorModel;
  tool: PageTool;
  /** Its lint findings, if any. */
  findings?: readonly LintFinding[];
  /** The card left the page with the focus in it (its tool went): says which, and puts the focus somewhere. */
  onLeftWithFocus?: (name: string) => void;
}

/**
 * A `<details>` whose content is only built once opened. Its name says whose it is, for a screen
 * reader going from control to control through a long list of tools. It keeps whether it is open
 * itself, unless given `open` and `onToggle` to keep it elsewhere.
 */
function Disclosure({ label, toolName, open, onToggle, children }: DisclosureProps) {
  const ownOpen = useSignal(false);
  const shown = open ?? ownOpen;
  return (
    <details
      class="disclosure"
      open={shown.value}
      onToggle={(event) => {
        const now = event.currentTarget.open;
        if (now === shown.value) return;
        if (onToggle) onToggle(now);
        else ownOpen.value = now;
      }}
    >
      <summary>
        {label}
        <span class="visually-hidden"> {toolName}</span>
      </summary>
      {shown.value && children()}
    </details>
  );
}

interface DisclosureProps {
  label: string;
  toolName: string;
  open?: ReadonlySignal<boolean>;
  onToggle?: (open: boolean) => void;
  children: () => preact.ComponentChildren;
}
