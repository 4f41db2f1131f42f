/**
 * Whether a host name (a URL's `hostname`, which writes 127.1 as 127.0.0.1 and IPv6 in brackets)
 * is this computer: `localhost` and its subdomains, which Chromium sends to the loopback address
 * itself, 127.0.0.0/8 and [::1], and the "every interface" addresses a server on this computer
 * says it listens on (0.0.0.0, [::]), which reach it. Anything else, a computer on the same
 * network included, is elsewhere: what is sent there leaves this computer.
 */
export function isOnThisMachine(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || ['[::1]', '0.0.0.0', '[::]'].includes(host);
}
