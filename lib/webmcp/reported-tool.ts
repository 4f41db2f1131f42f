import { z } from 'zod/mini';
import { lazySchema } from '../messaging/lazy-schema';
import { toolLimits, toolNamePattern } from './tool-limits';

/** Where a tool came from: the browser's API, a JavaScript polyfill (read through the bridge), or a form. */
const toolSourceSchema = lazySchema(() => z.enum(['native', 'polyfill', 'declarative']));
export type ToolSource = z.infer<ReturnType<typeof toolSourceSchema>>;

const toolAnnotationsSchema = lazySchema(() =>
  z.object({
    readOnlyHint: z.optional(z.boolean()),
    consequentialHint: z.optional(z.boolean()),
    untrustedContentHint: z.optional(z.boolean()),
    consequenceUnknown: z.optional(z.boolean()),
    destructiveHint: z.optional(z.boolean()),
  }),
);

/**
 * A tool as the content script reports it: copied, validated and capped. The background parses
 * every report with this schema again, so a tool that slips past the page-side checks is dropped.
 * Built at the first tool a page offers (see lazySchema): most pages offer none.
 */
export const reportedToolSchema = lazySchema(() =>
  z.object({
    name: z.string().check(z.regex(toolNamePattern)),
    title: z.optional(z.string().check(z.maxLength(toolLimits.titleLength))),
    description: z.string().check(z.minLength(1), z.maxLength(toolLimits.descriptionLength)),
    inputSchema: z.record(z.string(), z.unknown()),
    /** What the tool's results look like, where the page says; the inspector checks a run's result against it. */
    outputSchema: z.optional(z.record(z.string(), z.unknown())),
    /** Why the page's output schema was left out (the tool is kept without it). */
    outputSchemaProblem: z.optional(z.string().check(z.maxLength(300))),
    annotations: z.optional(toolAnnotationsSchema()),
    origin: z.string().check(z.maxLength(2_048)),
    source: toolSourceSchema(),
    /** What the extension saw in a tool form's fields that the inspector tells its author. */
    formNotes: z.optional(z.array(z.string().check(z.maxLength(300))).check(z.maxLength(5))),
    /** The language the page's document says it is in (its `lang`), for the page's words where they show. */
    lang: z.optional(z.string().check(z.regex(languageTagPattern))),
  }),
);

/** A language tag as `lang` takes one ("ar", "he-IL", "zh-Hant-TW"): letters and digits in parts of at most eight. */
const languageTagPattern = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,5}$/;

/** The language a document says it is in, where its `lang` is a tag; none where it is empty or no tag. */
export function documentLanguage(document: Document): string | undefined {
  const lang = document.documentElement?.lang?.trim() ?? '';
  return languageTagPattern.test(lang) ? lang : undefined;
}
export type ReportedTool = z.infer<ReturnType<typeof reportedToolSchema>>;

/** A tool the extension refused, with the reason the inspector shows. */
export const droppedToolSchema = lazySchema(() =>
  z.object({
    name: z.string().check(z.maxLength(toolLimits.droppedNameLength + 1)),
    reason: z.string().check(z.maxLength(500)),
  }),
);
export type DroppedToolReport = z.infer<ReturnType<typeof droppedToolSchema>>;
