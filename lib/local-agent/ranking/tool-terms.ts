import type { ToolDescriptor } from '@webmcp-agents/chat';
import { toolFieldNames, toolFields, type ToolFieldName, type ToolFields } from './tool-fields';
import { tokenizeText, type TokenizeOptions } from './tokenize-text';

/** One field of one tool, as counted terms. */
export interface FieldTerms {
  counts: Map<string, number>;
  length: number;
}

/** The terms of every field of one tool. */
export type ToolTerms = Record<ToolFieldName, FieldTerms>;

interface CachedTerms {
  name: unknown;
  title: unknown;
  description: unknown;
  inputSchema: unknown;
  terms: ToolTerms;
}

/**
 * Tokenises each field of a tool. Returns a function that remembers its answers per descriptor
 * object, and per text for a new object with the same text (a list sent again as a message), so a
 * tool that is handed over again unchanged is not tokenised again.
 */
export function createToolTermsReader(options: TokenizeOptions): (tool: ToolDescriptor) => ToolTerms {
  const byObject = new WeakMap<object, CachedTerms>();
  const byText = new Map<string, ToolTerms>();
  const termsOfText = (fields: ToolFields): ToolTerms => {
    const key = toolFieldNames.map((field) => fields[field]).join('\u0000');
    const known = byText.get(key);
    if (known) return known;
    const terms = countFieldTerms(fields, options);
    if (byText.size >= maxRememberedTexts) byText.clear();
    byText.set(key, terms);
    return terms;
  };
  return (tool) => {
    if (typeof tool !== 'object' || tool === null) return termsOfText(toolFields(tool));
    const cached = byObject.get(tool);
    // Compared field by field, so a tool edited in place is read again.
    if (
      cached &&
      cached.name === tool.name &&
      cached.title === tool.title &&
      cached.description === tool.description &&
      cached.inputSchema === tool.inputSchema
    ) {
      return cached.terms;
    }
    const terms = termsOfText(toolFields(tool));
    const { name, title, description, inputSchema } = tool;
    byObject.set(tool, { name, title, description, inputSchema, terms });
    return terms;
  };
}

// Enough for every tool of several large pages; past it the text cache starts again.
const maxRememberedTexts = 1024;

function countFieldTerms(fields: ToolFields, options: TokenizeOptions): ToolTerms {
  const terms = {} as ToolTerms;
  for (const field of toolFieldNames) {
    terms[field] = countTerms(tokenizeText(fields[field], options));
  }
  return terms;
}

function countTerms(words: readonly string[]): FieldTerms {
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return { counts, length: words.length };
}
