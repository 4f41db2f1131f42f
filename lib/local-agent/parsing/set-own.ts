/**
 * Sets a property as JSON.parse would: a key named `__proto__` becomes an ordinary own property
 * instead of replacing the object's prototype.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
