// The body of the daemon's Request and Response (install.ts says why they are the daemon's own). A
// body keeps what it was made from (a string, bytes, a Blob, a web stream or the node request it
// arrives on) until it is read, so a JSON answer reaches the socket as the string it was made as,
// and a request's JSON is read from the socket without a web stream in between. Its `body` stream
// is made only when asked for, and a body made from such a stream that nobody read takes the
// original source back.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { nativeFetchClass } from './native.ts';

/** What a body is made of while nobody has read it. */
export type BodySource = string | Uint8Array | Blob | ReadableStream<Uint8Array> | IncomingMessage | null;

export type BodyInput = BodySource | ArrayBuffer | ArrayBufferView | URLSearchParams | undefined;

const isStream = (x: unknown): x is ReadableStream<Uint8Array> => typeof (x as ReadableStream | null)?.getReader === 'function';
const isIncoming = (x: unknown): x is IncomingMessage => x instanceof Readable;

/** streams handed out by `body` that nobody has read yet, with the source they stand for */
const untouched = new WeakMap<ReadableStream<Uint8Array>, Exclude<BodySource, ReadableStream | null>>();

const unusable = () => new TypeError('Body is unusable: it has already been read');

/**
 * The client closed or broke its connection before the request body was complete. The client's
 * business, never a fault of the daemon: no 500, not counted, not logged (docs/hardening.md LOG-2).
 */
export class BodyAborted extends Error {
  override name = 'BodyAborted';
}

/** Whether `e` (or an error it was caused by) is a body the client cut off. */
export function isBodyAborted(e: unknown): boolean {
  for (let x = e, depth = 0; x instanceof Error && depth < 8; x = x.cause, depth++) if (x instanceof BodyAborted) return true;
  return false;
}

const cutOff = (cause?: unknown) =>
  new BodyAborted('the client closed the connection before the body was complete', cause === undefined ? undefined : { cause });

