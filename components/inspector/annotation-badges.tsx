import type { ToolAnnotations } from '@webmcp-agents/chat';

const badges = [
  { hint: 'readOnlyHint', label: 'read-only', className: 'badge read-only' },
  { hint: 'consequentialHint', label: 'consequential', className: 'badge consequential' },
  { hint: 'untrustedContentHint', label: 'untrusted content', className: 'badge untrusted' },
  // Not the page's word: its WebMCP library did not pass the hint on, so the agent asks every time.
  { hint: 'consequenceUnknown', label: 'consequence unknown', className: 'badge consequential' },
] as const;

/** The tool's WebMCP hints, one badge each; nothing when it sets none. */
export function AnnotationBadges({ annotations }: { annotations: ToolAnnotations | undefined }) {
  const shown = badges.filter(({ hint }) => annotations?.[hint] === true);
  if (shown.length === 0) return null;
  return (
    <span class="badges">
      {shown.map(({ hint, label, className }) => (
        <span key={hint} class={className}>
          {label}
        </span>
      ))}
    </span>
  );
}
