import { useEffect, useState } from 'preact/hooks';

/**
 * `value` once the component is in the page, nothing at its first render: a status region that
 * mounts with its words already in it is not read out, one filled a moment after it mounts is.
 */
export function useAfterMount<T>(value: T): T | undefined {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? value : undefined;
}