/** A body input as a source, and the content type it implies (a string is text, form parameters are a form). */
export function sourceOf(input: BodyInput): { source: BodySource; type?: string } {
  if (input == null) return { source: null };
  if (typeof input === 'string') return { source: input, type: 'text/plain;charset=UTF-8' };
  if (input instanceof Uint8Array) return { source: input };
  if (input instanceof ArrayBuffer) return { source: new Uint8Array(input) };
  if (ArrayBuffer.isView(input)) return { source: new Uint8Array(input.buffer, input.byteOffset, input.byteLength) };
  if (input instanceof URLSearchParams) return { source: input.toString(), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (input instanceof Blob) return { source: input, type: input.type || undefined };
  if (isStream(input)) {
    const kept = untouched.get(input);
    return { source: kept !== undefined && !input.locked ? kept : input };
  }
  if (isIncoming(input)) return { source: input };
  throw new TypeError('this body type is not supported by the daemon (a string, bytes, a Blob or a stream)');
}

/** Every byte of a node request's body, read as the body stream reads it (nextChunk); refused when it was read before or the client went away. */
async function readIncoming(incoming: IncomingMessage): Promise<Buffer> {
  if (incoming.readableDidRead) throw unusable();
  if (incoming.destroyed) throw cutOff();
  const chunks: Buffer[] = [];
  for (let c = await nextChunk(incoming); c !== null; c = await nextChunk(incoming)) chunks.push(c);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

async function readStream(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  if (stream.locked) throw unusable();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const c of stream as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(c);
    size += c.byteLength;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

const bytesOfString = (s: string) => Buffer.from(s, 'utf8');

/**
 * The next chunk of a node request's body, read in paused mode (`read()` on 'readable'), or null at
 * its end. Nothing is pushed into a web stream from node's events: a body stream that was cancelled
 * (an upload over its cap) is never written to again, whatever is still arriving.
 */
function nextChunk(incoming: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const settle = (fn: () => void) => {
      incoming.off('readable', attempt).off('end', onEnd).off('error', onError).off('close', onClose);
      fn();
    };
    const onEnd = () => settle(() => resolve(null));
    const onError = (e: Error) => settle(() => reject(cutOff(e)));
    const onClose = () => {
      if (!incoming.readableEnded) settle(() => reject(cutOff()));
    };
    function attempt(): boolean {
      const chunk = incoming.read() as Buffer | null;
      if (chunk !== null) settle(() => resolve(chunk));
      else if (incoming.readableEnded) settle(() => resolve(null));
      else if (incoming.errored) settle(() => reject(cutOff(incoming.errored)));
      else if (incoming.destroyed) onClose();
      else return false;
      return true;
    }
    if (!attempt()) incoming.on('readable', attempt).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** A web stream over a source, which touches the source only when read (the stream's high-water mark is 0). */
function streamOf(source: Exclude<BodySource, ReadableStream | null>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const stream: ReadableStream<Uint8Array> = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        untouched.delete(stream);
        if (typeof source === 'string' || source instanceof Uint8Array) {
          const bytes = typeof source === 'string' ? bytesOfString(source) : source;
          if (bytes.byteLength) c.enqueue(bytes);
          c.close();
          return;
        }
        if (isIncoming(source)) {
          const chunk = await nextChunk(source);
          if (chunk === null) c.close();
          else c.enqueue(chunk);
          return;
        }
        reader ??= (source.stream() as ReadableStream<Uint8Array>).getReader();
        const r = await reader.read();
        if (r.done) c.close();
        else c.enqueue(r.value);
      },
      // a node request's unread rest is the listener's to drop once the answer is out (hono-listener.ts)
      cancel: (reason) => {
        untouched.delete(stream);
        return reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  untouched.set(stream, source);
  return stream;
}

/** The body part shared by DaemonRequest and DaemonResponse. */
export class Body {
  #source: BodySource;
  #stream: ReadableStream<Uint8Array> | null = null;
  #used = false;

  constructor(source: BodySource) {
    this.#source = source;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#source === null) return null;
    if (!this.#stream) this.#stream = isStream(this.#source) ? this.#source : streamOf(this.#source);
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#stream !== null && !untouched.has(this.#stream) && this.#stream.locked);
  }

  /** The source as nobody has read it (null when there is none), for the writer and for copies; the body counts as used. */
  takeSource(): BodySource {
    if (this.#used) throw unusable();
    this.#used = true;
    const s = this.#stream;
    if (s && !(untouched.has(s) && !s.locked)) return s;
    return this.#source;
  }

  /** A second reader of this body (for clone): a string, bytes or a Blob are shared, a stream is split in two. */
  protected cloneSource(): BodySource {
    if (this.bodyUsed) throw unusable();
    const s = this.#source;
    const shared = s === null || typeof s === 'string' || s instanceof Uint8Array || s instanceof Blob;
    if (shared && (this.#stream === null || untouched.has(this.#stream))) return s;
    const [mine, theirs] = (this.body as ReadableStream<Uint8Array>).tee();
    this.#stream = mine;
    this.#source = mine;
    return theirs;
  }

  async bytes(): Promise<Uint8Array> {
    const source = this.takeSource();
    if (source === null) return new Uint8Array(0);
    if (typeof source === 'string') return bytesOfString(source);
    if (source instanceof Uint8Array) return source;
    if (source instanceof Blob) return new Uint8Array(await source.arrayBuffer());
    if (isIncoming(source)) return readIncoming(source);
    return readStream(source);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.bytes();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    const s = this.#stream === null && typeof this.#source === 'string' ? this.takeSource() : null;
    if (typeof s === 'string') return s;
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([(await this.bytes()) as Uint8Array<ArrayBuffer>], { type: this.contentType() ?? '' });
  }

  /** A form body, parsed by node's own classes (loaded only here: the daemon's routes take JSON and files). */
  async formData(): Promise<FormData> {
    const Native = nativeFetchClass('Response');
    const type = this.contentType();
    return new Native((await this.bytes()) as Uint8Array<ArrayBuffer>, type ? { headers: { 'content-type': type } } : undefined).formData();
  }

  /** the Content-Type of the request or response the body belongs to */
  protected contentType(): string | null {
    return null;
  }
}
