// Test support: a small MongoDB wire-protocol server for the NoSQL test. No MongoDB server binary
// exists in the registries these machines reach (reference/peers.md), so the official `mongodb`
// driver is tried against this: the OP_QUERY handshake (hello/isMaster, answered with OP_REPLY),
// then OP_MSG for hello, ping, buildInfo, listCollections, insert, delete, endSessions. It knows no
// users: every authentication (saslStart, authenticate) fails as a real server answers a wrong
// password (code 18 AuthenticationFailed). Documents live in memory per `db.collection`.
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { BSON, type Document } from 'mongodb';
import { LOOPBACK } from './ports.ts';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

export interface MongoFake {
  port: number;
  /** documents by `db.collection` */
  collections: Map<string, Document[]>;
  /** every command name received, in order */
  commands: string[];
  /** inserts still to come whose answer is lost (the documents are stored, the connection breaks) */
  loseInsertAnswers: number;
  close(): Promise<void>;
}

const same = (a: unknown, b: unknown) => BSON.EJSON.stringify(a as Document, { relaxed: false }) === BSON.EJSON.stringify(b as Document, { relaxed: false });

/** A filter of equality conditions only ({_id: …}), as the driver's deleteOne sends it. */
const matches = (doc: Document, filter: Document) => Object.entries(filter).every(([k, v]) => same(doc[k], v));

export async function startMongoFake(opts: { collections?: string[] } = {}): Promise<MongoFake> {
  const collections = new Map<string, Document[]>((opts.collections ?? []).map((c) => [c, []]));
  const commands: string[] = [];
  let connectionId = 0;
  let requestId = 1;
  const sockets = new Set<Socket>();
  const fake: MongoFake = { port: 0, collections, commands, loseInsertAnswers: 0, close: async () => {} };

  function run(db: string, body: Document, conn: number): Document | null {
    const name = Object.keys(body)[0] ?? '';
    commands.push(name);
    switch (name) {
      case 'hello':
      case 'isMaster':
      case 'ismaster':
        return {
          helloOk: true,
          ismaster: true,
          isWritablePrimary: true,
          maxBsonObjectSize: 16 * 1024 * 1024,
          maxMessageSizeBytes: 48_000_000,
          maxWriteBatchSize: 100_000,
          localTime: new Date(),
          logicalSessionTimeoutMinutes: 30,
          connectionId: conn,
          minWireVersion: 0,
          maxWireVersion: 17,
          readOnly: false,
          ...(body.saslSupportedMechs ? { saslSupportedMechs: ['SCRAM-SHA-256', 'SCRAM-SHA-1'] } : {}),
          ok: 1,
        };
      case 'ping':
      case 'endSessions':
      case 'killCursors':
        return { ok: 1 };
      case 'buildInfo':
      case 'buildinfo':
        return { version: '6.0.0', versionArray: [6, 0, 0, 0], ok: 1 };
      case 'saslStart':
      case 'authenticate':
      case 'saslContinue':
        return { ok: 0, errmsg: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed' };
      case 'listCollections': {
        const wanted = (body.filter as Document | undefined)?.name as string | undefined;
        const names = [...collections.keys()].filter((k) => k.startsWith(`${db}.`)).map((k) => k.slice(db.length + 1));
        const firstBatch = names
          .filter((n) => wanted === undefined || n === wanted)
          .map((n) => ({ name: n, type: 'collection', options: {}, info: { readOnly: false } }));
        return { cursor: { id: BSON.Long.fromNumber(0), ns: `${db}.$cmd.listCollections`, firstBatch }, ok: 1 };
      }
      case 'insert': {
        // a document whose _id is there already is refused as a server refuses it (E11000), the others go in
        const key = `${db}.${String(body.insert)}`;
        const docs = (body.documents as Document[] | undefined) ?? [];
        const list = collections.get(key) ?? [];
        const writeErrors: Document[] = [];
        docs.forEach((d, index) => {
          if (d._id !== undefined && list.some((x) => same(x._id, d._id)))
            writeErrors.push({ index, code: 11000, errmsg: `E11000 duplicate key error collection: ${key} dup key: { _id: ${String(d._id)} }` });
          else list.push(d);
        });
        collections.set(key, list);
        if (fake.loseInsertAnswers > 0) {
          fake.loseInsertAnswers--;
          return null; // written, but the connection breaks before the answer: the client must try again
        }
        return { n: docs.length - writeErrors.length, ...(writeErrors.length ? { writeErrors } : {}), ok: 1 };
      }
      case 'delete': {
        const key = `${db}.${String(body.delete)}`;
        let n = 0;
        for (const d of (body.deletes as { q: Document; limit: number }[] | undefined) ?? []) {
          const list = collections.get(key) ?? [];
          for (let i = 0; i < list.length; i++) {
            if (matches(list[i]!, d.q)) {
              list.splice(i--, 1);
              n++;
              if (d.limit === 1) break;
            }
          }
        }
        return { n, ok: 1 };
      }
      default:
        return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' };
    }
  }

  function header(length: number, responseTo: number, opCode: number): Buffer {
    const h = Buffer.alloc(16);
    h.writeInt32LE(length, 0);
    h.writeInt32LE(requestId++, 4);
    h.writeInt32LE(responseTo, 8);
    h.writeInt32LE(opCode, 12);
    return h;
  }

  function answer(msg: Buffer, conn: number): Buffer | undefined {
    const responseTo = msg.readInt32LE(4);
    const opCode = msg.readInt32LE(12);
    if (opCode === OP_QUERY) {
      // flags, "db.$cmd\0", skip, return, query document
      const end = msg.indexOf(0, 20);
      const ns = msg.toString('utf8', 20, end);
      const query = BSON.deserialize(msg.subarray(end + 9));
      const doc = BSON.serialize(run(ns.split('.')[0] ?? 'admin', query, conn) ?? {});
      const body = Buffer.alloc(20);
      body.writeInt32LE(1, 16); // numberReturned; flags 0, cursor 0, startingFrom 0
      return Buffer.concat([header(16 + 20 + doc.length, responseTo, OP_REPLY), body, doc]);
    }
    if (opCode !== OP_MSG) return undefined;
    const flags = msg.readUInt32LE(16);
    const end = flags & 1 ? msg.length - 4 : msg.length; // a checksum closes the message
    let at = 20;
    let body: Document = {};
    const sequences: Record<string, Document[]> = {};
    while (at < end) {
      const kind = msg[at++];
      const size = msg.readInt32LE(at);
      if (kind === 0) {
        body = BSON.deserialize(msg.subarray(at, at + size));
      } else {
        const idEnd = msg.indexOf(0, at + 4);
        const id = msg.toString('utf8', at + 4, idEnd);
        const docs: Document[] = [];
        for (let p = idEnd + 1; p < at + size; ) {
          const len = msg.readInt32LE(p);
          docs.push(BSON.deserialize(msg.subarray(p, p + len)));
          p += len;
        }
        sequences[id] = docs;
      }
      at += size;
    }
    const result = run(String(body.$db ?? 'admin'), { ...body, ...sequences }, conn);
    if (result === null) return undefined;
    const doc = BSON.serialize(result);
    const out = Buffer.alloc(5);
    out.writeUInt32LE(0, 0); // flags
    out[4] = 0; // section kind 0
    return Buffer.concat([header(16 + 5 + doc.length, responseTo, OP_MSG), out, doc]);
  }

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const conn = ++connectionId;
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const len = pending.readInt32LE(0);
        const reply = answer(pending.subarray(0, len), conn);
        pending = pending.subarray(len);
        if (reply) socket.write(reply);
        else socket.destroy();
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
