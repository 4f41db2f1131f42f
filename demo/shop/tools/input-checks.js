import { requireProduct } from '../catalogue.js';

// The browser does not hold inputs to the input schema, so every tool checks its own; a wrong
// input throws, and answeringErrors (error-result.js) makes it an error result the caller reads.

function requireField(input, name) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new Error(`The input must be an object with "${name}".`);
  }
  if (!(name in input)) throw new Error(`"${name}" is required.`);
  return input[name];
}

/** A non-empty string of at most `maxLength` characters, trimmed. */
export function requireText(input, name, maxLength) {
  const value = requireField(input, name);
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`"${name}" must be a non-empty string.`);
  if (value.length > maxLength) throw new Error(`"${name}" must be at most ${maxLength} characters.`);
  return value.trim();
}

/** A whole number from `minimum` to `maximum`. */
export function requireInteger(input, name, minimum, maximum) {
  const value = requireField(input, name);
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    throw new Error(`"${name}" must be a whole number from ${minimum} to ${maximum}.`);
  }
  return value;
}

/** The product that `input.slug` names. */
export function requireProductInput(input) {
  const slug = requireField(input, 'slug');
  if (typeof slug !== 'string') throw new Error('"slug" must be a string.');
  return requireProduct(slug);
}
