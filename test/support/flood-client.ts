// The attacker of the login flood (test/support/login-flood.ts) as a process of its own, as an
// attacker is another machine: its CPU and event loop are not the daemon's. Arguments: the login
// URL and the number of concurrent workers. Each worker sends wrong logins one after the other for
// random user names, every request from the next loopback address of 127.16.0.0/12, so that
// neither the per-address nor the per-account limit stops it. Prints `ready` when it starts, then
// every 250 ms one JSON line with the answers so far by status (0: the connection failed); it
// runs until it is killed (at the lowest priority on a busy machine, its own end could take minutes).
import { request } from 'node:http';

const [url, concurrency] = [process.argv[2]!, Number(process.argv[3])];
const ADDRESSES = 1 << 20; // 127.16.0.0/12

const post = (from: string, body: string) =>
  new Promise<number>((resolve) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, localAddress: from, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });

const logins: Record<number, number> = {};
let next = 1;
const worker = async () => {
  for (;;) {
    const n = next++ % ADDRESSES;
    const from = `127.${16 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
    const status = await post(from, JSON.stringify({ username: `guess${n}`, password: 'Wrong-Passw0rd1' }));
    logins[status] = (logins[status] ?? 0) + 1;
  }
};
process.stdout.write('ready\n');
setInterval(() => process.stdout.write(`${JSON.stringify(logins)}\n`), 250);
await Promise.all(Array.from({ length: concurrency }, worker));
