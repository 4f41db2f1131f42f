import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server on another origin that only writes down what reaches it: the "other site" data must not reach. */
export interface ListeningServer {
  origin: string;
  /** The paths asked for so far. */
  requests: string[];
  close(): Promise<void>;
}

export async function startListeningServer(): Promise<ListeningServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(204).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
