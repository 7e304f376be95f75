// An answer written as it happens: JSON lines (application/x-ndjson), one object a line, sent as
// soon as each is known (the connection tests' steps, docs/api.md servicetest). A client that goes
// away only stops the lines; the work goes on to its end.
export const JSON_LINES = 'application/x-ndjson';

/** Whether the request asked for JSON lines (its Accept header names them). */
export const wantsJsonLines = (accept: string | undefined): boolean => (accept ?? '').split(',').some((a) => a.trim().split(';')[0] === JSON_LINES);

/**
 * A 200 answer whose body `write` fills line by line; a fault of `write` ends the body with an
 * error line (`{error: {code: 'internal'}}`), as the error envelope would have said.
 */
export function jsonLinesResponse(write: (send: (line: object) => void) => Promise<void>): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (line: object) => {
        if (open) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      };
      void write(send)
        .catch(() => send({ error: { code: 'internal', message: 'the request failed on the unit' } }))
        .finally(() => {
          if (open) {
            open = false;
            controller.close();
          }
        });
    },
    cancel() {
      open = false;
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': `${JSON_LINES}; charset=utf-8`, 'Cache-Control': 'no-store' } });
}
