import { createServer } from 'node:http';

// The machine's ceiling: a bare node:http server answering every request with one pre-serialised JSON
// body of BODY_BYTES bytes (the size of a real detail response), whatever the path. Nothing the API does
// can be faster on this machine, so the benchmark reports each scenario as a ratio to it, asked for one
// fixed path; asked through the scenarios' rotating paths it shows what rotating them costs the load
// generator. Prints {"port": n} when ready.

const bytes = Math.max(14, Number(process.env.BODY_BYTES) || 1024);
// {"padding":""} is 14 bytes: pad it to the exact size asked for
const body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(bytes - 14) }));
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((request, response) => {
  // read (and drop) any request body before answering, as a real handler would
  request.resume();
  request.on('end', () => {
    response.writeHead(200, headers);
    response.end(body);
  });
});

server.listen(Number(process.env.PORT) || 0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : null }));
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
