import { request } from 'node:http';

/**
 * POSTs `body` and resolves with the answer even when the server answers before reading it all and closes the
 * connection (a 413 on Content-Length), which makes fetch fail with EPIPE: the write error is ignored once an
 * answer has come.
 */
export function postEarlyAnswered(url: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    // The headers first, then the body a piece at a time until the answer comes: a gateway that refuses on the
    // Content-Length answers before the body, and writing on would only meet the connection it closed.
    outgoing.flushHeaders();
    const PIECE = 64 * 1024;
    const writeFrom = (offset: number): void => {
      if (answered || outgoing.destroyed) return;
      if (offset >= body.length) return void outgoing.end();
      outgoing.write(body.subarray(offset, offset + PIECE), (error) => {
        if (!error) writeFrom(offset + PIECE);
      });
    };
    writeFrom(0);
  });
}
